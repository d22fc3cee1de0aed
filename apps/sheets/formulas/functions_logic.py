"""Logic and information: IF, IFS, IFERROR, IFNA, AND, OR, NOT, SWITCH, IS* — the lazy ones
evaluate only the branch they take, so an error in the other branch does not surface. Given an
array condition or value (`IF(B2:B9>5,"big","small")`, `IFERROR(1/A2:A9,0)`) they answer cell by
cell, as ARRAYFORMULA and Excel's dynamic arrays do; ARRAYFORMULA itself only marks that intent."""

from __future__ import annotations

from typing import Any

from apps.sheets.formulas.evaluator import evaluate, function, is_array, lift
from apps.sheets.formulas.values import CellError, Matrix, check, compare, fail, scalar, to_bool


def _flat_bools(args: tuple[Any, ...]) -> list[bool]:
    found = []
    for arg in args:
        if isinstance(arg, Matrix):
            for v in arg.flat():
                check(v)
                if isinstance(v, (bool, int, float)):
                    found.append(bool(v))
        elif arg is not None:
            found.append(to_bool(arg))
    if not found:
        raise fail("#VALUE!", "the function has no logical values to work on")
    return found


@function("IF", 2, 3, lazy=True)
def _if(ctx: Any, test: Any, yes: Any, no: Any = ("bool", False)) -> Any:
    """A branch left empty (`IF(A2:A="",,B2:B*2)`) gives an empty cell, as in Google Sheets:
    the way a live column shows nothing on the rows not filled yet."""
    condition = evaluate(test, ctx)
    if is_array(condition):
        return lift(lambda c, y, n: y if to_bool(c) else n, condition, evaluate(yes, ctx), evaluate(no, ctx))
    condition = scalar(condition)
    if isinstance(condition, CellError):
        return condition
    return evaluate(yes if to_bool(condition) else no, ctx)


@function("IFS", 2, lazy=True)
def _ifs(ctx: Any, *pairs: Any) -> Any:
    """The value of the first condition that holds; a condition over a range
    (`IFS(B2:B>500,"high",B2:B>100,"mid",TRUE,"low")`) answers cell by cell."""
    if len(pairs) % 2:
        raise fail("#N/A", "IFS takes pairs of condition and value")
    for i in range(0, len(pairs), 2):
        condition = evaluate(pairs[i], ctx)
        if is_array(condition):
            return _ifs_each([condition] + [evaluate(node, ctx) for node in pairs[i + 1:]])
        condition = scalar(condition)
        if isinstance(condition, CellError):
            return condition
        if to_bool(condition):
            return evaluate(pairs[i + 1], ctx)
    raise fail("#N/A", "No match.")


def _ifs_each(values: list[Any]) -> Any:
    """IFS cell by cell over evaluated (condition, value, …) from the first array condition on."""
    def one(*cells: Any) -> Any:
        for i in range(0, len(cells), 2):
            if isinstance(cells[i], CellError):
                return cells[i]
            if to_bool(cells[i]):
                return cells[i + 1]
        return CellError("#N/A", "No match.")

    return lift(one, *values)


def _switch_one(subject: Any, *cases: Any) -> Any:
    if isinstance(subject, CellError):
        return subject
    for i in range(0, len(cases) - 1, 2):
        if isinstance(cases[i], CellError):
            return cases[i]
        if compare(subject, cases[i]) == 0:
            return cases[i + 1]
    if len(cases) % 2:
        return cases[-1]
    return CellError("#N/A", "No match.")


@function("IFERROR", 1, 2, lazy=True)
def _iferror(ctx: Any, value: Any, fallback: Any = ("str", "")) -> Any:
    result = evaluate(value, ctx)
    if is_array(result):
        return lift(lambda v, f: f if isinstance(v, CellError) else v, result, evaluate(fallback, ctx))
    return evaluate(fallback, ctx) if isinstance(scalar(result), CellError) else result


@function("IFNA", 2, 2, lazy=True)
def _ifna(ctx: Any, value: Any, fallback: Any) -> Any:
    result = evaluate(value, ctx)
    if is_array(result):
        return lift(lambda v, f: f if isinstance(v, CellError) and v.code == "#N/A" else v, result, evaluate(fallback, ctx))
    found = scalar(result)
    return evaluate(fallback, ctx) if isinstance(found, CellError) and found.code == "#N/A" else result


@function("SWITCH", 3, lazy=True)
def _switch(ctx: Any, expr: Any, *cases: Any) -> Any:
    """The value of the first case equal to the subject, else the default; a subject over a
    range (`SWITCH(A2:A,"W","Won","L","Lost","Open")`) answers cell by cell."""
    subject = evaluate(expr, ctx)
    if is_array(subject):
        return lift(_switch_one, subject, *(evaluate(node, ctx) for node in cases))
    subject = scalar(subject)
    if isinstance(subject, CellError):
        return subject
    for i in range(0, len(cases) - 1, 2):
        if compare(subject, evaluate(cases[i], ctx)) == 0:
            return evaluate(cases[i + 1], ctx)
    if len(cases) % 2:
        return evaluate(cases[-1], ctx)
    raise fail("#N/A", "No match.")


@function("ARRAYFORMULA", 1, 1, errors_ok=True)
def _arrayformula(value: Any) -> Any:
    return value


@function("AND", 1)
def _and(*args: Any) -> bool:
    return all(_flat_bools(args))


@function("OR", 1)
def _or(*args: Any) -> bool:
    return any(_flat_bools(args))


@function("NOT", 1, 1, elementwise=True)
def _not(value: Any) -> bool:
    return not to_bool(value)


@function("TRUE", 0, 0)
def _true() -> bool:
    return True


@function("FALSE", 0, 0)
def _false() -> bool:
    return False


@function("ISBLANK", 1, 1, errors_ok=True, elementwise=True)
def _isblank(value: Any) -> bool:
    return scalar(value) is None


@function("ISNUMBER", 1, 1, errors_ok=True, elementwise=True)
def _isnumber(value: Any) -> bool:
    v = scalar(value)
    return isinstance(v, (int, float)) and not isinstance(v, bool)


@function("ISTEXT", 1, 1, errors_ok=True, elementwise=True)
def _istext(value: Any) -> bool:
    return isinstance(scalar(value), str)


@function("ISERROR", 1, 1, errors_ok=True, elementwise=True)
def _iserror(value: Any) -> bool:
    return isinstance(scalar(value), CellError)


@function("ISNA", 1, 1, errors_ok=True, elementwise=True)
def _isna(value: Any) -> bool:
    v = scalar(value)
    return isinstance(v, CellError) and v.code == "#N/A"


@function("NA", 0, 0)
def _na() -> Any:
    return CellError("#N/A", "Value not available.")


@function("ISERR", 1, 1, errors_ok=True, elementwise=True)
def _iserr(value: Any) -> bool:
    """An error other than #N/A."""
    v = scalar(value)
    return isinstance(v, CellError) and v.code != "#N/A"
