"""References worked out when the formula runs: OFFSET and INDIRECT.

`=SUM(OFFSET(B1, 1, 0, COUNTA(B:B)-1, 1))` sums a column as long as it is filled;
`=INDIRECT(A1&"!B2")` reads the tab named in A1. Both give a reference, so ROW, COLUMN, ROWS and
the functions over ranges take them as they take `B2:B9`, and OFFSET takes one from INDIRECT or
OFFSET. What such a formula reads is only known when it runs, so the dependency graph cannot
know it: a formula calling either is volatile (recalculated on every change of its spreadsheet,
context.is_volatile), unless its arguments are literal (`INDIRECT("Data!A1:A9")`,
`OFFSET(A1, 2, 0)`), whose one target `parser.references` gives the graph instead.
"""

from __future__ import annotations

import re
from typing import Any

from apps.sheets.a1 import A1Error, GridRange, parse_area, split_sheet
from apps.sheets.formulas.evaluator import evaluate, function
from apps.sheets.formulas.values import check, fail, scalar, to_bool, to_number, to_text

Reference = tuple[str | None, GridRange]

_R1C1_PART = r"R(\[-?\d+\]|\d+)?C(\[-?\d+\]|\d+)?"
_R1C1 = re.compile(rf"^{_R1C1_PART}(?::{_R1C1_PART})?$", re.I)


def reference(node: Any, ctx: Any, name: str = "OFFSET") -> Reference:
    """The (sheet, range) a reference argument names: a range, a named range, or what OFFSET or
    INDIRECT gives; anything else is #VALUE!, as Google Sheets answers."""
    kind = node[0]
    if kind == "ref":
        return node[1], node[2]
    if kind == "name":
        bound = getattr(ctx, "bound", None)
        if bound is None or node[1].upper() not in bound:
            found = ctx.resolve_name(node[1])
            if found is None:
                raise fail("#NAME?", f"Unknown range name: '{node[1]}'.")
            return found
    elif kind == "call" and node[1] == "OFFSET":
        return _offset(node[2], ctx)
    elif kind == "call" and node[1] == "INDIRECT":
        return _indirect(node[2], ctx)
    raise fail("#VALUE!", f"Function {name} parameter 1 expects a cell reference.")


def _whole(node: Any, ctx: Any, default: int) -> int:
    if node[0] == "blank":
        return default
    value = check(scalar(evaluate(node, ctx)))
    number = to_number(value)
    return int(number)  # Google Sheets and Excel drop the fraction


def _offset(args: tuple[Any, ...], ctx: Any) -> Reference:
    if not 3 <= len(args) <= 5:
        raise fail("#N/A", f"Wrong number of arguments to OFFSET. Expected between 3 and 5 arguments, but got {len(args)} arguments.")
    sheet, grid = reference(args[0], ctx, "OFFSET")
    down, across = _whole(args[1], ctx, 0), _whole(args[2], ctx, 0)
    height = grid.r2 - grid.r1 if grid.r2 is not None else None
    width = grid.c2 - grid.c1 if grid.c2 is not None else None
    if len(args) > 3 and args[3][0] != "blank":
        height = _whole(args[3], ctx, 1)
    if len(args) > 4 and args[4][0] != "blank":
        width = _whole(args[4], ctx, 1)
    if (height is not None and height < 1) or (width is not None and width < 1):
        raise fail("#REF!", "Function OFFSET expects a height and a width of at least 1.")
    r1, c1 = grid.r1 + down, grid.c1 + across
    if r1 < 0 or c1 < 0:
        raise fail("#REF!", "Function OFFSET evaluates to an out of bounds range.")
    return sheet, GridRange(sheet, r1, c1, None if height is None else r1 + height, None if width is None else c1 + width)


def _indirect(args: tuple[Any, ...], ctx: Any) -> Reference:
    if not 1 <= len(args) <= 2:
        raise fail("#N/A", f"Wrong number of arguments to INDIRECT. Expected between 1 and 2 arguments, but got {len(args)} arguments.")
    text = to_text(check(scalar(evaluate(args[0], ctx)))).strip()
    a1 = True if len(args) < 2 or args[1][0] == "blank" else to_bool(check(scalar(evaluate(args[1], ctx))))
    found = target_of(text, a1, getattr(ctx, "cell", None))
    if found is not None:
        return found
    if a1 and "!" not in text:
        named = ctx.resolve_name(text) if text else None
        if named is not None:
            return named
    raise fail("#REF!", f"Function INDIRECT parameter 1 value is '{text}'. It is not a valid cell/range reference.")


def target_of(text: str, a1: bool = True, cell: tuple[int, int] | None = None) -> Reference | None:
    """The (sheet, range) written in `text` (A1 notation, or R1C1 when `a1` is false, relative
    parts from `cell`); None when it is not a range."""
    sheet, area = split_sheet(text.strip())
    if not area:
        return None
    if a1:
        try:
            return sheet, parse_area(area.replace("$", ""), sheet)
        except (A1Error, ValueError):
            return None
    match = _R1C1.match(area)
    if match is None:
        return None
    r0, c0 = cell if cell is not None else (0, 0)

    def at(part: str | None, here: int) -> int | None:
        if part is None:
            return None
        return here + int(part[1:-1]) if part.startswith("[") else int(part) - 1

    top, left = at(match[1], r0), at(match[2], c0)
    bottom, right = (at(match[3], r0), at(match[4], c0)) if match[0].find(":") >= 0 else (top, left)
    if (top is None) != (bottom is None) or (left is None) != (right is None) or (top is None and left is None):
        return None
    r1, r2 = (0, None) if top is None or bottom is None else (min(top, bottom), max(top, bottom) + 1)
    c1, c2 = (0, None) if left is None or right is None else (min(left, right), max(left, right) + 1)
    if r1 < 0 or c1 < 0:
        return None
    return sheet, GridRange(sheet, r1, c1, r2, c2)


@function("OFFSET", 3, 5, lazy=True)
def _offset_value(ctx: Any, *args: Any) -> Any:
    """OFFSET(reference, rows, columns, [height], [width]): the range that many rows down and
    columns across, of the reference's size or the one given."""
    sheet, grid = _offset(args, ctx)
    return ctx.read(sheet, grid)


@function("INDIRECT", 1, 2, lazy=True)
def _indirect_value(ctx: Any, *args: Any) -> Any:
    """INDIRECT(reference_text, [is_A1_notation]): the range written as text ('Data!B2:B',
    'B'&ROW(), a named range; 'R2C3' or 'R[-1]C' with FALSE)."""
    sheet, grid = _indirect(args, ctx)
    return ctx.read(sheet, grid)
