"""Typing across a row in the sheets grid, as a person does in Google Sheets: typed into a cell,
Tab commits it and moves right (Shift+Tab left), an arrow commits and moves its way, Enter
commits and moves down; an edit begun with F2 keeps its arrows for the caret. Menus close on
Escape, on a click outside, and when another one opens (they stacked over the cells)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui import api_values


def _blank(page: Page, live_server: Any, env_id: str) -> str:
    page.goto(f"{live_server.env_url(env_id, 'sheets')}/")
    page.get_by_role("button", name="Blank spreadsheet").click()
    expect(page.get_by_label("Name box")).to_have_value("A1")
    return page.url.split("/d/")[1].split("?")[0]


def _cell(page: Page, name: str) -> Any:
    return page.get_by_role("grid").get_by_role("gridcell", name=name, exact=True)


def test_tab_and_arrows_commit_what_was_typed(page: Page, live_server: Any, env_id: str) -> None:
    sid = _blank(page, live_server, env_id)
    _cell(page, "A1").click()
    for text, key, lands in (("Type", "Tab", "B1"), ("Total", "Tab", "C1"), ("note", "Shift+Tab", "B1")):
        page.keyboard.type(text)
        page.keyboard.press(key)
        expect(page.get_by_label("Name box")).to_have_value(lands)
    page.keyboard.press("ArrowDown")  # (in the grid: only moves)
    expect(page.get_by_label("Name box")).to_have_value("B2")
    page.keyboard.type("42")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_label("Name box")).to_have_value("C2")
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Name box")).to_have_value("C3")
    assert api_values(live_server, env_id, sid, "Sheet1!A1:C2") == [["Type", "Total", "note"], ["", 42, 7]]

    _cell(page, "B2").click()  # F2 edits: the arrows move the caret, not the cell
    page.keyboard.press("F2")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Name box")).to_have_value("B3")  # the edit's post answered and the page moved on
    assert api_values(live_server, env_id, sid, "Sheet1!B2") == [[412]]


def test_menus_close_like_the_products(page: Page, live_server: Any, env_id: str) -> None:
    _blank(page, live_server, env_id)
    menu = page.get_by_role("navigation", name="Menu")
    edit, view = menu.locator("details").filter(has_text="Edit").first, menu.locator("details").filter(has_text="View").first
    menu.get_by_text("Edit", exact=True).click()
    expect(edit).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(edit).not_to_have_attribute("open", "")
    menu.get_by_text("Edit", exact=True).click()
    menu.get_by_text("View", exact=True).click()
    expect(view).to_have_attribute("open", "")
    expect(edit).not_to_have_attribute("open", "")
    _cell(page, "C5").click()
    expect(view).not_to_have_attribute("open", "")
