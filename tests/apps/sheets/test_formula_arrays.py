"""Functions of single values applied cell by cell over ranges and arrays, as Google Sheets does
inside FILTER, SUMPRODUCT and ARRAYFORMULA and Excel's dynamic arrays do anywhere: the pipeline
questions people ask of a sheet (`everything not Closed`, `the total of closed deals`) in the
shape they write them, against known values."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from apps.sheets.formulas.values import CellError, to_serial
from tests.apps.sheets.test_formulas import book_with

PIPELINE = [
    ["Stage", "Amount", "Owner", "Close"],
    ["Closed Won", 100, "ann", to_serial(datetime(2026, 1, 15))],
    ["Negotiation", 250, "bob", to_serial(datetime(2026, 2, 28))],
    ["Closed Lost", 75, " cy  lee ", to_serial(datetime(2025, 12, 3))],
    ["Prospecting", 300, "di", to_serial(datetime(2026, 3, 31))],
]
NA = "#N/A"


def results(formula: str, height: int = 4, width: int = 1) -> list[list[Any]]:
    """The formula written in F1 of the pipeline tab, and what shows in the cells it spills over."""
    rows = [row + [None] for row in PIPELINE]
    rows[0] += [formula]
    book = book_with({"Pipeline": rows})
    return [[_shown(book.get((0, r, 5 + c))) for c in range(width)] for r in range(height)]


def _shown(value: Any) -> Any:
    return value.code if isinstance(value, CellError) else value


SINGLE = [
    ('=SUMPRODUCT((LEFT(A2:A5,6)="Closed")*B2:B5)', 175), ('=SUMPRODUCT((LEFT(A2:A5,6)<>"Closed")*B2:B5)', 550),
    ('=SUM(--(LEFT(A2:A5,6)="Closed"))', 2), ("=SUM(LEN(TRIM(C2:C5)))", 14), ("=SUMPRODUCT((YEAR(D2:D5)=2026)*B2:B5)", 650),
    ('=SUMPRODUCT((MONTH(D2:D5)=3)*B2:B5)', 300),
    ('=SUM(VALUE({"1","2,000"}))', 2001), ('=SUM(IFERROR(1/(B2:B5-75),0))', 1 / 25 + 1 / 175 + 1 / 225),
    ("=SUMPRODUCT(ROUND(B2:B5/7,0))", 14 + 36 + 11 + 43), ('=SUM(IF(B2:B5>90,B2:B5,0))', 650),
    ('=LEN(A2)', 10), ('=LEFT(A2:A2,6)', "Closed"),
]


@pytest.mark.parametrize(("formula", "expected"), SINGLE, ids=[c[0] for c in SINGLE])
def test_scalar_functions_inside_aggregates_apply_to_each_cell(formula: str, expected: Any) -> None:
    got = results(formula, height=2)
    assert got[1] == [None], f"{formula} should give one value, not spill"
    if isinstance(expected, str):
        assert got[0][0] == expected
    else:
        assert got[0][0] == pytest.approx(expected), formula


SPILLS = [
    ('=FILTER(B2:B5, LEFT(A2:A5,6)<>"Closed")', [[250], [300], [None], [None]]),
    ('=FILTER(C2:C5, (LEFT(C2:C5,1)="a")+(B2:B5>=300))', [["ann"], ["di"], [None], [None]]),
    ("=UPPER(C2:C5)", [["ANN"], ["BOB"], [" CY  LEE "], ["DI"]]),
    ("=LEN(C2:C5)>3", [[False], [False], [True], [False]]),
    ("=ROUND(B2:B5/7,1)", [[14.3], [35.7], [10.7], [42.9]]),
    ('=IF(B2:B5>90,"big","small")', [["big"], ["big"], ["small"], ["big"]]),
    ('=IFERROR(100/(B2:B5-75),"none")', [[4.0], [100 / 175], ["none"], [100 / 225]]),
    ("=ISERROR(1/(B2:B5-75))", [[False], [False], [True], [False]]),
    ("=ARRAYFORMULA(UPPER(LEFT(A2:A5,1))&B2:B5)", [["C100"], ["N250"], ["C75"], ["P300"]]),
    ("=TEXT(D2:D5,\"yyyy-mm\")", [["2026-01"], ["2026-02"], ["2025-12"], ["2026-03"]]),
    ("=LEFT(A2:A5,{1;3})", [["C"], ["Neg"], [NA], [NA]]),  # arrays of different sizes: #N/A past the smaller one
    ("=ABS(B2:B3-200)", [[100], [50], [None], [None]]),
]


@pytest.mark.parametrize(("formula", "expected"), SPILLS, ids=[s[0] for s in SPILLS])
def test_scalar_functions_over_ranges_spill_one_result_per_cell(formula: str, expected: list[list[Any]]) -> None:
    got = results(formula)
    assert got == [[pytest.approx(v) if isinstance(v, float) else v for v in row] for row in expected], formula


def test_a_row_of_arguments_against_one_value_spills_across() -> None:
    assert results('=LEFT("Pipeline",{1,4,8})', height=1, width=4) == [["P", "Pipe", "Pipeline", None]]
    assert results("=MID(A2:A3,{1,8},3)", height=2, width=2) == [["Clo", "Won"], ["Neg", "tio"]]


def test_one_bad_cell_gives_an_error_in_its_place_only() -> None:
    got = results('=MID(A2:A5,{1;1;0;1},2)')
    assert got == [["Cl"], ["Ne"], ["#VALUE!"], ["Pr"]]


def test_editing_a_cell_the_lifted_formula_reads_recalculates_it() -> None:
    rows = [row + [None] for row in PIPELINE]
    rows[0] += ['=SUMPRODUCT((LEFT(A2:A5,6)="Closed")*B2:B5)']
    book = book_with({"Pipeline": rows})
    assert book.get((0, 0, 5)) == 175
    book.set_input((0, 2, 0), "Closed Won")
    book.recalc({(0, 2, 0)})
    assert book.get((0, 0, 5)) == 425
