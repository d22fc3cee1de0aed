"""SOQL date literals (TODAY, LAST_N_DAYS:30, THIS_QUARTER, ...) as half-open date ranges
[start, end) relative to the env clock's "now". Weeks start on Sunday and the fiscal year
is the calendar year, as in a default org (time zone UTC)."""

from __future__ import annotations

from datetime import date, timedelta


class RangeError(ValueError):
    """A literal that needs `:n` lacks it (or has one it must not have)."""


def _month_start(day: date, months: int = 0) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _quarter_start(day: date, quarters: int = 0) -> date:
    return _month_start(date(day.year, (day.month - 1) // 3 * 3 + 1, 1), 3 * quarters)


def _week_start(day: date, weeks: int = 0) -> date:
    return day - timedelta(days=(day.weekday() + 1) % 7) + timedelta(weeks=weeks)


def _year_start(day: date, years: int = 0) -> date:
    return date(day.year + years, 1, 1)


UNITS = {
    "WEEK": (_week_start, 1),
    "MONTH": (_month_start, 1),
    "QUARTER": (_quarter_start, 1),
    "YEAR": (_year_start, 1),
    "FISCAL_QUARTER": (_quarter_start, 1),
    "FISCAL_YEAR": (_year_start, 1),
}


def date_range(name: str, n: int | None, today: date) -> tuple[date, date]:
    """The [start, end) range `name` (with `n` for the _N_ forms) covers on `today`."""
    try:
        return _range(name, n, today)
    except (OverflowError, ValueError) as error:
        if isinstance(error, RangeError):
            raise
        raise RangeError(f"{name}:{n} reaches outside the calendar (years 1 to 9999)") from None


def _range(name: str, n: int | None, today: date) -> tuple[date, date]:
    needs_n = "_N_" in name or name == "N_DAYS_AGO"
    if needs_n and n is None:
        raise RangeError(f"{name} needs a number, e.g. {name}:30")
    if not needs_n and n is not None:
        raise RangeError(f"{name} takes no number")
    one = timedelta(days=1)
    if name == "TODAY":
        return today, today + one
    if name == "YESTERDAY":
        return today - one, today
    if name == "TOMORROW":
        return today + one, today + 2 * one
    if name == "LAST_90_DAYS":
        return today - 90 * one, today + one
    if name == "NEXT_90_DAYS":
        return today + one, today + 91 * one
    if name == "LAST_N_DAYS":
        return today - n * one, today + one
    if name == "NEXT_N_DAYS":
        return today + one, today + (n + 1) * one
    if name == "N_DAYS_AGO":
        return today - n * one, today - (n - 1) * one
    for unit, (start_of, _) in UNITS.items():
        if name == f"THIS_{unit}":
            return start_of(today), start_of(today, 1)
        if name == f"LAST_{unit}":
            return start_of(today, -1), start_of(today)
        if name == f"NEXT_{unit}":
            return start_of(today, 1), start_of(today, 2)
        if name == f"LAST_N_{unit}S":
            return start_of(today, -n), start_of(today)
        if name == f"NEXT_N_{unit}S":
            return start_of(today, 1), start_of(today, n + 1)
    raise RangeError(f"unknown date literal {name}")
