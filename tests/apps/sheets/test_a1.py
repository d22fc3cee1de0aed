"""A1 ranges in every form the Sheets API accepts, and Google's error for the rest."""

from __future__ import annotations

import pytest

from apps.sheets.a1 import A1Error, GridRange, column_index, column_letter, parse_area, parse_range, quote_sheet

FORMS = [
    ("A1", (None, GridRange(None, 0, 0, 1, 1))),
    ("B2:C5", (None, GridRange(None, 1, 1, 5, 3))),
    ("C5:B2", (None, GridRange(None, 1, 1, 5, 3))),
    ("Sheet1!A1:B2", ("Sheet1", GridRange("Sheet1", 0, 0, 2, 2))),
    ("'My Sheet'!A:A", ("My Sheet", GridRange("My Sheet", 0, 0, None, 1))),
    ("'It''s'!B3", ("It's", GridRange("It's", 2, 1, 3, 2))),
    ("Sheet1!2:4", ("Sheet1", GridRange("Sheet1", 1, 0, 4, None))),
    ("A2:C", (None, GridRange(None, 1, 0, None, 3))),
    ("A:B5", (None, GridRange(None, 0, 0, 5, 2))),
    ("Sheet1", ("Sheet1", None)),
    ("'Q3 Plan'", ("Q3 Plan", None)),
]


@pytest.mark.parametrize(("text", "expected"), FORMS, ids=[f[0] for f in FORMS])
def test_every_range_form_parses(text: str, expected: tuple) -> None:
    assert parse_range(text) == expected


def test_ranges_echo_back_in_a1() -> None:
    assert GridRange("My Sheet", 0, 0, 10, 4).a1() == "'My Sheet'!A1:D10"
    assert GridRange("Data", 1, 0, None, 3).a1() == "Data!A2:C"
    assert GridRange("Data", 4, 2, 5, 3).a1() == "Data!C5"
    assert quote_sheet("A1") == "'A1'" and quote_sheet("Sales") == "Sales"


@pytest.mark.parametrize("bad", ["A0:B2", "A1:", ":B2", "1A", "A1:B2:C3", "AAAA1", ""])
def test_bad_areas_raise_googles_error(bad: str) -> None:
    with pytest.raises(A1Error, match="^Unable to parse range: "):
        parse_area(bad)


def test_column_letters_round_trip() -> None:
    for index in (0, 25, 26, 701, 702, 18_277):
        assert column_index(column_letter(index)) == index
    assert column_letter(27) == "AB"


def test_a_range_parsed_again_is_parsed_the_same_and_bad_input_still_fails() -> None:
    """Parses are kept per text: the answer is immutable, and what fails fails every time."""
    for _ in range(2):
        assert parse_range("'Q3 Plan'!B2:C") == ("Q3 Plan", GridRange("Q3 Plan", 1, 1, None, 3))
        assert parse_range(" Sheet1!A1 ") == ("Sheet1", GridRange("Sheet1", 0, 0, 1, 1))
        for bad in ("Sheet1!A0", "", None, ["A1"]):
            with pytest.raises(A1Error):
                parse_range(bad)  # type: ignore[arg-type]
