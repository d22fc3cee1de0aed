"""`officegym tasks validate`: prove every family's grader honest, on every seed and variant.

For each (family, seed, variant), each in a fresh env acting through the official MCP client
(in-process, the same tool server agents reach over HTTP):
- the oracle must score 1.0 and pass;
- every alternative correct solution must pass;
- doing nothing must score 0.0;
- every adversary of the suite (tasks.common.adversaries) must score below the pass line and
  not pass.
It prints a table (family × solver: the oracle's and alternatives' lowest reward, each
adversary's highest) and returns the failures.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from graders.rubric import PASS_LINE
from officegym.gym import Gym
from tasks import registry
from tasks.base import Solution, TaskInstance, ToolError, Tools
from tasks.common.adversaries import ADVERSARIES, Adversary


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


def server_for(family_id: str) -> str:
    """The MCP server a family's solutions use: the tools of the apps the family lives in
    ("crm", or "chat+crm" when it spans two), a shorter listing than `all`'s, which the SDK
    client fetches and checks once per session."""
    family = registry.get(family_id)
    return "+".join(family.apps)


async def run_oracle(gym: Gym, env_id: str) -> None:
    env = gym.get(env_id)
    async with gym.mcp_client(env_id, server_for(env.task_id)) as client:
        await env.task.oracle(McpTools(client))


def validate(
    seeds: int, size: str, only: list[str] | None, echo: Callable[[str], None], variants: int = 1
) -> list[str]:
    families = [registry.get(f) for f in only] if only else list(registry.all_families())
    failures: list[str] = []
    scores: dict[str, dict[str, list[float]]] = {f.id: {} for f in families}
    with tempfile.TemporaryDirectory(prefix="officegym-validate-") as tmp:
        gym = Gym(envs_dir=Path(tmp))
        try:
            with Progress(transient=False) as progress:
                bar = progress.add_task("validating", total=len(families) * seeds * variants)
                for family in families:
                    for seed in range(seeds):
                        for variant in range(variants):
                            progress.update(bar, description=f"{family.id} seed {seed} variant {variant}")
                            where = f"{family.id} seed {seed}" + (f" variant {variant}" if variants > 1 else "")
                            found = asyncio.run(_validate_one(gym, family.id, seed, size, variant, where, scores[family.id]))
                            failures.extend(found)
                            progress.advance(bar)
        finally:
            gym.close()
    console = Console()
    if console.width < 170:  # a pipe or a narrow terminal: keep the table readable in logs
        console = Console(width=170)
    console.print(_table(scores))
    for failure in failures:
        echo(f"FAIL {failure}")
    label = "family×seed" if variants == 1 else "family×seed×variant"
    total = len(families) * seeds * variants
    if failures:
        echo(f"{total - len({f.split(':')[0] for f in failures})}/{total} {label} pairs valid")
    else:
        echo(f"all {total} {label} pairs valid: oracle 1.0, alternatives pass, do-nothing 0.0, "
             f"every adversary below {PASS_LINE} and failing")
    return failures


async def _validate_one(gym: Gym, family_id: str, seed: int, size: str, variant: int, where: str,
                        scores: dict[str, list[float]]) -> list[str]:
    problems: list[str] = []
    alternatives: list[Solution] = []

    async def attempt(column: str, act: Callable[[TaskInstance, Tools], Any]) -> dict[str, Any] | None:
        try:
            env = gym.create(family_id, seed=seed, size=size, variant=variant)
        except Exception as error:
            problems.append(f"{where}: {column}: the task could not be created: {_short(error)}")
            return None
        alternatives[:] = env.task.alternatives
        try:
            async with gym.mcp_client(env.id) as client:
                await act(env.task, McpTools(client))
            grade = gym.grade(env.id)
        except Exception as error:  # report, keep validating the rest
            problems.append(f"{where}: {column} raised {type(_unwrap(error)).__name__}: {_short(_unwrap(error))}")
            return None
        finally:
            gym.delete(env.id)
        scores.setdefault(column, []).append(grade["reward"])
        return grade

    grade = await attempt("oracle", lambda instance, tools: instance.oracle(tools))
    if grade is not None and (grade["reward"] != 1.0 or not grade["passed"]):
        problems.append(f"{where}: oracle got reward {grade['reward']} — {_why(grade)}")
    if grade is not None and not alternatives:
        problems.append(f"{where}: the family ships no alternative correct solution")
    for index, alternative in enumerate(list(alternatives)):
        name = getattr(alternative, "__name__", f"#{index + 1}")
        grade = await attempt("alt", lambda instance, tools, i=index: instance.alternatives[i](tools))
        if grade is not None and (grade["reward"] != 1.0 or not grade["passed"]):
            problems.append(f"{where}: alternative {name} got reward {grade['reward']} — {_why(grade)}")
    for name, adversary in ADVERSARIES.items():
        grade = await attempt(name, _as_act(adversary))
        if grade is None:
            continue
        if name == "do-nothing" and (grade["reward"] != 0.0 or grade["passed"]):
            problems.append(f"{where}: doing nothing got reward {grade['reward']} — {_why(grade, want_fail=False)}")
        elif grade["reward"] >= PASS_LINE or grade["passed"]:
            problems.append(f"{where}: adversary {name} got reward {grade['reward']} — {_why(grade, want_fail=False)}")
    return problems


def _as_act(adversary: Adversary) -> Callable[[TaskInstance, Tools], Any]:
    return lambda instance, tools: adversary(instance, tools)


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]  # the SDK's task groups wrap the solver's own error
    return error


def _short(error: BaseException, limit: int = 400) -> str:
    text = str(error)
    return text if len(text) <= limit else f"{text[: limit // 2]} … {text[-limit // 2 :]}"


def _why(grade: dict[str, Any], want_fail: bool = True) -> str:
    checks = [c for c in grade["checks"] if c["passed"] != want_fail]
    parts = [f"{c['name']}: {c['detail']}" for c in checks]
    parts += [f"collateral {c['table']} {c['key']} {c['change']}" for c in grade["collateral"][:5]]
    return "; ".join(parts) or "no detail"


def _table(scores: dict[str, dict[str, list[float]]]) -> Table:
    table = Table(title=f"tasks validate — oracle/alt: lowest reward (must be 1.0); adversaries: highest (must be < {PASS_LINE})")
    columns = ["oracle", "alt", *ADVERSARIES]
    table.add_column("family", no_wrap=True, min_width=max((len(f) for f in scores), default=6))
    for column in columns:
        # Hyphenated names break after their hyphens, so a header is never cut short.
        header = column.replace("-", "-\n")
        table.add_column(header, justify="right", min_width=max(len(part) for part in header.split("\n")))
    for family, by_column in scores.items():
        cells = []
        for column in columns:
            values = by_column.get(column)
            if not values:
                cells.append("—")
                continue
            solver = column in ("oracle", "alt")
            value = min(values) if solver else max(values)
            good = value == 1.0 if solver else (value == 0.0 if column == "do-nothing" else value < PASS_LINE)
            cells.append(f"[{'green' if good else 'red'}]{value:.2f}[/]")
        table.add_row(family, *cells)
    return table

