"""Rules made from the browser grid, in real Chromium, as Google Sheets' UI makes them: Data ▸ Data
validation's side panel (a dropdown, a number rule, its edit and removal), Format ▸ Conditional
formatting's (a single-color rule, a color scale, a rule removed), Format ▸ Borders, and
Insert ▸ Checkbox (its cells drawn as checkboxes, toggled by a click and by Space). Each is read
back through the REST face (spreadsheets.get), as the API stores it; a rule the API refuses
leaves the panel open with what was typed and the API's words. Two task families that ask for
such rules (sheets/add-dropdown-v1, sheets/highlight-by-rule-v1) are done this way and grade 1.0."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_round6 import blank_spreadsheet, cell, enter, go, graded, open_sheet, settled


def _api(live_server: Any, env_id: str, sid: str) -> str:
    return f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets/{sid}"


def _rng(r1: int, r2: int, c1: int, c2: int) -> dict[str, int]:
    return {"sheetId": 0, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def _sheet(live_server: Any, env_id: str, sid: str, ranges: str | None = None) -> dict[str, Any]:
    params = {"includeGridData": "true", "ranges": ranges} if ranges else {}
    got = httpx.get(_api(live_server, env_id, sid), params=params, timeout=10)
    got.raise_for_status()
    return got.json()["sheets"][0]


def _cells(sheet: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [row.get("values", []) for row in sheet["data"][0].get("rowData", [])]


def _made(page: Page, live_server: Any, env_id: str) -> str:
    blank_spreadsheet(page, live_server, env_id, "Rules")
    sid = page.url.split("/d/")[1].split("?")[0]
    httpx.put(f"{_api(live_server, env_id, sid)}/values/Sheet1!A1:C5", params={"valueInputOption": "USER_ENTERED"}, timeout=10,
              json={"values": [["Who", "Status", "Amount"], ["Ann", "Open", 120], ["Bob", "Done", 40], ["Cy", "Open", 75],
                               ["Di", "Done", 300]]}).raise_for_status()
    page.reload()
    page.wait_for_load_state()
    return sid


def _menu(page: Page, menu: str, item: str) -> None:
    page.get_by_role("navigation", name="Menu").get_by_text(menu, exact=True).click()
    page.get_by_role("menuitem", name=item, exact=True).click()
    settled(page)


def test_data_validation_rules_are_made_edited_and_removed_in_the_side_panel(live_server: Any, env_id: str, page: Page) -> None:
    sid = _made(page, live_server, env_id)
    go(page, "B2:B5")
    _menu(page, "Data", "Data validation")
    panel = page.get_by_role("complementary", name="Data validation rules")
    # No rules yet: the new rule's form, over the selection.
    expect(panel.get_by_label("Apply to range")).to_have_value("B2:B5")
    expect(panel.get_by_label("Apply to range")).to_be_focused()
    expect(panel.get_by_label("Criteria")).to_have_value("ONE_OF_LIST")
    panel.get_by_label("Option 1", exact=True).fill("Open")
    panel.get_by_label("Option 2", exact=True).fill("Done")
    panel.get_by_role("button", name="Add another item").click()
    settled(page)
    panel.get_by_label("Option 3", exact=True).fill("Blocked")
    panel.get_by_role("radio", name="Reject the input").check()
    panel.get_by_role("button", name="Done", exact=True).click()
    settled(page)
    rule = {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": "Open"}, {"userEnteredValue": "Done"},
                                                             {"userEnteredValue": "Blocked"}]}, "strict": True, "showCustomUi": True}
    assert [row[0].get("dataValidation") for row in _cells(_sheet(live_server, env_id, sid, "Sheet1!B2:B6"))] == [rule] * 4
    # Back to the list; the grid draws the dropdowns in place.
    expect(panel.get_by_role("link", name="Edit rule 1: B2:B5, Dropdown: Open, Done, Blocked")).to_be_visible()
    expect(cell(page, "B3")).to_have_class(re.compile(r"\bdv-list\b"))
    enter(page, "A6", "Ed")  # typing in the grid leaves the panel open, as Google's stays
    expect(panel.get_by_role("link", name=re.compile(r"^Edit rule 1: B2:B5"))).to_be_visible()
    go(page, "B3")
    _menu(page, "Data", "Data validation")  # from the menu on a cell with a rule: that rule, open
    expect(panel.get_by_label("Option 1", exact=True)).to_have_value("Open")
    expect(panel.get_by_label("Apply to range")).to_have_value("B2:B5")
    panel.get_by_role("link", name="Cancel").click()
    settled(page)

    # A rule the API refuses: its words in the panel, what was typed kept, nothing written.
    panel.get_by_role("button", name="Add rule", exact=True).click()
    settled(page)
    panel.get_by_label("Apply to range").fill("C2:C5")
    panel.get_by_label("Criteria").select_option(label="Greater than")
    panel.get_by_label("Value or formula", exact=True).fill("lots")
    panel.get_by_label("Value or formula", exact=True).press("Enter")  # (Enter in a field is Done)
    settled(page)
    expect(panel.get_by_role("alert")).to_contain_text("NUMBER_GREATER needs numbers; 'lots' is not a number")
    expect(panel.get_by_label("Value or formula", exact=True)).to_have_value("lots")
    assert all("dataValidation" not in row[0] for row in _cells(_sheet(live_server, env_id, sid, "Sheet1!C2:C5")))
    panel.get_by_label("Criteria").select_option(label="Is between")
    panel.get_by_label("Value or formula", exact=True).fill("0")
    panel.get_by_label("Second value or formula", exact=True).fill("100")
    panel.get_by_role("button", name="Done", exact=True).click()
    settled(page)
    got = [row[0].get("dataValidation") for row in _cells(_sheet(live_server, env_id, sid, "Sheet1!C2:C5"))]
    assert got == [{"condition": {"type": "NUMBER_BETWEEN", "values": [{"userEnteredValue": "0"}, {"userEnteredValue": "100"}]}}] * 4
    expect(cell(page, "C2")).to_have_class(re.compile(r"\bdv-bad\b"))  # 120 is out of it: a warning, as Google marks it

    # Edit the dropdown: a smaller range (the cells it leaves lose it), then remove the other rule.
    panel.get_by_role("link", name=re.compile(r"^Edit rule 1: B2:B5")).click()
    settled(page)
    expect(panel.get_by_label("Option 3", exact=True)).to_have_value("Blocked")
    panel.get_by_label("Apply to range").fill("B2:B3")
    panel.get_by_role("button", name="Done", exact=True).click()
    settled(page)
    assert [("dataValidation" in row[0]) for row in _cells(_sheet(live_server, env_id, sid, "Sheet1!B2:B5"))] == [True, True, False, False]
    panel.get_by_role("button", name="Remove rule 2", exact=True).click()
    settled(page)
    assert all("dataValidation" not in row[0] for row in _cells(_sheet(live_server, env_id, sid, "Sheet1!C2:C5")))
    expect(panel.get_by_role("link", name=re.compile(r"^Edit rule"))).to_have_count(1)
    panel.get_by_role("link", name="Close").click()
    settled(page)
    expect(page.get_by_role("complementary")).to_have_count(0)


def test_conditional_format_rules_are_made_in_order_and_removed_in_the_side_panel(live_server: Any, env_id: str, page: Page) -> None:
    sid = _made(page, live_server, env_id)
    go(page, "C2:C5")
    _menu(page, "Format", "Conditional formatting")
    panel = page.get_by_role("complementary", name="Conditional format rules")
    expect(panel.get_by_label("Apply to range")).to_have_value("C2:C5")
    expect(panel.get_by_role("tab", name="Single color")).to_have_attribute("aria-selected", "true")
    panel.get_by_label("Format cells if…").select_option(label="Greater than")
    panel.get_by_label("Value or formula", exact=True).fill("100")
    panel.get_by_role("checkbox", name="Bold").check()
    panel.get_by_label("Fill color").select_option(label="light red 3")
    panel.get_by_role("button", name="Done", exact=True).click()
    settled(page)
    single = {"ranges": [_rng(1, 5, 2, 3)], "booleanRule": {
        "condition": {"type": "NUMBER_GREATER", "values": [{"userEnteredValue": "100"}]},
        "format": {"textFormat": {"bold": True}, "backgroundColor": {"red": 0.9569, "green": 0.8, "blue": 0.8}}}}
    assert _sheet(live_server, env_id, sid)["conditionalFormats"] == [single]
    expect(cell(page, "C2")).to_have_css("background-color", "rgb(244, 204, 204)")  # 120: drawn in place
    expect(cell(page, "C2")).to_have_css("font-weight", "700")
    expect(cell(page, "C3")).not_to_have_css("background-color", "rgb(244, 204, 204)")

    # A bad custom formula: the API's words in the panel.
    panel.get_by_role("button", name="Add another rule", exact=True).click()
    settled(page)
    panel.get_by_label("Apply to range").fill("A2:A5")
    panel.get_by_label("Format cells if…").select_option(label="Custom formula is")
    panel.get_by_label("Value or formula", exact=True).fill("=SUM(")
    panel.get_by_role("button", name="Done", exact=True).click()
    settled(page)
    expect(panel.get_by_role("alert")).to_contain_text("CUSTOM_FORMULA is not a valid formula")
    assert len(_sheet(live_server, env_id, sid)["conditionalFormats"]) == 1

    # The Color scale tab: a second rule, after the first.
    panel.get_by_role("tab", name="Color scale").click()
    settled(page)
    expect(panel.get_by_role("tab", name="Color scale")).to_have_attribute("aria-selected", "true")
    panel.get_by_label("Apply to range").fill("C2:C5")
    panel.get_by_label("Minpoint color").select_option(label="white")
    panel.get_by_label("Maxpoint color").select_option(label="green (color scale)")
    panel.get_by_role("button", name="Done", exact=True).click()
    settled(page)
    rules = _sheet(live_server, env_id, sid)["conditionalFormats"]
    assert rules[0] == single
    assert rules[1] == {"ranges": [_rng(1, 5, 2, 3)], "gradientRule": {
        "minpoint": {"type": "MIN", "color": {"red": 1.0, "green": 1.0, "blue": 1.0}},
        "maxpoint": {"type": "MAX", "color": {"red": 0.3412, "green": 0.7333, "blue": 0.5412}}}}
    expect(panel.get_by_role("link", name=re.compile(r"^Edit rule 2: C2:C5, Color scale"))).to_be_visible()
    # The order decides (the first rule that holds on a cell draws it): the scale moved first, then back.
    panel.get_by_role("button", name="Move rule 2 up", exact=True).click()
    settled(page)
    assert _sheet(live_server, env_id, sid)["conditionalFormats"] == [rules[1], single]
    expect(cell(page, "C2")).not_to_have_css("font-weight", "700")
    panel.get_by_role("button", name="Move rule 1 down", exact=True).click()
    settled(page)
    assert _sheet(live_server, env_id, sid)["conditionalFormats"] == rules

    # Edit the first (updateConditionalFormatRule), then remove it: the color scale is left.
    panel.get_by_role("link", name=re.compile(r"^Edit rule 1: C2:C5")).click()
    settled(page)
    expect(panel.get_by_label("Value or formula", exact=True)).to_have_value("100")
    panel.get_by_label("Value or formula", exact=True).fill("50")
    panel.get_by_role("button", name="Done", exact=True).click()
    settled(page)
    assert _sheet(live_server, env_id, sid)["conditionalFormats"][0]["booleanRule"]["condition"]["values"] == [{"userEnteredValue": "50"}]
    expect(cell(page, "C4")).to_have_css("font-weight", "700")  # 75 > 50 now
    panel.get_by_role("button", name="Remove rule 1", exact=True).click()
    settled(page)
    assert _sheet(live_server, env_id, sid)["conditionalFormats"] == [rules[1]]
    expect(cell(page, "C5")).to_have_css("background-color", "rgb(87, 187, 138)")  # the max, 300, in the scale's color


def test_borders_from_the_format_menu(live_server: Any, env_id: str, page: Page) -> None:
    sid = _made(page, live_server, env_id)
    go(page, "A1:B2")
    _menu(page, "Format", "Borders ▸ Outer borders")
    rows = _cells(_sheet(live_server, env_id, sid, "Sheet1!A1:B2"))
    sides = [[sorted((c.get("userEnteredFormat") or {}).get("borders", {})) for c in row] for row in rows]
    assert sides == [[["left", "top"], ["right", "top"]], [["bottom", "left"], ["bottom", "right"]]]
    assert rows[0][0]["userEnteredFormat"]["borders"]["top"]["style"] == "SOLID"
    expect(cell(page, "A1")).to_have_css("border-top-style", "solid")
    expect(cell(page, "A1")).to_have_css("border-top-color", "rgb(0, 0, 0)")
    _menu(page, "Format", "Borders ▸ Inner borders")
    rows = _cells(_sheet(live_server, env_id, sid, "Sheet1!A1:B2"))
    assert sorted(rows[0][0]["userEnteredFormat"]["borders"]) == ["bottom", "left", "right", "top"]
    _menu(page, "Format", "Borders ▸ Clear borders")
    rows = _cells(_sheet(live_server, env_id, sid, "Sheet1!A1:B2"))
    assert all("borders" not in (c.get("userEnteredFormat") or {}) for row in rows for c in row)


def test_checkboxes_are_inserted_drawn_and_toggled_by_click_and_space(live_server: Any, env_id: str, page: Page) -> None:
    sid = _made(page, live_server, env_id)
    go(page, "D2:D4")
    _menu(page, "Insert", "Checkbox")
    rows = _cells(_sheet(live_server, env_id, sid, "Sheet1!D2:D4"))
    assert [row[-1].get("dataValidation") for row in rows] == [{"condition": {"type": "BOOLEAN"}}] * 3
    grid = page.get_by_role("grid")
    box = grid.get_by_role("checkbox", name="D2", exact=True)
    expect(box).to_have_attribute("aria-checked", "false")
    box.click()
    settled(page)
    expect(grid.get_by_role("checkbox", name="D2", exact=True)).to_have_attribute("aria-checked", "true")

    def values() -> list[Any]:
        got = httpx.get(f"{_api(live_server, env_id, sid)}/values/Sheet1!D2:D4", params={"valueRenderOption": "UNFORMATTED_VALUE"},
                        timeout=10).json()
        return [row[0] if row else None for row in got.get("values", [])] + [None] * (3 - len(got.get("values", [])))

    assert values() == [True, None, None]
    go(page, "D3")
    grid.locator("td[aria-selected=true]").press("Space")
    settled(page)
    assert values() == [True, True, None]
    expect(grid.get_by_role("checkbox", name="D3", exact=True)).to_have_attribute("aria-checked", "true")
    # Space over several: all ticked when some were not; then all cleared.
    go(page, "D2:D4")
    grid.locator("td[aria-selected=true]").press("Space")
    settled(page)
    assert values() == [True, True, True]
    grid.locator("td[aria-selected=true]").press("Space")
    settled(page)
    assert values() == [False, False, False]
    expect(grid.get_by_role("checkbox", name="D4", exact=True)).to_have_attribute("aria-checked", "false")
    box = grid.get_by_role("checkbox", name="D2", exact=True)
    box.click()  # a click ticks that one alone
    settled(page)
    assert values() == [True, False, False]


def _row_of(page: Page, key: str) -> int:
    """Find in sheet (the search box), then the row of the cell it selects."""
    page.get_by_label("Find in sheet").fill(key)
    page.get_by_label("Find in sheet").press("Enter")
    settled(page)
    return int(re.sub(r"^[A-Z]+", "", page.get_by_label("Name box").input_value()))


def test_the_add_dropdown_task_done_in_the_browser(live_server: Any, page: Page) -> None:
    """sheets/add-dropdown-v1 as a person does it in Google Sheets: the header typed, Data ▸ Data
    validation's Dropdown over the column's rows, and two rows picked from their dropdowns."""
    env = live_server.gym.create("sheets/add-dropdown-v1", variant=2)  # (the Pipeline: 60 deals, three options)
    try:
        facts = env.task.facts
        open_sheet(page, live_server, env.id, "Sales Forecast FY2026")
        enter(page, "J1", facts["header"])
        go(page, f"J2:J{facts['last']}")
        _menu(page, "Data", "Data validation")
        panel = page.get_by_role("complementary", name="Data validation rules")
        for i, option in enumerate(facts["options"], start=1):
            if i > 2:
                panel.get_by_role("button", name="Add another item").click()
                settled(page)
            panel.get_by_label(f"Option {i}", exact=True).fill(option)
        panel.get_by_role("button", name="Done", exact=True).click()
        settled(page)
        for key, option in facts["asked"].items():
            row = _row_of(page, key)
            go(page, f"J{row}")
            page.get_by_label(f"Choose a value for J{row}").select_option(option)
            page.get_by_role("button", name="Choose", exact=True).click()
            settled(page)
            expect(cell(page, f"J{row}")).to_have_text(option)
        graded(live_server, env.id)
    finally:
        live_server.gym.delete(env.id)


def test_the_highlight_task_done_with_a_conditional_format_rule(live_server: Any, page: Page) -> None:
    """sheets/highlight-by-rule-v1, the variant that must stay up to date as the deals change (only
    a rule does): Format ▸ Conditional formatting, "Custom formula is" over the table, green text."""
    env = live_server.gym.create("sheets/highlight-by-rule-v1", variant=1)
    try:
        facts = env.task.facts
        assert facts["live"] and facts["kind"] == "stage" and facts["way"] == "text" and facts["colour"] == "green"
        stage = re.search(r'Stage is "([^"]+)"', facts["rule"]).group(1)
        open_sheet(page, live_server, env.id, "Sales Forecast FY2026")
        go(page, f"A2:I{facts['last']}")
        _menu(page, "Format", "Conditional formatting")
        panel = page.get_by_role("complementary", name="Conditional format rules")
        expect(panel.get_by_label("Apply to range")).to_have_value(f"A2:I{facts['last']}")
        panel.get_by_label("Format cells if…").select_option(label="Custom formula is")
        panel.get_by_label("Value or formula", exact=True).fill(f'=$E2="{stage}"')
        panel.get_by_label("Text color").select_option(label="dark green 1")
        panel.get_by_label("Fill color").select_option(label="None")
        panel.get_by_role("button", name="Done", exact=True).click()
        settled(page)
        expect(cell(page, f"A{facts['rows'][0]}")).to_have_css("color", "rgb(106, 168, 79)")  # (the first matching row, drawn in place)
        graded(live_server, env.id)
    finally:
        live_server.gym.delete(env.id)
