"""Evaluating a formula tree against a workbook: operators, references, names, and calls into
the function registry (functions.py). Arrays broadcast through operators element by element
(as Google's array formulas and Excel's dynamic arrays do), so `FILTER(A:A, B:B>5)` works; and
functions of single values (LEFT, LEN, ROUND, YEAR…, declared `elementwise`) are lifted the same
way over array arguments, so `SUMPRODUCT((LEFT(A1:A9,6)="Closed")*B1:B9)` and `UPPER(A1:A9)` work
for every such function at once."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from apps.sheets.a1 import GridRange
from apps.sheets.formulas.values import (
    CellError, FormulaError, Matrix, check, compare, fail, finite, scalar, to_number, to_text,
)


class Context(Protocol):
    """What a formula can read: the workbook's cells, its names, the env's clock."""

    sheet: str  # the title of the sheet holding the formula
    now: datetime

    def read(self, sheet: str | None, grid: GridRange) -> Matrix: ...

    def resolve_name(self, name: str) -> tuple[str, GridRange] | None: ...


@dataclass(frozen=True, slots=True)
class Fn:
    """A spreadsheet function: eager ones get evaluated arguments; lazy ones (IF, IFERROR…)
    get the trees and evaluate only the branches they take."""

    call: Callable[..., Any]
    lazy: bool = False
    min_args: int = 0
    max_args: int | None = None
    errors_ok: bool = False  # takes error values as arguments (ISERROR, ISNA…)
    elementwise: bool = False  # each argument is one value: given arrays, applied cell by cell
    # the arguments (a slice of them) that are one value, a lookup key or a criterion, while
    # others are ranges: given arrays there, the function is called once per cell of them, with
    # `each=True` (see lift_at)
    each: slice | None = None


FUNCTIONS: dict[str, Fn] = {}
INVOKE = "_INVOKE"  # the call node of a value called with arguments (parser.py)
_UNBOUND = object()


class Scope:
    """A context with names bound to values (LET's names, a LAMBDA's parameters), read before
    the book's named ranges; everything else is the outer context's."""

    __slots__ = ("outer", "bound")

    def __init__(self, outer: Any, bound: dict[str, Any]) -> None:
        self.outer = outer.outer if isinstance(outer, Scope) else outer
        self.bound = bound

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.outer, attr)


def bind(ctx: Any, names: dict[str, Any]) -> Scope:
    """`ctx` with `names` (upper case) bound as well as what it binds already."""
    outer = getattr(ctx, "bound", None)
    return Scope(ctx, {**outer, **names} if outer else names)


class Lambda(CellError):
    """A LAMBDA's value: its parameters and body, with the names bound where it was written.
    Functions that take one (MAP, BYROW, REDUCE…) call it; anywhere else it is the error a
    cell holding it shows, as Google Sheets shows one for a LAMBDA never given its values."""

    __slots__ = ("params", "body", "ctx")

    def __init__(self, params: tuple[str, ...], body: Any, ctx: Any) -> None:
        object.__setattr__(self, "code", "#N/A")
        object.__setattr__(self, "message", "The LAMBDA is not given its values: call it, as in LAMBDA(x, x*2)(5), "
                                            "or pass it to MAP, BYROW, BYCOL, REDUCE, SCAN or MAKEARRAY.")
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "ctx", ctx)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


def invoke(fn: Any, values: list[Any]) -> Any:
    """The value of a LAMBDA given `values` for its parameters (an error value if `fn` is not
    one or the count differs)."""
    if not isinstance(fn, Lambda):
        if isinstance(fn, CellError):
            return fn
        return CellError("#VALUE!", "Only a LAMBDA can be called with values.")
    if len(values) != len(fn.params):
        return CellError("#N/A", f"Wrong number of arguments to LAMBDA. Expected {len(fn.params)} arguments, "
                                 f"but got {len(values)} arguments.")
    try:
        return evaluate(fn.body, bind(fn.ctx, dict(zip(fn.params, values, strict=True))))
    except FormulaError as error:
        return error.error


def function(name: str, min_args: int = 0, max_args: int | None = None, *, lazy: bool = False, errors_ok: bool = False,
             elementwise: bool = False, each: slice | None = None) -> Callable:
    def register(call: Callable) -> Callable:
        FUNCTIONS[name] = Fn(call, lazy, min_args, max_args, errors_ok, elementwise, each)
        return call

    return register


def evaluate(node: tuple[Any, ...], ctx: Context) -> Any:
    kind = node[0]
    if kind == "num" or kind == "str" or kind == "bool":
        return node[1]
    if kind == "ref":
        return ctx.read(node[1], node[2])
    if kind == "op":
        # Operators chain to the left (=A1+A2+…+A5000): walk the chain iteratively so a long
        # sum is not a deep recursion.
        spine = []
        while node[0] == "op":
            spine.append(node)
            node = node[2]
        value = evaluate(node, ctx)
        for link in reversed(spine):
            value = _operate(link[1], value, evaluate(link[3], ctx))
        return value
    if kind == "call":
        return _call(node[1], node[2], ctx)
    if kind == "neg":
        return _map1(evaluate(node[1], ctx), lambda v: -to_number(v))
    if kind == "pct":
        return _map1(evaluate(node[1], ctx), lambda v: to_number(v) / 100)
    if kind == "err":
        return CellError(node[1])
    if kind == "name":
        bound = getattr(ctx, "bound", None)  # LET and LAMBDA names (a Scope), before the book's
        if bound is not None:
            value = bound.get(node[1].upper(), _UNBOUND)
            if value is not _UNBOUND:
                return value
        found = ctx.resolve_name(node[1])
        if found is None:
            return CellError("#NAME?", f"Unknown range name: '{node[1]}'.")
        return ctx.read(found[0], found[1])
    if kind == "blank":
        return None
    if kind == "array":
        return _array_literal(node[1], ctx)
    raise ValueError(f"unknown node {kind!r}")


def _array_literal(rows: tuple[tuple[Any, ...], ...], ctx: Context) -> Matrix:
    """`{1,2;3,4}`, and ranges or arrays within it side by side (`{Data!C2:C, Data!A2:A}`, the
    way to look left with VLOOKUP) and one above the other (`{A2:B5; D2:E5}`), as Google Sheets
    joins them: the parts of a row must have one height, the rows one width."""
    values = [[evaluate(item, ctx) for item in row] for row in rows]
    if not any(isinstance(v, Matrix) and (v.height != 1 or v.width != 1) for line in values for v in line):
        return Matrix([[scalar(v) for v in line] for line in values])
    joined: list[list[Any]] = []
    width = None
    for line in values:
        parts = [v if isinstance(v, Matrix) else Matrix([[v]]) for v in line]
        height = parts[0].height
        if any(part.height != height for part in parts):
            raise FormulaError("#VALUE!", f"Function ARRAY_ROW parameter 2 has mismatched row size. Expected: {height}. "
                                          f"Actual: {next(p.height for p in parts if p.height != height)}.")
        block = [[v for part in parts for v in part.rows[r]] for r in range(height)]
        if width is None:
            width = len(block[0]) if block else 0
        elif block and len(block[0]) != width:
            raise FormulaError("#VALUE!", f"Function ARRAY_COL parameter 2 has mismatched column size. Expected: {width}. "
                                          f"Actual: {len(block[0])}.")
        joined.extend(block)
    return Matrix(joined)


def _call(name: str, args: tuple[Any, ...], ctx: Context) -> Any:
    fn = FUNCTIONS.get(name)
    if fn is None:
        if name == INVOKE:  # LAMBDA(x, x*2)(5): the called value, then its values
            return invoke(evaluate(args[0], ctx), [evaluate(arg, ctx) for arg in args[1:]])
        bound = getattr(ctx, "bound", None)
        if bound is not None and isinstance(bound.get(name), Lambda):  # LET(f, LAMBDA(x, …), f(2))
            return invoke(bound[name], [evaluate(arg, ctx) for arg in args])
        return CellError("#NAME?", f"Unknown function: '{name}'.")
    if len(args) < fn.min_args or (fn.max_args is not None and len(args) > fn.max_args):
        expected = str(fn.min_args) if fn.max_args == fn.min_args else (
            f"between {fn.min_args} and {fn.max_args}" if fn.max_args is not None else f"at least {fn.min_args}")
        return CellError("#N/A", f"Wrong number of arguments to {name}. Expected {expected} arguments, but got {len(args)} arguments.")
    if fn.lazy:
        return _apply(fn, name, lambda: fn.call(ctx, *args))
    values = [evaluate(arg, ctx) for arg in args]
    if fn.elementwise and any(is_array(value) for value in values):
        return lift(lambda *cells: _eager(fn, name, cells), *values)
    each = fn.each
    if each is not None:  # inline: a criterion or key is nearly always one value, and this runs per call
        for value in values[each]:
            if type(value) is Matrix and (len(value.rows) > 1 or (value.rows and len(value.rows[0]) > 1)):
                return _apply(fn, name, lambda: lift_at(fn.call, values, each))
    return _eager(fn, name, values)


def _eager(fn: Fn, name: str, values: Any) -> Any:
    if not fn.errors_ok:
        for value in values:
            if isinstance(value, CellError):
                return value
    return _apply(fn, name, lambda: fn.call(*values))


def _apply(fn: Fn, name: str, run: Callable[[], Any]) -> Any:
    try:
        return run()
    except FormulaError as error:
        return error.error
    except (ZeroDivisionError,):
        return CellError("#DIV/0!", "Function attempted to divide by zero.")
    except (OverflowError, ValueError) as error:
        return CellError("#NUM!", str(error))
    except (TypeError, IndexError, KeyError, AttributeError):
        # Arguments of a shape the function does not take: the cell shows an error, the
        # request never fails (property-tested in tests/apps/sheets/test_formula_fuzz.py).
        return CellError("#VALUE!", f"Function {name} cannot use these arguments.")


def _map1(value: Any, op: Callable[[Any], Any]) -> Any:
    if isinstance(value, Matrix):
        return Matrix([[_safe(op, v) for v in row] for row in value.rows])
    return _safe(op, value)


def _safe(op: Callable[..., Any], *values: Any) -> Any:
    try:
        return op(*values)
    except FormulaError as error:
        return error.error


def is_array(value: Any) -> bool:
    """More than one cell (a 1×1 range is read as its single value everywhere)."""
    return isinstance(value, Matrix) and (len(value.rows) > 1 or (len(value.rows) == 1 and len(value.rows[0]) > 1))


def lift(op: Callable[..., Any], *values: Any) -> Matrix:
    """`op` applied cell by cell over array arguments of one shape (a single row, column or value
    stretches across the others; cells beyond a smaller array are #N/A, as in Google Sheets)."""
    arrays = [v for v in values if isinstance(v, Matrix)]
    height = max(m.height for m in arrays)
    width = max(m.width for m in arrays)
    return Matrix([[_safe(op, *(_element(v, r, c) for v in values)) for c in range(width)] for r in range(height)])


def lift_at(run: Callable[..., Any], args: tuple[Any, ...] | list[Any], places: slice) -> Matrix:
    """`run(*args, each=True)` once per cell of the arguments at `places` (an `Fn.each`), the
    others as they are, spilled in the shape of those given as arrays (`VLOOKUP(A2:A, …)`,
    `SUMIF(…, A2:A, …)`: one answer per key, as in Google Sheets' array formulas and Excel's
    dynamic arrays); an answer that is itself an array gives its first cell."""
    chosen_at = range(len(args))[places]

    def one(*chosen: Any) -> Any:
        given = list(args)
        for i, value in zip(chosen_at, chosen, strict=True):
            given[i] = value
        return scalar(run(*given, each=True))

    return lift(one, *(args[i] for i in chosen_at))


def _element(value: Any, r: int, c: int) -> Any:
    if not isinstance(value, Matrix):
        return value
    rr = 0 if value.height == 1 else r
    cc = 0 if value.width == 1 else c
    if rr >= value.height or cc >= value.width:
        return CellError("#N/A", "Array arguments are of different size.")
    return value.rows[rr][cc]


def _broadcast(a: Any, b: Any, op: Callable[[Any, Any], Any]) -> Any:
    a_matrix, b_matrix = isinstance(a, Matrix), isinstance(b, Matrix)
    if not a_matrix and not b_matrix:
        return _safe(op, a, b)
    # Single cells (=F2+E3, the bulk of every sheet): the 1×1 result the general case gives.
    a_one = a_matrix and len(a.rows) == 1 and len(a.rows[0]) == 1
    b_one = b_matrix and len(b.rows) == 1 and len(b.rows[0]) == 1
    if (a_one or not a_matrix) and (b_one or not b_matrix):
        return Matrix([[_safe(op, a.rows[0][0] if a_one else a, b.rows[0][0] if b_one else b)]])
    return lift(op, a, b)


def _arith(symbol: str) -> Callable[[Any, Any], Any]:
    def run(x: Any, y: Any) -> Any:
        left, right = to_number(x), to_number(y)
        if symbol == "+":
            return left + right
        if symbol == "-":
            return left - right
        if symbol == "*":
            return left * right
        if symbol == "/":
            if right == 0:
                raise fail("#DIV/0!", "Function DIVIDE parameter 2 cannot be zero.")
            return left / right
        if left == 0 and right < 0:
            raise fail("#DIV/0!", "Function POW parameter 1 cannot be zero when parameter 2 is negative.")
        try:
            result = math.pow(left, right)
        except (ValueError, OverflowError):
            raise fail("#NUM!", f"POW({left}, {right}) has no real result") from None
        return finite(result)

    return run


def _comparer(symbol: str) -> Callable[[Any, Any], bool]:
    tests = {"=": lambda c: c == 0, "<>": lambda c: c != 0, "<": lambda c: c < 0, ">": lambda c: c > 0,
             "<=": lambda c: c <= 0, ">=": lambda c: c >= 0}
    test = tests[symbol]
    return lambda x, y: test(compare(x, y))


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    **{s: _arith(s) for s in "+-*/^"},
    **{s: _comparer(s) for s in ("=", "<>", "<", ">", "<=", ">=")},
    "&": lambda x, y: to_text(x) + to_text(y),
}


def _operate(symbol: str, a: Any, b: Any) -> Any:
    return _broadcast(a, b, _OPS[symbol])


def number_or_error(value: Any) -> Any:
    """Turn a Python result into a cell value (non-finite numbers → #NUM!)."""
    if isinstance(value, float) and not math.isfinite(value):
        return CellError("#NUM!", "the result is not a finite number")
    return value


__all__ = ["FUNCTIONS", "INVOKE", "Context", "Fn", "Lambda", "Scope", "bind", "evaluate", "function", "check", "invoke",
           "is_array", "lift", "lift_at"]
