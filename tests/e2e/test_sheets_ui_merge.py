"""Format ▸ Merge cells in the browser grid, as Google Sheets' menu has it: Merge all, Merge
horizontally, Merge vertically and Unmerge on the selection (mergeCells / unmergeCells). A merge
that would drop values asks first with Google's words ("Merging cells will only preserve the
top-leftmost value. Merge anyway?"): Cancel leaves everything as it was, OK keeps only the
top-left value of each merged piece, as the API does, and unmerging afterwards does not bring
the others back. In real Chromium, on the module's live server."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_presentation import _api
from tests.e2e.test_sheets_ui_round6 import blank_spreadsheet, cell, go, settled


def _merge(page: Page, item: str) -> None:
    page.get_by_role("navigation", name="Menu").get_by_text("Format", exact=True).click()
    page.get_by_role("menuitem", name=f"Merge cells ▸ {item}", exact=True).click()
    settled(page)


def test_merging_asks_before_it_drops_values_and_keeps_the_top_left(live_server: Any, env_id: str, page: Page) -> None:
    blank_spreadsheet(page, live_server, env_id, "Merged")
    sid = page.url.split("/d/")[1].split("?")[0]
    api = _api(live_server, env_id, sid)
    httpx.put(f"{api}/values/Sheet1!A1:D3", params={"valueInputOption": "USER_ENTERED"}, timeout=10,
              json={"values": [["Q1", "Q2", "", ""], ["=1+1", "x", "", "y"], ["a", "b", "c", "d"]]}).raise_for_status()
    page.reload()
    page.wait_for_load_state()

    go(page, "A1:B2")
    _merge(page, "Merge all")
    dialog = page.get_by_role("alertdialog", name="Merge cells")
    expect(dialog).to_contain_text("Merging cells will only preserve the top-leftmost value. Merge anyway?")
    dialog.get_by_role("link", name="Cancel").click()
    settled(page)
    expect(dialog).to_have_count(0)
    assert "merges" not in httpx.get(api, timeout=10).json()["sheets"][0]
    expect(cell(page, "B1")).to_have_text("Q2")

    _merge(page, "Merge all")
    dialog.get_by_role("button", name="OK").click()
    settled(page)
    sheet = httpx.get(api, timeout=10).json()["sheets"][0]
    assert sheet["merges"] == [{"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2}]
    got = httpx.get(f"{api}/values/Sheet1!A1:B2", params={"valueRenderOption": "FORMULA"}, timeout=10).json()
    assert got["values"] == [["Q1"]], "only the top-left value is kept; the formula and the others are gone"
    expect(cell(page, "A1")).to_have_attribute("colspan", "2")

    go(page, "C1:C2")  # nothing there to lose: merged at once
    _merge(page, "Merge vertically")
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    go(page, "A3:D3")
    _merge(page, "Merge horizontally")  # one row: its values but the first would go
    page.get_by_role("alertdialog", name="Merge cells").get_by_role("button", name="OK").click()
    settled(page)
    merges = httpx.get(api, timeout=10).json()["sheets"][0]["merges"]
    assert {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 2, "endColumnIndex": 3} in merges
    assert {"sheetId": 0, "startRowIndex": 2, "endRowIndex": 3, "startColumnIndex": 0, "endColumnIndex": 4} in merges
    assert httpx.get(f"{api}/values/Sheet1!A3:D3", timeout=10).json()["values"] == [["a"]]

    go(page, "A1:D3")
    _merge(page, "Unmerge")
    assert "merges" not in httpx.get(api, timeout=10).json()["sheets"][0]
    values = httpx.get(f"{api}/values/Sheet1!A1:D3", timeout=10).json()["values"]
    assert values == [["Q1"], ["", "", "", "y"], ["a"]], "unmerged, the dropped values stay gone; D2, outside every merge, stays"
