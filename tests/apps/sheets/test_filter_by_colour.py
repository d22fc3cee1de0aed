"""A basic filter by colour (FilterCriteria visibleBackgroundColorStyle / visibleForegroundColorStyle
and their deprecated Color forms), as Google Sheets filters: only the rows whose cell in the
column shows that fill (text) colour stay visible — a fill given by hand, a theme colour as the
theme draws it, a conditional format's colour over the cell's own; no fill reads as white and no
text colour as black. Fill and text colour are mutually exclusive and a ColorStyle must be an
RGB colour (Google's 400). Before, every colour criterion was refused. Driven through Google's
own client over HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from googleapiclient.errors import HttpError

from officegym.core.env_store import Env
from tests.apps.sheets.test_basic_filter import ROWS, condition, filtered, set_filter, sheets, the_filter

RED = {"red": 1.0}
GREEN = {"green": 1.0}
ACCENT2 = {"red": 0xEA / 255, "green": 0x43 / 255, "blue": 0x35 / 255}  # the default theme's ACCENT2, as RGB


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "By colour"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:D6", valueInputOption="USER_ENTERED", body={"values": ROWS}).execute()
    return api, sid


def paint(api: Any, sid: str, row: int, col: int, fmt: dict[str, Any]) -> None:
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"repeatCell": {
        "range": {"sheetId": 0, "startRowIndex": row, "endRowIndex": row + 1, "startColumnIndex": col, "endColumnIndex": col + 1},
        "cell": {"userEnteredFormat": fmt}, "fields": "userEnteredFormat(" + ",".join(fmt) + ")"}}]}).execute()


def by_colour(api: Any, sid: str, criteria: dict[str, Any], col: int = 0) -> list[int]:
    api.batchUpdate(spreadsheetId=sid, body={"requests": [set_filter(filterSpecs=[{"columnIndex": col, "filterCriteria": criteria}])]}).execute()
    return filtered(api, sid)


def test_a_fill_colour_filter_shows_the_rows_filled_in_it(made: tuple[Any, str]) -> None:
    api, sid = made
    paint(api, sid, 1, 0, {"backgroundColor": RED})  # Ann, by hand
    paint(api, sid, 3, 0, {"backgroundColorStyle": {"rgbColor": GREEN}})  # Cy
    paint(api, sid, 4, 0, {"backgroundColorStyle": {"themeColor": "ACCENT2"}})  # Di, in the theme's red
    assert by_colour(api, sid, {"visibleBackgroundColorStyle": {"rgbColor": RED}}) == [2, 3, 4, 5]
    assert by_colour(api, sid, {"visibleBackgroundColor": GREEN}) == [1, 2, 4, 5]
    assert by_colour(api, sid, {"visibleBackgroundColorStyle": {"rgbColor": ACCENT2}}) == [1, 2, 3, 5]
    assert by_colour(api, sid, {"visibleBackgroundColorStyle": {"rgbColor": {"red": 1, "green": 1, "blue": 1}}}) == [1, 3, 4], \
        "white shows the unfilled rows"
    shown = the_filter(api, sid)["filterSpecs"][0]["filterCriteria"]
    assert shown == {"visibleBackgroundColorStyle": {"rgbColor": {"red": 1, "green": 1, "blue": 1}}}
    paint(api, sid, 2, 0, {"backgroundColor": RED})  # Bob filled red after the filter was set: hidden now
    assert filtered(api, sid) == [1, 2, 3, 4]


def test_a_text_colour_filter_and_conditional_colours(made: tuple[Any, str]) -> None:
    api, sid = made
    paint(api, sid, 2, 1, {"textFormat": {"foregroundColor": RED}})  # Bob's region in red text
    api.batchUpdate(spreadsheetId=sid, body={"requests": [{"addConditionalFormatRule": {"index": 0, "rule": {
        "ranges": [{"sheetId": 0, "startRowIndex": 1, "endRowIndex": 6, "startColumnIndex": 1, "endColumnIndex": 2}],
        "booleanRule": {"condition": condition("TEXT_EQ", "West"), "format": {"textFormat": {"foregroundColor": RED},
                                                                              "backgroundColor": GREEN}}}}}]}).execute()
    # Bob by hand, Ann and Cy (West) by the rule
    assert by_colour(api, sid, {"visibleForegroundColorStyle": {"rgbColor": RED}}, col=1) == [4, 5]
    assert by_colour(api, sid, {"visibleForegroundColor": {}}, col=1) == [1, 2, 3], "black: the text no one coloured"
    assert by_colour(api, sid, {"visibleBackgroundColor": GREEN}, col=1) == [2, 4, 5]
    both = {"visibleBackgroundColor": GREEN, "condition": condition("TEXT_EQ", "West")}
    assert by_colour(api, sid, both, col=1) == [2, 4, 5]


@pytest.mark.parametrize(("criteria", "says"), [
    ({"visibleBackgroundColor": RED, "visibleForegroundColorStyle": {"rgbColor": GREEN}}, "mutually exclusive"),
    ({"visibleBackgroundColorStyle": {"themeColor": "ACCENT2"}}, "must be set to an RGB-type color"),
    ({"visibleForegroundColorStyle": {}}, "must be set to an RGB-type color"),
    ({"visibleBackgroundColor": {"red": 2}}, "from 0 to 1"),
    ({"visibleBackgroundColor": "red"}, "must be a Color"),
])
def test_a_bad_colour_criterion_is_googles_400(agent_url: str, env: Env, made: tuple[Any, str], criteria: dict[str, Any],
                                               says: str) -> None:
    api, sid = made
    with pytest.raises(HttpError) as bad:
        by_colour(api, sid, criteria)
    assert bad.value.resp.status == 400 and says in bad.value.content.decode()
    assert the_filter(api, sid) is None
    raw = httpx.post(f"{agent_url}/envs/{env.id}/api/sheets/v4/spreadsheets/{sid}:batchUpdate",
                     json={"requests": [set_filter(filterSpecs=[{"columnIndex": 0, "filterCriteria": criteria}])]}, timeout=30)
    assert raw.json()["error"]["status"] == "INVALID_ARGUMENT"
