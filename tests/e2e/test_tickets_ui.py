"""The tickets UI in a real browser (Chromium via Playwright) against the real server: an issue
moved on the board by its transition button or by dragging its card, and commented on in its
view, lands in the env's state (read back through the Jira REST face and the grader's diff) and
in the trajectory with face "ui"; a refused transition or drop is a visible alert that writes
nothing; typed text is shown as text, never run."""

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
                      params={"jql": "project = SUP AND status = 'To Do' ORDER BY key", "maxResults": 1, "fields": "key"}).json()["issues"][0]["key"]
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


def _status_changes(live_server: Any, env_id: str) -> list[tuple[str, str, str]]:
    """The issues whose status the rollout changed, as the grader's diff sees them: (key, from, to)."""
    return [(c.row["key"], c.before["status"], c.row["status"]) for c in live_server.gym.changes(env_id)
            if c.table == "tickets_issues" and c.change == "update" and "status" in c.changed_columns]


def drop(page: Page, card: Any, status: str) -> None:
    """Drag `card` (a card near the top of its column) by its corner, as a person grabs a card (its middle
    may be a resolution picker), and drop it on the heading of the column of `status`: a drag that has to
    scroll the page starts on whatever card the scroll puts under the pointer."""
    card.scroll_into_view_if_needed()
    card.drag_to(page.locator(f'section.column[data-status="{status}"] h2'), source_position={"x": 4, "y": 4})


def test_drag_a_card_to_another_column(live_server: Any, env_id: str, page: Page) -> None:
    """Dropping a card on a column no transition reaches shows the refusal and writes nothing;
    dropping it on a column a transition reaches runs that transition (real HTML5 drags in Chromium)."""
    ui = live_server.env_url(env_id, "tickets")
    page.goto(f"{ui}/board?project=ENG")
    card = page.locator('section.column[data-status="To Do"] li.card').filter(has=page.locator('form[data-to="In Progress"]')).first
    key = card.get_attribute("data-key")
    assert key and key.startswith("ENG-")
    reachable = {form.get_attribute("data-to") for form in card.locator("form[data-to]").all()}
    assert "In Review" not in reachable, "the ENG workflow goes To Do → In Progress → In Review"

    drop(page, card, "In Review")
    expect(page.get_by_role("alert")).to_have_text(f"You can't move {key} to In Review: its workflow has no transition from To Do to In Review.")
    expect(page.locator(f'section.column[data-status="To Do"] li.card[data-key="{key}"]')).to_be_visible()
    assert _status_changes(live_server, env_id) == [] and live_server.gym.changes(env_id) == [], "a refused drop changes nothing"
    assert not [e for e in live_server.gym.events(env_id) if e["face"] == "ui"]

    drop(page, card, "In Progress")
    expect(page.locator(f'section.column[data-status="In Progress"] li.card[data-key="{key}"]')).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
    assert _status_changes(live_server, env_id) == [(key, "To Do", "In Progress")]
    assert [e["operation"] for e in live_server.gym.events(env_id) if e["face"] == "ui"] == ["tickets.transitionIssue"]


def test_drag_to_a_column_whose_transition_needs_a_resolution(live_server: Any, env_id: str, page: Page) -> None:
    """The drop posts the card's own form, so the resolution picked on the card goes with it, as with its button.
    No resolution is picked by default: a click or a drop before one is picked resolves nothing."""
    ui = live_server.env_url(env_id, "tickets")
    page.goto(f"{ui}/board?project=SUP")
    card = page.locator('section.column[data-status="To Do"] li.card').filter(has=page.locator('form[data-to="Done"]')).first
    key = card.get_attribute("data-key")
    card.get_by_role("button", name=f"Resolve Issue {key}").click()
    picker = card.get_by_label(f"Resolution for Resolve Issue {key}")
    assert picker.evaluate("select => select.validationMessage"), "the browser stops the click at the empty picker"
    drop(page, card, "Done")
    expect(page.get_by_role("alert")).to_have_text(f"Pick a resolution for {key} on its card, then move it to Done.")
    assert _status_changes(live_server, env_id) == [] and not [e for e in live_server.gym.events(env_id) if e["face"] == "ui"]
    card.get_by_label(f"Resolution for Resolve Issue {key}").select_option("Duplicate")
    drop(page, card, "Done")
    expect(page.locator(f'section.column[data-status="Done"] li.card[data-key="{key}"]')).to_be_visible()
    fields = rest(live_server, env_id, f"issue/{key}")["fields"]
    assert (fields["status"]["name"], fields["resolution"]["name"]) == ("Done", "Duplicate")
    assert _status_changes(live_server, env_id) == [(key, "To Do", "Done")]
