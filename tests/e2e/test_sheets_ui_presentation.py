"""Filters, data validation, conditional formats and borders in the browser grid, in real
Chromium, as Google Sheets shows them: Data ▸ Create a filter puts filter icons on the header
row and the API then reports the filter; rows a filter hides are not drawn (the row after says
so); conditional formats and borders are drawn on their cells; a cell with a dropdown shows its
arrow and, selected, its list to choose from; a strict rule refuses a typed value with Google's
words (the API writes any value, as Google's does), and a value a rule refuses is marked."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_round6 import blank_spreadsheet, cell, enter, go, settled


def _api(live_server: Any, env_id: str, sid: str) -> str:
    return f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets/{sid}"


def _batch(live_server: Any, env_id: str, sid: str, *requests: dict[str, Any]) -> None:
    httpx.post(f"{_api(live_server, env_id, sid)}:batchUpdate", json={"requests": list(requests)}, timeout=10).raise_for_status()


def _rng(r1: int, r2: int, c1: int, c2: int) -> dict[str, int]:
    return {"sheetId": 0, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def _made(page: Page, live_server: Any, env_id: str) -> str:
    blank_spreadsheet(page, live_server, env_id, "Presented")
    sid = page.url.split("/d/")[1].split("?")[0]
    httpx.put(f"{_api(live_server, env_id, sid)}/values/Sheet1!A1:C5", params={"valueInputOption": "USER_ENTERED"}, timeout=10,
              json={"values": [["Who", "Status", "Amount"], ["Ann", "Open", 120], ["Bob", "Done", 40], ["Cy", "Open", 75],
                               ["Di", "Done", 300]]}).raise_for_status()
    page.reload()
    page.wait_for_load_state()
    return sid


def test_create_a_filter_shows_its_icons_and_hides_the_rows_it_filters_out(live_server: Any, env_id: str, page: Page) -> None:
    sid = _made(page, live_server, env_id)
    go(page, "B2")
    page.get_by_role("navigation", name="Menu").get_by_text("Data", exact=True).click()
    page.get_by_role("menuitem", name="Create a filter").click()
    settled(page)
    got = httpx.get(_api(live_server, env_id, sid), timeout=10).json()["sheets"][0]
    assert got["basicFilter"]["range"] == _rng(0, 5, 0, 3)  # one cell selected: the sheet's data
    expect(page.get_by_role("img", name="Filter: column B")).to_be_visible()
    expect(page.get_by_role("img", name="Filter: column C")).to_be_visible()

    # The header cell's "Filter by values": untick Done, and the Done rows are hidden: not drawn,
    # and the row after them says so.
    go(page, "B1")
    menu = page.get_by_role("form", name="Filter column B by values")
    expect(menu.get_by_role("checkbox", name="Done")).to_be_checked()
    menu.get_by_role("checkbox", name="Done").uncheck()
    menu.get_by_role("button", name="OK").click()
    settled(page)
    got = httpx.get(_api(live_server, env_id, sid), timeout=10).json()["sheets"][0]
    assert got["basicFilter"]["filterSpecs"] == [{"columnIndex": 1, "filterCriteria": {"hiddenValues": ["Done"]}}]
    grid = page.get_by_role("grid", name="Sheet1")
    expect(grid.get_by_role("rowheader", name="3", exact=True)).to_have_count(0)
    expect(grid.get_by_role("rowheader", name="5", exact=True)).to_have_count(0)
    expect(cell(page, "A4")).to_have_text("Cy")
    expect(grid.get_by_role("rowheader", name="4", exact=True)).to_have_attribute("title", "Rows above are hidden by the filter")
    expect(page.get_by_role("img", name="Filtered: column B")).to_be_visible()
    cell(page, "A2").click()
    page.keyboard.press("ArrowDown")  # the arrow keys step over what the filter hides
    expect(page.get_by_label("Name box")).to_have_value("A4")

    page.get_by_role("navigation", name="Menu").get_by_text("Data", exact=True).click()
    page.get_by_role("menuitem", name="Remove filter").click()
    settled(page)
    expect(cell(page, "A3")).to_have_text("Bob")
    assert "basicFilter" not in httpx.get(_api(live_server, env_id, sid), timeout=10).json()["sheets"][0]


def test_conditional_formats_and_borders_are_drawn(live_server: Any, env_id: str, page: Page) -> None:
    sid = _made(page, live_server, env_id)
    _batch(live_server, env_id, sid,
           {"addConditionalFormatRule": {"rule": {"ranges": [_rng(1, 5, 2, 3)], "booleanRule": {
               "condition": {"type": "NUMBER_GREATER", "values": [{"userEnteredValue": "100"}]},
               "format": {"backgroundColor": {"red": 1.0}, "textFormat": {"bold": True}}}}}},
           {"updateBorders": {"range": _rng(0, 1, 0, 3), "bottom": {"style": "SOLID_THICK", "color": {"blue": 1.0}}}})
    page.reload()
    page.wait_for_load_state()
    big, small = cell(page, "C2"), cell(page, "C3")
    expect(big).to_have_css("background-color", "rgb(255, 0, 0)")
    expect(big).to_have_css("font-weight", "700")
    expect(small).not_to_have_css("background-color", "rgb(255, 0, 0)")
    expect(cell(page, "B1")).to_have_css("border-bottom-style", "solid")
    expect(cell(page, "B1")).to_have_css("border-bottom-color", "rgb(0, 0, 255)")
    # The format follows the value: typed over 100, the cell turns red.
    enter(page, "C3", "150")
    expect(cell(page, "C3")).to_have_css("background-color", "rgb(255, 0, 0)")


def test_a_dropdown_offers_its_list_and_a_strict_rule_refuses_what_is_not_on_it(live_server: Any, env_id: str, page: Page) -> None:
    sid = _made(page, live_server, env_id)
    _batch(live_server, env_id, sid, {"setDataValidation": {"range": _rng(1, 10, 1, 2), "rule": {
        "condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": "Open"}, {"userEnteredValue": "Done"},
                                                        {"userEnteredValue": "Blocked"}]},
        "strict": True, "showCustomUi": True, "inputMessage": "Pick a status"}}})
    page.reload()
    page.wait_for_load_state()
    expect(cell(page, "B3")).to_have_class(re.compile(r"\bdv-list\b"))  # its dropdown arrow
    go(page, "B3")
    chooser = page.get_by_label("Choose a value for B3")
    expect(chooser).to_be_visible()
    expect(chooser.locator("option")).to_have_text(["Open", "Done", "Blocked"])
    chooser.select_option("Blocked")
    page.get_by_role("button", name="Choose").click()
    settled(page)
    expect(cell(page, "B3")).to_have_text("Blocked")
    # Typed: a value not on the list is refused with Google's words, and nothing is written.
    go(page, "B4")
    page.get_by_label("Formula bar").fill("Maybe")
    page.get_by_label("Formula bar").press("Enter")
    settled(page)
    expect(page.get_by_role("alert")).to_have_text("The data you entered in cell B4 violates the data validation rules set on this cell.")
    values = httpx.get(f"{_api(live_server, env_id, sid)}/values/Sheet1!B3:B4", timeout=10).json()["values"]
    assert values == [["Blocked"], ["Open"]]
    # The API writes it all the same, as Google's does; the grid marks the value invalid.
    httpx.put(f"{_api(live_server, env_id, sid)}/values/Sheet1!B4", params={"valueInputOption": "RAW"}, timeout=10,
              json={"values": [["Maybe"]]}).raise_for_status()
    page.reload()
    page.wait_for_load_state()
    expect(cell(page, "B4")).to_have_class(re.compile(r"\bdv-bad\b"))
