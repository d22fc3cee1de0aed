"""Sheets graders, seventh round of adversary findings, each a real rollout through the env's MCP
tools:
- formulas that only match today's data: a count or total that reads only the rows its group
  holds now (`=(Tickets!C3="Bug")+(Tickets!C8="Bug")…`, `=Pipeline!F5+Pipeline!F17`) or a range
  cut off at the group's last row (`=COUNTIF(Tickets!C2:C40,A2)`) gives the right numbers and
  follows a row leaving its group, but not a row joining it. The live checks of the summary
  and pivot tabs now also have every group gain a row (from below its last one where the
  table has one), so such formulas fail while COUNTIF/SUMIFS/SUMPRODUCT over the data pass."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from apps.sheets.a1 import column_letter

Make = Callable[..., Rollout]


def grid(r: Rollout, sheet: str, range_: str) -> list[list[Any]]:
    return r.call("get_sheet_data", spreadsheet_id=r.facts["spreadsheet"], sheet=sheet, range=range_)["valueRanges"][0]["values"]


def write_tab(r: Rollout, data: list[list[Any]]) -> None:
    f = r.facts
    r.call("create_sheet", spreadsheet_id=f["spreadsheet"], title=f["tab"])
    r.call("update_cells", spreadsheet_id=f["spreadsheet"], sheet=f["tab"], range=f"A1:{column_letter(len(data[0]) - 1)}{len(data)}", data=data)


def _groups(r: Rollout, sheet: str, by: str, last: int, skip: Callable[[list[Any]], bool] = lambda _row: False) -> tuple[int, dict[str, list[int]]]:
    """The column of `by` on `sheet` and its labels → the sheet rows (1-based) holding each, as the data is now."""
    col = grid(r, sheet, "A1:J1")[0].index(by)
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(grid(r, sheet, f"A2:J{last}")):
        row = [*row, *[""] * 10]
        if row[col] not in ("", None) and not skip(row):
            groups.setdefault(row[col], []).append(i + 2)
    return col, groups


# -- summary-tab: counts that read only the rows each label holds today -------------------------
def _summary(r: Rollout, count: Callable[[str, list[int], int, int], str]) -> None:
    f = r.facts
    col, groups = _groups(r, "Tickets", f["field"], 200, (lambda row: row[4] == "Done") if f["scope"] == "open" else (lambda _row: False))
    letter = column_letter(col)
    data = [[f["field"], "Tickets"]]
    for label, rows in sorted(groups.items()):
        data.append([label, count(letter, rows, len(data) + 1, col)])
    write_tab(r, data)


@pytest.mark.parametrize("variant", [1, 3])
def test_summary_counts_of_the_rows_each_label_holds_today_fail(rollout: Make, variant: int) -> None:
    r = rollout("sheets/summary-tab-v1", seed=0, variant=variant)
    _summary(r, lambda letter, rows, n, _col: "=" + "+".join(f"(Tickets!{letter}{x}=A{n})*1" for x in rows))
    grade = r.grade()
    assert grade["reward"] < 0.5 and not grade["passed"], grade


@pytest.mark.parametrize("variant", [0, 1, 3])
def test_summary_counts_over_a_range_cut_at_the_labels_last_row_fail(rollout: Make, variant: int) -> None:
    r = rollout("sheets/summary-tab-v1", seed=0, variant=variant)
    _summary(r, lambda letter, rows, n, _col: f"=COUNTIF(Tickets!${letter}$2:${letter}${max(rows)},A{n})")
    grade = r.grade()
    assert grade["reward"] < 0.5 and not grade["passed"], grade


@pytest.mark.parametrize("variant", [0, 1, 3])
def test_summary_counts_over_whole_columns_still_pass(rollout: Make, variant: int) -> None:
    r = rollout("sheets/summary-tab-v1", seed=0, variant=variant)
    _summary(r, lambda letter, _rows, n, _col: f"=COUNTIF(Tickets!{letter}:{letter},$A{n})")
    assert r.passes(), r.grade()


# -- pivot-summary: live totals that read only the rows each group holds today ------------------
def _pivot(r: Rollout, cell: Callable[[str, str, list[int], int, str], str]) -> None:
    f = r.facts
    head = grid(r, f["data"], "A1:J1")[0]
    by, value = column_letter(head.index(f["rows"])), column_letter(head.index(f["value"]))
    _col, groups = _groups(r, f["data"], f["rows"], f["last_row"] + 1)
    data = [[f["rows"], f["value"]]]
    for label, rows in sorted(groups.items()):
        data.append([label, cell(by, value, rows, len(data) + 1, f["data"])])
    write_tab(r, data)


def _live_largest(f: dict) -> bool:
    return f["live"] and f["agg"] == "max" and f["across"] is None


def test_pivot_largest_of_the_rows_each_group_holds_today_fails(rollout: Make) -> None:
    r = rollout("sheets/pivot-summary-v1", where=_live_largest)
    last = r.facts["last_row"] + 1
    _pivot(r, lambda by, value, rows, _n, tab: "=MAX(" + ",".join(f"{tab}!{value}{x}" for x in rows) + f")+0*COUNTA({tab}!{by}2:{by}{last})")
    grade = r.grade()
    assert grade["reward"] < 0.5 and not grade["passed"], grade


def test_pivot_largest_over_a_range_cut_at_the_groups_last_row_fails(rollout: Make) -> None:
    r = rollout("sheets/pivot-summary-v1", where=_live_largest)
    _pivot(r, lambda by, value, rows, n, tab: f"=MAXIFS({tab}!${value}$2:${value}${max(rows)},{tab}!${by}$2:${by}${max(rows)},$A{n})")
    grade = r.grade()
    assert grade["reward"] < 0.5 and not grade["passed"], grade


def test_pivot_largest_over_the_whole_table_still_passes(rollout: Make) -> None:
    r = rollout("sheets/pivot-summary-v1", where=_live_largest)
    last = r.facts["last_row"] + 1
    _pivot(r, lambda by, value, _rows, n, tab: f"=MAXIFS({tab}!${value}$2:${value}${last},{tab}!${by}$2:${by}${last},$A{n})")
    assert r.passes(), r.grade()
