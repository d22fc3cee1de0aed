"""Automatic number formats: how a formula's result shows when the cell's own number format
is unset ("Automatic"), as Google Sheets infers it from the formula and the cells it reads.

The rules, for a number result (an explicit format on the cell always wins; text, booleans
and errors show as they are):

- a reference shows as the cell it reads: `=A2`, `=Data!B5` (a formula cell read this way
  shows as it shows, its own inferred format included);
- SUM, AVERAGE, MIN, MAX, MEDIAN, MODE, LARGE, SMALL, SUMIF(S), AVERAGEIF(S), MAXIFS, MINIFS
  and ROUND, ROUNDUP, ROUNDDOWN, INT, TRUNC, ABS, CEILING, FLOOR, MROUND show as the values they
  take: over a range, the first cell of it (row by row) that has a format; over several
  arguments the format they share (arguments of different types: none);
- `+` and `-`: a formatted operand with an unformatted one keeps its format (a date plus 7 is
  a date, $5 + 1 is $6); two of one type keep it, except two dates (or times), whose difference
  is a number of days; `*` and `/`: a currency or number format times (or divided by) an
  unformatted number keeps it; `3 * $5` is $15;
- TODAY, DATE, EDATE, EOMONTH show a date, NOW a date and time, TIME a time;
- anything else shows as a plain number: COUNT, COUNTIF and the other counts, text and
  position functions (LEN, FIND, MATCH), YEAR/MONTH/DAY, lookups, IF, `^`, and combinations of
  formats that the rules above do not settle.

Reading a formula for this does not run the formula parser over it: its references are found
with one regular expression, and the formula with each replaced by a placeholder (its shape)
is parsed once per shape, so a column of `=B2*C2`, `=B3*C3`, … costs one parse. The cells a
formula reads come from `fetch(sheet_id, r1, c1, r2, c2)`, which yields
(row, col, formula, number format JSON) for the cells of that rectangle holding a formula or a
number format; what the caller already read is handed to `know` so it is not read again.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from apps.sheets.a1 import column_index, corner_span
from apps.sheets.formulas.parser import FormulaSyntaxError, parse

Fmt = dict[str, str]
Key = tuple[int, int, int]
Box = tuple[int, int, int, int]  # r1, c1, r2, c2 (exclusive ends)
Fetch = Callable[[int, int, int, int, int], Iterable[tuple[int, int, str | None, str | None]]]

DATE = {"type": "DATE", "pattern": "yyyy-mm-dd"}
DATE_TIME = {"type": "DATE_TIME", "pattern": "yyyy-mm-dd h:mm:ss"}
TIME = {"type": "TIME", "pattern": "h:mm:ss AM/PM"}
# Functions whose result shows as a date or time whatever they read.
RESULT_FORMATS: dict[str, Fmt] = {"TODAY": DATE, "DATE": DATE, "EDATE": DATE, "EOMONTH": DATE, "NOW": DATE_TIME, "TIME": TIME}
# Functions whose result shows as the values they take: every argument, or the first only.
OF_ALL = frozenset({"SUM", "AVERAGE", "MIN", "MAX", "MEDIAN", "MODE"})
OF_FIRST = frozenset({"ROUND", "ROUNDUP", "ROUNDDOWN", "INT", "TRUNC", "ABS", "CEILING", "FLOOR", "MROUND", "LARGE", "SMALL",
                      "SUMIFS", "AVERAGEIFS", "MAXIFS", "MINIFS"})
OF_THIRD_OR_FIRST = frozenset({"SUMIF", "AVERAGEIF"})  # the summed range, else the tested one
DATED = frozenset({"DATE", "DATE_TIME", "TIME"})
SCALED = frozenset({"NUMBER", "CURRENCY", "SCIENTIFIC"})  # kept by * and / with a plain number
MAX_CANDIDATES = 32  # cells of one range looked at for its first format
MAX_FETCHES = 64  # reads of cells outside what the caller read, per inference

_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!"
_AREA = r"(?:\$?[A-Za-z]{1,3}\$?[0-9]+(?::\$?[A-Za-z]{1,3}(?:\$?[0-9]+)?)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?:\$?[0-9]+)?|\$?[0-9]+:\$?[0-9]+)"
# A string literal (skipped: references inside it are text) or a reference, as the parser's
# REF token reads one.
_TOKENS = re.compile(rf'"(?:[^"]|"")*"|(?<![A-Za-z0-9_.$#])({_SHEET})?({_AREA})(?![A-Za-z0-9_.(!])')
_CORNER = re.compile(r"\$?([A-Za-z]{1,3})?\$?([0-9]+)?")
_PLACEHOLDER = "$A$1"
_PLACEHOLDER_REF = parse("=" + _PLACEHOLDER)


@lru_cache(maxsize=4096)
def _format(text: str | None) -> Fmt | None:
    """A stored number format (JSON), read once per distinct text; TEXT ("@") counts as none."""
    if not text:
        return None
    found = json.loads(text)
    return None if not found or found.get("type") == "TEXT" else found


@lru_cache(maxsize=256)
def _column(letters: str) -> int:
    return column_index(letters)


def _area(text: str) -> tuple[int, int, int | None, int | None]:
    """(r1, c1, r2, c2) of an area as a1.parse_area reads it (None: to the sheet's edge)."""
    first, _, second = text.partition(":")
    a = _CORNER.fullmatch(first)
    ra = int(a[2]) - 1 if a and a[2] else None
    ca = _column(a[1]) if a and a[1] else None
    if not second:
        return ra or 0, ca or 0, (ra or 0) + 1, (ca or 0) + 1
    b = _CORNER.fullmatch(second)
    rb = int(b[2]) - 1 if b and b[2] else None
    cb = _column(b[1]) if b and b[1] else None
    r1, r2 = corner_span(ra, rb)
    c1, c2 = corner_span(ca, cb)
    return r1, c1, r2, c2


def _sheet_title(text: str | None) -> str | None:
    if not text:
        return None
    text = text[:-1]
    return text[1:-1].replace("''", "'") if text.startswith("'") else text


# -- plans: what a formula's format depends on, once per shape ---------------------------------
@lru_cache(maxsize=4096)
def _plan_of_shape(shape: str, count: int) -> Any:
    """The plan of a formula shape whose `count` references are placeholders, or None when
    the shape does not parse into exactly those references."""
    try:
        tree = parse(shape)
    except FormulaSyntaxError:
        return None
    counter = [0]
    plan = _compile(tree, counter, True)
    return plan if counter[0] == count else None


def _compile(node: Any, counter: list[int], placeholders: bool) -> Any:
    """The tree reduced to what decides a format: ("ref", index or (sheet, area)), ("op", op,
    a, b), ("neg", a), ("call", NAME, args); anything else is ("plain",)."""
    kind = node[0]
    if kind == "ref":
        if placeholders:
            if node != _PLACEHOLDER_REF:
                counter[0] = -1_000_000  # a reference the scan did not find: not this shape's
                return ("plain",)
            counter[0] += 1
            return ("ref", counter[0] - 1)
        grid = node[2]
        return ("ref", (node[1], (grid.r1, grid.c1, grid.r2, grid.c2)))
    if kind == "op":
        return ("op", node[1], _compile(node[2], counter, placeholders), _compile(node[3], counter, placeholders))
    if kind == "neg":
        return ("neg", _compile(node[1], counter, placeholders))
    if kind == "call":
        return ("call", node[1], tuple(_compile(a, counter, placeholders) for a in node[2]))
    if kind in ("pct", "array"):  # their references still count, in source order
        for child in ([node[1]] if kind == "pct" else [item for row in node[1] for item in row]):
            _compile(child, counter, placeholders)
    return ("plain",)


@lru_cache(maxsize=8192)
def _full_plan(formula: str) -> tuple[Any, tuple[()]]:
    try:
        return _compile(parse(formula), [0], False), ()
    except FormulaSyntaxError:
        return ("plain",), ()


@lru_cache(maxsize=16384)
def plan(formula: str) -> tuple[Any, tuple[tuple[str | None, tuple[int, int, int | None, int | None]], ...]]:
    """(plan, the formula's references in source order as (sheet title or None, area)); once
    per formula text (a sheet is read again and again between edits)."""
    pieces: list[str] = []
    refs: list[tuple[str | None, tuple[int, int, int | None, int | None]]] = []
    pos = 0
    for match in _TOKENS.finditer(formula):
        area = match[2]
        if area is None:
            continue
        pieces += (formula[pos:match.start()], _PLACEHOLDER)
        pos = match.end()
        refs.append((_sheet_title(match[1]), _area(area)))
    if not refs:
        return _full_plan(formula)[0], ()
    pieces.append(formula[pos:])
    found = _plan_of_shape("".join(pieces), len(refs))
    if found is None:  # the scan and the parser disagree: the parser's reading wins
        return _full_plan(formula)[0], ()
    return found, tuple(refs)


# -- inference --------------------------------------------------------------------------------
class Inference:
    """The inferred formats of one spreadsheet's formula cells, for one read."""

    def __init__(self, sheet_ids: Mapping[str, int], sizes: Mapping[int, tuple[int, int]], fetch: Fetch) -> None:
        self.sheet_ids = sheet_ids  # lower-cased title → sheetId
        self.sizes = sizes  # sheetId → (rows, columns)
        self.fetch = fetch
        self.cells: dict[int, dict[tuple[int, int], tuple[str | None, str | None]]] = {}
        self.columns: dict[int, dict[int, list[int]]] = {}  # sheet → column → its rows (sorted when read)
        self.unsorted: set[tuple[int, int]] = set()
        self.covered: dict[int, list[Box]] = {}
        self.memo: dict[Key, Fmt | None] = {}
        self.ranges: dict[tuple[int, Box], Fmt | None] = {}
        self.fetches = 0

    def know(self, sheet_id: int, boxes: Iterable[Box], cells: Iterable[tuple[int, int, str | None, str | None]]) -> None:
        """The cells of `boxes` (those holding a formula or a format; others are ignored) are
        these: nothing of them is fetched."""
        self.covered.setdefault(sheet_id, []).extend(boxes)
        known = self.cells.setdefault(sheet_id, {})
        columns = self.columns.setdefault(sheet_id, {})
        for row, col, formula, fmt in cells:
            if (formula is None and not fmt) or (row, col) in known:
                continue
            known[(row, col)] = (formula, fmt)
            columns.setdefault(col, []).append(row)
            self.unsorted.add((sheet_id, col))

    def prefetch(self, sheet_id: int, formulas: Iterable[tuple[int, int, str]]) -> None:
        """Read at once what these formulas (of tab `sheet_id`) read that is not known yet: one
        read per tab, of the rectangle around all of it."""
        around: dict[str | None, list[int]] = {}  # sheet title as written → [r1, c1, r2, c2] (-1: open)
        for _, _, formula in formulas:
            for title, (r1, c1, r2, c2) in plan(formula)[1]:
                box = around.get(title)
                r2 = -1 if r2 is None else r2
                c2 = -1 if c2 is None else c2
                if box is None:
                    around[title] = [r1, c1, r2, c2]
                    continue
                if r1 < box[0]:
                    box[0] = r1
                if c1 < box[1]:
                    box[1] = c1
                if box[2] != -1 and (r2 == -1 or r2 > box[2]):
                    box[2] = r2
                if box[3] != -1 and (c2 == -1 or c2 > box[3]):
                    box[3] = c2
        wanted: dict[int, Box] = {}
        for title, (r1, c1, r2, c2) in around.items():
            resolved = self._resolve(sheet_id, title, (r1, c1, None if r2 == -1 else r2, None if c2 == -1 else c2))
            if resolved is None:
                continue
            target, box = resolved
            if target in wanted:  # one tab written two ways ('Data', 'data'): the rectangle around both
                other = wanted[target]
                box = (min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]), max(box[3], other[3]))
            wanted[target] = box
        for target, box in wanted.items():
            if not self._is_covered(target, box):
                self._read(target, box)

    def of(self, key: Key, formula: str) -> Fmt | None:
        """The format the formula at `key` (a cell with no number format of its own) shows its
        number result in; None: a plain number."""
        memo = self.memo
        if key in memo:
            return memo[key]
        memo[key] = None  # a formula that reads itself (a cycle) shows a plain number
        found_plan, refs = plan(formula)
        found = memo[key] = self._node(found_plan, refs, key[0])
        return found

    # -- the formula's parts ----------------------------------------------------------------
    def _resolve(self, sheet_id: int, title: str | None, area: tuple[int, int, int | None, int | None]) -> tuple[int, Box] | None:
        target = sheet_id if title is None else self.sheet_ids.get(title.lower())
        if target is None or target not in self.sizes:
            return None
        rows, cols = self.sizes[target]
        r1, c1, r2, c2 = area
        box = (r1, c1, min(rows, r2) if r2 is not None else rows, min(cols, c2) if c2 is not None else cols)
        return (target, box) if box[0] < box[2] and box[1] < box[3] else None

    def _node(self, node: Any, refs: tuple[Any, ...], sheet_id: int) -> Fmt | None:
        kind = node[0]
        if kind == "ref":
            ref = node[1]
            title, (r1, c1, r2, c2) = refs[ref] if ref.__class__ is int else ref
            if r2 != r1 + 1 or c2 != c1 + 1:  # type: ignore[operator]
                return None  # a range where one value is meant: an array, shown plain
            target = sheet_id if title is None else self.sheet_ids.get(title.lower())
            return None if target is None else self._cell(target, r1, c1)
        if kind == "op":
            return _operate(node[1], self._node(node[2], refs, sheet_id), self._node(node[3], refs, sheet_id))
        if kind == "neg":
            return self._node(node[1], refs, sheet_id)
        if kind == "call":
            return self._call(node[1], node[2], refs, sheet_id)
        return None

    def _call(self, name: str, args: tuple[Any, ...], refs: tuple[Any, ...], sheet_id: int) -> Fmt | None:
        fixed = RESULT_FORMATS.get(name)
        if fixed is not None:
            return fixed
        if name in OF_ALL:
            taken = args
        elif name in OF_FIRST:
            taken = args[:1]
        elif name in OF_THIRD_OR_FIRST:
            taken = args[2:3] if len(args) > 2 else args[:1]
        else:
            return None
        found: Fmt | None = None
        for arg in taken:
            shown = self._values(arg, refs, sheet_id)
            if shown is None:
                continue
            if found is None:
                found = shown
            elif shown.get("type") != found.get("type"):
                return None
        return found

    def _values(self, node: Any, refs: tuple[Any, ...], sheet_id: int) -> Fmt | None:
        """The format of the values an argument gives: a range's first formatted cell."""
        if node[0] != "ref":
            return self._node(node, refs, sheet_id)
        ref = refs[node[1]] if isinstance(node[1], int) else node[1]
        resolved = self._resolve(sheet_id, *ref)
        return None if resolved is None else self._first(*resolved)

    # -- the cells read -----------------------------------------------------------------------
    def _cell(self, sheet_id: int, row: int, col: int) -> Fmt | None:
        cells = self.cells.get(sheet_id)
        found = None if cells is None else cells.get((row, col))
        if found is None:
            for a, b, c, d in self.covered.get(sheet_id, ()):
                if a <= row < c and b <= col < d:
                    return None  # read, and neither a formula nor a format
            if sheet_id not in self.sizes or not self._read(sheet_id, (row, col, row + 1, col + 1)):
                return None
            found = self.cells[sheet_id].get((row, col))
            if found is None:
                return None
        formula, fmt = found
        if fmt:
            return _format(fmt)
        return self.of((sheet_id, row, col), formula) if formula is not None else None

    def _first(self, sheet_id: int, box: Box) -> Fmt | None:
        """The format of the range's first cell, row by row, that shows one."""
        cache_key = (sheet_id, box)
        if cache_key in self.ranges:
            return self.ranges[cache_key]
        self.ranges[cache_key] = None
        if not self._is_covered(sheet_id, box) and not self._read(sheet_id, box):
            return None
        r1, c1, r2, c2 = box
        columns = self.columns.get(sheet_id, {})
        candidates: list[tuple[int, int]] = []
        for col in (range(c1, c2) if c2 - c1 <= len(columns) else sorted(columns)):
            rows = columns.get(col)
            if not rows or not c1 <= col < c2:
                continue
            if (sheet_id, col) in self.unsorted:
                rows.sort()
                self.unsorted.discard((sheet_id, col))
            start = bisect_left(rows, r1)
            for row in rows[start:start + MAX_CANDIDATES]:
                if row >= r2:
                    break
                candidates.append((row, col))
        found = None
        for row, col in sorted(candidates)[:MAX_CANDIDATES]:
            found = self._cell(sheet_id, row, col)
            if found is not None:
                break
        self.ranges[cache_key] = found
        return found

    def _is_covered(self, sheet_id: int, box: Box) -> bool:
        r1, c1, r2, c2 = box
        return any(a <= r1 and b <= c1 and r2 <= c and c2 <= d for a, b, c, d in self.covered.get(sheet_id, ()))

    def _read(self, sheet_id: int, box: Box) -> bool:
        """Fetch a rectangle's cells; False when the reads allowed are spent."""
        if self.fetches >= MAX_FETCHES:
            return False
        self.fetches += 1
        self.know(sheet_id, [box], self.fetch(sheet_id, *box))
        return True


# The formats worked out for a spreadsheet's formula cells, kept between reads while its cells
# are provably the same: by (spreadsheetId, its stored revision, its tabs' ids, titles and sizes).
# A revision names the cells' content in any env (apps/sheets/kept_books.py), so equal keys mean
# equal answers; a spreadsheet read again between edits works none out twice.
MAX_KEPT_SPREADSHEETS = 64
MAX_KEPT_FORMATS = 20_000  # per spreadsheet
_KEPT: OrderedDict[tuple[Any, ...], dict[Key, Fmt | None]] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def kept(key: tuple[Any, ...]) -> dict[Key, Fmt | None]:
    """The formats kept for `key` (a copy to read and add to; empty when none are)."""
    with _KEPT_LOCK:
        found = _KEPT.get(key)
        if found is None:
            return {}
        _KEPT.move_to_end(key)
        return dict(found)


def keep(key: tuple[Any, ...], formats: dict[Key, Fmt | None]) -> None:
    if len(formats) > MAX_KEPT_FORMATS:
        return
    with _KEPT_LOCK:
        _KEPT[key] = formats
        _KEPT.move_to_end(key)
        while len(_KEPT) > MAX_KEPT_SPREADSHEETS:
            _KEPT.popitem(last=False)


def _operate(op: str, a: Fmt | None, b: Fmt | None) -> Fmt | None:
    """The format of `a op b` from its operands' formats."""
    if op not in ("+", "-", "*", "/"):
        return None
    if a is None and b is None:
        return None
    if op in ("+", "-"):
        if a is not None and b is not None:
            if a.get("type") in DATED and b.get("type") in DATED:
                return None  # a date minus a date is a number of days
            return a if a.get("type") == b.get("type") else None
        if op == "-" and a is None and b.get("type") in DATED:  # type: ignore[union-attr]
            return None
        return a if a is not None else b
    if a is not None and b is not None:
        return None
    if a is not None:
        return a if a.get("type") in SCALED else None
    return b if op == "*" and b.get("type") in SCALED else None  # type: ignore[union-attr]


def inferred(formula: str | None, value_kind: str, own_format: str | None) -> bool:
    """Whether a stored cell's shown format is worked out here: a formula with a number result
    and no number format of its own."""
    return formula is not None and value_kind == "n" and not own_format
