"""Lookup and arrays: VLOOKUP, HLOOKUP, INDEX, MATCH, XLOOKUP, ROW, COLUMN, CHOOSE, and the array
functions FILTER, SORT, SORTN, UNIQUE, TRANSPOSE, HSTACK, VSTACK whose results spill into the
cells below and to the right."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from apps.sheets.formulas.evaluator import function
from apps.sheets.formulas.functions_math import _wildcard
from apps.sheets.formulas.functions_ref import reference
from apps.sheets.formulas.values import CellError, Matrix, compare, fail, matrix_of, rank, scalar, to_bool, to_number


def _exact(a: Any, key: Any) -> bool:
    if isinstance(a, CellError):
        return False
    if isinstance(key, str) and isinstance(a, str) and any(ch in key for ch in "*?~"):
        return _wildcard(key).fullmatch(a) is not None
    if (a is None) != (key is None) and not (key == "" or a == ""):
        return False
    return compare(a, key) == 0 and (isinstance(a, str) == isinstance(key, str))


def _approx(items: list[Any], key: Any, descending: bool = False) -> int | None:
    """Index of the last item <= key in ascending data (first >= key when descending), by
    binary search as spreadsheets do; values of another type than the key are skipped."""
    best = None
    lo, hi = 0, len(items) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        item = items[mid]
        if item is None or isinstance(item, CellError):
            hi = mid - 1
            continue
        c = compare(item, key)
        if (c <= 0) != descending or c == 0:
            if c == 0 or not descending:
                best = mid
            lo = mid + 1
        else:
            if descending:
                best = mid
            hi = mid - 1
    return best


# One lookup per row of a live column (`ARRAYFORMULA(VLOOKUP(A2:A, Data!A:C, 3, FALSE))`) asks
# the same keys hundreds of times: the first position of each value is found once per range,
# as `_exact` compares (text ignoring case, numbers by value, a blank only a blank, "" only "").
# A key with a wildcard is still matched cell by cell.
_FIRST: dict[tuple[int, str], tuple[Matrix, dict[tuple[Any, ...], int]]] = {}
_FIRST_CELLS = [0]
MAX_FIRST_CELLS = 200_000


def _exact_key(value: Any) -> tuple[Any, ...] | None:
    kind = type(value)
    if kind is float or (kind is int):
        return ("n", float(value))
    if kind is str:
        return ("t", value.lower())
    if value is None:
        return ("blank",)
    if kind is bool:
        return ("b", value)
    return None  # an error equals nothing


def _first_exact(area: Matrix, looked_in: Callable[[], list[Any]], key: Any, part: str) -> int | None:
    """The first position of `looked_in()`, the `part` of `area` looked in ("first column",
    "first row" or "cells"), that `_exact` matches."""
    if isinstance(key, str) and any(ch in key for ch in "*?~"):
        return next((i for i, k in enumerate(looked_in()) if _exact(k, key)), None)
    wanted = _exact_key(key)
    if wanted is None:
        return None
    found = _FIRST.get((id(area), part))
    if found is None or found[0] is not area:
        first: dict[tuple[Any, ...], int] = {}
        keys = looked_in()
        for i, k in enumerate(keys):
            filed = _exact_key(k)
            if filed is not None and filed not in first:
                first[filed] = i
        if _FIRST_CELLS[0] + len(keys) > MAX_FIRST_CELLS:
            _FIRST.clear()
            _FIRST_CELLS[0] = 0
        found = _FIRST[(id(area), part)] = (area, first)
        _FIRST_CELLS[0] += len(keys)
    return found[1].get(wanted)


def _not_found(name: str, key: Any) -> Any:
    shown = key if not isinstance(key, float) or key != int(key) else int(key)
    return CellError("#N/A", f"Did not find value '{shown}' in {name} evaluation.")


def _lookup(name: str, key: Any, table: Any, index: Any, sorted_flag: Any, by_rows: bool, each: bool = False) -> Any:
    key = scalar(key)
    grid = matrix_of(table)
    position = int(to_number(index))
    width = (grid.width if by_rows else grid.height) if grid.rows else 0
    if position < 1:
        raise fail("#VALUE!", f"Function {name} parameter 3 value is {position}. It should be greater than or equal to 1.")
    if position > width:
        raise fail("#REF!", f"{name} evaluates to an out of bounds range.")

    def keys() -> list[Any]:  # the first column (VLOOKUP) or row (HLOOKUP)
        return grid.column(0) if by_rows else list(grid.rows[0])

    approximate = sorted_flag is not None and to_bool(sorted_flag)
    if approximate:
        found = _approx(keys(), key)
    elif each and isinstance(table, Matrix):
        found = _first_exact(table, keys, key, "first column" if by_rows else "first row")
    else:
        found = next((i for i, k in enumerate(keys()) if _exact(k, key)), None)
    if found is None:
        return _not_found(name, key)
    return grid.rows[found][position - 1] if by_rows else grid.rows[position - 1][found]


@function("VLOOKUP", 3, 4, each=slice(0, 3, 2))
def _vlookup(key: Any, table: Any, index: Any, is_sorted: Any = True, *, each: bool = False) -> Any:
    """Given keys (`A2:A`) or columns (`{2,3}`) as arrays, one answer per key and column."""
    return _lookup("VLOOKUP", key, table, index, is_sorted, by_rows=True, each=each)


@function("HLOOKUP", 3, 4, each=slice(0, 3, 2))
def _hlookup(key: Any, table: Any, index: Any, is_sorted: Any = True, *, each: bool = False) -> Any:
    return _lookup("HLOOKUP", key, table, index, is_sorted, by_rows=False, each=each)


def _vector(area: Any) -> list[Any]:
    grid = matrix_of(area)
    if grid.height != 1 and grid.width != 1:
        raise fail("#N/A", "the range must be a single row or a single column")
    return grid.cells()  # shared with every reader of the range: read, never changed


@function("MATCH", 2, 3, each=slice(0, 1))
def _match(key: Any, area: Any, kind: Any = 1.0, *, each: bool = False) -> Any:
    key, items, mode = scalar(key), _vector(area), int(to_number(kind))
    if mode == 0:
        found = _first_exact(area, area.cells, key, "cells") if each and isinstance(area, Matrix) else next(
            (i for i, v in enumerate(items) if _exact(v, key)), None)
    else:
        found = _approx(items, key, descending=mode < 0)
    if found is None:
        raise fail("#N/A", f"Did not find value '{key}' in MATCH evaluation.")
    return float(found + 1)


@function("INDEX", 1, 3, each=slice(1, 3))
def _index(area: Any, row: Any = 0.0, col: Any = None, *, each: bool = False) -> Any:
    """Given rows or columns as arrays (`INDEX(Data!C:C, MATCH(A2:A, Data!A:A, 0))`), one cell per
    row and column asked."""
    grid = matrix_of(area)
    r = int(to_number(row)) if row is not None else 0
    c = int(to_number(col)) if col is not None else 0
    if col is None and grid.height == 1 and grid.width > 1:
        r, c = 1, r
    if r < 0 or c < 0 or r > grid.height or c > grid.width:
        raise fail("#REF!", "INDEX evaluates to an out of bounds range.")
    if r and c:
        return grid.rows[r - 1][c - 1]
    if r:
        return Matrix([grid.rows[r - 1]])
    if c:
        return Matrix([[line[c - 1]] for line in grid.rows])
    return grid


@function("XLOOKUP", 3, 6, each=slice(0, 1))
def _xlookup(key: Any, lookup: Any, result: Any, missing: Any = None, match_mode: Any = 0.0, search_mode: Any = 1.0,
             *, each: bool = False) -> Any:
    key, items = scalar(key), _vector(lookup)
    grid = matrix_of(result)
    vertical = matrix_of(lookup).width == 1 and matrix_of(lookup).height >= 1
    mode, direction = int(to_number(match_mode)), int(to_number(search_mode))
    order = range(len(items)) if direction >= 0 else range(len(items) - 1, -1, -1)
    found = None
    if mode in (0, 2) and each and direction >= 0 and isinstance(lookup, Matrix):
        found = _first_exact(lookup, lookup.cells, key, "cells")
    elif mode in (0, 2):
        found = next((i for i in order if _exact(items[i], key)), None)
    else:
        exact = next((i for i in order if _exact(items[i], key)), None)
        if exact is not None:
            found = exact
        else:
            candidates = [i for i in order if items[i] is not None and not isinstance(items[i], CellError)
                          and (compare(items[i], key) < 0 if mode == -1 else compare(items[i], key) > 0)]
            if candidates:
                found = (max if mode == -1 else min)(candidates, key=lambda i: _key(items[i]))
    if found is None:
        if missing is not None:
            return missing
        return _not_found("XLOOKUP", key)
    if vertical:
        if found >= grid.height:
            raise fail("#VALUE!", "XLOOKUP's lookup and result ranges must be the same size.")
        row = grid.rows[found]
        return row[0] if len(row) == 1 else Matrix([row])
    if found >= grid.width:
        raise fail("#VALUE!", "XLOOKUP's lookup and result ranges must be the same size.")
    column = [line[found] for line in grid.rows]
    return column[0] if len(column) == 1 else Matrix([[v] for v in column])


def _key(value: Any) -> Any:
    return functools.cmp_to_key(compare)(value)


@function("FILTER", 2)
def _filter(area: Any, *conditions: Any) -> Any:
    grid = matrix_of(area)
    keep_rows = [True] * grid.height
    keep_cols = [True] * grid.width
    by_columns = False
    for condition in conditions:
        cond = matrix_of(condition)
        if cond.width == 1 and cond.height == grid.height:
            keep_rows = [k and _truthy(v) for k, v in zip(keep_rows, cond.flat())]
        elif cond.height == 1 and cond.width == grid.width:
            by_columns = True
            keep_cols = [k and _truthy(v) for k, v in zip(keep_cols, cond.flat())]
        else:
            raise fail("#VALUE!", f"FILTER has mismatched range sizes. Expected row count: {grid.height}. column count: 1. "
                                  f"Actual row count: {cond.height}, column count: {cond.width}.")
    rows = [row for row, keep in zip(grid.rows, keep_rows) if keep]
    if by_columns:
        rows = [[v for v, keep in zip(row, keep_cols) if keep] for row in rows]
    if not rows or not rows[0]:
        raise fail("#N/A", "No matches are found in FILTER evaluation.")
    return Matrix(rows)


def _truthy(value: Any) -> bool:
    if isinstance(value, CellError):
        return False
    try:
        return to_bool(value)
    except Exception:  # noqa: BLE001 - text conditions keep nothing, as in Google Sheets
        return False


@function("SORT", 1)
def _sort(area: Any, *keys: Any) -> Any:
    grid = matrix_of(area)
    rows = [list(r) for r in grid.rows]
    specs = [(keys[i], keys[i + 1] if i + 1 < len(keys) else True) for i in range(0, len(keys), 2)] or [(1.0, True)]
    for column, ascending in reversed(specs):
        index = int(to_number(column)) - 1
        if not 0 <= index < grid.width:
            raise fail("#VALUE!", f"SORT: sort column {index + 1} is outside the range (1 to {grid.width})")
        asc = _ascending(ascending)
        blanks = [r for r in rows if r[index] is None]
        filled = [r for r in rows if r[index] is not None]
        filled.sort(key=lambda r: functools.cmp_to_key(compare)(r[index]), reverse=not asc)
        rows = filled + blanks  # blanks last either way, as Google sorts them
    return Matrix(rows)


def _ascending(flag: Any) -> bool:
    value = scalar(flag)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value > 0  # Excel's 1 / -1
    return to_bool(value) if value is not None else True


def _row_key(row: list[Any]) -> tuple[Any, ...]:
    """What makes rows the same for UNIQUE: the same values of the same type (TRUE is not 1),
    text with its case, as Google Sheets compares them ("West" and "WEST" are two)."""
    return tuple((type(v).__name__, v) for v in row)


@function("UNIQUE", 1, 3)
def _unique(area: Any, by_column: Any = False, exactly_once: Any = False) -> Any:
    grid = matrix_of(area)
    rows = grid.rows if not to_bool(by_column) else [list(c) for c in zip(*grid.rows)]
    counts: dict[tuple, int] = {}
    order: list[tuple] = []
    for row in rows:
        key = _row_key(row)
        if key not in counts:
            order.append(key)
            counts[key] = 0
        counts[key] += 1
    first = {}
    for row in rows:
        first.setdefault(_row_key(row), row)
    kept = [first[k] for k in order if not to_bool(exactly_once) or counts[k] == 1]
    if not kept:
        raise fail("#N/A", "No unique values found.")
    if to_bool(by_column):
        kept = [list(r) for r in zip(*kept)]
    return Matrix([list(r) for r in kept])


@function("TRANSPOSE", 1, 1)
def _transpose(area: Any) -> Any:
    """The area with its rows as columns: spills down what was across, and across what was down."""
    return Matrix([list(column) for column in zip(*matrix_of(area).rows)])


@function("LOOKUP", 2, 3)
def _lookup_vector(key: Any, search: Any, result: Any = None) -> Any:
    """The result at the last position of the search range whose value is not above the key,
    among values of the key's kind (numbers with numbers, text with text), errors and blanks
    skipped: on sorted data the sorted-lookup answer, and LOOKUP(2, 1/(A2:A="x"), B2:B) the
    last row where A is "x". Without a result range, the last column (or row) of the search
    range."""
    key = scalar(key)
    grid = matrix_of(search)
    tall = grid.height >= grid.width
    items = grid.column(0) if tall else list(grid.rows[0]) if grid.rows else []
    found = None
    for i, item in enumerate(items):
        if item is None or isinstance(item, CellError) or rank(item) != rank(key):
            continue
        if compare(item, key) <= 0:
            found = i
    if found is None:
        return _not_found("LOOKUP", key)
    if result is None:
        return grid.rows[found][-1] if tall else grid.rows[-1][found]
    values = _vector(result)
    if found >= len(values):
        raise fail("#N/A", "LOOKUP's result range is smaller than its search range.")
    return values[found]


@function("ROWS", 1, 1)
def _rows(area: Any) -> float:
    return float(matrix_of(area).height)


@function("COLUMNS", 1, 1)
def _columns(area: Any) -> float:
    return float(matrix_of(area).width)


def _place(ctx: Any, node: Any, name: str) -> tuple[int, int, int, int]:
    """(first row, first column, rows, columns) of the reference a ROW or COLUMN is given; an
    open end (A2:A) stops where the sheet's data does, as the range reads."""
    if node[0] == "name":
        found = ctx.resolve_name(node[1])
        if found is None:
            raise fail("#NAME?", f"Unknown range name: '{node[1]}'.")
        sheet, grid = found
    elif node[0] == "ref":
        sheet, grid = node[1], node[2]
    elif node[0] == "call" and node[1] in ("OFFSET", "INDIRECT"):  # ROW(INDIRECT("B"&A1))
        sheet, grid = reference(node, ctx, name)
    else:
        raise fail("#VALUE!", f"Function {name} parameter 1 expects a cell reference.")
    height, width = (grid.r2 - grid.r1 if grid.r2 is not None else None), (grid.c2 - grid.c1 if grid.c2 is not None else None)
    if height is None or width is None:
        area = ctx.read(sheet, grid)
        height, width = height or area.height, width or area.width
    return grid.r1, grid.c1, height, width


def _own_cell(ctx: Any, name: str) -> tuple[int, int]:
    cell = getattr(ctx, "cell", None)
    if cell is None:
        raise fail("#VALUE!", f"Function {name} without a reference needs the formula's own cell; give it one, e.g. {name}(A2).")
    return cell


@function("ROW", 0, 1, lazy=True)
def _row(ctx: Any, ref: Any = None) -> Any:
    """The row number of a reference (of the formula's own cell without one); of a range, one
    per row (`ARRAYFORMULA(ROW(A2:A))`)."""
    if ref is None:
        return float(_own_cell(ctx, "ROW")[0] + 1)
    first, _, height, _ = _place(ctx, ref, "ROW")
    return float(first + 1) if height == 1 else Matrix([[float(first + 1 + r)] for r in range(height)])


@function("COLUMN", 0, 1, lazy=True)
def _column(ctx: Any, ref: Any = None) -> Any:
    if ref is None:
        return float(_own_cell(ctx, "COLUMN")[1] + 1)
    _, first, _, width = _place(ctx, ref, "COLUMN")
    return float(first + 1) if width == 1 else Matrix([[float(first + 1 + c) for c in range(width)]])


@function("CHOOSE", 2, elementwise=True)
def _choose(index: Any, *values: Any) -> Any:
    """The index-th value; an array of indexes over ranges (`CHOOSE({1,2}, C2:C, A2:A)`) builds
    the columns side by side, cell by cell."""
    k = int(to_number(index))
    if not 1 <= k <= len(values):
        raise fail("#VALUE!", f"Function CHOOSE parameter 1 value is {k}. Valid values are between 1 and {len(values)} inclusive.")
    return values[k - 1]


def _stack(parts: tuple[Any, ...], across: bool) -> Matrix:
    grids = [matrix_of(p) for p in parts]
    missing = CellError("#N/A", "No value in this part of the stacked arrays.")
    if across:
        height = max(g.height for g in grids)
        return Matrix([[v for g in grids for v in (g.rows[r] if r < g.height else [missing] * g.width)] for r in range(height)])
    width = max(g.width for g in grids)
    return Matrix([row + [missing] * (width - len(row)) for g in grids for row in g.rows])


@function("HSTACK", 1, errors_ok=True)
def _hstack(*parts: Any) -> Matrix:
    """The arrays side by side (a shorter one ends in #N/A, as in Google Sheets)."""
    return _stack(parts, across=True)


@function("VSTACK", 1, errors_ok=True)
def _vstack(*parts: Any) -> Matrix:
    """The arrays one above the other (a narrower one ends in #N/A)."""
    return _stack(parts, across=False)


@function("SORTN", 1)
def _sortn(area: Any, n: Any = 1.0, ties: Any = 0.0, *keys: Any) -> Any:
    """The first n rows once sorted (by the columns and orders given, else the first ascending);
    ties mode 1 adds the rows tied with the n-th, mode 2 keeps n rows of distinct sort keys."""
    count = int(to_number(n if n is not None else 1.0))
    mode = int(to_number(ties if ties is not None else 0.0))
    if count < 0:
        raise fail("#NUM!", f"Function SORTN parameter 2 value is {count}. It should be greater than or equal to 0.")
    ordered = _sort(area, *keys)  # by the first column, ascending, when no order is given
    columns = [int(to_number(keys[i])) - 1 for i in range(0, len(keys), 2)] or [0]

    def sort_key(row: list[Any]) -> tuple[Any, ...]:
        return tuple(v.lower() if isinstance(v, str) else v for v in (row[c] for c in columns))

    rows = ordered.rows
    if mode == 0:
        kept = rows[:count]
    elif mode == 1:
        kept = rows[:count]
        if kept:
            last = sort_key(kept[-1])
            kept = kept + [r for r in rows[count:] if sort_key(r) == last]
    elif mode == 2:
        seen: set[tuple[Any, ...]] = set()
        kept = []
        for row in rows:
            k = sort_key(row)
            if k not in seen and len(kept) < count:
                seen.add(k)
                kept.append(row)
    else:
        raise fail("#VALUE!", f"Function SORTN parameter 3 value is {mode}. Valid values are 0, 1 and 2.")
    if not kept:
        raise fail("#N/A", "SORTN has no rows to show.")
    return Matrix([list(r) for r in kept])


@function("ARRAY_CONSTRAIN", 3, 3)
def _array_constrain(area: Any, rows: Any, columns: Any) -> Matrix:
    """The top-left rows × columns of an array (no more than it has)."""
    grid = matrix_of(area)
    height, width = int(to_number(rows)), int(to_number(columns))
    if height < 1 or width < 1:
        raise fail("#VALUE!", "ARRAY_CONSTRAIN needs at least one row and one column.")
    return Matrix([list(row[:width]) for row in grid.rows[:height]])


@function("FLATTEN", 1)
def _flatten(*areas: Any) -> Matrix:
    """Every value of the arrays in one column, row by row."""
    return Matrix([[v] for area in areas for v in matrix_of(area).flat()])
