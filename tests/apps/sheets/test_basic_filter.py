"""A tab's basic filter (batchUpdate's setBasicFilter and clearBasicFilter), as Google Sheets
keeps it: one per tab, shown by spreadsheets.get as `sheets[].basicFilter`; its criteria hide
the data rows that fail them (rowMetadata says hiddenByFilter, apart from hiddenByUser); its
sortSpecs sort the rows as sortRange would; its range moves with inserted and deleted rows and
columns and goes with a duplicated tab; a bad filter is Google's 400 and writes nothing; filter
views are refused by name. Driven through Google's own client over HTTP.

Before, setBasicFilter answered success and was dropped: "put a filter on the header row"
showed nothing in spreadsheets.get, and no row was hidden."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from google.auth.credentials import AnonymousCredentials
from googleapiclient.discovery import build

from officegym.core.env_store import Env
from officegym.gym import Gym

ROWS = [["Name", "Region", "Amount", "Due"], ["Ann", "West", 120, "2026-01-10"], ["Bob", "East", 40, "2026-03-01"],
        ["Cy", "West", 75, "2026-02-01"], ["Di", "North", 300, "2026-01-20"], ["Ed", "East", 10, "2026-04-01"]]


def sheets(agent_url: str, env: Env) -> Any:
    return build("sheets", "v4", static_discovery=True, credentials=AnonymousCredentials(),
                 client_options={"api_endpoint": f"{agent_url}/envs/{env.id}/api/sheets/"}).spreadsheets()


def grid(sheet_id: int = 0, r1: int = 0, r2: int = 6, c1: int = 0, c2: int = 4) -> dict[str, int]:
    return {"sheetId": sheet_id, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def set_filter(**filter_body: Any) -> dict[str, Any]:
    return {"setBasicFilter": {"filter": {"range": grid(), **filter_body}}}


def condition(kind: str, *values: str) -> dict[str, Any]:
    return {"type": kind, **({"values": [{"userEnteredValue": v} for v in values]} if values else {})}


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Filtered"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:D6", valueInputOption="USER_ENTERED", body={"values": ROWS}).execute()
    return api, sid


def metadata(api: Any, sid: str, title: str = "Sheet1", rows: int = 8) -> list[dict[str, Any]]:
    got = api.get(spreadsheetId=sid, ranges=[f"{title}!A1:D{rows}"], includeGridData=True).execute()
    return next(s for s in got["sheets"] if "data" in s)["data"][0]["rowMetadata"]


def filtered(api: Any, sid: str, title: str = "Sheet1") -> list[int]:
    return [i for i, m in enumerate(metadata(api, sid, title)) if m.get("hiddenByFilter")]


def the_filter(api: Any, sid: str, title: str = "Sheet1") -> dict[str, Any] | None:
    got = api.get(spreadsheetId=sid).execute()
    return next(s for s in got["sheets"] if s["properties"]["title"] == title).get("basicFilter")


def test_a_filter_is_shown_by_get_and_hides_the_rows_that_fail_it(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [set_filter(filterSpecs=[
        {"columnIndex": 1, "filterCriteria": {"hiddenValues": ["East"]}},
        {"columnIndex": 2, "filterCriteria": {"condition": condition("NUMBER_GREATER", "50")}}])]}).execute()
    shown = the_filter(api, sid)
    assert shown is not None and shown["range"] == grid()
    assert shown["filterSpecs"] == [{"columnIndex": 1, "filterCriteria": {"hiddenValues": ["East"]}},
                                    {"columnIndex": 2, "filterCriteria": {"condition": condition("NUMBER_GREATER", "50")}}]
    assert shown["criteria"]["2"] == {"condition": condition("NUMBER_GREATER", "50")}  # the deprecated map, filled as Google fills it
    # East rows (Bob, Ed) are hidden by hiddenValues; Bob and Ed also fail > 50. The header stays.
    assert filtered(api, sid) == [2, 5]
    meta = metadata(api, sid)
    assert meta[2] == {"hiddenByFilter": True, "pixelSize": 21} and "hiddenByUser" not in meta[2] and meta[0] == {"pixelSize": 21}
    # The values are untouched: a filter changes what is shown.
    assert api.values().get(spreadsheetId=sid, range="Sheet1!A3").execute()["values"] == [["Bob"]]
    # Read from the cells as they are now: Cy edited below the line is hidden too.
    api.values().update(spreadsheetId=sid, range="Sheet1!C4", valueInputOption="RAW", body={"values": [[5]]}).execute()
    assert filtered(api, sid) == [2, 3, 5]
    # Hidden by the user and by the filter are told apart.
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"updateDimensionProperties": {
        "range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 1, "endIndex": 2}, "properties": {"hiddenByUser": True},
        "fields": "hiddenByUser"}}]}).execute()
    meta = metadata(api, sid)
    assert meta[1] == {"hiddenByUser": True, "pixelSize": 21} and meta[2]["hiddenByFilter"] is True
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"clearBasicFilter": {"sheetId": 0}}]}).execute()
    assert the_filter(api, sid) is None and filtered(api, sid) == []


def test_conditions_of_text_dates_and_blanks(made: tuple[Any, str]) -> None:
    api, sid = made

    def only(spec: dict[str, Any]) -> list[int]:
        api.batchUpdate(spreadsheetId=sid, body={"requests": [set_filter(filterSpecs=[spec])]}).execute()
        return filtered(api, sid)

    assert only({"columnIndex": 1, "filterCriteria": {"condition": condition("TEXT_CONTAINS", "es")}}) == [2, 4, 5]
    assert only({"columnIndex": 0, "filterCriteria": {"condition": condition("TEXT_STARTS_WITH", "b")}}) == [1, 3, 4, 5]
    assert only({"columnIndex": 3, "filterCriteria": {"condition": condition("DATE_BEFORE", "2026-02-01")}}) == [2, 3, 5]
    assert only({"columnIndex": 2, "filterCriteria": {"condition": condition("NUMBER_BETWEEN", "40", "120")}}) == [4, 5]
    assert only({"columnIndex": 2, "filterCriteria": {"condition": condition("CUSTOM_FORMULA", "=$C2>=100")}}) == [2, 3, 5]
    # A filter replaces the one before (one per tab); a blank row fails NOT_BLANK.
    api.values().update(spreadsheetId=sid, range="Sheet1!A6:D6", valueInputOption="RAW", body={"values": [["", "", "", ""]]}).execute()
    assert only({"columnIndex": 0, "filterCriteria": {"condition": condition("NOT_BLANK")}}) == [5]


def test_sort_specs_sort_the_rows_below_the_header(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [set_filter(sortSpecs=[{"dimensionIndex": 2, "sortOrder": "DESCENDING"}])]}).execute()
    names = api.values().get(spreadsheetId=sid, range="Sheet1!A1:A6").execute()["values"]
    assert names == [["Name"], ["Di"], ["Ann"], ["Cy"], ["Bob"], ["Ed"]]
    assert the_filter(api, sid)["sortSpecs"] == [{"dimensionIndex": 2, "sortOrder": "DESCENDING"}]


def test_the_range_moves_with_rows_and_columns_and_goes_with_the_tab(made: tuple[Any, str]) -> None:
    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [set_filter(filterSpecs=[
        {"columnIndex": 2, "filterCriteria": {"condition": condition("NUMBER_GREATER", "50")}}])]}).execute()

    def do(*requests: dict[str, Any]) -> dict[str, Any]:
        api.batchUpdate(spreadsheetId=sid, body={"requests": list(requests)}).execute()
        return the_filter(api, sid)

    moved = do({"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 2}}})
    assert moved["range"] == grid(r1=2, r2=8)
    assert filtered(api, sid, "Sheet1") == [4, 7]
    moved = do({"insertDimension": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 1}}})
    assert moved["range"] == grid(r1=2, r2=8, c1=1, c2=5) and moved["filterSpecs"][0]["columnIndex"] == 3
    moved = do({"deleteDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 3, "endIndex": 5}}})
    assert moved["range"] == grid(r1=2, r2=6, c1=1, c2=5)
    # Deleting the filtered column takes its criteria; the filter stays on what is left.
    moved = do({"deleteDimension": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 3, "endIndex": 4}}})
    assert moved["range"] == grid(r1=2, r2=6, c1=1, c2=4) and "filterSpecs" not in moved
    copy = api.batchUpdate(spreadsheetId=sid, body={"requests": [{"duplicateSheet": {"sourceSheetId": 0, "newSheetName": "Copy"}}]}).execute()
    copy_id = copy["replies"][0]["duplicateSheet"]["properties"]["sheetId"]
    assert the_filter(api, sid, "Copy")["range"] == grid(copy_id, r1=2, r2=6, c1=1, c2=4)


@pytest.mark.parametrize(("request_body", "says"), [
    ({"setBasicFilter": {}}, "filter is required"),
    ({"setBasicFilter": {"filter": {"filterSpecs": []}}}, "filter.range is required"),
    (set_filter(filterSpecs=[{"columnIndex": 9, "filterCriteria": {"hiddenValues": ["x"]}}]), "outside the filter's range"),
    (set_filter(filterSpecs=[{"columnIndex": 1, "filterCriteria": {"condition": condition("ONE_OF_LIST", "a")}}]),
     "not supported here; use one of NUMBER_GREATER"),
    (set_filter(filterSpecs=[{"columnIndex": 1, "filterCriteria": {"condition": condition("NUMBER_BETWEEN", "1")}}]),
     "requires exactly two ConditionValues"),
    (set_filter(filterSpecs=[{"columnIndex": 1, "filterCriteria": {"condition": condition("NUMBER_LESS", "ten")}}]), "is not a number"),
    (set_filter(filterSpecs=[{"columnIndex": 1, "filterCriteria": {"hiddenValues": "East"}}]), "hiddenValues must be a list"),
    (set_filter(filterSpecs=[{"columnIndex": 1, "filterCriteria": {"visibleBackgroundColor": {"red": 1},
                                                                   "visibleForegroundColorStyle": {"rgbColor": {"blue": 1}}}}]),
     "mutually exclusive"),
    (set_filter(sortSpecs=[{"dimensionIndex": 1, "sortOrder": "UPWARDS"}]), "ASCENDING or DESCENDING"),
    ({"setBasicFilter": {"filter": {"range": grid(r2=1001)}}}, "exceeds grid limits"),
    ({"setBasicFilter": {"filter": {"range": grid(sheet_id=9)}}}, "9"),
    ({"clearBasicFilter": {"sheetId": 9}}, "No grid with id: 9"),
    ({"addFilterView": {"filter": {"title": "Mine"}}}, "filter views are not supported"),
    ({"updateFilterView": {"filter": {"filterViewId": 1}, "fields": "*"}}, "filter views are not supported"),
])
def test_what_cannot_be_done_is_googles_400_and_writes_nothing(agent_url: str, env: Env, made: tuple[Any, str],
                                                              request_body: dict[str, Any], says: str) -> None:
    api, sid = made
    url = f"{agent_url}/envs/{env.id}/api/sheets/v4/spreadsheets/{sid}:batchUpdate"
    first = set_filter(sortSpecs=[{"dimensionIndex": 0, "sortOrder": "DESCENDING"}],
                       filterSpecs=[{"columnIndex": 1, "filterCriteria": {"hiddenValues": ["East"]}}])
    bad = httpx.post(url, json={"requests": [first, request_body]}, timeout=30)
    assert bad.status_code == 400
    error = bad.json()["error"]
    kind = next(iter(request_body))
    assert error["status"] == "INVALID_ARGUMENT" and error["message"].startswith(f"Invalid requests[1].{kind}")
    assert says in error["message"]
    assert the_filter(api, sid) is None and filtered(api, sid) == []  # the batch is all or nothing: nothing sorted, nothing set
    assert api.values().get(spreadsheetId=sid, range="Sheet1!A2").execute()["values"] == [["Ann"]]


def test_hidden_by_filter_gives_each_tabs_filtered_rows_for_a_reader(made: tuple[Any, str], gym: Gym, env: Env) -> None:
    """apps.sheets.filters.hidden_by_filter: what graders read a sheet as shown with."""
    from apps.sheets.filters import hidden_by_filter
    from apps.sheets.service import SheetsService

    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [set_filter(filterSpecs=[
        {"columnIndex": 1, "filterCriteria": {"hiddenValues": ["West"]}}])]}).execute()
    with gym.store.session(env) as db:
        stored = SheetsService(db).book(sid)
        assert hidden_by_filter(stored) == {0: [(1, 2), (3, 4)]}


@pytest.mark.parametrize("criteria", [{"condition": condition("NUMBER_GREATER", "50")}, {"condition": condition("CUSTOM_FORMULA", "=$C2>50")}])
def test_a_filter_over_whole_columns_hides_the_empty_rows_that_fail_it(made: tuple[Any, str], gym: Gym, env: Env,
                                                                     criteria: dict[str, Any]) -> None:
    from apps.sheets.filters import hidden_by_filter
    from apps.sheets.service import SheetsService

    api, sid = made
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"setBasicFilter": {"filter": {
        "range": {"sheetId": 0, "startColumnIndex": 0, "endColumnIndex": 4}, "filterSpecs": [{"columnIndex": 2, "filterCriteria": criteria}]}}}]}).execute()
    assert the_filter(api, sid)["range"] == grid(r2=1000)  # the open end is the sheet's edge
    with gym.store.session(env) as db:
        assert hidden_by_filter(SheetsService(db).book(sid)) == {0: [(2, 3), (5, 1000)]}
