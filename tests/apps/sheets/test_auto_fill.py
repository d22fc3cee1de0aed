"""batchUpdate's autoFill, as Google Sheets fills when the fill handle is dragged: numbers and
dates continue their series, text ending in a number counts on, formulas are copied with
their relative references moved, other values repeat; `useAlternateSeries` copies instead of
counting; `range` finds the data at one end and fills the rest. Driven through Google's own
client over HTTP. Before, autoFill was refused as an unknown request kind."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError

from officegym.core.env_store import Env
from tests.apps.sheets.test_basic_filter import sheets

ROWS = [["Day", "Item", "N", "Double", "Status", "Odd"],
        ["2026-01-30", "Item 9", 1, "=C2*2", "open", 1],
        ["", "", "", "", "", 3]]


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Fill"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:F3", valueInputOption="USER_ENTERED", body={"values": ROWS}).execute()
    return api, sid


def fill(api: Any, sid: str, request: dict[str, Any]) -> Any:
    return api.batchUpdate(spreadsheetId=sid, body={"requests": [{"autoFill": request}]}).execute()


def rows(api: Any, sid: str, a1: str, render: str = "FORMATTED_VALUE") -> list[list[Any]]:
    return api.values().get(spreadsheetId=sid, range=a1, valueRenderOption=render).execute().get("values", [])


def source(r1: int, r2: int, c1: int, c2: int) -> dict[str, int]:
    return {"sheetId": 0, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def test_filling_down_continues_each_column_as_google_does(made: tuple[Any, str]) -> None:
    api, sid = made
    reply = fill(api, sid, {"sourceAndDestination": {"source": source(1, 2, 0, 5), "dimension": "ROWS", "fillLength": 3}})
    assert reply["replies"] == [{}]
    assert rows(api, sid, "Sheet1!A3:E5") == [
        ["2026-01-31", "Item 10", "2", "4", "open"],
        ["2026-02-01", "Item 11", "3", "6", "open"],
        ["2026-02-02", "Item 12", "4", "8", "open"],
    ]
    assert rows(api, sid, "Sheet1!D3:D5", "FORMULA") == [["=C3*2"], ["=C4*2"], ["=C5*2"]]


def test_two_numbers_set_the_step_and_the_alternate_series_copies(made: tuple[Any, str]) -> None:
    api, sid = made
    fill(api, sid, {"sourceAndDestination": {"source": source(1, 3, 5, 6), "dimension": "ROWS", "fillLength": 2}})
    assert rows(api, sid, "Sheet1!F4:F5") == [["5"], ["7"]]
    fill(api, sid, {"useAlternateSeries": True, "sourceAndDestination": {"source": source(1, 2, 1, 3), "dimension": "ROWS", "fillLength": 2}})
    assert rows(api, sid, "Sheet1!B3:C4") == [["Item 9", "1"], ["Item 9", "1"]]


def test_a_range_fills_its_empty_rows_from_the_data_above(made: tuple[Any, str]) -> None:
    api, sid = made
    fill(api, sid, {"range": source(1, 4, 2, 4)})
    assert rows(api, sid, "Sheet1!C2:D4", "FORMULA") == [[1, "=C2*2"], [2, "=C3*2"], [3, "=C4*2"]]


def test_filling_across_and_backwards(made: tuple[Any, str]) -> None:
    api, sid = made
    fill(api, sid, {"sourceAndDestination": {"source": source(1, 2, 2, 3), "dimension": "COLUMNS", "fillLength": 2}})
    assert rows(api, sid, "Sheet1!C2:E2") == [["1", "2", "3"]]
    fill(api, sid, {"sourceAndDestination": {"source": source(1, 3, 5, 6), "dimension": "ROWS", "fillLength": -1}})
    assert rows(api, sid, "Sheet1!F1:F3") == [["-1"], ["1"], ["3"]]


@pytest.mark.parametrize("request_body", [
    {"sourceAndDestination": {"source": source(1, 2, 0, 1), "dimension": "DIAGONAL", "fillLength": 2}},
    {"sourceAndDestination": {"source": source(1, 2, 0, 1), "dimension": "ROWS", "fillLength": 0}},
    {"sourceAndDestination": {"source": source(1, 2, 0, 1), "dimension": "ROWS", "fillLength": 5000}},
    {"range": source(5, 8, 0, 2)},
    {},
])
def test_a_bad_fill_is_a_400_and_writes_nothing(made: tuple[Any, str], request_body: dict[str, Any]) -> None:
    api, sid = made
    with pytest.raises(HttpError) as refused:
        fill(api, sid, request_body)
    assert refused.value.resp.status == 400
    assert rows(api, sid, "Sheet1!A1:F3", "FORMULA")[2] == ["", "", "", "", "", 3]
