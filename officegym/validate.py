"""`officegym tasks validate`: every family's oracle scores 1.0, doing nothing scores 0.0.

Each (family, seed) gets two fresh envs: one where the oracle acts through the official MCP
client (in-process, the same tool server agents reach over HTTP) and one left untouched.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.progress import Progress

from officegym.gym import Gym
from tasks import registry
from tasks.base import ToolError


class McpTools:
    """The `Tools` an oracle uses: official MCP client calls, results parsed from JSON."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def call(self, tool: str, /, **arguments: Any) -> Any:
        result = await self.client.call_tool(tool, arguments)
        text = "".join(getattr(item, "text", "") for item in result.content)
        if result.is_error:
            raise ToolError(f"{tool}({arguments}) failed: {text}")
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text


async def run_oracle(gym: Gym, env_id: str) -> None:
    env = gym.get(env_id)
    async with gym.mcp_client(env_id) as client:
        await env.task.oracle(McpTools(client))


def validate(seeds: int, size: str, only: list[str] | None, echo: Callable[[str], None]) -> list[str]:
    families = [registry.get(f) for f in only] if only else list(registry.all_families())
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="officegym-validate-") as tmp:
        gym = Gym(envs_dir=Path(tmp))
        with Progress(transient=False) as progress:
            bar = progress.add_task("validating", total=len(families) * seeds)
            for family in families:
                for seed in range(seeds):
                    progress.update(bar, description=f"{family.id} seed {seed}")
                    failures.extend(_validate_one(gym, family.id, seed, size))
                    progress.advance(bar)
        gym.close()
    for failure in failures:
        echo(f"FAIL {failure}")
    total = len(families) * seeds
    echo(f"{total - len({f.split(':')[0] for f in failures})}/{total} family×seed pairs valid" if failures else f"all {total} family×seed pairs valid: oracle 1.0, do-nothing 0.0")
    return failures


def _validate_one(gym: Gym, family_id: str, seed: int, size: str) -> list[str]:
    where = f"{family_id} seed {seed}"
    problems = []
    solved = gym.create(family_id, seed=seed, size=size)
    try:
        asyncio.run(run_oracle(gym, solved.id))
        grade = gym.grade(solved.id)
        if grade["reward"] != 1.0 or not grade["passed"]:
            problems.append(f"{where}: oracle got reward {grade['reward']} — {_why(grade)}")
    except Exception as error:  # report, keep validating the rest
        while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]  # the SDK's task groups wrap the oracle's own error
        problems.append(f"{where}: oracle raised {type(error).__name__}: {error}")
    finally:
        gym.delete(solved.id)
    idle = gym.create(family_id, seed=seed, size=size)
    try:
        grade = gym.grade(idle.id)
        if grade["reward"] != 0.0 or grade["passed"]:
            problems.append(f"{where}: doing nothing got reward {grade['reward']} — {_why(grade, want_fail=False)}")
    finally:
        gym.delete(idle.id)
    return problems


def _why(grade: dict[str, Any], want_fail: bool = True) -> str:
    checks = [c for c in grade["checks"] if c["passed"] != want_fail]
    parts = [f"{c['name']}: {c['detail']}" for c in checks]
    parts += [f"collateral {c['table']} {c['key']} {c['change']}" for c in grade["collateral"]]
    return "; ".join(parts) or "no detail"
