"""Hidden rows and columns in the grid, as Google Sheets shows them: the header menus hide the
selected rows or columns (the API then reports them hiddenByUser), the grid no longer draws
them and the header after them says so, the arrow keys step over them, and a selection across
them unhides them."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_round6 import cell, open_sheet, settled

FORECAST = "Sales Forecast FY2026"


def _metadata(live_server: Any, env_id: str, sid: str, rng: str) -> dict[str, Any]:
    response = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets/{sid}",
                         params={"ranges": rng, "includeGridData": "true"}, timeout=10)
    response.raise_for_status()
    return response.json()["sheets"][0]["data"][0]


def _hidden(items: list[dict[str, Any]]) -> list[int]:
    return [i for i, item in enumerate(items) if item.get("hiddenByUser")]


def test_hide_and_unhide_rows_and_columns_from_the_header_menus(live_server: Any, env_id: str, page: Page) -> None:
    open_sheet(page, live_server, env_id, FORECAST)
    sid = page.url.split("/d/")[1].split("?")[0]
    grid = page.get_by_role("grid", name="Pipeline")
    c2 = cell(page, "C2").inner_text()

    grid.get_by_role("columnheader", name="C", exact=True).click(button="right")
    page.get_by_role("menuitem", name="Hide columns", exact=True).click()
    settled(page)
    expect(grid.get_by_role("columnheader", name="C", exact=True)).to_have_count(0)
    expect(cell(page, "C2")).to_have_count(0)
    expect(grid.get_by_role("columnheader", name="D", exact=True)).to_have_attribute("title", "Hidden columns to the left: select across them and choose Unhide columns")
    grid.get_by_role("rowheader", name="4", exact=True).click(button="right")
    page.get_by_role("menuitem", name="Hide rows", exact=True).click()
    settled(page)
    expect(grid.get_by_role("rowheader", name="4", exact=True)).to_have_count(0)
    data = _metadata(live_server, env_id, sid, "Pipeline!A1:E6")
    assert _hidden(data["columnMetadata"]) == [2] and _hidden(data["rowMetadata"]) == [3], data

    # The arrow keys step over what is hidden, as the product's do.
    cell(page, "B2").click()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_label("Name box")).to_have_value("D2")
    cell(page, "B3").click()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_label("Name box")).to_have_value("B5")

    # A selection across the hidden column shows it again.
    cell(page, "B2").click()
    cell(page, "D2").click(modifiers=["Shift"])
    expect(page.get_by_label("Name box")).to_have_value("B2:D2")
    cell(page, "B2").click(button="right")
    page.get_by_role("menuitem", name="Unhide columns").click()
    settled(page)
    expect(cell(page, "C2")).to_have_text(c2)
    data = _metadata(live_server, env_id, sid, "Pipeline!A1:E6")
    assert _hidden(data["columnMetadata"]) == [] and _hidden(data["rowMetadata"]) == [3]
