"""An open range (`A:A`, `2:2`) ends at its sheet's last used row and column, so a cell filled
or emptied in another column moves what it reads: every formula reading an open range of that
sheet shows what a whole calculation shows, in memory and through an operation's save."""

from __future__ import annotations

from datetime import datetime

from apps.sheets.entry import Entered
from apps.sheets.formulas.engine import Book, SheetInfo
from apps.sheets.service import SheetsService
from apps.sheets.store import StoredBook
from tests.apps.sheets.conftest import Run


def _book() -> Book:
    book = Book([SheetInfo(0, "Data", 100, 10), SheetInfo(1, "Sum", 100, 10)], now=datetime(2026, 1, 1))
    book.set_input((0, 0, 0), "a")
    book.set_input((0, 1, 0), "b")
    book.set_formula((1, 0, 0), '=COUNTIF(Data!A:A,"")')  # blanks down column A, to the last used row
    book.set_formula((1, 1, 0), '=COUNTBLANK(Data!2:2)')  # blanks along row 2, to the last used column
    book.set_formula((1, 2, 0), "=ROWS(Data!A:A)")
    book.recalc_all()
    return book


def _edit(book: Book, key: tuple[int, int, int], value: object) -> None:
    book.set_input(key, value)
    book.recalc({key}, include_self=True)


def test_a_cell_filled_below_in_another_column_lengthens_an_open_column() -> None:
    book = _book()
    assert (book.get((1, 0, 0)), book.get((1, 2, 0))) == (0.0, 2.0)
    _edit(book, (0, 4, 1), 5.0)  # Data!B5
    assert (book.get((1, 0, 0)), book.get((1, 2, 0))) == (3.0, 5.0)
    _edit(book, (0, 4, 1), None)  # emptied: the column ends at row 2 again
    assert (book.get((1, 0, 0)), book.get((1, 2, 0))) == (0.0, 2.0)


def test_a_cell_filled_to_the_right_in_another_row_widens_an_open_row() -> None:
    book = _book()
    assert book.get((1, 1, 0)) == 0.0  # Data!A2:A2 holds "b"
    _edit(book, (0, 0, 3), "x")  # Data!D1
    assert book.get((1, 1, 0)) == 3.0  # Data!A2:D2: three blanks
    _edit(book, (0, 0, 3), None)
    assert book.get((1, 1, 0)) == 0.0


def test_a_write_in_another_column_updates_a_stored_count_of_blanks(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:A2", [["a"], ["b"]], "USER_ENTERED"))
    run(lambda s: s.values_update(blank, "Sheet1!D1", [['=COUNTIF(A:A,"")']], "USER_ENTERED"))
    assert run(lambda s: s.values_get(blank, "Sheet1!D1"))["values"] == [["0"]]
    run(lambda s: s.values_update(blank, "Sheet1!B6", [["later"]], "USER_ENTERED"))
    assert run(lambda s: s.values_get(blank, "Sheet1!D1"))["values"] == [["4"]]
    run(lambda s: s.values_clear(blank, "Sheet1!B6"))
    assert run(lambda s: s.values_get(blank, "Sheet1!D1"))["values"] == [["0"]]


def test_a_book_loaded_from_rows_measures_its_sheets_once_every_row_is_in(run: Run, blank: str) -> None:
    """Rows stored without their precedents (compiled as they load) come first here: what an
    open range reads is measured over every loaded cell, not over the rows loaded so far."""
    rows = [(0, 0, 3, "=ROWS(A:A)", "n", "5.0", None, None, None, None, None),
            (0, 1, 3, "=COUNTA(A:A)", "n", "5.0", None, None, None, None, None)]
    rows += [(0, r, 0, None, "n", repr(float(r)), None, None, None, None, None) for r in range(5)]

    def edit(sheets: SheetsService) -> tuple[object, object]:
        stored = StoredBook(sheets.db, blank, datetime(2026, 1, 1), rows)
        stored.write({(0, 1, 0): Entered(None, 7.0)})  # A2: what reads column A is recalculated
        return stored.book.get((0, 0, 3)), stored.book.get((0, 1, 3))

    assert run(edit) == (5.0, 5.0)
