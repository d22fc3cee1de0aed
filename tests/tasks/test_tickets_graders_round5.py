"""Round 5 of the tickets graders, each a real rollout through the env's MCP tools:
- a hedge written in a worklog's note is said on the issue: the note shows on the ticket beside
  the comments, so a resolution, a customer or a bug key it adds is read with them (resolve,
  reopen, escalate);
- the same change on a look-alike record: time also logged on another issue, the subtasks also
  filed under another story, the triage label or component also set on another ticket, the
  reopening comment naming the customer also posted on another ticket, fails the check that reads what the task asked (a stray
  addition alone cost only a fifth, leaving a wrong solution above the pass line)."""

from __future__ import annotations

import json

import pytest
from rollouts import Rollout


def _log(r: Rollout, note: str, key: str | None = None):
    async def step(tools) -> None:
        await tools.call("jira_add_worklog", issue_key=key or r.facts["issue"], time_spent="15m", comment=note)
    return step


# -- class: a hedge moved from the comment into a worklog's note --------------------------------
def test_worklog_hedge_offering_other_resolutions_fails(rollout) -> None:
    r = rollout("tickets/resolve-with-resolution-v1", where=lambda f: f["resolution"] == "Fixed")
    grade = r.oracle_then(_log(r, "Could also be a Duplicate, or Won't Do."))
    assert grade["reward"] < 0.5, grade


def test_worklog_hedge_naming_another_customer_fails(rollout) -> None:
    r = rollout("tickets/reopen-with-comment-v1")
    other = next(n for n in ("Brown Group", "Acme Corp") if n.lower() not in r.facts["customer"].lower())
    grade = r.oracle_then(_log(r, f"Or maybe it was {other} who reported it."))
    assert grade["reward"] < 0.5, grade


def test_worklog_hedge_naming_other_bugs_fails(rollout) -> None:
    r = rollout("tickets/escalate-to-engineering-v1")

    async def note_on_support_ticket(tools) -> None:
        eng = await tools.call("jira_search", jql="project = ENG ORDER BY key ASC", limit=3, fields="summary")
        await _log(r, "Might be " + ", ".join(i["key"] for i in eng["issues"]))(tools)

    grade = r.oracle_then(note_on_support_ticket)
    told = next(c for c in grade["checks"] if "commented with the bug's key" in c["name"])
    assert not told["passed"] and not grade["passed"], grade  # the bug itself is right: only the comment's share is lost


@pytest.mark.parametrize("family", ["tickets/resolve-with-resolution-v1", "tickets/reopen-with-comment-v1"])
def test_time_logged_with_a_plain_note_still_passes(rollout, family: str) -> None:
    r = rollout(family)
    grade = r.oracle_then(_log(r, "Looked into the customer's report."))
    assert grade["passed"] and grade["reward"] == 1.0, grade


# -- class: the same change made on a look-alike record too ------------------------------------
def _other_open(tools, jql: str):
    async def first() -> str:
        found = await tools.call("jira_search", jql=jql, limit=1, fields="summary")
        return found["issues"][0]["key"]
    return first()


def test_time_also_logged_on_another_issue_fails(rollout) -> None:
    r = rollout("tickets/log-work-v1")

    async def also_elsewhere(tools) -> None:
        other = await _other_open(tools, f"project = ENG AND key != {r.facts['issue']} AND statusCategory != Done ORDER BY key")
        await tools.call("jira_add_worklog", issue_key=other, time_spent="1h")

    grade = r.oracle_then(also_elsewhere)
    assert grade["reward"] < 0.5 and not grade["passed"], grade


def test_subtasks_also_filed_under_another_story_fail(rollout) -> None:
    r = rollout("tickets/split-story-into-subtasks-v1")

    async def also_elsewhere(tools) -> None:
        other = await _other_open(tools, f"project = ENG AND issuetype = Story AND key != {r.facts['issue']} AND statusCategory != Done ORDER BY key")
        await tools.call("jira_create_issue", project_key="ENG", summary=r.facts["subtasks"][0], issue_type="Subtask",
                         additional_fields=json.dumps({"parent": other}))

    grade = r.oracle_then(also_elsewhere)
    assert grade["reward"] < 0.5 and not grade["passed"], grade


def test_time_logged_in_two_sittings_on_the_issue_still_passes(rollout) -> None:
    r = rollout("tickets/log-work-v1", where=lambda f: f["seconds"] >= 3600)

    async def two(tools) -> None:
        await tools.call("jira_add_worklog", issue_key=r.facts["issue"], time_spent=f"{r.facts['seconds'] // 60 - 30}m")
        await tools.call("jira_add_worklog", issue_key=r.facts["issue"], time_spent="30m", comment="wrap-up")

    r.run(two)
    assert r.passes(), r.grade()


@pytest.mark.parametrize("field", ["labels", "components"])
def test_the_triage_label_or_component_also_set_on_a_look_alike_fails(rollout, field: str) -> None:
    r = rollout("tickets/triage-support-ticket-v1")

    async def also_elsewhere(tools) -> None:
        jql = f"project = SUP AND key != {r.facts['issue']} AND resolution = EMPTY ORDER BY key"
        found = (await tools.call("jira_search", jql=jql, limit=1, fields="labels"))["issues"][0]
        if field == "labels":
            await tools.call("jira_update_issue", issue_key=found["key"], fields=json.dumps({"labels": [*found.get("labels", []), r.facts["label"]]}))
        else:
            await tools.call("jira_update_issue", issue_key=found["key"], fields="{}", components=r.facts["component"])

    grade = r.oracle_then(also_elsewhere)
    assert grade["reward"] < 0.5 and not grade["passed"], grade


def test_the_reopening_comment_also_posted_on_a_look_alike_fails(rollout) -> None:
    r = rollout("tickets/reopen-with-comment-v1")

    async def also_elsewhere(tools) -> None:
        jql = f"project = SUP AND key != {r.facts['issue']} AND status = Done ORDER BY key"
        other = (await tools.call("jira_search", jql=jql, limit=1, fields="summary"))["issues"][0]["key"]
        await tools.call("jira_add_comment", issue_key=other, body=f"Reopening: {r.facts['customer']} reported it again.")

    grade = r.oracle_then(also_elsewhere)
    assert grade["reward"] < 0.5 and not grade["passed"], grade


def test_a_comment_on_another_ticket_not_naming_the_customer_is_only_a_stray_note(rollout) -> None:
    r = rollout("tickets/reopen-with-comment-v1")

    async def note(tools) -> None:
        jql = f"project = SUP AND key != {r.facts['issue']} ORDER BY key"
        other = (await tools.call("jira_search", jql=jql, limit=1, fields="summary"))["issues"][0]["key"]
        await tools.call("jira_add_comment", issue_key=other, body=f"See {r.facts['issue']}.")

    grade = r.oracle_then(note)
    assert all(c["passed"] for c in grade["checks"]), grade
