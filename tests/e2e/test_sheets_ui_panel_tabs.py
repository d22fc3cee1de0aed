"""The grid's side panels (Data ▸ Data validation, Format ▸ Conditional formatting) stay open when
the user goes to another sheet tab, as Google Sheets keeps them, and show that tab's rules; a
sheet added with the panel open opens with it too. Before, switching tab closed the panel. In
real Chromium, on the module's live server, as the other sheets UI tests run."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_round6 import blank_spreadsheet, settled


def _made(page: Page, live_server: Any, env_id: str) -> str:
    blank_spreadsheet(page, live_server, env_id, "Two tabs")
    sid = page.url.split("/d/")[1].split("?")[0]
    api = f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets/{sid}"
    added = httpx.post(f"{api}:batchUpdate", timeout=10, json={"requests": [{"addSheet": {"properties": {"title": "Q2"}}}]})
    added.raise_for_status()
    q2 = added.json()["replies"][0]["addSheet"]["properties"]["sheetId"]

    def over(sheet: int, c: int) -> dict[str, int]:
        return {"sheetId": sheet, "startRowIndex": 1, "endRowIndex": 5, "startColumnIndex": c, "endColumnIndex": c + 1}

    def listed(*options: str) -> dict[str, Any]:
        return {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": o} for o in options]}, "showCustomUi": True}

    def red_when(text: str, sheet: int) -> dict[str, Any]:
        return {"addConditionalFormatRule": {"index": 0, "rule": {"ranges": [over(sheet, 0)], "booleanRule": {
            "condition": {"type": "TEXT_EQ", "values": [{"userEnteredValue": text}]}, "format": {"backgroundColor": {"red": 1}}}}}}

    httpx.post(f"{api}:batchUpdate", timeout=10, json={"requests": [
        {"setDataValidation": {"range": over(0, 1), "rule": listed("Open", "Done")}},
        {"setDataValidation": {"range": over(q2, 2), "rule": listed("Yes", "No")}},
        red_when("late", 0), red_when("blocked", q2),
    ]}).raise_for_status()
    page.reload()
    page.wait_for_load_state()
    return sid


def _menu(page: Page, menu: str, item: str) -> None:
    page.get_by_role("navigation", name="Menu").get_by_text(menu, exact=True).click()
    page.get_by_role("menuitem", name=item, exact=True).click()
    settled(page)


def _tab(page: Page, title: str) -> None:
    page.get_by_role("navigation", name="Sheets").get_by_role("link", name=title, exact=True).click()
    settled(page)
    expect(page.get_by_role("grid", name=title)).to_be_visible()


def test_the_validation_panel_stays_open_and_shows_the_other_tabs_rules(live_server: Any, env_id: str, page: Page) -> None:
    _made(page, live_server, env_id)
    _menu(page, "Data", "Data validation")
    panel = page.get_by_role("complementary", name="Data validation rules")
    expect(panel.get_by_label("Apply to range")).to_have_value("A1")  # A1 has no rule: a new one over it, as Google opens it
    _tab(page, "Q2")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("link", name="Edit rule 1: C2:C5, Dropdown: Yes, No")).to_be_visible()
    expect(panel.get_by_role("link", name="Edit rule 1: B2:B5, Dropdown: Open, Done")).to_have_count(0)
    _tab(page, "Sheet1")
    expect(panel.get_by_role("link", name="Edit rule 1: B2:B5, Dropdown: Open, Done")).to_be_visible()
    panel.get_by_role("link", name="Close").click()
    settled(page)
    expect(panel).to_have_count(0)
    _tab(page, "Q2")
    expect(page.get_by_role("complementary")).to_have_count(0)  # closed stays closed


def test_the_conditional_format_panel_stays_open_across_tabs_and_a_new_sheet(live_server: Any, env_id: str, page: Page) -> None:
    _made(page, live_server, env_id)
    page.get_by_label("Name box").fill("A2")
    page.get_by_label("Name box").press("Enter")
    settled(page)
    _menu(page, "Format", "Conditional formatting")
    panel = page.get_by_role("complementary", name="Conditional format rules")
    expect(panel.get_by_role("link", name="Edit rule 1: A2:A5, Text is exactly late")).to_be_visible()
    _tab(page, "Q2")
    expect(panel.get_by_role("link", name="Edit rule 1: A2:A5, Text is exactly blocked")).to_be_visible()
    page.get_by_role("button", name="Add sheet").click()
    settled(page)
    expect(page.get_by_role("grid", name="Sheet3")).to_be_visible()
    expect(panel).to_be_visible()  # a sheet with no rules: the panel opens on a new rule
