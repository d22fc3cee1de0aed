"""Named values and functions written in a formula: LET, LAMBDA, and the functions that call a
LAMBDA over an array: MAP, BYROW, BYCOL, REDUCE, SCAN, MAKEARRAY (Google Sheets and Excel 365).

`=MAP(A2:A, LAMBDA(x, IF(x="",,x*2)))` doubles a live column and leaves its empty rows empty;
`=BYROW(B2:D, LAMBDA(r, SUM(r)))` totals each row; `=LET(t, SUM(B2:B), t/COUNT(B2:B))` names a
value once. A LAMBDA's value carries the names bound where it was written (a closure), so
`LET(rate, 0.2, MAP(B2:B9, LAMBDA(x, x*rate)))` works.
"""

from __future__ import annotations

from typing import Any

from apps.sheets.formulas.evaluator import Lambda, bind, evaluate, function, invoke
from apps.sheets.formulas.values import CellError, Matrix, fail, matrix_of, scalar, to_number

MAX_CALLS = 250_000  # LAMBDA calls in one function, past which the formula shows an error


def _name_of(node: Any, function_name: str, position: int) -> str:
    if node[0] != "name":
        raise fail("#VALUE!", f"Function {function_name} parameter {position} must be a name (e.g. x or total), "
                              "not a value or a reference.")
    return node[1].upper()


@function("LAMBDA", 1, lazy=True)
def _lambda(ctx: Any, *args: Any) -> Any:
    """LAMBDA(name1, …, body): a function of its names; its value is called (MAP…, or `(…)`)."""
    params = tuple(_name_of(node, "LAMBDA", i) for i, node in enumerate(args[:-1], start=1))
    if len(set(params)) != len(params):
        raise fail("#VALUE!", "LAMBDA has the same parameter name twice.")
    return Lambda(params, args[-1], ctx)


@function("LET", 3, lazy=True)
def _let(ctx: Any, *args: Any) -> Any:
    """LET(name1, value1, [name2, value2, …], expression): each value may use the names before it."""
    if len(args) % 2 == 0:
        raise fail("#N/A", f"Wrong number of arguments to LET. Expected an odd number of arguments, but got {len(args)} arguments.")
    scope = ctx
    for i in range(0, len(args) - 1, 2):
        name = _name_of(args[i], "LET", i + 1)
        value = evaluate(args[i + 1], scope)
        scope = bind(scope, {name: value})
    return evaluate(args[-1], scope)


def _lambda_arg(value: Any, name: str, takes: int) -> Lambda:
    if not isinstance(value, Lambda):
        if isinstance(value, CellError):
            raise fail(value.code, value.message)
        raise fail("#VALUE!", f"Function {name} expects a LAMBDA as its last argument.")
    if len(value.params) != takes:
        raise fail("#N/A", f"Function {name}: the LAMBDA must take {takes} parameter{'s' if takes != 1 else ''}, "
                           f"but it takes {len(value.params)}.")
    return value


def _array(value: Any, name: str, position: int) -> Matrix:
    if isinstance(value, CellError):
        raise fail(value.code, value.message)
    grid = matrix_of(value)
    if not grid.rows or not grid.rows[0]:
        raise fail("#VALUE!", f"Function {name} parameter {position} is empty.")
    return grid


def _budget(cells: int, name: str) -> None:
    if cells > MAX_CALLS:
        raise fail("#VALUE!", f"Function {name} would call its LAMBDA {cells:,} times; the limit is {MAX_CALLS:,}.")


def _one(value: Any, name: str) -> Any:
    """A LAMBDA's answer for one cell of the result: a single value (a 1×1 array is one)."""
    if isinstance(value, Matrix):
        if value.height == 1 and value.width == 1:
            return value.rows[0][0]
        return CellError("#VALUE!", f"Function {name}: the LAMBDA must give one value for each, not an array.")
    return value


@function("MAP", 2, errors_ok=True)
def _map(*args: Any) -> Any:
    """MAP(array1, [array2, …], LAMBDA(v1, [v2, …], …)): the LAMBDA of each cell (of the cells at
    the same place in each array), in the arrays' shape."""
    fn = _lambda_arg(args[-1], "MAP", len(args) - 1)
    arrays = [_array(a, "MAP", i) for i, a in enumerate(args[:-1], start=1)]
    height, width = arrays[0].height, arrays[0].width
    if any(a.height != height or a.width != width for a in arrays[1:]):
        raise fail("#VALUE!", "Array arguments to MAP are of different size.")
    _budget(height * width, "MAP")
    return Matrix([[_one(invoke(fn, [a.rows[r][c] for a in arrays]), "MAP") for c in range(width)] for r in range(height)])


@function("BYROW", 2, 2, errors_ok=True)
def _byrow(array: Any, fn: Any) -> Any:
    """BYROW(array, LAMBDA(row, …)): one value per row of the array, in a column."""
    fn = _lambda_arg(fn, "BYROW", 1)
    grid = _array(array, "BYROW", 1)
    _budget(grid.height, "BYROW")
    return Matrix([[_one(invoke(fn, [Matrix([row])]), "BYROW")] for row in grid.rows])


@function("BYCOL", 2, 2, errors_ok=True)
def _bycol(array: Any, fn: Any) -> Any:
    """BYCOL(array, LAMBDA(column, …)): one value per column of the array, in a row."""
    fn = _lambda_arg(fn, "BYCOL", 1)
    grid = _array(array, "BYCOL", 1)
    _budget(grid.width, "BYCOL")
    return Matrix([[_one(invoke(fn, [Matrix([[row[c]] for row in grid.rows])]), "BYCOL") for c in range(grid.width)]])


def _accumulate(initial: Any, array: Any, fn: Any, name: str) -> tuple[Matrix, list[Any]]:
    lam = _lambda_arg(fn, name, 2)
    grid = _array(array, name, 2)
    _budget(grid.height * grid.width, name)
    acc = initial
    seen = []
    for row in grid.rows:
        for value in row:
            acc = invoke(lam, [acc, value])
            seen.append(acc)
    return grid, seen


@function("REDUCE", 3, 3, errors_ok=True)
def _reduce(initial: Any, array: Any, fn: Any) -> Any:
    """REDUCE(initial, array, LAMBDA(accumulator, value, …)): the accumulator after every cell,
    row by row (it may grow into an array: `REDUCE(, A2:A9, LAMBDA(a, v, VSTACK(a, v)))`)."""
    _, seen = _accumulate(initial, array, fn, "REDUCE")
    return seen[-1]


@function("SCAN", 3, 3, errors_ok=True)
def _scan(initial: Any, array: Any, fn: Any) -> Any:
    """SCAN(initial, array, LAMBDA(accumulator, value, …)): the accumulator after each cell, in the
    array's shape (a running total: `SCAN(0, B2:B9, LAMBDA(a, v, a+v))`)."""
    grid, seen = _accumulate(initial, array, fn, "SCAN")
    width = grid.width
    return Matrix([[_one(v, "SCAN") for v in seen[r * width:(r + 1) * width]] for r in range(grid.height)])


@function("MAKEARRAY", 3, 3, errors_ok=True)
def _makearray(rows: Any, columns: Any, fn: Any) -> Any:
    """MAKEARRAY(rows, columns, LAMBDA(row, column, …)): an array of that size, each cell the
    LAMBDA of its (1-based) row and column."""
    lam = _lambda_arg(fn, "MAKEARRAY", 2)
    height, width = int(to_number(scalar(rows))), int(to_number(scalar(columns)))
    if height < 1 or width < 1:
        raise fail("#VALUE!", "Function MAKEARRAY expects a number of rows and of columns of at least 1.")
    _budget(height * width, "MAKEARRAY")
    return Matrix([[_one(invoke(lam, [float(r), float(c)]), "MAKEARRAY") for c in range(1, width + 1)]
                   for r in range(1, height + 1)])
