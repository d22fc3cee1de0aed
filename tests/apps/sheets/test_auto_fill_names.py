"""autoFill continues month and weekday names as Google Sheets' fill handle does: full and
short names (January, Jan, Monday, Mon) go on round the year or week, by the step between the
source cells, in the case each was written; other text repeats. Before, every name repeated
(January filled down was January, January, …). Driven through Google's own client."""

from __future__ import annotations

from typing import Any

import pytest

from officegym.core.env_store import Env
from tests.apps.sheets.test_auto_fill import fill, rows, source
from tests.apps.sheets.test_basic_filter import sheets


@pytest.fixture
def api_sid(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    return api, api.create(body={"properties": {"title": "Calendar"}}).execute()["spreadsheetId"]


@pytest.mark.parametrize(("given", "expected"), [
    (["January"], ["February", "March", "April"]),
    (["Nov"], ["Dec", "Jan", "Feb"]),
    (["Saturday"], ["Sunday", "Monday", "Tuesday"]),
    (["Fri"], ["Sat", "Sun", "Mon"]),
    (["JAN"], ["FEB", "MAR", "APR"]),
    (["monday"], ["tuesday", "wednesday", "thursday"]),
    (["Jan", "Mar"], ["May", "Jul", "Sep"]),
    (["Mon", "Wed"], ["Fri", "Sun", "Tue"]),
    (["May"], ["Jun", "Jul", "Aug"]),
    (["May", "June"], ["July", "August", "September"]),
    (["Jan", "Feb", "Apr"], ["Jan", "Feb", "Apr"]),  # no steady step: repeated
    (["Jan", "Monday"], ["Jan", "Monday", "Jan"]),  # two lists: repeated
])
def test_names_continue_down_a_column(api_sid: tuple[Any, str], given: list[str], expected: list[str]) -> None:
    api, sid = api_sid
    api.values().update(spreadsheetId=sid, range="Sheet1!A1", valueInputOption="USER_ENTERED",
                        body={"values": [[v] for v in given]}).execute()
    fill(api, sid, {"sourceAndDestination": {"source": source(0, len(given), 0, 1), "dimension": "ROWS", "fillLength": 3}})
    assert [r[0] for r in rows(api, sid, f"Sheet1!A{len(given) + 1}:A{len(given) + 3}")] == expected


def test_names_fill_across_and_backwards_and_the_alternate_series_copies(api_sid: tuple[Any, str]) -> None:
    api, sid = api_sid
    api.values().update(spreadsheetId=sid, range="Sheet1!D1:D2", valueInputOption="USER_ENTERED", body={"values": [["Feb"], ["Tue"]]}).execute()
    fill(api, sid, {"sourceAndDestination": {"source": source(0, 2, 3, 4), "dimension": "COLUMNS", "fillLength": 2}})
    fill(api, sid, {"sourceAndDestination": {"source": source(0, 2, 3, 4), "dimension": "COLUMNS", "fillLength": -3}})
    assert rows(api, sid, "Sheet1!A1:F2") == [["Nov", "Dec", "Jan", "Feb", "Mar", "Apr"], ["Sat", "Sun", "Mon", "Tue", "Wed", "Thu"]]
    fill(api, sid, {"useAlternateSeries": True, "sourceAndDestination": {"source": source(0, 1, 5, 6), "dimension": "COLUMNS", "fillLength": 2}})
    assert rows(api, sid, "Sheet1!F1:H1") == [["Apr", "Apr", "Apr"]]
    api.values().update(spreadsheetId=sid, range="Sheet1!A5", valueInputOption="USER_ENTERED", body={"values": [["December"]]}).execute()
    fill(api, sid, {"range": {"sheetId": 0, "startRowIndex": 4, "endRowIndex": 7, "startColumnIndex": 0, "endColumnIndex": 1}})
    assert rows(api, sid, "Sheet1!A5:A7") == [["December"], ["January"], ["February"]]
