"""Google Sheets' BooleanCondition, shared by data validation, conditional formatting and basic
filters: checked against what each of those takes (the ConditionType reference names, per
type, where it is supported and how many ConditionValues it needs) and evaluated on a cell's
value.

A ConditionValue is `{userEnteredValue}` (parsed as if typed into a cell; a formula begins
with "=") or `{relativeDate}` (conditional formats and filters only, for DATE_BEFORE and
DATE_AFTER). Text comparisons ignore case, as Google's do."""

from __future__ import annotations

import math
import re
from datetime import date, timedelta
from typing import Any

from apps.sheets.entry import enter
from apps.sheets.errors import invalid
from apps.sheets.formulas.values import CellError, from_serial, to_serial, to_text

NUMBER = ("NUMBER_GREATER", "NUMBER_GREATER_THAN_EQ", "NUMBER_LESS", "NUMBER_LESS_THAN_EQ", "NUMBER_EQ", "NUMBER_NOT_EQ",
          "NUMBER_BETWEEN", "NUMBER_NOT_BETWEEN")
# Where each type is supported (Google's ConditionType reference).
VALIDATION = (*NUMBER, "TEXT_CONTAINS", "TEXT_NOT_CONTAINS", "TEXT_EQ", "TEXT_IS_EMAIL", "TEXT_IS_URL", "DATE_EQ",
              "DATE_BEFORE", "DATE_AFTER", "DATE_ON_OR_BEFORE", "DATE_ON_OR_AFTER", "DATE_BETWEEN", "DATE_NOT_BETWEEN",
              "DATE_IS_VALID", "ONE_OF_RANGE", "ONE_OF_LIST", "CUSTOM_FORMULA", "BOOLEAN")
FORMATTING = (*NUMBER, "TEXT_CONTAINS", "TEXT_NOT_CONTAINS", "TEXT_STARTS_WITH", "TEXT_ENDS_WITH", "TEXT_EQ", "DATE_EQ",
              "DATE_BEFORE", "DATE_AFTER", "BLANK", "NOT_BLANK", "CUSTOM_FORMULA")
FILTERS = FORMATTING
DATA_SOURCE_ONLY = ("TEXT_NOT_EQ", "DATE_NOT_EQ", "FILTER_EXPRESSION")
TWO = ("NUMBER_BETWEEN", "NUMBER_NOT_BETWEEN", "DATE_BETWEEN", "DATE_NOT_BETWEEN")
NONE = ("TEXT_IS_EMAIL", "TEXT_IS_URL", "DATE_IS_VALID", "BLANK", "NOT_BLANK")
RELATIVE = ("PAST_YEAR", "PAST_MONTH", "PAST_WEEK", "YESTERDAY", "TODAY", "TOMORROW")
RELATIVE_TYPES = ("DATE_BEFORE", "DATE_AFTER", "DATE_ON_OR_BEFORE", "DATE_ON_OR_AFTER")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
URL = re.compile(r"^(?:https?://|ftp://|www\.)[^\s]+$|^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:/[^\s]*)?$", re.I)


def checked(condition: Any, label: str, where: str, supported: tuple[str, ...]) -> dict[str, Any]:
    """The condition as stored: `{type, values?}`, or Google's 400 naming what was wrong
    (`where`: what holds it, e.g. "rule.condition", for the message)."""
    if not isinstance(condition, dict):
        raise invalid(f"{label}: {where} is required: a BooleanCondition {{type, values}}")
    kind = condition.get("type")
    unknown = sorted(set(condition) - {"type", "values"})
    if unknown:
        raise invalid(f"{label}: {where} has {', '.join(map(repr, unknown))}; a BooleanCondition has type and values")
    if kind in DATA_SOURCE_ONLY:
        raise invalid(f"{label}: {where}.type {kind} is supported only by filters on data source objects; "
                      f"here use one of {', '.join(supported)}")
    if kind not in supported:
        raise invalid(f"{label}: {where}.type {kind!r} is not supported here; use one of {', '.join(supported)}")
    values = condition.get("values") or []
    if not isinstance(values, list) or not all(isinstance(v, dict) for v in values):
        raise invalid(f"{label}: {where}.values must be a list of ConditionValue objects {{userEnteredValue}} or {{relativeDate}}")
    out = []
    for i, value in enumerate(values):
        keys = set(value) - {"userEnteredValue", "relativeDate"}
        if keys or len(value) != 1:
            raise invalid(f"{label}: {where}.values[{i}] must have exactly one of userEnteredValue or relativeDate")
        if "relativeDate" in value:
            if kind not in RELATIVE_TYPES or supported is VALIDATION:
                raise invalid(f"{label}: {where}.values[{i}].relativeDate is not supported for {kind} here"
                              + ("; relative dates are not supported in data validation" if supported is VALIDATION else
                                 f"; it is valid only for {', '.join(t for t in RELATIVE_TYPES if t in supported)}"))
            if value["relativeDate"] not in RELATIVE:
                raise invalid(f"{label}: {where}.values[{i}].relativeDate must be one of {', '.join(RELATIVE)}")
            out.append({"relativeDate": value["relativeDate"]})
        else:
            text = value["userEnteredValue"]
            if not isinstance(text, str):
                if isinstance(text, bool) or not isinstance(text, (int, float)):
                    raise invalid(f"{label}: {where}.values[{i}].userEnteredValue must be a string")
                text = repr(text) if isinstance(text, float) and not text.is_integer() else str(int(text))
            out.append({"userEnteredValue": text})
    count = len(out)
    if kind in TWO and count != 2:
        raise invalid(f"{label}: {where} {kind} requires exactly two ConditionValues; got {count}")
    if kind in NONE and count:
        raise invalid(f"{label}: {where} {kind} requires no ConditionValues; got {count}")
    if kind == "ONE_OF_LIST":
        if not count:
            raise invalid(f"{label}: {where} ONE_OF_LIST requires at least one ConditionValue (one per item of the list)")
        if any(v.get("userEnteredValue", "").startswith("=") for v in out):
            raise invalid(f"{label}: {where} ONE_OF_LIST does not take formulas in its values; for items read from cells use ONE_OF_RANGE")
    elif kind == "BOOLEAN":
        if count > 2:
            raise invalid(f"{label}: {where} BOOLEAN takes zero, one or two ConditionValues (checked, unchecked); got {count}")
    elif kind not in TWO and kind not in NONE and count != 1:
        raise invalid(f"{label}: {where} {kind} requires a single ConditionValue; got {count}")
    for v in out:
        text = v.get("userEnteredValue")
        if text is None or text.startswith("="):
            continue
        if kind in NUMBER and not isinstance(enter(text, "USER_ENTERED").value, float):
            raise invalid(f"{label}: {where} {kind} needs numbers; {text!r} is not a number")
        if kind.startswith("DATE_") and not isinstance(enter(text, "USER_ENTERED").value, float):
            raise invalid(f"{label}: {where} {kind} needs dates (e.g. 2026-01-31 or 1/31/2026); {text!r} is not a date")
    if kind == "ONE_OF_RANGE":
        text = out[0]["userEnteredValue"]
        if not text.startswith("="):
            out[0]["userEnteredValue"] = "=" + text
    if kind == "CUSTOM_FORMULA" and not out[0]["userEnteredValue"].startswith("="):
        raise invalid(f"{label}: {where} CUSTOM_FORMULA needs a formula beginning with '=' (e.g. =$D2<TODAY())")
    return {"type": kind, **({"values": out} if out else {})}


class Reader:
    """What evaluating a condition reads beside the cell's own value: `formula(text, row, col)`
    the value of a formula at a cell (None: not evaluated), `range(text)` the values of an A1
    range (ONE_OF_RANGE), `today` the date now."""

    def __init__(self, today: date, formula: Any = None, cells: Any = None) -> None:
        self.today = today
        self.formula = formula
        self.cells = cells


def _operand(value: dict[str, Any], reader: Reader, at: tuple[int, int]) -> Any:
    if "relativeDate" in value:
        today = reader.today
        shift = {"TODAY": today, "YESTERDAY": today - timedelta(days=1), "TOMORROW": today + timedelta(days=1),
                 "PAST_WEEK": today - timedelta(days=7), "PAST_MONTH": _months_back(today, 1),
                 "PAST_YEAR": _months_back(today, 12)}[value["relativeDate"]]
        return to_serial(shift)
    text = value.get("userEnteredValue", "")
    if text.startswith("="):
        return reader.formula(text, *at) if reader.formula is not None else None
    return enter(text, "USER_ENTERED").value


def _months_back(day: date, months: int) -> date:
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month + 1, d)
        except ValueError:
            continue
    return day


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) else None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, CellError):
        return value.code
    return to_text(value)


def holds(condition: dict[str, Any], value: Any, reader: Reader, at: tuple[int, int], anchor: tuple[int, int] | None = None,
          date_format: bool = False) -> bool | None:
    """Whether `value` (a cell's effective value, None when blank) meets the condition; None
    when it cannot be told here (a formula no reader evaluates). `at` is the cell, `anchor`
    the top-left of the rule's range (a custom formula is written for it, relative references
    moving with the cell); `date_format`: the cell shows a date (DATE_IS_VALID)."""
    kind = condition["type"]
    values = condition.get("values") or []
    blank = value is None or value == ""
    if kind == "BLANK":
        return blank
    if kind == "NOT_BLANK":
        return not blank
    if kind == "CUSTOM_FORMULA":
        if reader.formula is None:
            return None
        top, left = anchor or at
        result = reader.formula(values[0]["userEnteredValue"], at[0], at[1], at[0] - top, at[1] - left)
        if isinstance(result, CellError) or result is None:
            return False
        if isinstance(result, str):
            return result.upper() == "TRUE"
        return bool(result)
    ops = [_operand(v, reader, at) for v in values]
    if kind in NUMBER:
        number = _number(value)
        bounds = [_number(o) for o in ops]
        if number is None or any(b is None for b in bounds):
            return False
        return _compare(kind.removeprefix("NUMBER_"), number, bounds)
    if kind.startswith("DATE_"):
        number = _number(value)
        if kind == "DATE_IS_VALID":
            return number is not None and date_format
        bounds = [_number(o) for o in ops]
        if number is None or any(b is None for b in bounds):
            return False
        return _compare(kind.removeprefix("DATE_"), math.floor(number), [math.floor(b) for b in bounds])  # type: ignore[arg-type]
    text = _text(value).lower()
    if kind == "TEXT_IS_EMAIL":
        return bool(EMAIL.match(text))
    if kind == "TEXT_IS_URL":
        return bool(URL.match(text))
    if kind == "BOOLEAN":
        if not ops:
            return isinstance(value, bool) or blank
        return blank or any(_same(value, o) for o in ops)
    if kind == "ONE_OF_LIST":
        return blank or any(text == _text(o).lower() for o in ops)
    if kind == "ONE_OF_RANGE":
        if reader.cells is None:
            return None
        listed = reader.cells(values[0]["userEnteredValue"][1:])
        return blank or any(_same(value, item) for item in listed if item is not None)
    want = _text(ops[0]).lower() if ops else ""
    if kind == "TEXT_CONTAINS":
        return want in text
    if kind == "TEXT_NOT_CONTAINS":
        return want not in text
    if kind == "TEXT_STARTS_WITH":
        return text.startswith(want)
    if kind == "TEXT_ENDS_WITH":
        return text.endswith(want)
    if kind == "TEXT_EQ":
        return text == want
    return None


def _same(a: Any, b: Any) -> bool:
    if _number(a) is not None and _number(b) is not None:
        return _number(a) == _number(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or _text(a).lower() == _text(b).lower()
    return _text(a).lower() == _text(b).lower()


def _compare(op: str, value: float, bounds: list[float]) -> bool:
    if op in ("BETWEEN", "NOT_BETWEEN"):
        low, high = sorted(bounds)
        inside = low <= value <= high
        return inside if op == "BETWEEN" else not inside
    other = bounds[0]
    return {"GREATER": value > other, "AFTER": value > other, "GREATER_THAN_EQ": value >= other, "ON_OR_AFTER": value >= other,
            "LESS": value < other, "BEFORE": value < other, "LESS_THAN_EQ": value <= other, "ON_OR_BEFORE": value <= other,
            "EQ": value == other, "NOT_EQ": value != other}[op]


def today_of(now: Any) -> date:
    """The env's date (its clock) for relative dates and TODAY()."""
    return now.date() if hasattr(now, "date") else from_serial(float(now)).date()


def reader_for(stored: Any, sheet_id: int) -> Reader:
    """A Reader over a StoredBook (its `book`): formulas evaluated in the tab as if entered
    at the cell, moved from the rule's top-left by (d_rows, d_cols); ranges read from the
    book."""
    from apps.sheets.formulas.context import BookContext
    from apps.sheets.formulas.evaluator import evaluate
    from apps.sheets.formulas.parser import parse
    from apps.sheets.formulas.values import Matrix
    from apps.sheets.rewrite import offset

    book = stored.book
    parsed: dict[str, Any] = {}

    def formula(text: str, row: int, col: int, d_rows: int = 0, d_cols: int = 0) -> Any:
        moved = offset(text, d_rows, d_cols) if (d_rows or d_cols) else text
        try:
            tree = parsed.get(moved)
            if tree is None:
                tree = parsed[moved] = parse(moved)
            result = evaluate(tree, BookContext(book, sheet_id, (row, col)))
        except Exception:  # noqa: BLE001 - a rule's formula that fails is false, never a crash
            return None
        if isinstance(result, Matrix):
            result = result.rows[0][0] if result.rows and result.rows[0] else None
        return result

    def cells(text: str) -> list[Any]:
        try:
            result = evaluate(parse("=" + text), BookContext(book, sheet_id, (0, 0)))
        except Exception:  # noqa: BLE001 - a range that does not read lists nothing
            return []
        if isinstance(result, Matrix):
            return [v for row in result.rows for v in row]
        return [result]

    return Reader(today_of(book.now), formula, cells)
