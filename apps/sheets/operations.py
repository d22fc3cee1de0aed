"""The sheets app's operations: every `@operation` of `SheetsService`, with Google's response
and error shapes. Every face binds to this set."""

from __future__ import annotations

from apps.sheets.errors import SheetsError, error_body, ok_body
from apps.sheets.service import SheetsService
from officegym.core.operations import collect

OPERATIONS = collect("sheets", SheetsService, error=SheetsError, ok_body=ok_body, error_body=error_body)
