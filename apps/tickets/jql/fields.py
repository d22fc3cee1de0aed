"""The fields JQL knows: their names and aliases, what kind of value each takes, the
operators each supports (Jira's rules), and the columns behind them."""

from __future__ import annotations

from dataclasses import dataclass

from apps.tickets.jql.parser import JqlError
from typing import Any

from sqlalchemy import func, select

from apps.tickets.models import Issue, Worklog

EQUALITY = ("=", "!=", "in", "not in", "is", "is not")
ORDERED = ("=", "!=", ">", ">=", "<", "<=", "in", "not in", "is", "is not")
TEXT = ("~", "!~", "is", "is not")


@dataclass(frozen=True)
class FieldSpec:
    name: str  # as Jira names it in messages
    kind: str
    ops: tuple[str, ...]


FIELDS: dict[str, FieldSpec] = {}
for _names, _spec in (
    (("project",), FieldSpec("project", "project", EQUALITY)),
    (("key", "issuekey", "id", "issue"), FieldSpec("key", "key", ORDERED)),
    (("status",), FieldSpec("status", "status", EQUALITY)),
    (("statuscategory",), FieldSpec("statusCategory", "category", EQUALITY)),
    (("assignee",), FieldSpec("assignee", "user", EQUALITY)),
    (("reporter",), FieldSpec("reporter", "user", EQUALITY)),
    (("creator",), FieldSpec("creator", "user", EQUALITY)),
    (("watcher",), FieldSpec("watcher", "watcher", EQUALITY)),
    (("priority",), FieldSpec("priority", "priority", ORDERED)),
    (("issuetype", "type"), FieldSpec("issuetype", "issuetype", EQUALITY)),
    (("labels", "label"), FieldSpec("labels", "labels", EQUALITY)),
    (("component", "components"), FieldSpec("component", "component", EQUALITY)),
    (("fixversion", "fixversions"), FieldSpec("fixVersion", "version", EQUALITY)),
    (("sprint", "cf[10020]"), FieldSpec("Sprint", "sprint", EQUALITY)),
    (("parent", "epic link", "parentepic"), FieldSpec("parent", "parent", EQUALITY)),
    (("created", "createddate"), FieldSpec("created", "datetime", ORDERED)),
    (("updated", "updateddate"), FieldSpec("updated", "datetime", ORDERED)),
    (("resolved", "resolutiondate"), FieldSpec("resolved", "datetime", ORDERED)),
    (("due", "duedate"), FieldSpec("due", "date", ORDERED)),
    (("resolution",), FieldSpec("resolution", "resolution", EQUALITY)),
    (("summary",), FieldSpec("summary", "text", TEXT)),
    (("description",), FieldSpec("description", "text", TEXT)),
    (("text",), FieldSpec("text", "text", ("~", "!~"))),
    (("comment",), FieldSpec("comment", "text", ("~", "!~"))),
    (("story points", "cf[10016]", "storypoints"), FieldSpec("Story Points", "number", ORDERED)),
    (("originalestimate", "timeoriginalestimate"), FieldSpec("originalEstimate", "duration", ORDERED)),
    (("remainingestimate", "timeestimate"), FieldSpec("remainingEstimate", "duration", ORDERED)),
    (("timespent",), FieldSpec("timeSpent", "duration", ORDERED)),
    (("salesforce case", "cf[10050]"), FieldSpec("Salesforce Case", "case", ("=", "!=", "~", "!~", "in", "not in", "is", "is not"))),
):
    for _name in _names:
        FIELDS[_name] = _spec

DATE_COLUMNS = {"created": Issue.created, "updated": Issue.updated, "resolved": Issue.resolved}
TEXT_COLUMNS = {"summary": (Issue.summary,), "description": (Issue.description,)}
USER_COLUMNS = {"assignee": Issue.assignee_id, "reporter": Issue.reporter_id, "creator": Issue.creator_id}


def duration_column(field: FieldSpec) -> Any:
    """A time-tracking field's column: an issue's estimate, or the time its worklogs add up to
    (empty with none), for a clause or an ORDER BY."""
    if field.name == "originalEstimate":
        return Issue.original_estimate
    if field.name == "remainingEstimate":
        return Issue.remaining_estimate
    return select(func.sum(Worklog.seconds)).where(Worklog.issue_id == Issue.id).scalar_subquery()


def spec(name: str) -> FieldSpec:
    found = FIELDS.get(name.strip().lower())
    if found is None:
        raise JqlError(f"Field '{name}' does not exist or you do not have permission to view it.")
    return found
