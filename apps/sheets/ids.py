"""Google-format identifiers, derived by hashing stable inputs (the seed, titles, the env
clock), never from randomness: the same calls in the same env mint the same ids."""

from __future__ import annotations

import base64
import hashlib


def google_id(*parts: object, length: int = 44) -> str:
    """A Drive file id like Google's: `length` base64url characters ('1BxiMVs0XRA5nFMd…')."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    digest += hashlib.sha256(digest).digest()
    text = base64.urlsafe_b64encode(digest).decode().rstrip("=")
    return "1" + text[: length - 1]


def sheet_id(*parts: object) -> int:
    """A tab's sheetId: a positive 31-bit integer, as Google mints for added tabs."""
    return int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:4], "big") & 0x7FFFFFFF or 1


def permission_id(*parts: object) -> str:
    return str(int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:8], "big"))[:20]
