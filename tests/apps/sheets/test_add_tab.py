"""Adding a tab: a formula that named it before it existed resolves, and within one batchUpdate
a tab added after cells were edited is at once readable and writable by formulas."""

from __future__ import annotations

from typing import Any

from tests.apps.sheets.conftest import Run


def values(run: Run, sid: str, rng: str) -> list[list[Any]]:
    return run(lambda s: s.values_get(sid, rng, valueRenderOption="UNFORMATTED_VALUE")).get("values", [])


def cell(row: int, col: int, value: dict[str, Any]) -> dict[str, Any]:
    return {"updateCells": {"start": {"sheetId": 0, "rowIndex": row, "columnIndex": col},
                            "rows": [{"values": [{"userEnteredValue": value}]}], "fields": "userEnteredValue"}}


def test_a_formula_naming_a_missing_tab_resolves_once_it_is_added(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1", [["=Q3!A1*2"]], "USER_ENTERED"))
    assert values(run, blank, "Sheet1!A1") == [["#REF!"]]
    run(lambda s: s.spreadsheets_batch_update(blank, [{"addSheet": {"properties": {"title": "Q3"}}}]))
    run(lambda s: s.values_update(blank, "Q3!A1", [[21]], "USER_ENTERED"))
    assert values(run, blank, "Sheet1!A1") == [[42]]


def test_a_tab_added_mid_batch_is_read_and_written_by_formulas(run: Run, blank: str) -> None:
    reply = run(lambda s: s.spreadsheets_batch_update(blank, [
        cell(0, 0, {"numberValue": 5}),  # loads the book before the tab exists
        {"addSheet": {"properties": {"title": "Rates"}}},
        cell(0, 1, {"formulaValue": "=A1*Rates!B2"}),
    ]))
    rates = reply["replies"][1]["addSheet"]["properties"]["sheetId"]
    assert values(run, blank, "Sheet1!A1:B1") == [[5, 0]]  # Rates!B2 is blank: 0, not #REF!
    run(lambda s: s.spreadsheets_batch_update(blank, [{"updateCells": {
        "start": {"sheetId": rates, "rowIndex": 1, "columnIndex": 1}, "rows": [{"values": [{"userEnteredValue": {"numberValue": 3}}]}],
        "fields": "userEnteredValue"}}]))
    assert values(run, blank, "Sheet1!A1:B1") == [[5, 15]]
