"""The tickets app's error, in Jira's shape: `{"errorMessages": [...], "errors": {field: message}}`."""

from __future__ import annotations

from typing import Any

from officegym.core.errors import AppError


class TicketsError(AppError):
    """A Jira REST error. `field` puts the message under `errors` (a field-level error, as Jira
    reports a missing resolution); `status_code` is the HTTP status REST answers with."""

    def __init__(self, code: str, message: str, *, field: str | None = None, status: int = 400) -> None:
        super().__init__(code, message)
        self.field = field
        self.status_code = status


def not_found(what: str, message: str) -> TicketsError:
    return TicketsError(f"{what}_not_found", message, status=404)


def error_body(error: AppError) -> dict[str, Any]:
    field = getattr(error, "field", None)
    if field:
        return {"errorMessages": [], "errors": {field: error.message}}
    return {"errorMessages": [error.message], "errors": {}}


def ok_body(body: dict[str, Any]) -> Any:
    """The answer as is; a list answer (mcp-atlassian returns bare lists for some tools) rides
    in `{"_list": [...]}` because operations return objects."""
    if set(body) == {"_list"}:
        return body["_list"]
    return body
