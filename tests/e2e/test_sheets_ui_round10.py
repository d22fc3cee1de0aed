"""The sheets grid page is light and acts in place: a jump, an edit, a page of rows or a tab swaps
in the new view without reloading the page, the address follows (a reload or a shared link shows
the same place), keys typed while the view is on its way act on it once it is in, a refused edit
says why without leaving the page on a form post's address, and a 900-cell window costs a fraction
of what it did."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui import api_values
from tests.e2e.test_sheets_ui_round6 import cell, open_sheet, settled

FORECAST = "Sales Forecast FY2026"


def name_box(page: Page) -> Any:
    return page.get_by_label("Name box")


def selected(page: Page) -> Any:
    return page.get_by_role("grid").locator("td[aria-selected=true]")


def test_actions_swap_the_view_in_place_and_the_address_follows(live_server: Any, env_id: str, page: Page) -> None:
    open_sheet(page, live_server, env_id, FORECAST)
    sid = page.url.split("/d/")[1].split("?")[0]
    page.evaluate("window.keptAcrossActions = true")  # gone if the page were reloaded

    name_box(page).fill("B70")
    name_box(page).press("Enter")
    settled(page)
    expect(selected(page)).to_have_attribute("aria-label", "B70")
    expect(selected(page)).to_be_focused()
    expect(page).to_have_url(re.compile(r"[?&]cell=B70(&|$)"))

    cell(page, "B72").click()  # a text cell: the formula bar shows what it holds
    expect(page.get_by_label("Formula bar")).to_have_value(cell(page, "B72").inner_text())
    page.keyboard.type("typed in place")
    page.keyboard.press("Enter")
    settled(page)
    expect(name_box(page)).to_have_value("B73")
    expect(cell(page, "B72")).to_have_text("typed in place")
    assert api_values(live_server, env_id, sid, "Pipeline!B72") == [["typed in place"]]

    selected(page).press("PageUp")  # the window above, its first cell selected
    settled(page)
    expect(name_box(page)).to_have_value("A1")
    expect(cell(page, "A1")).to_have_attribute("aria-selected", "true")
    page.get_by_role("navigation", name="Sheets").get_by_role("link", name="Summary", exact=True).click()
    settled(page)
    expect(page.get_by_role("grid", name="Summary")).to_be_visible()
    assert page.evaluate("window.keptAcrossActions === true"), "an action reloaded the page"

    here = page.url
    page.reload()  # the address is the place: a reload (or the link shared) shows the same tab and cell
    expect(page.get_by_role("grid", name="Summary")).to_be_visible()
    assert page.url == here
    assert not page.evaluate("window.keptAcrossActions === true")


def test_keys_typed_while_the_view_is_on_its_way_act_on_it(live_server: Any, env_id: str, page: Page) -> None:
    open_sheet(page, live_server, env_id, FORECAST)
    sid = page.url.split("/d/")[1].split("?")[0]
    name_box(page).fill("Q5")
    name_box(page).press("Enter")  # no wait: the keys below are pressed while the view is still coming
    page.keyboard.type("ahead")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    settled(page)
    expect(name_box(page)).to_have_value("R6")
    assert api_values(live_server, env_id, sid, "Pipeline!Q5") == [["ahead"]]


def test_a_refused_edit_says_why_and_a_reload_still_shows_the_sheet(live_server: Any, env_id: str, page: Page) -> None:
    page.goto(f"{live_server.env_url(env_id, 'sheets')}/")
    page.get_by_role("link", name="Headcount Plan 2026").click()  # shared with the acting person as a reader
    cell(page, "A2").click()
    page.get_by_label("Formula bar").fill("changed")
    page.get_by_label("Formula bar").press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("permission")
    expect(page.get_by_label("Formula bar")).to_have_value("changed")  # what was typed stays, to fix
    assert not page.url.split("?")[0].endswith("/cells")  # the address is still the sheet's, not the post's
    page.reload()
    expect(page.get_by_role("grid")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)


def test_a_window_of_the_grid_is_light_and_its_view_comes_alone(live_server: Any, env_id: str) -> None:
    base = live_server.env_url(env_id, "sheets")
    listed = httpx.get(base + "/", timeout=10).text
    sid = re.search(r'href="[^"]*/d/([\w-]+)"[^>]*>' + FORECAST, listed).group(1)
    page = httpx.get(f"{base}/d/{sid}?cell=A43", timeout=10)
    assert page.status_code == 200 and "<script>" in page.text and 'aria-label="O60"' in page.text
    assert len(page.content) < 110_000, len(page.content)  # (900 cells; it was 213 KB)
    view = httpx.get(f"{base}/d/{sid}?cell=A43", headers={"X-Sheets-View": "1"}, timeout=10)
    assert view.status_code == 200 and view.headers["x-sheets-view"] == "1" and "no-store" in view.headers["cache-control"]
    assert "<script" not in view.text and "<html" not in view.text and 'role="grid"' in view.text
    assert len(view.content) < 80_000, len(view.content)
    assert "X-Sheets-View" in page.headers.get("vary", "")  # a cache never answers the page with the view, or back
    refused = httpx.post(f"{base}/d/{sid}/cells", data={"sheet": "0", "cell": "A1:", "content": "x"},
                         headers={"X-Sheets-View": "1", "Origin": live_server.base_url}, timeout=10)
    assert refused.status_code == 400 and 'role="alert"' in refused.text and "<script" not in refused.text


def test_an_edit_on_its_way_is_not_cut_off_by_the_next_action(live_server: Any, env_id: str, page: Page) -> None:
    """A click that comes while an edit is still on its way (here held back before it reaches the
    server) waits for it: the edit lands, then the click acts. Cutting the edit off lost it."""
    open_sheet(page, live_server, env_id, FORECAST)
    sid = page.url.split("/d/")[1].split("?")[0]
    before = api_values(live_server, env_id, sid, "Pipeline!B5")
    held: list[Any] = []
    page.route(re.compile(r"/cells$"), lambda route: held.append(route))
    cell(page, "B5").click()
    page.get_by_label("Formula bar").fill("written before the tab changed")
    page.get_by_label("Formula bar").press("Enter")
    while not held:
        page.wait_for_timeout(10)
    # A click by where the link is, as an agent working from screenshots clicks (the link reads
    # as disabled while the view is busy, which stops a click by role, not a click by position).
    box = page.get_by_role("navigation", name="Sheets").get_by_role("link", name="Summary", exact=True).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert api_values(live_server, env_id, sid, "Pipeline!B5") == before, "the edit is still held back"
    held[0].continue_()
    expect(page.get_by_role("grid", name="Summary")).to_be_visible()
    settled(page)
    assert api_values(live_server, env_id, sid, "Pipeline!B5") == [["written before the tab changed"]]
