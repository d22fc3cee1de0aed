"""Many structural requests in one batchUpdate (how a script deletes the closed deals, row by
row from the bottom) end exactly as the same requests sent one batch each: the moved cells, the
rewritten formulas, the values recalculated from them, merges and named ranges; including
when other kinds of request come between the row deletions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from apps.sheets.service import SheetsService
from officegym.core.env_store import Env
from officegym.gym import Gym

TABS = ("Pipeline", "Summary", "Stages")


def _requests() -> list[dict[str, Any]]:
    rows = [{"deleteDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": s, "endIndex": s + 1}}}
            for s in (12, 9, 9, 4, 7, 3, 15, 2)]
    return [
        *rows[:4],
        {"addNamedRange": {"namedRange": {"name": "Early", "range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 8,
                                                                     "startColumnIndex": 5, "endColumnIndex": 6}}}},
        {"mergeCells": {"range": {"sheetId": 0, "startRowIndex": 20, "endRowIndex": 21, "startColumnIndex": 1, "endColumnIndex": 3},
                        "mergeType": "MERGE_ALL"}},
        *rows[4:6],
        {"findReplace": {"find": "Closed Lost", "replacement": "Closed Lost (old)", "sheetId": 0}},
        {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 5, "endIndex": 7}}},
        *rows[6:],
        {"deleteRange": {"range": {"sheetId": 0, "startRowIndex": 3, "endRowIndex": 5, "startColumnIndex": 0, "endColumnIndex": 2},
                         "shiftDimension": "ROWS"}},
        {"deleteDimension": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 2, "endIndex": 3}}},
        {"insertRange": {"range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 9},
                         "shiftDimension": "ROWS"}},
    ]


@pytest.fixture
def two_envs(gym: Gym) -> Iterator[tuple[Env, Env]]:
    envs = (gym.create(), gym.create())
    yield envs
    for env in envs:
        gym.delete(env.id)


def _run(gym: Gym, env: Env, operation: Any) -> Any:
    with gym.store.session(env) as db:
        return operation(SheetsService(db))


def _state(gym: Gym, env: Env, sid: str) -> dict[str, Any]:
    meta = _run(gym, env, lambda s: s.spreadsheets_get(sid))
    state: dict[str, Any] = {"sheets": [{k: v for k, v in sheet.items() if k != "data"} for sheet in meta["sheets"]],
                             "named": meta.get("namedRanges")}
    for tab in TABS:
        for render in ("FORMULA", "UNFORMATTED_VALUE"):
            state[f"{tab} {render}"] = _run(gym, env, lambda s: s.values_get(sid, f"{tab}!A1:J120", valueRenderOption=render)).get("values")
    return state


def test_one_batch_of_structural_requests_ends_as_the_same_requests_sent_one_by_one(gym: Gym, two_envs: tuple[Env, Env]) -> None:
    one_by_one, batched = two_envs
    sid = next(f["id"] for f in _run(gym, one_by_one, lambda s: s.files_list()) if f["title"].startswith("Sales Forecast"))
    before = _state(gym, batched, sid)
    summary_before = before["Summary UNFORMATTED_VALUE"]
    for request in _requests():
        _run(gym, one_by_one, lambda s: s.spreadsheets_batch_update(sid, [request]))
    _run(gym, batched, lambda s: s.spreadsheets_batch_update(sid, _requests()))
    expected, got = _state(gym, one_by_one, sid), _state(gym, batched, sid)
    assert got == expected
    # The edits did something: fewer deals are counted on the summary, and its ranges shrank.
    assert got["Summary UNFORMATTED_VALUE"] != summary_before
    assert got["Summary FORMULA"] != before["Summary FORMULA"]
    assert got["named"] and got["named"][0]["name"] == "Early"


def test_a_failing_request_after_row_deletions_leaves_the_spreadsheet_unchanged(gym: Gym, two_envs: tuple[Env, Env]) -> None:
    env = two_envs[0]
    sid = next(f["id"] for f in _run(gym, env, lambda s: s.files_list()) if f["title"].startswith("Sales Forecast"))
    before = _state(gym, env, sid)
    bad = {"deleteDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 5000, "endIndex": 5001}}}
    with pytest.raises(Exception, match="past the end of the sheet"):
        _run(gym, env, lambda s: s.spreadsheets_batch_update(sid, [*_requests()[:3], bad]))
    assert _state(gym, env, sid) == before
