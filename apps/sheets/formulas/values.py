"""Spreadsheet values: numbers (float), text (str), booleans, blanks (None), errors
(`CellError`) and 2-D arrays (`Matrix`, what a range or an array function yields); and the
coercions and comparisons every function shares, as Google Sheets and Excel define them."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from itertools import chain
from typing import Any

EPOCH = datetime(1899, 12, 30)  # serial 0 in Google Sheets, Excel (1900 system) and LibreOffice

ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#ERROR!")


@dataclass(frozen=True, slots=True)
class CellError:
    """A spreadsheet error value: `code` is what the cell shows, `message` the reason."""

    code: str
    message: str = ""

    def __str__(self) -> str:
        return self.code


class FormulaError(Exception):
    """Raised inside evaluation; the cell (or IFERROR) turns it into its `CellError` value."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.error = CellError(code, message)


def fail(code: str, message: str = "") -> FormulaError:
    return FormulaError(code, message)


class Matrix:
    """A rectangle of values, row-major. Ranges, array literals and array results are Matrices."""

    __slots__ = ("rows", "_cells")

    def __init__(self, rows: list[list[Any]]) -> None:
        self.rows = rows
        self._cells: list[Any] | None = None

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def flat(self) -> Iterator[Any]:
        return chain.from_iterable(self.rows)

    def cells(self) -> list[Any]:
        """Every value, row by row, as one list: made once (a Matrix is never changed), since
        a range read is shared by every formula reading it until one of its cells changes."""
        found = self._cells
        if found is None:
            found = self._cells = list(chain.from_iterable(self.rows))
        return found

    def column(self, index: int) -> list[Any]:
        return [row[index] for row in self.rows]

    def __repr__(self) -> str:
        return f"Matrix({self.rows!r})"


def scalar(value: Any) -> Any:
    """A single value from a value or a 1×1 array; a larger array gives its top-left cell."""
    if isinstance(value, Matrix):
        if not value.rows or not value.rows[0]:
            return None
        return value.rows[0][0]
    return value


def check(value: Any) -> Any:
    """The value, or raise it when it is an error."""
    if isinstance(value, CellError):
        raise FormulaError(value.code, value.message)
    return value


_NUMBER = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")


def parse_number_text(text: str) -> float | None:
    """A number typed as text: '12', '1,234.5', '$1,200', '15%', '-3e2'; None if not one."""
    t = text.strip()
    if not t:
        return None
    negative = t.startswith("(") and t.endswith(")")
    if negative:
        t = t[1:-1]
    percent = t.endswith("%")
    if percent:
        t = t[:-1]
    t = t.replace("$", "", 1).replace("€", "", 1).replace("£", "", 1)
    if re.fullmatch(r"[+-]?\d{1,3}(,\d{3})+(\.\d*)?", t.strip()):
        t = t.replace(",", "")
    if not _NUMBER.match(t):
        return None
    number = float(t)
    if percent:
        number /= 100
    return -number if negative else number


_YEAR = re.compile(r"\d{4}")
_DATE_FORMS = ("%Y-%m-%d", "%m/%d/%Y", "%Y/%m/%d", "%d %b %Y", "%b %d, %Y", "%B %d, %Y", "%d %B %Y")
_DATETIME_FORMS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M")


# What text must hold for each form to match it: its punctuation, and a digit or a letter
# first. A failed strptime costs ~15 µs, so forms the text cannot match are not tried.
_NEEDS = {form: (frozenset(re.sub(r"%.|\s", "", form)), form.startswith(("%b", "%B"))) for form in (*_DATETIME_FORMS, *_DATE_FORMS)}


@lru_cache(maxsize=4096)
def parse_date_text(text: str) -> tuple[float, str] | None:
    """(serial, kind) for a date or date-time typed as text ('2026-03-31', '3/31/2026'), where
    kind is 'DATE' or 'DATE_TIME'; None if it is not one."""
    t = text.strip()
    # Every form ends in a digit and holds a four-digit year: most text ('Deal 12') is not a
    # date, and trying eleven strptime forms on it was most of what typing a row cost.
    if not t or not t[-1].isdigit() or not _YEAR.search(t):
        return None
    present, lettered, numbered = set(t), t[0].isalpha(), t[0].isdigit()
    for forms, kind in ((_DATETIME_FORMS, "DATE_TIME"), (_DATE_FORMS, "DATE")):
        for form in forms:
            punctuation, by_name = _NEEDS[form]
            if not punctuation <= present or not (lettered if by_name else numbered):
                continue
            try:
                return to_serial(datetime.strptime(t, form)), kind
            except ValueError:
                pass
    return None


def to_serial(moment: date | datetime) -> float:
    if not isinstance(moment, datetime):
        moment = datetime(moment.year, moment.month, moment.day)
    delta = moment.replace(tzinfo=None) - EPOCH
    return delta.days + delta.seconds / 86_400 + delta.microseconds / 86_400_000_000


def from_serial(serial: float) -> datetime:
    if not -693_594 <= serial < 2_958_466:  # year 1 .. 9999
        raise fail("#NUM!", f"{serial} is not a valid date serial number")
    return EPOCH + timedelta(days=serial)


def to_number(value: Any, *, blank: float = 0.0) -> float:
    """A value as a number the way arithmetic reads it: TRUE=1, blank=0, numeric text parsed,
    other text → #VALUE!."""
    value = check(scalar(value))
    if value is None:
        return blank
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        parsed = parse_number_text(value)
        if parsed is None:
            dated = parse_date_text(value)
            if dated is None:
                raise fail("#VALUE!", f"Function expects number values. But '{value}' is a text and cannot be coerced to a number.")
            return dated[0]
        return parsed
    raise fail("#VALUE!", f"cannot use {value!r} as a number")


def to_text(value: Any) -> str:
    value = check(scalar(value))
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return number_text(value)
    return str(value)


def number_text(number: float) -> str:
    """A number as the General format shows it: integers without '.0', up to 15 significant digits."""
    if math.isfinite(number) and number == int(number) and abs(number) < 1e15:
        return str(int(number))
    text = f"{number:.15g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}E{int(exponent):+03d}"
    return text


def to_bool(value: Any) -> bool:
    value = check(scalar(value))
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    if isinstance(value, str):
        if value.upper() in ("TRUE", "FALSE"):
            return value.upper() == "TRUE"
        raise fail("#VALUE!", f"Function expects boolean values. But '{value}' is a text and cannot be coerced to a boolean.")
    raise fail("#VALUE!", f"cannot use {value!r} as a boolean")


def rank(value: Any) -> int:
    """Sort class: numbers < text < booleans, as spreadsheets order mixed values."""
    if isinstance(value, bool):
        return 2
    if isinstance(value, str):
        return 1
    return 0


def compare(a: Any, b: Any) -> int:
    """-1/0/1 as spreadsheet comparison: blank equals 0 and "", text case-insensitive."""
    a, b = check(scalar(a)), check(scalar(b))
    if a is None:
        a = "" if isinstance(b, str) else (False if isinstance(b, bool) else 0.0)
    if b is None:
        b = "" if isinstance(a, str) else (False if isinstance(a, bool) else 0.0)
    ra, rb = rank(a), rank(b)
    if ra != rb:
        return -1 if ra < rb else 1
    if ra == 1:
        a, b = a.lower(), b.lower()
    return (a > b) - (a < b)


def finite(number: float) -> float:
    if math.isnan(number) or math.isinf(number):
        raise fail("#NUM!", "the result is not a finite number")
    return number


def matrix_of(value: Any) -> Matrix:
    return value if isinstance(value, Matrix) else Matrix([[value]])
