"""The sheets app's operations: every `@operation` of `SheetsService`, with Google's response
and error shapes. Every face binds to this set."""

from __future__ import annotations

from apps.sheets import drive, xlsx
from apps.sheets.errors import SheetsError, error_body, ok_body
from apps.sheets.service import SheetsService
from officegym.core.operations import collect

# Drive's reads of one file (files.get, its alt=media download, files.export, permissions.list),
# bound onto the service as the other modules' operations are (service.py's list).
for _method in (drive.files_get, drive.files_download, drive.permissions_list, xlsx.files_export):
    setattr(SheetsService, _method.__name__, _method)

OPERATIONS = collect("sheets", SheetsService, error=SheetsError, ok_body=ok_body, error_body=error_body)
