"""A filter header's "Filter by color" in the browser grid, as Google Sheets' filter menu has it:
the fill and text colours the column's rows show (by hand or by a conditional format) are
offered, choosing one leaves only the rows showing it (the API then reports
visibleBackgroundColorStyle / visibleForegroundColorStyle), and None stops filtering by colour
while the values filter stays. In real Chromium, on the module's live server."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_presentation import _api, _batch, _made, _rng
from tests.e2e.test_sheets_ui_round6 import cell, go, settled


def _fill(r: int, color: dict[str, float]) -> dict[str, Any]:
    return {"repeatCell": {"range": _rng(r, r + 1, 1, 2), "cell": {"userEnteredFormat": {"backgroundColor": color}},
                           "fields": "userEnteredFormat.backgroundColor"}}


def test_filter_by_fill_and_text_color_from_the_header_menu(live_server: Any, env_id: str, page: Page) -> None:
    sid = _made(page, live_server, env_id)  # Who, Status, Amount: Ann Open, Bob Done, Cy Open, Di Done
    _batch(live_server, env_id, sid, _fill(1, {"red": 1}), _fill(3, {"red": 1}), _fill(4, {"green": 1}),
           {"addConditionalFormatRule": {"index": 0, "rule": {"ranges": [_rng(1, 5, 1, 2)], "booleanRule": {
               "condition": {"type": "TEXT_EQ", "values": [{"userEnteredValue": "Done"}]},
               "format": {"textFormat": {"foregroundColor": {"blue": 1}}}}}}},
           {"setBasicFilter": {"filter": {"range": _rng(0, 5, 0, 3),
                                          "filterSpecs": [{"columnIndex": 1, "filterCriteria": {"hiddenValues": ["Nope"]}}]}}})
    page.reload()
    page.wait_for_load_state()
    go(page, "B1")
    menu = page.get_by_role("form", name="Filter column B by color")
    expect(menu.get_by_role("button", name="Fill color #00ff00")).to_be_visible()
    expect(menu.get_by_role("button", name="Text color #0000ff")).to_be_visible()  # from the conditional format
    menu.get_by_role("button", name="Fill color #ff0000").click()
    settled(page)
    got = httpx.get(_api(live_server, env_id, sid), timeout=10).json()["sheets"][0]["basicFilter"]
    assert got["filterSpecs"] == [{"columnIndex": 1, "filterCriteria": {
        "hiddenValues": ["Nope"], "visibleBackgroundColorStyle": {"rgbColor": {"red": 1.0, "green": 0.0, "blue": 0.0}}}}]
    grid = page.get_by_role("grid", name="Sheet1")
    expect(cell(page, "A2")).to_have_text("Ann")
    expect(cell(page, "A4")).to_have_text("Cy")
    for hidden in ("3", "5"):
        expect(grid.get_by_role("rowheader", name=hidden, exact=True)).to_have_count(0)
    expect(menu.get_by_role("button", name="Fill color #ff0000")).to_have_attribute("aria-pressed", "true")

    menu.get_by_role("button", name="Text color #0000ff").click()  # the Done rows, blue by the rule
    settled(page)
    expect(cell(page, "A3")).to_have_text("Bob")
    expect(cell(page, "A5")).to_have_text("Di")
    expect(grid.get_by_role("rowheader", name="2", exact=True)).to_have_count(0)

    menu.get_by_role("button", name="Filter by color: None").click()
    settled(page)
    got = httpx.get(_api(live_server, env_id, sid), timeout=10).json()["sheets"][0]["basicFilter"]
    assert got["filterSpecs"] == [{"columnIndex": 1, "filterCriteria": {"hiddenValues": ["Nope"]}}]
    expect(grid.get_by_role("rowheader", name="2", exact=True)).to_be_visible()
