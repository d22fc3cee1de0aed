"""Task families: validation end to end, and graders that can't be gamed and don't punish
a correct alternative."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from officegym.core.backend import backend_name
from officegym.gym import Gym
from officegym.validate import McpTools, validate
from tasks import registry
from tasks.base import TaskInstance


def act(gym: Gym, env_id: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    """Make tool calls in an env through the official MCP client, as an agent would."""

    async def run() -> list[Any]:
        async with gym.mcp_client(env_id) as client:
            tools = McpTools(client)
            return [await tools.call(name, **args) for name, args in calls]

    return asyncio.run(run())


@pytest.mark.pass_backend  # reaches OFFICEGYM_DB's backend itself (tests/conftest.py)
def test_tasks_validate_cli_passes_on_every_family(tmp_path) -> None:
    # Two companies on SQLite; one on PostgreSQL, where grading is the same code over another
    # backend (tests/core/test_backend_parity.py compares the two) and each env costs more.
    seeds = 2 if backend_name(os.environ.get("OFFICEGYM_DB")) == "sqlite" else 1
    done = subprocess.run(
        [sys.executable, "-m", "officegym.cli", "tasks", "validate", "--seeds", str(seeds)],
        capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"all {seeds * len(registry.all_families())} family×seed pairs valid" in done.stdout


@pytest.mark.pass_backend  # reaches OFFICEGYM_DB's backend itself (tests/conftest.py)
def test_tasks_list_names_every_family() -> None:
    done = subprocess.run([sys.executable, "-m", "officegym.cli", "tasks", "list"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    for family in registry.all_families():
        assert family.id in done.stdout


@pytest.mark.pass_backend  # reaches OFFICEGYM_DB's backend itself (tests/conftest.py)
def test_validate_reports_a_family_whose_oracle_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    family = registry.get("chat/post-in-channel-v1")
    sample = family.sample

    def lazy_sample(ctx: Any, rng: random.Random) -> TaskInstance:
        instance = sample(ctx, rng)

        async def idle(_tools: Any) -> None:
            return None

        instance.oracle = idle
        return instance

    monkeypatch.setattr(family, "sample", lazy_sample)
    lines: list[str] = []
    failures = validate(seeds=1, size="small", only=[family.id], echo=lines.append)
    assert failures and "oracle got reward 0.0" in failures[0]


def test_same_task_and_seed_give_the_same_instance(gym: Gym) -> None:
    for family in registry.all_families():
        a, b = gym.create(family.id, seed=0), gym.create(family.id, seed=0)
        try:
            assert a.task.prompt == b.task.prompt
            assert a.task.facts == b.task.facts
        finally:
            gym.delete(a.id)
            gym.delete(b.id)


@pytest.fixture
def task_env(gym: Gym, request: pytest.FixtureRequest):
    env = gym.create(request.param, seed=1)
    yield env
    gym.delete(env.id)


@pytest.mark.parametrize("task_env", ["chat/find-and-answer-v1"], indirect=True)
def test_answering_with_every_ticket_key_does_not_pass(gym: Gym, task_env: Any) -> None:
    facts = task_env.task.facts
    keys = " ".join(t.key for t in gym.template(1, "small").company.tickets[:40])
    [opened] = act(gym, task_env.id, ("slack_open_dm", {"users": facts["asker"]}))
    act(gym, task_env.id, ("slack_post_message", {"channel_id": opened["channel"]["id"], "text": f"{facts['ticket']} or maybe {keys}"}))
    grade = gym.grade(task_env.id)
    assert grade["reward"] == 0.0 and not grade["passed"]
    assert "not the answer" in grade["checks"][0]["detail"]


@pytest.mark.parametrize("task_env", ["chat/reply-in-thread-v1"], indirect=True)
def test_a_top_level_post_is_not_a_thread_reply(gym: Gym, task_env: Any) -> None:
    facts = task_env.task.facts
    act(gym, task_env.id, ("slack_post_message", {"channel_id": facts["channel"], "text": f"Main contact: {facts['contact']}"}))
    grade = gym.grade(task_env.id)
    assert grade["reward"] == 0.0
    assert [c["key"] for c in grade["collateral"]]  # and the stray post is reported


@pytest.mark.parametrize("task_env", ["chat/reply-in-thread-v1"], indirect=True)
def test_replying_to_a_reply_in_the_right_thread_also_counts(gym: Gym, task_env: Any) -> None:
    """Slack files a reply to a reply under the thread's parent: a correct alternative path."""
    facts = task_env.task.facts
    [replies] = act(gym, task_env.id, ("slack_get_thread_replies", {"channel_id": facts["channel"], "thread_ts": facts["thread_ts"]}))
    some_reply = replies["messages"][-1]["ts"]
    act(gym, task_env.id, ("slack_reply_to_thread", {"channel_id": facts["channel"], "thread_ts": some_reply, "text": f"Contact: {facts['contact']}"}))
    grade = gym.grade(task_env.id)
    assert grade["reward"] == 1.0 and grade["passed"], json.dumps(grade)


@pytest.mark.parametrize("task_env", ["chat/post-in-channel-v1"], indirect=True)
def test_joining_the_channel_first_is_not_collateral(gym: Gym, task_env: Any) -> None:
    facts = task_env.task.facts
    text = f"FYI: {facts['customer']} meeting is now {facts['day']} at {facts['time']}."
    act(gym, task_env.id, ("slack_join_channel", {"channel_id": facts["channel"]}), ("slack_post_message", {"channel_id": facts["channel"], "text": text}))
    grade = gym.grade(task_env.id)
    assert grade["reward"] == 1.0 and grade["collateral"] == []


@pytest.mark.parametrize("task_env", ["chat/create-channel-and-invite-v1"], indirect=True)
def test_inviting_an_extra_person_fails_the_membership_check(gym: Gym, task_env: Any) -> None:
    facts = task_env.task.facts
    [made] = act(gym, task_env.id, ("slack_create_channel", {"name": facts["name"], "is_private": True}))
    [users] = act(gym, task_env.id, ("slack_get_users", {"limit": 200}))
    extra = next(u["id"] for u in users["members"] if u["id"] not in facts["members"] and not u["is_bot"])
    invite = ",".join([m for m in facts["members"] if m != made["channel"]["creator"]] + [extra])
    act(gym, task_env.id, ("slack_invite_to_channel", {"channel_id": made["channel"]["id"], "users": invite}))
    grade = gym.grade(task_env.id)
    by_name = {c["name"]: c for c in grade["checks"]}
    assert [c["passed"] for c in grade["checks"]] == [True, False]
    assert extra in next(c for c in by_name.values() if not c["passed"])["detail"]
    assert grade["reward"] == pytest.approx(1 / 3 * 0.8, abs=1e-6), "and the extra member is collateral"
