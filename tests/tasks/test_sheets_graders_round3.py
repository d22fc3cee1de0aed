"""Sheets graders, third round of adversary findings: where the task asks for formulas, every
asked cell must hold a formula that reads its own inputs and moves with them (constants such as
`=1234` or `="Q4"`, and formulas that name their inputs but ignore them, fail in every cell,
not just a sampled few); formula columns a task does not ask to change keep their formulas;
and a task's allowed cells are as wide as what it asks for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from apps.sheets.a1 import cell_name, column_letter

Make = Callable[..., Rollout]


def constant(value: Any) -> str:
    """A cell's shown value as a formula that reads nothing."""
    text = str(value).replace("$", "").replace(",", "")
    try:
        float(text)
        return f"={text}"
    except ValueError:
        return f'="{value}"'


def grid(r: Rollout, sheet: str, range_: str, formulas: bool = False) -> list[list[Any]]:
    if formulas:
        return r.call("get_sheet_formulas", spreadsheet_id=r.facts["spreadsheet"], sheet=sheet, range=range_)
    return r.call("get_sheet_data", spreadsheet_id=r.facts["spreadsheet"], sheet=sheet, range=range_)["valueRanges"][0]["values"]


def write(r: Rollout, sheet: str, range_: str, data: list[list[Any]]) -> None:
    r.call("update_cells", spreadsheet_id=r.facts["spreadsheet"], sheet=sheet, range=range_, data=data)


def as_constants(r: Rollout, sheet: str, range_: str, keep: Callable[[int], bool] = lambda _i: False) -> None:
    """The oracle's formulas in `range_` replaced by constant formulas of what they showed
    (one column), except the rows `keep` names."""
    shown = grid(r, sheet, range_)
    first = int("".join(ch for ch in range_.split(":")[0] if ch.isdigit()))
    letter = "".join(ch for ch in range_.split(":")[0] if ch.isalpha())
    for i, line in enumerate(shown):
        if not keep(i):
            write(r, sheet, f"{letter}{first + i}", [[constant(line[0] if line else "")]])


def oracle(r: Rollout) -> None:
    r.run(r.task.oracle)
    assert r.passes(), r.grade()


def deal_rows(r: Rollout) -> int:
    return len(grid(r, "Pipeline", "A2:A"))


# -- G2: constants typed where live formulas are asked -------------------------------------------
@pytest.mark.parametrize("variant", [0, 1, 2])
def test_fill_column_constant_formulas_fail_in_every_row_not_just_sampled_ones(rollout: Make, variant: int) -> None:
    r = rollout("sheets/fill-formula-column-v1", variant=variant)
    oracle(r)
    n, letter = deal_rows(r), r.facts["column"]
    middle = (n - 1) // 2
    as_constants(r, "Pipeline", f"{letter}2:{letter}{n + 1}", keep=lambda i: i in (0, middle, n - 1))  # the rows sampled before
    grade = r.grade()
    assert r.fails() and grade["reward"] == 0.0, grade
    assert all("does not read" in c["detail"] for c in grade["checks"]), grade["checks"]


def test_fill_column_close_quarter_constants_everywhere_fail(rollout: Make) -> None:
    """A month later usually stays in the quarter: the live check moves every close date three months."""
    r = rollout("sheets/fill-formula-column-v1", where=lambda f: f["computation"] == "Close quarter")
    oracle(r)
    n, letter = deal_rows(r), r.facts["column"]
    as_constants(r, "Pipeline", f"{letter}2:{letter}{n + 1}")
    assert r.grade()["reward"] == 0.0


def test_fill_column_a_formula_naming_its_input_but_ignoring_it_fails_the_live_check(rollout: Make) -> None:
    r = rollout("sheets/fill-formula-column-v1", where=lambda f: f["computation"] == "Close quarter")
    oracle(r)
    n, letter = deal_rows(r), r.facts["column"]
    shown = grid(r, "Pipeline", f"{letter}2:{letter}{n + 1}")
    write(r, "Pipeline", f"{letter}2:{letter}{n + 1}", [[f'=IF(G{i + 2}<>"","{line[0]}","")'] for i, line in enumerate(shown)])
    grade = r.grade()
    assert r.fails(), grade
    live = next(c for c in grade["checks"] if "follow" in c["name"])
    assert not live["passed"] and "when its inputs change" in live["detail"], live


def test_fill_column_remainder_moves_won_deals_too(rollout: Make) -> None:
    """A won deal's remainder is 0 whatever its amount: `=0` on those rows must still fail."""
    r = rollout("sheets/fill-formula-column-v1", where=lambda f: f["computation"] == "Unweighted remainder")
    oracle(r)
    n, letter = deal_rows(r), r.facts["column"]
    stages = grid(r, "Pipeline", f"E2:E{n + 1}")
    won = [i for i, line in enumerate(stages) if line and line[0] == "Closed Won"]
    assert won
    for i in won:
        write(r, "Pipeline", f"{letter}{i + 2}", [[f"=0*F{i + 2}*E{i + 2}"]])  # names Amount and Stage, reads neither
    assert r.fails(), r.grade()


@pytest.mark.parametrize("variant", [0, 1])
def test_fix_formula_constant_or_a_formula_only_naming_the_data_fails(rollout: Make, variant: int) -> None:
    r = rollout("sheets/fix-broken-formula-v1", variant=variant)
    oracle(r)
    cell = r.facts["cell"]
    value = grid(r, "Summary", cell)[0][0]
    write(r, "Summary", cell, [[constant(value)]])
    assert r.grade()["reward"] == 0.0, r.grade()
    write(r, "Summary", cell, [[f"{constant(value)}+0*SUM(Pipeline!F2:F5)"]])
    assert r.fails(), r.grade()


@pytest.mark.parametrize("cell, other", [("B12", "=COUNTA(Pipeline!A2:A200)"), ("C12", "=SUM(Pipeline!F2:F200)")])
def test_fix_formula_total_through_the_stage_rows_or_straight_from_the_deals_passes(rollout: Make, cell: str, other: str) -> None:
    """The seeded total reads the deals through the stage rows' formulas (read transitively);
    another total straight from the deals passes too; the live check moves the total count
    (a deal removed) as well as the amounts."""
    r = rollout("sheets/fix-broken-formula-v1", where=lambda f: f["cell"] == cell)
    write(r, "Summary", cell, [[r.facts["seeded"]]])
    assert r.passes(), r.grade()
    write(r, "Summary", cell, [[other]])
    assert r.passes(), r.grade()
    write(r, "Summary", cell, [[constant(grid(r, "Summary", cell)[0][0])]])
    assert r.grade()["reward"] == 0.0


@pytest.mark.parametrize("variant", [0, 1])
def test_reconcile_constant_flags_fail_even_if_most_rows_are_formulas(rollout: Make, variant: int) -> None:
    r = rollout("sheets/reconcile-tabs-v1", variant=variant)
    oracle(r)
    n = len(grid(r, "Invoices", "A2:A"))
    as_constants(r, "Invoices", f"C2:C{n + 1}", keep=lambda i: i < n - 1)  # one constant flag among formulas
    assert r.fails(), r.grade()


def test_reconcile_a_flag_comparing_the_bill_with_a_typed_amount_fails(rollout: Make) -> None:
    """Both sides move, in separate rounds: a flag that reads only the bill cannot follow the deal."""
    r = rollout("sheets/reconcile-tabs-v1")
    oracle(r)
    invoices = grid(r, "Invoices", "A2:C")
    formulas = grid(r, "Invoices", f"C2:C{len(invoices) + 1}", formulas=True)
    amounts = {line[0]: line[5] for line in grid(r, "Pipeline", "A2:F")}
    typed = {deal: str(amount).replace("$", "").replace(",", "") for deal, amount in amounts.items()}
    # =IF(B2=48800+0*VLOOKUP(A2,…),…): names the deal's amount, compares the bill with a typed number
    fake = [[formulas[i][0].replace(f"VLOOKUP(A{i + 2},", f"{typed[line[0]]}+0*VLOOKUP(A{i + 2},")] for i, line in enumerate(invoices)]
    write(r, "Invoices", f"C2:C{len(invoices) + 1}", fake)
    assert grid(r, "Invoices", "C2:C") == [[line[2]] for line in invoices]  # the same flags today
    assert r.fails(), r.grade()


@pytest.mark.parametrize("variant", [0, 1, 2, 3])
def test_summary_tab_any_constant_count_fails(rollout: Make, variant: int) -> None:
    r = rollout("sheets/summary-tab-v1", variant=variant)
    oracle(r)
    n = len(grid(r, r.facts["tab"], "A2:A"))
    as_constants(r, r.facts["tab"], f"B2:B{n + 1}", keep=lambda i: i > 0)  # one constant count
    assert r.fails(), r.grade()


def test_pivot_live_constants_fail_in_every_cell_including_empty_combinations(rollout: Make) -> None:
    r = rollout("sheets/pivot-summary-v1", where=lambda f: f["live"] and f["across"] == "Stage")
    oracle(r)
    tab = r.facts["tab"]
    shown = grid(r, tab, "A1:Z")
    width = len(shown[0])
    empty = [(i, j) for i, line in enumerate(shown) for j, v in enumerate([*line, *[""] * (width - len(line))])
             if i > 0 and j > 0 and str(v).replace("$", "").strip() in ("0", "0.00", "")]
    assert empty, "owners by stage have empty combinations"
    i, j = empty[-1]
    write(r, tab, cell_name(i, j), [["=0"]])  # one empty combination typed as 0
    assert r.fails(), r.grade()


def test_pivot_live_a_largest_group_value_nudged_moves_every_maximum(rollout: Make) -> None:
    r = rollout("sheets/pivot-summary-v1", where=lambda f: f["live"] and f["agg"] in ("max", "sum"))
    oracle(r)
    tab = r.facts["tab"]
    n = len(grid(r, tab, "A2:A"))
    as_constants(r, tab, f"B2:B{n + 1}", keep=lambda i: i != n // 2)
    assert r.fails(), r.grade()


# -- G3 / G4: formula columns the task does not ask to change ------------------------------------
def _pipeline_sort(facts: dict[str, Any]) -> bool:
    return facts["tab"] == "Pipeline"


@pytest.mark.parametrize("how", ["values", "zero", "constant"])
def test_sort_probability_column_pasted_over_fails(rollout: Make, how: str) -> None:
    r = rollout("sheets/sort-by-rule-v1", where=_pipeline_sort)
    oracle(r)
    n = deal_rows(r)
    shown = grid(r, "Pipeline", f"H2:H{n + 1}")
    if how == "values":
        data = [[float(str(line[0]).rstrip("%")) / 100] for line in shown]
    elif how == "zero":
        data = [[0]] * n
    else:  # formulas naming the stage, ignoring it
        data = [[f'=0*LEN(E{i + 2})+{float(str(line[0]).rstrip("%")) / 100}'] for i, line in enumerate(shown)]
    write(r, "Pipeline", f"H2:H{n + 1}", data)
    grade = r.grade()
    assert r.fails(), grade


def test_sort_rewriting_typed_columns_keeps_formulas_and_passes(rollout: Make) -> None:
    r = rollout("sheets/sort-by-rule-v1", where=_pipeline_sort)
    r.run(r.task.alternatives[0])
    assert r.passes(), r.grade()


def test_filter_copy_with_the_whole_table_pasted_beside_fails(rollout: Make) -> None:
    r = rollout("sheets/filter-by-rule-v1", where=lambda f: f["mode"] == "copy")
    oracle(r)
    table = grid(r, r.facts["tab"], "A1:I")
    width = max(len(line) for line in table)
    data = [[*line, *[""] * (width - len(line))] for line in table]
    write(r, r.facts["title"], f"L1:{column_letter(11 + width - 1)}{len(data)}", data)
    assert r.fails(), r.grade()


def test_filter_copy_of_whole_rows_with_their_formula_columns_still_passes(rollout: Make) -> None:
    """The task names columns A to G, but copying whole rows (Probability, Weighted too) is the rows asked for."""
    r = rollout("sheets/filter-by-rule-v1", where=lambda f: f["mode"] == "copy")
    oracle(r)
    n = r.facts["rows"]
    source = grid(r, r.facts["tab"], "A1:I")
    copied = grid(r, r.facts["title"], f"A1:A{n + 1}")
    keep = [next(line for line in source if line and line[0] == c[0]) for c in copied]
    write(r, r.facts["title"], f"H1:I{n + 1}", [[*line[7:9], *[""] * (2 - len(line[7:9]))] for line in keep])
    assert r.passes(), r.grade()


def test_filter_delete_then_wiping_a_formula_column_fails(rollout: Make) -> None:
    r = rollout("sheets/filter-by-rule-v1", where=lambda f: f["mode"] == "delete")
    oracle(r)
    n = r.facts["rows"]
    write(r, r.facts["tab"], f"I2:I{n + 1}", [[""]] * n)
    grade = r.grade()
    assert r.fails() and "formula" in grade["checks"][1]["detail"], grade


def test_filter_delete_with_deleted_rows_keeps_formulas_moved_with_their_rows(rollout: Make) -> None:
    r = rollout("sheets/filter-by-rule-v1", where=lambda f: f["mode"] == "delete")
    r.run(r.task.alternatives[0])  # deleteDimension, bottom up
    assert r.passes(), r.grade()


def test_summary_tab_with_the_tickets_pasted_beside_fails(rollout: Make) -> None:
    r = rollout("sheets/summary-tab-v1")
    oracle(r)
    table = grid(r, "Tickets", "A1:I10")
    write(r, r.facts["tab"], f"D1:L{len(table)}", [[*line, *[""] * (9 - len(line))] for line in table])
    assert not r.grade()["passed"]
