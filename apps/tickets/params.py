"""The typed arguments of tickets operations: one definition of what each face accepts.

Jira takes structured values (`{"priority": {"name": "High"}}`); mcp-atlassian passes them as
JSON inside strings. `JsonObject`/`JsonList` accept both, and `decode` reads them.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import Field

from apps.tickets.errors import TicketsError

MAX_REF = 256

IssueRef = Annotated[str, Field(max_length=160, description="Issue key ('PROJ-123') or numeric id ('10002')")]
CloudId = Annotated[str, Field(max_length=160, description="The Atlassian site's cloud id (from getAccessibleAtlassianResources) or its URL")]
ProjectRef = Annotated[str, Field(max_length=MAX_REF, description="Project key ('SUP', 'ENG', 'IT'), id or name")]
UserRef = Annotated[str, Field(max_length=MAX_REF, description="A user: accountId, email or display name")]
Summary = Annotated[str, Field(max_length=MAX_REF, description="One-line summary (at most 255 characters)")]
Body = Annotated[str | dict[str, Any], Field(description="Text in Markdown (or an Atlassian Document Format object)")]
IssueTypeName = Annotated[str, Field(max_length=64, description="Issue type: Epic, Story, Task, Bug, Subtask (Incident on SUP)")]
Jql = Annotated[str, Field(max_length=4000, description="A JQL query, e.g. 'project = SUP AND status != Done ORDER BY created DESC'")]
FieldList = Annotated[str | list[str], Field(description="Fields to return: comma-separated ids ('summary,status') or a list; '*all' for every field")]
JsonObject = Annotated[dict[str, Any] | str, Field(description="A JSON object (or that object as a JSON string)")]
JsonList = Annotated[list[Any] | str, Field(description="A JSON array (or that array as a JSON string)")]
Names = Annotated[str | list[str], Field(description="Names: a comma-separated string or a list")]
MAX_MOVED = 50  # Jira Software's limit for one bulk move (to an epic, to the backlog)
IssueRefs = Annotated[list[IssueRef], Field(min_length=1, max_length=MAX_MOVED, description="Issue keys or ids, 1 to 50")]
Limit = Annotated[int, Field(ge=1, le=1_000_000, description="Maximum number of results")]
CommentLimit = Annotated[int, Field(ge=0, le=1000, description="Maximum number of comments to include (0 for none)")]
Offset = Annotated[int, Field(ge=0, le=1_000_000, description="Index of the first result (0-based)")]
Token = Annotated[str, Field(max_length=512, description="nextPageToken of the previous page")]
Duration = Annotated[str, Field(max_length=64, description="Time spent in Jira's format: '1h 30m', '2d', '45m' (1d = 8h, 1w = 5d)")]
DateText = Annotated[str, Field(max_length=40, description="A date 'YYYY-MM-DD' or a time '2026-01-15T10:30:00.000+0000'")]
SprintState = Annotated[str, Field(max_length=64, description="Sprint states, comma-separated: future, active, closed")]
Keyword = Annotated[str, Field(max_length=MAX_REF, description="Words to find")]
Style = Literal["jira", "simplified"]
Counted = Annotated[bool, Field(description="Whether the answer counts every match (`total`); Jira's enhanced search (/search/jql) does not, "
                                            "and tells `isLast` instead")]


def decode(value: Any, what: str, kind: type) -> Any:
    """A JSON object or array given as itself or as JSON text; TicketsError naming `what`."""
    if value is None or value == "":
        return kind()
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as bad:
            raise TicketsError("invalid_arguments", f"argument '{what}' must be a JSON {kind.__name__.replace('dict', 'object').replace('list', 'array')}: {bad}") from None
    if not isinstance(value, kind):
        shown = "object" if kind is dict else "array"
        raise TicketsError("invalid_arguments", f"argument '{what}' must be a JSON {shown}; got {type(value).__name__}")
    return value


def names(value: str | list[Any] | None) -> list[str]:
    """Comma-separated text or a list, as clean distinct strings in order."""
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else value
    out: list[str] = []
    for item in items:
        if isinstance(item, dict):
            item = item.get("name") or item.get("key") or item.get("id") or ""
        text = str(item).strip()
        if text and text not in out:
            out.append(text)
    return out
