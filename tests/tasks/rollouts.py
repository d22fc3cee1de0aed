"""A rollout: one env with a task, acted on through the official MCP client as an agent would,
then graded (the `rollout` fixture in conftest.py makes them)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from graders.rubric import PASS_LINE
from officegym.gym import Gym
from officegym.validate import McpTools


class Rollout:
    def __init__(self, gym: Gym, task: str, seed: int, variant: int, toolset: str | None = None) -> None:
        self.gym, self.env = gym, gym.create(task, seed=seed, variant=variant, toolset=toolset)
        self.task, self.facts = self.env.task, self.env.task.facts

    def run(self, solver: Callable[[McpTools], Any]) -> None:
        async def go() -> None:
            async with self.gym.mcp_client(self.env.id) as client:
                await solver(McpTools(client))

        asyncio.run(go())

    def call(self, tool: str, **arguments: Any) -> Any:
        found: list[Any] = []

        async def one(tools: McpTools) -> None:
            found.append(await tools.call(tool, **arguments))

        self.run(one)
        return found[0]

    def grade(self) -> dict[str, Any]:
        return self.gym.grade(self.env.id)

    def oracle_then(self, *steps: Callable[[McpTools], Any]) -> dict[str, Any]:
        """The task's oracle, then each step, in one MCP session; the grade."""
        async def go(tools: McpTools) -> None:
            await self.task.oracle(tools)
            for step in steps:
                await step(tools)

        self.run(go)
        return self.grade()

    def do(self, *steps: Callable[[McpTools], Any]) -> dict[str, Any]:
        """Each step, in order, in one MCP session; the grade."""
        async def go(tools: McpTools) -> None:
            for step in steps:
                await step(tools)

        self.run(go)
        return self.grade()

    def passes(self) -> bool:
        grade = self.grade()
        return grade["passed"] and grade["reward"] == 1.0

    def fails(self) -> bool:
        grade = self.grade()
        return not grade["passed"] and grade["reward"] < PASS_LINE


def facts_of(sampler: Gym, task: str, seed: int, variant: int) -> Any:
    """The facts of the instance `create(task, seed=seed, variant=variant)` makes, read on
    `sampler` (the `sampler` fixture: a gym where an env costs a file copy)."""
    env = sampler.create(task, seed=seed, variant=variant)
    try:
        return env.task.facts
    finally:
        sampler.delete(env.id)
