"""Which conditional aggregates a changed cell cannot move, so recalculation skips them.

A summary tab is mostly SUMIFS(Amount, Stage, "Won", Owner, A5) and its kind, one per row of
the summary, all reading the same table. A change to one row's amount makes every one of them
a dependant, but only those whose criteria that row meets can give a different total: for the
others the row is not counted before the change or after. So a formula whose whole text is one
SUMIF, SUMIFS, AVERAGEIF(S), MAXIFS or MINIFS over closed ranges of one shape is left as it is
when the changed cell lies in its summed range only (not in a criteria range, not a criterion)
and the criteria at the cell's position are not all met. Anything else counts as affected.

The criteria are read as they stand when asked. A criterion cell or criteria range cell that is
itself recalculated later in the same pass reaches the formula on its own when its value
changes (it is a precedent), so a stale reading here never leaves the formula stale.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from apps.sheets.formulas.functions_math import criterion
from apps.sheets.formulas.parser import FormulaSyntaxError, parse
from apps.sheets.formulas.values import FormulaError

if TYPE_CHECKING:
    from apps.sheets.formulas.engine import Book, Key

SUMMED_FIRST = frozenset({"SUMIFS", "AVERAGEIFS", "MAXIFS", "MINIFS"})  # (summed, range, criterion, …)
SUMMED_LAST = frozenset({"SUMIF", "AVERAGEIF"})  # (range, criterion, summed)
LITERALS = ("str", "num", "bool")


@lru_cache(maxsize=4096)
def shape(text: str) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]] | None:
    """(summed range, criteria ranges, criteria) of a formula that is one conditional
    aggregate over closed ranges, each criterion a literal or one cell; None for any other."""
    try:
        tree = parse(text)
    except FormulaSyntaxError:
        return None
    if tree[0] != "call":
        return None
    name, args = tree[1], tree[2]
    if name in SUMMED_LAST and len(args) == 3:
        summed, ranges, criteria = args[2], (args[0],), (args[1],)
    elif name in SUMMED_FIRST and len(args) >= 3 and len(args) % 2 == 1:
        summed, ranges, criteria = args[0], args[1::2], args[2::2]
    else:
        return None
    for node in (summed, *ranges):
        if node[0] != "ref" or node[2].r2 is None or node[2].c2 is None:
            return None
    for node in criteria:
        if node[0] not in LITERALS and not (node[0] == "ref" and node[2].r2 == node[2].r1 + 1 and node[2].c2 == node[2].c1 + 1):
            return None
    return summed, tuple(ranges), tuple(criteria)


def unaffected(book: Book, key: Key, cell: Key) -> bool:
    """Whether the formula at `key` provably keeps its value when `cell` changes (False when
    in any doubt)."""
    found = plan_of(book, key)
    if found is None:
        return False
    summed, parts = found
    sheet, row, col = cell
    target, r1, c1, r2, c2 = summed
    if target != sheet or not (r1 <= row < r2 and c1 <= col < c2):
        return False
    down, across = row - r1, col - c1
    met = True
    get = book.get
    for where, top, left, bottom, right, at, test in parts:
        if where == sheet and top <= row < bottom and left <= col < right:
            return False  # the cell is tested as well as summed
        if at is not None:
            if at == cell:
                return False  # the cell is a criterion
            if not met:
                continue  # only the checks above are left for this part
            try:
                test = criterion(get(at))
            except FormulaError:
                return False
        if met and not test(get((where, top + down, left + across))):
            met = False
    return not met


def unaffected_each(book: Book, keys: list[Key], cell: Key) -> set[Key]:
    """The formulas of `keys` that provably keep their value when `cell` changes: `unaffected`
    of each, in one sweep (a typed amount reaches a whole summary column of them, and the
    call per formula cost more than its test). A criterion cell's test is built once.
    (`aggregate_groups.unaffected_among` answers most of a summary column without this.)"""
    formulas, values, inputs, spill = book.formulas, book.values, book.inputs, book.spill
    sheet, row, col = cell
    tests: dict[Key, Any] = {}
    kept: set[Key] = set()
    for key in keys:
        found = plan_of(book, key)
        if found is None:
            continue
        (target, r1, c1, r2, c2), parts = found
        if target != sheet or not (r1 <= row < r2 and c1 <= col < c2):
            continue
        down, across = row - r1, col - c1
        met = True
        for where, top, left, bottom, right, at, test in parts:
            if where == sheet and top <= row < bottom and left <= col < right:
                break  # the cell is tested as well as summed
            if at is not None:
                if at == cell:
                    break  # the cell is a criterion
                if not met:
                    continue  # only the checks above are left for this part
                test = tests.get(at)
                if test is None:
                    # what `Book.get` reads at the criterion cell
                    value = values.get(at) if at in formulas else inputs[at] if at in inputs else spill.get(at)
                    try:
                        test = tests[at] = criterion(value)
                    except FormulaError:
                        break
            if met:
                there = (where, top + down, left + across)
                if not test(values.get(there) if there in formulas else inputs[there] if there in inputs else spill.get(there)):
                    met = False
        else:
            if not met:
                kept.add(key)
    return kept


_UNPLANNED = object()


def plan_of(book: Book, key: Key) -> tuple[Any, tuple[Any, ...]] | None:
    """`plan` of the formula at `key` (kept per sheet and text), None for any other formula."""
    text = book.formulas.get(key)
    if text is None:
        return None
    found = book.plans.get((key[0], text), _UNPLANNED)
    if found is _UNPLANNED:
        found = book.plans[(key[0], text)] = plan(book, key[0], text)
    return found


def plan(book: Book, home: int, text: str) -> tuple[Any, tuple[Any, ...]] | None:
    """The formula's ranges resolved to sheet ids: ((sheet, r1, c1, r2, c2) summed, a part
    per criterion: (its range, its cell or None, its test or None)); None if it is not a
    conditional aggregate whose ranges are all of one shape and within their sheets' grids
    (a book keeps plans per formula text: a sheet only ever grows or gains titles while a
    book lives, so a plan made stays true, or stays None)."""
    found = shape(text)
    if found is None:
        return None
    summed, ranges, criteria = found
    target, grid = _sheet(book, home, summed), summed[2]
    if not _inside(book, target, grid):
        return None
    height, width = grid.r2 - grid.r1, grid.c2 - grid.c1
    parts = []
    for area, spec in zip(ranges, criteria, strict=True):
        where, box = _sheet(book, home, area), area[2]
        if where is None or (box.r2 - box.r1, box.c2 - box.c1) != (height, width) or not _inside(book, where, box):
            return None
        if spec[0] == "ref":
            at = (_sheet(book, home, spec), spec[2].r1, spec[2].c1)
            if at[0] is None:
                return None
            parts.append((where, box.r1, box.c1, box.r2, box.c2, at, None))
        else:
            try:
                test = criterion(spec[1])
            except FormulaError:
                return None
            parts.append((where, box.r1, box.c1, box.r2, box.c2, None, test))
    return (target, grid.r1, grid.c1, grid.r2, grid.c2), tuple(parts)


def _sheet(book: Book, home: int, node: tuple[Any, ...]) -> int | None:
    return home if node[1] is None else book.by_title.get(node[1].lower())


def _inside(book: Book, sheet: int | None, box: Any) -> bool:
    """A range within its sheet's grid, so reading it gives exactly its shape."""
    info = book.sheets.get(sheet) if sheet is not None else None
    return info is not None and box.r2 <= info.rows and box.c2 <= info.cols
