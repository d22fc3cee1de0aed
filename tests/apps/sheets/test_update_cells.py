"""updateCells as Google Sheets applies it: with a range, the cells its rows leave out are
cleared of the fields named (no rows at all clears the range); a pivot table, which this
clone does not build, is refused with a reason instead of being answered 200 and dropped."""

from __future__ import annotations

import pytest

from apps.sheets.errors import SheetsError
from tests.apps.sheets.conftest import Run


def _grid(r1: int, r2: int, c1: int, c2: int) -> dict[str, int]:
    return {"sheetId": 0, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def test_a_range_with_fewer_rows_clears_the_rest_of_it(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:B3", [["a", "b"], ["c", "d"], ["e", "=A1&B1"]], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(blank, [{"updateCells": {
        "range": _grid(0, 3, 0, 2), "fields": "userEnteredValue",
        "rows": [{"values": [{"userEnteredValue": {"stringValue": "x"}}]}]}}]))
    assert run(lambda s: s.values_get(blank, "Sheet1!A1:B3"))["values"] == [["x"]]
    run(lambda s: s.values_update(blank, "Sheet1!C1", [["kept"]], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(blank, [{"updateCells": {"range": _grid(0, 3, 0, 1), "fields": "userEnteredValue"}}]))
    assert run(lambda s: s.values_get(blank, "Sheet1!A1:C3"))["values"] == [["", "", "kept"]]


def test_a_pivot_table_is_refused_and_nothing_is_written(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:B3", [["Stage", "Amount"], ["Won", "5"], ["Lost", "7"]], "USER_ENTERED"))
    pivot = {"source": _grid(0, 3, 0, 2), "rows": [{"sourceColumnOffset": 0, "sortOrder": "ASCENDING"}],
             "values": [{"summarizeFunction": "SUM", "sourceColumnOffset": 1}]}
    with pytest.raises(SheetsError, match="pivotTable in a cell is not supported"):
        run(lambda s: s.spreadsheets_batch_update(blank, [{"updateCells": {
            "start": {"sheetId": 0, "rowIndex": 0, "columnIndex": 4}, "fields": "pivotTable",
            "rows": [{"values": [{"pivotTable": pivot}]}]}}]))
    assert run(lambda s: s.values_get(blank, "Sheet1!E1:F3")).get("values") is None
