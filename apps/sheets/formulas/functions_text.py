"""Text: CONCAT/CONCATENATE/&, TEXTJOIN, LEFT, RIGHT, MID, LEN, UPPER, LOWER, TRIM, PROPER,
SUBSTITUTE, TEXT (through the number formats), VALUE."""

from __future__ import annotations

import re
from typing import Any

from apps.sheets.formulas.evaluator import function
from apps.sheets.formulas.formats import format_number
from apps.sheets.formulas.values import (
    CellError, Matrix, check, fail, parse_date_text, parse_number_text, scalar, to_bool, to_number, to_text,
)


def _pieces(args: tuple[Any, ...]) -> list[str]:
    out = []
    for arg in args:
        if isinstance(arg, Matrix):
            for v in arg.flat():
                out.append(to_text(check(v)))
        else:
            out.append(to_text(arg))
    return out


@function("CONCAT", 1)
def _concat(*args: Any) -> str:
    return "".join(_pieces(args))


@function("CONCATENATE", 1)
def _concatenate(*args: Any) -> str:
    return "".join(_pieces(args))


@function("TEXTJOIN", 3)
def _textjoin(delimiter: Any, ignore_empty: Any, *args: Any) -> str:
    parts = _pieces(args)
    if to_bool(ignore_empty):
        parts = [p for p in parts if p != ""]
    return to_text(delimiter).join(parts)


def _count(value: Any, default: float, name: str) -> int:
    n = default if value is None else to_number(value)
    if n < 0:
        raise fail("#VALUE!", f"Function {name} parameter 2 value is negative. It should be positive or zero.")
    return int(n)


@function("LEFT", 1, 2, elementwise=True)
def _left(text: Any, count: Any = None) -> str:
    return to_text(text)[: _count(count, 1, "LEFT")]


@function("RIGHT", 1, 2, elementwise=True)
def _right(text: Any, count: Any = None) -> str:
    n = _count(count, 1, "RIGHT")
    return to_text(text)[-n:] if n else ""


@function("MID", 3, 3, elementwise=True)
def _mid(text: Any, start: Any, count: Any) -> str:
    begin = int(to_number(start))
    if begin < 1:
        raise fail("#VALUE!", f"Function MID parameter 2 value is {begin}. It should be greater than or equal to 1.")
    return to_text(text)[begin - 1: begin - 1 + _count(count, 0, "MID")]


@function("LEN", 1, 1, elementwise=True)
def _len(text: Any) -> float:
    return float(len(to_text(text)))


@function("UPPER", 1, 1, elementwise=True)
def _upper(text: Any) -> str:
    return to_text(text).upper()


@function("LOWER", 1, 1, elementwise=True)
def _lower(text: Any) -> str:
    return to_text(text).lower()


@function("PROPER", 1, 1, elementwise=True)
def _proper(text: Any) -> str:
    return re.sub(r"[A-Za-z]+", lambda m: m.group(0).capitalize(), to_text(text))


@function("TRIM", 1, 1, elementwise=True)
def _trim(text: Any) -> str:
    return re.sub(r" +", " ", to_text(text).strip(" "))


@function("SUBSTITUTE", 3, 4, elementwise=True)
def _substitute(text: Any, old: Any, new: Any, which: Any = None) -> str:
    source, find, repl = to_text(text), to_text(old), to_text(new)
    if not find:
        return source
    if which is None:
        return source.replace(find, repl)
    n = int(to_number(which))
    start = -1
    for _ in range(n):
        start = source.find(find, start + 1)
        if start < 0:
            return source
    return source[:start] + repl + source[start + len(find):]


@function("TEXT", 2, 2, elementwise=True)
def _text(value: Any, pattern: Any) -> str:
    v = scalar(value)
    if isinstance(v, str):
        parsed = parse_number_text(v)
        if parsed is None:
            return v
        v = parsed
    return format_number(to_number(v), to_text(pattern))


@function("VALUE", 1, 1, elementwise=True)
def _value(text: Any) -> float:
    v = scalar(text)
    if isinstance(v, CellError):
        check(v)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    if v is None:
        return 0.0
    parsed = parse_number_text(to_text(v))
    if parsed is None:
        dated = parse_date_text(to_text(v))
        if dated is None:
            raise fail("#VALUE!", f"VALUE parameter '{to_text(v)}' cannot be parsed to number.")
        return dated[0]
    return parsed
