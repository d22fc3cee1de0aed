"""Dates: DATE, TODAY and NOW (the env's clock, never the machine's), YEAR, MONTH, DAY,
WEEKDAY, EDATE, EOMONTH, DAYS, NETWORKDAYS, DATEVALUE, WEEKNUM, ISOWEEKNUM, DATEDIF, and times:
TIME, HOUR, MINUTE, SECOND. Dates are serial numbers, day 0 = 1899-12-30."""

from __future__ import annotations

import calendar
import math
from datetime import date, timedelta
from typing import Any

from apps.sheets.formulas.evaluator import function
from apps.sheets.formulas.values import Matrix, check, fail, from_serial, parse_date_text, scalar, to_number, to_serial, to_text


def _day(value: Any) -> date:
    return from_serial(math.floor(to_number(value))).date()


@function("DATE", 3, 3, elementwise=True)
def _date(year: Any, month: Any, day: Any) -> float:
    y, m, d = int(to_number(year)), int(to_number(month)), int(to_number(day))
    if 0 <= y < 1900:
        y += 1900
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    if not 1 <= y <= 9999:
        raise fail("#NUM!", f"DATE year {y} is out of range")
    return to_serial(date(y, m, 1)) + d - 1


@function("TODAY", 0, 0, lazy=True)
def _today(ctx: Any) -> float:
    return float(to_serial(ctx.now.date()))


@function("NOW", 0, 0, lazy=True)
def _now(ctx: Any) -> float:
    return to_serial(ctx.now)


@function("YEAR", 1, 1, elementwise=True)
def _year(value: Any) -> float:
    return float(_day(value).year)


@function("MONTH", 1, 1, elementwise=True)
def _month(value: Any) -> float:
    return float(_day(value).month)


@function("DAY", 1, 1, elementwise=True)
def _dayfn(value: Any) -> float:
    return float(_day(value).day)


@function("WEEKDAY", 1, 2, elementwise=True)
def _weekday(value: Any, kind: Any = 1.0) -> float:
    weekday = _day(value).weekday()  # Monday = 0
    mode = int(to_number(kind))
    if mode == 2:
        return float(weekday + 1)
    if mode == 3:
        return float(weekday)
    return float((weekday + 1) % 7 + 1)


def _shift_months(start: date, months: int) -> tuple[int, int]:
    total = start.year * 12 + start.month - 1 + months
    return total // 12, total % 12 + 1


@function("EDATE", 2, 2, elementwise=True)
def _edate(start: Any, months: Any) -> float:
    begin = _day(start)
    y, m = _shift_months(begin, int(to_number(months)))
    return float(to_serial(date(y, m, min(begin.day, calendar.monthrange(y, m)[1]))))


@function("EOMONTH", 2, 2, elementwise=True)
def _eomonth(start: Any, months: Any) -> float:
    y, m = _shift_months(_day(start), int(to_number(months)))
    if not 1 <= y <= 9999:
        raise fail("#NUM!", "EOMONTH is out of range")
    return float(to_serial(date(y, m, calendar.monthrange(y, m)[1])))


@function("DAYS", 2, 2, elementwise=True)
def _days(end: Any, start: Any) -> float:
    return float(math.floor(to_number(end)) - math.floor(to_number(start)))


@function("NETWORKDAYS", 2, 3, each=slice(0, 2))
def _networkdays(start: Any, end: Any, holidays: Any = None, *, each: bool = False) -> Any:
    """Working days from start to end, both counted; given starts or ends as arrays
    (`NETWORKDAYS(B2:B, C2:C)`), one count per row, the holidays shared."""
    first, last = _day(start), _day(end)
    sign = 1
    if first > last:
        first, last, sign = last, first, -1
    skip: set[date] = set()
    if holidays is not None:
        for v in (holidays.flat() if isinstance(holidays, Matrix) else [holidays]):
            check(v)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                skip.add(_day(v))
    days = (last - first).days + 1
    whole_weeks, rest = divmod(days, 7)
    count = whole_weeks * 5
    for i in range(rest):
        if (first + timedelta(days=whole_weeks * 7 + i)).weekday() < 5:
            count += 1
    count -= sum(1 for h in skip if first <= h <= last and h.weekday() < 5)
    return float(sign * count)


@function("DATEVALUE", 1, 1, elementwise=True)
def _datevalue(text: Any) -> float:
    """The date serial of a date written as text ('2026-03-31', '3/31/2026'); a date already a
    number is that day."""
    value = check(scalar(text))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(math.floor(value))
    if isinstance(value, str):
        found = parse_date_text(value)
        if found is not None:
            return float(math.floor(found[0]))
    raise fail("#VALUE!", f"DATEVALUE parameter '{value}' cannot be parsed to date/time.")


_WEEK_STARTS = {1: 6, 2: 0, 11: 0, 12: 1, 13: 2, 14: 3, 15: 4, 16: 5, 17: 6}  # the weekday (Monday = 0) a week starts on


@function("WEEKNUM", 1, 2, elementwise=True)
def _weeknum(value: Any, kind: Any = 1.0) -> float:
    """The week of the year: week 1 holds January 1st, weeks start on Sunday (type 1), Monday
    (2 or 11), … (12-17); type 21 is the ISO week."""
    day, mode = _day(value), int(to_number(kind))
    if mode == 21:
        return float(day.isocalendar()[1])
    if mode not in _WEEK_STARTS:
        raise fail("#NUM!", f"Function WEEKNUM parameter 2 value {mode} is out of range.")
    first = date(day.year, 1, 1)
    offset = (first.weekday() - _WEEK_STARTS[mode]) % 7  # days of week 1 before January 1st
    return float((day.timetuple().tm_yday - 1 + offset) // 7 + 1)


@function("ISOWEEKNUM", 1, 1, elementwise=True)
def _isoweeknum(value: Any) -> float:
    return float(_day(value).isocalendar()[1])


@function("DATEDIF", 3, 3, elementwise=True)
def _datedif(start: Any, end: Any, unit: Any) -> float:
    """Whole years ("Y"), months ("M") or days ("D") from start to end; "MD", "YM" and "YD" the
    days, months or days left over after the whole months or years."""
    first, last, kind = _day(start), _day(end), to_text(unit).upper()
    if first > last:
        raise fail("#NUM!", "Function DATEDIF parameter 1 (start date) should be on or before parameter 2 (end date).")
    months = (last.year - first.year) * 12 + last.month - first.month - (1 if last.day < first.day else 0)
    if kind == "D":
        return float((last - first).days)
    if kind == "M":
        return float(months)
    if kind == "Y":
        return float(months // 12)
    if kind == "YM":
        return float(months % 12)
    if kind == "MD":
        if last.day >= first.day:
            return float(last.day - first.day)
        year, month = (last.year - 1, 12) if last.month == 1 else (last.year, last.month - 1)  # the month before end's
        return float(calendar.monthrange(year, month)[1] - first.day + last.day)
    if kind == "YD":
        anniversary_year = last.year if (last.month, last.day) >= (first.month, first.day) else last.year - 1
        day = min(first.day, calendar.monthrange(anniversary_year, first.month)[1])
        return float((last - date(anniversary_year, first.month, day)).days)
    raise fail("#NUM!", f"Function DATEDIF parameter 3 value is {to_text(unit)}. It should be one of: Y, M, D, MD, YM, YD.")


@function("TIME", 3, 3, elementwise=True)
def _time(hour: Any, minute: Any, second: Any) -> float:
    """A time of day as the fraction of a day (hours past 24 wrap around)."""
    total = int(to_number(hour)) * 3600 + int(to_number(minute)) * 60 + int(to_number(second))
    if total < 0:
        raise fail("#NUM!", "TIME evaluates to an out of range value.")
    return (total % 86_400) / 86_400


def _seconds(value: Any) -> int:
    number = to_number(value)
    if number < 0:
        raise fail("#NUM!", f"Function parameter value {number} should be greater than or equal to 0.")
    return round((number - math.floor(number)) * 86_400) % 86_400


@function("HOUR", 1, 1, elementwise=True)
def _hour(value: Any) -> float:
    return float(_seconds(value) // 3600)


@function("MINUTE", 1, 1, elementwise=True)
def _minute(value: Any) -> float:
    return float(_seconds(value) // 60 % 60)


@function("SECOND", 1, 1, elementwise=True)
def _second(value: Any) -> float:
    return float(_seconds(value) % 60)
