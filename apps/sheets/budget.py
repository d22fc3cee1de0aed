"""How much cell content one write, one spreadsheet and one grid read may hold: the
simulator's own limits, where Google's are far beyond what one env on a shared server can pay.

Google takes a request that fills or formats every cell of a big grid, and a spreadsheet of
up to ten million cells of up to 50,000 characters each. Here one such call would stop every
env on the server: a 20 KB number format repeated over a new tab's 26,000 cells is half a
gigabyte written in one request, and a dropdown rule over a whole tab is repeated on every
cell spreadsheets.get lists. So a write, the spreadsheet after it and a grid read are bounded
by the characters the cells hold (values, formulas, notes, formats, validation rules) — limits
hundreds of times above any workbook of the company or of a task — and a call over one is
refused whole, in Google's words, naming the limit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from apps.sheets.errors import invalid
from apps.sheets.models import Cell
from officegym.core.sql import Prepared

MB = 1024 * 1024
MAX_WRITE_CHARS = 32 * MB  # cell contents one request may write
MAX_BOOK_CHARS = 128 * MB  # cell contents a spreadsheet may hold
MAX_GRID_CHARS = 64 * MB  # what spreadsheets.get may list of cells with includeGridData
CHECK_BOOK_ABOVE = MB  # a write this large also has its spreadsheet's total checked

_CONTENT = ("formula", "value", "note", "number_format", "style")
_c = Cell.__table__.c
_BOOK_CHARS = Prepared(select(func.coalesce(func.sum(
    func.coalesce(func.length(_c.formula), 0) + func.coalesce(func.length(_c.value), 0) + func.coalesce(func.length(_c.note), 0)
    + func.coalesce(func.length(_c.number_format), 0) + func.coalesce(func.length(_c.style), 0)), 0))
    .where(_c.spreadsheet_id == bindparam("ss")))


def chars(row: dict[str, Any]) -> int:
    """The characters a stored cell row holds (its dependency list is derived: not counted)."""
    return sum(len(row[name]) for name in _CONTENT if row[name])


def check_write(rows: Iterable[dict[str, Any] | None]) -> int:
    """The characters `rows` hold (None: a cell emptied), refused above MAX_WRITE_CHARS."""
    total = sum(chars(row) for row in rows if row is not None)
    if total > MAX_WRITE_CHARS:
        refuse_write(total)
    return total


def refuse_write(total: int) -> None:
    raise invalid(f"This action would write {_mb(total)} or more of cell contents; at most {_mb(MAX_WRITE_CHARS)} can be "
                  "written by one request. Write the data in smaller ranges.")


def check_book(db: Session, spreadsheet_id: str, written: int) -> None:
    """After a write of `written` characters: the spreadsheet's cells, as now stored in this
    transaction, within MAX_BOOK_CHARS (refused, the operation is rolled back whole). Only a
    large write reads the total (a sum over the spreadsheet's cells), so the small writes an
    agent makes all the time cost what they did."""
    if written <= CHECK_BOOK_ABOVE:
        return
    total = _BOOK_CHARS.tuples(db, ss=spreadsheet_id)[0][0]
    if total > MAX_BOOK_CHARS:
        raise invalid(f"This action would increase the cell contents of the spreadsheet to {_mb(total)}, above the limit "
                      f"of {_mb(MAX_BOOK_CHARS)}.")


class GridAllowance:
    """What one spreadsheets.get may still list of cells with includeGridData."""

    def __init__(self) -> None:
        self.left = MAX_GRID_CHARS

    def spend(self, count: int) -> None:
        self.left -= count
        if self.left < 0:
            raise invalid(f"The response would list more than {_mb(MAX_GRID_CHARS)} of cells. Ask for less: name the "
                          "ranges you need (ranges=Sheet1!A1:D100) or read values with spreadsheets.values.get.")


def _mb(chars: int) -> str:
    return f"{chars / MB:.0f} MB" if chars >= MB else f"{chars / 1024:.0f} KB"
