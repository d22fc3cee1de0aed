"""JQL's text search (`~`, `!~`) on summary, description, comments, the Salesforce case field
and `text` (all of them): every term must appear, case-insensitively; a quoted phrase stays
whole; wildcards are dropped (a term matches inside words anyway)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, exists, func, literal, not_, or_, select

from apps.tickets.jql.fields import TEXT_COLUMNS, FieldSpec
from apps.tickets.jql.parser import JqlError
from apps.tickets.models import Comment, Issue


def condition(field: FieldSpec, op: str, text: str) -> Any:
    terms = _terms(text)
    if not terms:
        raise JqlError(f"The field '{field.name}' does not support searching for an empty string.")
    name = field.name.lower()

    def matches(term: str) -> Any:
        comment = exists(select(literal(1)).select_from(Comment).where(Comment.issue_id == Issue.id, _like(Comment.body, term)))
        if name == "comment":
            return comment
        if name == "salesforce case":
            return _like(Issue.case_number, term)
        if name == "text":
            return or_(_like(Issue.summary, term), _like(Issue.description, term), comment, _like(Issue.case_number, term))
        return _like(TEXT_COLUMNS[name][0], term)

    found = and_(*[matches(t) for t in terms])
    return found if op == "~" else not_(found)


def _like(column: Any, term: str) -> Any:
    return func.lower(column).like(f"%{_escape(term)}%", escape="\\")


def _escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _terms(text: str) -> list[str]:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        phrase = text[1:-1].strip().lower()
        return [phrase] if phrase else []
    return [w.strip("*?").lower() for w in text.split() if w.strip("*?") and w.upper() not in ("AND", "OR")]
