"""Round 3 of the answer readers (tasks.common.answers, tasks.common.text): values written in the
forms people use are read as values, so a correct answer in that form passes and a hedge
offering an alternative in that form fails; an uncertain negation rules nothing out."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tasks.common.answers import amounts, days, ticket_keys, times, without_retracted
from tasks.common.text import Lexicon, short_names

PROJECTS = {"SUP", "ENG"}


@pytest.mark.parametrize(("text", "keys"), [
    ("SUP-64/76", {"SUP-64", "SUP-76"}),
    ("SUP-64 and -76", {"SUP-64", "SUP-76"}),
    ("SUP-64, -76, -80", {"SUP-64", "SUP-76", "SUP-80"}),
    ("SUP 64, SUP 76", {"SUP-64", "SUP-76"}),
    ("see SUP #12", {"SUP-12"}),
    ("SUP\u201164 and SUP\u201076", {"SUP-64", "SUP-76"}),  # non-breaking hyphen, hyphen
    ("SUP\u201364", {"SUP-64"}),  # en dash
    ("eng-12", {"ENG-12"}),
    ("sup 2 guys, page 5", set()),  # a project word in lower case, or any other word, before a number is words
    ("It's SUP-67 - or maybe SUP 68", {"SUP-67", "SUP-68"}),
    ("SUP-64 or 77?", {"SUP-64", "SUP-77"}),  # a bare number ending a list of keys is a key
    ("SUP-64, 76 and 80.", {"SUP-64", "SUP-76", "SUP-80"}),
    ("SUP-64 and SUP-76, 2 in total", {"SUP-64", "SUP-76"}),  # a number followed by a word is a count
    ("SUP-64, 10:00 AM", {"SUP-64"}),
])
def test_ticket_keys_in_the_forms_people_write_them(text: str, keys: set[str]) -> None:
    assert ticket_keys(text, PROJECTS) == keys


def test_a_time_range_is_not_a_ticket_key() -> None:
    """"10:00 AM-11:00" is two times, not the key AM-11 masking them."""
    assert ticket_keys("10:00 AM-11:00") == set()
    assert {t.written for t in times("moved to 10:00 AM-11:00")} == {"10:00 AM", "11:00"}


@pytest.mark.parametrize(("text", "left"), [
    ("SUP-64. Probably not SUP-77 but check", {"SUP-64", "SUP-77"}),
    ("SUP-64, not SUP-77?", {"SUP-64", "SUP-77"}),
    ("SUP-64, not SUP-77 (TBC)", {"SUP-64", "SUP-77"}),
    ("SUP-64; it could be not SUP-77", {"SUP-64", "SUP-77"}),
    ("SUP-64, not SUP-77", {"SUP-64"}),  # a plain negation still rules a value out
])
def test_an_uncertain_negation_rules_nothing_out(text: str, left: set[str]) -> None:
    assert ticket_keys(without_retracted(text), PROJECTS) == left


@pytest.mark.parametrize(("text", "values"), [
    ("$48,800, or maybe 51 grand", {48800, 51000}),
    ("$48,800 or possibly 51.2 thou", {48800, 51200}),
    ("$48,800 or was it 5.2e4", {48800, 52000}),
    ("48 800 $", {48800}),
    ("$ 52,000", {52000}),
    ("$48.8k closed-won in FY2026, 12 deals", {48800}),
    ("7 500", {7, 500}),  # thousands parted by a space only when marked as money
    ("$48,800, or maybe fifty-one grand", {48800, 51000}),  # amounts in words
    ("forty-eight thousand eight hundred dollars", {48800}),
    ("$48,800 across seven deals (one of them late)", {48800}),  # a small number in words is a count, not an amount
])
def test_amounts_in_other_forms(text: str, values: set[int]) -> None:
    assert amounts(text) == {Decimal(v) for v in values}


@pytest.mark.parametrize(("text", "readings"), [
    ("half past five", {"05:30", "17:30"}),
    ("quarter to six", {"05:45", "17:45"}),
    ("five o'clock in the afternoon", {"17:00"}),
    ("10 in the morning", {"10:00"}),
    ("could slip an hour later", set()),  # a relative time names a time, never the asked one
])
def test_times_in_words(text: str, readings: set[str]) -> None:
    [found] = times(text)
    assert set(found.readings) == readings


def test_relative_days_and_dates_name_weekdays_as_of_the_task_day() -> None:
    today = date(2026, 11, 24)  # a Tuesday
    assert days("Thursday (or possibly tomorrow, TBC)", today) == {"Thursday", "Wednesday"}
    assert days("Friday 11/27", today) == {"Friday"}
    assert days("Friday, or maybe 6/12 instead", today) == {"Friday", "6/12"}  # a date months away is another day
    assert days("tomorrow") == {"tomorrow"}


def test_a_customer_shortened_to_its_first_word_is_named() -> None:
    names = ["Jensen and Sons", "Brown Group", "Brown LLC", "Morris, Reyes and Hernandez", "Chen LLC"]
    lexicon = Lexicon({n: [n] for n in names}, short=short_names(names, taken=["Dalton Morris"]))
    assert lexicon.find("Jensen reported it again") == {"Jensen and Sons"}
    assert lexicon.find("Jensen and Sons, or maybe it was Brown.") == {"Jensen and Sons", "Brown Group", "Brown LLC"}
    assert lexicon.find("Brown LLC again (maybe the Chen account?)") == {"Brown LLC", "Chen LLC"}
    assert lexicon.find("brown paper bag") == set()  # a short name counts capitalised only
    assert lexicon.find("Chen LLCish folks") == set()  # a full name run into a longer word names no one
    assert lexicon.find("Chen LLC, cc Dalton Morris") == {"Chen LLC"}  # a colleague's name is not a short name


def test_a_time_restated_in_another_zone_names_no_other_time() -> None:
    from tasks.common.answers import restated

    def said(text: str) -> set[frozenset[str]]:
        return {t.readings for t in restated(times(text), "10:00")}

    assert said("10:00 AM ET (07:00 PT)") == {frozenset({"10:00"})}
    assert said("10:00 AM ET (7 AM PT)") == {frozenset({"10:00"})}
    assert frozenset({"07:00"}) in said("10:00 AM ET, or maybe 07:00")  # no zone on it: another time
    assert frozenset({"11:00"}) in said("10:00 AM ET (08:00 PT)")  # a wrong conversion is another time (08:00 PT is 11:00 ET)
