"""SheetsService in-process: the Sheets API semantics every face relies on — values in and
out with the input and render options, recalculation seen across tabs, structural edits that
rewrite formulas (#REF! when their cells go), batchUpdate kinds, sharing and permissions,
errors that name what was wrong and leave nothing half-written."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sheets.errors import SheetsError
from officegym.core.db import get_meta
from tests.apps.sheets.conftest import Run


def values(run: Run, sid: str, rng: str, render: str = "FORMATTED_VALUE") -> list[list[Any]]:
    return run(lambda s: s.values_get(sid, rng, valueRenderOption=render)).get("values", [])


def test_seeded_forecast_is_tied_together_by_formulas(run: Run, forecast: str) -> None:
    pipeline = values(run, forecast, "Pipeline!A1:I3", "FORMULA")
    assert pipeline[0][:6] == ["Deal ID", "Account", "Opportunity", "Owner", "Stage", "Amount"]
    assert pipeline[1][7].startswith("=VLOOKUP(E2,Stages!") and pipeline[1][8] == "=F2*H2"
    total = values(run, forecast, "Summary!A12:C12", "UNFORMATTED_VALUE")[0]
    amounts = [row[5] for row in values(run, forecast, "Pipeline!A2:F", "UNFORMATTED_VALUE")]
    assert total[0] == "Total" and total[2] == sum(amounts)


def test_user_entered_parses_and_raw_keeps_text(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:E1", [["12", "15%", "$1,200", "2026-03-31", "=A1*2"]], "USER_ENTERED"))
    run(lambda s: s.values_update(blank, "Sheet1!A2:B2", [["12", "=A1*2"]], "RAW"))
    assert values(run, blank, "Sheet1!A1:E2", "UNFORMATTED_VALUE") == [[12, 0.15, 1200, 46112, 24], ["12", "=A1*2"]]
    assert values(run, blank, "Sheet1!A1:E1") == [["12", "15%", "$1,200", "2026-03-31", "24"]]
    assert values(run, blank, "Sheet1!E1", "FORMULA") == [["=A1*2"]]


def test_an_edit_recalculates_dependants_on_other_tabs(run: Run, forecast: str) -> None:
    before = values(run, forecast, "Summary!C12", "UNFORMATTED_VALUE")[0][0]
    amount = values(run, forecast, "Pipeline!F2", "UNFORMATTED_VALUE")[0][0]
    result = run(lambda s: s.values_update(forecast, "Pipeline!F2", [[amount + 1000]], "USER_ENTERED"))
    assert result["updatedRange"] == "Pipeline!F2" and result["updatedCells"] == 1
    assert values(run, forecast, "Summary!C12", "UNFORMATTED_VALUE")[0][0] == before + 1000


def test_get_trims_trailing_empties_and_echoes_the_bounded_range(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!B2", [["x"]], "RAW"))
    got = run(lambda s: s.values_get(blank, "Sheet1!A1:D5"))
    assert got == {"range": "Sheet1!A1:D5", "majorDimension": "ROWS", "values": [[], ["", "x"]]}
    assert run(lambda s: s.values_get(blank, "Sheet1"))["range"] == "Sheet1!A1:Z1000"
    assert run(lambda s: s.values_get(blank, "Sheet1!A1:B2", majorDimension="COLUMNS"))["values"] == [[], ["", "x"]]


def test_append_writes_after_the_table(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:B2", [["Name", "Score"], ["ann", 3]], "RAW"))
    body = run(lambda s: s.values_append(blank, "Sheet1!A:B", [["bob", 5], ["cy", 7]], "USER_ENTERED"))
    assert body["tableRange"] == "Sheet1!A1:B2" and body["updates"]["updatedRange"] == "Sheet1!A3:B4"
    assert values(run, blank, "Sheet1!A1:B4", "UNFORMATTED_VALUE")[2:] == [["bob", 5], ["cy", 7]]


def test_clear_keeps_formulas_that_read_the_cells_working(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:A3", [[1], [2], ["=SUM(A1:A2)"]], "USER_ENTERED"))
    assert run(lambda s: s.values_clear(blank, "Sheet1!A1:A2"))["clearedRange"] == "Sheet1!A1:A2"
    assert values(run, blank, "Sheet1!A1:A3", "UNFORMATTED_VALUE") == [[], [], [0]]


def test_inserting_and_deleting_rows_rewrites_references(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:A4", [[1], [2], [3], ["=SUM(A1:A3)+A2"]], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(blank, [{"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 1, "endIndex": 3}}}]))
    assert values(run, blank, "Sheet1!A6", "FORMULA") == [["=SUM(A1:A5)+A4"]]
    assert values(run, blank, "Sheet1!A6", "UNFORMATTED_VALUE") == [[8]]
    run(lambda s: s.spreadsheets_batch_update(blank, [{"deleteDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 3, "endIndex": 4}}}]))
    assert values(run, blank, "Sheet1!A5", "FORMULA") == [["=SUM(A1:A4)+#REF!"]]
    assert values(run, blank, "Sheet1!A5") == [["#REF!"]]


def test_renaming_and_deleting_a_tab_follows_formulas(run: Run, blank: str) -> None:
    reply = run(lambda s: s.spreadsheets_batch_update(blank, [{"addSheet": {"properties": {"title": "Inputs"}}}]))
    inputs = reply["replies"][0]["addSheet"]["properties"]["sheetId"]
    run(lambda s: s.values_update(blank, "Inputs!A1", [[5]], "RAW"))
    run(lambda s: s.values_update(blank, "Sheet1!A1", [["=Inputs!A1*2"]], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(blank, [{"updateSheetProperties": {"properties": {"sheetId": inputs, "title": "Q3 Inputs"}, "fields": "title"}}]))
    assert values(run, blank, "Sheet1!A1", "FORMULA") == [["='Q3 Inputs'!A1*2"]] and values(run, blank, "Sheet1!A1") == [["10"]]
    run(lambda s: s.spreadsheets_batch_update(blank, [{"deleteSheet": {"sheetId": inputs}}]))
    assert values(run, blank, "Sheet1!A1", "FORMULA") == [["=#REF!*2"]]


def test_batch_update_kinds(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:B4", [["k", "v"], ["b", 2], ["c", 3], ["a", 1]], "USER_ENTERED"))
    replies = run(lambda s: s.spreadsheets_batch_update(blank, [
        {"sortRange": {"range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 4, "startColumnIndex": 0, "endColumnIndex": 2},
                       "sortSpecs": [{"dimensionIndex": 0, "sortOrder": "ASCENDING"}]}},
        {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 4, "startColumnIndex": 1, "endColumnIndex": 2},
                        "cell": {"userEnteredFormat": {"numberFormat": {"type": "CURRENCY", "pattern": "$#,##0.00"}}}, "fields": "userEnteredFormat.numberFormat"}},
        {"mergeCells": {"range": {"sheetId": 0, "startRowIndex": 5, "endRowIndex": 6, "startColumnIndex": 0, "endColumnIndex": 2}, "mergeType": "MERGE_ALL"}},
        {"addNamedRange": {"namedRange": {"name": "Scores", "range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 4, "startColumnIndex": 1, "endColumnIndex": 2}}}},
        {"copyPaste": {"source": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 2},
                       "destination": {"sheetId": 0, "startRowIndex": 9, "endRowIndex": 10, "startColumnIndex": 0, "endColumnIndex": 2}}},
        {"updateSheetProperties": {"properties": {"sheetId": 0, "gridProperties": {"frozenRowCount": 1}}, "fields": "gridProperties.frozenRowCount"}},
    ]))["replies"]
    assert replies[3]["addNamedRange"]["namedRange"]["name"] == "Scores"
    run(lambda s: s.values_update(blank, "Sheet1!D1", [["=SUM(Scores)"]], "USER_ENTERED"))
    assert values(run, blank, "Sheet1!A1:D4") == [["k", "v", "", "6"], ["a", "$1.00"], ["b", "$2.00"], ["c", "$3.00"]]
    assert values(run, blank, "Sheet1!A10:B10") == [["k", "v"]]
    meta = run(lambda s: s.spreadsheets_get(blank))
    sheet = meta["sheets"][0]
    assert sheet["properties"]["gridProperties"]["frozenRowCount"] == 1
    assert sheet["merges"] == [{"sheetId": 0, "startRowIndex": 5, "startColumnIndex": 0, "endRowIndex": 6, "endColumnIndex": 2}]
    assert meta["namedRanges"][0]["name"] == "Scores"


def test_bad_input_is_a_clear_error_and_writes_nothing(run: Run, blank: str) -> None:
    with pytest.raises(SheetsError, match="Unable to parse range: Nope!A1"):
        run(lambda s: s.values_get(blank, "Nope!A1"))
    with pytest.raises(SheetsError, match="requests\\[1\\]: unknown request kind 'explode'"):
        run(lambda s: s.spreadsheets_batch_update(blank, [{"addSheet": {"properties": {"title": "Kept?"}}}, {"explode": {}}]))
    assert [t["properties"]["title"] for t in run(lambda s: s.spreadsheets_get(blank))["sheets"]] == ["Sheet1"]
    with pytest.raises(SheetsError, match="exceeds grid limits"):
        run(lambda s: s.values_update(blank, "Sheet1!A1000", [[1], [2]], "RAW"))
    with pytest.raises(SheetsError, match="Requested entity was not found"):
        run(lambda s: s.values_get("1NoSuchSpreadsheet", "A1"))


def test_permissions_and_sharing(run: Run, titles: dict[str, str], blank: str) -> None:
    budget = titles["Budget"]  # the acting person is a commenter there
    with pytest.raises(SheetsError, match="does not have permission"):
        run(lambda s: s.values_update(budget, "Plan!A1", [["x"]], "RAW"))
    me = run(lambda s: s.actor_email)
    colleague = next(e for e in run(lambda s: sorted(get_meta(s.db, "sheets.people").split(","))) if e != me)
    with pytest.raises(SheetsError, match="Requested entity was not found"):
        run(lambda s: s.values_get(blank, "A1"), as_email=colleague)
    shared = run(lambda s: s.permissions_share(blank, [{"email_address": colleague, "role": "reader"},
                                                      {"email_address": "stranger@example.com", "role": "writer"},
                                                      {"email_address": colleague, "role": "owner"}]))
    assert [x["email_address"] for x in shared["successes"]] == [colleague]
    assert len(shared["failures"]) == 2
    assert run(lambda s: s.values_get(blank, "A1"), as_email=colleague)["range"] == "Sheet1!A1"


def test_find_and_search(run: Run, forecast: str) -> None:
    found = run(lambda s: s.find_cells(forecast, "closed won", sheet="Summary"))
    assert found and found[0]["sheet"] == "Summary" and found[0]["value"] == "Closed Won"
    hits = run(lambda s: s.files_search("forecast"))
    assert [h["id"] for h in hits] == [forecast]


def test_xlsx_round_trip_keeps_values_formulas_formats_and_tabs(run: Run, forecast: str) -> None:
    exported = run(lambda s: s.export_xlsx(forecast))
    assert exported["mimeType"].endswith("spreadsheetml.sheet") and exported["size"] > 1000
    imported = run(lambda s: s.import_xlsx(exported["content_base64"], "Round trip"))
    assert imported["sheets"] == ["Pipeline", "Stages", "Summary"]
    again = imported["spreadsheetId"]
    for rng in ("Pipeline!A1:I10", "Summary!A1:D25", "Stages!A1:B11"):
        assert values(run, again, rng, "FORMULA") == values(run, forecast, rng, "FORMULA")
        assert values(run, again, rng) == values(run, forecast, rng)


def test_excel_style_tools(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:C5", [["Region", "Rep", "Amount"], ["East", "ann", 10], ["West", "bob", 20],
                                                           ["East", "cy", 5], ["West", "di", 1]], "USER_ENTERED"))
    with pytest.raises(SheetsError, match="Unknown function: 'SUMM'"):
        run(lambda s: s.apply_formula(blank, "Sheet1", "D1", "=SUMM(C2:C5)"))
    assert values(run, blank, "Sheet1!D1") == []
    applied = run(lambda s: s.apply_formula(blank, "Sheet1", "D1", "=SUM(C2:C5)"))
    assert applied["value"] == 36
    assert run(lambda s: s.validate_formula(blank, "Sheet1", "E1", "=SUM(C2:C5"))["valid"] is False
    pivot = run(lambda s: s.pivot_table(blank, "Sheet1", "A1:C5", ["Region"], ["Amount"]))
    assert values(run, blank, f"'{pivot['sheet']}'!A1:B3", "UNFORMATTED_VALUE") == [["Region", "SUM of Amount"], ["East", 15], ["West", 21]]
    run(lambda s: s.values_update(blank, "Sheet1!C3", [[100]], "RAW"))  # the pivot is live
    assert values(run, blank, f"'{pivot['sheet']}'!B3", "UNFORMATTED_VALUE") == [[101]]


def test_sorting_moves_formulas_with_their_rows(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:B3", [[3, "=A1*10"], [1, "=A2*10"], [2, "=A3*10"]], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(blank, [{"sortRange": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 3,
                                                                              "startColumnIndex": 0, "endColumnIndex": 2}}}]))
    assert values(run, blank, "Sheet1!A1:B3", "UNFORMATTED_VALUE") == [[1, 10], [2, 20], [3, 30]]
    assert values(run, blank, "Sheet1!B1:B3", "FORMULA") == [["=A1*10"], ["=A2*10"], ["=A3*10"]]


def test_xlsx_round_trip_keeps_merges_and_frozen_rows(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:C2", [["Quarter", "", "Total"], ["Q1", "", "=SUM(1,2)"]], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(blank, [
        {"mergeCells": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 2}}},
        {"updateSheetProperties": {"properties": {"sheetId": 0, "gridProperties": {"frozenRowCount": 1}}, "fields": "gridProperties.frozenRowCount"}},
        {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 2, "startColumnIndex": 2, "endColumnIndex": 3},
                        "cell": {"userEnteredFormat": {"numberFormat": {"type": "PERCENT", "pattern": "0.0%"}}}, "fields": "userEnteredFormat"}},
    ]))
    exported = run(lambda s: s.export_xlsx(blank))["content_base64"]
    again = run(lambda s: s.import_xlsx(exported))["spreadsheetId"]
    sheet = run(lambda s: s.spreadsheets_get(again))["sheets"][0]
    assert sheet["properties"]["gridProperties"]["frozenRowCount"] == 1
    assert sheet["merges"][0] == {"sheetId": sheet["properties"]["sheetId"], "startRowIndex": 0, "startColumnIndex": 0, "endRowIndex": 1, "endColumnIndex": 2}
    assert values(run, again, "Sheet1!C2") == [["300.0%"]] and values(run, again, "Sheet1!C2", "FORMULA") == [["=SUM(1,2)"]]


def test_search_reads_titles_and_text_cells_of_visible_spreadsheets_newest_first(run: Run, blank: str) -> None:
    me = run(lambda s: s.actor_email)
    run(lambda s: s.values_update(blank, "Sheet1!A1:B2", [["Zanzibar ledger", 5], ["", "=\"QUARTZ\"&\"ite\""]], "USER_ENTERED"))
    mine = run(lambda s: s.files_search("ZANZIBAR LEDGER"))  # a text cell, in another case
    assert [h["id"] for h in mine] == [blank] and mine[0]["owners"] == [me] and mine[0]["name"] == "Scratch"
    assert [h["id"] for h in run(lambda s: s.files_search("quartzite"))] == [blank], "the text a formula shows is searched too"
    other = run(lambda s: s.spreadsheets_create({"title": "Zanzibar ledger (private)"}), as_email="someone.else@example.com")["spreadsheetId"]
    assert [h["id"] for h in run(lambda s: s.files_search("zanzibar"))] == [blank], "only spreadsheets the person can open"
    newer = run(lambda s: s.spreadsheets_create({"title": "Zanzibar 2027"}))["spreadsheetId"]
    assert [h["id"] for h in run(lambda s: s.files_search("zanzibar"))] == [newer, blank], "most recently modified first"
    assert [h["id"] for h in run(lambda s: s.files_search("zanzibar", max_results=1))] == [newer]
    assert [h["id"] for h in run(lambda s: s.files_search("zanzibar"), as_email="someone.else@example.com")] == [other]
