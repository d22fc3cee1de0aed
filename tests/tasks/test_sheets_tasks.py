"""Sheets task families graded from state: a formula written another way passes, the right
numbers typed in fail where formulas are asked for, and the grader sees UI-free MCP edits."""

from __future__ import annotations

import asyncio
from typing import Any

from officegym.gym import Gym
from officegym.validate import McpTools


def act(gym: Gym, env_id: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    async def run() -> list[Any]:
        async with gym.mcp_client(env_id) as client:
            tools = McpTools(client)
            return [await tools.call(name, **args) for name, args in calls]

    return asyncio.run(run())


def test_fill_column_grades_computed_results_not_formula_text(gym: Gym) -> None:
    env = gym.create("sheets/fill-formula-column-v1", variant=0)
    try:
        facts = env.task.facts
        sid, letter = facts["spreadsheet"], facts["column"]
        rows = act(gym, env.id, ("get_sheet_data", {"spreadsheet_id": sid, "sheet": "Pipeline", "range": "A1:A"}))[0]["valueRanges"][0]["values"]
        last = len(rows)
        asyncio.run(_solve(gym, env.id, env.task.alternatives[0]))
        assert gym.grade(env.id)["passed"] is True
        # Now replace the formulas by the very numbers they computed: no longer a formula column.
        shown = act(gym, env.id, ("get_sheet_data", {"spreadsheet_id": sid, "sheet": "Pipeline", "range": f"{letter}2:{letter}{last}"}))[0]
        values = [[row[0] if row else ""] for row in shown["valueRanges"][0]["values"]]
        act(gym, env.id, ("update_cells", {"spreadsheet_id": sid, "sheet": "Pipeline", "range": f"{letter}2:{letter}{last}", "data": values}))
        grade = gym.grade(env.id)
        assert grade["passed"] is False and grade["reward"] < 0.5
        assert any("not a formula" in c["detail"] for c in grade["checks"]), grade["checks"]
    finally:
        gym.delete(env.id)


async def _solve(gym: Gym, env_id: str, solution: Any) -> None:
    async with gym.mcp_client(env_id) as client:
        await solution(McpTools(client))


def test_fix_formula_setup_breaks_the_cell_and_an_equivalent_fix_passes(gym: Gym) -> None:
    env = gym.create("sheets/fix-broken-formula-v1", variant=1)
    try:
        facts = env.task.facts
        formula = act(gym, env.id, ("get_sheet_formulas", {"spreadsheet_id": facts["spreadsheet"], "sheet": "Summary", "range": facts["cell"]}))[0]
        assert formula == [[facts["broken"]]] and formula != [[facts["seeded"]]]
        assert gym.grade(env.id)["reward"] == 0.0
        equivalent = facts["seeded"].replace("$", "")  # relative instead of absolute references
        act(gym, env.id, ("update_cells", {"spreadsheet_id": facts["spreadsheet"], "sheet": "Summary", "range": facts["cell"], "data": [[equivalent]]}))
        grade = gym.grade(env.id)
        assert grade["passed"] is True and grade["reward"] == 1.0, grade
    finally:
        gym.delete(env.id)
