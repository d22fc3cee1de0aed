"""One call cannot make a spreadsheet, or a read of it, too big for a shared server
(apps/sheets/budget.py): a write of more cell contents than one request may write, or one that
takes the spreadsheet over its bound, is Google's 400 naming the limit, refused whole; a grid
read that would list more than its bound is refused with what to ask for instead. Through
Google's own client over HTTP.

Before, a 20 KB number format repeated over a new tab was half a gigabyte written in one call
(9 s, 1 GB on disk), and a dropdown rule over a whole tab listed on each of its 26,000 cells
made one spreadsheets.get of 260 MB: a few such calls and the server ran out of memory."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError

from apps.sheets import budget
from officegym.core.env_store import Env
from tests.apps.sheets.test_basic_filter import sheets


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Budget"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:B2", valueInputOption="RAW", body={"values": [["a", "b"], [1, 2]]}).execute()
    return api, sid


def refused(call: Any) -> str:
    with pytest.raises(HttpError) as caught:
        call.execute()
    assert caught.value.resp.status == 400
    return str(caught.value)


def whole_tab(cell: dict[str, Any], fields: str) -> dict[str, Any]:
    return {"repeatCell": {"range": {"sheetId": 0}, "cell": cell, "fields": fields}}


def values(api: Any, sid: str) -> list[list[Any]]:
    return api.values().get(spreadsheetId=sid, range="Sheet1!A1:B2").execute()["values"]


def test_a_format_repeated_over_a_whole_tab_beyond_what_one_request_may_write_is_refused_whole(made: tuple[Any, str]) -> None:
    api, sid = made
    huge = {"userEnteredFormat": {"numberFormat": {"type": "NUMBER", "pattern": "0" * 20_000}}}
    message = refused(api.batchUpdate(spreadsheetId=sid, body={"requests": [
        {"updateCells": {"rows": [{"values": [{"userEnteredValue": {"stringValue": "kept?"}}]}], "fields": "userEnteredValue",
                         "start": {"sheetId": 0, "rowIndex": 0, "columnIndex": 0}}},
        whole_tab(huge, "userEnteredFormat.numberFormat")]}))
    assert "at most 32 MB can be written by one request" in message
    assert values(api, sid) == [["a", "b"], ["1", "2"]], "the batch is refused whole: its first request is not kept"
    # The same format over a range a person would format goes in.
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"repeatCell": {
        "range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2},
        "cell": {"userEnteredFormat": {"numberFormat": {"type": "NUMBER", "pattern": "0.00"}}}, "fields": "userEnteredFormat.numberFormat"}}]}).execute()
    assert values(api, sid) == [["a", "b"], ["1.00", "2.00"]]


def test_a_whole_tab_formatted_as_people_do_is_within_the_bound(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [whole_tab({"userEnteredFormat": {"textFormat": {"bold": True}}},
                                                                    "userEnteredFormat.textFormat.bold")]}).execute()
    got = api.get(spreadsheetId=sid, ranges=["Sheet1!Z1000"], includeGridData=True).execute()
    assert got["sheets"][0]["data"][0]["rowData"][0]["values"][0]["userEnteredFormat"]["textFormat"]["bold"] is True


def test_writes_that_take_the_spreadsheet_over_its_bound_are_refused(made: tuple[Any, str], monkeypatch: pytest.MonkeyPatch) -> None:
    api, sid = made
    # The bounds lowered for the test, as they are read: each write of 3,000 characters is
    # within a request's bound, and the third takes the spreadsheet over its own.
    monkeypatch.setattr(budget, "MAX_BOOK_CHARS", 7_000)
    monkeypatch.setattr(budget, "CHECK_BOOK_ABOVE", 1_000)
    column = [["x" * 100] for _ in range(30)]
    for letter in "CD":
        api.values().update(spreadsheetId=sid, range=f"Sheet1!{letter}1:{letter}30", valueInputOption="RAW", body={"values": column}).execute()
    message = refused(api.values().update(spreadsheetId=sid, range="Sheet1!E1:E30", valueInputOption="RAW", body={"values": column}))
    assert "above the limit" in message
    assert "values" not in api.values().get(spreadsheetId=sid, range="Sheet1!E1:E30").execute(), "nothing of the refused write is kept"
    # Overwriting what is there with as much is no growth: taken.
    api.values().update(spreadsheetId=sid, range="Sheet1!D1:D30", valueInputOption="RAW", body={"values": column}).execute()


def test_a_grid_read_that_would_list_a_rule_on_too_many_cells_asks_for_ranges(made: tuple[Any, str]) -> None:
    api, sid = made
    long_formula = "=OR(" + ",".join(["A1=1"] * 2_500) + ")"
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"setDataValidation": {
        "range": {"sheetId": 0}, "rule": {"condition": {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": long_formula}]}}}}]}).execute()
    message = refused(api.get(spreadsheetId=sid, includeGridData=True))
    assert "ranges=" in message and "spreadsheets.values.get" in message
    got = api.get(spreadsheetId=sid, ranges=["Sheet1!A1:B2"], includeGridData=True).execute()
    cells = got["sheets"][0]["data"][0]["rowData"][0]["values"]
    assert cells[0]["dataValidation"]["condition"]["values"][0]["userEnteredValue"] == long_formula
    assert api.get(spreadsheetId=sid).execute()["sheets"][0]["properties"]["title"] == "Sheet1", "without grid data it answers"
