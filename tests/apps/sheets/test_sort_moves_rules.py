"""sortRange moves each cell's data validation with its value, as its format, as Google Sheets'
sort does: a row's checkbox or dropdown goes where its row goes, a custom formula rule keeps
reading its own row, and the rules outside the sorted range stay. Before, the values moved and
the rules stayed by row, so after a sort the checkboxes sat on other tasks' rows. Driven
through Google's own client; the basic filter's sort takes the same path."""

from __future__ import annotations

from typing import Any

import pytest

from officegym.core.env_store import Env
from tests.apps.sheets.test_basic_filter import sheets
from tests.apps.sheets.test_data_validation import DROPDOWN, cond, dv

CHECKBOX = {"condition": cond("BOOLEAN")}
POSITIVE = {"condition": cond("CUSTOM_FORMULA", "=C2>0"), "strict": True}
RED = {"red": 1.0}


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Tasks"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:D5", valueInputOption="USER_ENTERED", body={"values": [
        ["Task", "Status", "Hours", "Done"], ["delta", "Open", 4, True], ["alpha", "", 2, ""], ["charlie", "Done", 3, False],
        ["bravo", "", 1, ""]]}).execute()
    api.batchUpdate(spreadsheetId=sid, body={"requests": [
        dv(DROPDOWN, r1=1, r2=2, c1=1, c2=2), dv(DROPDOWN, r1=3, r2=4, c1=1, c2=2),  # dropdowns on delta and charlie
        dv(CHECKBOX, r1=1, r2=2, c1=3, c2=4), dv(CHECKBOX, r1=3, r2=4, c1=3, c2=4),
        dv(POSITIVE, r1=1, r2=6, c1=2, c2=3),  # the whole Hours column, one row past the data
        dv(CHECKBOX, r1=9, r2=10, c1=0, c2=1),  # outside the sorted range
        {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 1},
                        "cell": {"userEnteredFormat": {"backgroundColor": RED}}, "fields": "userEnteredFormat.backgroundColor"}},
    ]}).execute()
    return api, sid


def by_cell(api: Any, sid: str) -> dict[str, Any]:
    got = api.get(spreadsheetId=sid, ranges=["Sheet1!A1:D10"], includeGridData=True).execute()
    out = {}
    for r, row in enumerate(got["sheets"][0]["data"][0].get("rowData", [])):
        for c, cell in enumerate(row.get("values", [])):
            name = "ABCD"[c] + str(r + 1)
            if "dataValidation" in cell:
                out[name] = cell["dataValidation"]
            if (cell.get("userEnteredFormat") or {}).get("backgroundColor"):
                out[name + " fill"] = cell["userEnteredFormat"]["backgroundColor"]
    return out


def test_a_sort_moves_each_cells_rule_and_format_with_its_value(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"sortRange": {
        "range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 5, "startColumnIndex": 0, "endColumnIndex": 4},
        "sortSpecs": [{"dimensionIndex": 0, "sortOrder": "ASCENDING"}]}}]}).execute()
    values = api.values().get(spreadsheetId=sid, range="Sheet1!A2:D5").execute()["values"]
    assert [row[0] for row in values] == ["alpha", "bravo", "charlie", "delta"]
    cells = by_cell(api, sid)
    assert {k for k in cells if k.startswith(("B", "D"))} == {"B4", "B5", "D4", "D5"}, "dropdowns and checkboxes on charlie and delta"
    assert cells["B5"] == cells["B4"] == DROPDOWN and cells["D5"] == cells["D4"] == CHECKBOX
    assert cells["A5 fill"] == RED and "A2 fill" not in cells, "delta's fill went with it"
    assert all(cells[f"C{r}"] == POSITIVE for r in range(2, 7)), "the custom rule still reads each cell's own row"
    assert cells["A10"] == CHECKBOX, "a rule outside the sorted range stays"


def test_the_basic_filters_sort_moves_them_too(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"setBasicFilter": {"filter": {
        "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 5, "startColumnIndex": 0, "endColumnIndex": 4},
        "sortSpecs": [{"dimensionIndex": 2, "sortOrder": "DESCENDING"}]}}}]}).execute()
    values = api.values().get(spreadsheetId=sid, range="Sheet1!A2:A5").execute()["values"]
    assert [row[0] for row in values] == ["delta", "charlie", "alpha", "bravo"]
    cells = by_cell(api, sid)
    assert {k for k in cells if k.startswith(("B", "D"))} == {"B2", "B3", "D2", "D3"}
    assert cells["A2 fill"] == RED
