"""The shared answer reader: every common format of a value reads as that value, a set of
values reads as a set (hedges and lists are visible), and nothing matches by substring."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tasks.common.answers import (
    Directory,
    amounts,
    dates,
    echoes,
    emails,
    emoji,
    emoji_name,
    handles,
    judge,
    mentions,
    money,
    parse_time,
    roundings,
    ticket_keys,
    time_readings,
    times,
    weekdays,
)
from tasks.common.phrases import claims, judge_phrase, stem
from tasks.common.text import Lexicon, render, words


def readings(text: str) -> list[set[str]]:
    return sorted((set(t.readings) for t in times(text)), key=sorted)


# -- times ---------------------------------------------------------------------------------
@pytest.mark.parametrize("written", ["11:15 AM", "11:15am", "11:15 a.m.", "11.15am", "11:15AM", "11:15"])
def test_morning_times_in_every_common_format(written: str) -> None:
    assert any("11:15" in r for r in readings(f"moved to {written} on Friday"))


@pytest.mark.parametrize("written", ["4:00 PM", "4pm", "4 p.m.", "16:00", "4:00pm", "4 PM"])
def test_afternoon_times_in_every_common_format(written: str) -> None:
    assert readings(f"now at {written}.") in ([{"16:00"}], [{"04:00", "16:00"}])
    assert judge("time", times(written), {"16:00"}, readings=time_readings).ok


def test_a_time_without_am_or_pm_is_either_half_of_the_day() -> None:
    assert readings("2:30") == [{"02:30", "14:30"}]
    assert readings("23:15") == [{"23:15"}] and readings("09:30") == [{"09:30"}]
    assert readings("noon") == [{"12:00"}] and readings("12:30 AM") == [{"00:30"}]


def test_numbers_that_are_not_times() -> None:
    assert times("ts 1780330715.224128, version 2.30, 10:30:15") == set()
    assert times("SUP-4 am I right") == set()
    assert times("https://meet.example.com/11:30pm") == set()


def test_parse_time_gives_the_24_hour_reading() -> None:
    assert parse_time("4:00 PM") == "16:00" and parse_time("9:30 AM") == "09:30" and parse_time("12:00 PM") == "12:00"


def test_a_hedged_time_is_wrong_and_the_right_one_in_another_format_is_right() -> None:
    assert not judge("time", times("3:45 PM... sorry, 4pm"), {"16:00"}, readings=time_readings).ok
    assert judge("time", times("Thu 16:00"), {"16:00"}, readings=time_readings).ok


# -- days and dates ------------------------------------------------------------------------
def test_weekdays_full_abbreviated_and_plural() -> None:
    assert weekdays("Thursday") == weekdays("thursday") == weekdays("Thu") == weekdays("Thurs.") == {"Thursday"}
    assert weekdays("Tue and Weds, Fridays") == {"Tuesday", "Wednesday", "Friday"}


def test_lowercase_words_that_look_like_abbreviations_are_not_days() -> None:
    assert weekdays("I sat with the team, we wed the plans, sun is out") == set()


def test_lowercase_abbreviations_that_are_no_words_are_days_so_a_hedge_shows() -> None:
    assert weekdays("moved to Thursday (or maybe fri)") == {"Thursday", "Friday"}
    assert weekdays("mon or tues") == {"Monday", "Tuesday"}


def test_dates_in_common_formats() -> None:
    for written in ("June 4", "Jun 4th", "4 June", "4th of June", "2026-06-04", "6/4", "6/4/2026"):
        assert dates(f"due {written}") == {(6, 4)}, written
    assert dates("we may 4 people") == set()


# -- amounts -------------------------------------------------------------------------------
@pytest.mark.parametrize("written", ["$1,200", "1200", "1.2k", "$1.2K", "USD 1,200", "1,200 dollars", "$1200.00"])
def test_amounts_in_common_formats(written: str) -> None:
    assert amounts(f"the total is {written}") == {Decimal(1200)}


def test_money_marked_amounts_outrank_bare_numbers() -> None:
    assert amounts("$3M over 12 months") == {Decimal(3_000_000)}
    assert amounts("$40k from 3 deals in Q3 2026") == {Decimal(40_000)}
    assert amounts("SUP-54 at 11:15 on 6/4 with <@U12345>") == set()


def test_a_money_sized_bare_number_beside_a_marked_one_is_a_second_amount() -> None:
    assert amounts("$267,100, or possibly 293810") == {Decimal(267_100), Decimal(293_810)}
    assert not judge("amount", amounts("$267,100 (maybe 240,390)"), {Decimal(267_100)}).ok


def test_a_rounding_of_the_exact_amount_said_beside_it_asserts_nothing_else() -> None:
    exact = Decimal(1_348_600)
    assert judge("amount", amounts("$1.35M ($1,348,600 exactly)"), {exact}, tolerated=roundings(exact)).ok
    assert not judge("amount", amounts("$1.35M"), {exact}, tolerated=roundings(exact)).ok  # the exact total was asked
    assert not judge("amount", amounts("$1,348,600 or $1.4M"), {exact}, tolerated=roundings(exact)).ok  # 1.4M rounds nothing
    assert money(exact) == "$1,348,600" and money(Decimal("1200.5")) == "$1,200.50"


# -- keys, emails, mentions ----------------------------------------------------------------
def test_ticket_keys_are_whole_tokens_of_known_projects() -> None:
    text = "SUP-54 (not SUP-540 or xSUP-54), per ISO-9001 and COVID-19; see https://jira.example.com/browse/ENG-3"
    assert ticket_keys(text, {"SUP", "ENG"}) == {"SUP-54", "SUP-540", "ENG-3"}
    assert ticket_keys("sup-54", {"SUP"}) == {"SUP-54"}
    assert ticket_keys("ISO-9001 and COVID-19", {"SUP"}) == set()


def test_a_wrong_key_containing_the_right_one_is_not_the_right_one() -> None:
    assert not judge("ticket", ticket_keys("SUP-540", {"SUP"}), {"SUP-54"}).ok
    assert not judge("ticket", ticket_keys("SUP-5", {"SUP"}), {"SUP-54"}).ok


def test_emails_are_whole_addresses() -> None:
    assert emails("Mail Eduardo.Moore@carlson.com.") == {"eduardo.moore@carlson.com"}
    assert emails("xeduardo.moore@carlson.com or eduardo.moore@carlson.com.au") == {
        "xeduardo.moore@carlson.com", "eduardo.moore@carlson.com.au"}
    assert emails(render("<mailto:a.b@c.com|a.b@c.com>")) == {"a.b@c.com"}


def test_plain_and_labelled_mentions_are_the_same_person() -> None:
    assert mentions(render("<@U0ABC> and <@U0DEF|priya>")) == {"U0ABC", "U0DEF"}
    assert handles("ping @priya.sharma, not a@b.com") == {"priya.sharma"}


# -- emoji ---------------------------------------------------------------------------------
def test_slack_emoji_aliases_and_skin_tones_are_one_emoji() -> None:
    assert emoji_name("+1") == emoji_name(":thumbsup:") == emoji_name("thumbsup::skin-tone-3") == "thumbsup"
    assert emoji(":+1: :thumbsup::skin-tone-2: 👍 :tada:") == {"thumbsup", "tada"}
    assert emoji_name("eyes") == "eyes" and emoji_name("white_check_mark") != emoji_name("heavy_check_mark")


# -- rendering -----------------------------------------------------------------------------
def test_mrkdwn_links_and_entities_render_to_plain_text() -> None:
    text = render("hi <@U123|priya> in <#C1|deals>: Cruz, Hunter &amp; Bell <https://x.example|the doc>")
    assert text == "hi <@U123> in #deals: Cruz, Hunter & Bell the doc https://x.example"


def test_blocks_are_read_as_text() -> None:
    blocks = [
        {"type": "section", "text": {"type": "mrkdwn", "text": "Ticket *SUP-5*"}},
        {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
            {"type": "text", "text": "owner "}, {"type": "user", "user_id": "U9"}, {"type": "emoji", "name": "+1"},
        ]}]},
    ]
    for stored in (blocks, json.dumps(blocks)):
        text = render("", stored)
        assert ticket_keys(text, {"SUP"}) == {"SUP-5"} and mentions(text) == {"U9"} and emoji(text) == {"thumbsup"}


def test_words_read_and_as_ampersand_and_drop_punctuation() -> None:
    assert words("Cruz, Hunter & Bell's") == words("cruz hunter and bell") == ["cruz", "hunter", "and", "bell"]


# -- names and sets ------------------------------------------------------------------------
def test_lexicon_matches_whole_names_longest_first() -> None:
    lexicon = Lexicon({"c1": ["Cole Group"], "c2": ["Cole Group Holdings"], "c3": ["Cruz, Hunter and Bell"]})
    assert lexicon.find("Cole Group Holdings and cruz hunter & bell") == {"c2", "c3"}
    assert lexicon.find("Cole Groupon") == set() and lexicon.find("Cole Group.") == {"c1"}
    assert lexicon.find("see #cole-group or https://cole-group.example or cole@group.com") == set()


def test_a_name_two_entities_share_is_ambiguous() -> None:
    lexicon = Lexicon({"a": ["Pat Lee"], "b": ["Pat Lee"], "c": ["Sam Roe"]})
    assert lexicon.ambiguous == {"a", "b"} and lexicon.find("Pat Lee") == {"a", "b"}


def test_directory_finds_people_by_mention_handle_or_full_name() -> None:
    people = Directory({"U1": ["Sheri Nichols"], "U2": ["Tom Baker"]}, {"sheri.nichols": "U1", "tbaker": "U2"})
    assert people.find(render("<@U1|sheri> and @tbaker")) == {"U1", "U2"}
    assert people.find("Sheri Nichols's note") == {"U1"} and people.find("Sheri said") == set()


def test_judge_is_a_set_comparison() -> None:
    assert judge("key", {"SUP-1"}, {"SUP-1"}).ok
    hedge = judge("key", {"SUP-1", "SUP-2"}, {"SUP-1"})
    assert not hedge.ok and "SUP-2" in hedge.detail
    assert not judge("people", {"U1"}, {"U1", "U2"}).ok
    assert judge("people", {"U1", "U2", "U3"}, {"U1", "U2"}, tolerated={"U3"}).ok


def test_pasting_the_prompt_is_an_echo_but_quoting_a_phrase_is_not() -> None:
    prompt = ("You are Aaron Anderson (@aaron.anderson). Gina Harrison started a thread in #kudos about Carlson LLC. "
              "Reply in that thread (not as a new channel message) to say that the customer's main contact is "
              "Eduardo Moore, eduardo.moore@carlson.com.")
    assert echoes(prompt, prompt) and echoes("FYI: " + prompt.upper(), prompt)
    assert not echoes("The customer's main contact is Eduardo Moore, eduardo.moore@carlson.com.", prompt)


@pytest.mark.parametrize(("text", "left"), [
    ("Not ENG-2, it's ENG-1", {"ENG-1"}),
    ("It's ENG-1, not the ticket ENG-2", {"ENG-1"}),
    ("it isn't ENG-2 but ENG-1", {"ENG-1"}),
    ("not sure: ENG-2 or ENG-1", {"ENG-1", "ENG-2"}),  # the negation rules out no value
    ("ENG-2? no, ENG-1", {"ENG-1", "ENG-2"}),  # a correction is not a negation: still a hedge
])
def test_a_value_ruled_out_is_not_asserted(text: str, left: set[str]) -> None:
    from tasks.common.answers import without_retracted

    assert ticket_keys(without_retracted(text), {"ENG"}) == left


# -- phrases in free-text fields -----------------------------------------------------------
TOPICS = ("pricing for the renewal", "the security questionnaire", "the rollout timeline", "seat expansion", "the pilot results")
FIXES = ("Reset the SSO certificate and confirmed logins work", "Raised the API rate limit for their workspace",
         "Rebuilt the search index; results are back", "Fixed the export timeout in the 2.14 release")


@pytest.mark.parametrize(("text", "asked"), [
    ("Call re renewal price", TOPICS[0]), ("Rollout timeline call with Dana Reed", TOPICS[2]),
    ("Call: the Security Questionnaire", TOPICS[1]), ("SSO cert reset; confirmed logins working", FIXES[0]),
    ("export timeout fixed (2.14)", FIXES[3]), ("Rebuilt search index, results back. Customer happy.", FIXES[2]),
    ("Reset the SSO cert; confirmed users can log in and it works", FIXES[0]), ("Call on when we roll out: the timeline", TOPICS[2]),
])
def test_the_asked_phrase_in_other_words_is_claimed_alone(text: str, asked: str) -> None:
    candidates = TOPICS if asked in TOPICS else FIXES
    assert claims(text, candidates, asked) == {asked}
    assert judge_phrase("topics", text, candidates, asked).ok


@pytest.mark.parametrize(("text", "asked"), [
    ("Call about " + ", ".join(TOPICS), TOPICS[2]), ("Call about seat expansion and the pilot results", TOPICS[3]),
    (" / ".join(FIXES), FIXES[1]), ("Rebuilt the search index; also raised the API rate limit", FIXES[2]),
])
def test_a_field_stuffed_with_other_candidates_claims_them_too(text: str, asked: str) -> None:
    candidates = TOPICS if asked in TOPICS else FIXES
    verdict = judge_phrase("topics", text, candidates, asked)
    assert not verdict.ok and "not the answer" in verdict.detail


def test_a_single_shared_word_claims_nothing_and_a_missing_phrase_is_missing() -> None:
    assert claims("Schedule the QBR with Security Corp", ("schedule the QBR", "confirm the security review"), "schedule the QBR") == {"schedule the QBR"}
    assert not judge_phrase("fixes", "Could not reproduce", FIXES, FIXES[0]).ok
    assert stem("confirmed") == stem("confirm") and stem("pricing") == stem("price") and stem("logins") == "login"
