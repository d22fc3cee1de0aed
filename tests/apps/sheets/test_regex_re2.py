"""Regular expressions in formulas and in findReplace run on RE2, as in Google Sheets: a
pattern that backtracks catastrophically answers at once, and lookaround or backreferences
(which RE2, and so Google, does not take) are the error Google gives. Through Google's client.

Before, they ran on Python's `re`: =REGEXMATCH(REPT("a",30)&"!", "(a+)+$") ran for minutes
holding the interpreter, so every env on the server stopped with it."""

from __future__ import annotations

import time
from typing import Any

import pytest
from googleapiclient.errors import HttpError

from officegym.core.env_store import Env
from tests.apps.sheets.test_basic_filter import sheets

RUNAWAY = "(a+)+$"  # exponential for a backtracking engine on a run of a's that ends badly
# Python's re takes ~3 s on 24 a's and doubles with each one more (27: ~25 s a pattern): a hang
# guard, not a timing.
GUARD_SECONDS = 20


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Patterns"}}).execute()["spreadsheetId"]
    return api, sid


def shown(api: Any, sid: str, range_: str) -> list[list[str]]:
    return api.values().get(spreadsheetId=sid, range=range_).execute().get("values", [])


def test_formulas_with_a_runaway_pattern_answer_at_once(made: tuple[Any, str]) -> None:
    api, sid = made
    text = "a" * 27 + "!"
    rows = [[text, f'=REGEXMATCH(A1, "{RUNAWAY}")', f'=REGEXREPLACE(A1, "{RUNAWAY}", "x")', f'=IFERROR(REGEXEXTRACT(A1, "{RUNAWAY}"), "none")'],
            ["aaa", f'=REGEXMATCH(A2, "{RUNAWAY}")', '=REGEXREPLACE(A2, "(a)(a)", "$2-$1")', '=REGEXEXTRACT("order ENG-42 shipped", "[A-Z]+-(\\d+)")']]
    started = time.perf_counter()
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:D2", valueInputOption="USER_ENTERED", body={"values": rows}).execute()
    got = shown(api, sid, "Sheet1!B1:D2")
    assert time.perf_counter() - started < GUARD_SECONDS
    assert got == [["FALSE", text, "none"], ["TRUE", "a-aa", "42"]]


def test_patterns_google_does_not_take_are_its_error(made: tuple[Any, str]) -> None:
    api, sid = made
    rows = [['=REGEXMATCH("price: 42", "(?<=price: )\\d+")', '=REGEXMATCH("abab", "(ab)\\1")', '=REGEXMATCH("x", "(")']]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:C1", valueInputOption="USER_ENTERED", body={"values": rows}).execute()
    assert shown(api, sid, "Sheet1!A1:C1") == [["#REF!", "#REF!", "#REF!"]]
    grid = api.get(spreadsheetId=sid, ranges=["Sheet1!A1"], includeGridData=True).execute()
    error = grid["sheets"][0]["data"][0]["rowData"][0]["values"][0]["effectiveValue"]["errorValue"]
    assert "is not a valid regular expression" in error["message"]


def test_find_replace_and_query_matches_run_on_re2(made: tuple[Any, str]) -> None:
    api, sid = made
    text = "a" * 27 + "!"
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:A3", valueInputOption="RAW",
                        body={"values": [[text], ["Ticket SUP-7"], ["ENG-12 and ENG-13"]]}).execute()
    started = time.perf_counter()
    api.values().update(spreadsheetId=sid, range="Sheet1!B1", valueInputOption="USER_ENTERED",
                        body={"values": [[f"=QUERY(A1:A3, \"select A where A matches '{RUNAWAY}'\", 0)"]]}).execute()
    reply = api.batchUpdate(spreadsheetId=sid, body={"requests": [{"findReplace": {
        "find": RUNAWAY, "replacement": "x", "searchByRegex": True, "allSheets": True}}]}).execute()
    assert time.perf_counter() - started < GUARD_SECONDS
    assert reply["replies"][0]["findReplace"].get("occurrencesChanged", 0) == 0
    renamed = api.batchUpdate(spreadsheetId=sid, body={"requests": [{"findReplace": {
        "find": "eng-(\\d+)", "replacement": "JIRA-\\1", "searchByRegex": True, "allSheets": True}}]}).execute()
    assert renamed["replies"][0]["findReplace"]["occurrencesChanged"] == 2
    assert shown(api, sid, "Sheet1!A3") == [["JIRA-12 and JIRA-13"]]
    with pytest.raises(HttpError) as refused:
        api.batchUpdate(spreadsheetId=sid, body={"requests": [{"findReplace": {
            "find": "(?=SUP)", "replacement": "x", "searchByRegex": True, "allSheets": True}}]}).execute()
    assert refused.value.resp.status == 400 and "invalid regular expression" in str(refused.value)


def test_criteria_with_many_wildcards_answer_at_once(made: tuple[Any, str]) -> None:
    """COUNTIF's * and ?, and QUERY's LIKE with %, are patterns too: "*a*a*…*b" backtracked on
    every cell of the range (seconds a cell); literal criteria still match case-blind."""
    api, sid = made
    column = [["a" * 40] for _ in range(30)] + [["Closed Won"], ["closed won"], ["a-b?c"]]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:A33", valueInputOption="RAW", body={"values": column}).execute()
    stars = "*a" * 7 + "*b"  # on Python's re: ~3 s a cell
    formulas = [[f'=COUNTIF(A1:A33, "{stars}")', '=COUNTIF(A1:A33, "Closed Won")', '=COUNTIF(A1:A33, "a~-b~?c")',
                 f"=ROWS(QUERY(A1:A33, \"select A where A like '{stars.replace('*', '%')}'\", 0))", '=COUNTIF(A1:A33, "a*")']]
    started = time.perf_counter()
    api.values().update(spreadsheetId=sid, range="Sheet1!B1:F1", valueInputOption="USER_ENTERED", body={"values": formulas}).execute()
    got = shown(api, sid, "Sheet1!B1:F1")
    assert time.perf_counter() - started < GUARD_SECONDS
    assert got[0][:3] == ["0", "2", "1"] and got[0][4] == "31"
