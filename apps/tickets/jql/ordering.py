"""JQL's ORDER BY: the sort expressions behind each sortable field."""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, select

from apps.tickets import catalog
from apps.tickets.jql.fields import USER_COLUMNS, FieldSpec, duration_column, spec
from apps.tickets.jql.parser import JqlError
from apps.tickets.models import Issue, User


def order_by(keys: tuple[tuple[str, str], ...]) -> list[Any]:
    """ORDER BY clauses: empties last ascending, first descending (as Jira sorts), the issue id breaking ties."""
    clauses: list[Any] = []
    for name, direction in keys:
        low = name.strip().lower()
        if low in ("rank",):
            expressions = [Issue.rank]
        else:
            field = spec(name)
            expressions = _sort_columns(field)
        for expr in expressions:
            if getattr(expr, "nullable", True):  # a column that is never empty sorts on itself: an index can serve it
                nulls = case((expr.is_(None), 1), else_=0)
                clauses.append(nulls.asc() if direction == "asc" else nulls.desc())
            clauses.append(expr.asc() if direction == "asc" else expr.desc())
    if not keys:
        clauses += [Issue.created.desc()]
    clauses.append(Issue.id.desc())
    return clauses

def _sort_columns(field: FieldSpec) -> list[Any]:
    name = field.name.lower()
    if field.kind == "key":
        return [Issue.project_key, Issue.number]
    if name == "priority":  # ascending = least urgent first, as Jira sorts priorities
        return [case(*[(Issue.priority == p.name, -p.rank) for p in catalog.PRIORITIES], else_=0)]
    if name == "status":
        return [case(*[(Issue.status == s.name, n) for n, s in enumerate(catalog.STATUSES)], else_=99)]
    if field.kind == "duration":  # originalEstimate, remainingEstimate, timeSpent: in seconds
        return [duration_column(field)]
    if field.kind == "user":
        column = USER_COLUMNS[name]
        return [select(User.display_name).where(User.account_id == column).scalar_subquery()]
    simple = {"created": Issue.created, "updated": Issue.updated, "resolved": Issue.resolved, "due": Issue.duedate,
              "summary": Issue.summary, "issuetype": Issue.issue_type, "project": Issue.project_key, "resolution": Issue.resolution,
              "story points": Issue.story_points, "salesforce case": Issue.case_number, "parent": Issue.parent_id,
              "description": Issue.description}
    if name in simple:
        return [simple[name]]
    raise JqlError(f"Field '{field.name}' does not support sorting.")
