"""Recalculation details a spreadsheet user sees: a formula that finds its range as it runs
(INDIRECT, OFFSET) shows the value of a cell recalculated in the same pass, not the one before;
a formula whose result is empty shows an empty cell, as Google Sheets does (`=IF(B1="",,A1/B1)`
is its own help's way to show nothing), while arithmetic still reads it as 0; and the
Excel-style tools accept LET and LAMBDA formulas."""

from __future__ import annotations

from apps.sheets.formulas.formats import display
from tests.apps.sheets.conftest import Run
from tests.apps.sheets.test_formulas import book_with


def test_indirect_reads_a_cell_recalculated_in_the_same_pass() -> None:
    book = book_with({"S": [[1, 5, '=INDIRECT("A"&B1)'], [], [], [], ["=A1*2"]]})  # a computed address: volatile
    assert book.get((0, 0, 2)) == 2, "the first recalculation reads A5 after computing it"
    book.set_input((0, 0, 0), 21.0)
    book.recalc({(0, 0, 0)})
    assert book.get((0, 4, 0)) == 42 and book.get((0, 0, 2)) == 42


def test_offset_after_what_it_reads() -> None:
    book = book_with({"S": [[3, "=OFFSET(A1,A3,0)", None], ["=A1*10"], [1]]})  # a computed offset: volatile
    book.set_input((0, 0, 0), 4.0)
    book.recalc({(0, 0, 0)})
    assert book.get((0, 0, 1)) == 40


def test_an_empty_result_shows_an_empty_cell_and_counts_as_zero() -> None:
    book = book_with({"S": [[5, None, '=IF(B1="",,A1/B1)', "=C1+1", "=B1", '=ISBLANK(C1)']]})
    assert book.get((0, 0, 2)) is None and display(book.get((0, 0, 2)), None) == ""
    assert book.get((0, 0, 3)) == 1, "arithmetic reads the empty result as 0"
    assert book.get((0, 0, 4)) is None, "a reference to an empty cell shows empty"
    book.set_input((0, 0, 1), 2.0)
    book.recalc({(0, 0, 1)})
    assert book.get((0, 0, 2)) == 2.5 and book.get((0, 0, 3)) == 3.5


def test_excel_style_tools_accept_let_and_lambda(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:A3", [[1], [2], [3]], "USER_ENTERED"))
    doubled = run(lambda s: s.apply_formula(blank, "Sheet1", "B1", "=MAP(A1:A3, LAMBDA(x, x*2))"))
    assert doubled["value"] == 2
    assert run(lambda s: s.apply_formula(blank, "Sheet1", "C1", "=LET(rate, 10, A1*rate)"))["value"] == 10
    assert run(lambda s: s.validate_formula(blank, "Sheet1", "D1", "=LAMBDA(x, x+1)(5)"))["valid"] is True
    assert run(lambda s: s.validate_formula(blank, "Sheet1", "D1", "=LET(rate, 10, A1*rat)"))["valid"] is False
