"""The chat graders attacked a fourth time. The classes found:

- a hedge written in another app the agent can write in: the right answer posted where it was
  asked, and a wrong value beside it in a CRM task or note, scored 0.8 (a stray row), above the
  pass line. The answer is now read with what the agent wrote in the CRM, so such a hedge fails,
  while a CRM note that names no value of the asked kind leaves a correct answer correct.
- a hedge written as the name of a channel the agent created (#sup-65-maybe): 0.64, above the
  pass line. The names of channels the agent created are read with the answer, as topics are.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

POST, ANSWER, THREAD, SUMMARY = "chat/post-in-channel-v1", "chat/find-and-answer-v1", "chat/reply-in-thread-v1", "chat/summarise-thread-v1"


def dml(r: Rollout, operation: str, obj: str, *records: dict[str, Any]) -> None:
    text = str(r.call("salesforce_dml_records", operation=operation, objectName=obj, records=list(records)))
    assert "- Failed: 0" in text, text


def neighbour(key: str) -> str:
    project, number = key.rsplit("-", 1)
    return f"{project}-{int(number) + 1}"


def hedge(task: str, facts: dict[str, Any]) -> str:
    """A wrong value of the asked kind, as a hedge would write it."""
    if task == POST:
        return f"Meeting might be {'Friday' if facts['day'] != 'Friday' else 'Monday'} instead"
    if task == ANSWER:
        return f"Ticket could also be {neighbour(facts['ticket'])}"
    if task == THREAD:
        return "Contact may be someone-else@example.com"
    return f"Summary may concern {neighbour(facts['ticket'])}"


@pytest.mark.parametrize("task", [POST, ANSWER, THREAD, SUMMARY])
@pytest.mark.parametrize("kind", ["Task", "Note"])
def test_a_hedge_written_in_the_crm_fails_the_answer(rollout: Callable[..., Rollout], task: str, kind: str) -> None:
    r = rollout(task)
    r.run(r.task.oracle)
    assert r.passes()
    text = hedge(task, r.facts)
    if kind == "Task":
        dml(r, "insert", "Task", {"Subject": text})
    else:
        (account,) = r.call("salesforce_run_soql", query="SELECT Id FROM Account ORDER BY Name LIMIT 1")["records"]
        dml(r, "insert", "Note", {"ParentId": account["Id"], "Title": "Notes", "Body": text})
    grade = r.grade()
    assert r.fails() and "not the answer" in grade["checks"][0]["detail"], json.dumps(grade)


@pytest.mark.parametrize("task", [POST, ANSWER])
def test_a_crm_note_naming_nothing_of_the_asked_kind_leaves_the_answer_right(rollout: Callable[..., Rollout], task: str) -> None:
    """The note is a stray row (collateral, as before); the answer itself is still judged right."""
    r = rollout(task)
    r.run(r.task.oracle)
    dml(r, "insert", "Task", {"Subject": "Let the team know about the change"})
    grade = r.grade()
    assert grade["checks"][0]["passed"] and [c["table"] for c in grade["collateral"]] == ["crm_task"], json.dumps(grade)


@pytest.mark.parametrize("task", [ANSWER, POST])
def test_a_hedge_written_as_a_new_channels_name_fails(rollout: Callable[..., Rollout], task: str) -> None:
    r = rollout(task)
    f = r.facts
    r.run(r.task.oracle)
    name = f"{neighbour(f['ticket']).lower()}-maybe" if task == ANSWER else f"{'friday' if f['day'] != 'Friday' else 'monday'}-instead"
    r.call("slack_create_channel", name=name, is_private=True)
    grade = r.grade()
    assert r.fails() and "not the answer" in grade["checks"][0]["detail"], json.dumps(grade)
