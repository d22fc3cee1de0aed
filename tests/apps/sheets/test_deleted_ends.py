"""A merge or named range whose last rows (columns) are deleted ends where the deleted ones
began, as in Google Sheets: deleting column B of a merge A1:B2 leaves A1:A2 merged, and a named
range A1:B5 becomes A1:A5. Before, its end stayed one past the deleted ones (the merge took in
the column that moved into B's place)."""

from __future__ import annotations

from typing import Any

from officegym.core.env_store import Env
from tests.apps.sheets.test_basic_filter import sheets


def test_a_merge_and_a_named_range_shrink_when_their_last_column_is_deleted(agent_url: str, env: Env) -> None:
    api: Any = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Ends"}}).execute()["spreadsheetId"]
    api.batchUpdate(spreadsheetId=sid, body={"requests": [
        {"mergeCells": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2},
                        "mergeType": "MERGE_ALL"}},
        {"addNamedRange": {"namedRange": {"name": "Block", "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 5,
                                                                     "startColumnIndex": 0, "endColumnIndex": 2}}}},
        {"deleteDimension": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 1, "endIndex": 2}}}]}).execute()
    got = api.get(spreadsheetId=sid).execute()
    assert got["sheets"][0]["merges"] == [{"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 1}]
    assert got["namedRanges"][0]["range"] == {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 5, "startColumnIndex": 0, "endColumnIndex": 1}
