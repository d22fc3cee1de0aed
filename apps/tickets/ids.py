"""Jira-format identifiers and times: account ids, keys, and "2026-01-15T10:30:00.000+0000"."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, date, datetime

KEY = re.compile(r"^([A-Za-z][A-Za-z0-9_]{0,15})-([1-9][0-9]{0,8})$")


def account_id(seed: int, person_id: str) -> str:
    """24 hex digits, like Jira Cloud's "5b10ac8d82e05b22cc7d4ef5", derived from the seed."""
    return hashlib.sha256(f"officegym/{seed}/tickets/{person_id}".encode()).hexdigest()[:24]


def jira_time(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    if moment.year < 1000:  # strftime's year is not padded to four digits, isoformat's is
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}+0000"
    # The same text by isoformat (milliseconds cut, not rounded, as above), at half strftime's cost: every write stamps one.
    return moment.isoformat(timespec="milliseconds")[:-6] + "+0000"


def parse_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z")


def jira_date(day: date) -> str:
    return day.isoformat()


def split_key(key: str) -> tuple[str, int] | None:
    found = KEY.match((key or "").strip())
    if not found:
        return None
    return found[1].upper(), int(found[2])


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([wdhm])", re.IGNORECASE)
UNIT_SECONDS = {"w": 5 * 8 * 3600, "d": 8 * 3600, "h": 3600, "m": 60}  # Jira's default: 8h days, 5d weeks


def parse_duration(text: str) -> int | None:
    """Seconds in a Jira duration ("1h 30m", "2d", "1w 2d 4h"), or None if it is not one."""
    cleaned = (text or "").strip().lower()
    if not cleaned:
        return None
    total, consumed = 0.0, 0
    for match in _DURATION.finditer(cleaned):
        if cleaned[consumed:match.start()].strip():
            return None
        total += float(match[1]) * UNIT_SECONDS[match[2].lower()]
        consumed = match.end()
    if consumed == 0 or cleaned[consumed:].strip():
        return None
    return int(total)


def format_duration(seconds: int) -> str:
    """Jira's timeSpent text: "1h 30m", "2d", "1w 1d"."""
    parts = []
    for unit in ("w", "d", "h", "m"):
        count, seconds = divmod(seconds, UNIT_SECONDS[unit])
        if count:
            parts.append(f"{count}{unit}")
    return " ".join(parts) or "0m"
