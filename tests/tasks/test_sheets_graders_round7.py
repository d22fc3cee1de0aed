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


# -- fix-broken-formula: the range fixed only as far as the stage's last deal --------------------
@pytest.mark.parametrize("variant", [3, 5, 8])
def test_fixed_formula_whose_range_stops_at_the_stages_last_deal_fails(rollout: Make, variant: int) -> None:
    """The broken total stopped short of the data; a fix that stops at the stage's last deal gives today's number but
    misses a deal that moves into the stage from further down."""
    r = rollout("sheets/fix-broken-formula-v1", seed=0, variant=variant)
    f = r.facts
    stage = grid(r, "Summary", f"A{f['cell'][1:]}")[0][0]
    last = max(i + 2 for i, row in enumerate(grid(r, "Pipeline", "A2:I200")) if len(row) > 4 and row[4] == stage)
    r.call("update_cells", spreadsheet_id=f["spreadsheet"], sheet="Summary", range=f["cell"], data=[[f["seeded"].replace("$61", f"${last}")]])
    grade = r.grade()
    assert grade["reward"] < 0.5 and not grade["passed"], grade


@pytest.mark.parametrize("variant", [3, 5, 8])
def test_fixed_formula_over_whole_columns_still_passes(rollout: Make, variant: int) -> None:
    r = rollout("sheets/fix-broken-formula-v1", seed=0, variant=variant)
    f = r.facts
    whole = f["seeded"].replace("$2:$", ":$").replace("$61", "")  # Pipeline!$E:$E
    r.call("update_cells", spreadsheet_id=f["spreadsheet"], sheet="Summary", range=f["cell"], data=[[whole]])
    assert r.passes(), r.grade()


# -- reconcile-tabs: the lookup done by hand ------------------------------------------------------
def _flag_words(r: Rollout) -> tuple[str, str]:
    import re

    return re.search(r'shows "([^"]+)"', r.task.prompt).group(1), re.search(r'and "([^"]+)" when they match', r.task.prompt).group(1)


@pytest.mark.parametrize("variant", [0, 1])
def test_flags_pointing_at_the_row_each_deal_holds_today_fail(rollout: Make, variant: int) -> None:
    """=IF(B2=Pipeline!F17,…) with F17 found by eye gives the right flags and follows both amounts, but the match was
    made by hand: re-order the Pipeline (sort it) and every flag compares another deal."""
    r = rollout("sheets/reconcile-tabs-v1", variant=variant)
    bad, ok = _flag_words(r)
    row_of = {line[0]: i + 2 for i, line in enumerate(grid(r, "Pipeline", "A2:F200")) if line}
    invoices = grid(r, "Invoices", "A2:B200")
    flags = [["Status"], *[[f'=IF(B{i + 2}=Pipeline!F{row_of[line[0]]},"{ok}","{bad}")'] for i, line in enumerate(invoices)]]
    r.call("update_cells", spreadsheet_id=r.facts["spreadsheet"], sheet="Invoices", range=f"C1:C{len(flags)}", data=flags)
    grade = r.grade()
    assert grade["reward"] < 0.5 and not grade["passed"], grade


@pytest.mark.parametrize("variant", [0, 1])
def test_flags_looking_the_deal_up_with_sumif_over_whole_columns_pass(rollout: Make, variant: int) -> None:
    r = rollout("sheets/reconcile-tabs-v1", variant=variant)
    bad, ok = _flag_words(r)
    n = len(grid(r, "Invoices", "A2:B200"))
    flags = [["Status"], *[[f'=IF(SUMIF(Pipeline!A:A,$A{i},Pipeline!F:F)=$B{i},"{ok}","{bad}")'] for i in range(2, n + 2)]]
    r.call("update_cells", spreadsheet_id=r.facts["spreadsheet"], sheet="Invoices", range=f"C1:C{len(flags)}", data=flags)
    assert r.passes(), r.grade()


# -- vandalism that leaves the data and hides it --------------------------------------------------
def _paint(r: Rollout, rows: tuple[int, int], text: dict, fill: dict | None = None) -> None:
    fmt: dict[str, Any] = {"textFormat": {"foregroundColor": text}, **({"backgroundColor": fill} if fill else {})}
    fields = "userEnteredFormat(textFormat,backgroundColor)" if fill else "userEnteredFormat.textFormat.foregroundColor"
    for tab in r.call("get_spreadsheet", spreadsheet_id=r.facts["spreadsheet"])["sheets"]:
        r.call("batch_update", spreadsheet_id=r.facts["spreadsheet"], requests=[{"repeatCell": {
            "range": {"sheetId": tab["properties"]["sheetId"], "startRowIndex": rows[0], "endRowIndex": rows[1], "startColumnIndex": 0,
                      "endColumnIndex": 12}, "cell": {"userEnteredFormat": fmt}, "fields": fields}}])


WHITE, NAVY = {"red": 1, "green": 1, "blue": 1}, {"red": 0.1, "green": 0.2, "blue": 0.5}


@pytest.mark.parametrize("family", ["sheets/sort-by-rule-v1", "sheets/update-from-crm-v1"])
def test_the_right_work_with_the_tables_text_painted_white_fails(rollout: Make, family: str) -> None:
    """Text the colour of its fill hides every value: formatting, but a reader sees an empty sheet (it scored 1.0)."""
    r = rollout(family)
    r.run(r.task.oracle)
    _paint(r, (1, 62), WHITE)
    grade = r.grade()
    assert grade["reward"] < 0.5 and not grade["passed"], grade


@pytest.mark.parametrize("family", ["sheets/sort-by-rule-v1", "sheets/update-from-crm-v1"])
def test_a_header_row_white_on_navy_still_passes(rollout: Make, family: str) -> None:
    r = rollout(family)
    r.run(r.task.oracle)
    _paint(r, (0, 1), WHITE, NAVY)
    assert r.passes(), r.grade()
