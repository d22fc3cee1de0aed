"""Functions of single values applied cell by cell over ranges and arrays, as Google Sheets does
inside FILTER, SUMPRODUCT and ARRAYFORMULA and Excel's dynamic arrays do anywhere: the pipeline
questions people ask of a sheet (`everything not Closed`, `the total of closed deals`) in the
shape they write them, against known values."""

from __future__ import annotations

import random
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


# -- live summaries: one formula answering every row of a summary tab --------------------------
DEALS = [
    ["Close", "Region", "Amount", "Owner"],
    [to_serial(datetime(2026, 1, 15)), "East", 100, "ann"], [to_serial(datetime(2026, 2, 28)), "West", 250, "bob"],
    [to_serial(datetime(2026, 3, 3)), "East", 75, "ann"], [to_serial(datetime(2026, 3, 31)), "North", 300, "cy"],
    [to_serial(datetime(2025, 12, 1)), "west", 40, "bob"],
]


def summary(formula: str, names: list[Any] | None = None, height: int = 6) -> list[Any]:
    """The formula in B2 of a summary tab listing regions in column A (East, West, North,
    South unless given), and what shows in B2 and the cells below it."""
    names = ["East", "West", "North", "South"] if names is None else names
    rows: list[list[Any]] = [["Region", "Total"], *([name, None] for name in names)]
    rows[1][1] = formula
    book = book_with({"Deals": DEALS, "Summary": rows})
    return [_shown(book.get((1, 1 + r, 1))) for r in range(height)]


PER_ROW = [
    ("=ARRAYFORMULA(COUNTIFS(Deals!B2:B, A2:A))", [2, 2, 1, 0, None, None]),
    ("=COUNTIFS(Deals!B2:B, A2:A5)", [2, 2, 1, 0, None, None]),
    ("=ARRAYFORMULA(COUNTIF(Deals!B2:B6, A2:A5))", [2, 2, 1, 0, None, None]),
    ("=ARRAYFORMULA(SUMIF(Deals!B2:B, A2:A, Deals!C2:C))", [175, 290, 300, 0, None, None]),
    ('=ARRAYFORMULA(SUMIFS(Deals!C2:C, Deals!B2:B, A2:A, Deals!A2:A, ">="&DATE(2026,1,1)))', [175, 250, 300, 0, None, None]),
    ('=ARRAYFORMULA(SUMIFS(Deals!C2:C, Deals!B2:B, A2:A5, Deals!D2:D, "ann"))', [175, 0, 0, 0, None, None]),
    ("=ARRAYFORMULA(AVERAGEIF(Deals!B2:B6, A2:A5, Deals!C2:C6))", [87.5, 145, 300, "#DIV/0!", None, None]),
    ("=ARRAYFORMULA(AVERAGEIFS(Deals!C2:C6, Deals!B2:B6, A2:A5))", [87.5, 145, 300, "#DIV/0!", None, None]),
    ("=ARRAYFORMULA(MAXIFS(Deals!C2:C, Deals!B2:B, A2:A5))", [100, 250, 300, 0, None, None]),
    ("=ARRAYFORMULA(MINIFS(Deals!C2:C, Deals!B2:B, A2:A5))", [75, 40, 300, 0, None, None]),
    ('=ARRAYFORMULA(IF(A2:A="", "", SUMIF(Deals!B2:B, A2:A, Deals!C2:C)))', [175, 290, 300, 0, None, None]),
]


@pytest.mark.parametrize(("formula", "expected"), PER_ROW, ids=[c[0] for c in PER_ROW])
def test_a_range_of_criteria_answers_each_criterion_in_its_row(formula: str, expected: list[Any]) -> None:
    assert summary(formula) == [float(v) if isinstance(v, (int, float)) else v for v in expected]


def test_an_empty_if_branch_leaves_the_rows_not_filled_yet_empty() -> None:
    got = summary('=ARRAYFORMULA(IF(A2:A="",,COUNTIFS(Deals!B2:B, A2:A)))', names=["East", None, "North", None, "West"])
    assert got == [2.0, None, 1.0, None, 2.0, None]
    assert summary('=IF(A2:A5="East",1,)', names=["East", "West", "East", "North"]) == [1.0, None, 1.0, None, None, None]


def test_criteria_across_and_down_give_a_grid() -> None:
    rows = [["Region", "ann", "bob"], ["East"], ["West"]]
    rows[1] += ["=SUMIFS(Deals!C2:C6, Deals!B2:B6, A2:A3, Deals!D2:D6, B1:C1)"]
    book = book_with({"Deals": DEALS, "Summary": rows})
    assert [[book.get((1, r, c)) for c in (1, 2)] for r in (1, 2)] == [[175.0, 0.0], [0.0, 290.0]]


def test_an_array_of_criteria_inside_sum_counts_either() -> None:
    assert summary('=SUM(COUNTIF(Deals!B2:B6, {"East","North"}))', height=2) == [3.0, None]


def test_the_spilled_totals_follow_the_data_and_the_names() -> None:
    rows: list[list[Any]] = [["Region", "Total"], ["East", "=ARRAYFORMULA(IF(A2:A=\"\",,SUMIF(Deals!B2:B, A2:A, Deals!C2:C)))"], ["West"]]
    book = book_with({"Deals": DEALS, "Summary": rows})
    assert [book.get((1, r, 1)) for r in (1, 2, 3)] == [175.0, 290.0, None]
    book.set_input((0, 2, 2), 1000.0)  # West's first deal
    book.recalc({(0, 2, 2)})
    assert [book.get((1, r, 1)) for r in (1, 2, 3)] == [175.0, 1040.0, None]
    book.set_input((1, 3, 0), "North")  # a region added below the others
    book.recalc({(1, 3, 0)})
    assert [book.get((1, r, 1)) for r in (1, 2, 3)] == [175.0, 1040.0, 300.0]


CELLS = [None, "", "East", "east", "EAST", " East", "East*", "Eas", "5", "5.0", " 5 ", "$1,200", "15%", "2026-01-15", "3/31/2026",
         "TRUE", "true", "ﬁle", "José", "JOSÉ", "Straße", "\u017fun", "\u0130d", "K", "k", True, False, 0.0, -0.0, 1.0, 5.0, 1200.0, 0.15, 0.1 + 0.2, 0.3,
         to_serial(datetime(2026, 1, 15)), to_serial(datetime(2026, 3, 31)), CellError("#N/A")]
CRITERIA = [*CELLS[:-1], "=East", "<>East", "E*", "?ast", ">=5", "<1", "<>", "=", ">=2026-01-01", "~*", "josé", "sun", "id", "k", 2, 0.30000000000000004]


def test_an_array_of_criteria_answers_as_each_criterion_written_alone() -> None:
    """Each cell of a criteria array is answered as the same criterion given as one value, for
    the values a range holds (numbers, numeric and date text, any case, accents, TRUE/FALSE,
    blanks, errors) and criteria with and without operators and wildcards."""
    rng = random.Random(7)
    n = len(CRITERIA)
    height = 60
    each = [f"=COUNTIF(A1:A{height},D1:D{n})", f"=SUMIFS(C1:C{height},A1:A{height},D1:D{n},B1:B{height},E1:E{n})",
            f'=ARRAYFORMULA(COUNTIFS(B1:B{height},D1:D{n},A1:A{height},"<>East"))', f"=AVERAGEIF(A1:A{height},E1:E{n},C1:C{height})"]
    alone = [f"=COUNTIF(A1:A{height},D{{r}})", f"=SUMIFS(C1:C{height},A1:A{height},D{{r}},B1:B{height},E{{r}})",
             f'=COUNTIFS(B1:B{height},D{{r}},A1:A{height},"<>East")', f"=AVERAGEIF(A1:A{height},E{{r}},C1:C{height})"]
    for trial in range(10):
        book = book_with({"Data": [[None]]})
        for r in range(height):
            for c, value in enumerate((rng.choice(CELLS), rng.choice(CELLS), float(rng.randint(1, 9)))):
                book.set_input((0, r, c), value)
        specs = rng.sample(CRITERIA, n)
        for r in range(n):  # typed as text ('=East), not formulas
            book.set_input((0, r, 3), specs[r])
            book.set_input((0, r, 4), rng.choice(CRITERIA))
        for k in range(len(each)):
            book.set_formula((0, 0, 6 + k), each[k])
            for r in range(n):
                book.set_formula((0, r, 10 + k), alone[k].format(r=r + 1))
        book.recalc_all()
        for k in range(len(each)):
            got = [_shown(book.get((0, r, 6 + k))) for r in range(n)]
            assert got == [_shown(book.get((0, r, 10 + k))) for r in range(n)], (trial, each[k])


LOOKUPS = [
    ("=ARRAYFORMULA(VLOOKUP(A2:A5, Deals!B2:C6, 2, FALSE))", [100, 250, 300, NA, None, None]),
    ("=ARRAYFORMULA(IFERROR(VLOOKUP(A2:A, Deals!B2:D, 3, FALSE), \"-\"))", ["ann", "bob", "cy", "-", None, None]),
    ("=ARRAYFORMULA(VLOOKUP(A2:A5, {Deals!B2:B6, Deals!A2:A6}, 2, FALSE))",  # looking left, as Google Sheets users do
     [to_serial(datetime(2026, 1, 15)), to_serial(datetime(2026, 2, 28)), to_serial(datetime(2026, 3, 31)), NA, None, None]),
    ("=ARRAYFORMULA(MATCH(A2:A5, Deals!B2:B6, 0))", [1, 2, 4, NA, None, None]),
    ("=ARRAYFORMULA(INDEX(Deals!D2:D6, MATCH(A2:A5, Deals!B2:B6, 0)))", ["ann", "bob", "cy", NA, None, None]),
    ('=ARRAYFORMULA(XLOOKUP(A2:A5, Deals!B2:B6, Deals!C2:C6, "none"))', [100, 250, 300, "none", None, None]),
    ("=ARRAYFORMULA(HLOOKUP(A2:A5, {\"East\",\"West\";1,2}, 2, FALSE))", [1, 2, NA, NA, None, None]),
    ('=ARRAYFORMULA(IF(A2:A="",,IFERROR(VLOOKUP(A2:A,{Deals!B2:B,Deals!D2:D},2,FALSE))))', ["ann", "bob", "cy", "", None, None]),
]


@pytest.mark.parametrize(("formula", "expected"), LOOKUPS, ids=[c[0] for c in LOOKUPS])
def test_a_range_of_lookup_keys_looks_up_each_key(formula: str, expected: list[Any]) -> None:
    assert summary(formula) == [float(v) if isinstance(v, (int, float)) else v for v in expected]


def test_a_row_of_columns_returns_each_column() -> None:
    rows = [["Region"], ["East", '=ARRAYFORMULA(VLOOKUP(A2:A3, Deals!B2:D6, {2,3}, FALSE))'], ["North"]]
    book = book_with({"Deals": DEALS, "Summary": rows})
    assert [[book.get((1, r, c)) for c in (1, 2)] for r in (1, 2)] == [[100.0, "ann"], [300.0, "cy"]]


ARRAY_LITERALS = [
    ("=ROWS({Deals!B2:B6; Deals!B2:B3})", 7), ("=COLUMNS({Deals!A2:B6, Deals!D2:D6})", 3),
    ("=INDEX({Deals!D2:D6, Deals!C2:C6}, 4, 2)", 300), ('=SUM(INDEX({1;Deals!C2:C3}, 0, 1))', 351), ('={1,2;Deals!C2:C3}', "#VALUE!"),
    ("=INDEX({Deals!B2:B6; \"Total\"}, 6)", "Total"),
    ("={Deals!B2:B6, Deals!C2:C3}", "#VALUE!"), ("={Deals!B2:C3; Deals!B2:B3}", "#VALUE!"),
]


@pytest.mark.parametrize(("formula", "expected"), ARRAY_LITERALS, ids=[c[0] for c in ARRAY_LITERALS])
def test_ranges_in_braces_join_side_by_side_and_one_above_the_other(formula: str, expected: Any) -> None:
    got = summary(formula, height=1)[0]
    assert got == (float(expected) if isinstance(expected, int) else expected)


def test_a_range_of_lookup_keys_answers_as_each_key_looked_up_alone() -> None:
    """Each key of an array of keys finds what the same key looked up alone finds (exact match:
    text in any case, numbers, numeric text, TRUE/FALSE, blanks, "", accents, wildcards, errors)."""
    rng = random.Random(11)
    keys = [c for c in CRITERIA if not (isinstance(c, str) and c.startswith("="))]
    n, height = len(keys), 60
    each = [f"=ARRAYFORMULA(MATCH(D1:D{n}, A1:A{height}, 0))", f"=ARRAYFORMULA(VLOOKUP(D1:D{n}, A1:C{height}, 3, FALSE))",
            f'=ARRAYFORMULA(XLOOKUP(D1:D{n}, B1:B{height}, C1:C{height}, "none"))', f"=HLOOKUP(D1:D{n}, E1:P2, 2, FALSE)"]
    alone = [f"=MATCH(D{{r}}, A1:A{height}, 0)", f"=VLOOKUP(D{{r}}, A1:C{height}, 3, FALSE)",
             f'=XLOOKUP(D{{r}}, B1:B{height}, C1:C{height}, "none")', "=HLOOKUP(D{r}, E1:P2, 2, FALSE)"]
    for trial in range(10):
        book = book_with({"Data": [[None]]})
        for r in range(height):
            for c, value in enumerate((rng.choice(CELLS), rng.choice(CELLS), float(r))):
                book.set_input((0, r, c), value)
        for c in range(4, 16):
            book.set_input((0, 0, c), rng.choice(CELLS))
            book.set_input((0, 1, c), float(c))
        for r, key in enumerate(rng.sample(keys, n)):
            book.set_input((0, r, 3), key)
        for k in range(len(each)):
            book.set_formula((0, 2, 16 + k), each[k])
            for r in range(n):
                book.set_formula((0, 2 + r, 20 + k), alone[k].format(r=r + 1))
        book.recalc_all()
        for k in range(len(each)):
            got = [_shown(book.get((0, 2 + r, 16 + k))) for r in range(n)]
            assert got == [_shown(book.get((0, 2 + r, 20 + k))) for r in range(n)], (trial, each[k])


BRANCHES = [
    ('=ARRAYFORMULA(IFS(B2:B5>200,"high",B2:B5>80,"mid",TRUE,"low"))', [["mid"], ["high"], ["low"], ["high"]]),
    ('=IFS(B2:B5>200,"high",B2:B5>80,"mid")', [["mid"], ["high"], [NA], ["high"]]),
    ('=ARRAYFORMULA(SWITCH(LEFT(A2:A5,6),"Closed","done","Negoti","talking","open"))', [["done"], ["talking"], ["done"], ["open"]]),
    ("=ARRAYFORMULA(NETWORKDAYS(D2:D5, DATE(2026,3,31)))", [[54], [22], [85], [1]]),
]


@pytest.mark.parametrize(("formula", "expected"), BRANCHES, ids=[c[0] for c in BRANCHES])
def test_ifs_switch_and_networkdays_over_ranges_answer_each_row(formula: str, expected: list[list[Any]]) -> None:
    assert results(formula) == [[float(v) if isinstance(v, int) else v for v in row] for row in expected]


def test_running_counts_and_duplicate_flags_written_as_one_formula() -> None:
    running = '=ARRAYFORMULA(COUNTIFS(Deals!D2:D6, Deals!D2:D6, ROW(Deals!D2:D6), "<="&ROW(Deals!D2:D6)))'
    assert summary(running) == [1.0, 1.0, 2.0, 1.0, 2.0, None]  # ann, bob, ann, cy, bob
    assert summary('=ARRAYFORMULA(IF(COUNTIF(Deals!D2:D6, Deals!D2:D6)>1, "dup", ""))') == ["dup", "dup", "dup", "", "dup", None]
    assert summary("=SUMPRODUCT(1/COUNTIF(Deals!D2:D6, Deals!D2:D6))", height=1) == [pytest.approx(3.0)]
