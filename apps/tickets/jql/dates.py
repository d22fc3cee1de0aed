"""JQL's date values on the env clock: absolute dates, relative periods ("-7d", "-1M", "4w 2d")
and the date functions (now(), startOfDay(), startOfWeek(), ... with an optional offset)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from apps.tickets.jql.parser import Func, JqlError

_PERIOD = re.compile(r"^([+-]?)\s*((?:\d+\s*[yMwdhm]\s*)+)$")
_PART = re.compile(r"(\d+)\s*([yMwdhm])")
_FORMATS = ("%Y-%m-%d %H:%M", "%Y/%m/%d %H:%M", "%Y-%m-%d", "%Y/%m/%d")
DATE_FUNCTIONS = ("now", "startOfDay", "endOfDay", "startOfWeek", "endOfWeek", "startOfMonth", "endOfMonth", "startOfYear", "endOfYear")


def _add_months(moment: datetime, months: int) -> datetime:
    index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    days = [31, 29 if year % 4 == 0 and (year % 100 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return moment.replace(year=year, month=month, day=min(moment.day, days))


def shift(moment: datetime, period: str, field: str) -> datetime:
    """`moment` moved by a period like "-7d", "+1w", "-1M", "4w 2d"."""
    found = _PERIOD.match(period.strip())
    if not found:
        raise invalid(period, field)
    sign = -1 if found[1] == "-" else 1
    try:
        for amount, unit in _PART.findall(found[2]):
            n = sign * int(amount)
            if unit == "y":
                moment = _add_months(moment, 12 * n)
            elif unit == "M":
                moment = _add_months(moment, n)
            else:
                moment += {"w": timedelta(weeks=n), "d": timedelta(days=n), "h": timedelta(hours=n), "m": timedelta(minutes=n)}[unit]
    except (ValueError, OverflowError):  # before year 1 or after 9999: no date Jira could hold either
        raise invalid(period, field) from None
    return moment


FORMATS_TEXT = "'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'"


def invalid(value: str, field: str) -> JqlError:
    return JqlError(f"Date value '{value}' for field '{field}' is invalid. Valid formats include: {FORMATS_TEXT}.")


def moment(value: str, now: datetime, field: str) -> tuple[datetime, bool]:
    """The moment a date value names, and whether it was given as a bare date (midnight)."""
    text = value.strip()
    for fmt in _FORMATS:
        try:
            parsed = datetime.strptime(text, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
        return parsed, "%H" not in fmt
    if _PERIOD.match(text):
        return shift(now, text, field), False
    raise invalid(value, field)


def function(func: Func, now: datetime, field: str) -> datetime:
    name = func.name.lower()
    known = {f.lower(): f for f in DATE_FUNCTIONS}
    if name not in known:
        raise JqlError(f"Unable to find JQL function '{func.name}({', '.join(func.args)})'.")
    if len(func.args) > (0 if name == "now" else 1):
        raise JqlError(f"Function '{known[name]}' expects {'no arguments' if name == 'now' else 'at most one argument'}.")
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    base = {
        "now": now,
        "startofday": day,
        "endofday": day + timedelta(days=1) - timedelta(milliseconds=1),
        "startofweek": day - timedelta(days=(day.weekday() + 1) % 7),  # weeks start on Sunday, as Jira's en-US locale has it
        "endofweek": day - timedelta(days=(day.weekday() + 1) % 7) + timedelta(days=7) - timedelta(milliseconds=1),
        "startofmonth": day.replace(day=1),
        "endofmonth": _add_months(day.replace(day=1), 1) - timedelta(milliseconds=1),
        "startofyear": day.replace(month=1, day=1),
        "endofyear": day.replace(year=day.year + 1, month=1, day=1) - timedelta(milliseconds=1),
    }[name]
    if func.args:
        offset = func.args[0].strip()
        if not offset.startswith(("+", "-")):
            offset = "+" + offset
        base = shift(base, offset, field)
    return base
