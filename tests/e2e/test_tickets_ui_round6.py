"""Tickets task families a person finishes in the browser, as in Jira's issue view: the fields
a triage sets (components with priority, labels and assignee), an epic parent and a "blocks"
link from either end, an escalation filed through Create with its components and labels, a
story split with "Add subtask", time logged with its description. Each is done in Chromium
against the live server, grades 1.0, and its writes are in the trajectory with face "ui"."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect


def rest(live_server: Any, env_id: str, path: str, **params: Any) -> dict[str, Any]:
    response = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/tickets/rest/api/2/{path}", params=params, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def ui_writes(live_server: Any, env_id: str) -> list[str]:
    return [e["operation"] for e in live_server.gym.events(env_id) if e["face"] == "ui" and not e["is_error"]]


def graded(live_server: Any, env_id: str) -> dict[str, Any]:
    grade = live_server.gym.grade(env_id)
    assert grade["reward"] == 1.0 and grade["passed"] and grade["collateral"] == [], grade
    return grade


def edit_form(page: Page) -> Any:
    return page.get_by_role("form", name="Edit fields")


def test_triage_a_support_ticket_in_the_issue_view(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("tickets/triage-support-ticket-v1", variant=3)
    try:
        facts = env.task.facts
        key = facts["issue"]
        before = rest(live_server, env.id, f"issue/{key}")["fields"]
        page.goto(f"{live_server.env_url(env.id, 'tickets')}/browse/{key}")
        page.get_by_role("main").get_by_label("Assignee", exact=True).select_option(facts["assignee"])
        page.get_by_role("button", name="Assign").click()
        form = edit_form(page)
        form.get_by_label("Priority").select_option(facts["priority"])
        labels = form.get_by_label("Labels")
        labels.fill(f"{labels.input_value()} {facts['label']}".strip())
        form.get_by_label("Components").select_option(facts["component"])
        form.get_by_role("button", name="Save").click()
        details = page.get_by_role("complementary")
        expect(details).to_contain_text(facts["component"])
        fields = rest(live_server, env.id, f"issue/{key}")["fields"]
        assert [c["name"] for c in fields["components"]] == [facts["component"]]
        assert sorted(fields["labels"]) == sorted({*before["labels"], facts["label"]})
        assert (fields["priority"]["name"], fields["assignee"]["accountId"]) == (facts["priority"], facts["assignee"])
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["tickets.assignIssue", "tickets.updateIssue"]
        # The one save set what was edited and nothing else: the due date and summary the form sent back as they stood are not in it.
        (edit,) = [e for e in gym.events(env.id) if e["operation"] == "tickets.updateIssue"]
        assert sorted(edit["args"]["fields"]) == ["components", "labels", "priority"], edit["args"]
    finally:
        gym.delete(env.id)


def test_saving_the_fields_unchanged_writes_nothing(live_server: Any, env_id: str, page: Page) -> None:
    key = rest(live_server, env_id, "search", jql="project = ENG AND component is not EMPTY AND labels is not EMPTY ORDER BY key",
               maxResults=1, fields="key")["issues"][0]["key"]
    page.goto(f"{live_server.env_url(env_id, 'tickets')}/browse/{key}")
    edit_form(page).get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert live_server.gym.changes(env_id) == [] and ui_writes(live_server, env_id) == []


def test_a_wrong_component_is_an_alert_and_writes_nothing(live_server: Any, env_id: str, page: Page) -> None:
    page.goto(f"{live_server.env_url(env_id, 'tickets')}/browse/SUP-1")
    page.evaluate("""() => { const s = document.querySelector('#e-components'); s.add(new Option('Warp drive', 'Warp drive', true, true)); }""")
    edit_form(page).get_by_role("button", name="Save").click()
    expect(page.get_by_role("alert")).to_contain_text("Component 'Warp drive' is not valid for project SUP")
    assert live_server.gym.changes(env_id) == []


def test_link_a_bug_to_its_epic_and_block_the_ticket(live_server: Any, page: Page) -> None:
    """The epic is set as the bug's Parent; the link is made from the support ticket's end ("is blocked by")."""
    gym = live_server.gym
    env = gym.create("tickets/link-bug-to-epic-v1", variant=2)
    try:
        facts = env.task.facts
        bug, epic, ticket = facts["issue"], facts["epic"], facts["blocks"]
        ui = live_server.env_url(env.id, "tickets")
        page.goto(f"{ui}/browse/{bug}")
        edit_form(page).get_by_label("Parent").fill(epic)
        edit_form(page).get_by_role("button", name="Save").click()
        expect(page.get_by_role("navigation", name="Breadcrumbs")).to_contain_text(epic)
        page.goto(f"{ui}/browse/{ticket}")
        linking = page.get_by_role("form", name="Link issue")
        linking.get_by_label(ticket).select_option(label="is blocked by")
        linking.get_by_label("Issue").fill(bug)
        linking.get_by_role("button", name="Link").click()
        expect(page.get_by_role("region", name="Linked issues")).to_contain_text(f"is blocked by {bug}")
        assert rest(live_server, env.id, f"issue/{bug}")["fields"]["parent"]["key"] == epic
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["tickets.updateIssue", "tickets.createIssueLink"]
    finally:
        gym.delete(env.id)


def test_escalate_to_engineering_with_create(live_server: Any, page: Page) -> None:
    """Read the customer's tier on their Salesforce account, find the ticket with JQL, file the bug through Create with
    its priority, component and labels, link it from the bug ("blocks") and comment its key on the ticket."""
    gym = live_server.gym
    env = gym.create("tickets/escalate-to-engineering-v1", variant=1)
    try:
        facts = env.task.facts
        base = live_server.env_url(env.id)
        page.goto(f"{base}/crm/o/Account")
        page.get_by_label("Filter by Account Name").fill(facts["customer"])
        page.get_by_role("button", name="Apply").click()
        row = page.get_by_role("row").filter(has=page.get_by_role("link", name=facts["customer"], exact=True))
        expect(row).to_contain_text(facts["tier"])

        page.goto(f"{base}/tickets/issues")
        page.get_by_label("JQL query").fill(f'project = SUP AND resolution = EMPTY AND text ~ "{facts["customer"]}"')
        page.get_by_role("button", name="Search").click()
        page.get_by_role("link", name=facts["issue"], exact=True).click()
        summary = rest(live_server, env.id, f"issue/{facts['issue']}")["fields"]["summary"]
        expect(page.get_by_role("heading", level=1)).to_contain_text(summary)

        page.get_by_role("button", name="Create").click()
        dialog = page.get_by_role("dialog", name="Create issue")
        dialog.get_by_label("Project").select_option("ENG")
        dialog.get_by_label("Issue type").select_option("Bug")
        dialog.get_by_label("Summary").fill(f"[{facts['customer']}] {summary}")
        dialog.get_by_label("Priority").select_option(facts["priority"])
        dialog.get_by_label("Components").select_option(facts["component"])  # (a name two projects share picks it in both: one name)
        dialog.get_by_label("Labels").fill("customer escalated")
        dialog.get_by_role("button", name="Create").click()
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_contain_text(f"[{facts['customer']}]")
        bug = re.search(r"/browse/(ENG-\d+)$", page.url).group(1)

        linking = page.get_by_role("form", name="Link issue")
        linking.get_by_label(bug).select_option(label="blocks")
        linking.get_by_label("Issue").fill(facts["issue"])
        linking.get_by_role("button", name="Link").click()
        expect(page.get_by_role("region", name="Linked issues")).to_contain_text(f"blocks {facts['issue']}")
        page.get_by_role("region", name="Linked issues").get_by_role("link", name=facts["issue"]).click()
        page.get_by_label("Add a comment").fill(f"Escalated to engineering as {bug}.")
        page.get_by_role("button", name="Save comment").click()
        expect(page.get_by_text(f"Escalated to engineering as {bug}.")).to_be_visible()

        fields = rest(live_server, env.id, f"issue/{bug}")["fields"]
        assert [c["name"] for c in fields["components"]] == [facts["component"]] and sorted(fields["labels"]) == ["customer", "escalated"]
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["tickets.createIssue", "tickets.createIssueLink", "tickets.addComment"]
    finally:
        gym.delete(env.id)


def test_split_a_story_with_add_subtask(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("tickets/split-story-into-subtasks-v1", variant=0)
    try:
        facts = env.task.facts
        story = facts["issue"]
        page.goto(f"{live_server.env_url(env.id, 'tickets')}/browse/{story}")
        for summary in facts["subtasks"]:
            adding = page.get_by_role("form", name="Add subtask")
            adding.get_by_label("Subtask summary").fill(summary)
            adding.get_by_role("button", name="Add subtask").click()
            expect(page.get_by_role("region", name="Subtasks")).to_contain_text(summary)  # back on the story
        assert page.url.endswith(f"/browse/{story}")
        made = rest(live_server, env.id, f"issue/{story}")["fields"]["subtasks"]
        assert sorted(s["fields"]["summary"] for s in made) == sorted(facts["subtasks"])
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["tickets.createIssue"] * len(facts["subtasks"])
    finally:
        gym.delete(env.id)


def test_log_work_with_its_description(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("tickets/log-work-v1", variant=4)
    try:
        facts = env.task.facts
        asked = re.search(r"log (.+?) of work on", env.task.prompt).group(1)
        what = env.task.prompt.rsplit(" for ", 1)[1].rstrip(".")
        page.goto(f"{live_server.env_url(env.id, 'tickets')}/browse/{facts['issue']}")
        logging = page.get_by_role("form", name="Log work")
        logging.get_by_label("Time spent").fill(asked)
        logging.get_by_label("Work description").fill(what)
        logging.get_by_role("button", name="Log").click()
        expect(page.get_by_role("region", name="Work log")).to_contain_text(what)
        logs = rest(live_server, env.id, f"issue/{facts['issue']}/worklog")["worklogs"]
        assert logs[-1]["timeSpentSeconds"] == facts["seconds"] and what in str(logs[-1]["comment"])
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["tickets.addWorklog"]
    finally:
        gym.delete(env.id)


def test_reopen_with_a_comment(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("tickets/reopen-with-comment-v1", variant=2)
    try:
        facts = env.task.facts
        page.goto(f"{live_server.env_url(env.id, 'tickets')}/browse/{facts['issue']}")
        page.get_by_role("region", name="Status", exact=False).get_by_role("button", name="Reopen Issue").click()
        expect(page.locator("#issue-status")).not_to_have_text("Done")
        page.get_by_label("Add a comment").fill(f"Reopening: {facts['customer']} reported it again.")
        page.get_by_role("button", name="Save comment").click()
        expect(page.get_by_text(f"Reopening: {facts['customer']} reported it again.")).to_be_visible()
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["tickets.transitionIssue", "tickets.addComment"]
    finally:
        gym.delete(env.id)


def test_plan_the_sprint_from_the_backlog(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("tickets/plan-sprint-by-capacity-v1", variant=3)
    try:
        facts = env.task.facts
        page.goto(f"{live_server.env_url(env.id, 'tickets')}/backlog?project=ENG")
        for key in facts["picked"]:
            page.get_by_label(f"Sprint for {key}").select_option(str(facts["sprint"]))
            page.get_by_role("row").filter(has=page.get_by_role("link", name=key, exact=True)).get_by_role("button", name="Move").click()
            expect(page.get_by_role("region", name="Backlog", exact=False).get_by_role("link", name=key, exact=True)).to_have_count(0)
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["tickets.addIssuesToSprint"] * len(facts["picked"])
    finally:
        gym.delete(env.id)


def test_reassign_a_departing_engineers_issues(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("tickets/reassign-departing-engineer-v1", variant=1)
    try:
        facts = env.task.facts
        leaving = rest(live_server, env.id, "user", accountId=facts["leaving"])["emailAddress"]
        ui = live_server.env_url(env.id, "tickets")
        page.goto(f"{ui}/issues?jql=" + httpx.URL("", params={"q": f'assignee = "{leaving}" AND project = ENG AND resolution = EMPTY ORDER BY key'}).query.decode()[2:])
        keys = [link.inner_text() for link in page.get_by_role("table").get_by_role("link").all()]
        assert sorted(keys) == sorted(facts["moves"])
        for key in keys:
            page.goto(f"{ui}/browse/{key}")
            page.get_by_role("main").get_by_label("Assignee", exact=True).select_option(facts["successor"])
            page.get_by_role("button", name="Assign").click()
            expect(page.locator("#issue-assignee")).not_to_have_text(re.compile(r"^$"))
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["tickets.assignIssue"] * len(keys)
    finally:
        gym.delete(env.id)


def test_answer_with_jql_in_the_slack_dm(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    for variant in range(1, 60):  # a question about one engineer's urgent tickets
        env = gym.create("tickets/answer-with-jql-v1", variant=variant)
        if env.task.facts["shape"] == "priority":
            break
        gym.delete(env.id)
    try:
        facts = env.task.facts
        base = live_server.env_url(env.id)
        asked = next(m for m in httpx.get(f"{base}/api/chat/conversations.history", params={"channel": facts["dm"]}, timeout=10).json()["messages"])
        engineer, which = re.search(r"assigned to (.+?) are (.+?) priority\?", asked["text"]).groups()
        page.goto(f"{base}/tickets/issues")
        page.get_by_label("JQL query").fill(f'project = SUP AND assignee = "{engineer}" AND resolution = EMPTY '
                                             f'AND priority IN ({", ".join(which.split(" or "))}) ORDER BY key')
        page.get_by_role("button", name="Search").click()
        keys = [link.inner_text() for link in page.get_by_role("table").get_by_role("link").all()]
        assert sorted(keys) == sorted(facts["keys"])
        asker = httpx.get(f"{base}/api/chat/users.info", params={"user": asked["user"]}, timeout=10).json()["user"]["real_name"]
        page.goto(f"{base}/chat/")
        page.get_by_role("list", name="Direct messages").get_by_role("link", name=asker).click()
        composer = page.get_by_role("textbox", name=re.compile(r"^Message"))
        composer.fill(f"{engineer} has these open: {', '.join(keys)}.")
        composer.press("Enter")
        expect(page.get_by_text(f"{engineer} has these open: {', '.join(keys)}.")).to_be_visible()
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["chat.postMessage"]
    finally:
        gym.delete(env.id)
