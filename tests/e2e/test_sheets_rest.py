"""The Sheets API v4 face, driven by Google's own client library unchanged
(`googleapiclient.discovery.build("sheets", "v4", static_discovery=True)` pointed at the env),
plus Google's error shape and status codes over raw HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from google.auth.credentials import AnonymousCredentials
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError


def sheets_client(live_server: Any, env_id: str) -> Any:
    return build("sheets", "v4", static_discovery=True, credentials=AnonymousCredentials(),
                 client_options={"api_endpoint": f"{live_server.base_url}/envs/{env_id}/api/sheets/"}).spreadsheets()


def test_google_client_works_unchanged(live_server: Any, env_id: str) -> None:
    api = sheets_client(live_server, env_id)
    created = api.create(body={"properties": {"title": "Client test"}, "sheets": [{"properties": {"title": "Data"}}]}).execute()
    sid = created["spreadsheetId"]
    assert created["properties"]["title"] == "Client test" and created["sheets"][0]["properties"]["title"] == "Data"
    got = api.get(spreadsheetId=sid).execute()
    grid = got["sheets"][0]["properties"]["gridProperties"]
    assert grid == {"rowCount": 1000, "columnCount": 26} and got["sheets"][0]["properties"]["sheetId"] == 0

    values = api.values()
    update = values.update(spreadsheetId=sid, range="'Data'!A1:B3", valueInputOption="USER_ENTERED",
                           body={"values": [["Item", "Cost"], ["pens", "3.5"], ["paper", "=B2*2"]]}).execute()
    assert update == {"spreadsheetId": sid, "updatedRange": "Data!A1:B3", "updatedRows": 3, "updatedColumns": 2, "updatedCells": 6}
    assert values.get(spreadsheetId=sid, range="Data!B2:B3").execute()["values"] == [["3.5"], ["7"]]
    assert values.get(spreadsheetId=sid, range="Data!B3", valueRenderOption="FORMULA").execute()["values"] == [["=B2*2"]]
    appended = values.append(spreadsheetId=sid, range="Data!A:B", valueInputOption="RAW", body={"values": [["ink", 4]]}).execute()
    assert appended["updates"]["updatedRange"] == "Data!A4:B4"
    batch = values.batchUpdate(spreadsheetId=sid, body={"valueInputOption": "USER_ENTERED", "data": [
        {"range": "Data!D1", "values": [["=SUM(B2:B4)"]]}, {"range": "Data!E1", "values": [["=COUNTA(A:A)"]]}]}).execute()
    assert batch["totalUpdatedCells"] == 2
    both = values.batchGet(spreadsheetId=sid, ranges=["Data!D1", "Data!E1"], valueRenderOption="UNFORMATTED_VALUE").execute()
    assert [r["values"] for r in both["valueRanges"]] == [[[14.5]], [[4]]]
    assert values.clear(spreadsheetId=sid, range="Data!A4:B4", body={}).execute()["clearedRange"] == "Data!A4:B4"
    assert values.get(spreadsheetId=sid, range="Data!D1").execute()["values"] == [["10.5"]]

    reply = api.batchUpdate(spreadsheetId=sid, body={"requests": [
        {"addSheet": {"properties": {"title": "Summary"}}},
        {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 1, "endIndex": 2}}},
    ]}).execute()
    assert reply["spreadsheetId"] == sid and reply["replies"][0]["addSheet"]["properties"]["title"] == "Summary"
    assert values.get(spreadsheetId=sid, range="Data!D1", valueRenderOption="FORMULA").execute()["values"] == [["=SUM(B3:B5)"]]

    with pytest.raises(HttpError) as bad:
        values.get(spreadsheetId=sid, range="Nowhere!A1").execute()
    assert bad.value.resp.status == 400 and "Unable to parse range: Nowhere!A1" in str(bad.value)
    with pytest.raises(HttpError) as missing:
        api.get(spreadsheetId="1NoSuchSpreadsheetAtAll").execute()
    assert missing.value.resp.status == 404


def test_error_shape_is_googles(live_server: Any, env_id: str) -> None:
    base = f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets"
    with httpx.Client(timeout=30) as http:
        sid = http.post(base, json={"properties": {"title": "x"}}).json()["spreadsheetId"]
        bad = http.post(f"{base}/{sid}:batchUpdate", json={"requests": [{"deleteSheet": {"sheetId": 0}}]})
        assert bad.status_code == 400
        assert bad.json() == {"error": {"code": 400, "status": "INVALID_ARGUMENT",
                                        "message": "Invalid requests[0].deleteSheet: You can't remove all the sheets in a document."}}
        broken = http.put(f"{base}/{sid}/values/A1?valueInputOption=RAW", content=b"{not json", headers={"content-type": "application/json"})
        assert broken.status_code == 400 and broken.json()["error"]["status"] == "INVALID_ARGUMENT"
        assert http.get(f"{live_server.base_url}/envs/{'0' * 32}/api/sheets/v4/spreadsheets/{sid}").status_code == 404


def test_non_finite_numbers_are_refused_or_shown_as_num_errors(live_server: Any, env_id: str) -> None:
    base = f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets"
    with httpx.Client(timeout=30) as http:
        sid = http.post(base, json={"properties": {"title": "x"}}).json()["spreadsheetId"]
        huge = http.put(f"{base}/{sid}/values/A1?valueInputOption=RAW", content=b'{"values": [[1e400]]}',
                        headers={"content-type": "application/json"})
        assert huge.status_code == 400 and "finite" in huge.json()["error"]["message"]
        http.put(f"{base}/{sid}/values/A1?valueInputOption=USER_ENTERED", json={"values": [["=1E+308*10", "=10^400"]]})
        got = http.get(f"{base}/{sid}/values/A1:B1", params={"valueRenderOption": "UNFORMATTED_VALUE"})
        assert got.status_code == 200 and got.json()["values"] == [["#NUM!", "#NUM!"]]


def test_insert_rows_append_and_range_shifts_through_the_client(live_server: Any, env_id: str) -> None:
    api = sheets_client(live_server, env_id)
    sid = api.create(body={"properties": {"title": "Shifts"}}).execute()["spreadsheetId"]
    values = api.values()
    values.update(spreadsheetId=sid, range="Sheet1!A1", valueInputOption="USER_ENTERED",
                  body={"values": [["Item", "Qty", "", "=SUM(B2:B9)"], ["a", 1], ["b", 2], ["", "", "", "note"]]}).execute()
    appended = values.append(spreadsheetId=sid, range="Sheet1!A:B", valueInputOption="USER_ENTERED", insertDataOption="INSERT_ROWS",
                             body={"values": [["c", 3]]}).execute()
    assert appended["updates"]["updatedRange"] == "Sheet1!A4:B4"
    assert values.get(spreadsheetId=sid, range="Sheet1!D5").execute()["values"] == [["note"]]  # shifted down by the new row
    assert values.get(spreadsheetId=sid, range="Sheet1!D1", valueRenderOption="FORMULA").execute()["values"] == [["=SUM(B2:B10)"]]
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"deleteRange": {"range": {
        "sheetId": 0, "startRowIndex": 1, "endRowIndex": 2, "startColumnIndex": 1, "endColumnIndex": 2}, "shiftDimension": "ROWS"}}]}).execute()
    assert values.get(spreadsheetId=sid, range="Sheet1!B2:B3", valueRenderOption="UNFORMATTED_VALUE").execute()["values"] == [[2], [3]]
    assert values.get(spreadsheetId=sid, range="Sheet1!D1", valueRenderOption="FORMULA").execute()["values"] == [["=SUM(B2:B9)"]]
