"""In Jira's issue view, in Chromium: a web link added with "Add web link" (URL and link text)
and removed again; your own comment edited and deleted (a colleague's offers neither); your
own worklog edited and deleted, the time logged and the remaining estimate following. Every write is in the trajectory
with face "ui"; a refused one is an alert that writes nothing."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect

KEY = "SUP-1"


def rest(live_server: Any, env_id: str, path: str, **params: Any) -> Any:
    response = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/tickets/rest/api/2/{path}", params=params, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def ui_writes(live_server: Any, env_id: str) -> list[str]:
    return [e["operation"] for e in live_server.gym.events(env_id) if e["face"] == "ui" and not e["is_error"]]


def test_add_and_remove_a_web_link(live_server: Any, env_id: str, page: Page) -> None:
    before = rest(live_server, env_id, f"issue/{KEY}/remotelink")
    page.goto(f"{live_server.env_url(env_id, 'tickets')}/browse/{KEY}")
    form = page.get_by_role("form", name="Add web link")
    form.get_by_label("URL").fill("https://status.example.com/incidents/42")
    form.get_by_label("Link text").fill("Incident 42")
    form.get_by_role("button", name="Link").click()
    link = page.get_by_role("link", name="Incident 42")
    expect(link).to_have_attribute("href", "https://status.example.com/incidents/42")
    after = rest(live_server, env_id, f"issue/{KEY}/remotelink")
    assert [(r["object"]["url"], r["object"]["title"]) for r in after if r not in before] == [("https://status.example.com/incidents/42", "Incident 42")]

    page.get_by_role("form", name="Remove web link Incident 42").get_by_role("button", name="Remove").click()
    expect(page.get_by_role("link", name="Incident 42")).to_have_count(0)
    assert rest(live_server, env_id, f"issue/{KEY}/remotelink") == before
    assert ui_writes(live_server, env_id) == ["tickets.createRemoteLink", "tickets.deleteRemoteLink"]


def test_a_script_link_is_refused_with_an_alert(live_server: Any, env_id: str, page: Page) -> None:
    page.goto(f"{live_server.env_url(env_id, 'tickets')}/browse/{KEY}")
    form = page.get_by_role("form", name="Add web link")
    form.get_by_label("URL").fill("javascript:alert(document.cookie)")
    form.get_by_label("Link text").fill("Click me")
    form.get_by_role("button", name="Link").click()
    expect(page.get_by_role("alert")).to_contain_text("must be an absolute link")
    assert live_server.gym.changes(env_id) == [] and ui_writes(live_server, env_id) == []


def test_edit_and_delete_your_own_comment(live_server: Any, env_id: str, page: Page) -> None:
    me = rest(live_server, env_id, "myself")["displayName"]
    page.goto(f"{live_server.env_url(env_id, 'tickets')}/browse/{KEY}")
    others = page.locator("article.comment").filter(has_not_text=me)
    expect(others.first).to_be_visible()
    expect(others.get_by_role("button", name="Delete")).to_have_count(0)  # a colleague's comment: neither edit nor delete
    page.get_by_label("Add a comment").fill("Refund reissued")
    page.get_by_role("button", name="Save comment").click()
    mine = page.get_by_role("article", name=f"Comment by {me}")
    expect(mine).to_contain_text("Refund reissued")

    mine.get_by_role("link", name="Edit").click()
    mine.get_by_role("form", name="Edit comment").get_by_label("Comment").fill("Refund reissued on Monday")
    mine.get_by_role("button", name="Save").click()
    mine = page.get_by_role("article", name=f"Comment by {me}")
    expect(mine).to_contain_text("Refund reissued on Monday")
    expect(mine).to_contain_text("edited")
    bodies = [c["body"] for c in rest(live_server, env_id, f"issue/{KEY}/comment")["comments"]]
    assert "Refund reissued on Monday" in bodies and "Refund reissued" not in bodies

    mine.get_by_role("button", name="Delete").click()
    expect(page.get_by_role("article", name=f"Comment by {me}")).to_have_count(0)
    assert "Refund reissued on Monday" not in [c["body"] for c in rest(live_server, env_id, f"issue/{KEY}/comment")["comments"]]
    assert ui_writes(live_server, env_id) == ["tickets.addComment", "tickets.editComment", "tickets.deleteComment"]


def test_edit_and_delete_your_own_worklog(live_server: Any, env_id: str, page: Page) -> None:
    me = rest(live_server, env_id, "myself")["displayName"]
    spent = rest(live_server, env_id, f"issue/{KEY}", fields="timetracking")["fields"]["timetracking"].get("timeSpentSeconds", 0)
    page.goto(f"{live_server.env_url(env_id, 'tickets')}/browse/{KEY}")
    edit = page.get_by_role("form", name="Edit fields")
    edit.get_by_label("Original estimate").fill("1d")
    edit.get_by_role("button", name="Save").click()
    expect(page.locator("#time-remaining")).to_have_text("1d")  # an original estimate alone sets the remaining one
    log = page.get_by_role("form", name="Log work")
    log.get_by_label("Time spent").fill("1h")
    log.get_by_label("Work description").fill("Called the bank")
    log.get_by_role("button", name="Log").click()
    mine = page.get_by_role("listitem", name=f"Worklog by {me}").filter(has_text="Called the bank")
    expect(mine).to_contain_text("logged 1h")
    expect(page.locator("#time-remaining")).to_have_text("7h")

    mine.get_by_text("Edit", exact=True).click()
    mine.get_by_role("form", name="Edit worklog").get_by_label("Time spent").fill("2h 30m")
    mine.get_by_role("button", name="Save").click()
    expect(mine).to_contain_text("logged 2h 30m")
    expect(page.locator("#time-remaining")).to_have_text("5h 30m")  # the worklog's 1h 30m more came off the estimate
    tracking = rest(live_server, env_id, f"issue/{KEY}", fields="timetracking")["fields"]["timetracking"]
    assert tracking["timeSpentSeconds"] == spent + 9000

    mine.get_by_role("button", name="Delete").click()
    expect(mine).to_have_count(0)
    expect(page.locator("#time-remaining")).to_have_text("1d")  # and its time went back
    assert rest(live_server, env_id, f"issue/{KEY}", fields="timetracking")["fields"]["timetracking"].get("timeSpentSeconds", 0) == spent
    assert ui_writes(live_server, env_id) == ["tickets.updateIssue", "tickets.addWorklog", "tickets.updateWorklog", "tickets.deleteWorklog"]
