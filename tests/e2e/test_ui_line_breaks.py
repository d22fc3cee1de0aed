"""A browser posts a textarea's line breaks as CR LF (HTML form submission): an edit form that
sends an unchanged multi-line field back must not change it, or correct work done in the
browser is graded as collateral damage (closing a case whose description has paragraphs)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect


def test_a_case_closed_in_the_browser_leaves_its_description_and_grades_one(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("crm/close-case-v1", variant=7)
    try:
        facts = env.task.facts
        page.goto(f"{live_server.base_url}/envs/{env.id}/crm/r/{facts['case']}/edit")
        description = page.get_by_label("Description")
        assert "\n" in description.input_value()  # a multi-line field, sent back as it stands
        page.get_by_label("Status").select_option("Closed")
        page.get_by_label("Resolution").fill(facts["resolution"])
        page.get_by_role("button", name="Save").click()
        expect(page.get_by_text(facts["resolution"])).to_be_visible()
        grade = gym.grade(env.id)  # the Description rewritten would be collateral
        assert grade["passed"] is True and grade["reward"] == 1.0 and grade["collateral"] == [], grade
        ui = [e for e in gym.events(env.id) if e["face"] == "ui" and e["operation"] == "crm.update"]
        assert len(ui) == 1 and "\r" not in str(ui[0]["args"])
    finally:
        gym.delete(env.id)
