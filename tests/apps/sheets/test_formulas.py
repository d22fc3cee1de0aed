"""The formula engine against known values: every listed function, operators and precedence,
the spreadsheet errors, circular references, recalculation order and only-dependants
recalculation, spilled arrays, and how little one edit in a 10,000-cell book evaluates."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

import pytest

from apps.sheets.formulas.engine import Book, SheetInfo
from apps.sheets.formulas.values import CellError, to_serial

NOW = datetime(2026, 3, 31, 9, 30)


def book_with(data: dict[str, list[list[Any]]]) -> Book:
    """A book with one tab per entry; '=…' strings are formulas. Sheet ids follow the order."""
    book = Book([SheetInfo(i, title, max(1000, len(rows) + 1), 26) for i, (title, rows) in enumerate(data.items())], now=NOW)
    for sid, rows in enumerate(data.values()):
        for r, line in enumerate(rows):
            for c, value in enumerate(line):
                if isinstance(value, str) and value.startswith("="):
                    book.set_formula((sid, r, c), value)
                elif value is not None:
                    book.set_input((sid, r, c), float(value) if isinstance(value, int) and not isinstance(value, bool) else value)
    book.recalc_all()
    return book


DATA = [
    ["Name", "Region", "Amount", "Date", "Flag"],
    ["Ann", "East", 100, to_serial(datetime(2026, 1, 15)), True],
    ["Bob", "West", 250, to_serial(datetime(2026, 2, 28)), False],
    ["Cy", "East", 75, to_serial(datetime(2026, 3, 3)), True],
    ["Di", "North", 300, to_serial(datetime(2026, 3, 31)), False],
]


def evaluate(formula: str) -> Any:
    book = book_with({"Data": DATA, "Calc": [[formula]]})
    return book.get((1, 0, 0))


CASES = [
    ("=1+2*3", 7), ("=(1+2)*3", 9), ("=-2^2", 4), ("=2^3^2", 64), ("=10/4", 2.5), ("=50%", 0.5), ('="a"&"b"&1', "ab1"),
    ("=1<2", True), ('="a"="A"', True), ("=3<>3", False), ("=Data!C2+Data!C3", 350),
    ("=SUM(Data!C2:C5)", 725), ("=SUM(Data!C:C)", 725), ("=SUM(1,2,\"3\")", 6), ("=AVERAGE(Data!C2:C5)", 181.25),
    ("=COUNT(Data!A1:E5)", 8), ("=COUNTA(Data!A1:A10)", 5), ("=MIN(Data!C2:C5)", 75), ("=MAX(Data!C2:C5)", 300),
    ("=ROUND(2.5)", 3), ("=ROUND(-2.5)", -3), ("=ROUND(1234.5678,2)", 1234.57), ("=ROUND(1234,-2)", 1200),
    ("=IF(Data!C2>90,\"big\",\"small\")", "big"), ("=IF(FALSE,1)", False), ('=IFS(Data!C3>300,"a",Data!C3>200,"b",TRUE,"c")', "b"),
    ("=IFERROR(1/0,\"none\")", "none"), ("=IFERROR(5,0)", 5), ("=AND(TRUE,1>0)", True), ("=OR(FALSE,0)", False), ("=NOT(FALSE)", True),
    ('=SUMIF(Data!B2:B5,"East",Data!C2:C5)', 175), ('=SUMIF(Data!C2:C5,">100")', 550),
    ('=SUMIFS(Data!C2:C5,Data!B2:B5,"East",Data!C2:C5,">80")', 100), ('=COUNTIF(Data!B2:B5,"e*")', 2),
    ('=COUNTIFS(Data!B2:B5,"<>East",Data!E2:E5,FALSE)', 2), ('=AVERAGEIF(Data!B2:B5,"East",Data!C2:C5)', 87.5),
    ('=AVERAGEIFS(Data!C2:C5,Data!C2:C5,">=100")', 650 / 3),
    ('=VLOOKUP("Bob",Data!A2:C5,3,FALSE)', 250), ("=VLOOKUP(260,Data!C2:C5,1,TRUE)", 75),
    ('=HLOOKUP("Amount",Data!A1:E5,3,FALSE)', 250), ("=INDEX(Data!A1:E5,3,2)", "West"),
    ('=MATCH("Cy",Data!A1:A5,0)', 4), ('=INDEX(Data!C2:C5,MATCH("Di",Data!A2:A5,0))', 300),
    ('=XLOOKUP("Cy",Data!A2:A5,Data!C2:C5)', 75), ('=XLOOKUP("Zed",Data!A2:A5,Data!C2:C5,"missing")', "missing"),
    ('=CONCAT("x",1)', "x1"), ('=TEXTJOIN("-",TRUE,"a","","b")', "a-b"), ('=LEFT("Sheets",3)', "She"), ('=RIGHT("Sheets",2)', "ts"),
    ('=MID("Sheets",2,3)', "hee"), ('=LEN("Sheets")', 6), ('=UPPER("ab")', "AB"), ('=LOWER("AB")', "ab"), ('=TRIM("  a   b ")', "a b"),
    ('=TEXT(1234.5,"#,##0.00")', "1,234.50"), ('=TEXT(0.256,"0.0%")', "25.6%"), ('=TEXT(Data!D2,"yyyy-mm-dd")', "2026-01-15"),
    ('=VALUE("1,234.5")', 1234.5), ('=VALUE("15%")', 0.15), ("=DATE(2026,2,30)", to_serial(datetime(2026, 3, 2))),
    ("=TODAY()", to_serial(datetime(2026, 3, 31))), ("=NOW()", to_serial(NOW)), ("=YEAR(Data!D3)", 2026), ("=MONTH(Data!D3)", 2),
    ("=DAY(Data!D3)", 28), ("=EOMONTH(Data!D2,1)", to_serial(datetime(2026, 2, 28))), ("=EOMONTH(Data!D2,-1)", to_serial(datetime(2025, 12, 31))),
    ("=NETWORKDAYS(DATE(2026,3,2),DATE(2026,3,13))", 10), ("=NETWORKDAYS(DATE(2026,3,2),DATE(2026,3,13),DATE(2026,3,4))", 9),
    ("=SUM(FILTER(Data!C2:C5,Data!B2:B5=\"East\"))", 175), ("=INDEX(SORT(Data!C2:C5,1,FALSE),1)", 300),
    ("=ROWS(UNIQUE(Data!B2:B5))", 3), ("=SUMPRODUCT(Data!C2:C3,{2;1})", 450),
    ("=INDEX(TRANSPOSE(Data!A1:E1),3)", "Amount"), ("=ROWS(TRANSPOSE(Data!A1:E2))", 5), ("=COLUMNS(TRANSPOSE(Data!C2:C5))", 4),
]


@pytest.mark.parametrize(("formula", "expected"), CASES, ids=[c[0] for c in CASES])
def test_functions_compute_known_values(formula: str, expected: Any) -> None:
    got = evaluate(formula)
    if isinstance(expected, float) or (isinstance(expected, int) and not isinstance(expected, bool)):
        assert isinstance(got, float) and got == pytest.approx(expected), (formula, got)
    else:
        assert got == expected, (formula, got)


ERRORS = [
    ("=1/0", "#DIV/0!"), ("=AVERAGE(Data!A1:A2)", "#DIV/0!"), ('=1+"x"', "#VALUE!"), ("=NOSUCH(1)", "#NAME?"), ("=Nowhere", "#NAME?"),
    ('=VLOOKUP("Zed",Data!A2:C5,2,FALSE)', "#N/A"), ('=VLOOKUP("Bob",Data!A2:C5,9,FALSE)', "#REF!"), ("=Missing!A1", "#REF!"),
    ("=SQRT(-1)", "#NUM!"), ('=FILTER(Data!C2:C5,Data!C2:C5>999)', "#N/A"), ("=#N/A", "#N/A"), ("=SUM(1,", "#ERROR!"),
    ('=MATCH("Zed",Data!A1:A5,0)', "#N/A"), ("=IF(1/0,1,2)", "#DIV/0!"), ("=ROUND(1,2,3)", "#N/A"),
]


@pytest.mark.parametrize(("formula", "code"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_are_the_spreadsheet_codes_with_a_reason(formula: str, code: str) -> None:
    got = evaluate(formula)
    assert isinstance(got, CellError) and got.code == code, (formula, got)
    assert got.message or code == "#N/A", "an error should carry the reason a person would hover to see"


def test_circular_references_are_detected_not_looped() -> None:
    book = book_with({"S": [["=B1+1", "=A1*2", "=A1+5"], [10]]})
    for col in range(3):
        value = book.get((0, 0, col))
        assert isinstance(value, CellError) and value.code == "#REF!" and "Circular" in value.message
    book.set_input((0, 0, 1), 3.0)  # breaking the cycle recomputes the cells in it
    changed = book.recalc({(0, 0, 1)})
    assert book.get((0, 0, 0)) == 4 and book.get((0, 0, 2)) == 9
    assert {(0, 0, 0), (0, 0, 2)} <= changed


def test_recalculation_follows_dependency_order_and_only_dependants() -> None:
    # C1 depends on B1 which depends on A1; D1 is independent. Formulas are written in reverse order.
    book = book_with({"S": [[1, "=A1*10", "=B1+A1", "=5*5"]]})
    assert book.get((0, 0, 2)) == 11
    evaluated: list[tuple[int, int, int]] = []
    original = book.evaluate_formula

    def spy(key: tuple[int, int, int]) -> Any:
        evaluated.append(key)
        return original(key)

    book.evaluate_formula = spy  # type: ignore[method-assign]
    book.set_input((0, 0, 0), 2.0)
    changed = book.recalc({(0, 0, 0)})
    assert evaluated == [(0, 0, 1), (0, 0, 2)], "B1 before C1, and D1 not at all"
    assert book.get((0, 0, 2)) == 22 and changed == {(0, 0, 1), (0, 0, 2)}


def test_cross_sheet_references_recalculate() -> None:
    book = book_with({"Inputs": [[5], [7]], "Out": [["=SUM(Inputs!A1:A2)*2"]]})
    assert book.get((1, 0, 0)) == 24
    book.set_input((0, 1, 0), 10.0)
    assert (1, 0, 0) in book.recalc({(0, 1, 0)}) and book.get((1, 0, 0)) == 30


def test_array_results_spill_and_a_blocked_spill_is_ref() -> None:
    book = book_with({"S": [[3, "=SORT(A1:A3)"], [1], [2]]})
    assert [book.get((0, r, 1)) for r in range(3)] == [1, 2, 3]
    book.set_input((0, 2, 1), "in the way")
    book.recalc({(0, 2, 1)})
    blocked = book.get((0, 0, 1))
    assert isinstance(blocked, CellError) and blocked.code == "#REF!" and "B3" in blocked.message
    book.set_input((0, 2, 1), None)
    book.recalc({(0, 2, 1)})
    assert [book.get((0, r, 1)) for r in range(3)] == [1, 2, 3]


def test_transpose_spills_a_row_down_and_follows_its_source() -> None:
    book = book_with({"S": [[1, 2, "x"], ["=TRANSPOSE(A1:C1)"]]})
    assert [book.get((0, r, 0)) for r in range(1, 4)] == [1, 2, "x"]
    book.set_input((0, 0, 1), 5.0)
    book.recalc({(0, 0, 1)})
    assert book.get((0, 2, 0)) == 5


def test_one_edit_in_a_10000_cell_book_evaluates_only_its_dependants(monkeypatch: pytest.MonkeyPatch) -> None:
    # The work is counted, not timed (a timed test fails on a loaded machine; `officegym bench`
    # times the 10,000-cell recalculation): of 5,001 formulas, one edit evaluates its three.
    rows: list[list[Any]] = [[i, i * 2, f"=A{i + 1}*B{i + 1}", f"=C{i + 1}+1"] for i in range(2500)]
    rows[0].append("=SUM(C1:C2500)")
    book = book_with({"S": rows})
    evaluated: list[tuple[int, int, int]] = []
    real = Book.evaluate_formula
    monkeypatch.setattr(Book, "evaluate_formula", lambda self, key: evaluated.append(key) or real(self, key))
    book.set_input((0, 1234, 0), 1.0)
    changed = book.recalc({(0, 1234, 0)})
    assert changed == {(0, 1234, 2), (0, 1234, 3), (0, 0, 4)}
    assert sorted(evaluated) == [(0, 0, 4), (0, 1234, 2), (0, 1234, 3)]
    assert book.get((0, 1234, 3)) == 1234 * 2 + 1


def test_hostile_formulas_give_errors_not_hangs() -> None:
    nested = "=" + "ABS(" * 3000 + "1" + ")" * 3000
    started = time.perf_counter()
    book = book_with({"S": [["=SUM(B2:ZZZ9999999)", nested, "=" + "(" * 3000 + "1" + ")" * 3000, "=" + "+".join(["1"] * 5000),
                             "=" + "+".join(["1"] * 300)]]})
    # A hang guard, not a timing (it runs in ~0.4 s): a range read cell by cell would take hours.
    assert time.perf_counter() - started < 60, "a huge range is read only where the grid has cells"
    assert book.get((0, 0, 0)) == 0
    too_deep = book.get((0, 0, 1))
    assert isinstance(too_deep, CellError) and too_deep.code == "#ERROR!"
    assert book.get((0, 0, 2)) == 1
    # A chain of 5,000 additions is deeper than what reads a formula's tree can follow (the
    # service's readers recurse: parser.MAX_DEPTH): an error in its cell, never a crash; a
    # sum of a few hundred terms works.
    chain = book.get((0, 0, 3))
    assert isinstance(chain, CellError) and chain.code == "#ERROR!" and "nested too deeply" in chain.message
    assert book.get((0, 0, 4)) == 300


def test_a_clock_inside_braces_makes_the_formula_volatile() -> None:
    book = book_with({"Calc": [[None]]})
    assert book.compile(0, "={TODAY(), 1}")[1] is True
    assert book.compile(0, "={1, 2}")[1] is False


# Functions a summary or a cleanup is written with that answered #NAME? before (Data: Ann/East/100,
# Bob/West/250, Cy/East/75, Di/North/300; dates 2026-01-15, 02-28, 03-03, 03-31).
MORE = [
    ("=LARGE(Data!C2:C5,2)", 250), ("=SMALL(Data!C2:C5,1)", 75), ("=SUM(LARGE(Data!C2:C5,{1,2}))", 550),
    ("=RANK(250,Data!C2:C5)", 2), ("=RANK(250,Data!C2:C5,1)", 3), ("=RANK.EQ(300,Data!C2:C5)", 1), ("=SUM(RANK(Data!C2:C5,Data!C2:C5))", 10),
    ("=STDEV(1,2,3,4)", 1.2909944487358056), ("=STDEVP(1,2,3,4)", 1.118033988749895), ("=VAR.S(1,2,3,4)", 5 / 3), ("=VARP(1,2,3,4)", 1.25),
    ("=COUNTUNIQUE(Data!B2:B5)", 3), ('=COUNTUNIQUE(Data!B1:B9,"east",1,"1")', 6),
    ("=CEILING(2.1)", 3), ("=CEILING(23.26,0.25)", 23.5), ("=CEILING(0.3,0.1)", 0.3), ("=CEILING(-2.5,1)", -2), ("=FLOOR(7.9,2)", 6), ("=FLOOR(-2.5)", -3),
    ("=SUM(SEQUENCE(3))", 6), ("=INDEX(SEQUENCE(2,3,10,5),2,1)", 25),
    ('=FIND("st","Sheets test")', 10), ('=SEARCH("T","Sheets test")', 5), ('=SEARCH("s","Sheets",2)', 6),
    ('=SUMPRODUCT(--ISNUMBER(SEARCH("e",Data!B2:B5)))', 3), ('=EXACT("a","A")', False), ("=EXACT(1,\"1\")", True),
    ('=INDEX(SPLIT("a,b;;c",",;"),3)', "c"), ('=COLUMNS(SPLIT("a,,b",",",TRUE,FALSE))', 3), ('=SUM(SPLIT("1,2,3",","))', 6),
    ('=INDEX(SPLIT("a--b","--",FALSE),2)', "b"),
    ('=REGEXMATCH("INV-1004","^INV-\\d+$")', True), ('=SUMPRODUCT(--REGEXMATCH(Data!A2:A5,"^[AB]"))', 2),
    ('=REGEXEXTRACT("Order 1234 shipped","\\d+")', "1234"), ('=REGEXEXTRACT("ann@acme.com","@(.+)$")', "acme.com"),
    ('=INDEX(REGEXEXTRACT("2026-03","(\\d+)-(\\d+)"),2)', "03"), ('=REGEXREPLACE("2026-03-31","(\\d+)-(\\d+)-(\\d+)","$3/$2/$1")', "31/03/2026"),
    ('=DATEVALUE("2026-03-31")', to_serial(datetime(2026, 3, 31))), ("=DATEVALUE(Data!D2)", to_serial(datetime(2026, 1, 15))),
    ("=WEEKNUM(DATE(2026,1,3))", 1), ("=WEEKNUM(DATE(2026,1,4))", 2), ("=WEEKNUM(DATE(2026,1,4),2)", 1), ("=WEEKNUM(DATE(2025,12,31))", 53),
    ("=WEEKNUM(DATE(2027,1,1),21)", 53), ("=ISOWEEKNUM(Data!D5)", 14),
    ("=ROW(Data!C5)", 5), ("=COLUMN(Data!C5)", 3), ("=SUM(ROW(Data!A2:A5))", 14), ("=ROWS(ROW(Data!A2:A))", 4),
    ('=CHOOSE(2,"a","b","c")', "b"), ('=VLOOKUP("Bob",CHOOSE({1,2},Data!A2:A5,Data!C2:C5),2,FALSE)', 250),
    ("=ROWS(HSTACK(Data!A2:A5,Data!C2:C3))", 4), ('=ROWS(VSTACK({"Name","Amount"},Data!A2:B5))', 5), ("=COLUMNS(VSTACK(Data!A1:C1,Data!A2:B5))", 3),
    ("=INDEX(SORTN(Data!A2:C5,2,0,3,FALSE),2,1)", "Bob"), ("=ROWS(SORTN({1;2;2;3},2,1,1,FALSE))", 3), ("=ROWS(SORTN({1;3;3;2},2,2,1,FALSE))", 2),
    ("=SORTN(Data!C2:C5)", 75),
]


@pytest.mark.parametrize(("formula", "expected"), MORE, ids=[c[0] for c in MORE])
def test_more_functions_compute_known_values(formula: str, expected: Any) -> None:
    test_functions_compute_known_values(formula, expected)


MORE_ERRORS = [
    ("=LARGE(Data!C2:C5,9)", "#NUM!"), ("=RANK(7,Data!C2:C5)", "#N/A"), ("=STDEV(1)", "#DIV/0!"), ('=FIND("T","Sheets test")', "#VALUE!"),
    ('=REGEXEXTRACT("abc","\\d")', "#N/A"), ('=REGEXMATCH("x","(")', "#REF!"), ('=DATEVALUE("nope")', "#VALUE!"), ('=CHOOSE(4,"a","b")', "#VALUE!"),
    ("=INDEX(HSTACK(Data!A2:A5,Data!C2:C3),4,2)", "#N/A"), ("=ROW(5)", "#VALUE!"),
]


@pytest.mark.parametrize(("formula", "code"), MORE_ERRORS, ids=[e[0] for e in MORE_ERRORS])
def test_more_functions_give_the_spreadsheet_errors(formula: str, code: str) -> None:
    test_errors_are_the_spreadsheet_codes_with_a_reason(formula, code)


LOOKUP_AND_UNIQUE = [
    ('=LOOKUP(2,1/(Data!B2:B5="East"),Data!A2:A5)', "Cy"),  # the last row where Region is East
    ('=LOOKUP(150,{100,200,300},{"a","b","c"})', "a"), ('=LOOKUP("C",{"A","B","D"},{1,2,3})', 2), ("=LOOKUP(3,{1,2;10,20})", 2),
    ("=LOOKUP(50,{100,200})", "#N/A"),
    ('=ROWS(UNIQUE({1;TRUE;1;"1"}))', 3),  # TRUE is not 1, and the text "1" is not the number
]


@pytest.mark.parametrize(("formula", "expected"), LOOKUP_AND_UNIQUE, ids=[c[0] for c in LOOKUP_AND_UNIQUE])
def test_lookup_finds_the_last_value_not_above_the_key_and_unique_keeps_types_apart(formula: str, expected: Any) -> None:
    got = evaluate(formula)
    if isinstance(expected, str) and expected.startswith("#"):
        assert isinstance(got, CellError) and got.code == expected
    else:
        test_functions_compute_known_values(formula, expected)


MORE_DATES_AND_ARRAYS = [
    ('=DATEDIF(DATE(2020,5,15),DATE(2026,3,31),"Y")', 5), ('=DATEDIF(DATE(2020,5,15),DATE(2026,3,31),"M")', 70),
    ('=DATEDIF(DATE(2020,5,15),DATE(2026,3,31),"D")', 2146), ('=DATEDIF(DATE(2020,5,15),DATE(2026,3,31),"MD")', 16),
    ('=DATEDIF(DATE(2020,5,15),DATE(2026,3,31),"YM")', 10), ('=DATEDIF(DATE(2020,5,15),DATE(2026,3,31),"YD")', 320),
    ("=TIME(9,30,0)", 9.5 / 24), ("=HOUR(TIME(9,30,15))", 9), ("=MINUTE(TIME(9,30,15))", 30), ("=SECOND(TIME(9,30,15))", 15), ("=HOUR(NOW())", 9),
    ("=TRUNC(-2.567,1)", -2.5), ("=TRUNC(8.9)", 8), ("=SUMSQ(3,4)", 25), ("=PERCENTILE({1,2,3,4},0.3)", 1.9), ("=QUARTILE({1,2,3,4,5,6,7,8},1)", 2.75),
    ("=SUM(MMULT({1,2;3,4},{1;1}))", 10), ("=INDEX(MMULT({1,2;3,4},{5,6;7,8}),2,2)", 50), ('=JOIN("-",{1,2,3})', "1-2-3"),
    ("=ISERR(1/0)", True), ("=ISERR(NA())", False), ("=ROWS(ARRAY_CONSTRAIN(Data!A1:E5,2,3))", 2), ("=INDEX(FLATTEN(Data!A1:B3),4)", "East"),
]


@pytest.mark.parametrize(("formula", "expected"), MORE_DATES_AND_ARRAYS, ids=[c[0] for c in MORE_DATES_AND_ARRAYS])
def test_dates_times_percentiles_and_array_shaping_compute_known_values(formula: str, expected: Any) -> None:
    test_functions_compute_known_values(formula, expected)


OPERATOR_FUNCTIONS = [
    ("=QUOTIENT(7,2)", 3), ("=QUOTIENT(-7,2)", -3), ("=QUOTIENT(MONTH(Data!D3)-1,3)+1", 1), ("=ADD(2,3)", 5), ("=MINUS(2,3)", -1),
    ("=MULTIPLY(Data!C2,2)", 200), ("=DIVIDE(9,4)", 2.25), ("=QUOTIENT(1,0)", "#DIV/0!"), ("=DIVIDE(1,0)", "#DIV/0!"),
]


@pytest.mark.parametrize(("formula", "expected"), OPERATOR_FUNCTIONS, ids=[c[0] for c in OPERATOR_FUNCTIONS])
def test_quotient_and_the_operator_functions(formula: str, expected: Any) -> None:
    """QUOTIENT (a quarter written as QUOTIENT(MONTH(d)-1,3)+1) and Google's ADD, MINUS,
    MULTIPLY, DIVIDE: they answered #NAME?."""
    got = evaluate(formula)
    if isinstance(expected, str):
        assert isinstance(got, CellError) and got.code == expected, (formula, got)
    else:
        test_functions_compute_known_values(formula, expected)


def test_row_and_column_without_a_reference_are_the_formulas_own() -> None:
    """=ROW()-1 numbers a table's rows, INDEX(…, ROW()) reads along them; they answered #N/A
    (a reference was required)."""
    book = book_with({"S": [["n", "col"], ["=ROW()-1", "=COLUMN()"], ["=ROW()-1", '=INDEX({"a";"b";"c"},ROW())']]})
    assert [book.get((0, r, 0)) for r in (1, 2)] == [1.0, 2.0]
    assert book.get((0, 1, 1)) == 2.0 and book.get((0, 2, 1)) == "c"
    assert book.get((0, 1, 0)) == 1.0  # unchanged by an edit elsewhere
    book.set_input((0, 5, 5), 1.0)
    book.recalc({(0, 5, 5)}, include_self=True)
    assert book.get((0, 2, 0)) == 2.0


def test_row_without_a_reference_follows_its_cell_when_rows_are_inserted(gym: Any, env: Any) -> None:
    from apps.sheets.service import SheetsService

    def run(step: Any) -> Any:
        with gym.store.session(env) as db:
            return step(SheetsService(db))

    sid = run(lambda s: s.spreadsheets_create({"title": "Rows"}))["spreadsheetId"]
    run(lambda s: s.values_update(sid, "Sheet1!A2", [["=ROW()"]], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(sid, [{"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 2}}}]))
    assert run(lambda s: s.values_get(sid, "Sheet1!A4", valueRenderOption="UNFORMATTED_VALUE"))["values"] == [[4]]
