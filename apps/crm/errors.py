"""The crm app's error: Salesforce's error array `[{"message", "errorCode", "fields"}]`.

`code` is Salesforce's errorCode (MALFORMED_QUERY, INVALID_FIELD, REQUIRED_FIELD_MISSING,
NOT_FOUND, ...); the message says what was wrong and what is accepted. The HTTP status
follows the code, as the REST API answers: 404 for NOT_FOUND, 400 otherwise.
"""

from __future__ import annotations

from typing import Any

from officegym.core.errors import AppError

STATUS = {"NOT_FOUND": 404, "METHOD_NOT_ALLOWED": 405, "ENTITY_IS_DELETED": 404}
# The operation parser's generic code for bad arguments, in Salesforce's words.
RENAMED = {"invalid_arguments": "INVALID_INPUT", "env_not_found": "NOT_FOUND", "internal_error": "UNKNOWN_EXCEPTION",
           "unknown_tool": "INVALID_INPUT", "invalid_auth": "INVALID_SESSION_ID", "request_too_large": "REQUEST_LIMIT_EXCEEDED",
           "cross_origin_request": "INSUFFICIENT_ACCESS"}


class CrmError(AppError):
    """A Salesforce API error; `fields` names the fields it is about (may be empty)."""

    def __init__(self, code: str, message: str, fields: list[str] | tuple[str, ...] = ()) -> None:
        super().__init__(code, message)
        self.fields = list(fields)

    @property
    def status_code(self) -> int:  # type: ignore[override]
        return STATUS.get(self.code, 400)


def error_code(error: AppError) -> str:
    return RENAMED.get(error.code, error.code.upper())


def error_body(error: AppError) -> list[dict[str, Any]]:  # type: ignore[override]
    return [{"message": error.message, "errorCode": error_code(error), "fields": list(getattr(error, "fields", []))}]


def ok_body(body: Any) -> Any:
    return body
