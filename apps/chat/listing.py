"""What the listing operations share: page sizes, and finding words in columns."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_


def page_size(limit: int | None, default: int, maximum: int) -> int:
    """Slack pages at most `maximum` items and answers a bigger limit with a full page."""
    return default if limit is None else min(limit, maximum)


def _like(word: str) -> str:
    """A LIKE pattern matching `word` anywhere, its own % and _ taken literally."""
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def matches_words(query: str, *columns: Any) -> list[Any]:
    """Conditions: every word of `query` appears (case-insensitively) in one of the columns."""
    return [or_(*(func.lower(c).like(_like(word), escape="\\") for c in columns)) for word in query.lower().split()]
