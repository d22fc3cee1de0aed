"""What recalculation keeps between edits (range reads, criteria tested against a range, the
positions a SUMIFS matches) never outlives the cells it was read from: after any sequence of
edits, every formula shows what a book built from the same cells and calculated whole shows,
open ranges counting blanks included (they end at the sheet's last used row, which a cell in
another column moves)."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from apps.sheets.formulas.aggregate_groups import unaffected_among
from apps.sheets.formulas.aggregates import unaffected
from apps.sheets.formulas.engine import Book, Key, SheetInfo

CATEGORIES: list[Any] = ["a", "b", "c", "", "A", 1.0, 2.0, True, None, "x*", "b?"]
CRITERIA = ['"a"', '"<>a"', '">1"', '"<=2"', '""', '"b*"', "TRUE", "1", '"=b"', "Sum!A1", "Sum!A2", '"<>"']


def _formulas(rng: random.Random) -> list[str]:
    out = []
    for i in range(50):
        c1, c2 = rng.choice(CRITERIA), rng.choice(CRITERIA)
        out.append(rng.choice([
            f"=SUMIF(Data!A1:A40,{c1},Data!C1:C40)", f"=SUMIF(Data!$A$1:$A$40,{c1},Data!$C$1:$C$20)", f"=COUNTIF(Data!A1:A45,{c1})", '=SUMIF(Data!A:A,"a",Data!C:C)',
            f"=SUMIFS(Data!C1:C40,Data!A1:A40,{c1},Data!B1:B40,{c2})", f"=COUNTIFS(Data!A1:A40,{c1},Data!B1:B40,{c2})",
            f"=IFERROR(AVERAGEIFS(Data!C1:C40,Data!A1:A40,{c1}),-1)", f"=MAXIFS(Data!C1:C40,Data!B1:B40,{c2})", "=SUM(Data!C:C)",
            f"=SUMIF(Data!B1:B40,{c1})", f"=COUNTIFS(Data!A1:A40,{c1},Data!B1:B30,{c2})", f"=B{i}+1" if i else "=1",
            f"=MINIFS(Data!C1:C40,Data!A1:A40,{c1})", "=COUNTA(Data!A:A)+MAX(Data!C1:C45)", f"=SUMIF(Data!D1:D40,{c1},Data!C1:C40)",
            # computed columns summed and tested (E = C*2, F from B and A), criteria computed on the summary tab
            f"=SUMIFS(Data!E1:E40,Data!F1:F40,{c1},Data!A1:A40,{c2})", "=SUMIF(Data!F1:F40,Sum!C1,Data!E1:E40)",
            "=AVERAGEIFS(Data!C1:C40,Data!F1:F40,Sum!C2)", "=SUMIF(Data!A1:A40,Sum!C1,Data!C1:C40)*2",
            # a range both summed and tested, and a criterion inside the summed range
            f"=SUMIFS(Data!C1:C40,Data!C1:C40,{c1})", '=SUMIF(Data!C1:C40,">0",Data!C1:C40)', "=SUMIF(Data!B1:B40,Data!C5,Data!C1:C40)",
            # open ranges whose answer depends on where they end
            f"=COUNTIF(Data!A:A,{c1})", "=COUNTBLANK(Data!B:B)", "=ROWS(Data!C:C)"]))
    return out


def _book(inputs: dict[Key, Any], formulas: dict[Key, str]) -> Book:
    book = Book([SheetInfo(0, "Data", 100, 10), SheetInfo(1, "Sum", 100, 10)], now=datetime(2026, 1, 1))
    for key, value in inputs.items():
        book.set_input(key, value)
    for key, text in formulas.items():
        book.set_formula(key, text)
    book.recalc_all()
    return book


def _shown(book: Book) -> dict[Key, str]:
    return {key: repr(book.get(key)) for key in book.formulas}


def _edit(book: Book, inputs: dict[Key, Any], key: Key, value: Any) -> None:
    """Type `value` at `key` (None empties it) in the book, recalculated, and in `inputs`."""
    book.set_input(key, value)
    book.recalc({key}, include_self=True)
    if value is None:
        inputs.pop(key, None)
    else:
        inputs[key] = value


def _kept_as_one_by_one(book: Book, cell: Key, where: Any) -> set[Key]:
    """The aggregates `cell` cannot move, found by `unaffected_among` — asserted to be what
    testing each reader alone finds."""
    readers = [k for k in book.dependants(cell) if k in book.aggregates]
    one_by_one = {k for k in readers if unaffected(book, k, cell)}
    assert unaffected_among(book, readers, cell) == one_by_one, where
    return one_by_one


def test_edits_recalculated_one_by_one_give_what_a_whole_calculation_gives() -> None:
    for seed in range(8):
        rng = random.Random(seed)
        inputs: dict[Key, Any] = {(1, 0, 0): "a", (1, 1, 0): 2.0}
        for r in range(40):
            inputs[(0, r, 0)] = rng.choice(CATEGORIES)
            inputs[(0, r, 1)] = rng.choice([1.0, 2.0, 3.0, "b", None, True])
            inputs[(0, r, 2)] = rng.choice([rng.uniform(-100, 100), None, "t", 5.0])
        inputs = {k: v for k, v in inputs.items() if v is not None}
        formulas = {(1, i, 1): text for i, text in enumerate(_formulas(rng))}
        for r in range(40):
            formulas[(0, r, 4)] = f"=IFERROR(C{r + 1}*2,0)"
            formulas[(0, r, 5)] = f'=IF(B{r + 1}="b","a",A{r + 1}&"")'
        formulas[(1, 0, 2)] = "=Sum!A1"
        formulas[(1, 1, 2)] = '=IF(Sum!A2>1,"a","b")'
        book = _book(inputs, formulas)
        for step in range(40):
            # Mostly the criteria and summed columns; now and then a cell past the table (the
            # open ranges grow) or a criterion on the summary tab; sometimes a cell emptied.
            key = (0, rng.randrange(44), rng.randrange(4)) if rng.random() < 0.9 else (1, rng.randrange(2), 0)
            value = None if rng.random() < 0.15 else rng.choice([*CATEGORIES, rng.uniform(-5, 5)])
            _edit(book, inputs, key, value)
            assert _shown(book) == _shown(_book(inputs, formulas)), (seed, step, key, value)


def test_the_aggregates_a_cell_cannot_move_are_found_in_one_sweep_as_one_by_one() -> None:
    for seed in range(6):
        rng = random.Random(100 + seed)
        inputs: dict[Key, Any] = {(1, 0, 0): "a", (1, 1, 0): 2.0}
        for r in range(40):
            inputs[(0, r, 0)] = rng.choice(CATEGORIES)
            inputs[(0, r, 1)] = rng.choice([1.0, 2.0, 3.0, "b", None, True])
            inputs[(0, r, 2)] = rng.choice([rng.uniform(-100, 100), None, "t", 5.0])
        formulas = {(1, i, 1): text for i, text in enumerate(_formulas(rng))}
        book = _book({k: v for k, v in inputs.items() if v is not None}, formulas)
        tested = 0
        for _ in range(60):
            cell = (0, rng.randrange(44), rng.randrange(4)) if rng.random() < 0.9 else (1, rng.randrange(2), 0)
            tested += len(_kept_as_one_by_one(book, cell, (seed, cell)))
        assert tested > 0  # some were left out: the sweep was tested on both answers


# What a summary column's criterion cells may hold: plain text in any case, text that only
# Unicode case folding matches ("dıane" matches "DIANE", the Kelvin sign matches "k"),
# wildcards, operators, numbers, dates, booleans, blanks, and errors.
SUMMARY_CRITERIA: list[Any] = ["a", "A", "b", "diane", "DIANE", "d\u0131ane", "\u212aate", "kate", "b*", "<>a", ">1", "1", 2.0,
                               "2026-01-05", True, "TRUE", "", None, "=FORMULA_ERROR"]
SUMMARY_VALUES: list[Any] = ["a", "A", "b", "c", "Diane", "d\u0131ane", "KATE", "kate", "b1", 1.0, 2.0, "1", True, "", None]


def _summary_book(rng: random.Random) -> tuple[Book, dict[Key, Any], dict[Key, str]]:
    """A table (Data!A:C) and a summary column per frame on Sum: SUMIF(A, Sum!A<k>, C),
    SUMIFS(C, A, Sum!A<k>, B, "<>b") and COUNTIFS(B, Sum!A<k>, A, Sum!A<k+1>), one row each;
    and a few SUMIF(A, Data!C<k>, C), whose criterion is a cell they sum."""
    inputs: dict[Key, Any] = {}
    formulas: dict[Key, str] = {}
    for r in range(30):
        inputs[(0, r, 0)] = rng.choice(SUMMARY_VALUES)
        inputs[(0, r, 1)] = rng.choice(SUMMARY_VALUES)
        inputs[(0, r, 2)] = rng.choice([rng.uniform(-50, 50), 3.0, None, "t", "a", "b"])
    for k in range(5):  # criteria inside the summed range itself
        formulas[(1, 20 + k, 1)] = f"=SUMIF(Data!$A$1:$A$30,Data!C{k + 1},Data!$C$1:$C$30)"
    for k in range(12):
        criterion = rng.choice(SUMMARY_CRITERIA)
        if criterion == "=FORMULA_ERROR":
            formulas[(1, k, 0)] = "=1/0"
        else:
            inputs[(1, k, 0)] = criterion
        formulas[(1, k, 1)] = f"=SUMIF(Data!$A$1:$A$30,A{k + 1},Data!$C$1:$C$30)"
        formulas[(1, k, 2)] = f'=SUMIFS(Data!$C$1:$C$30,Data!$A$1:$A$30,A{k + 1},Data!$B$1:$B$30,"<>b")'
        formulas[(1, k, 3)] = f"=COUNTIFS(Data!$B$1:$B$30,A{k + 1},Data!$A$1:$A$30,A{k + 2})"
    inputs = {k: v for k, v in inputs.items() if v is not None}
    return _book(inputs, formulas), inputs, formulas


def test_a_summary_column_is_judged_by_group_as_one_by_one_while_its_criteria_change() -> None:
    """The grouped answer (aggregate_groups.py) is the one-by-one answer for every cell of the
    table and the summary, after edits to amounts, tested columns and the criterion cells
    themselves (which the groups read, so an edit there must not leave them stale)."""
    for seed in range(6):
        rng = random.Random(300 + seed)
        book, inputs, formulas = _summary_book(rng)
        tested = grouped = 0
        for step in range(50):
            if rng.random() < 0.3:
                key = (1, rng.randrange(12), 0)  # a criterion cell
                value = rng.choice([v for v in SUMMARY_CRITERIA if v != "=FORMULA_ERROR"])
            else:
                key = (0, rng.randrange(30), rng.randrange(3))
                value = rng.choice(SUMMARY_VALUES) if key[2] < 2 else rng.choice([rng.uniform(-50, 50), None, "t", "a", "b"])
            formulas.pop(key, None)
            _edit(book, inputs, key, value)
            for cell in [(0, rng.randrange(30), rng.randrange(3)) for _ in range(6)] + [(0, rng.randrange(5), 2), key]:
                tested += len(_kept_as_one_by_one(book, cell, (seed, step, cell)))
                readers = [k for k in book.dependants(cell) if k in book.aggregates]
                grouped_keys = {k for groups in book.aggregate_groups().by_column.values() for group in groups for k in group.members}
                grouped += sum(1 for k in readers if k in grouped_keys)
            assert _shown(book) == _shown(_book(inputs, formulas)), (seed, step, key, value)
        assert tested > 0 and grouped > 0  # both answers seen, and the groups did judge
