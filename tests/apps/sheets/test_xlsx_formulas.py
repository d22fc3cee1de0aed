"""Formulas written to an .xlsx file: functions newer than Excel 2007 carry the prefix Excel
stores them with (_xlfn., and _xlws. for FILTER/SORT), or Excel shows #NAME?; a dotted name
(STDEV.S) is one name; reading the file back drops the prefixes."""

from __future__ import annotations

import pytest

from apps.sheets.xlsx import from_file_formula, to_file_formula


@pytest.mark.parametrize(("typed", "stored"), [
    ("=STDEV.S(A1:A3)+STDEV(A1:A3)", "=_xlfn.STDEV.S(A1:A3)+STDEV(A1:A3)"),
    ("=SEQUENCE(3)", "=_xlfn.SEQUENCE(3)"),
    ("=VSTACK(A1:A2,B1:B2)", "=_xlfn.VSTACK(A1:A2,B1:B2)"),
    ("=FILTER(A:A,B:B>1)", "=_xlfn._xlws.FILTER(A:A,B:B>1)"),
    ("=ISOWEEKNUM(A1)+WEEKNUM(A1)", "=_xlfn.ISOWEEKNUM(A1)+WEEKNUM(A1)"),
    ("=PERCENTILE.INC(A:A,0.9)", "=_xlfn.PERCENTILE.INC(A:A,0.9)"),
    ("=SUM(A1:A3)", "=SUM(A1:A3)"),
])
def test_new_functions_are_stored_with_excels_prefix_and_read_back_without(typed: str, stored: str) -> None:
    assert to_file_formula(typed) == stored
    assert from_file_formula(stored) == typed
