"""sheets/pivot-summary-v1 graded from the final book: the Excel toolset's create_pivot_table
solves it, numbers typed where a live summary is asked fail, and where plain numbers are asked
typed numbers pass but a wrong group fails."""

from __future__ import annotations

from typing import Any

from officegym.gym import Gym
from tests.apps.sheets.task_helpers import act, create_where, solve

TASK = "sheets/pivot-summary-v1"


def test_create_pivot_table_from_the_excel_toolset_passes_a_live_variant(gym: Gym) -> None:
    env = create_where(gym, TASK, lambda f: f["live"] and f["across"] is not None, toolset="excel")
    try:
        f = env.task.facts
        assert gym.grade(env.id)["reward"] == 0.0
        act(gym, env.id, ("create_pivot_table", {
            "spreadsheet_id": f["spreadsheet"], "sheet_name": f["data"], "data_range": f"A1:I{f['last_row']}", "rows": [f["rows"]],
            "values": [f["value"]], "columns": [f["across"]], "agg_func": f["agg"], "target_sheet": f["tab"]}))
        grade = gym.grade(env.id)
        assert grade["passed"] is True and grade["reward"] == 1.0, grade
    finally:
        gym.delete(env.id)


def _typed_copy(gym: Gym, env_id: str, facts: dict[str, Any]) -> list[list[Any]]:
    """Solve with the oracle, then overwrite every computed cell with the number it shows."""
    sid, tab = facts["spreadsheet"], facts["tab"]
    shown = act(gym, env_id, ("get_sheet_data", {"spreadsheet_id": sid, "sheet": tab}))[0]["valueRanges"][0]["values"]
    return [shown[0], *[[row[0], *(float(str(v).replace(",", "").replace("$", "") or 0) for v in row[1:])] for row in shown[1:]]]


def test_numbers_typed_in_fail_where_the_summary_must_stay_live(gym: Gym) -> None:
    env = create_where(gym, TASK, lambda f: f["live"] and f["agg"] in ("sum", "count") and f["value"] != "Weighted")
    try:
        solve(gym, env.id, env.task.oracle)
        assert gym.grade(env.id)["passed"] is True
        typed = _typed_copy(gym, env.id, env.task.facts)
        width = chr(ord("A") + len(typed[0]) - 1)
        act(gym, env.id, ("update_cells", {"spreadsheet_id": env.task.facts["spreadsheet"], "sheet": env.task.facts["tab"],
                                           "range": f"A1:{width}{len(typed)}", "data": typed}))
        grade = gym.grade(env.id)
        table, live = grade["checks"]
        assert table["passed"] is True, table  # the numbers are right…
        assert live["passed"] is False and "typed in" in live["detail"]  # …but not live
        assert grade["reward"] < 0.5 and grade["passed"] is False
    finally:
        gym.delete(env.id)


def test_plain_numbers_pass_where_asked_and_a_missing_group_fails(gym: Gym) -> None:
    env = create_where(gym, TASK, lambda f: not f["live"] and f["across"] is None)
    try:
        assert "Plain numbers are fine" in env.task.prompt
        solve(gym, env.id, env.task.alternatives[0])  # numbers summed by hand from what the data tab shows
        grade = gym.grade(env.id)
        assert grade["passed"] is True and [c["name"] for c in grade["checks"]] == [env.task.checks[0].name], grade
        f = env.task.facts
        last = len(act(gym, env.id, ("get_sheet_data", {"spreadsheet_id": f["spreadsheet"], "sheet": f["tab"]}))[0]["valueRanges"][0]["values"])
        act(gym, env.id, ("update_cells", {"spreadsheet_id": f["spreadsheet"], "sheet": f["tab"], "range": f"A{last}:B{last}", "data": [["", ""]]}))
        grade = gym.grade(env.id)
        assert grade["passed"] is False and "missing" in grade["checks"][0]["detail"], grade
    finally:
        gym.delete(env.id)
