"""The answer reader, round 6: amounts written the European way, a total broken down into its
parts, an amount ruled out, a time written 14h30, and a meeting's slot ("2:30–3:30 PM")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tasks.common.answers import amounts, breakdown, restated, roundings, times, without_retracted

TOTAL = Decimal(1_234_500)


@pytest.mark.parametrize("written", ["1.234.500 €", "$1.234.500", "EUR 1.234.500,00", "1 234 500,00 $", "1.234.500,00"])
def test_european_thousands_and_decimal_comma_read_as_one_amount(written: str) -> None:
    assert amounts(written) == {TOTAL}


@pytest.mark.parametrize(("written", "value"), [("€1.234,50", "1234.5"), ("$1,234,500.00", "1234500"), ("$1.25", "1.25"),
                                                ("USD 1 234 500", "1234500")])
def test_other_amounts_keep_their_reading(written: str, value: str) -> None:
    assert amounts(written) == {Decimal(value)}


@pytest.mark.parametrize("text", [
    "$1,234,500, from $400,000, $500,000 and $334,500",
    "Total $1,234,500 (3 deals: $400k + $500k + $334.5k)",
    "$1,234,500: $900k from Acme ($400k + $500k) and $334,500 from Beta",
    "Let me know if you need more: $1,234,500 = $400,000 + $400,000 + $434,500",
])
def test_the_parts_of_a_total_broken_down_are_no_other_figure(text: str) -> None:
    others = amounts(text) - {TOTAL}
    assert others and others <= breakdown(text, TOTAL, roundings(TOTAL))


@pytest.mark.parametrize("text", [
    "$1,234,500, or maybe $1.5M",
    "$1,234,500 ($400k + $500k + $334.5k), or maybe $1.5M",
    "$1,234,500 or $1,100,000 or $134,500",
    "$1,234,500 ($1.1M, maybe 134,500 more)",
    "Somewhere between $617,250, $1,234,500 and $2,469,000",
    "$1,234,500 from $400,000 and $500,000",
])
def test_figures_that_are_not_its_parts_or_are_offered_as_possibilities_are_no_breakdown(text: str) -> None:
    assert not breakdown(text, TOTAL, roundings(TOTAL))


def test_an_amount_ruled_out_whole_is_not_asserted() -> None:
    assert amounts(without_retracted("$1,234,500, not $1,483,460")) == {TOTAL}
    assert amounts(without_retracted("1.234.500 €, not 1.483.460 €")) == {TOTAL}
    assert len(amounts(without_retracted("$1,234,500, probably not $1,483,460"))) == 2  # uncertain: both possible


def _read(text: str) -> set[frozenset[str]]:
    return {t.readings for t in restated(times(text), "14:30")}


def test_a_time_written_14h30_is_a_time_and_1h30_is_how_long() -> None:
    assert _read("Friday 14h30") == {frozenset({"14:30"})}
    assert _read("a 1h30 session") == set()


@pytest.mark.parametrize("text", ["Fri 2:30-3:30 PM", "from 2:30 PM to 3:30 PM", "2:30 PM \u2013 3:30 PM", "14:30 until 15:30"])
def test_the_end_of_the_asked_slot_names_no_other_time(text: str) -> None:
    assert _read(text) <= {frozenset({"14:30"}), frozenset({"02:30", "14:30"})}


@pytest.mark.parametrize("text", ["2:30 PM or 3:30 PM", "between 2:30 and 3:30 PM", "3:30 PM - 4:30 PM", "2:30 PM (until 9:30 PM)"])
def test_a_second_time_that_ends_no_slot_of_the_asked_time_is_another_time(text: str) -> None:
    assert any("14:30" not in readings for readings in _read(text))


@pytest.mark.parametrize(("written", "value"), [("267.100 USD", "267100"), ("EUR 32.400", "32400"), ("$1.234M", "1234000"),
                                                ("267.100", "267.1"), ("$32.40", "32.4")])
def test_money_with_three_digits_after_one_dot_is_thousands(written: str, value: str) -> None:
    """Money has cents, never three decimals: "267.100 USD" is written the European way (a scale keeps the decimal)."""
    assert amounts(written) == {Decimal(value)}


DEALS = (Decimal(400_000), Decimal(500_000), Decimal(334_500))


@pytest.mark.parametrize("text", ["$1,234,500; the largest is Acme at $500k", "$1,234,500 (biggest deal: $400,000)",
                                  "$1,234,500; closing May 15: $400k and $834,500 by June"])
def test_one_deals_amount_named_beside_the_total_is_a_part_of_it(text: str) -> None:
    others = amounts(text) - {TOTAL}
    assert others and others <= breakdown(text, TOTAL, roundings(TOTAL), known=DEALS)


@pytest.mark.parametrize("text", ["$1,234,500, could be $500k", "$1,234,500 or $500,000", "$1,234,500 (biggest: $450,000)",
                                  "$1,234,500, not sure, 400,000 maybe"])
def test_a_deals_amount_offered_as_the_answer_or_no_deals_amount_is_no_part(text: str) -> None:
    assert not breakdown(text, TOTAL, roundings(TOTAL), known=DEALS)


def test_a_time_written_at_14_30_with_a_dot_is_a_time_and_a_price_is_not() -> None:
    assert _read("Friday at 14.30") == {frozenset({"14:30"})}
    assert times("$14.30 each") == set() and amounts("$14.30 each") == {Decimal("14.30")}
