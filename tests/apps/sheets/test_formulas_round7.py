"""Formulas agents write in Google Sheets that gave #NAME? or a wrong value: LET and LAMBDA with
MAP, BYROW, BYCOL, REDUCE, SCAN, MAKEARRAY; OFFSET and INDIRECT (and that what reads them is
recalculated); QUERY; UNIQUE telling case apart; SUMIF given the first cell of its sum range."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sheets.formulas.values import CellError
from apps.sheets.xlsx import from_file_formula, to_file_formula
from tests.apps.sheets.test_formulas import book_with
from tests.apps.sheets.conftest import Run

GRID = [[1, 2, 3], [4, "", 6], [None, None, None], [7, 8, 9]]  # A1:C4 of tab S
SALES = [["Rep", "Region", "Units", "Amount"], ["ann", "West", 3, 300], ["bob", "East", 1, 150], ["ann", "West", 2, 50],
         ["cy", "North", 5, 500], ["bob", "West", 4, 80]]


def shown(value: Any) -> Any:
    return value.code if isinstance(value, CellError) else value


def spill(formula: str, data: list[list[Any]] | None = None, height: int = 4, width: int = 3) -> list[list[Any]]:
    """The formula written in E1 of tab S (GRID, or `data`), and the cells it fills."""
    rows = [list(r) + [None] * (4 - len(r)) for r in (GRID if data is None else data)]
    rows[0].append(formula)
    book = book_with({"S": rows})
    return [[shown(book.get((0, r, 4 + c))) for c in range(width)] for r in range(height)]


def one(formula: str, data: list[list[Any]] | None = None) -> Any:
    return spill(formula, data, 1, 1)[0][0]


LAMBDAS = [
    # a live column doubled, its empty rows left empty
    ('=MAP(A1:A4, LAMBDA(x, IF(x="",,x*2)))', [[2, None, None], [8, None, None], [None, None, None], [14, None, None]]),
    ("=BYROW(A1:C4, LAMBDA(r, SUM(r)))", [[6, None, None], [10, None, None], [0, None, None], [24, None, None]]),
    ("=BYCOL(A1:C4, LAMBDA(c, MAX(c)))", [[7, 8, 9], [None] * 3, [None] * 3, [None] * 3]),
    ("=SCAN(0, A1:A4, LAMBDA(total, v, total+v))", [[1, None, None], [5, None, None], [5, None, None], [12, None, None]]),
    ("=MAKEARRAY(2, 3, LAMBDA(r, c, r*10+c))", [[11, 12, 13], [21, 22, 23], [None] * 3, [None] * 3]),
    ('=MAP(A1:A2, B1:B2, LAMBDA(a, b, a&"-"&b))', [["1-2", None, None], ["4-", None, None], [None] * 3, [None] * 3]),
    ("=LET(rate, 10, MAP(A1:B2, LAMBDA(x, x*rate)))", [[10, 20, None], [40, "#VALUE!", None], [None] * 3, [None] * 3]),
]


@pytest.mark.parametrize(("formula", "expected"), LAMBDAS, ids=[c[0] for c in LAMBDAS])
def test_lambda_helpers_spill_one_answer_per_cell_row_or_column(formula: str, expected: list[list[Any]]) -> None:
    assert spill(formula) == expected


SINGLE = [
    ("=REDUCE(0, A1:A4, LAMBDA(total, v, total+v))", 12), ("=LET(x, 5, y, x*2, x+y)", 15), ("=LAMBDA(x, x*2)(5)", 10),
    ("=LET(f, LAMBDA(x, x+1), f(2))", 3), ("=LET(total, SUM(A1:C4), total/COUNT(A1:C4))", 5),
    ("=SUM(BYROW(A1:C2, LAMBDA(r, MAX(r))))", 9), ("=LET(Amount, 2, Amount*A4)", 14),
    # a LAMBDA never given values, the wrong number of them, or a non-LAMBDA to MAP
    ("=LAMBDA(x, x*2)", "#N/A"), ("=MAP(A1:A2, LAMBDA(a, b, a))", "#N/A"), ("=MAP(A1:A2, 5)", "#VALUE!"),
    ("=LET(x, 1, y)", "#NAME?"), ("=LET(1, 2, 3)", "#VALUE!"), ("=REDUCE(0, A1:B2, LAMBDA(t, v, t+v))", "#VALUE!"),
]


@pytest.mark.parametrize(("formula", "expected"), SINGLE, ids=[c[0] for c in SINGLE])
def test_let_and_lambda_values(formula: str, expected: Any) -> None:
    assert one(formula) == expected


REFERENCES = [
    ("=OFFSET(A1,1,1)", ""), ("=OFFSET(A1,3,2)", 9), ("=SUM(OFFSET(A1,0,0,2,3))", 16), ("=SUM(OFFSET(A1,0,0,COUNT(A:A),1))", 5),
    ("=ROWS(OFFSET(A1,0,0,5,2))", 5), ("=OFFSET(A1,-1,0)", "#REF!"), ("=OFFSET(A1,0,0,0,1)", "#REF!"), ("=OFFSET(5,1,1)", "#VALUE!"),
    ('=INDIRECT("C4")', 9), ('=INDIRECT("c"&4)', 9), ('=SUM(INDIRECT("A1:A"&4))', 12), ('=ROW(INDIRECT("B"&A4))', 7),
    ('=INDIRECT("R2C3",FALSE)', 6), ('=INDIRECT("R[3]C[-4]",FALSE)', 7), ('=INDIRECT("nowhere")', "#REF!"),
    ('=INDIRECT("Nope!A1")', "#REF!"), ('=OFFSET(INDIRECT("B1"),3,1)', 9),
]


@pytest.mark.parametrize(("formula", "expected"), REFERENCES, ids=[c[0] for c in REFERENCES])
def test_offset_and_indirect_read_the_range_they_name(formula: str, expected: Any) -> None:
    assert one(formula) == expected


def test_what_indirect_or_a_computed_offset_reads_is_recalculated_when_it_changes() -> None:
    book = book_with({"S": [[1, "A2", "=INDIRECT(B1)", "=SUM(OFFSET(A1,0,0,B2,1))"], [10, 2], [100]]})
    assert (book.get((0, 0, 2)), book.get((0, 0, 3))) == (10, 11)
    book.set_input((0, 1, 0), 20.0)
    book.recalc({(0, 1, 0)})
    assert (book.get((0, 0, 2)), book.get((0, 0, 3))) == (20, 21)
    book.set_input((0, 0, 1), "A3")  # INDIRECT now names another cell
    book.set_input((0, 1, 1), 3.0)  # and OFFSET is three rows tall
    book.recalc({(0, 0, 1), (0, 1, 1)})
    assert (book.get((0, 0, 2)), book.get((0, 0, 3))) == (100, 121)
    book.set_input((0, 2, 0), 200.0)
    book.recalc({(0, 2, 0)})
    assert (book.get((0, 0, 2)), book.get((0, 0, 3))) == (200, 221)


def test_literal_offset_and_indirect_are_precise_dependencies_not_volatile() -> None:
    book = book_with({"S": [[1, '=INDIRECT("A3")', "=OFFSET(A1,2,0)"], [2], [3]]})
    assert not book.volatile
    book.set_input((0, 2, 0), 30.0)
    assert book.recalc({(0, 2, 0)}) >= {(0, 0, 1), (0, 0, 2)}
    assert (book.get((0, 0, 1)), book.get((0, 0, 2))) == (30, 30)


def test_a_computed_reference_stays_recalculated_after_the_spreadsheet_is_saved_and_reopened(run: Run) -> None:
    sid = run(lambda s: s.spreadsheets_create({"title": "Indirect"}))["spreadsheetId"]
    run(lambda s: s.values_update(sid, "Sheet1!A1:C2", [[1, "A2", "=INDIRECT(B1)"], [10]], "USER_ENTERED"))
    run(lambda s: s.values_update(sid, "Sheet1!A2", [[25]], "USER_ENTERED"))
    got = run(lambda s: s.values_get(sid, "Sheet1!C1", valueRenderOption="UNFORMATTED_VALUE"))
    assert got["values"] == [[25]]


QUERY = "=QUERY(A1:D6, \"select A, sum(D) where B = 'West' group by A label sum(D) 'Total'\", 1)"
QUERIES = [
    (QUERY, [["Rep", "Total"], ["ann", 350], ["bob", 80]]),
    ('=QUERY(A1:D6, "select A, D order by D desc limit 2")', [["Rep", "Amount"], ["cy", 500], ["ann", 300]]),
    ('=QUERY(A1:D6, "select B, count(A), avg(D) group by B", 1)',
     [["Region", "count Rep", "avg Amount"], ["East", 1, 150], ["North", 1, 500], ["West", 3, pytest.approx(430 / 3)]]),
    ('=QUERY(A2:D6, "select Col1, Col4 where Col3 > 2 and not Col1 = \'bob\'", 0)', [["ann", 300], ["cy", 500]]),
    ('=QUERY({A2:A6, D2:D6}, "select Col1, sum(Col2) group by Col1 order by sum(Col2) desc", 0)',
     [["", "sum"], ["cy", 500], ["ann", 350], ["bob", 230]]),
    ('=QUERY(A1:D6, "select A where A contains \'o\' or A starts with \'c\'", 1)', [["Rep"], ["bob"], ["cy"], ["bob"]]),
    ('=QUERY(A1:D6, "select A, D where A like \'a%\' offset 1", 1)', [["Rep", "Amount"], ["ann", 50]]),
    ('=QUERY(A1:D6, "select sum(D), max(C) where B != \'East\'", 1)', [["sum Amount", "max Units"], [930, 5]]),
    ('=QUERY(A1:D6, "select A, sum(D) group by A pivot B", 1)',
     [["Rep", "East", "North", "West"], ["ann", None, None, 350], ["bob", 150, None, 80], ["cy", None, 500, None]]),
    ('=QUERY(A1:D6, "select A, D*2 label D*2 \'Double\'", 1)', [["Rep", "Double"], ["ann", 600], ["bob", 300], ["ann", 100], ["cy", 1000], ["bob", 160]]),
    ('=QUERY(B1:D6, "select C, B where D >= 300")', [["Units", "Region"], [3, "West"], [5, "North"]]),  # the range's own letters
    ('=QUERY(A1:D6, "select A where B = \'west\'", 1)', [["Rep"]]),  # text is compared with its case; only headers left
    ('=QUERY(A2:D6, "select A where B = \'Nowhere\'", 0)', [["#N/A"]]),
    ('=QUERY(A1:D6, "select E", 1)', [["#VALUE!"]]), ('=QUERY(A1:D6, "selec A", 1)', [["#VALUE!"]]),
    ('=QUERY(A1:D6, "select A, D", 1)', [["Rep", "Amount"], ["ann", 300], ["bob", 150], ["ann", 50], ["cy", 500], ["bob", 80]]),
]


@pytest.mark.parametrize(("formula", "expected"), QUERIES, ids=[c[0] for c in QUERIES])
def test_query_gives_the_table_google_sheets_gives(formula: str, expected: list[list[Any]]) -> None:
    width = max(len(r) for r in expected)
    got = spill(formula, SALES, len(expected) + 1, width + 1)
    assert [line[:width] for line in got[:len(expected)]] == [line + [None] * (width - len(line)) for line in expected]
    assert got[len(expected)] == [None] * (width + 1), "nothing more below"
    assert all(line[width] is None for line in got), "nothing more to the right"


def test_query_header_row_is_guessed_when_not_given_and_where_drops_empty_text_with_not_equal() -> None:
    data = [row[:] for row in SALES] + [["di", None, None, None]]
    assert spill('=QUERY(A1:D7, "select A where B <> \'\'")', data, 7, 1) == [["Rep"], ["ann"], ["bob"], ["ann"], ["cy"], ["bob"], [None]]
    assert spill('=QUERY(A1:D7, "select A where D is null")', data, 3, 1) == [["Rep"], ["di"], [None]]


def test_unique_keeps_values_that_differ_only_in_case() -> None:
    assert spill('=UNIQUE({"West";"WEST";"West";"east"})', height=4, width=1) == [["West"], ["WEST"], ["east"], [None]]


def test_sumif_with_the_first_cell_of_its_sum_range_sums_the_tested_ranges_shape() -> None:
    data = [["East", 10, "=SUMIF(A1:A4,\"East\",B1)", "=AVERAGEIF(A1:A4,\"East\",B1)"], ["West", 20], ["East", 30], ["East", 40]]
    book = book_with({"S": data})
    assert (book.get((0, 0, 2)), book.get((0, 0, 3))) == (80, 80 / 3)
    book.set_input((0, 3, 1), 100.0)  # a cell of the sum range it reads, past the one cell written
    book.recalc({(0, 3, 1)})
    assert (book.get((0, 0, 2)), book.get((0, 0, 3))) == (140, 140 / 3)
    assert one('=SUMIF(A1:A4,">1",B1:B2)') == 8  # a short sum range stretches too (GRID: rows 2 and 4 met, B4 is 8)


def test_xlsx_files_spell_the_new_functions_as_excel_does() -> None:
    assert to_file_formula("=MAP(A2:A9,LAMBDA(x,x*2))") == "=_xlfn.MAP(A2:A9,_xlfn.LAMBDA(x,x*2))"
    assert to_file_formula("=LET(t,SUM(B:B),t/2)") == "=_xlfn.LET(t,SUM(B:B),t/2)"
    assert from_file_formula("=_xlfn.LET(_xlpm.t,SUM(B:B),_xlpm.t/2)") == "=LET(t,SUM(B:B),t/2)"
    assert to_file_formula("=TAKE(XMATCH(1,A:A),1)") == "=_xlfn.TAKE(_xlfn.XMATCH(1,A:A),1)"


# Data of tests/apps/sheets/test_formulas.py: Ann/East/100, Bob/West/250, Cy/East/75, Di/North/300, dates
# 2026-01-15, 02-28, 03-03, 03-31 (LibreOffice agrees on the rest: test_libreoffice.py).
MORE = [
    ('=N(TRUE)+N("x")', 1), ('=T(5)&T("a")', "a"), ('=REPT("ab",3)', "ababab"), ("=MROUND(5,-2)", "#NUM!"), ("=MROUND(-10,-3)", -9),
    ("=SUBTOTAL(109,Data!C2:C5)", 725), ("=SUBTOTAL(12,Data!C2:C5)", "#VALUE!"), ("=ISLOGICAL(Data!E2)", True), ("=ISNONTEXT(Data!A2)", False),
    ('=ADDRESS(2,28,2,TRUE,"My Tab")', "'My Tab'!AB$2"), ("=ADDRESS(2,3,4,FALSE)", "R[2]C[3]"), ('=HYPERLINK("https://x.test","Open")', "Open"),
    ('=XMATCH("bob",Data!A2:A5)', 2), ("=XMATCH(200,Data!C2:C5,1)", 2), ("=XMATCH(200,Data!C2:C5,-1)", 1), ('=XMATCH("E*",Data!B2:B5,2,-1)', 3),
    ('=XMATCH("zz",Data!A2:A5)', "#N/A"), ("=COLUMNS(CHOOSECOLS(Data!A1:E5,1,-1))", 2), ("=INDEX(CHOOSECOLS(Data!A1:E5,-3),3,1)", 250),
    ("=INDEX(CHOOSEROWS(Data!A1:E5,-1),1,1)", "Di"), ("=CHOOSECOLS(Data!A1:E5,6)", "#VALUE!"), ("=INDEX(TAKE(Data!A1:E5,-2,1),1,1)", "Cy"),
    ("=ROWS(DROP(Data!A1:E5,1))", 4), ("=INDEX(DROP(Data!A1:E5,1,2),1,1)", 100), ("=ROWS(TOCOL(Data!A1:B5))", 10),
    ("=COLUMNS(TOROW(Data!A1:B5))", 10), ("=INDEX(TOCOL(Data!A1:B2,0,TRUE),2,1)", "Ann"), ("=ROWS(TOCOL(Data!A4:A9,1))", 2),
    ("=MODE(3,1,1,3,2)", 3), ("=MODE(1,2,3)", "#N/A"), ("=MODE.SNGL(Data!C2:C5,75)", 75), ("=PMT(0.05/12,360,300000)", pytest.approx(-1610.4648690364195)),
    ("=PMT(0,12,1200)", -100), ('=TIMEVALUE("2:30 pm")', pytest.approx(14.5 / 24)), ("=PEARSON({1,2,3},{2,4,6})", pytest.approx(1)),
    ("=FORECAST.LINEAR(4,{2,4,6},{1,2,3})", pytest.approx(8)), ("=SLOPE({1,1},{2,2})", "#DIV/0!"),
]


@pytest.mark.parametrize(("formula", "expected"), MORE, ids=[c[0] for c in MORE])
def test_functions_that_answered_name_before(formula: str, expected: Any) -> None:
    from tests.apps.sheets.test_formulas import evaluate

    assert shown(evaluate(formula)) == expected


def test_names_a_let_or_lambda_binds_are_known_where_bound_and_only_there() -> None:
    from apps.sheets.formulas.parser import parse, scoped

    def unknown(formula: str) -> list[str]:
        return [node[1] for node, bound in scoped(parse(formula))
                if (node[0] == "name" and node[1].upper() not in bound) or (node[0] == "call" and node[1] in ("F", "_INVOKE") and node[1] not in bound)]

    assert unknown('=MAP(A2:A, LAMBDA(x, IF(x="",,x*rate)))') == ["rate"]
    assert unknown("=LET(f, LAMBDA(x, x+1), y, f(2), y+x)") == ["x"]  # x is the LAMBDA's alone
    assert unknown("=LET(a, a, a)") == ["a"]  # a LET name is bound after its value
