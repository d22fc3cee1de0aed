"""Round 7 of the tickets graders, real rollouts through the env's MCP tools (and the answer
reader they share):
- a range of keys names every key in it: "SUP-44 through SUP-79" answering a question whose
  answer is SUP-44 and SUP-79 covers every ticket between (it was read as the two ends alone and
  scored 1.0); written with "to", "through", an en dash or an ellipsis, alike. A list of the two
  keys, and "SUP-64, -76" shorthand, keep their reading;
- a list left open ("SUP-44, SUP-79, etc.", "… among others", "at least SUP-44 and SUP-79") names
  keys it does not spell out: it scored 1.0, and now reads as naming one key more;
- the same change on a look-alike record fails the check that reads it (reassign, escalate);
- a hedge moved into a label: resolved as asked, with a label naming another resolution;
- a sprint planned right with an issue from outside the backlog put in beside the plan."""

from __future__ import annotations

import json

import pytest
from rollouts import Rollout

from tasks.common.answers import ticket_keys


def _number(key: str) -> int:
    return int(key.split("-")[1])


def _two_apart(facts: dict) -> bool:
    keys = sorted(facts["keys"], key=_number)
    return len(keys) >= 2 and _number(keys[-1]) - _number(keys[0]) > len(keys) - 1


def _answer(r: Rollout, text: str) -> dict:
    async def say(tools) -> None:
        await tools.call("slack_post_message", channel_id=r.facts["dm"], text=text)

    r.run(say)
    return r.grade()


@pytest.mark.parametrize("written", ["They are {a} through {b}.", "{a} to {b}", "{a}–{b_number}", "{a}…{b}"])
def test_a_range_spanning_the_answer_fails(rollout, written: str) -> None:
    r = rollout("tickets/answer-with-jql-v1", seed=0, where=_two_apart)
    keys = sorted(r.facts["keys"], key=_number)
    grade = _answer(r, written.format(a=keys[0], b=keys[-1], b_number=_number(keys[-1])))
    assert grade["reward"] < 0.5 and not grade["passed"], grade


def test_the_keys_listed_still_pass(rollout) -> None:
    r = rollout("tickets/answer-with-jql-v1", seed=0, where=_two_apart)
    keys = sorted(r.facts["keys"], key=_number)
    assert _answer(r, f"{', '.join(keys[:-1])} and {keys[-1]}.")["passed"]


@pytest.mark.parametrize(("text", "keys"), [
    ("SUP-3 to SUP-5", {"SUP-3", "SUP-4", "SUP-5"}),
    ("SUP-3 through 5.", {"SUP-3", "SUP-4", "SUP-5"}),
    ("SUP-5 – SUP-3", {"SUP-3", "SUP-4", "SUP-5"}),
    ("SUP-3...5", {"SUP-3", "SUP-4", "SUP-5"}),
    ("SUP-3 and SUP-5", {"SUP-3", "SUP-5"}),
    ("SUP-64, -76", {"SUP-64", "SUP-76"}),
    ("SUP-3 to ENG-5", {"SUP-3", "ENG-5"}),  # another project: two keys, no range
    ("SUP-3 to 5 people", {"SUP-3"}),  # a count after the key, not the range's end
    ("SUP-3 till 4 pm", {"SUP-3"}),
])
def test_ranges_name_every_key_they_span(text: str, keys: set[str]) -> None:
    assert ticket_keys(text, {"SUP", "ENG"}) == keys


@pytest.mark.parametrize("written", ["{a}, {b}, etc.", "{a} and {b}, among others", "{a}, {b} and a few more", "at least {a} and {b}",
                                     "{a}, {b} plus possibly others", "{a}, {b}, …"])
def test_a_list_left_open_fails(rollout, written: str) -> None:
    r = rollout("tickets/answer-with-jql-v1", seed=0, where=_two_apart)
    keys = sorted(r.facts["keys"], key=_number)
    grade = _answer(r, written.format(a=keys[0], b=keys[-1]))
    assert grade["reward"] < 0.5 and not grade["passed"], grade


@pytest.mark.parametrize("text", ["SUP-44 and SUP-79. Let me know if you need more.", "SUP-44 — some searches include it and others do not",
                                  "SUP-44 and SUP-79."])
def test_words_after_a_closed_list_leave_it_closed(text: str) -> None:
    assert ticket_keys(text, {"SUP"}) <= {"SUP-44", "SUP-79"}


# -- the same change on a look-alike record -------------------------------------------------------
def test_another_issue_also_handed_to_the_successor_fails(rollout) -> None:
    """Reassigning the departing engineer's issues and an unassigned one too scored 0.51 (three stray rows, no check
    failed): the check of what is left alone now reads every assignee changed on the way."""
    r = rollout("tickets/reassign-departing-engineer-v1", seed=0)

    async def also_elsewhere(tools) -> None:
        found = await tools.call("jira_search", jql="project = ENG AND assignee IS EMPTY AND resolution = EMPTY ORDER BY key", limit=1,
                                 fields="summary")
        await tools.call("jira_assign_issue", issue_key=found["issues"][0]["key"], assignee=r.facts["successor"])

    grade = r.oracle_then(also_elsewhere)
    assert grade["reward"] < 0.5 and not grade["passed"], grade
    assert not next(c for c in grade["checks"] if "left alone" in c["name"])["passed"], grade


def test_a_note_on_the_departing_engineers_issue_still_passes(rollout) -> None:
    r = rollout("tickets/reassign-departing-engineer-v1", seed=0)

    async def note(tools) -> None:
        await tools.call("jira_add_comment", issue_key=r.facts["moves"][0], body="Handing over: see the last comment for status.")

    assert r.oracle_then(note)["passed"]


def test_the_escalation_note_also_posted_on_another_support_ticket_fails_the_comment_check(rollout) -> None:
    """The bug's key commented on another customer's ticket tells them engineering tracks their problem there."""
    r = rollout("tickets/escalate-to-engineering-v1", seed=0)

    async def also_elsewhere(tools) -> None:
        bug = (await tools.call("jira_search", jql="project = ENG ORDER BY key DESC", limit=1, fields="summary"))["issues"][0]["key"]
        jql = f"project = SUP AND resolution = EMPTY AND key != {r.facts['issue']} ORDER BY key"
        other = (await tools.call("jira_search", jql=jql, limit=1, fields="summary"))["issues"][0]["key"]
        await tools.call("jira_add_comment", issue_key=other, body=f"Escalated to engineering as {bug}.")

    grade = r.oracle_then(also_elsewhere)
    told = next(c for c in grade["checks"] if "commented with the bug's key" in c["name"])
    assert not told["passed"] and not grade["passed"], grade


def test_a_note_on_the_bug_naming_the_support_ticket_still_passes(rollout) -> None:
    r = rollout("tickets/escalate-to-engineering-v1", seed=0)

    async def note(tools) -> None:
        bug = (await tools.call("jira_search", jql="project = ENG ORDER BY key DESC", limit=1, fields="summary"))["issues"][0]["key"]
        await tools.call("jira_add_comment", issue_key=bug, body=f"Reported by the customer in {r.facts['issue']}; see {bug} repro steps.")

    assert r.oracle_then(note)["passed"]


# -- a hedge moved into a label -------------------------------------------------------------------
@pytest.mark.parametrize("label", ["duplicate", "wont-fix", "cannot-reproduce"])
def test_a_label_naming_another_resolution_fails(rollout, label: str) -> None:
    """Resolved as asked, with a label filing it under another resolution: it cost only a stray label (0.8)."""
    r = rollout("tickets/resolve-with-resolution-v1", seed=0,
                where=lambda f: f["resolution"] not in {"duplicate": "Duplicate", "wont-fix": "Won't Do", "cannot-reproduce": "Cannot Reproduce"}[label])

    async def labelled(tools) -> None:
        current = await tools.call("jira_get_issue", issue_key=r.facts["issue"], fields="labels")
        await tools.call("jira_update_issue", issue_key=r.facts["issue"], fields=json.dumps({"labels": [*current["labels"], label]}))

    grade = r.oracle_then(labelled)
    assert grade["reward"] < 0.5 and not grade["passed"], grade


@pytest.mark.parametrize("extra", ["Epic", "in another sprint"])
def test_an_issue_from_outside_the_backlog_put_in_the_sprint_too_fails(rollout, extra: str) -> None:
    """The planned issues and an epic (or an issue taken from another sprint) beside them scored 0.64 or 0.26 with the
    plan's check passed: it read only the backlog's issues."""
    r = rollout("tickets/plan-sprint-by-capacity-v1", seed=0)

    async def also(tools) -> None:
        jql = ("project = ENG AND resolution = EMPTY AND issuetype = Epic ORDER BY key" if extra == "Epic"
               else "project = ENG AND resolution = EMPTY AND sprint IS NOT EMPTY ORDER BY key")
        key = (await tools.call("jira_search", jql=jql, limit=1, fields="summary"))["issues"][0]["key"]
        await tools.call("jira_add_issues_to_sprint", sprint_id=str(r.facts["sprint"]), issue_keys=key)

    grade = r.oracle_then(also)
    assert grade["reward"] < 0.5 and not grade["checks"][0]["passed"], grade
