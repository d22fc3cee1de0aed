"""Salesforce's value formats: dates "2026-08-24", datetimes "2026-08-24T09:30:00.000+0000"
(always UTC here), and reading a written value as the type its field declares."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any

from apps.crm.schema import BOOLEAN_TYPES, INT_TYPES, NUMBER_TYPES, Field

MAX_NUMBER = 1e18  # Salesforce currency/number fields hold 18 digits


class BadValue(ValueError):
    """A value that cannot be stored in its field; the message says what is accepted."""


def sf_date(value: date | datetime) -> str:
    return value.strftime("%Y-%m-%d")


def sf_datetime(value: datetime) -> str:
    value = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}+0000"


_EPOCH = datetime(1970, 1, 1)


_DAY_US = 86_400_000_000
_TWO_DIGITS = tuple(f"{n:02d}" for n in range(100))
_THREE_DIGITS = tuple(f"{n:03d}" for n in range(1000))


@lru_cache(maxsize=64)
def _day(days: int) -> str:
    """The date `days` after the epoch, as sf_date writes it (a save's day: the same for many)."""
    moment = _EPOCH + timedelta(days=days)
    return f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"


def sf_stamp(micros: int) -> str:
    """A moment given in microseconds since the epoch (the env clock), as sf_datetime writes
    it: every save stamps its record, so this skips datetime arithmetic, the timezone work
    and strftime (the day is looked up, the time of day is digits from tables)."""
    days, rest = divmod(micros, _DAY_US)
    seconds, fraction = divmod(rest, 1_000_000)
    minutes, second = divmod(seconds, 60)
    hour, minute = divmod(minutes, 60)
    two = _TWO_DIGITS
    return f"{_day(days)}T{two[hour]}:{two[minute]}:{two[second]}.{_THREE_DIGITS[fraction // 1000]}+0000"


def parse_datetime(text: str) -> datetime:
    """A datetime in any of the ISO 8601 forms Salesforce accepts ("Z", "+0000", "+00:00",
    with or without milliseconds)."""
    raw = text.strip()
    if raw.endswith("Z"):
        raw = raw[:-1] + "+00:00"
    if len(raw) >= 5 and raw[-5] in "+-" and raw[-4:].isdigit():
        raw = raw[:-2] + ":" + raw[-2:]
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        raise BadValue(f"{text!r} is not a datetime; use '2026-08-24T09:30:00.000+0000'") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if not 1700 <= moment.year <= 4000:
        raise BadValue(f"{text!r} is out of range (years 1700 to 4000)")
    return moment


def parse_date(text: str) -> date:
    try:
        found = date.fromisoformat(text.strip()[:10]) if len(text.strip()) >= 10 else date.fromisoformat(text.strip())
    except ValueError:
        raise BadValue(f"{text!r} is not a date; use 'YYYY-MM-DD', e.g. '2026-08-24'") from None
    if not 1700 <= found.year <= 4000:
        raise BadValue(f"{text!r} is out of range (years 1700 to 4000)")
    return found


def coerce(field: Field, value: Any) -> Any:
    """`value` as stored in `field`'s column; raises BadValue saying what the field takes."""
    if value is None or (value == "" and field.type not in ("string", "textarea")):
        return None
    kind = field.type
    if kind in BOOLEAN_TYPES:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise BadValue(f"{field.name} takes true or false; got {_shown(value)}")
    if kind in NUMBER_TYPES or kind in INT_TYPES:
        number = _number(field, value)
        return int(number) if kind in INT_TYPES else number
    if not isinstance(value, str):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and kind in ("string", "textarea", "phone"):
            value = str(value)
        else:
            raise BadValue(f"{field.name} takes text; got {_shown(value)}")
    if kind == "date":
        return sf_date(parse_date(value))
    if kind == "datetime":
        return sf_datetime(parse_datetime(value))
    if field.length and len(value) > field.length:
        raise BadValue(f"{field.name}: data value too large (max length={field.length}, got {len(value)} characters)")
    return value


def _number(field: Field, value: Any) -> float:
    if isinstance(value, bool):
        raise BadValue(f"{field.name} takes a number; got {_shown(value)}")
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise BadValue(f"{field.name} takes a number; got {_shown(value)}") from None
    if not isinstance(value, (int, float)):
        raise BadValue(f"{field.name} takes a number; got {_shown(value)}")
    if isinstance(value, float) and not math.isfinite(value) or abs(value) >= MAX_NUMBER:
        raise BadValue(f"{field.name} takes a finite number below 10^18; got {_shown(value)}")
    if field.type in INT_TYPES and float(value) != int(value):
        raise BadValue(f"{field.name} takes a whole number; got {_shown(value)}")
    return float(value)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"
