"""crm task families: each validates (oracle 1.0, an alternative passes, every adversary
below the pass line) on several seeds and variants; graders accept correct answers written
another way and refuse near misses (a call logged twice, a case closed but re-prioritised,
a total named among others)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from officegym.gym import Gym
from officegym.validate import McpTools, validate
from tasks import registry

CRM_FAMILIES = [f.id for f in registry.all_families() if f.id.startswith("crm/")]


def act(gym: Gym, env_id: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    async def run() -> list[Any]:
        async with gym.mcp_client(env_id) as client:
            tools = McpTools(client)
            return [await tools.call(name, **args) for name, args in calls]

    return asyncio.run(run())


def test_there_are_crm_families_of_every_tier() -> None:
    tiers = {registry.get(f).difficulty for f in CRM_FAMILIES}
    assert len(CRM_FAMILIES) >= 6 and tiers == {"easy", "medium", "hard"}


@pytest.mark.pass_backend  # reaches OFFICEGYM_DB's backend itself (tests/conftest.py)
def test_every_crm_family_validates_on_more_variants() -> None:
    # Every family on seeds 0-2, variant 0, is validated with all the others (test_chat_tasks):
    # here the next variants, which pick other records and other axes.
    lines: list[str] = []
    failures = validate(seeds=1, size="small", only=CRM_FAMILIES, echo=lines.append, variants=2)
    assert failures == [], "\n".join(failures)


def test_many_distinct_instances(gym: Gym) -> None:
    prompts = {}  # family -> distinct instances among its first variants
    for family in CRM_FAMILIES:
        seen = set()
        for variant in range(3):
            env = gym.create(family, variant=variant)
            seen.add(repr(sorted(env.task.facts.items())))
            gym.delete(env.id)
        prompts[family] = len(seen)
    assert all(n == 3 for n in prompts.values()), prompts


def test_close_case_accepts_a_longer_resolution_and_flags_an_edited_description(gym: Gym) -> None:
    env = gym.create("crm/close-case-v1", variant=1)
    try:
        facts = env.task.facts
        act(gym, env.id, ("salesforce_dml_records", {"operation": "update", "objectName": "Case", "records": [
            {"Id": facts["case"], "Status": "Closed", "Resolution__c": f"Done. {facts['resolution']} — customer confirmed."}]}))
        assert gym.grade(env.id)["reward"] == 1.0
        act(gym, env.id, ("salesforce_dml_records", {"operation": "update", "objectName": "Case", "records": [{"Id": facts["case"], "Description": "(cleared)"}]}))
        graded = gym.grade(env.id)
        assert graded["passed"] is False and graded["collateral"][0]["table"] == "crm_case"
    finally:
        gym.delete(env.id)


def test_close_case_refuses_a_resolution_stuffed_with_every_likely_fix(gym: Gym) -> None:
    from tasks.crm.close_case import RESOLUTIONS

    env = gym.create("crm/close-case-v1", variant=2)
    try:
        facts = env.task.facts
        for text, passes in ((" / ".join(RESOLUTIONS), False),
                             (f"Root cause found. {facts['resolution']}; the customer confirmed it works and closed the loop.", True)):
            act(gym, env.id, ("salesforce_dml_records", {"operation": "update", "objectName": "Case", "records": [
                {"Id": facts["case"], "Status": "Closed", "Resolution__c": text}]}))
            assert gym.grade(env.id)["passed"] is passes, text
    finally:
        gym.delete(env.id)


def test_a_call_logged_twice_is_not_one_call_logged(gym: Gym) -> None:
    env = gym.create("crm/log-call-v1", variant=2)
    try:
        env.task.facts  # noqa: B018 - the instance exists
        asyncio.run(_run_oracle(gym, env.id))
        assert gym.grade(env.id)["reward"] == 1.0
        asyncio.run(_run_oracle(gym, env.id))
        graded = gym.grade(env.id)
        assert graded["reward"] == 0.0 and "exactly one" in graded["checks"][0]["detail"]
    finally:
        gym.delete(env.id)


async def _run_oracle(gym: Gym, env_id: str) -> None:
    async with gym.mcp_client(env_id) as client:
        await gym.get(env_id).task.oracle(McpTools(client))


@pytest.mark.parametrize(("written", "passes"), [
    ("{k:,.0f} dollars", True), ("${m:.3f}M", None), ("USD {k:.0f}", True), ("${k:,.0f} or maybe ${w:,.0f}", False),
])
def test_pipeline_answers_read_as_amounts(gym: Gym, written: str, passes: bool | None) -> None:
    env = gym.create("crm/pipeline-question-v1", variant=0)
    try:
        total = env.task.facts["total"]
        text = written.format(k=total, m=total / 1e6, w=total + 5000)
        if passes is None:  # a rounded million is only right when it is exact
            passes = round(total / 1e6, 3) * 1e6 == total
        dm = gym.get(env.id).task.facts["asker"]
        act(gym, env.id, ("slack_post_message", {"channel_id": dm, "text": text}))
        assert gym.grade(env.id)["passed"] is passes, text
    finally:
        gym.delete(env.id)
