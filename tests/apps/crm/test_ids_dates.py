"""Salesforce ids (key prefixes, the case-safe checksum, 15 ↔ 18 characters) and the date
ranges SOQL date literals cover, against values worked out by hand."""

from __future__ import annotations

from datetime import date

import pytest

from apps.crm.ids import checksum, make_id, to18
from apps.crm.soql.dates import RangeError, date_range


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
