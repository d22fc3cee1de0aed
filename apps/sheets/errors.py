"""The sheets app's error: Google's `{"error": {"code", "message", "status"}}`."""

from __future__ import annotations

from typing import Any

from officegym.core.errors import AppError

STATUS = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 409: "ALREADY_EXISTS", 500: "INTERNAL"}
CODE_HTTP = {"invalid_arguments": 400, "INVALID_ARGUMENT": 400, "NOT_FOUND": 404, "PERMISSION_DENIED": 403,
             "ALREADY_EXISTS": 400, "unknown_tool": 400, "env_not_found": 404, "internal_error": 500}


class SheetsError(AppError):
    """A Sheets API error: `code` is Google's status (INVALID_ARGUMENT, NOT_FOUND, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.status_code = CODE_HTTP.get(code, 400)


def invalid(message: str) -> SheetsError:
    return SheetsError("INVALID_ARGUMENT", message)


def not_found(message: str) -> SheetsError:
    return SheetsError("NOT_FOUND", message)


def error_body(error: AppError) -> dict[str, Any]:
    http = CODE_HTTP.get(error.code, 400)
    return {"error": {"code": http, "message": error.message, "status": STATUS.get(http, "INVALID_ARGUMENT")}}


def ok_body(body: Any) -> Any:
    return body
