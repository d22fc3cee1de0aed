"""Salesforce ids (key prefixes, the case-safe checksum, 15 ↔ 18 characters), the date
ranges SOQL date literals cover, against values worked out by hand, and the datetime text a
save stamps its record with."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from apps.crm.ids import checksum, make_id, to18
from apps.crm.soql.dates import RangeError, date_range
from apps.crm.values import sf_datetime, sf_stamp
from officegym.core.clock import to_micros


def test_checksum_matches_salesforce() -> None:
    # Known pairs from Salesforce documentation and orgs.
    assert "0015000000VALDt" + checksum("0015000000VALDt") == "0015000000VALDtAAP"
    assert to18("001A0000006Vm9r") == "001A0000006Vm9rIAC"
    assert to18("003A000000B3ZlN") == "003A000000B3ZlNIAV"


def test_ids_round_trip_and_refuse_bad_ones() -> None:
    made = make_id("006", 123456789)
    assert len(made) == 18 and made.startswith("006")
    assert to18(made[:15]) == made and to18(made) == made and to18(made.lower()[:3] + made[3:]) == made
    for bad in ("", "001", "001Hs000TwFovyCIIX", "001Hs000TwFovyCIIRR", "001Hs000TwFov-CIIR", None):
        assert to18(bad) is None


TODAY = date(2026, 8, 24)  # a Monday


@pytest.mark.parametrize(("literal", "n", "start", "end"), [
    ("TODAY", None, date(2026, 8, 24), date(2026, 8, 25)),
    ("YESTERDAY", None, date(2026, 8, 23), date(2026, 8, 24)),
    ("TOMORROW", None, date(2026, 8, 25), date(2026, 8, 26)),
    ("THIS_WEEK", None, date(2026, 8, 23), date(2026, 8, 30)),  # weeks start on Sunday
    ("LAST_WEEK", None, date(2026, 8, 16), date(2026, 8, 23)),
    ("THIS_MONTH", None, date(2026, 8, 1), date(2026, 9, 1)),
    ("LAST_MONTH", None, date(2026, 7, 1), date(2026, 8, 1)),
    ("NEXT_MONTH", None, date(2026, 9, 1), date(2026, 10, 1)),
    ("THIS_QUARTER", None, date(2026, 7, 1), date(2026, 10, 1)),
    ("LAST_QUARTER", None, date(2026, 4, 1), date(2026, 7, 1)),
    ("NEXT_QUARTER", None, date(2026, 10, 1), date(2027, 1, 1)),
    ("THIS_FISCAL_QUARTER", None, date(2026, 7, 1), date(2026, 10, 1)),
    ("THIS_YEAR", None, date(2026, 1, 1), date(2027, 1, 1)),
    ("LAST_YEAR", None, date(2025, 1, 1), date(2026, 1, 1)),
    ("LAST_90_DAYS", None, date(2026, 5, 26), date(2026, 8, 25)),
    ("LAST_N_DAYS", 7, date(2026, 8, 17), date(2026, 8, 25)),
    ("NEXT_N_DAYS", 7, date(2026, 8, 25), date(2026, 9, 1)),
    ("N_DAYS_AGO", 3, date(2026, 8, 21), date(2026, 8, 22)),
    ("LAST_N_MONTHS", 2, date(2026, 6, 1), date(2026, 8, 1)),
    ("NEXT_N_QUARTERS", 2, date(2026, 10, 1), date(2027, 4, 1)),
    ("LAST_N_YEARS", 1, date(2025, 1, 1), date(2026, 1, 1)),
])
def test_date_literal_ranges(literal: str, n: int | None, start: date, end: date) -> None:
    assert date_range(literal, n, TODAY) == (start, end)


def test_date_literals_check_their_number() -> None:
    with pytest.raises(RangeError):
        date_range("LAST_N_DAYS", None, TODAY)
    with pytest.raises(RangeError):
        date_range("TODAY", 2, TODAY)


@pytest.mark.parametrize("moment", [
    datetime(2026, 8, 24, 9, 30, 0, 0, tzinfo=UTC),
    datetime(2026, 8, 24, 23, 59, 59, 999_999, tzinfo=UTC),  # the last microsecond of a day: still its date, .999
    datetime(2026, 8, 25, 0, 0, 0, 0, tzinfo=UTC),
    datetime(2024, 2, 29, 12, 0, 7, 1_500, tzinfo=UTC),  # a leap day; milliseconds are truncated, not rounded
    datetime(1969, 12, 31, 23, 59, 59, 999_000, tzinfo=UTC),  # before the epoch: negative microseconds
    datetime(1970, 1, 1, tzinfo=UTC),
    datetime(9998, 12, 31, 1, 2, 3, tzinfo=UTC),
])
def test_a_save_stamp_is_the_moment_as_salesforce_writes_datetimes(moment: datetime) -> None:
    """Every save stamps its record with `sf_stamp` of the env clock: the same text as
    `sf_datetime` of that moment, at any time of any day."""
    micros = to_micros(moment)
    assert sf_stamp(micros) == sf_datetime(moment)
    assert sf_stamp(micros + 1) == sf_datetime(moment + timedelta(microseconds=1))
