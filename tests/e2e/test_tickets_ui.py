"""The tickets UI in a real browser (Chromium via Playwright) against the real server: an issue
moved on the board by its transition button and commented on in its view lands in the env's
state (read back through the Jira REST face) and in the trajectory with face "ui"; a refused
transition is a visible alert that writes nothing; typed text is shown as text, never run."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect


def rest(live_server: Any, env_id: str, path: str) -> dict[str, Any]:
    response = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/tickets/rest/api/2/{path}", timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def test_move_on_the_board_then_comment(live_server: Any, env_id: str, page: Page) -> None:
    ui = live_server.env_url(env_id, "tickets")
    page.goto(f"{ui}/board?project=ENG")
    todo = page.get_by_role("region", name="To Do", exact=False).first
    card = todo.locator("li.card").filter(has=page.get_by_role("button", name="Start Progress")).first
    key = card.get_attribute("data-key")
    assert key and key.startswith("ENG-")
    card.get_by_role("button", name=f"Start Progress {key}").click()
    in_progress = page.get_by_role("region", name="In Progress", exact=False).first
    expect(in_progress.locator(f'li.card[data-key="{key}"]')).to_be_visible()
    assert rest(live_server, env_id, f"issue/{key}")["fields"]["status"]["name"] == "In Progress"

    in_progress.get_by_role("link", name=key).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(rest(live_server, env_id, f"issue/{key}")["fields"]["summary"])
    page.get_by_label("Add a comment").fill("Picked up from the board <script>window.pwned=1</script>")
    page.get_by_role("button", name="Save comment").click()
    expect(page.get_by_text("Picked up from the board <script>window.pwned=1</script>")).to_be_visible()
    assert page.evaluate("window.pwned") is None, "typed text is shown, never run"
    comments = rest(live_server, env_id, f"issue/{key}/comment")["comments"]
    assert comments[-1]["body"] == "Picked up from the board <script>window.pwned=1</script>"
    expect(page.get_by_role("region", name="History")).to_contain_text("status: To Do → In Progress")

    ui_events = [e for e in live_server.gym.events(env_id) if e["face"] == "ui"]
    assert [e["operation"] for e in ui_events] == ["tickets.transitionIssue", "tickets.addComment"]


def test_a_refused_transition_is_an_alert_and_writes_nothing(live_server: Any, env_id: str, page: Page) -> None:
    ui = live_server.env_url(env_id, "tickets")
    found = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/tickets/rest/api/3/search/jql",
                      params={"jql": "project = SUP AND status = 'To Do' ORDER BY key", "maxResults": 1}).json()["issues"][0]["key"]
    page.goto(f"{ui}/browse/{found}")
    page.get_by_role("button", name="Start Progress").click()
    expect(page.locator("#issue-status")).to_have_text("In Progress")
    page.goto(f"{ui}/browse/{found}")  # a second tab still showing the old status posts a stale transition
    page.evaluate("""() => { const f = document.querySelector('form[action$="/transition"]'); f.querySelector('[name=transition]').value = '11'; f.submit(); }""")
    expect(page.get_by_role("alert")).to_contain_text("is not valid for")
    assert rest(live_server, env_id, f"issue/{found}")["fields"]["status"]["name"] == "In Progress"


def test_issue_list_runs_jql_and_shows_its_errors(live_server: Any, env_id: str, page: Page) -> None:
    ui = live_server.env_url(env_id, "tickets")
    page.goto(f"{ui}/issues")
    page.get_by_label("JQL query").fill("project = IT ORDER BY key ASC")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("link", name="IT-1", exact=True)).to_be_visible()
    page.get_by_label("JQL query").fill("project = IT AND")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("alert")).to_contain_text("Expecting a field name but got 'EOF'")
    page.get_by_role("button", name="Create").click()
    dialog = page.get_by_role("dialog", name="Create issue")
    dialog.get_by_label("Project").select_option("IT")
    dialog.get_by_label("Issue type").select_option("Task")
    dialog.get_by_label("Summary").fill("Replace the meeting room camera")
    dialog.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Replace the meeting room camera")
    page.goto(f"{ui}/backlog?project=ENG")
    expect(page.get_by_role("heading", name="Backlog", exact=False).first).to_be_visible()


def test_a_task_done_on_the_board_grades_full_marks(live_server: Any, page: Page) -> None:
    """Resolve the task's ticket from its board card (resolution picked on the card) and comment
    on it from its view: the grader sees the resolution and no collateral."""
    gym = live_server.gym
    env = gym.create("tickets/resolve-with-resolution-v1", variant=1)
    try:
        instance = gym.instance(env)
        key, resolution = instance.facts["issue"], instance.facts["resolution"]
        ui = live_server.env_url(env.id, "tickets")
        page.goto(f"{ui}/board?project=SUP")
        card = page.locator(f'li.card[data-key="{key}"]')
        card.get_by_label(f"Resolution for Resolve Issue {key}").select_option(resolution)
        card.get_by_role("button", name=f"Resolve Issue {key}").click()
        expect(page.get_by_role("region", name="Done", exact=False).first.locator(f'li.card[data-key="{key}"]')).to_be_visible()
        page.goto(f"{ui}/browse/{key}")
        page.get_by_label("Add a comment").fill(f"Resolved as {resolution}.")
        page.get_by_role("button", name="Save comment").click()
        expect(page.get_by_text(f"Resolved as {resolution}.")).to_be_visible()
        grade = gym.grade(env.id)
        assert grade["reward"] == 1.0 and grade["passed"], grade
    finally:
        gym.delete(env.id)
