"""Data validation (batchUpdate's setDataValidation) as Google Sheets keeps it: a rule on every
cell of a range (no rule: cleared), shown by spreadsheets.get as `dataValidation` on each cell
of gridData, moved with inserted and deleted rows, carried by a duplicated tab; each condition
type Google takes in data validation is stored and returned, and the others are Google's 400.
As in Google, the API writes any value into a validated cell (validation binds what a person
types in the browser; tests/e2e/test_sheets_ui_presentation.py). Through Google's own client
and once through the MCP batch_update tool.

Before, setDataValidation answered success and was dropped: "add a dropdown to column D"
showed nothing in spreadsheets.get."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from apps.sheets import conditions
from officegym.core.env_store import Env
from officegym.gym import Gym
from officegym.validate import McpTools, ToolError
from tests.apps.sheets.test_basic_filter import sheets


def dv(rule: dict[str, Any] | None, r1: int = 1, r2: int = 4, c1: int = 3, c2: int = 4, sheet_id: int = 0, **more: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"range": {"sheetId": sheet_id, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1,
                                      "endColumnIndex": c2}, **more}
    if rule is not None:
        body["rule"] = rule
    return {"setDataValidation": body}


def cond(kind: str, *values: str) -> dict[str, Any]:
    return {"type": kind, **({"values": [{"userEnteredValue": v} for v in values]} if values else {})}


DROPDOWN = {"condition": cond("ONE_OF_LIST", "Open", "Done"), "strict": True, "showCustomUi": True}


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Validated"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:D3", valueInputOption="USER_ENTERED",
                        body={"values": [["Task", "Owner", "Due", "Status"], ["a", "x", "2026-01-05", "Open"], ["b", "y", "", ""]]}).execute()
    return api, sid


def validations(api: Any, sid: str, title: str = "Sheet1", a1: str = "A1:E8") -> dict[str, dict[str, Any]]:
    """Cell name → its dataValidation, from spreadsheets.get's gridData."""
    got = api.get(spreadsheetId=sid, ranges=[f"{title}!{a1}"], includeGridData=True).execute()
    data = next(s for s in got["sheets"] if "data" in s)["data"][0]
    out = {}
    for i, row in enumerate(data.get("rowData", [])):
        for j, cell in enumerate(row.get("values", [])):
            if "dataValidation" in cell:
                out[f"{'ABCDEFGH'[data.get('startColumn', 0) + j]}{data.get('startRow', 0) + i + 1}"] = cell["dataValidation"]
    return out


def test_a_dropdown_is_on_every_cell_of_its_range_and_cleared_by_no_rule(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [dv(DROPDOWN)]}).execute()
    found = validations(api, sid)
    assert sorted(found) == ["D2", "D3", "D4"]  # D4 is empty: listed with its rule all the same
    assert found["D4"] == DROPDOWN
    # The API writes what it is given, as Google's does: validation binds what a person types.
    api.values().update(spreadsheetId=sid, range="Sheet1!D3", valueInputOption="RAW", body={"values": [["Maybe"]]}).execute()
    assert api.values().get(spreadsheetId=sid, range="Sheet1!D3").execute()["values"] == [["Maybe"]]
    # A rule set over part of another replaces it there; no rule clears.
    api.batchUpdate(spreadsheetId=sid, body={"requests": [dv({"condition": cond("BOOLEAN")}, r1=2, r2=3, c1=2, c2=4),
                                                          dv(None, r1=3, r2=4)]}).execute()
    found = validations(api, sid)
    assert found == {"D2": DROPDOWN, "C3": {"condition": {"type": "BOOLEAN"}}, "D3": {"condition": {"type": "BOOLEAN"}}}


@pytest.mark.parametrize("rule", [
    {"condition": cond("ONE_OF_RANGE", "=Sheet1!A2:A3"), "showCustomUi": True},
    {"condition": cond("NUMBER_BETWEEN", "1", "10"), "inputMessage": "1 to 10", "strict": True},
    {"condition": cond("NUMBER_GREATER_THAN_EQ", "0")},
    {"condition": cond("DATE_AFTER", "2026-01-01")},
    {"condition": cond("DATE_IS_VALID")},
    {"condition": cond("DATE_NOT_BETWEEN", "2026-01-01", "2026-02-01")},
    {"condition": cond("TEXT_CONTAINS", "@")},
    {"condition": cond("TEXT_IS_EMAIL")},
    {"condition": cond("TEXT_IS_URL")},
    {"condition": cond("BOOLEAN", "Yes", "No")},
    {"condition": cond("CUSTOM_FORMULA", "=LEN(D2)<5")},
])
def test_each_kind_google_validates_with_is_stored_and_returned(made: tuple[Any, str], rule: dict[str, Any]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [dv(rule, r1=1, r2=2)]}).execute()
    assert validations(api, sid) == {"D2": rule}


def test_rules_move_with_rows_and_go_with_the_tab(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [dv(DROPDOWN), {"insertDimension": {
        "range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 2}}}]}).execute()
    assert sorted(validations(api, sid)) == ["D4", "D5", "D6"]
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"insertDimension": {
        "range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 4, "endIndex": 5}}}]}).execute()  # inside: the range grows
    assert sorted(validations(api, sid)) == ["D4", "D5", "D6", "D7"]
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"deleteDimension": {
        "range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 1}}}]}).execute()
    assert sorted(validations(api, sid)) == ["C4", "C5", "C6", "C7"]
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"duplicateSheet": {"sourceSheetId": 0, "newSheetName": "Copy"}}]}).execute()
    assert sorted(validations(api, sid, "Copy")) == ["C4", "C5", "C6", "C7"]


@pytest.mark.parametrize(("rule", "says"), [
    ({"condition": cond("TEXT_STARTS_WITH", "a")}, "not supported here; use one of"),
    ({"condition": cond("BLANK")}, "not supported here"),
    ({"condition": cond("ONE_OF_LIST")}, "at least one ConditionValue"),
    ({"condition": cond("ONE_OF_LIST", "=A1")}, "does not take formulas"),
    ({"condition": cond("ONE_OF_RANGE", "=Nowhere!A1:A3")}, "ONE_OF_RANGE needs a range"),
    ({"condition": cond("NUMBER_BETWEEN", "1")}, "requires exactly two"),
    ({"condition": cond("NUMBER_GREATER", "many")}, "is not a number"),
    ({"condition": cond("DATE_BEFORE", "someday")}, "is not a date"),
    ({"condition": {"type": "DATE_BEFORE", "values": [{"relativeDate": "TODAY"}]}}, "not supported in data validation"),
    ({"condition": cond("CUSTOM_FORMULA", "D2>1")}, "beginning with '='"),
    ({"condition": cond("TEXT_NOT_EQ", "a")}, "data source"),
    ({"condition": cond("NUMBER_GREATER", "1"), "strict": "yes"}, "strict must be true or false"),
    ({"condition": cond("NUMBER_GREATER", "1"), "dropdown": True}, "'dropdown'"),
    ({}, None),  # an empty rule clears: not an error
])
def test_what_cannot_be_done_is_googles_400_and_writes_nothing(agent_url: str, env: Env, made: tuple[Any, str],
                                                              rule: dict[str, Any], says: str | None) -> None:
    api, sid = made
    url = f"{agent_url}/envs/{env.id}/api/sheets/v4/spreadsheets/{sid}:batchUpdate"
    answer = httpx.post(url, json={"requests": [dv(DROPDOWN, r1=5, r2=6), dv(rule)]}, timeout=30)
    if says is None:
        assert answer.status_code == 200 and sorted(validations(api, sid)) == ["D6"]
        return
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["status"] == "INVALID_ARGUMENT" and error["message"].startswith("Invalid requests[1].setDataValidation")
    assert says in error["message"]
    assert validations(api, sid) == {}


def test_the_mcp_batch_update_tool_sets_and_refuses_the_same(made: tuple[Any, str], gym: Gym, env: Env) -> None:
    api, sid = made

    async def go() -> str:
        async with gym.mcp_client(env.id) as client:
            tools = McpTools(client)
            await tools.call("batch_update", spreadsheet_id=sid, requests=[dv(DROPDOWN)])
            try:
                await tools.call("batch_update", spreadsheet_id=sid, requests=[dv(None, r1=1, r2=2),
                                                                               dv({"condition": cond("ONE_OF_LIST")})])
            except ToolError as refused:
                return str(refused)
        return ""

    refused = asyncio.run(go())
    assert "ONE_OF_LIST requires at least one ConditionValue" in refused
    assert sorted(validations(api, sid)) == ["D2", "D3", "D4"]


def test_conditions_evaluate_as_google_checks_a_cell() -> None:
    from datetime import date

    reader = conditions.Reader(date(2026, 3, 1))
    one_of = conditions.checked(cond("ONE_OF_LIST", "Open", "Done"), "x", "c", conditions.VALIDATION)
    assert conditions.holds(one_of, "open", reader, (0, 0)) and conditions.holds(one_of, None, reader, (0, 0))
    assert not conditions.holds(one_of, "Maybe", reader, (0, 0))
    between = conditions.checked(cond("NUMBER_BETWEEN", "10", "1"), "x", "c", conditions.VALIDATION)
    assert conditions.holds(between, 5.0, reader, (0, 0)) and not conditions.holds(between, "5", reader, (0, 0))
    email = conditions.checked(cond("TEXT_IS_EMAIL"), "x", "c", conditions.VALIDATION)
    assert conditions.holds(email, "a@b.co", reader, (0, 0)) and not conditions.holds(email, "a@b", reader, (0, 0))
    past = conditions.checked({"type": "DATE_BEFORE", "values": [{"relativeDate": "PAST_WEEK"}]}, "x", "c", conditions.FORMATTING)
    from apps.sheets.formulas.values import to_serial

    assert conditions.holds(past, to_serial(date(2026, 2, 20)), reader, (0, 0))
    assert not conditions.holds(past, to_serial(date(2026, 2, 25)), reader, (0, 0))
    checkbox = conditions.checked(cond("BOOLEAN"), "x", "c", conditions.VALIDATION)
    assert conditions.holds(checkbox, True, reader, (0, 0)) and not conditions.holds(checkbox, "yes", reader, (0, 0))


def test_rows_a_filter_hides_are_left_out_unless_filtered_rows_are_included(made: tuple[Any, str]) -> None:
    api, sid = made
    hide_b = {"setBasicFilter": {"filter": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 4, "startColumnIndex": 0,
                                                      "endColumnIndex": 4},
                                            "filterSpecs": [{"columnIndex": 0, "filterCriteria": {"hiddenValues": ["b"]}}]}}}
    api.batchUpdate(spreadsheetId=sid, body={"requests": [hide_b, dv(DROPDOWN)]}).execute()
    assert sorted(validations(api, sid)) == ["D2", "D4"]  # row 3 (b) is hidden by the filter
    api.batchUpdate(spreadsheetId=sid, body={"requests": [dv(DROPDOWN, filteredRowsIncluded=True)]}).execute()
    assert sorted(validations(api, sid)) == ["D2", "D3", "D4"]


def test_repeat_cell_and_update_cells_set_a_cells_rule_as_set_data_validation_does(made: tuple[Any, str]) -> None:
    """CellData.dataValidation, written by repeatCell or updateCells (as many agents write a
    dropdown), is the cell's rule; a field mask naming it with no rule clears it."""
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [
        {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 3, "startColumnIndex": 3, "endColumnIndex": 4},
                        "cell": {"dataValidation": DROPDOWN}, "fields": "dataValidation"}},
        {"updateCells": {"start": {"sheetId": 0, "rowIndex": 1, "columnIndex": 2},
                         "rows": [{"values": [{"dataValidation": {"condition": cond("DATE_IS_VALID")}}]}], "fields": "dataValidation"}}]}).execute()
    assert validations(api, sid) == {"D2": DROPDOWN, "D3": DROPDOWN, "C2": {"condition": {"type": "DATE_IS_VALID"}}}
    assert api.values().get(spreadsheetId=sid, range="Sheet1!D2").execute()["values"] == [["Open"]]  # values untouched
    api.batchUpdate(spreadsheetId=sid, body={"requests": [
        {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 2, "endRowIndex": 3, "startColumnIndex": 3, "endColumnIndex": 4},
                        "cell": {}, "fields": "dataValidation"}}]}).execute()
    assert sorted(validations(api, sid)) == ["C2", "D2"]
    with pytest.raises(Exception) as bad:
        api.batchUpdate(spreadsheetId=sid, body={"requests": [
            {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 5, "endRowIndex": 6, "startColumnIndex": 3, "endColumnIndex": 4},
                            "cell": {"dataValidation": {"condition": cond("ONE_OF_LIST")}}, "fields": "dataValidation"}}]}).execute()
    assert "400" in str(bad.value) and "ONE_OF_LIST requires at least one" in str(bad.value)


def test_a_rules_range_follows_its_tab_renamed(made: tuple[Any, str]) -> None:
    api, sid = made
    reply = api.batchUpdate(spreadsheetId=sid, body={"requests": [{"addSheet": {"properties": {"title": "Lists"}}}]}).execute()
    lists = reply["replies"][0]["addSheet"]["properties"]["sheetId"]
    rule = {"condition": cond("ONE_OF_RANGE", "=Lists!A1:A5")}
    api.batchUpdate(spreadsheetId=sid, body={"requests": [dv(rule, r1=1, r2=2), {"updateSheetProperties": {
        "properties": {"sheetId": lists, "title": "Choices"}, "fields": "title"}}]}).execute()
    assert validations(api, sid)["D2"] == {"condition": cond("ONE_OF_RANGE", "=Choices!A1:A5")}
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"deleteSheet": {"sheetId": lists}}]}).execute()
    assert validations(api, sid)["D2"] == {"condition": cond("ONE_OF_RANGE", "=#REF!")}
