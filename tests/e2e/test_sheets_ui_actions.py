"""The sheets page beyond one cell, in real Chromium, as a computer-use agent drives it: range
selection (shift-click, row and column headers), the context menu's row and column actions,
Delete on a range, Ctrl+D, copy and paste (within the spreadsheet: the cells themselves; from
outside: text split into cells), Data ▸ Sort range, a tab's add, rename and delete, and a
blank spreadsheet; each lands in the env's state through the same operations as the API, and
in the trajectory with face "ui". Two tasks done this way in the browser grade 1.0."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui import api_values
from tests.e2e.test_sheets_ui_round6 import settled

FORECAST = "Sales Forecast FY2026"
SELECTED = re.compile(r"\bin-sel\b")  # a cell of the selection


def _open(page: Page, live_server: Any, env_id: str, title: str = FORECAST) -> str:
    page.goto(f"{live_server.base_url}/envs/{env_id}/sheets/")
    page.get_by_role("link", name=title).click()
    expect(page.get_by_role("grid")).to_be_visible()
    return page.url.split("/d/")[1].split("?")[0]


def _cell(page: Page, name: str) -> Any:
    return page.get_by_role("grid").get_by_role("gridcell", name=name, exact=True)


def _tab_titles(live_server: Any, env_id: str, sid: str) -> list[str]:
    got = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets/{sid}", timeout=10).json()
    return [s["properties"]["title"] for s in got["sheets"]]


def _ui_writes(live_server: Any, env_id: str) -> list[str]:
    return [e["operation"] for e in live_server.gym.events(env_id) if e["face"] == "ui" and not e["is_error"]]


def test_rows_and_columns_from_the_context_menu_and_a_range_cleared(live_server: Any, env_id: str, page: Page) -> None:
    sid = _open(page, live_server, env_id)
    before = api_values(live_server, env_id, sid, "Pipeline!A1:B6")
    # Right-click a row number: the row is selected, and "Delete rows" deletes it.
    page.get_by_role("grid").get_by_role("rowheader", name="3", exact=True).click(button="right")
    expect(page.get_by_label("Name box")).to_have_value("3:3")
    page.get_by_role("menuitem", name="Delete rows").click()
    expect(_cell(page, "A3")).to_have_text(before[3][0])
    assert api_values(live_server, env_id, sid, "Pipeline!A1:B5") == [before[0], before[1], *before[3:6]]
    # Shift-click makes a range; "Insert rows above" inserts as many rows as are selected.
    _cell(page, "B2").click()
    _cell(page, "C3").click(modifiers=["Shift"])
    expect(page.get_by_label("Name box")).to_have_value("B2:C3")
    _cell(page, "B2").click(button="right")
    page.get_by_role("menuitem", name="Insert rows above").click()
    settled(page)
    assert api_values(live_server, env_id, sid, "Pipeline!A2:A4") == [[], [], [before[1][0]]]
    # A column letter selects the column; Delete columns removes it (the rest move left).
    header = api_values(live_server, env_id, sid, "Pipeline!A1:D1")[0]
    page.get_by_role("grid").get_by_role("columnheader", name="B", exact=True).click(button="right")
    expect(page.get_by_label("Name box")).to_have_value("B:B")
    page.get_by_role("menuitem", name="Delete columns").click()
    settled(page)
    assert api_values(live_server, env_id, sid, "Pipeline!A1:C1")[0] == [header[0], header[2], header[3]]
    # Delete on a selected range clears it.
    _cell(page, "A4").click()
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowDown")
    expect(page.get_by_label("Name box")).to_have_value("A4:B5")
    page.keyboard.press("Delete")
    expect(_cell(page, "A4")).to_have_text("")
    assert api_values(live_server, env_id, sid, "Pipeline!A4:B5") == []
    assert _ui_writes(live_server, env_id) == ["sheets.spreadsheets.batchUpdate"] * 3 + ["sheets.values.clear"]


def test_an_action_that_cannot_apply_says_why_and_changes_nothing(live_server: Any, env_id: str, page: Page) -> None:
    _open(page, live_server, env_id)
    page.get_by_role("grid").get_by_role("columnheader", name="C", exact=True).click()
    page.locator("nav.menubar summary", has_text="Edit").click()
    page.get_by_role("menuitem", name="Delete selected rows").click()
    expect(page.get_by_role("alert")).to_contain_text("select the rows first")
    assert _ui_writes(live_server, env_id) == []


def test_fill_down_moves_the_formula_with_each_row(live_server: Any, env_id: str, page: Page) -> None:
    sid = _open(page, live_server, env_id)
    _cell(page, "J2").click()
    page.keyboard.type("=F2*2")
    page.keyboard.press("Enter")
    page.get_by_label("Name box").fill("J2:J6")
    page.get_by_label("Name box").press("Enter")
    expect(_cell(page, "J6")).to_have_class(SELECTED)
    _cell(page, "J6").press("Control+d")
    expect(_cell(page, "J6")).not_to_have_text("")
    formulas = api_values(live_server, env_id, sid, "Pipeline!J2:J6", render="FORMULA")
    assert [row[0] for row in formulas] == [f"=F{r}*2" for r in range(2, 7)]
    amounts = api_values(live_server, env_id, sid, "Pipeline!F6:F6")[0][0]
    assert api_values(live_server, env_id, sid, "Pipeline!J6")[0][0] == amounts * 2


def test_copy_and_paste_within_the_spreadsheet_and_from_outside(live_server: Any, env_id: str, page: Page) -> None:
    sid = _open(page, live_server, env_id)
    # Cells copied on the page paste as cells: a formula moves with its position.
    _cell(page, "H2").click()
    _cell(page, "I3").click(modifiers=["Shift"])
    page.keyboard.press("Control+c")
    _cell(page, "K10").click()
    page.keyboard.press("Control+v")
    expect(_cell(page, "L10")).not_to_have_text("")
    assert api_values(live_server, env_id, sid, "Pipeline!L10:L11", render="FORMULA") == [["=I10*K10"], ["=I11*K11"]]  # was =F2*H2
    # Text from elsewhere (another program's clipboard) is split into rows and cells, as typed.
    _cell(page, "K20").click()
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.setData('text/plain', 'Region\\tTarget\\r\\nEast\\t1200\\r\\nWest\\t=L21*2\\r\\n');
        document.activeElement.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true}));
    }""")
    expect(_cell(page, "K22")).to_have_text("West")
    assert api_values(live_server, env_id, sid, "Pipeline!K20:L22") == [["Region", "Target"], ["East", 1200], ["West", 2400]]
    assert _ui_writes(live_server, env_id) == ["sheets.spreadsheets.batchUpdate", "sheets.values.update"]


def test_tabs_added_renamed_and_deleted_and_a_blank_spreadsheet(live_server: Any, env_id: str, page: Page) -> None:
    sid = _open(page, live_server, env_id)
    page.get_by_role("button", name="Add sheet").click()
    expect(page.get_by_role("grid", name="Sheet4")).to_be_visible()
    page.get_by_label("Sheet4 options").click()
    page.get_by_label("New name for Sheet4").fill("Notes")
    page.get_by_role("group", name="Sheet4 tab menu").get_by_role("button", name="Rename").click()
    expect(page.get_by_role("grid", name="Notes")).to_be_visible()
    assert "Notes" in _tab_titles(live_server, env_id, sid)
    page.get_by_label("Notes options").click()
    page.get_by_role("group", name="Notes tab menu").get_by_role("button", name="Delete").click()
    expect(page.get_by_role("grid", name="Pipeline")).to_be_visible()
    expect(page.get_by_role("link", name="Notes")).to_have_count(0)
    assert "Notes" not in _tab_titles(live_server, env_id, sid)
    page.goto(f"{live_server.base_url}/envs/{env_id}/sheets/")
    page.get_by_role("button", name="Blank spreadsheet").click()
    expect(page.get_by_role("heading", name="Untitled spreadsheet")).to_be_visible()
    expect(page.get_by_role("grid", name="Sheet1")).to_be_visible()
    assert _ui_writes(live_server, env_id) == ["sheets.spreadsheets.batchUpdate"] * 3 + ["sheets.spreadsheets.create"]


def test_a_sort_and_a_filled_column_done_in_the_browser_grade_one(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    for variant in range(60):  # the Pipeline by Account, A to Z
        env = gym.create("sheets/sort-by-rule-v1", variant=variant)
        if env.task.facts["by"] == "Account" and not env.task.facts["descending"] and not env.task.facts["then"]:
            break
        gym.delete(env.id)
    try:
        assert env.task.facts["by"] == "Account" and not env.task.facts["descending"]
        _open(page, live_server, env.id)
        page.locator("nav.menubar summary", has_text="Data").click()
        page.get_by_label("Range to sort").fill("A1:I61")
        page.get_by_label("Data has header row").check()
        page.get_by_label("Sort by").select_option("B")
        page.get_by_role("form", name="Sort range").get_by_role("button", name="Sort").click()
        settled(page)
        expect(page.get_by_role("grid", name="Pipeline")).to_be_visible()
        grade = gym.grade(env.id)
        assert grade["passed"] is True and grade["reward"] == 1.0, grade
    finally:
        gym.delete(env.id)
    env = gym.create("sheets/fill-formula-column-v1", variant=0)  # J: 8% of Amount on won deals
    try:
        assert env.task.facts["column"] == "J"
        _open(page, live_server, env.id)
        _cell(page, "J1").click()
        page.keyboard.type("Commission")
        page.keyboard.press("Enter")
        page.get_by_label("Formula bar").fill('=IF(E2="Closed Won",F2*0.08,0)')
        page.get_by_label("Formula bar").press("Enter")
        page.get_by_label("Name box").fill("J2:J61")
        page.get_by_label("Name box").press("Enter")
        expect(_cell(page, "J3")).to_have_class(SELECTED)
        _cell(page, "J2").press("Control+d")
        expect(_cell(page, "J3")).not_to_have_text("")
        grade = gym.grade(env.id)
        assert grade["passed"] is True and grade["reward"] == 1.0, grade
    finally:
        gym.delete(env.id)


def test_ctrl_b_makes_the_selection_bold_and_again_not(live_server: Any, env_id: str, page: Page) -> None:
    _open(page, live_server, env_id)
    _cell(page, "B3").click()
    _cell(page, "C4").click(modifiers=["Shift"])
    _cell(page, "C4").press("Control+b")
    expect(_cell(page, "B3")).to_have_class(re.compile(r"\bb\b"))
    expect(_cell(page, "C4")).to_have_class(re.compile(r"\bb\b"))
    page.get_by_label("Name box").fill("B3:C4")
    page.get_by_label("Name box").press("Enter")
    _cell(page, "B3").press("Control+b")
    expect(_cell(page, "B3")).not_to_have_class(re.compile(r"\bb\b"))
    assert _ui_writes(live_server, env_id) == ["sheets.spreadsheets.batchUpdate"] * 2
