"""What a formula evaluated in a workbook may read (the evaluator's `Context` over a `Book`),
and whether a formula is volatile (recalculated on every change, not only its inputs')."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from apps.sheets.a1 import GridRange
from apps.sheets.formulas.parser import DYNAMIC, static_target
from apps.sheets.formulas.values import FormulaError, Matrix

if TYPE_CHECKING:
    from apps.sheets.formulas.engine import Book


def is_volatile(tree: tuple[Any, ...], volatile: frozenset[str]) -> bool:
    """Whether a formula calls a function whose value changes without an edit (NOW, RAND…), or
    reads a range it works out as it runs (OFFSET, INDIRECT with arguments that are not
    literal): the dependency graph cannot know what it reads, so it is recalculated whenever
    its spreadsheet changes, as Google Sheets and Excel treat them."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node[0] == "call":
            if node[1] in volatile or (node[1] in DYNAMIC and static_target(node) is None):
                return True
            stack.extend(node[2])
        elif node[0] == "op":
            stack.extend((node[2], node[3]))
        elif node[0] in ("neg", "pct"):
            stack.append(node[1])
        elif node[0] == "array":  # {TODAY(), 1}
            stack.extend(item for row in node[1] for item in row)
    return False


class BookContext:
    """What a formula evaluated in a `Book` reads: its cells, by sheet title; its names; its clock;
    and its own cell (row, column), which ROW() and COLUMN() without a reference answer."""

    __slots__ = ("book", "sheet_id", "sheet", "now", "cell")
    bound = None  # names bound by LET or LAMBDA: none outside an evaluator.Scope

    def __init__(self, book: Book, sheet_id: int, cell: tuple[int, int] | None = None) -> None:
        self.book = book
        self.sheet_id = sheet_id
        self.cell = cell
        self.sheet = book.sheets[sheet_id].title
        self.now = book.now

    def read(self, sheet: str | None, grid: GridRange) -> Matrix:
        target = self.sheet_id if sheet is None else self.book.by_title.get(sheet.lower())
        if target is None:
            raise FormulaError("#REF!", f"Unresolved sheet name '{sheet}'.")
        return self.book.read(target, grid)

    def resolve_name(self, name: str) -> tuple[str, GridRange] | None:
        found = self.book.names.get(name.lower())
        if found is None:
            return None
        return self.book.sheets[found[0]].title, found[1]
