"""The tickets task families beyond what `tasks validate` checks on variant 0 (the CLI test):
on another variant the oracle and the alternative score 1.0 and doing nothing 0.0; instances
differ by variant and repeat for the same variant; a question's prompt never holds its answer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from officegym.gym import Gym
from officegym.validate import McpTools, server_for
from tasks import registry

TICKETS_FAMILIES = [f.id for f in registry.all_families() if "tickets" in f.apps]


def test_there_are_ten_tickets_families() -> None:
    assert len(TICKETS_FAMILIES) >= 10, TICKETS_FAMILIES


async def _solve(gym: Gym, env_id: str, solution: Any) -> None:
    async with gym.mcp_client(env_id, server_for(gym.get(env_id).task_id)) as client:
        await solution(McpTools(client))


@pytest.mark.parametrize("family", TICKETS_FAMILIES)
def test_other_variants_grade_like_variant_zero(gym: Gym, family: str) -> None:
    """`tasks validate` (the CLI test) runs every adversary on variant 0 of seeds 0..2; here, on
    variant 1, the oracle and each alternative score 1.0 and doing nothing scores 0.0."""
    env = gym.create(family, variant=1)
    instance = gym.instance(env)
    try:
        assert gym.grade(env.id)["reward"] == 0.0, "doing nothing earns nothing"
        asyncio.run(_solve(gym, env.id, instance.oracle))
        grade = gym.grade(env.id)
        assert grade["reward"] == 1.0 and grade["passed"], grade
    finally:
        gym.delete(env.id)
    for index in range(len(instance.alternatives)):
        env = gym.create(family, variant=1)  # a fresh copy: each solution starts from the same state
        try:
            alternative = gym.instance(env).alternatives[index]
            asyncio.run(_solve(gym, env.id, alternative))
            grade = gym.grade(env.id)
            assert grade["reward"] == 1.0 and grade["passed"], (alternative.__name__, grade)
        finally:
            gym.delete(env.id)


def test_variants_pick_different_instances_and_repeat(gym: Gym) -> None:
    for family in TICKETS_FAMILIES:
        seen = []
        for variant in (0, 1, 2, 0):
            env = gym.create(family, variant=variant)
            instance = gym.instance(env)
            seen.append((instance.prompt, repr(sorted(instance.facts.items()))))
            if "keys" in instance.facts:  # a question: the prompt must not give the answer away
                assert not any(key in instance.prompt for key in instance.facts["keys"])
            gym.delete(env.id)
        assert seen[0] == seen[3], f"{family}: the same variant is the same instance"
        assert len({s[1] for s in seen[:3]}) == 3, f"{family}: neighbouring variants differ"
