"""Round 3 of the tickets graders, each a real rollout through the env's MCP tools:
- a target issue vandalised on the way (renamed, described away, closed, stripped of its labels)
  is collateral in every family: only the fields the task changes may change on it;
- harmless extra steps (a comment on a planned issue or the epic, a new subtask filled in after
  creating it, time logged on it) are not collateral, nor the `updated` stamp they bump;
- a resolving comment that offers other resolutions is a hedge;
- a customer named by its first word is named ("Jensen", "or maybe Brown")."""

from __future__ import annotations

import json

import pytest

from seed_data.company import generate_company

ACTION_FAMILIES = [
    "tickets/log-work-v1", "tickets/resolve-with-resolution-v1", "tickets/reopen-with-comment-v1",
    "tickets/link-bug-to-epic-v1", "tickets/reassign-departing-engineer-v1", "tickets/split-story-into-subtasks-v1",
    "tickets/plan-sprint-by-capacity-v1", "tickets/escalate-to-engineering-v1", "tickets/triage-support-ticket-v1",
]


@pytest.mark.parametrize("family", ACTION_FAMILIES)
def test_a_target_issue_vandalised_on_the_way_is_collateral(rollout, family: str) -> None:
    r = rollout(family)
    key = r.facts["issue"]

    async def wipe(tools) -> None:
        await tools.call("jira_update_issue", issue_key=key, fields=json.dumps({"summary": "x", "description": ""}))

    grade = r.oracle_then(wipe)
    assert not grade["passed"] and grade["reward"] < 0.5, grade
    assert any(c["table"] == "tickets_issues" and "summary" in c["change"] for c in grade["collateral"])


@pytest.mark.parametrize("family", ["tickets/log-work-v1", "tickets/split-story-into-subtasks-v1", "tickets/plan-sprint-by-capacity-v1",
                                    "tickets/escalate-to-engineering-v1", "tickets/link-bug-to-epic-v1"])
def test_a_target_closed_when_the_task_never_asked_is_collateral(rollout, family: str) -> None:
    r = rollout(family)
    key = r.facts.get("blocks", r.facts["issue"])

    async def close(tools) -> None:
        moves = [m["name"] for m in await tools.call("jira_get_transitions", issue_key=key)]
        pick = next(m for m in ("Close Issue", "Resolve Issue", "Done") if m in moves)
        await tools.call("jira_transition_issue", issue_key=key, transition_id=pick, fields=json.dumps({"resolution": {"name": "Won't Do"}}))

    grade = r.oracle_then(close)
    assert not grade["passed"] and grade["reward"] < 0.5, grade


def test_a_target_stripped_of_its_labels_is_collateral(rollout) -> None:
    r = rollout("tickets/reassign-departing-engineer-v1")
    key = r.facts["issue"]

    async def add_then(tools) -> None:
        await tools.call("jira_update_issue", issue_key=key, fields=json.dumps({"labels": ["stray"]}))

    grade = r.oracle_then(add_then)
    assert not grade["passed"] and any(c["table"] == "tickets_labels" for c in grade["collateral"])


def test_harmless_extra_steps_are_not_collateral(rollout) -> None:
    """A comment on each planned issue; a comment, a description and time on a new subtask; a comment on the epic."""
    sprint = rollout("tickets/plan-sprint-by-capacity-v1")

    async def comment_planned(tools) -> None:
        for key in sprint.facts["picked"]:
            await tools.call("jira_add_comment", issue_key=key, body="Planned for the next sprint.")

    assert sprint.oracle_then(comment_planned)["passed"]

    split = rollout("tickets/split-story-into-subtasks-v1")

    async def fill_in(tools) -> None:
        found = await tools.call("jira_search", jql=f"parent = {split.facts['issue']} ORDER BY key DESC", limit=1, fields="summary")
        sub = found["issues"][0]["key"]
        await tools.call("jira_update_issue", issue_key=sub, fields=json.dumps({"description": "Scope: see the story."}))
        await tools.call("jira_add_comment", issue_key=sub, body="Taking this one.")
        await tools.call("jira_add_worklog", issue_key=sub, time_spent="15m")

    grade = split.oracle_then(fill_in)
    assert grade["passed"] and grade["reward"] == 1.0, grade

    link = rollout("tickets/link-bug-to-epic-v1")

    async def note_on_epic(tools) -> None:
        await tools.call("jira_add_comment", issue_key=link.facts["epic"], body=f"Added {link.facts['issue']} to this epic.")

    grade = link.oracle_then(note_on_epic)
    assert grade["passed"] and grade["reward"] == 1.0, grade


@pytest.mark.parametrize(("body", "passes"), [
    ("Resolved as {res} — or Duplicate / Won't Do / Cannot Reproduce, whichever applies.", False),
    ("Resolving as {res}; could also be a dupe of an older ticket.", False),
    ("Resolving as {res}. Checked: not a duplicate.", True),
])
def test_a_resolving_comment_that_offers_other_resolutions_is_a_hedge(rollout, body: str, passes: bool) -> None:
    r = rollout("tickets/resolve-with-resolution-v1", where=lambda f: f["resolution"] == "Fixed")

    async def say(tools) -> None:
        await tools.call("jira_add_comment", issue_key=r.facts["issue"], body=body.format(res=r.facts["resolution"]))

    grade = r.oracle_then(say)
    assert (grade["passed"] and grade["reward"] == 1.0) if passes else grade["reward"] < 0.5, grade


def test_a_customer_named_by_its_first_word_is_named(rollout) -> None:
    r = rollout("tickets/reopen-with-comment-v1", where=lambda f: len(f["customer"].split()) > 1)
    first = r.facts["customer"].replace(",", " ").replace("-", " ").split()[0]

    async def reopen(tools, text: str) -> None:
        await tools.call("jira_transition_issue", issue_key=r.facts["issue"], transition_id="Reopen Issue")
        await tools.call("jira_add_comment", issue_key=r.facts["issue"], body=text)

    r.run(lambda tools: reopen(tools, f"Reopening: {first} reported it again."))
    assert r.passes(), r.grade()


def test_a_hedge_naming_another_customer_by_its_first_word_fails(rollout) -> None:
    r = rollout("tickets/reopen-with-comment-v1")
    company = generate_company(1, "small")
    names = [c.name for c in company.customers]
    people = {w.lower() for p in company.people for w in p.name.split()}
    customer = r.facts["customer"]
    other = next(n for n in names if n != customer and n.split()[0].strip(",").split("-")[0].lower() not in people
                 and n.split()[0].strip(",").split("-")[0].lower() not in customer.lower() and len(n.split()) > 1)
    short = other.split()[0].strip(",").split("-")[0]

    async def reopen(tools) -> None:
        await tools.call("jira_transition_issue", issue_key=r.facts["issue"], transition_id="Reopen Issue")
        await tools.call("jira_add_comment", issue_key=r.facts["issue"], body=f"Reopening: {customer} reported it again, or maybe it was {short}.")

    r.run(reopen)
    assert r.fails(), r.grade()


def test_subtasks_numbered_as_a_list_or_prefixed_with_the_story_key_are_the_asked_ones(rollout) -> None:
    r = rollout("tickets/split-story-into-subtasks-v1")
    story, parts = r.facts["issue"], r.facts["subtasks"]

    async def create(tools) -> None:
        for n, summary in enumerate(parts, 1):
            written = f"{n}. {summary}" if n % 2 else f"{story}: {summary}"
            await tools.call("jira_create_issue", project_key="ENG", summary=written, issue_type="Subtask",
                             additional_fields=json.dumps({"parent": story}))

    r.run(create)
    assert r.passes(), r.grade()
