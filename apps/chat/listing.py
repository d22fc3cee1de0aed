"""What the listing operations share: page sizes, cursors, and finding words in columns."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_

from apps.chat.errors import ChatError
from apps.chat.ids import decode_cursor


def page_size(limit: int | None, default: int, maximum: int) -> int:
    """Slack pages at most `maximum` items and answers a bigger limit with a full page."""
    return default if limit is None else min(limit, maximum)


def cursor_value(cursor: str, kind: str) -> str:
    """Where a page starts: the value inside a cursor this API returned, or Slack's
    `invalid_cursor` for anything else."""
    value = decode_cursor(cursor, kind)
    if value is None:
        raise ChatError("invalid_cursor", "cursor is not one this API returned; pass response_metadata.next_cursor as is")
    return value


def _like(word: str) -> str:
    """A LIKE pattern matching `word` anywhere, its own % and _ taken literally."""
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def matches_words(query: str, *columns: Any) -> list[Any]:
    """Conditions: every word of `query` appears (case-insensitively) in one of the columns."""
    return [or_(*(func.lower(c).like(_like(word), escape="\\") for c in columns)) for word in query.lower().split()]
