"""The free-text checks of the tickets families, attacked as an adversary would: a comment, a
chat answer or a summary that stuffs in every candidate, hedges between two, names a wrong
value that contains the right one, runs a name into a longer word or pastes the task back
fails; the right value in other words, in another case, punctuated, or next to a value it rules
out ("not ENG-60") passes. Each attack is a real rollout: done through the env's MCP tools,
graded from the final state."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from officegym.gym import Gym
from officegym.validate import McpTools, server_for

REOPEN = "tickets/reopen-with-comment-v1"
ESCALATE = "tickets/escalate-to-engineering-v1"
Act = Callable[[McpTools, dict[str, Any]], Awaitable[None]]


def graded(gym: Gym, family: str, act: Act, variant: int = 1) -> dict[str, Any]:
    env = gym.create(family, variant=variant)
    try:
        instance = gym.instance(env)
        facts = {**instance.facts, "prompt": instance.prompt}

        async def run() -> None:
            async with gym.mcp_client(env.id, server_for(family)) as client:
                await act(McpTools(client), facts)

        asyncio.run(run())
        return gym.grade(env.id)
    finally:
        gym.delete(env.id)


def check(grade: dict[str, Any], starts: str) -> dict[str, Any]:
    return next(c for c in grade["checks"] if c["name"].startswith(starts))


# -- reopen: the comment names the customer ---------------------------------------------------
def reopen_saying(write: Callable[[str, list[str], str], str], names: list[str]) -> Act:
    """Reopen the ticket, then comment `write(the customer, every customer's name, the prompt)`."""

    async def act(tools: McpTools, facts: dict[str, Any]) -> None:
        await tools.call("jira_transition_issue", issue_key=facts["issue"], transition_id="Reopen Issue")
        await tools.call("jira_add_comment", issue_key=facts["issue"], body=write(facts["customer"], names, facts["prompt"]))

    return act


def _other(customer: str, names: list[str]) -> str:
    return next(n for n in names if n != customer and customer.lower() not in n.lower() and n.lower() not in customer.lower())


@pytest.mark.parametrize(("label", "write", "ok"), [
    ("the customer, in other words and case", lambda c, names, task: f"Reopened: the team at {c.upper()} reported it again.", True),
    ("the customer, ruling another out", lambda c, names, task: f"It was {c} that reported it again, not {_other(c, names)}.", True),
    ("every customer stuffed in", lambda c, names, task: "Reported again by one of: " + ", ".join(names), False),
    ("a hedge between two", lambda c, names, task: f"Either {_other(c, names)} or {c} reported it again.", False),
    ("the name run into a longer word", lambda c, names, task: f"{c}ish folks reported it again.", False),
    # A ticket's summary can carry the customer's name: pasting the task back names them without finding out who it was.
    ("the task pasted back, with the name", lambda c, names, task: f"{task} ({c})", False),
])
def test_reopen_comment_names_one_customer(gym: Gym, label: str, write: Callable[[str, list[str], str], str], ok: bool) -> None:
    names = sorted({c.name for c in gym.template(0, "small").company.customers})
    grade = graded(gym, REOPEN, reopen_saying(write, names))
    named = check(grade, "comment on")
    assert named["passed"] is ok, (label, named)
    assert grade["passed"] is ok and (grade["reward"] == 1.0 if ok else grade["reward"] < 1.0), (label, grade)


# -- escalate: the comment names the new bug ---------------------------------------------------
def escalate_saying(write: Callable[[str], str]) -> Act:
    """File the bug by the rules and link it, then comment `write(the bug's key)` on the support ticket."""

    async def act(tools: McpTools, facts: dict[str, Any]) -> None:
        made = await tools.call("jira_create_issue", project_key="ENG", summary=facts["summary"], issue_type="Bug", components=facts["component"],
                                additional_fields=json.dumps({"priority": {"name": facts["priority"]}, "labels": ["customer", "escalated"]}))
        key = made["issue"]["key"]
        await tools.call("jira_create_issue_link", link_type="Blocks", inward_issue_key=key, outward_issue_key=facts["issue"])
        await tools.call("jira_add_comment", issue_key=facts["issue"], body=write(key))

    return act


def _neighbour(key: str, step: int) -> str:
    project, number = key.split("-")
    return f"{project}-{int(number) + step}"


@pytest.mark.parametrize(("label", "write", "ok"), [
    ("the key", lambda k: f"Escalated to engineering as {k}.", True),
    ("the key in lower case, ruling the previous one out", lambda k: f"Tracked in {k.lower()} (not {_neighbour(k, -1)}).", True),
    ("a key that contains the right one", lambda k: f"Escalated to engineering as {k}0.", False),
    ("a hedge between two keys", lambda k: f"Escalated as {_neighbour(k, -1)} or {k}, whichever engineering picks up.", False),
    ("every nearby key stuffed in", lambda k: "Tracked in " + ", ".join(_neighbour(k, d) for d in range(-5, 6)), False),
])
def test_escalation_comment_names_the_new_bug(gym: Gym, label: str, write: Callable[[str], str], ok: bool) -> None:
    grade = graded(gym, ESCALATE, escalate_saying(write))
    told = check(grade, "SUP-")
    assert told["passed"] is ok, (label, told)
    assert all(c["passed"] for c in grade["checks"] if c is not told), grade
    assert grade["passed"] is ok and (grade["reward"] == 1.0 if ok else grade["reward"] < 1.0), (label, grade)


# -- answer: the DM names the urgent tickets ----------------------------------------------------
ANSWER = "tickets/answer-with-jql-v1"


def answer_saying(write: Callable[[list[str]], str]) -> Act:
    async def act(tools: McpTools, facts: dict[str, Any]) -> None:
        await tools.call("slack_post_message", channel_id=facts["dm"], text=write(facts["keys"]))

    return act


@pytest.mark.parametrize(("label", "write", "ok"), [
    ("the keys in lower case, in a sentence", lambda keys: "Those would be " + " and ".join(k.lower() for k in keys) + ".", True),
    ("a key that contains a right one", lambda keys: ", ".join([*keys[:-1], f"{keys[-1]}0"]), False),
    ("a hedge with one more", lambda keys: ", ".join(keys) + f", maybe also {_neighbour(max(keys, key=lambda k: int(k.split('-')[1])), 1)}", False),
])
def test_answer_names_exactly_the_tickets(gym: Gym, label: str, write: Callable[[list[str]], str], ok: bool) -> None:
    grade = graded(gym, ANSWER, answer_saying(write))
    assert grade["passed"] is ok and (grade["reward"] == 1.0 if ok else grade["reward"] < 0.5), (label, grade)


# -- split: the subtasks are the ones asked ------------------------------------------------------
SPLIT = "tickets/split-story-into-subtasks-v1"


def split_into(summaries: Callable[[list[str]], list[str]]) -> Act:
    async def act(tools: McpTools, facts: dict[str, Any]) -> None:
        for summary in summaries(facts["subtasks"]):
            await tools.call("jira_create_issue", project_key="ENG", summary=summary, issue_type="Subtask",
                             additional_fields=json.dumps({"parent": facts["issue"]}))

    return act


@pytest.mark.parametrize(("label", "summaries", "ok"), [
    ("each asked summary, punctuated and in another case", lambda parts: [f"{p.upper()}." for p in parts], True),
    ("all asked summaries stuffed into each subtask", lambda parts: [" / ".join(parts) for _ in parts], False),
    ("one summary with more in it", lambda parts: [*parts[:-1], f"{parts[-1]} and everything else"], False),
])
def test_split_subtasks_are_the_ones_asked(gym: Gym, label: str, summaries: Callable[[list[str]], list[str]], ok: bool) -> None:
    grade = graded(gym, SPLIT, split_into(summaries))
    assert grade["passed"] is ok and (grade["reward"] == 1.0 if ok else grade["reward"] < 0.5), (label, grade)
