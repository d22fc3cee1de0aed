"""Conditional format rules (batchUpdate's addConditionalFormatRule, updateConditionalFormatRule,
deleteConditionalFormatRule) as Google Sheets keeps them: in order on their tab, shown by
spreadsheets.get as `sheets[].conditionalFormats`; a rule added at an index pushes the later
ones on; update replaces or moves one and replies with both; delete replies with the rule it
deleted; their ranges move with inserted and deleted rows; bad rules are Google's 400 and write
nothing. What each cell shows (`shown_formats`) follows the rules in order.

Before, addConditionalFormatRule answered success and was dropped: "highlight overdue rows in
red" showed nothing, and deleteConditionalFormatRule replied {} for a rule that never was."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from officegym.core.env_store import Env
from officegym.gym import Gym
from tests.apps.sheets.test_basic_filter import sheets

RED = {"red": 1.0}
GREEN = {"green": 1.0}


def rng(r1: int = 1, r2: int = 5, c1: int = 0, c2: int = 3, sheet_id: int = 0) -> dict[str, int]:
    return {"sheetId": sheet_id, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def boolean(kind: str, *values: str, color: dict[str, float] | None = None, ranges: list[dict[str, int]] | None = None) -> dict[str, Any]:
    return {"ranges": ranges or [rng()], "booleanRule": {
        "condition": {"type": kind, **({"values": [{"userEnteredValue": v} for v in values]} if values else {})},
        "format": {"backgroundColor": color or RED, "textFormat": {"bold": True}}}}


OVERDUE = boolean("CUSTOM_FORMULA", "=$C2<DATE(2026,2,1)")
BIG = boolean("NUMBER_GREATER", "100", color=GREEN, ranges=[rng(c1=1, c2=2)])
SCALE = {"ranges": [rng(c1=1, c2=2)], "gradientRule": {"minpoint": {"type": "MIN", "color": {"red": 1.0, "green": 1.0, "blue": 1.0}},
                                                       "maxpoint": {"type": "MAX", "color": GREEN}}}


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Highlighted"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:C5", valueInputOption="USER_ENTERED", body={"values": [
        ["Invoice", "Amount", "Due"], ["A-1", 120, "2026-01-10"], ["A-2", 40, "2026-03-01"], ["A-3", 300, "2026-01-20"],
        ["A-4", 80, "2026-04-01"]]}).execute()
    return api, sid


def rules(api: Any, sid: str, title: str = "Sheet1") -> list[dict[str, Any]]:
    got = api.get(spreadsheetId=sid).execute()
    return next(s for s in got["sheets"] if s["properties"]["title"] == title).get("conditionalFormats", [])


def batch(api: Any, sid: str, *requests: dict[str, Any]) -> list[dict[str, Any]]:
    return api.batchUpdate(spreadsheetId=sid, body={"requests": list(requests)}).execute()["replies"]


def test_rules_are_kept_in_order_and_replaced_moved_and_deleted_as_google_replies(made: tuple[Any, str]) -> None:
    api, sid = made
    assert batch(api, sid, {"addConditionalFormatRule": {"rule": OVERDUE}}, {"addConditionalFormatRule": {"rule": BIG, "index": 0}},
                 {"addConditionalFormatRule": {"rule": SCALE, "index": 2}}) == [{}, {}, {}]
    assert rules(api, sid) == [BIG, OVERDUE, SCALE]
    moved = batch(api, sid, {"updateConditionalFormatRule": {"sheetId": 0, "index": 2, "newIndex": 0}})[0]["updateConditionalFormatRule"]
    assert moved == {"newRule": SCALE, "oldIndex": 2, "newIndex": 0}
    assert rules(api, sid) == [SCALE, BIG, OVERDUE]
    other = boolean("TEXT_CONTAINS", "A-3")
    replaced = batch(api, sid, {"updateConditionalFormatRule": {"index": 1, "rule": other}})[0]["updateConditionalFormatRule"]
    assert replaced == {"newRule": other, "oldRule": BIG, "newIndex": 1}
    deleted = batch(api, sid, {"deleteConditionalFormatRule": {"sheetId": 0, "index": 2}})
    assert deleted == [{"deleteConditionalFormatRule": {"rule": OVERDUE}}]
    assert rules(api, sid) == [SCALE, other]


def test_ranges_and_formulas_move_with_rows_and_the_rules_go_with_the_tab(made: tuple[Any, str]) -> None:
    api, sid = made
    batch(api, sid, {"addConditionalFormatRule": {"rule": OVERDUE}},
          {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 1}}})
    moved = rules(api, sid)[0]
    assert moved["ranges"] == [rng(2, 6)]
    assert moved["booleanRule"]["condition"]["values"] == [{"userEnteredValue": "=$C3<DATE(2026,2,1)"}]
    batch(api, sid, {"deleteDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 1, "endIndex": 6}}})
    assert rules(api, sid) == []  # every row it covered was deleted: the rule went with them
    batch(api, sid, {"addConditionalFormatRule": {"rule": BIG}}, {"duplicateSheet": {"sourceSheetId": 0, "newSheetName": "Copy"}})
    copy = rules(api, sid, "Copy")
    assert len(copy) == 1 and copy[0]["booleanRule"] == BIG["booleanRule"] and copy[0]["ranges"][0]["sheetId"] != 0


def test_shown_formats_follow_the_rules_in_order(made: tuple[Any, str], gym: Gym, env: Env) -> None:
    from apps.sheets.conditional_formats import shown_formats
    from apps.sheets.service import SheetsService

    api, sid = made
    batch(api, sid, {"addConditionalFormatRule": {"rule": OVERDUE}}, {"addConditionalFormatRule": {"rule": SCALE, "index": 1}})
    with gym.store.session(env) as db:
        service = SheetsService(db)
        shown = shown_formats(service.tab(sid, sheet_id=0), service.book(sid), (0, 0, 10, 5))
    overdue = {"backgroundColor": RED, "textFormat": {"bold": True}}
    assert shown[(1, 0)] == overdue and shown[(3, 2)] == overdue and (2, 0) not in shown and (0, 0) not in shown
    assert shown[(1, 1)] == overdue  # the first rule decides: the scale does not paint an overdue row's amount
    assert shown[(2, 1)] == {"backgroundColor": {"red": 1.0, "green": 1.0, "blue": 1.0}}  # the smallest amount: the minpoint's color
    assert shown[(4, 1)]["backgroundColor"]["red"] < 1.0


@pytest.mark.parametrize(("request_body", "says"), [
    ({"addConditionalFormatRule": {"rule": {"ranges": [rng()]}}}, "exactly one of booleanRule or gradientRule"),
    ({"addConditionalFormatRule": {"rule": {**OVERDUE, "ranges": []}}}, "rule.ranges is required"),
    ({"addConditionalFormatRule": {"rule": {**OVERDUE, "ranges": [rng(r2=1001)]}}}, "exceeds grid limits"),
    ({"addConditionalFormatRule": {"rule": boolean("ONE_OF_LIST", "a")}}, "not supported here"),
    ({"addConditionalFormatRule": {"rule": boolean("NUMBER_GREATER")}}, "requires a single ConditionValue"),
    ({"addConditionalFormatRule": {"rule": {"ranges": [rng()], "booleanRule": {
        "condition": {"type": "BLANK"}, "format": {"numberFormat": {"type": "PERCENT"}}}}}}, "numberFormat can't be set"),
    ({"addConditionalFormatRule": {"rule": {"ranges": [rng()], "gradientRule": {"minpoint": {"type": "MIN"}}}}}, "maxpoint is required"),
    ({"addConditionalFormatRule": {"rule": {"ranges": [rng()], "gradientRule": {
        "minpoint": {"type": "NUMBER"}, "maxpoint": {"type": "MAX"}}}}}, "value is required"),
    ({"addConditionalFormatRule": {"rule": OVERDUE, "index": 5}}, "out of range"),
    ({"updateConditionalFormatRule": {"index": 3, "rule": OVERDUE}}, "out of range"),
    ({"updateConditionalFormatRule": {"index": 0}}, "exactly one of rule"),
    ({"deleteConditionalFormatRule": {"sheetId": 0, "index": 1}}, "out of range"),
    ({"deleteConditionalFormatRule": {"sheetId": 8, "index": 0}}, "No grid with id: 8"),
])
def test_what_cannot_be_done_is_googles_400_and_writes_nothing(agent_url: str, env: Env, made: tuple[Any, str],
                                                              request_body: dict[str, Any], says: str) -> None:
    api, sid = made
    url = f"{agent_url}/envs/{env.id}/api/sheets/v4/spreadsheets/{sid}:batchUpdate"
    bad = httpx.post(url, json={"requests": [{"addConditionalFormatRule": {"rule": BIG}}, request_body]}, timeout=30)
    assert bad.status_code == 400
    error = bad.json()["error"]
    kind = next(iter(request_body))
    assert error["status"] == "INVALID_ARGUMENT" and error["message"].startswith(f"Invalid requests[1].{kind}")
    assert says in error["message"]
    assert rules(api, sid) == []


@given(st.integers(0, 12), st.integers(1, 8), st.integers(0, 14), st.integers(-6, 6), st.booleans())
@settings(max_examples=400, deadline=None)
def test_a_rules_rectangle_moves_as_the_rows_it_covers(r1: int, height: int, start: int, count: int, rows: bool) -> None:
    """tab_rules.moved against the plain model: the rows a rule covers, each moved (or deleted)
    with the grid, and rows inserted strictly inside it joining it."""
    from apps.sheets import tab_rules

    if count == 0:
        return
    r2 = r1 + height
    covered = set(range(r1, r2))
    if count > 0:
        after = {r + count if r >= start else r for r in covered} | (set(range(start, start + count)) if r1 < start < r2 else set())
    else:
        end = start - count
        after = {r + count if r >= end else r for r in covered if not start <= r < end}
    rect = [r1, 3, r2, 5] if rows else [3, r1, 5, r2]
    got = tab_rules.moved(rect, rows, start, count)
    if not after:
        assert got is None
        return
    want = (min(after), max(after) + 1)
    assert got == ([want[0], 3, want[1], 5] if rows else [3, want[0], 5, want[1]])
