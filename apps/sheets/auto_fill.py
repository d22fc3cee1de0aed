"""batchUpdate's autoFill (AutoFillRequest): extending data into the cells beside it, as
dragging the fill handle does in Google Sheets.

The source is given either as `sourceAndDestination {source, dimension, fillLength}` (the
source range, the direction, how many rows or columns to fill: after the source when positive,
before it when negative) or as `range`, where the rows (or columns) that hold data at one end
are the source and the empty rest is filled.

Each line along the fill (a column when filling rows, a row when filling columns) is extended
on its own, as Google extends it:
- numbers (dates and times too: they are numbers shown as dates) continue their series: one
  number counts on by 1, several follow their linear trend (1, 3 → 5, 7; a date → the next
  days);
- text ending in a number continues that number, keeping the rest and the digits' padding
  ("Item 9" → "Item 10", "Q01" → "Q02"), when every source cell is that text with the same
  head;
- month and weekday names, full or short (January, Jan, Monday, Mon), continue round the
  year or week (December → January, Sun → Mon), by the step the source takes between them
  (Jan, Mar → May, Jul) and in each name's own case (JAN → FEB, jan → feb), when every source
  cell is a name of the same list;
- anything else (plain text, booleans, mixed lines) is repeated in turn; formulas are copied
  with their relative references moved as far as the cell moved ("=A2*2" one row down is
  "=A3*2"), absolute ones ($A$1) kept.
`useAlternateSeries` is Google's other series: copies of the source in turn, with no counting.
Formats are copied with the values. The request has no reply.
"""

from __future__ import annotations

import re
from typing import Any

from apps.sheets.entry import Entered
from apps.sheets.errors import invalid
from apps.sheets.rewrite import offset

_TRAILING_NUMBER = re.compile(r"^(.*?)(\d+)$", re.DOTALL)
DIMENSIONS = ("ROWS", "COLUMNS")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
          "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# The lists a fill continues by name, each as the names it holds in lower case; the short ones
# first, so a lone "May" (both a short and a full name) goes on as the short names do.
NAMED_SERIES = tuple([name.lower() for name in names] for names in ([m[:3] for m in MONTHS], MONTHS, [d[:3] for d in WEEKDAYS], WEEKDAYS))


def auto_fill(self: Any, ss: Any, body: dict[str, Any], label: str) -> dict[str, Any]:
    from apps.sheets.requests import grid_of  # (requests imports this module for its HANDLERS)

    alternate = body.get("useAlternateSeries", False)
    if not isinstance(alternate, bool):
        raise invalid(f"{label}.useAlternateSeries: must be true or false")
    given = [k for k in ("range", "sourceAndDestination") if body.get(k) is not None]
    if len(given) != 1:
        raise invalid(f"{label}: give exactly one of range or sourceAndDestination")
    book = self.book(ss.id)
    if given[0] == "sourceAndDestination":
        spec = body["sourceAndDestination"]
        if not isinstance(spec, dict):
            raise invalid(f"{label}.sourceAndDestination: must be an object {{source, dimension, fillLength}}")
        tab, src = grid_of(self, ss, spec.get("source"), f"{label}.sourceAndDestination.source")
        dimension = spec.get("dimension")
        if dimension not in DIMENSIONS:
            raise invalid(f"{label}.sourceAndDestination.dimension: must be ROWS or COLUMNS; got {dimension!r}")
        length = spec.get("fillLength")
        if isinstance(length, bool) or not isinstance(length, int | str) or not str(length).strip().lstrip("-").isdigit() or int(length) == 0:
            raise invalid(f"{label}.sourceAndDestination.fillLength: must be a non-zero integer (negative fills before the source)")
        length = int(length)
    else:
        tab, area = grid_of(self, ss, body["range"], f"{label}.range")
        src, dimension, length = _source_in(book, tab.sheet_id, area, label)
    rows = dimension == "ROWS"
    r1, c1, r2, c2 = src.r1, src.c1, src.r2 or 0, src.c2 or 0
    size = (r2 - r1) if rows else (c2 - c1)
    if size <= 0 or (c2 - c1 if rows else r2 - r1) <= 0:
        raise invalid(f"{label}: the source range is empty")
    start = (r2 if rows else c2) if length > 0 else (r1 if rows else c1) + length
    end = start + abs(length)
    limit = tab.row_count if rows else tab.column_count
    if start < 0 or end > limit:
        raise invalid(f"{label}: the fill reaches beyond the grid (it has {limit} {'rows' if rows else 'columns'})")
    first = r1 if rows else c1
    entries: dict[tuple[int, int, int], Entered] = {}
    for line in range(c1, c2) if rows else range(r1, r2):
        keys = [(tab.sheet_id, first + i, line) if rows else (tab.sheet_id, line, first + i) for i in range(size)]
        cells = [(book.book.formulas.get(k), book.book.get(k), book.formats.get(k)) for k in keys]
        series = None if alternate else _series(cells)
        for at in range(start, end):
            step = at - first  # positions from the source's first cell (negative: before it)
            origin = step % size
            formula, value, fmt = cells[origin]
            key = (tab.sheet_id, at, line) if rows else (tab.sheet_id, line, at)
            if series is not None:
                entries[key] = Entered(None, series(step))
            elif formula:
                moved = at - (first + origin)
                entries[key] = Entered(offset(formula, moved, 0) if rows else offset(formula, 0, moved), None)
            else:
                entries[key] = Entered(None, value)
            book.set_format(key, *(fmt or (None, None)))
    book.write(entries)
    return {}


def _series(cells: list[tuple[Any, Any, Any]]) -> Any:
    """position → value of the line's counting series, or None when the line is repeated."""
    if any(formula for formula, _, _ in cells):
        return None
    values = [value for _, value, _ in cells]
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        at = _trend([float(v) for v in values])
        return lambda i: _tidy(at(i))
    if all(isinstance(v, str) for v in values):
        named = _named(values)
        if named is not None:
            return named
        parts = [_TRAILING_NUMBER.match(v) for v in values]
        if all(parts) and len({p.group(1) for p in parts}) == 1:  # type: ignore[union-attr]
            head = parts[0].group(1)  # type: ignore[union-attr]
            width = len(parts[0].group(2)) if parts[0].group(2).startswith("0") else 1  # type: ignore[union-attr]
            at = _trend([float(p.group(2)) for p in parts])  # type: ignore[union-attr]
            return lambda i: f"{head}{abs(round(at(i))):0{width}d}"
    return None


def _named(values: list[str]) -> Any:
    """position → name of the month or weekday series the values follow (a constant step
    round the list; one name steps by one), or None. Each name keeps the case of the source
    cell it stands in for: all capitals, all small letters, or capitalised."""
    for names in NAMED_SERIES:
        at = [names.index(v.strip().lower()) if v.strip().lower() in names else -1 for v in values]
        if -1 in at:
            continue
        n = len(names)
        steps = {(b - a) % n for a, b in zip(at, at[1:])}
        if len(steps) > 1:
            return None
        step = steps.pop() if steps else 1
        size = len(values)

        def name(i: int, at: list[int] = at, names: list[str] = names, step: int = step, size: int = size) -> str:
            word = names[(at[0] + step * i) % len(names)]
            like = values[i % size].strip()
            return word.upper() if like.isupper() and len(like) > 1 else word if like.islower() else word.capitalize()
        return name
    return None


def _trend(values: list[float]) -> Any:
    """position → value on the least-squares line through the values (one value: +1 a step)."""
    n = len(values)
    if n == 1:
        return lambda i: values[0] + i
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(values)) / sum((x - mean_x) ** 2 for x in range(n))
    return lambda i: mean_y + slope * (i - mean_x)


def _tidy(number: float) -> float:
    """The value without binary noise (0.1 + 0.2 steps show 0.3, as the spreadsheet shows them)."""
    return float(f"{number:.15g}")


def _source_in(book: Any, sheet_id: int, area: Any, label: str) -> tuple[Any, str, int]:
    """(source, dimension, fillLength) of a `range` autofill: the rows at the top (or bottom)
    that hold data, filled down (up) over the empty rest; else the columns at the left (right),
    filled across."""
    from apps.sheets.a1 import GridRange

    r1, c1, r2, c2 = area.r1, area.c1, area.r2 or 0, area.c2 or 0

    def filled(r: int, c: int) -> bool:
        key = (sheet_id, r, c)
        return bool(book.book.formulas.get(key)) or book.book.get(key) not in (None, "")

    row_has = [any(filled(r, c) for c in range(c1, c2)) for r in range(r1, r2)]
    col_has = [any(filled(r, c) for r in range(r1, r2)) for c in range(c1, c2)]
    for flags, rows in ((row_has, True), (col_has, False)):
        lead = next((i for i, f in enumerate(flags) if not f), len(flags))
        if 0 < lead < len(flags) and not any(flags[lead:]):
            src = GridRange(area.sheet, r1, c1, r1 + lead, c2) if rows else GridRange(area.sheet, r1, c1, r2, c1 + lead)
            return src, "ROWS" if rows else "COLUMNS", len(flags) - lead
        trail = next((i for i, f in enumerate(reversed(flags)) if not f), len(flags))
        if 0 < trail < len(flags) and not any(flags[: len(flags) - trail]):
            top = len(flags) - trail
            src = GridRange(area.sheet, r1 + top, c1, r2, c2) if rows else GridRange(area.sheet, r1, c1 + top, r2, c2)
            return src, "ROWS" if rows else "COLUMNS", -top
    raise invalid(f"{label}.range: no data to fill from: the range needs rows (or columns) with data at one end and empty ones after them")
