"""The sheets UI in real Chromium against the real server: open a spreadsheet from the list,
select a cell by mouse and keyboard, see its formula in the formula bar, type a new value and
watch its dependants recalculate on another tab; the edit is in the env's state (seen through
the API), in the trajectory with face "ui", and a bad formula shows as the spreadsheet error;
a task fixed in the browser grades 1.0."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect


def api_values(live_server: Any, env_id: str, sid: str, rng: str, render: str = "UNFORMATTED_VALUE") -> list[list[Any]]:
    response = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets/{sid}/values/{rng}",
                         params={"valueRenderOption": render}, timeout=10)
    return response.json().get("values", [])


def test_edit_a_cell_and_see_dependants_recalculate(live_server: Any, env_id: str, page: Page) -> None:
    base = f"{live_server.base_url}/envs/{env_id}/sheets"
    page.goto(base + "/")
    page.get_by_role("link", name="Sales Forecast FY2026").click()
    grid = page.get_by_role("grid", name="Pipeline")
    expect(grid).to_be_visible()
    sid = page.url.split("/d/")[1].split("?")[0]

    # The weighted amount shows its formula on selection.
    grid.get_by_role("gridcell", name="I2", exact=True).click()
    expect(page.get_by_label("Formula bar")).to_have_value("=F2*H2")
    expect(page.get_by_label("Name box")).to_have_value("I2")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_label("Name box")).to_have_value("F2")

    total_before = api_values(live_server, env_id, sid, "Summary!C12")[0][0]
    amount = api_values(live_server, env_id, sid, "Pipeline!F2")[0][0]
    page.keyboard.type("250000")  # typing starts an edit in the formula bar
    page.keyboard.press("Enter")
    expect(page.get_by_label("Name box")).to_have_value("F3")  # Enter moves down
    expect(grid.get_by_role("gridcell", name="F2", exact=True)).to_have_text("$250,000")
    stage = api_values(live_server, env_id, sid, "Pipeline!E2")[0][0]
    expected_weighted = 250000 * (1.0 if stage == "Closed Won" else api_values(live_server, env_id, sid, "Pipeline!H2")[0][0])
    expect(grid.get_by_role("gridcell", name="I2", exact=True)).to_have_text(f"${expected_weighted:,.0f}")

    page.get_by_role("link", name="Summary").click()
    summary = page.get_by_role("grid", name="Summary")
    expect(summary.get_by_role("gridcell", name="C12", exact=True)).to_have_text(f"${total_before - amount + 250000:,.0f}")
    assert api_values(live_server, env_id, sid, "Summary!C12")[0][0] == total_before - amount + 250000

    # A formula error shows as the spreadsheet shows it, with the reason on hover.
    summary.get_by_role("gridcell", name="F1", exact=True).click()
    page.get_by_label("Formula bar").fill("=1/0")
    page.get_by_label("Formula bar").press("Enter")
    cell = summary.get_by_role("gridcell", name="F1", exact=True)
    expect(cell).to_have_text("#DIV/0!")
    assert "zero" in (cell.get_attribute("title") or "")

    writes = [e for e in live_server.gym.events(env_id) if e["face"] == "ui"]
    assert [e["operation"] for e in writes] == ["sheets.values.update", "sheets.values.update"]


def test_a_reader_sees_an_accessible_error_and_nothing_is_written(live_server: Any, env_id: str, page: Page) -> None:
    base = f"{live_server.base_url}/envs/{env_id}/sheets"
    page.goto(base + "/")
    page.get_by_role("link", name="Headcount Plan 2026").click()  # shared with the acting person as a reader
    page.get_by_role("grid").get_by_role("gridcell", name="A2", exact=True).click()
    page.get_by_label("Formula bar").fill("changed")
    page.get_by_label("Formula bar").press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("permission")
    assert [e for e in live_server.gym.events(env_id) if e["face"] == "ui" and not e["is_error"]] == []


def test_a_task_done_in_the_browser_grades_one(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("sheets/fix-broken-formula-v1", variant=3)
    try:
        facts = env.task.facts
        assert gym.grade(env.id)["reward"] == 0.0
        page.goto(f"{live_server.base_url}/envs/{env.id}/sheets/d/{facts['spreadsheet']}")
        page.get_by_role("link", name="Summary").click()
        cell = page.get_by_role("grid", name="Summary").get_by_role("gridcell", name=facts["cell"], exact=True)
        cell.click()
        expect(page.get_by_label("Formula bar")).to_have_value(facts["broken"])
        page.get_by_label("Formula bar").fill(facts["seeded"])
        page.get_by_label("Formula bar").press("Enter")
        expect(cell).not_to_have_text("#NAME?")
        grade = gym.grade(env.id)
        assert grade["passed"] is True and grade["reward"] == 1.0, grade
    finally:
        gym.delete(env.id)
