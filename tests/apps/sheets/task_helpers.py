"""Driving a task's env through the agent's MCP tools in tests: create the variant a test needs,
call tools, run one of the instance's solutions."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from officegym.core.env_store import Env
from officegym.gym import Gym
from officegym.validate import McpTools


def create_where(gym: Gym, task: str, wanted: Callable[[dict[str, Any]], bool], toolset: str | None = None, tries: int = 60) -> Env:
    """The first variant whose facts satisfy `wanted` (other envs made on the way are deleted)."""
    for variant in range(tries):
        env = gym.create(task, variant=variant, toolset=toolset)
        if wanted(env.task.facts):
            return env
        gym.delete(env.id)
    raise LookupError(f"no variant of {task} in 0..{tries - 1} fits")


def act(gym: Gym, env_id: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    """Each call's parsed result; a call that fails raises its ToolError (not the SDK's task-group wrapper)."""
    async def run() -> list[Any]:
        async with gym.mcp_client(env_id) as client:
            tools = McpTools(client)
            return [await tools.call(name, **args) for name, args in calls]

    try:
        return asyncio.run(run())
    except BaseExceptionGroup as group:
        error: BaseException = group
        while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        raise error from None


def solve(gym: Gym, env_id: str, solution: Any) -> None:
    async def run() -> None:
        async with gym.mcp_client(env_id) as client:
            await solution(McpTools(client))

    asyncio.run(run())
