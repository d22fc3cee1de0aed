"""Text: CONCAT/CONCATENATE/&, TEXTJOIN, LEFT, RIGHT, MID, LEN, UPPER, LOWER, TRIM, PROPER,
SUBSTITUTE, TEXT (through the number formats), VALUE, FIND, SEARCH, EXACT, SPLIT and the
regular expressions REGEXMATCH, REGEXEXTRACT, REGEXREPLACE."""

from __future__ import annotations

import re
from typing import Any

from apps.sheets import regex
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


# -- finding, comparing, splitting and regular expressions ------------------------------------
def _found_at(name: str, needle: Any, haystack: Any, start: Any, fold: bool) -> float:
    want, text, begin = to_text(needle), to_text(haystack), int(to_number(start))
    if begin < 1 or begin > len(text) + 1:
        raise fail("#VALUE!", f"Function {name} parameter 3 value is {begin}. It should be between 1 and {len(text) + 1}.")
    at = (text.lower().find(want.lower(), begin - 1) if fold else text.find(want, begin - 1))
    if at < 0:
        raise fail("#VALUE!", f"In {name} evaluation, cannot find '{want}' within '{text}'.")
    return float(at + 1)


@function("FIND", 2, 3, elementwise=True)
def _find(needle: Any, haystack: Any, start: Any = 1.0) -> float:
    """Where text starts in other text (1-based), matching case; #VALUE! when absent."""
    return _found_at("FIND", needle, haystack, start, fold=False)


@function("SEARCH", 2, 3, elementwise=True)
def _search(needle: Any, haystack: Any, start: Any = 1.0) -> float:
    """FIND ignoring case."""
    return _found_at("SEARCH", needle, haystack, start, fold=True)


@function("EXACT", 2, 2, elementwise=True)
def _exact_text(a: Any, b: Any) -> bool:
    return to_text(a) == to_text(b)


def _split_one(text: Any, delimiter: str, each: bool, drop_empty: bool) -> list[Any]:
    value = to_text(text)
    if not delimiter:
        raise fail("#VALUE!", "Function SPLIT parameter 2 value should be non-empty.")
    pattern = "[" + re.escape(delimiter) + "]" if each else re.escape(delimiter)
    parts = re.split(pattern, value)
    if drop_empty:
        parts = [p for p in parts if p != ""]
    out: list[Any] = []
    for part in parts:
        number = parse_number_text(part)
        out.append(number if number is not None else part)  # "12" is the number 12, as Google Sheets gives it
    return out or [None]


@function("SPLIT", 2, 4)
def _split(text: Any, delimiter: Any, split_by_each: Any = True, remove_empty: Any = True) -> Matrix:
    """The pieces of text between delimiters, across one row; each character of the delimiter
    splits unless split_by_each is FALSE. Given a column of text, one row each (short rows end
    blank)."""
    sep = to_text(delimiter)
    each = True if split_by_each is None else to_bool(split_by_each)
    drop = True if remove_empty is None else to_bool(remove_empty)
    if not isinstance(text, Matrix) or (text.height == 1 and text.width == 1):
        return Matrix([_split_one(scalar(text), sep, each, drop)])
    rows = [_split_one(check(v), sep, each, drop) for v in text.cells()]
    width = max(len(r) for r in rows)
    return Matrix([r + [None] * (width - len(r)) for r in rows])


def _regex(pattern: str) -> Any:
    try:
        return regex.compiled(pattern)
    except regex.BadPattern as bad:
        raise fail("#REF!", f"Function REGEX parameter 2 value \"{pattern}\" is not a valid regular expression: {bad}.") from None


@function("REGEXMATCH", 2, 2, elementwise=True)
def _regexmatch(text: Any, pattern: Any) -> bool:
    """Whether part of the text matches the regular expression."""
    return _regex(to_text(pattern)).search(to_text(text)) is not None


@function("REGEXEXTRACT", 2, 2)
def _regexextract(text: Any, pattern: Any) -> Any:
    """The first match; with capture groups, what they captured (several groups: one per cell
    across). Given a column of text, one answer each."""
    if isinstance(text, Matrix) and (text.height > 1 or text.width > 1):
        return Matrix([[_extract(check(v), pattern, first=True) for v in row] for row in text.rows])
    return _extract(scalar(text), pattern, first=False)


def _extract(text: Any, pattern: Any, first: bool) -> Any:
    compiled = _regex(to_text(scalar(pattern)))
    found = compiled.search(to_text(text))
    if found is None:
        raise fail("#N/A", "REGEXEXTRACT: the text does not match the regular expression.")
    groups = found.groups()
    if not groups:
        return found.group(0)
    if len(groups) == 1 or first:
        return groups[0] if groups[0] is not None else ""
    return Matrix([[g if g is not None else "" for g in groups]])


@function("REGEXREPLACE", 3, 3, elementwise=True)
def _regexreplace(text: Any, pattern: Any, replacement: Any) -> str:
    """Every match replaced; $1, $2… in the replacement are what the groups captured."""
    template = re.sub(r"\$(\d+)", r"\\g<\1>", to_text(replacement).replace("\\", "\\\\"))
    try:
        return _regex(to_text(pattern)).sub(template, to_text(text))
    except (IndexError, ValueError) as bad:  # a group the pattern does not have
        raise fail("#VALUE!", f"REGEXREPLACE: {bad}") from None


@function("JOIN", 2)
def _join(delimiter: Any, *args: Any) -> str:
    """The values joined by the delimiter (blank cells included), as Google Sheets' JOIN."""
    return to_text(delimiter).join(_pieces(args))
