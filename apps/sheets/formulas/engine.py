"""The in-memory workbook: cells, the dependency graph, recalculation and spilled arrays.

A `Book` holds one spreadsheet's cells keyed by (sheetId, row, col). Each formula's
precedents (the ranges it reads, resolved to sheet ids) are kept in two reverse indexes:
single cells in a dict, ranges in per-column buckets. After an edit `recalc(changed)` walks
only the dependants of what changed, orders them topologically (Kahn), evaluates each once,
and reports the cells whose value changed, so a 10,000-cell book recalculates one edit in
milliseconds. Cells left in a cycle get Google's circular-dependency #REF!.

A formula whose result is an array (FILTER, SORT, UNIQUE, a range) spills into the cells to
its right and below; if one of them holds data the formula shows #REF!, as in Google Sheets.
"""

from __future__ import annotations

import json
import math
from bisect import bisect_left
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from apps.sheets.a1 import GridRange, cell_name
from apps.sheets.formulas import functions  # noqa: F401 - registers every function
from apps.sheets.formulas.aggregate_groups import AggregateGroups, unaffected_among
from apps.sheets.formulas.aggregates import shape, unaffected
from apps.sheets.formulas.context import BookContext, is_volatile
from apps.sheets.formulas.evaluator import evaluate
from apps.sheets.formulas.parser import FormulaSyntaxError, parse, references
from apps.sheets.formulas.values import CellError, FormulaError, Matrix

Key = tuple[int, int, int]  # (sheetId, row, col), 0-based
Dep = tuple[int, int, int, int | None, int | None]  # (sheetId, r1, c1, r2, c2); None = open end
CIRCULAR = CellError("#REF!", "Circular dependency detected. To resolve with iterative calculation, see File > Settings.")
VOLATILE = frozenset({"NOW", "TODAY", "RAND", "RANDBETWEEN"})
MAX_SPILL_PASSES = 8
MAX_RANGE_CELLS = 2_000_000
MAX_CACHED_RANGES = 64  # per sheet, past which a change drops them all rather than search them
MAX_PRUNED_EDIT = 16  # typed cells, past which every formula reading one is recalculated unasked
MAX_MEMO_READERS = 4096  # cells whose readers are kept (`Book.dependants`), past which the memo starts over


@dataclass(slots=True)
class SheetInfo:
    id: int
    title: str
    rows: int
    cols: int


class Book:
    def __init__(self, sheets: Iterable[SheetInfo], names: dict[str, tuple[int, GridRange]] | None = None,
                 now: datetime | None = None) -> None:
        self.sheets = {s.id: s for s in sheets}
        self.by_title = {s.title.lower(): s.id for s in self.sheets.values()}
        self.names = {k.lower(): v for k, v in (names or {}).items()}
        self.now = now or datetime(2026, 1, 1)
        self.inputs: dict[Key, Any] = {}
        self.formulas: dict[Key, str] = {}
        self.values: dict[Key, Any] = {}
        self.deps: dict[Key, list[Dep]] = {}
        self.volatile: set[Key] = set()
        self.spill: dict[Key, Any] = {}
        self.spill_owner: dict[Key, Key] = {}
        self.spill_area: dict[Key, list[Key]] = {}
        self._single: dict[Key, set[Key]] = defaultdict(set)
        self._columns: dict[tuple[int, int], list[tuple[int, int | None, Key]]] = defaultdict(list)
        self._wide: dict[int, list[tuple[Dep, Key]]] = defaultdict(list)
        self._extent: dict[int, tuple[int, int]] = {}
        # Open ranges end at their sheet's last used row and column (`extent`), which a cell
        # outside them moves: the formulas reading an open range, by the sheet it reads, and
        # per sheet whose extent may have moved since the last recalculation, its extent
        # before (None: not known), so `recalc` recalculates those readers when it did move.
        self._open: dict[int, set[Key]] = defaultdict(set)
        # The readers of a cell, as `dependants` found them, until the index changes: an agent
        # edits the same column again and again, and finding a cell's readers walks every range
        # read in its column. Bounded (MAX_MEMO_READERS); shared by nothing that changes them.
        self._readers: dict[Key, frozenset[Key]] = {}
        self._extent_before: dict[int, tuple[int, int] | None] = {}
        # Range reads per sheet, dropped whenever a value on that sheet changes: a summary tab
        # reads the same few columns of a big table once per formula, so they are read once.
        self._ranges: dict[int, dict[tuple[int, int, int, int], Matrix]] = defaultdict(dict)
        self.plans: dict[tuple[int, str], Any] = {}  # (sheet, text) → aggregates.plan
        self.aggregates: set[Key] = set()  # formulas that are one conditional aggregate (aggregates.shape)
        self._groups: AggregateGroups | None = None  # built on first use; read-only, so copies share it
        # Spilled cells emptied because their formula was removed or typed over (outside any
        # recalculation): the next `recalc` reports them and recalculates what reads them.
        self._unspilled: set[Key] = set()

    def copy(self) -> Book:
        """An independent copy (edits to either leave the other as it was), for reading one
        loaded book several times and trying changes on it in memory."""
        new = Book.__new__(Book)
        new.sheets = {k: SheetInfo(s.id, s.title, s.rows, s.cols) for k, s in self.sheets.items()}
        new.by_title, new.names, new.now = dict(self.by_title), dict(self.names), self.now
        new.inputs, new.formulas, new.values = dict(self.inputs), dict(self.formulas), dict(self.values)
        new.deps = dict(self.deps)  # each list is replaced, never changed in place
        new.volatile = set(self.volatile)
        new.spill, new.spill_owner = dict(self.spill), dict(self.spill_owner)
        new.spill_area = {k: list(v) for k, v in self.spill_area.items()}
        new._single = defaultdict(set, {k: set(v) for k, v in self._single.items()})
        new._columns = defaultdict(list, {k: list(v) for k, v in self._columns.items()})
        new._wide = defaultdict(list, {k: list(v) for k, v in self._wide.items()})
        new._extent = dict(self._extent)
        new._open = defaultdict(set, {k: set(v) for k, v in self._open.items()})
        new._readers = dict(self._readers)  # frozensets: never changed in place
        new._extent_before = dict(self._extent_before)
        new._ranges = defaultdict(dict, {k: dict(v) for k, v in self._ranges.items()})  # a Matrix is never changed
        new.plans, new.aggregates, new._groups = dict(self.plans), set(self.aggregates), self._groups
        new._unspilled = set(self._unspilled)
        return new

    def aggregate_groups(self) -> AggregateGroups:
        """The conditional aggregates grouped by frame (aggregate_groups.py), as the cells now
        stand; dropped by `_regroup` when what they were built from changes."""
        if self._groups is None:
            self._groups = AggregateGroups(self)
        return self._groups

    def _regroup(self, key: Key | None = None, sheet_id: int | None = None) -> None:
        """Drop the aggregate groups if they read the cell at `key` (or any cell of `sheet_id`),
        or, with neither, whatever changed."""
        groups = self._groups
        if groups is not None and ((key is None and sheet_id is None) or key in groups.criterion_cells
                                   or sheet_id in groups.criterion_sheets):
            self._groups = None

    def add_sheet(self, info: SheetInfo) -> None:
        """A new, empty tab that no formula names yet (otherwise reload the book)."""
        self.sheets[info.id] = info
        self.by_title[info.title.lower()] = info.id

    # -- reading ------------------------------------------------------------------------
    def get(self, key: Key) -> Any:
        if key in self.formulas:
            return self.values.get(key)
        if key in self.inputs:
            return self.inputs[key]
        return self.spill.get(key)

    def extent(self, sheet_id: int) -> tuple[int, int]:
        """(rows, cols) actually used on a sheet: open-ended ranges stop there."""
        found = self._extent.get(sheet_id)
        if found is None:
            rows = cols = 0
            for source in (self.inputs, self.formulas, self.spill):
                for s, r, c in source:
                    if s == sheet_id:
                        rows, cols = max(rows, r + 1), max(cols, c + 1)
            found = self._extent[sheet_id] = (rows, cols)
        return found

    def read(self, sheet_id: int, grid: GridRange) -> Matrix:
        info = self.sheets[sheet_id]
        r2, c2 = grid.r2, grid.c2
        if r2 == grid.r1 + 1 and c2 == grid.c1 + 1:  # one cell: not worth a cache entry
            key = (sheet_id, grid.r1, grid.c1)
            value = self.inputs.get(key)
            if value is None:
                value = self.values.get(key)
                if value is None:
                    value = self.spill.get(key)
            return Matrix([[value]])
        if r2 is None or c2 is None:  # an open-ended range stops at the last used row/column
            used_rows, used_cols = self.extent(sheet_id)
            r2 = r2 if r2 is not None else min(info.rows, max(used_rows, grid.r1 + 1))
            c2 = c2 if c2 is not None else min(info.cols, max(used_cols, grid.c1 + 1))
        # A reference past the grid reads only the cells that exist, and no formula may make
        # the server read millions of cells.
        r2, c2 = min(r2, max(info.rows, grid.r1 + 1)), min(c2, max(info.cols, grid.c1 + 1))
        if (r2 - grid.r1) * (c2 - grid.c1) > MAX_RANGE_CELLS:
            raise FormulaError("#REF!", f"The range is larger than {MAX_RANGE_CELLS:,} cells.")
        cached = self._ranges[sheet_id].get((grid.r1, grid.c1, r2, c2))
        if cached is not None:
            return cached
        # Inlined lookups (a key is in at most one of inputs / formula values / spill): ranges
        # of thousands of cells are read on every SUM over them, so this loop is the hot path.
        iget, vget, sget = self.inputs.get, self.values.get, self.spill.get
        rows = []
        for r in range(grid.r1, r2):
            line = []
            for c in range(grid.c1, c2):
                key = (sheet_id, r, c)
                value = iget(key)
                if value is None:
                    value = vget(key)
                    if value is None:
                        value = sget(key)
                line.append(value)
            rows.append(line)
        found = self._ranges[sheet_id][(grid.r1, grid.c1, r2, c2)] = Matrix(rows)
        return found

    # -- writing ------------------------------------------------------------------------
    def set_input(self, key: Key, value: Any) -> None:
        """A literal value (None clears the cell)."""
        self._know_extent(key[0])
        self._drop_formula(key)
        if value is None:
            self.inputs.pop(key, None)
        else:
            self.inputs[key] = value
        self._changed_cell(key, value is not None)

    def set_formula(self, key: Key, text: str, deps: list[Dep] | None = None, value: Any = None) -> None:
        self._know_extent(key[0])
        self._drop_formula(key)
        self.inputs.pop(key, None)
        self.formulas[key] = text
        self.values[key] = value
        if shape(text) is not None:
            self.aggregates.add(key)
            self._regroup()
        if deps is None:
            deps, volatile = self.compile(key[0], text)
            if volatile:
                self.volatile.add(key)
        self.deps[key] = deps
        for dep in deps:
            self._index(dep, key)
        self._changed_cell(key, True)

    def load_formula(self, key: Key, text: str, deps: list[Dep], value: Any) -> None:
        """A stored formula with its stored precedents and value, into a book being loaded
        (each key once, before any read): `set_formula` without its bookkeeping."""
        self.formulas[key] = text
        self.values[key] = value
        self.deps[key] = deps
        for dep in deps:
            self._index(dep, key)
        self._extent.pop(key[0], None)
        if shape(text) is not None:
            self.aggregates.add(key)
            self._regroup()

    def loaded(self) -> None:
        """A loader that filled the book's cells directly is done: what was worked out of them
        while it ran (a sheet's extent) is forgotten, and nothing is left to compare with."""
        self._extent.clear()
        self._extent_before.clear()

    def _know_extent(self, sheet_id: int) -> None:
        """Before a cell of a sheet that open ranges read changes: its extent, to compare with."""
        if sheet_id not in self._extent_before and self._open.get(sheet_id):
            self.extent(sheet_id)

    def _extent_may_move(self, sheet_id: int) -> None:
        """A change may move the sheet's extent: remember it as it was, for `recalc`."""
        if sheet_id not in self._extent_before and self._open.get(sheet_id):
            self._extent_before[sheet_id] = self._extent.get(sheet_id)

    def _changed(self, sheet_id: int) -> None:
        self._regroup(sheet_id=sheet_id)
        self._extent_may_move(sheet_id)
        self._extent.pop(sheet_id, None)
        self._ranges.pop(sheet_id, None)

    def _changed_cell(self, key: Key, filled: bool) -> None:
        """One cell's content changed: only the cached range reads holding it are dropped (a
        deal's amount typed in must not make every SUMIFS re-read and re-test the criteria
        columns beside it), and the used extent only grows, unless the cell was emptied."""
        sheet_id, r, c = key
        self._extent_may_move(sheet_id)
        extent = self._extent.get(sheet_id)
        if extent is not None:
            if filled:
                if r >= extent[0] or c >= extent[1]:
                    self._extent[sheet_id] = (max(extent[0], r + 1), max(extent[1], c + 1))
            else:
                del self._extent[sheet_id]
        self._forget_ranges_with(key)

    def mark_volatile(self, key: Key) -> None:
        self.volatile.add(key)

    def _drop_formula(self, key: Key) -> None:
        if key not in self.formulas:
            return
        del self.formulas[key]
        self.values.pop(key, None)
        self.volatile.discard(key)
        if key in self.aggregates:
            self.aggregates.discard(key)
            self._regroup()
        for dep in self.deps.pop(key, ()):
            self._unindex(dep, key)
        self._clear_spill(key, self._unspilled)

    def _index(self, dep: Dep, key: Key) -> None:
        s, r1, c1, r2, c2 = dep
        self._readers.clear()
        if r2 is None or c2 is None:
            self._open[s].add(key)
        if r2 == r1 + 1 and c2 == c1 + 1:
            self._single[(s, r1, c1)].add(key)
        elif c2 is None or c2 - c1 > 64:
            self._wide[s].append((dep, key))
        else:
            for c in range(c1, c2):
                self._columns[(s, c)].append((r1, r2, key))

    def _unindex(self, dep: Dep, key: Key) -> None:
        s, r1, c1, r2, c2 = dep
        self._readers.clear()
        if r2 is None or c2 is None:
            self._open[s].discard(key)  # every precedent of `key` is unindexed together
        if r2 == r1 + 1 and c2 == c1 + 1:
            self._single[(s, r1, c1)].discard(key)
        elif c2 is None or c2 - c1 > 64:
            self._wide[s].remove((dep, key))
        else:
            for c in range(c1, c2):
                self._columns[(s, c)].remove((r1, r2, key))

    def compile(self, sheet_id: int, text: str) -> tuple[list[Dep], bool]:
        """The ranges a formula reads (resolved to sheet ids) and whether it is volatile."""
        try:
            tree = parse(text)
        except FormulaSyntaxError:
            return [], False
        deps: list[Dep] = []
        for node in references(tree):
            if node[0] == "name":
                found = self.names.get(node[1].lower())
                if found is None:
                    continue
                target, grid = found
            else:
                target = sheet_id if node[1] is None else self.by_title.get(node[1].lower())
                if target is None:
                    continue
                grid = node[2]
            deps.append((target, grid.r1, grid.c1, grid.r2, grid.c2))
        return deps, is_volatile(tree, VOLATILE)

    def dependants(self, key: Key) -> frozenset[Key]:
        """The formulas reading the cell at `key` (not to be changed: it is kept)."""
        found = self._readers.get(key)
        if found is None:
            if len(self._readers) >= MAX_MEMO_READERS:
                self._readers.clear()
            found = self._readers[key] = frozenset(self._find_dependants(key))
        return found

    def _find_dependants(self, key: Key) -> set[Key]:
        s, r, c = key
        found = set(self._single.get(key, ()))
        for r1, r2, owner in self._columns.get((s, c), ()):
            if r1 <= r and (r2 is None or r < r2):
                found.add(owner)
        for (_, r1, c1, r2, c2), owner in self._wide.get(s, ()):
            if r1 <= r and (r2 is None or r < r2) and c1 <= c and (c2 is None or c < c2):
                found.add(owner)
        return found

    def dependants_of_many(self, cells: Iterable[Key]) -> set[Key]:
        """The formulas reading any of `cells` (what `dependants` gives each, united): a range
        read is tested once against the rows changed in each of its columns, not once per cell."""
        cells = list(cells)
        if len(cells) == 1:
            return set(self.dependants(cells[0]))
        found: set[Key] = set()
        single = self._single
        rows_of: dict[tuple[int, int], list[int]] = defaultdict(list)
        for key in cells:
            hit = single.get(key)
            if hit:
                found |= hit
            rows_of[(key[0], key[2])].append(key[1])
        for rows in rows_of.values():
            rows.sort()
        for column, rows in rows_of.items():
            for r1, r2, owner in self._columns.get(column, ()):
                if owner not in found and _any_in(rows, r1, r2):
                    found.add(owner)
        for (s, r1, c1, r2, c2), owner in (entry for s in {k[0] for k in rows_of} for entry in self._wide.get(s, ())):
            if owner in found:
                continue
            for (sheet, c), rows in rows_of.items():
                if sheet == s and c1 <= c and (c2 is None or c < c2) and _any_in(rows, r1, r2):
                    found.add(owner)
                    break
        return found

    # -- evaluation ---------------------------------------------------------------------
    def evaluate_formula(self, key: Key) -> Any:
        text = self.formulas[key]
        try:
            tree = parse(text)
        except FormulaSyntaxError as bad:
            return CellError("#ERROR!", str(bad))
        try:
            return evaluate(tree, BookContext(self, key[0], (key[1], key[2])))
        except FormulaError as error:
            return error.error
        except RecursionError:
            return CellError("#ERROR!", "The formula is nested too deeply.")

    def recalc_all(self) -> set[Key]:
        return self.recalc(set(self.formulas), include_self=True)

    def recalc(self, changed: set[Key], include_self: bool = False) -> set[Key]:
        """Recalculate the dependants of `changed` (and `changed` formulas themselves when
        `include_self`); returns every cell whose value changed, spilled cells included."""
        touched: set[Key] = set(self._unspilled)
        pending = set(changed) | self._unspilled
        self._unspilled.clear()
        first = True
        for _ in range(MAX_SPILL_PASSES):
            moved = self._moved_readers()
            if not pending and not moved:
                break
            spilled = self._pass(pending, include_self or first, touched, moved)
            first = False
            pending = spilled
        return touched

    def _moved_readers(self) -> set[Key]:
        """The formulas reading an open range of a sheet whose extent moved since the last
        recalculation (or may have: its extent before is not known)."""
        found: set[Key] = set()
        if self._extent_before:
            for sheet_id, before in self._extent_before.items():
                readers = self._open.get(sheet_id)
                if readers and (before is None or before != self.extent(sheet_id)):
                    found |= readers
            self._extent_before.clear()
        return found

    def _pass(self, changed: set[Key], include_self: bool, touched: set[Key], moved: frozenset[Key] | set[Key] = frozenset()) -> set[Key]:
        formulas, values, spill_area = self.formulas, self.values, self.spill_area
        # What must be evaluated: the formulas entered, the volatile ones, and those reading a
        # cell whose value changed; spill anchors and formulas showing an error among those
        # readers too: what they show also depends on cells that are not their precedents (a
        # blocker in the spill area, a broken cycle). Everything else is evaluated only if a
        # precedent's value turns out to change (below): a volatile TODAY() column recomputed on
        # every write does not recompute everything that reads it while the date stays the same.
        needed: set[Key] = {k for k in changed if k in formulas} if include_self else set()
        needed |= self.volatile
        needed |= moved
        needed |= {a for a in spill_area if isinstance(values.get(a), CellError) and values[a].message.startswith("Array result")}
        # The cells typed into (a sorted table: hundreds) only say which formulas are needed,
        # found in one sweep.
        typed = [k for k in changed if k not in formulas]
        readers = self.dependants_of_many(typed)
        if len(typed) <= MAX_PRUNED_EDIT:
            aggregates = self.aggregates
            maybe = [dep for dep in readers if dep in aggregates and dep not in spill_area and not isinstance(values.get(dep), CellError)]
            if maybe:
                readers -= unaffected_among(self, maybe, typed[0]) if len(typed) == 1 else \
                    {dep for dep in maybe if self._unaffected_by_all(dep, typed)}
        needed |= readers
        for cell in typed:
            owner = self.spill_owner.get(cell)
            if owner is not None and cell in self.inputs:
                needed.add(owner)
        # Only what the needed formulas reach can change: a reader of the typed cells that they
        # leave as it is (a SUMIFS whose criteria the row does not meet) is not evaluated, and
        # neither is what reads it, unless a needed formula reaches it. Edges matter only
        # between those formulas (the topological order below).
        dependants = self.dependants
        edges: dict[Key, set[Key]] = {}
        seen = set(needed)
        queue = deque(needed)
        while queue:
            cell = queue.popleft()
            found = edges[cell] = dependants(cell)
            for dep in found:
                if dep not in seen:
                    seen.add(dep)
                    queue.append(dep)
        indegree = dict.fromkeys(seen, 0)
        for targets in edges.values():
            for target in targets:
                indegree[target] += 1
        # Volatile formulas (NOW, and OFFSET/INDIRECT whose range is worked out as they run, so
        # the graph cannot order them after what they read) wait until nothing else is ready.
        volatile = self.volatile
        ready = deque(sorted(k for k, n in indegree.items() if n == 0 and k not in volatile))
        held = deque(sorted(k for k, n in indegree.items() if n == 0 and k in volatile))
        spill_changed: set[Key] = set()
        aggregates = self.aggregates
        while ready or held:
            key = ready.popleft() if ready else held.popleft()
            targets = edges[key]
            if key in needed or key in spill_area or isinstance(values.get(key), CellError):
                before = values.get(key, _UNSET)
                self._store(key, self.evaluate_formula(key), touched, spill_changed)
                if targets and not _same_value(before, values[key]):
                    reached = targets - needed
                    maybe = [target for target in reached if target in aggregates]
                    if maybe:
                        reached -= unaffected_among(self, maybe, key)
                    needed |= reached
            for target in targets:
                if target != key:
                    indegree[target] -= 1
                    if indegree[target] == 0:
                        (held if target in volatile else ready).append(target)
        for key, n in indegree.items():
            if n > 0:
                self._store(key, CIRCULAR, touched, spill_changed)
        return spill_changed - changed

    def _unaffected_by_all(self, key: Key, cells: list[Key]) -> bool:
        """Whether no cell of `cells` that the formula at `key` reads can change its value
        (a conditional aggregate whose criteria the changed rows do not meet: aggregates.py)."""
        if key not in self.aggregates:
            return False
        if len(cells) == 1:  # the formula reads it (it is one of the cell's dependants)
            return unaffected(self, key, cells[0])
        deps = self.deps.get(key, ())
        for cell in cells:
            s, r, c = cell
            if any(d[0] == s and d[1] <= r and (d[3] is None or r < d[3]) and d[2] <= c and (d[4] is None or c < d[4]) for d in deps) \
                    and not unaffected(self, key, cell):
                return False
        return True

    def _store(self, key: Key, result: Any, touched: set[Key], spill_changed: set[Key]) -> None:
        if isinstance(result, Matrix) and (result.height > 1 or result.width > 1):
            result = self._spill(key, result, touched, spill_changed)
        else:
            if isinstance(result, Matrix):
                result = result.rows[0][0] if result.rows and result.rows[0] else None
            self._clear_spill(key, touched, spill_changed)
        if isinstance(result, int) and not isinstance(result, bool):
            result = float(result)
        if isinstance(result, float) and not math.isfinite(result):
            result = CellError("#NUM!", "The result is too large or not a number.")
        if self.values.get(key) != result or key not in self.values:
            touched.add(key)
            self.values[key] = result
            self._forget_ranges_with(key)
        else:
            self.values[key] = result

    def _forget_ranges_with(self, key: Key) -> None:
        """The cell at `key` shows a new value (already in the book): the cached range reads
        that hold it are replaced by copies showing it (recalculating a running total down a
        table must not make each summary formula re-read the table's other columns, nor a
        deal's amount typed in make every SUMIFS re-read the whole amount column)."""
        if self._groups is not None and key in self._groups.criterion_cells:
            self._groups = None  # they read its value
        cache = self._ranges.get(key[0])
        if not cache:
            return
        if len(cache) > MAX_CACHED_RANGES:
            del self._ranges[key[0]]
            return
        _, r, c = key
        value = _NOT_READ
        for box in [b for b in cache if b[0] <= r < b[2] and b[1] <= c < b[3]]:
            if value is _NOT_READ:  # what `read` would read there
                value = self.inputs.get(key)
                if value is None:
                    value = self.values.get(key)
                    if value is None:
                        value = self.spill.get(key)
            rows = cache[box].rows[:]  # a Matrix is never changed: a new one, sharing the other rows
            line = rows[r - box[0]] = rows[r - box[0]][:]
            line[c - box[1]] = value
            cache[box] = Matrix(rows)

    def _clear_spill(self, anchor: Key, touched: set[Key] | None = None, spill_changed: set[Key] | None = None) -> None:
        area = self.spill_area.pop(anchor, None)
        if not area:
            return
        for cell in area:
            if self.spill_owner.get(cell) == anchor:
                del self.spill_owner[cell]
                self.spill.pop(cell, None)
                if touched is not None:
                    touched.add(cell)
                if spill_changed is not None:
                    spill_changed.add(cell)
        self._changed(anchor[0])

    def _spill(self, anchor: Key, result: Matrix, touched: set[Key], spill_changed: set[Key]) -> Any:
        s, r0, c0 = anchor
        info = self.sheets[s]
        cells = [(s, r0 + i, c0 + j) for i in range(result.height) for j in range(result.width)]
        for cell in cells[1:]:
            if cell in self.inputs or cell in self.formulas or (cell in self.spill_owner and self.spill_owner[cell] != anchor) \
                    or cell[1] >= info.rows or cell[2] >= info.cols:
                self._clear_spill(anchor, touched, spill_changed)
                self.spill_area[anchor] = []
                return CellError("#REF!", f"Array result was not expanded because it would overwrite data in {cell_name(cell[1], cell[2])}.")
        old = set(self.spill_area.get(anchor, ()))
        new_cells = cells[1:]
        for cell in old - set(new_cells):
            self.spill_owner.pop(cell, None)
            self.spill.pop(cell, None)
            touched.add(cell)
            spill_changed.add(cell)
        flat = [v if v is not None else None for row in result.rows for v in row]
        for cell, value in zip(new_cells, flat[1:]):
            if self.spill.get(cell) != value or cell not in self.spill:
                touched.add(cell)
                spill_changed.add(cell)
            self.spill[cell] = value
            self.spill_owner[cell] = anchor
        self.spill_area[anchor] = new_cells
        self._changed(s)
        return flat[0]


_UNSET = object()
_NOT_READ = object()


def _same_value(a: Any, b: Any) -> bool:
    """Whether a formula's value is unchanged, so what reads it needs no recalculation: same
    type (TRUE is not 1) and value (0 is not -0, which shows as "-0")."""
    if type(a) is not type(b) or a != b:
        return False
    return not isinstance(a, float) or math.copysign(1.0, a) == math.copysign(1.0, b)


def _any_in(rows: list[int], r1: int, r2: int | None) -> bool:
    """Whether sorted `rows` has one in [r1, r2) (None: no end)."""
    i = bisect_left(rows, r1)
    return i < len(rows) and (r2 is None or rows[i] < r2)


# The text of each precedents list written (a save writes every formula it recalculated, and
# their lists are the ones loaded or compiled, never changed in place): by the list's id, the
# entry holding the list so the id is not reused while it lives.
_DEPS_TEXT: dict[int, tuple[list[Dep], str]] = {}
MAX_DEPS_TEXTS = 65536


def deps_json(deps: list[Dep]) -> str:
    found = _DEPS_TEXT.get(id(deps))
    if found is not None and found[0] is deps:
        return found[1]
    text = json.dumps(deps, separators=(",", ":"))
    if len(_DEPS_TEXT) >= MAX_DEPS_TEXTS:
        _DEPS_TEXT.clear()
    _DEPS_TEXT[id(deps)] = (deps, text)
    return text


@lru_cache(maxsize=65536)
def deps_from_json(text: str | None) -> list[Dep]:
    """A stored formula's precedents; cached by text, as every write reloads the same book
    (the list is shared: callers never change it)."""
    return [tuple(d) for d in json.loads(text) if isinstance(d, list)] if text else []  # type: ignore[misc]
