"""updateBorders and autoResizeDimensions as Google Sheets applies them: borders land in each
cell's userEnteredFormat.borders (outer sides on the range's edge cells, inner lines on both
cells they run between; a side left out stays, NONE takes it away), and move with their cells;
autoResizeDimensions sizes columns (rows) to what their cells show (the estimate documented in
apps/sheets/auto_resize.py), read back as columnMetadata / rowMetadata pixelSize. Bad requests
are Google's 400 and write nothing.

Before, both answered success and were dropped: "add borders" and "fit the columns" showed
nothing in spreadsheets.get."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from officegym.core.env_store import Env
from tests.apps.sheets.test_basic_filter import sheets

SOLID = {"style": "SOLID", "width": 1, "color": {}, "colorStyle": {"rgbColor": {}}}
THICK_RED = {"style": "SOLID_THICK", "width": 3, "color": {"red": 1.0}, "colorStyle": {"rgbColor": {"red": 1.0}}}


def rng(r1: int = 0, r2: int = 2, c1: int = 0, c2: int = 2) -> dict[str, int]:
    return {"sheetId": 0, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Framed"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:C2", valueInputOption="USER_ENTERED",
                        body={"values": [["Quarterly revenue by region", "x", 1234567.5], ["a", "two\nlines", ""]]}).execute()
    return api, sid


def borders(api: Any, sid: str) -> dict[tuple[int, int], dict[str, Any]]:
    got = api.get(spreadsheetId=sid, ranges=["Sheet1!A1:D4"], includeGridData=True).execute()["sheets"][0]["data"][0]
    return {(i, j): cell["userEnteredFormat"]["borders"] for i, row in enumerate(got.get("rowData", []))
            for j, cell in enumerate(row.get("values", [])) if "borders" in cell.get("userEnteredFormat", {})}


def test_borders_are_on_the_cells_as_google_shows_them(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"updateBorders": {
        "range": rng(), "top": {"style": "SOLID"}, "bottom": {"style": "SOLID"}, "innerHorizontal": {"style": "SOLID_THICK",
                                                                                                        "color": {"red": 1}}}}]}).execute()
    found = borders(api, sid)
    assert found[(0, 0)] == {"top": SOLID, "bottom": THICK_RED} and found[(1, 1)] == {"top": THICK_RED, "bottom": SOLID}
    assert set(found) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    # Left out: kept. NONE: taken away. Values and other formats are untouched.
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"updateBorders": {"range": rng(), "innerHorizontal": {"style": "NONE"},
                                                                             "left": {"style": "DASHED"}}}]}).execute()
    found = borders(api, sid)
    assert found[(0, 0)] == {"top": SOLID, "left": {**SOLID, "style": "DASHED"}} and found[(1, 1)] == {"bottom": SOLID}
    # They move with their cells.
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"insertDimension": {
        "range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 1}}}]}).execute()
    assert borders(api, sid)[(2, 1)] == {"bottom": SOLID}
    assert api.values().get(spreadsheetId=sid, range="Sheet1!A2").execute()["values"] == [["Quarterly revenue by region"]]


def test_auto_resize_fits_columns_and_rows_to_what_they_show(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [
        {"autoResizeDimensions": {"dimensions": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 4}}},
        {"autoResizeDimensions": {"dimensions": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 2}}}]}).execute()
    got = api.get(spreadsheetId=sid, ranges=["Sheet1!A1:D3"], includeGridData=True).execute()["sheets"][0]["data"][0]
    widths = [m["pixelSize"] for m in got["columnMetadata"]]
    # 27 characters × 7 + 10; "two / lines": its longest line, 5 → 45; "1234567.5" → 73; D has nothing and keeps its size.
    assert widths == [27 * 7 + 10, 5 * 7 + 10, 9 * 7 + 10, 100]
    assert [m["pixelSize"] for m in got["rowMetadata"]] == [21, 42, 21]


@pytest.mark.parametrize(("request_body", "says"), [
    ({"updateBorders": {"range": rng(), "top": {"style": "WAVY"}}}, "top.style must be one of"),
    ({"updateBorders": {"range": rng(), "top": {"color": {"red": 1}}}}, "top.style must be one of"),
    ({"updateBorders": {"range": rng(), "top": {"style": "SOLID", "color": {"red": 3}}}}, "red must be a number from 0 to 1"),
    ({"updateBorders": {"range": rng(), "diagonal": {"style": "SOLID"}}}, "'diagonal'"),
    ({"updateBorders": {"top": {"style": "SOLID"}}}, "range is required"),
    ({"autoResizeDimensions": {"dimensions": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 27}}}, "exceeds grid limits"),
    ({"autoResizeDimensions": {"dimensions": {"sheetId": 0, "dimension": "WIDE", "startIndex": 0, "endIndex": 2}}}, "ROWS or COLUMNS"),
    ({"autoResizeDimensions": {}}, "dimensions is required"),
    ({"autoResizeDimensions": {"dataSourceSheetDimensions": {}}}, "data source"),
])
def test_what_cannot_be_done_is_googles_400_and_writes_nothing(agent_url: str, env: Env, made: tuple[Any, str],
                                                              request_body: dict[str, Any], says: str) -> None:
    api, sid = made
    url = f"{agent_url}/envs/{env.id}/api/sheets/v4/spreadsheets/{sid}:batchUpdate"
    first = {"updateBorders": {"range": rng(), "top": {"style": "SOLID"}}}
    resize = {"autoResizeDimensions": {"dimensions": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 1}}}
    bad = httpx.post(url, json={"requests": [first, resize, request_body]}, timeout=30)
    assert bad.status_code == 400
    error = bad.json()["error"]
    kind = next(iter(request_body))
    assert error["status"] == "INVALID_ARGUMENT" and error["message"].startswith(f"Invalid requests[2].{kind}")
    assert says in error["message"]
    assert borders(api, sid) == {}
    got = api.get(spreadsheetId=sid, ranges=["Sheet1!A1:A1"], includeGridData=True).execute()["sheets"][0]["data"][0]
    assert got["columnMetadata"] == [{"pixelSize": 100}]
