"""Slack-format identifiers: ids, message timestamps, cursors and permalinks.

Ids are derived from stable inputs (the seed, names, the env clock) by hashing, never from
randomness, so the same calls in the same env always mint the same ids.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def slack_id(prefix: str, *parts: object, length: int = 10) -> str:
    """`prefix` + `length` uppercase alphanumerics, like Slack's `C04ABCDEF12`."""
    digest = int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest(), "big")
    chars = []
    for _ in range(length):
        digest, index = divmod(digest, len(_ALPHABET))
        chars.append(_ALPHABET[index])
    return prefix + "".join(chars)


def ts_from_micros(micros: int) -> str:
    """Slack message ts: 10 digits, a dot, 6 digits ("1712345678.000100")."""
    seconds, fraction = divmod(micros, 1_000_000)
    return f"{seconds:010d}.{fraction:06d}"


def ts_seconds(ts: str) -> int:
    return int(ts.split(".", 1)[0])


def is_ts(value: str) -> bool:
    head, dot, tail = value.partition(".")
    return bool(dot) and head.isdigit() and tail.isdigit() and len(tail) == 6 and len(head) <= 10


def encode_cursor(kind: str, value: str) -> str:
    """Slack cursors are base64 of "kind:value" (e.g. "next_ts:1512085861000543")."""
    return binascii.b2a_base64(f"{kind}:{value}".encode(), newline=False).decode()  # base64.b64encode's core, without its wrapping


def decode_cursor(cursor: str, kind: str) -> str | None:
    """The value of a cursor of the given kind, or None if it is not one of ours."""
    try:
        text = base64.b64decode(cursor.encode(), validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    prefix, _, value = text.partition(":")
    # Printable only: a crafted cursor must not smuggle NUL or control characters into SQL
    # (PostgreSQL refuses NUL in text, so that would be a 500 there).
    return value if prefix == kind and value and value.isprintable() else None


def permalink(domain: str, channel_id: str, ts: str, thread_ts: str | None = None) -> str:
    link = f"https://{domain}.slack.com/archives/{channel_id}/p{ts.replace('.', '')}"
    if thread_ts and thread_ts != ts:
        link += f"?thread_ts={thread_ts}&cid={channel_id}"
    return link
