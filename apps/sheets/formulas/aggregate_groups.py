"""A summary column's conditional aggregates, grouped, so one changed cell is judged once per
group rather than once per formula.

A summary tab's column is SUMIF(Stage, A2, Amount), SUMIF(Stage, A3, Amount), …: the same
ranges and the same literal criteria, and one criterion cell per row. A changed amount is in
the summed range of every one of them, and `aggregates.unaffected_each` tests each in turn
(about 1.5 µs a formula; two summary columns cost an edit ~50 µs). Grouped by that frame,
what depends on the changed cell's row is worked out once per group: whether the cell is a
summed cell only, whether the row meets the literal criteria, and the row's value in the
first criteria range (the pivot). A formula whose pivot criterion is plain ASCII text
matches only rows holding that text in any case, so every other one in the group is left as
it is with no test at all; the one or two whose text the row holds get the full test.

Soundness. Only a criterion that `criterion` tests as plain text equality (no operator, no
wildcard, not a number, date, boolean or blank) is indexed, and only when it is ASCII, where
case-insensitive matching is exactly equality of the lower-cased texts; a non-ASCII row value
makes every member a candidate (Unicode case folding has equivalences that lower-casing does
not see). A member with a criterion cell showing an error, or whose criterion cell is the
changed cell, always gets the full test. The groups read criterion cells' values, so the book
drops them when one of those cells changes or an aggregate is entered or removed
(`Book._regroup`); they are built again on the next use.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from apps.sheets.formulas.aggregates import plan_of, unaffected_each
from apps.sheets.formulas.values import CellError, parse_date_text, parse_number_text

if TYPE_CHECKING:
    from apps.sheets.formulas.engine import Book, Key

_NOT_PLAIN = re.compile(r"^[<>=]|[*?~]")
_ANY = object()  # a row value every member's criterion may match


@dataclass(slots=True, eq=False)
class Group:
    summed: tuple[int, int, int, int, int]  # (sheet, r1, c1, r2, c2)
    boxes: tuple[tuple[int, int, int, int, int], ...]  # each criteria range, in order
    literals: tuple[tuple[int, Any], ...]  # (part, test) of each literal criterion
    pivot: int | None  # the first part whose criterion is a cell
    members: set[Key] = field(default_factory=set)
    by_text: dict[str, set[Key]] = field(default_factory=dict)  # pivot criterion, lower-cased → members
    checked: set[Key] = field(default_factory=set)  # members that always get the full test
    criterion_cells: set[Key] = field(default_factory=set)


class AggregateGroups:
    """Every conditional aggregate of a book that `aggregates.plan` can judge, by frame, and
    the groups by each column they sum (a changed cell finds its groups in one lookup)."""

    def __init__(self, book: Book) -> None:
        self.by_column: dict[tuple[int, int], list[Group]] = defaultdict(list)
        self.criterion_cells: set[Key] = set()
        self.criterion_sheets: set[int] = set()
        frames: dict[tuple[Any, ...], Group] = {}
        for key in book.aggregates:
            found = plan_of(book, key)
            if found is None:
                continue  # `unaffected_each` would leave it as affected too
            summed, parts = found
            frame = (summed, tuple((where, top, left, bottom, right, at is None, test) for where, top, left, bottom, right, at, test in parts))
            group = frames.get(frame)
            if group is None:
                pivot = next((i for i, part in enumerate(parts) if part[5] is not None), None)
                group = frames[frame] = Group(summed, tuple(part[:5] for part in parts),
                                              tuple((i, part[6]) for i, part in enumerate(parts) if part[5] is None), pivot)
                for col in range(summed[2], summed[4]):
                    self.by_column[(summed[0], col)].append(group)
            group.members.add(key)
            cells = [part[5] for part in parts if part[5] is not None]
            group.criterion_cells.update(cells)
            values = [book.get(cell) for cell in cells]
            if any(isinstance(value, CellError) for value in values):
                group.checked.add(key)  # its criterion fails to build: the full test says so
            elif group.pivot is not None:
                text = _plain_text(values[0])
                if text is None:
                    group.checked.add(key)
                else:
                    group.by_text.setdefault(text, set()).add(key)
        for group in frames.values():
            self.criterion_cells |= group.criterion_cells
        self.criterion_sheets = {cell[0] for cell in self.criterion_cells}


def _plain_text(value: Any) -> str | None:
    """The criterion lower-cased when `criterion` tests it as plain text equality and it is
    ASCII; None for any other criterion."""
    if not isinstance(value, str) or not value or not value.isascii() or _NOT_PLAIN.search(value):
        return None
    if value.upper() in ("TRUE", "FALSE") or parse_number_text(value) is not None or parse_date_text(value):
        return None
    return value.lower()


def unaffected_among(book: Book, keys: list[Key], cell: Key) -> set[Key]:
    """The formulas of `keys` that provably keep their value when `cell` changes (the answer
    `unaffected_each` gives, most of it without testing each formula). Only formulas summing
    `cell` can be left as they are, and each of those is in a group summing its column."""
    sheet, row, col = cell
    groups = book.aggregate_groups().by_column.get((sheet, col))
    if not groups:
        return set()
    asked = set(keys)
    kept: set[Key] = set()
    each: set[Key] = set()
    read = book.get
    for group in groups:
        target, r1, c1, r2, c2 = group.summed
        if not r1 <= row < r2:
            continue  # not a summed cell: each may change
        members = group.members & asked
        if not members:
            continue
        tested = False
        for where, top, left, bottom, right in group.boxes:
            if where == sheet and top <= row < bottom and left <= col < right:
                tested = True
                break
        if tested:
            continue  # a tested cell: each may change
        if cell in group.criterion_cells:
            each |= members  # (its own criterion: rare, and the full test knows it)
            continue
        down, across = row - r1, col - c1
        boxes = group.boxes
        rows_meet = True
        for i, test in group.literals:
            where, top, left = boxes[i][:3]
            if not test(read((where, top + down, left + across))):
                rows_meet = False
                break
        checked = members & group.checked if group.checked else None
        if checked:
            each |= checked
            members -= checked
        if not rows_meet:
            kept |= members  # a literal criterion fails on this row: before and after
            continue
        if group.pivot is None:
            continue  # every criterion is literal and met: the cell counts
        where, top, left = boxes[group.pivot][:3]
        value = read((where, top + down, left + across))
        if isinstance(value, str) and not value.isascii():
            each |= members  # Unicode case folding: the full test decides
            continue
        # A plain-text criterion matches only a text equal in any case: every member whose
        # criterion is another text is left as it is; those with this one get the full test.
        maybe = group.by_text.get(value.lower()) if isinstance(value, str) else None
        if maybe:
            maybe = maybe & members
            each |= maybe
            members -= maybe
        kept |= members
    if each:
        kept |= unaffected_each(book, list(each), cell)
    return kept
