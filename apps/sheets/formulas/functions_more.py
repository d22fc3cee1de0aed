"""Functions office sheets use that answered #NAME? before: N, T, REPT, CHAR, CODE; SIGN, PI,
EXP, LN, LOG, LOG10, MROUND, ISEVEN, ISODD, ISLOGICAL, ISNONTEXT; SUBTOTAL; WORKDAY, TIMEVALUE; MODE,
GEOMEAN, CORREL, RSQ, SLOPE, INTERCEPT, FORECAST; PMT, FV, PV, NPV; ADDRESS,
HYPERLINK; XMATCH; and the array shapers CHOOSECOLS, CHOOSEROWS, TAKE, DROP, TOCOL, TOROW
(Google Sheets and Excel 365 alike)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from apps.sheets.a1 import column_letter, quote_sheet
from apps.sheets.formulas.evaluator import FUNCTIONS, function
from apps.sheets.formulas.functions_date import _day
from apps.sheets.formulas.functions_lookup import _approx, _exact, _vector
from apps.sheets.formulas.functions_math import numbers
from apps.sheets.formulas.values import (
    CellError, Matrix, check, fail, finite, matrix_of, scalar, to_bool, to_number, to_serial, to_text,
)


# -- text and information ---------------------------------------------------------------------

@function("N", 1, 1, elementwise=True)
def _n(value: Any) -> float:
    """A number as itself, TRUE as 1, anything else (text, blank) as 0."""
    value = scalar(value)
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    return float(value) if isinstance(value, (int, float)) else 0.0


@function("T", 1, 1, elementwise=True)
def _t(value: Any) -> str:
    value = scalar(value)
    return value if isinstance(value, str) else ""


@function("REPT", 2, 2, elementwise=True)
def _rept(text: Any, times: Any) -> str:
    count = int(to_number(times))
    if count < 0:
        raise fail("#VALUE!", "Function REPT parameter 2 value is negative. It should be positive or zero.")
    out = to_text(text) * count
    if len(out) > 32_000:
        raise fail("#VALUE!", "Text result of REPT is longer than the limit of 32000 characters.")
    return out


@function("CHAR", 1, 1, elementwise=True)
def _char(code: Any) -> str:
    number = int(to_number(code))
    if not 1 <= number <= 0x10FFFF:
        raise fail("#NUM!", f"Function CHAR parameter 1 value {number} is out of range.")
    return chr(number)


@function("CODE", 1, 1, elementwise=True)
def _code(text: Any) -> float:
    found = to_text(text)
    if not found:
        raise fail("#VALUE!", "Function CODE parameter 1 value should be non-empty.")
    return float(ord(found[0]))


@function("ISLOGICAL", 1, 1, errors_ok=True, elementwise=True)
def _islogical(value: Any) -> bool:
    return isinstance(scalar(value), bool)


@function("ISNONTEXT", 1, 1, errors_ok=True, elementwise=True)
def _isnontext(value: Any) -> bool:
    return not isinstance(scalar(value), str)


@function("ISEVEN", 1, 1, elementwise=True)
def _iseven(value: Any) -> bool:
    return int(to_number(value)) % 2 == 0


@function("ISODD", 1, 1, elementwise=True)
def _isodd(value: Any) -> bool:
    return int(to_number(value)) % 2 == 1


@function("HYPERLINK", 1, 2)
def _hyperlink(url: Any, label: Any = None) -> Any:
    """The link's label (its address without one), what the cell shows."""
    return to_text(url) if label is None else check(scalar(label))


@function("ADDRESS", 2, 5)
def _address(row: Any, column: Any, absolute: Any = 1.0, a1: Any = True, sheet: Any = None) -> str:
    """A cell's reference as text: ADDRESS(2, 3) is "$C$2"; mode 2 "C$2", 3 "$C2", 4 "C2"; R1C1 with FALSE."""
    r, c, mode = int(to_number(row)), int(to_number(column)), int(to_number(absolute))
    if r < 1 or c < 1 or mode not in (1, 2, 3, 4):
        raise fail("#VALUE!", "Function ADDRESS expects a row and column of at least 1 and a mode from 1 to 4.")
    row_fixed, col_fixed = mode in (1, 2), mode in (1, 3)
    if to_bool(a1) if a1 is not None else True:
        text = f"{'$' if col_fixed else ''}{column_letter(c - 1)}{'$' if row_fixed else ''}{r}"
    else:
        text = f"R{r if row_fixed else f'[{r}]'}C{c if col_fixed else f'[{c}]'}"
    if sheet is not None and to_text(sheet):
        text = f"{quote_sheet(to_text(sheet))}!{text}"
    return text


# -- math -------------------------------------------------------------------------------------

@function("SIGN", 1, 1, elementwise=True)
def _sign(value: Any) -> float:
    number = to_number(value)
    return float((number > 0) - (number < 0))


@function("PI", 0, 0)
def _pi() -> float:
    return math.pi


@function("EXP", 1, 1, elementwise=True)
def _exp(value: Any) -> float:
    return finite(math.exp(to_number(value)))


def _positive(value: Any, name: str) -> float:
    number = to_number(value)
    if number <= 0:
        raise fail("#NUM!", f"Function {name} parameter 1 value is {number:g}. It should be greater than 0.")
    return number


@function("LN", 1, 1, elementwise=True)
def _ln(value: Any) -> float:
    return math.log(_positive(value, "LN"))


@function("LOG", 1, 2, elementwise=True)
def _log(value: Any, base: Any = 10.0) -> float:
    b = to_number(base)
    if b <= 0 or b == 1:
        raise fail("#NUM!", "Function LOG parameter 2 should be greater than 0 and not 1.")
    return math.log(_positive(value, "LOG")) / math.log(b)


@function("LOG10", 1, 1, elementwise=True)
def _log10(value: Any) -> float:
    return math.log10(_positive(value, "LOG10"))


@function("MROUND", 2, 2, elementwise=True)
def _mround(value: Any, factor: Any) -> float:
    """The nearest multiple of factor (halves away from zero); value and factor of one sign."""
    number, step = to_number(value), to_number(factor)
    if step == 0:
        return 0.0
    if number * step < 0:
        raise fail("#NUM!", "Parameters of MROUND must have the same sign.")
    count = abs(number / step)
    rounded = math.floor(count + 0.5 + 1e-12)
    return float(round(math.copysign(rounded * abs(step), number), 12))


_SUBTOTALS = {1: "AVERAGE", 2: "COUNT", 3: "COUNTA", 4: "MAX", 5: "MIN", 6: "PRODUCT", 7: "STDEV", 8: "STDEVP", 9: "SUM",
              10: "VAR", 11: "VARP"}


@function("SUBTOTAL", 2)
def _subtotal(code: Any, *areas: Any) -> Any:
    """SUBTOTAL(9, B2:B20): the function the code names (1 AVERAGE … 9 SUM … 11 VARP; 101–111
    the same, hidden rows aside, and no rows are hidden here) over the ranges."""
    number = int(to_number(code))
    name = _SUBTOTALS.get(number - 100 if number > 100 else number)
    if name is None:
        raise fail("#VALUE!", f"Function SUBTOTAL parameter 1 value {number} is not a valid function code.")
    fn = FUNCTIONS[name]
    for area in areas:
        if isinstance(area, CellError):
            return area
    return fn.call(*areas)


# -- dates ------------------------------------------------------------------------------------

@function("WORKDAY", 2, 3)
def _workday(start: Any, days: Any, holidays: Any = None) -> float:
    """The working day `days` working days after (before, if negative) start, weekends and
    holidays skipped."""
    day, count = _day(start), int(to_number(days))
    skip = set()
    if holidays is not None:
        for v in (holidays.flat() if isinstance(holidays, Matrix) else [holidays]):
            check(v)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                skip.add(_day(v))
    step = 1 if count >= 0 else -1
    left = abs(count)
    if left > 1_000_000:
        raise fail("#NUM!", "Function WORKDAY parameter 2 is too large.")
    while left:
        day += timedelta(days=step)
        if day.weekday() < 5 and day not in skip:
            left -= 1
    return to_serial(day)


# -- lookup and arrays ------------------------------------------------------------------------

@function("XMATCH", 2, 4)
def _xmatch(key: Any, area: Any, match_mode: Any = 0.0, search_mode: Any = 1.0) -> float:
    """The position of key in a row or column: exact (0), exact or next smaller (-1), exact or
    next larger (1), wildcards (2); searched from the first (1) or the last (-1)."""
    key, items = check(scalar(key)), _vector(area)
    mode, direction = int(to_number(match_mode)), int(to_number(search_mode))
    if mode not in (-1, 0, 1, 2) or direction not in (1, -1, 2, -2):
        raise fail("#VALUE!", "Function XMATCH has an invalid match or search mode.")
    if direction in (2, -2):  # binary search over sorted data
        found = _approx(items, key, descending=direction == -2)
        if found is not None and (mode == 0 and not _exact(items[found], key)):
            found = None
        if found is None:
            raise fail("#N/A", f"Did not find value '{to_text(key)}' in XMATCH evaluation.")
        return float(found + 1)
    order = range(len(items)) if direction == 1 else range(len(items) - 1, -1, -1)
    if mode in (0, 2):
        for i in order:
            if _exact(items[i], key) if mode == 2 or not isinstance(key, str) else (
                    isinstance(items[i], str) and items[i].lower() == key.lower()):
                return float(i + 1)
        raise fail("#N/A", f"Did not find value '{to_text(key)}' in XMATCH evaluation.")
    best = None
    for i in order:
        v = items[i]
        if v is None or isinstance(v, CellError) or isinstance(v, str) != isinstance(key, str) or isinstance(v, bool) != isinstance(key, bool):
            continue
        if _exact(v, key):
            return float(i + 1)
        if (mode == -1 and v < key and (best is None or v > items[best])) or (mode == 1 and v > key and (best is None or v < items[best])):
            best = i
    if best is None:
        raise fail("#N/A", f"Did not find value '{to_text(key)}' in XMATCH evaluation.")
    return float(best + 1)


def _picks(count: int, given: tuple[Any, ...], name: str) -> list[int]:
    picked = []
    for value in given:
        n = int(to_number(value))
        if n == 0 or abs(n) > count:
            raise fail("#VALUE!", f"Function {name} parameter {len(picked) + 2} value {n} is out of range.")
        picked.append(n - 1 if n > 0 else count + n)
    return picked


@function("CHOOSECOLS", 2)
def _choosecols(area: Any, *columns: Any) -> Matrix:
    grid = matrix_of(area)
    picked = _picks(grid.width, columns, "CHOOSECOLS")
    return Matrix([[row[c] for c in picked] for row in grid.rows])


@function("CHOOSEROWS", 2)
def _chooserows(area: Any, *rows: Any) -> Matrix:
    grid = matrix_of(area)
    return Matrix([list(grid.rows[r]) for r in _picks(grid.height, rows, "CHOOSEROWS")])


def _span(count: int, given: Any, take: bool) -> range:
    if given is None:
        return range(count)
    n = int(to_number(given))
    if take:
        if n == 0:
            raise fail("#VALUE!", "TAKE of zero rows or columns is empty.")
        return range(min(n, count)) if n > 0 else range(max(count + n, 0), count)
    return range(min(n, count), count) if n >= 0 else range(max(count + n, 0))


def _shaped(area: Any, rows: Any, columns: Any, take: bool, name: str) -> Matrix:
    grid = matrix_of(area)
    keep_rows, keep_cols = _span(grid.height, rows, take), _span(grid.width, columns, take)
    if not keep_rows or not keep_cols:
        raise fail("#VALUE!", f"Function {name} leaves no cells.")
    return Matrix([[grid.rows[r][c] for c in keep_cols] for r in keep_rows])


@function("TAKE", 2, 3)
def _take(area: Any, rows: Any, columns: Any = None) -> Matrix:
    """The first rows (last, if negative) and columns of an array."""
    return _shaped(area, rows, columns, True, "TAKE")


@function("DROP", 2, 3)
def _drop(area: Any, rows: Any, columns: Any = None) -> Matrix:
    """The array without its first rows (last, if negative) and columns."""
    return _shaped(area, rows, columns, False, "DROP")


def _line(area: Any, ignore: Any, by_column: Any) -> list[Any]:
    grid = matrix_of(area)
    mode = int(to_number(ignore)) if ignore is not None else 0
    cells = [v for column in zip(*grid.rows) for v in column] if by_column is not None and to_bool(by_column) else grid.cells()
    if mode in (1, 3):
        cells = [v for v in cells if v is not None]
    if mode in (2, 3):
        cells = [v for v in cells if not isinstance(v, CellError)]
    if not cells:
        raise fail("#N/A", "No values are left.")
    return cells


@function("TOCOL", 1, 3, errors_ok=True)
def _tocol(area: Any, ignore: Any = None, by_column: Any = None) -> Matrix:
    """The array's cells in one column, row by row (column by column with TRUE); ignore 1
    blanks, 2 errors, 3 both."""
    return Matrix([[v] for v in _line(area, ignore, by_column)])


@function("TOROW", 1, 3, errors_ok=True)
def _torow(area: Any, ignore: Any = None, by_column: Any = None) -> Matrix:
    return Matrix([_line(area, ignore, by_column)])


# -- statistics -------------------------------------------------------------------------------

def _numbers(args: tuple[Any, ...]) -> list[float]:
    return list(numbers(args))


@function("MODE", 1)
def _mode(*args: Any) -> float:
    """The number that occurs most often (the first of those, on a tie); #N/A when none repeats."""
    found = _numbers(args)
    counts: dict[float, int] = {}
    for v in found:
        counts[v] = counts.get(v, 0) + 1
    best = max(counts.values(), default=0)
    if best < 2:
        raise fail("#N/A", "MODE found no value that occurs more than once.")
    return next(v for v in found if counts[v] == best)


FUNCTIONS["MODE.SNGL"] = FUNCTIONS["MODE"]


@function("GEOMEAN", 1)
def _geomean(*args: Any) -> float:
    found = _numbers(args)
    if not found or any(v <= 0 for v in found):
        raise fail("#NUM!", "GEOMEAN takes numbers greater than 0.")
    return math.exp(math.fsum(math.log(v) for v in found) / len(found))


def _pairs(ys: Any, xs: Any, name: str) -> tuple[list[float], list[float]]:
    """The (y, x) pairs where both are numbers, as Google Sheets and Excel pair two ranges."""
    a, b = matrix_of(ys).cells(), matrix_of(xs).cells()
    if len(a) != len(b):
        raise fail("#N/A", f"{name} has mismatched range sizes.")
    out_y, out_x = [], []
    for y, x in zip(a, b, strict=True):
        check(y)
        check(x)
        if isinstance(y, (int, float)) and not isinstance(y, bool) and isinstance(x, (int, float)) and not isinstance(x, bool):
            out_y.append(float(y))
            out_x.append(float(x))
    return out_y, out_x


def _fit(ys: Any, xs: Any, name: str) -> tuple[float, float, float, float, float]:
    """(mean y, mean x, Sxy, Sxx, Syy) of the paired numbers."""
    y, x = _pairs(ys, xs, name)
    if len(y) < 2:
        raise fail("#DIV/0!", f"{name} needs at least two pairs of numbers.")
    my, mx = math.fsum(y) / len(y), math.fsum(x) / len(x)
    sxy = math.fsum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = math.fsum((a - mx) ** 2 for a in x)
    syy = math.fsum((b - my) ** 2 for b in y)
    return my, mx, sxy, sxx, syy


@function("CORREL", 2, 2)
def _correl(a: Any, b: Any) -> float:
    _, _, sxy, sxx, syy = _fit(a, b, "CORREL")
    if sxx == 0 or syy == 0:
        raise fail("#DIV/0!", "CORREL of a range whose values are all the same.")
    return sxy / math.sqrt(sxx * syy)


FUNCTIONS["PEARSON"] = FUNCTIONS["CORREL"]


@function("RSQ", 2, 2)
def _rsq(ys: Any, xs: Any) -> float:
    return _correl(ys, xs) ** 2


@function("SLOPE", 2, 2)
def _slope(ys: Any, xs: Any) -> float:
    _, _, sxy, sxx, _ = _fit(ys, xs, "SLOPE")
    if sxx == 0:
        raise fail("#DIV/0!", "SLOPE of x values that are all the same.")
    return sxy / sxx


@function("INTERCEPT", 2, 2)
def _intercept(ys: Any, xs: Any) -> float:
    my, mx, sxy, sxx, _ = _fit(ys, xs, "INTERCEPT")
    if sxx == 0:
        raise fail("#DIV/0!", "INTERCEPT of x values that are all the same.")
    return my - sxy / sxx * mx


@function("FORECAST", 3, 3)
def _forecast(x: Any, ys: Any, xs: Any) -> float:
    """The y the least-squares line through the pairs gives at x."""
    my, mx, sxy, sxx, _ = _fit(ys, xs, "FORECAST")
    if sxx == 0:
        raise fail("#DIV/0!", "FORECAST of x values that are all the same.")
    return my + sxy / sxx * (to_number(x) - mx)


FUNCTIONS["FORECAST.LINEAR"] = FUNCTIONS["FORECAST"]


# -- money ------------------------------------------------------------------------------------

def _money_args(*values: Any) -> list[float]:
    return [0.0 if v is None else to_number(v) for v in values]


@function("PMT", 3, 5)
def _pmt(rate: Any, periods: Any, present: Any, future: Any = None, due: Any = None) -> float:
    """The payment per period of a loan or saving at a fixed rate (negative: paid out)."""
    r, n, pv, fv, kind = _money_args(rate, periods, present, future, due)
    if n == 0:
        raise fail("#NUM!", "PMT takes a number of periods other than 0.")
    if r == 0:
        return -(pv + fv) / n
    growth = (1 + r) ** n
    return finite(-(r * (fv + pv * growth)) / ((1 + r * (1 if kind else 0)) * (growth - 1)))


@function("FV", 3, 5)
def _fv(rate: Any, periods: Any, payment: Any, present: Any = None, due: Any = None) -> float:
    r, n, pmt, pv, kind = _money_args(rate, periods, payment, present, due)
    if r == 0:
        return -(pv + pmt * n)
    growth = (1 + r) ** n
    return finite(-(pv * growth + pmt * (1 + r * (1 if kind else 0)) * (growth - 1) / r))


@function("PV", 3, 5)
def _pv(rate: Any, periods: Any, payment: Any, future: Any = None, due: Any = None) -> float:
    r, n, pmt, fv, kind = _money_args(rate, periods, payment, future, due)
    if r == 0:
        return -(fv + pmt * n)
    growth = (1 + r) ** n
    return finite(-(fv + pmt * (1 + r * (1 if kind else 0)) * (growth - 1) / r) / growth)


@function("NPV", 2)
def _npv(rate: Any, *flows: Any) -> float:
    """The value today of cash flows at the end of each coming period, discounted at rate."""
    r = to_number(rate)
    if r == -1:
        raise fail("#DIV/0!", "NPV with a rate of -1 divides by zero.")
    return finite(math.fsum(v / (1 + r) ** i for i, v in enumerate(_numbers(flows), start=1)))


@function("TIMEVALUE", 1, 1, elementwise=True)
def _timevalue(text: Any) -> float:
    """The fraction of a day a time written as text is ('14:30', '2:30 PM', '2026-03-31 06:00')."""
    raw = to_text(text).strip()
    for form in ("%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M:%S %p", "%I %p", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S",
                 "%m/%d/%Y %H:%M", "%m/%d/%Y %H:%M:%S"):
        try:
            moment = datetime.strptime(raw.upper() if "%p" in form else raw, form)
        except ValueError:
            continue
        return (moment.hour * 3600 + moment.minute * 60 + moment.second) / 86400
    raise fail("#VALUE!", f"TIMEVALUE parameter '{raw}' cannot be parsed to date/time.")
