"""What a formula's cell shows is what the tools find and report, and a formula sent through
batchUpdate is kept as Google Sheets keeps a formula entered in a cell.

A formula with no number format of its own shows its number in the format Google Sheets infers
(=SUM over currency cells shows $2,300.50). find_in_spreadsheet searched and answered the
stored format only, so "$2,300.50" found nothing and the hit read 2300.5; apply_formula's
formatted_value read 2300.5 too. And updateCells / repeatCell kept a formulaValue as sent
(`=sum(a1:a2`), where values.update's USER_ENTERED keeps `=SUM(A1:A2)`."""

from __future__ import annotations

from typing import Any

from tests.apps.sheets.conftest import Run

CURRENCY = [["$1,200.25"], ["$1,100.25"]]


def _write(sheets: Any, sid: str, range_: str, values: list[list[Any]]) -> None:
    sheets.values_update(sid, range_, values, "USER_ENTERED")


def _formula_under_currency(run: Run, blank: str) -> None:
    run(lambda s: _write(s, blank, "Sheet1!A1:A3", [*CURRENCY, ["=SUM(A1:A2)"]]))


def test_find_matches_a_formula_by_the_format_it_shows(run: Run, blank: str) -> None:
    _formula_under_currency(run, blank)
    shown = run(lambda s: s.values_get(blank, "Sheet1!A3"))["values"]
    assert shown == [["$2,300.50"]]
    found = run(lambda s: s.find_cells(blank, "$2,300.50"))
    assert found == [{"sheet": "Sheet1", "cell": "A3", "value": "$2,300.50"}]
    # what it does not show is not found: the bare number
    assert run(lambda s: s.find_cells(blank, "2300.5")) == []
    # the cells typed as currency are found as they show, as before
    assert [f["cell"] for f in run(lambda s: s.find_cells(blank, "$1,"))] == ["A1", "A2"]
    # case, tab filter and the cap still hold
    run(lambda s: _write(s, blank, "Sheet1!B1", [["Total due"]]))
    assert run(lambda s: s.find_cells(blank, "TOTAL", case_sensitive=True)) == []
    assert run(lambda s: s.find_cells(blank, "total", sheet="Sheet1")) == [{"sheet": "Sheet1", "cell": "B1", "value": "Total due"}]
    assert len(run(lambda s: s.find_cells(blank, "$", max_results=2))) == 2


def test_find_sees_an_edit_made_earlier_in_the_same_operation(run: Run, blank: str) -> None:
    def edit_then_find(sheets: Any) -> Any:
        _write(sheets, blank, "Sheet1!A1:A3", [*CURRENCY, ["=A1+A2"]])
        return sheets.find_cells(blank, "$2,300.50")

    assert run(edit_then_find) == [{"sheet": "Sheet1", "cell": "A3", "value": "$2,300.50"}]


def test_apply_formula_reports_the_value_as_the_cell_shows_it(run: Run, blank: str) -> None:
    run(lambda s: _write(s, blank, "Sheet1!A1:A2", CURRENCY))
    applied = run(lambda s: s.apply_formula(blank, "Sheet1", "A3", "=SUM(A1:A2)"))
    assert applied["value"] == 2300.5 and applied["formatted_value"] == "$2,300.50"
    plain = run(lambda s: s.apply_formula(blank, "Sheet1", "B1", "=COUNT(A1:A2)"))
    assert plain["value"] == 2 and plain["formatted_value"] == "2"
    worded = run(lambda s: s.apply_formula(blank, "Sheet1", "B2", '="Total: "&A3'))
    assert worded["formatted_value"] == "Total: 2300.5"


def _formulas(run: Run, sid: str, range_: str) -> list[list[Any]]:
    return run(lambda s: s.values_get(sid, range_, valueRenderOption="FORMULA"))["values"]


def test_update_cells_keeps_a_formula_value_as_typed_in_sheets(run: Run, blank: str) -> None:
    run(lambda s: _write(s, blank, "Sheet1!A1:A2", CURRENCY))
    cells = {"updateCells": {"start": {"sheetId": 0, "rowIndex": 2, "columnIndex": 0}, "fields": "userEnteredValue",
                             "rows": [{"values": [{"userEnteredValue": {"formulaValue": "=sum(a1:a2"}},
                                                  {"userEnteredValue": {"formulaValue": "if(a1>a2, true, false)"}}]}]}}
    run(lambda s: s.spreadsheets_batch_update(blank, [cells]))
    assert _formulas(run, blank, "Sheet1!A3:B3") == [["=SUM(A1:A2)", "=IF(A1>A2, TRUE, FALSE)"]]
    assert run(lambda s: s.values_get(blank, "Sheet1!A3:B3"))["values"] == [["$2,300.50", "TRUE"]]
    # the same formula through values.update's USER_ENTERED is kept the same way
    run(lambda s: _write(s, blank, "Sheet1!C3", [["=sum(a1:a2"]]))
    assert _formulas(run, blank, "Sheet1!C3") == [["=SUM(A1:A2)"]]


def test_repeat_cell_keeps_a_formula_value_as_typed_and_shifts_it(run: Run, blank: str) -> None:
    run(lambda s: _write(s, blank, "Sheet1!A1:A2", [[2], [3]]))
    repeat = {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 1, "endColumnIndex": 2},
                             "cell": {"userEnteredValue": {"formulaValue": "=a1*10"}}, "fields": "userEnteredValue"}}
    run(lambda s: s.spreadsheets_batch_update(blank, [repeat]))
    assert _formulas(run, blank, "Sheet1!B1:B2") == [["=A1*10"], ["=A2*10"]]
    assert run(lambda s: s.values_get(blank, "Sheet1!B1:B2", valueRenderOption="UNFORMATTED_VALUE"))["values"] == [[20], [30]]
    # text in quotes and a tab's name are kept as sent; a formula that does not parse is kept as sent
    quoted = {"updateCells": {"start": {"sheetId": 0, "rowIndex": 0, "columnIndex": 2}, "fields": "userEnteredValue",
                              "rows": [{"values": [{"userEnteredValue": {"formulaValue": '=concat("abc", sheet1!a1)'}},
                                                   {"userEnteredValue": {"formulaValue": "=sum(a1:a2))"}}]}]}}
    run(lambda s: s.spreadsheets_batch_update(blank, [quoted]))
    assert _formulas(run, blank, "Sheet1!C1:D1") == [['=CONCAT("abc", sheet1!A1)', "=sum(a1:a2))"]]
