"""Slack's legacy secondary attachments (`attachments` on chat.postMessage, chat.update and
chat.scheduleMessage): checked, kept with the message as JSON text, returned as posted (each
with the `id` Slack numbers it by) and shown under the message.

An attachment is an object of optional parts: fallback, color, pretext, author_name/link/icon,
title, title_link, text, fields [{title, value, short}], image_url, thumb_url, footer,
footer_icon, ts, mrkdwn_in, and Block Kit `blocks`. Slack takes at most 100 per message;
anything else is `invalid_attachments`. The whole array is bounded like blocks (its JSON text
and its nesting), so a post can never store or make us walk an unbounded tree.
"""

from __future__ import annotations

import json
from typing import Any

from apps.chat import blocks as block_kit
from apps.chat.errors import ChatError

MAX_ATTACHMENTS = 100  # Slack's limit per message
MAX_ATTACHMENTS_CHARS = 100_000  # the whole array as JSON, as for blocks
MAX_FIELDS = 100
TEXT_PARTS = ("fallback", "color", "pretext", "author_name", "author_link", "author_icon", "author_subname", "title", "title_link",
              "text", "image_url", "thumb_url", "footer", "footer_icon", "callback_id")
MRKDWN_PARTS = frozenset({"pretext", "text", "fields"})


def _invalid(problem: str) -> ChatError:
    return ChatError("invalid_attachments", f"attachments: {problem}")


def parse(raw: Any) -> list[dict[str, Any]] | None:
    """Checked attachments: None when not given, [] when given empty (chat.update reads that
    as "remove them"). Raises ChatError invalid_attachments / too_many_attachments."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, str):
        if len(raw) > MAX_ATTACHMENTS_CHARS:
            raise _invalid(f"the array is {len(raw)} characters as JSON; at most {MAX_ATTACHMENTS_CHARS}")
        try:
            raw = json.loads(raw)
        except ValueError as problem:
            raise _invalid(f"not valid JSON ({problem})") from None
    if not isinstance(raw, list):
        raise _invalid(f"must be a JSON array of attachment objects; got {type(raw).__name__}")
    if len(raw) > MAX_ATTACHMENTS:
        raise ChatError("too_many_attachments", f"{len(raw)} attachments; Slack allows at most {MAX_ATTACHMENTS} on a message")
    if block_kit._depth(raw) > block_kit.MAX_DEPTH:
        raise _invalid(f"nested deeper than {block_kit.MAX_DEPTH} levels")
    if len(json.dumps(raw, ensure_ascii=False)) > MAX_ATTACHMENTS_CHARS:
        raise _invalid(f"the array is longer than {MAX_ATTACHMENTS_CHARS} characters as JSON")
    checked = []
    for index, attachment in enumerate(raw):
        at = f"[{index}]"
        if not isinstance(attachment, dict):
            raise _invalid(f"{at} must be an object like {{\"text\": \"…\", \"fallback\": \"…\"}}; got {type(attachment).__name__}")
        for part in TEXT_PARTS:
            if part in attachment and attachment[part] is not None and not isinstance(attachment[part], str):
                raise _invalid(f"{at}.{part} must be a string")
        fields = attachment.get("fields")
        if fields is not None:
            if not isinstance(fields, list) or len(fields) > MAX_FIELDS:
                raise _invalid(f"{at}.fields must be an array of at most {MAX_FIELDS} {{\"title\", \"value\", \"short\"}} objects")
            for n, field in enumerate(fields):
                if not isinstance(field, dict) or any(k in field and field[k] is not None and not isinstance(field[k], str) for k in ("title", "value")):
                    raise _invalid(f"{at}.fields[{n}] must be an object with string title and value (and short: true/false)")
        mrkdwn_in = attachment.get("mrkdwn_in")
        if mrkdwn_in is not None and (not isinstance(mrkdwn_in, list) or not all(isinstance(m, str) for m in mrkdwn_in)):
            raise _invalid(f"{at}.mrkdwn_in must be an array of part names ({', '.join(sorted(MRKDWN_PARTS))})")
        kept = dict(attachment)
        if "blocks" in kept:
            kept["blocks"] = block_kit.parse(kept["blocks"]) or []
        if not any(_words(kept)):
            raise _invalid(f"{at} has nothing to show: give it text, fallback, pretext, title, fields or blocks")
        kept.setdefault("id", index + 1)  # as Slack numbers a message's attachments
        checked.append(kept)
    return checked


def dump(attachments: list[dict[str, Any]] | None) -> str | None:
    return json.dumps(attachments, ensure_ascii=False, separators=(",", ":")) if attachments else None


def load(stored: str | None) -> list[dict[str, Any]] | None:
    return json.loads(stored) if stored else None


def _words(attachment: dict[str, Any]) -> list[str]:
    parts = [attachment.get(k) for k in ("pretext", "author_name", "title", "text")]
    for field in attachment.get("fields") or ():
        parts += [field.get("title"), field.get("value")]
    parts.append(block_kit.render_text(attachment.get("blocks")))
    parts += [attachment.get("footer")]
    found = [p for p in parts if isinstance(p, str) and p.strip()]
    if not found and isinstance(attachment.get("fallback"), str) and attachment["fallback"].strip():
        found = [attachment["fallback"]]
    return found


def render_text(attachments: list[dict[str, Any]] | None) -> str:
    """The words of attachments as mrkdwn lines, as the message shows them under its text:
    pretext, author, title, text, each field's title and value, blocks, footer (the fallback
    only when nothing else has words: it is what notifications show instead)."""
    return "\n".join(line for a in attachments or () for line in _words(a))


def search_text(stored: str | None) -> str:
    """The words Slack's search finds in a message's attachments: every part that holds text
    (pretext, author, title, text, fields, blocks, footer) and the fallback as well."""
    attachments = load(stored) or []
    parts = [render_text(attachments)]
    parts += [a["fallback"] for a in attachments if isinstance(a.get("fallback"), str)]
    return "\n".join(parts)
