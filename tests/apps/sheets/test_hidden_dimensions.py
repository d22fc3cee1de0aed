"""Rows and columns hidden by the user and resized (batchUpdate's updateDimensionProperties),
as Google Sheets keeps them: written for the `fields` named and nothing else, refused with
Google's 400 for what it cannot do (nothing of the batch written), moved with the rows and
columns around them, carried by a duplicated or copied tab, read back by spreadsheets.get as
rowMetadata / columnMetadata, and written to (and read from) an .xlsx file. Driven through
Google's own client over HTTP and through the MCP batch_update tool.

Before, the request answered success and was dropped: "hide column C" did nothing, and nobody
reading the spreadsheet could tell a hidden column from a shown one."""

from __future__ import annotations

import asyncio
import base64
import io
from typing import Any

import httpx
import pytest
from google.auth.credentials import AnonymousCredentials
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import Workbook, load_workbook

from officegym.core.env_store import Env
from officegym.gym import Gym
from officegym.validate import McpTools, ToolError


def sheets(agent_url: str, env: Env) -> Any:
    return build("sheets", "v4", static_discovery=True, credentials=AnonymousCredentials(),
                 client_options={"api_endpoint": f"{agent_url}/envs/{env.id}/api/sheets/"}).spreadsheets()


def hide(sheet_id: int, dimension: str, start: int, end: int | None, hidden: bool = True, fields: str = "hiddenByUser",
         **props: Any) -> dict[str, Any]:
    rng: dict[str, Any] = {"sheetId": sheet_id, "dimension": dimension, "startIndex": start}
    if end is not None:
        rng["endIndex"] = end
    return {"updateDimensionProperties": {"range": rng, "properties": {"hiddenByUser": hidden, **props}, "fields": fields}}


def grid_of(api: Any, sid: str, title: str) -> dict[str, Any]:
    """A tab's GridData, read as a client reads it: spreadsheets.get with grid data for the tab."""
    got = api.get(spreadsheetId=sid, ranges=[title], includeGridData=True).execute()
    return next(s for s in got["sheets"] if "data" in s)["data"][0]


def hidden_of(api: Any, sid: str, title: str = "Sheet1") -> tuple[list[int], list[int]]:
    """(rows, columns) hidden by the user."""
    data = grid_of(api, sid, title)
    return ([i for i, m in enumerate(data["rowMetadata"]) if m.get("hiddenByUser")],
            [i for i, m in enumerate(data["columnMetadata"]) if m.get("hiddenByUser")])


def sizes_of(api: Any, sid: str, title: str = "Sheet1") -> tuple[list[int], list[int]]:
    data = grid_of(api, sid, title)
    return [m["pixelSize"] for m in data["rowMetadata"]], [m["pixelSize"] for m in data["columnMetadata"]]


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Hidden things"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:D3", valueInputOption="USER_ENTERED",
                        body={"values": [["Name", "Helper", "Total", "Note"], ["a", 1, "=B2*2", "x"], ["b", 2, "=B3*2", "y"]]}).execute()
    return api, sid


def test_hiding_a_column_and_rows_shows_in_the_grid_metadata(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide(0, "COLUMNS", 1, 2), hide(0, "ROWS", 2, 4)]}).execute()
    rows, cols = hidden_of(api, sid)
    assert cols == [1] and rows == [2, 3]
    got = api.get(spreadsheetId=sid, ranges=["Sheet1!A1:C3"], includeGridData=True).execute()["sheets"][0]["data"][0]
    # Google lists every row and column of the range asked, each with its size.
    assert got["rowMetadata"] == [{"pixelSize": 21}, {"pixelSize": 21}, {"hiddenByUser": True, "pixelSize": 21}]
    assert got["columnMetadata"] == [{"pixelSize": 100}, {"hiddenByUser": True, "pixelSize": 100}, {"pixelSize": 100}]
    # The values are as they were: hiding changes what is shown, not what the cells hold.
    assert api.values().get(spreadsheetId=sid, range="Sheet1!A3:C3").execute()["values"] == [["b", "2", "4"]]
    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide(0, "COLUMNS", 0, None, hidden=False)]}).execute()
    assert hidden_of(api, sid) == ([2, 3], [])


def test_fields_decide_what_is_written(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [
        hide(0, "COLUMNS", 2, 3),
        # pixelSize only: the column stays hidden though the properties say hiddenByUser false
        hide(0, "COLUMNS", 2, 4, hidden=False, fields="pixelSize", pixelSize=150),
        hide(0, "ROWS", 0, 1, hidden=False, fields="pixelSize", pixelSize=40),
    ]}).execute()
    assert hidden_of(api, sid)[1] == [2]
    rows, cols = sizes_of(api, sid)
    assert cols[:5] == [100, 100, 150, 150, 100] and rows[:2] == [40, 21]
    # '*' writes every property: those not given go back to their defaults.
    api.batchUpdate(spreadsheetId=sid, body={"requests": [
        {"updateDimensionProperties": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 2, "endIndex": 3},
                                       "properties": {}, "fields": "*"}}]}).execute()
    assert hidden_of(api, sid)[1] == []
    assert sizes_of(api, sid)[1][:5] == [100, 100, 100, 150, 100]


@pytest.mark.parametrize(("request_body", "says"), [
    (hide(0, "COLUMNS", 1, 2, fields="hiddenByUser,width"), "'width'"),
    (hide(0, "COLUMNS", 1, 2, fields="hiddenByFilter"), "hiddenByFilter"),
    (hide(0, "COLUMNS", 1, 2, fields=""), "fields is required"),
    (hide(0, "COLUMNS", 20, 27), "exceeds grid limits"),
    (hide(0, "ROWS", 5, 1001), "exceeds grid limits"),
    (hide(0, "ROWS", 5, 5), "endIndex must be greater"),
    (hide(0, "SIDEWAYS", 1, 2), "ROWS or COLUMNS"),
    (hide(7, "ROWS", 1, 2), "No grid with id: 7"),
    (hide(0, "ROWS", 1, 2, hidden="yes"), "hiddenByUser must be true or false"),
    (hide(0, "ROWS", 1, 2, fields="pixelSize", pixelSize=-3), "pixelSize"),
    ({"updateDimensionProperties": {"dataSourceSheetRange": {}, "properties": {"hiddenByUser": True}, "fields": "hiddenByUser"}},
     "dataSourceSheetRange"),
])
def test_what_cannot_be_done_is_googles_400_and_writes_nothing(agent_url: str, env: Env, made: tuple[Any, str],
                                                              request_body: dict[str, Any], says: str) -> None:
    api, sid = made
    url = f"{agent_url}/envs/{env.id}/api/sheets/v4/spreadsheets/{sid}:batchUpdate"
    bad = httpx.post(url, json={"requests": [hide(0, "COLUMNS", 0, 1), hide(0, "ROWS", 0, 1), request_body]}, timeout=30)
    assert bad.status_code == 400
    error = bad.json()["error"]
    assert error["status"] == "INVALID_ARGUMENT" and error["message"].startswith("Invalid requests[2].updateDimensionProperties")
    assert says in error["message"]
    assert hidden_of(api, sid) == ([], [])  # the batch is all or nothing: the good requests before it wrote nothing


def test_hidden_rows_and_columns_move_with_inserts_and_deletes(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide(0, "ROWS", 4, 7), hide(0, "COLUMNS", 3, 4)]}).execute()

    def do(*requests: dict[str, Any]) -> tuple[list[int], list[int]]:
        api.batchUpdate(spreadsheetId=sid, body={"requests": list(requests)}).execute()
        rows, cols = hidden_of(api, sid)
        return rows[:20], cols

    # Rows inserted above move the hidden ones down; a column deleted before moves them left.
    assert do({"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 1, "endIndex": 3}}}) == ([6, 7, 8], [3])
    assert do({"deleteDimension": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 1}}}) == ([6, 7, 8], [2])
    # Inside a hidden block, the new rows take the properties of their neighbours: hidden.
    assert do({"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 7, "endIndex": 8}}}) == ([6, 7, 8, 9], [2])
    # Right after it: hidden only when inheriting from the row before (inheritFromBefore).
    assert do({"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 10, "endIndex": 11}}})[0] == [6, 7, 8, 9]
    assert do({"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 10, "endIndex": 12},
                                   "inheritFromBefore": True}})[0] == [6, 7, 8, 9, 10, 11]
    # Right at its start: hidden when inheriting from the row after (the default).
    assert do({"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 6, "endIndex": 7},
                                   "inheritFromBefore": True}})[0] == [7, 8, 9, 10, 11, 12]
    # Deleting rows takes their properties with them; those below move up.
    assert do({"deleteDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 5, "endIndex": 9}}})[0] == [5, 6, 7, 8]
    # Cells shifted within some columns leave the rows where they are.
    assert do({"insertRange": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 3, "startColumnIndex": 0,
                                         "endColumnIndex": 2}, "shiftDimension": "ROWS"}},
              {"deleteRange": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0,
                                         "endColumnIndex": 2}, "shiftDimension": "COLUMNS"}}) == ([5, 6, 7, 8], [2])
    # Rows appended at the end are shown.
    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide(0, "ROWS", 990, None),
                                                          {"appendDimension": {"sheetId": 0, "dimension": "ROWS", "length": 5}}]}).execute()
    rows, _ = hidden_of(api, sid)
    assert rows == [5, 6, 7, 8, *range(990, 1003)] and len(hidden_of(api, sid)) == 2  # the grid had 1003 rows; now 1008
    with pytest.raises(HttpError) as at_zero:
        api.batchUpdate(spreadsheetId=sid, body={"requests": [
            {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 1},
                                 "inheritFromBefore": True}}]}).execute()
    assert at_zero.value.resp.status == 400 and "inheritFromBefore" in str(at_zero.value)


def test_duplicated_and_copied_tabs_carry_them_and_a_deleted_tab_takes_them(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide(0, "ROWS", 1, 2), hide(0, "COLUMNS", 1, 2, fields="*", pixelSize=60)]}).execute()
    copy = api.batchUpdate(spreadsheetId=sid, body={"requests": [{"duplicateSheet": {"sourceSheetId": 0, "newSheetName": "Copy"}}]}).execute()
    assert hidden_of(api, sid, "Copy") == ([1], [1]) and sizes_of(api, sid, "Copy")[1][1] == 60
    other = api.create(body={"properties": {"title": "Elsewhere"}}).execute()["spreadsheetId"]
    copied = api.sheets().copyTo(spreadsheetId=sid, sheetId=0, body={"destinationSpreadsheetId": other}).execute()
    assert hidden_of(api, other, copied["title"]) == ([1], [1])
    # The copy is its own: showing the original's rows leaves the copy's hidden.
    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide(0, "ROWS", 0, None, hidden=False)]}).execute()
    assert hidden_of(api, sid) == ([], [1]) and hidden_of(api, sid, "Copy") == ([1], [1])
    copy_id = copy["replies"][0]["duplicateSheet"]["properties"]["sheetId"]
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"deleteSheet": {"sheetId": copy_id}},
                                                          {"addSheet": {"properties": {"title": "Copy", "sheetId": copy_id}}}]}).execute()
    assert hidden_of(api, sid, "Copy") == ([], [])


def test_xlsx_export_and_import_keep_hidden_rows_and_columns(made: tuple[Any, str], gym: Gym, env: Env) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide(0, "ROWS", 1, 2), hide(0, "COLUMNS", 1, 3),
                                                          hide(0, "COLUMNS", 3, 4, hidden=False, fields="pixelSize", pixelSize=180)]}).execute()

    async def go(tools: McpTools) -> tuple[Any, Any]:
        exported = await tools.call("export_xlsx", spreadsheet_id=sid)
        back = await tools.call("import_xlsx", content_base64=exported["content_base64"], title="Round trip")
        return exported, back

    exported, back = _mcp(gym, env, go)
    ws = load_workbook(io.BytesIO(base64.b64decode(exported["content_base64"])))["Sheet1"]
    assert ws.row_dimensions[2].hidden and not ws.row_dimensions[1].hidden and not ws.row_dimensions[3].hidden
    assert ws.column_dimensions["B"].hidden and ws.column_dimensions["B"].max == 3 and not ws.column_dimensions["A"].hidden
    assert hidden_of(api, back["spreadsheetId"]) == ([1], [1, 2])
    assert sizes_of(api, back["spreadsheetId"])[1][:5] == [100, 100, 100, 180, 100]

    # A workbook made in Excel (here: by openpyxl) with a hidden row and column opens with them hidden.
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Data"
    sheet["A1"], sheet["C5"] = "top", 5
    sheet.row_dimensions[4].hidden = True
    sheet.column_dimensions["C"].hidden = True
    out = io.BytesIO()
    workbook.save(out)
    made_in_excel = _mcp(gym, env, lambda t: t.call("import_xlsx", content_base64=base64.b64encode(out.getvalue()).decode()))
    assert hidden_of(api, made_in_excel["spreadsheetId"], "Data") == ([3], [2])


def _mcp(gym: Gym, env: Env, solver: Any) -> Any:
    async def go() -> Any:
        async with gym.mcp_client(env.id) as client:
            return await solver(McpTools(client))

    return asyncio.run(go())


def test_the_mcp_batch_update_tool_hides_and_refuses_the_same(made: tuple[Any, str], gym: Gym, env: Env) -> None:
    api, sid = made

    async def go(tools: McpTools) -> str:
        await tools.call("batch_update", spreadsheet_id=sid, requests=[hide(0, "COLUMNS", 2, 3)])
        try:
            await tools.call("batch_update", spreadsheet_id=sid, requests=[hide(0, "ROWS", 1, 2), hide(0, "COLUMNS", 0, 1, fields="hidden")])
        except ToolError as refused:
            return str(refused)
        return ""

    refused = _mcp(gym, env, go)
    assert "'hidden'" in refused and "hiddenByUser" in refused  # says what was wrong and what is accepted
    assert hidden_of(api, sid) == ([], [2])


def test_rows_cut_off_by_a_smaller_grid_take_their_properties_with_them(made: tuple[Any, str]) -> None:
    api, sid = made

    def resize(rows: int) -> dict[str, Any]:
        return {"updateSheetProperties": {"properties": {"sheetId": 0, "gridProperties": {"rowCount": rows}},
                                          "fields": "gridProperties.rowCount"}}

    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide(0, "ROWS", 900, 1000), resize(950), resize(1000)]}).execute()
    assert hidden_of(api, sid)[0] == list(range(900, 950))  # the rows made again are new ones: shown


@given(st.lists(st.tuples(st.sampled_from(["update", "insert", "delete", "clip"]), st.integers(0, 30), st.integers(1, 8),
                          st.sampled_from([True, False, None]), st.sampled_from([None, 30, 50, "keep"]), st.booleans()), max_size=25))
@settings(max_examples=300, deadline=None)
def test_the_runs_behave_as_one_entry_per_row(steps: list[tuple[Any, ...]]) -> None:
    """The stored runs (apps/sheets/dimension_properties.py) against the plain model: a list
    holding each row's (hidden, size), changed one row at a time."""
    from apps.sheets import dimension_properties as dp

    length = 40
    plain: list[tuple[bool, int | None]] = [dp.DEFAULT] * length
    runs: list[Any] = []
    for kind, start, count, hidden, size, before in steps:
        start = min(start, length - 1)
        end = min(start + count, length)
        if kind == "update":
            h = dp.KEEP if hidden is None else hidden
            s = dp.KEEP if size == "keep" else size
            runs = dp.update(runs, start, end, h, s)
            for i in range(start, end):
                plain[i] = (plain[i][0] if h is dp.KEEP else h, plain[i][1] if s is dp.KEEP else s)
        elif kind == "insert":
            source = (start - 1 if before and start > 0 else start) if start < length or before else None
            inherited = plain[source] if source is not None else dp.DEFAULT
            runs = dp.insert(runs, start, count, source)
            plain[start:start] = [inherited] * count
            length += count
        elif kind == "delete" and end - start < length:
            runs = dp.delete(runs, start, end)
            del plain[start:end]
            length -= end - start
        elif kind == "clip" and start > 0:
            runs = dp.clip(runs, start)
            plain = plain[:start] + [dp.DEFAULT] * (length - start)
        assert [dp.at(runs, i) for i in range(length)] == plain
        assert dp.load(dp.dump(runs)) == dp.runs_of([tuple(r) for r in runs])
        shown = dp.metadata(runs, 0, length, 21)
        assert [(m.get("hiddenByUser", False), m["pixelSize"]) for m in shown] == [(h, s or 21) for h, s in plain]
