"""Cells shifted by insertRange / deleteRange (and the Excel toolset's delete_range), and rows
inserted by values.append with INSERT_ROWS: formulas that read the moved cells follow them,
one reading deleted cells shows #REF!, and one reaching outside the shifted band stays as
typed (the rule of LibreOffice's reference updater and of Excel)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sheets.errors import SheetsError
from tests.apps.sheets.conftest import Run

# Sheet1: A1:A4 = 1..4, B1:B4 = 10..40, C1:C4 = 100..400; formulas in column E read them.
GRID = [[1, 10, 100], [2, 20, 200], [3, 30, 300], [4, 40, 400]]
FORMULAS = ["=A3", "=SUM(A1:A4)", "=B3", "=SUM(A2:B4)", "=A4", "=SUM(A2:A3)", "=C1", "=SUM(A1:C2)", "=C3"]


def values(run: Run, sid: str, rng: str, render: str = "UNFORMATTED_VALUE") -> list[list[Any]]:
    return run(lambda s: s.values_get(sid, rng, valueRenderOption=render)).get("values", [])


def column_e(run: Run, sid: str, render: str = "UNFORMATTED_VALUE") -> list[Any]:
    return [row[0] if row else "" for row in values(run, sid, f"Sheet1!E1:E{len(FORMULAS)}", render)]


@pytest.fixture
def sheet(run: Run, blank: str) -> str:
    run(lambda s: s.values_update(blank, "Sheet1!A1", GRID, "USER_ENTERED"))
    run(lambda s: s.values_update(blank, "Sheet1!E1", [[f] for f in FORMULAS], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(blank, [{"addSheet": {"properties": {"title": "Other"}}}]))
    run(lambda s: s.values_update(blank, "Other!A1", [["=Sheet1!A4", "=SUM(Sheet1!A1:A4)"]], "USER_ENTERED"))
    return blank


def grid(r1: int, r2: int, c1: int, c2: int) -> dict[str, int]:
    return {"sheetId": 0, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def shift(run: Run, sid: str, kind: str, r1: int, r2: int, c1: int, c2: int, dimension: str) -> None:
    run(lambda s: s.spreadsheets_batch_update(sid, [{kind: {"range": grid(r1, r2, c1, c2), "shiftDimension": dimension}}]))


def test_insert_range_moves_references_into_the_shifted_cells(run: Run, sheet: str) -> None:
    shift(run, sheet, "insertRange", 1, 3, 0, 1, "ROWS")  # two cells at A2:A3, column A shifts down
    assert [r[0] if r else "" for r in values(run, sheet, "Sheet1!A1:A6")] == [1, "", "", 2, 3, 4]
    assert column_e(run, sheet, "FORMULA") == ["=A5", "=SUM(A1:A6)", "=B3", "=SUM(A2:B4)", "=A6", "=SUM(A4:A5)", "=C1",
                                               "=SUM(A1:C2)", "=C3"]
    # A2:B4 reaches into column B, which did not move: it stays as typed and reads the new cells.
    assert column_e(run, sheet) == [3, 10, 30, 2 + 20 + 30 + 40, 4, 5, 100, 1 + 10 + 20 + 100 + 200, 300]
    assert values(run, sheet, "Other!A1:B1", "FORMULA") == [["=Sheet1!A6", "=SUM(Sheet1!A1:A6)"]]
    assert values(run, sheet, "Other!A1:B1") == [[4, 10]]


def test_delete_range_shifting_up_gives_ref_for_deleted_cells(run: Run, sheet: str) -> None:
    shift(run, sheet, "deleteRange", 1, 3, 0, 1, "ROWS")  # A2:A3 deleted, A4 moves up to A2
    assert values(run, sheet, "Sheet1!A1:A4") == [[1], [4]]
    assert column_e(run, sheet, "FORMULA") == ["=#REF!", "=SUM(A1:A2)", "=B3", "=SUM(A2:B4)", "=A2", "=SUM(#REF!)", "=C1",
                                               "=SUM(A1:C2)", "=C3"]
    assert column_e(run, sheet) == ["#REF!", 5, 30, 4 + 20 + 30 + 40, 4, "#REF!", 100, 1 + 4 + 10 + 20 + 100 + 200, 300]
    assert values(run, sheet, "Other!A1:B1", "FORMULA") == [["=Sheet1!A2", "=SUM(Sheet1!A1:A2)"]]


def test_delete_range_shifting_left_moves_references_across(run: Run, sheet: str) -> None:
    shift(run, sheet, "deleteRange", 0, 2, 1, 2, "COLUMNS")  # B1:B2 deleted, C1:C2 move left
    assert values(run, sheet, "Sheet1!A1:C4") == [[1, 100], [2, 200], [3, 30, 300], [4, 40, 400]]
    formulas = column_e(run, sheet, "FORMULA")
    assert formulas[6] == "=B1"  # C1 moved to B1
    assert formulas[7] == "=SUM(A1:B2)"  # rows 1-2 of A:C lost column B
    assert formulas[8] == "=C3"  # row 3 was outside the band
    assert formulas[2] == "=B3"
    assert column_e(run, sheet)[6:] == [100, 1 + 2 + 100 + 200, 300]


def test_the_excel_toolsets_delete_range_rewrites_formulas(run: Run, sheet: str) -> None:
    run(lambda s: s.range_edit(sheet, "Sheet1", "delete_range", start_cell="A2", end_cell="A3", shift_direction="up"))
    assert column_e(run, sheet, "FORMULA")[:2] == ["=#REF!", "=SUM(A1:A2)"]
    assert column_e(run, sheet)[1] == 5


def test_append_insert_rows_shifts_what_is_below_and_its_references(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1", [["Item", "Qty"], ["a", 1], ["b", 2]], "USER_ENTERED"))
    # Below the table, beside its columns: a note, a formula reading it, and formulas above.
    run(lambda s: s.values_update(blank, "Sheet1!D5:E5", [["note", "=D5"]], "USER_ENTERED"))
    run(lambda s: s.values_update(blank, "Sheet1!F1:F2", [["=SUM(B2:B9)"], ['=D5&"!"']], "USER_ENTERED"))
    body = run(lambda s: s.values_append(blank, "Sheet1!A1:B", [["c", 3], ["d", 4]], "USER_ENTERED", insertDataOption="INSERT_ROWS"))
    assert body["tableRange"] == "Sheet1!A1:B3"
    assert body["updates"]["updatedRange"] == "Sheet1!A4:B5"
    assert values(run, blank, "Sheet1!A1:B5") == [["Item", "Qty"], ["a", 1], ["b", 2], ["c", 3], ["d", 4]]
    # Two rows went in at row 4: the note and its formula moved down two, references followed.
    assert values(run, blank, "Sheet1!D5:E7", "FORMULA") == [[], [], ["note", "=D7"]]
    assert values(run, blank, "Sheet1!F1:F2", "FORMULA") == [["=SUM(B2:B11)"], ['=D7&"!"']]
    assert values(run, blank, "Sheet1!E7:F7") == [["note"]] and values(run, blank, "Sheet1!F1:F2") == [[10], ["note!"]]


def test_append_overwrite_stays_the_default(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1", [["Item", "Qty"], ["a", 1]], "USER_ENTERED"))
    run(lambda s: s.values_update(blank, "Sheet1!D3:E3", [["note", "=D3"]], "USER_ENTERED"))
    body = run(lambda s: s.values_append(blank, "Sheet1!A1:B", [["b", 2], ["c", 3]], "USER_ENTERED"))
    assert body["updates"]["updatedRange"] == "Sheet1!A3:B4"
    # Written into the rows below the table: nothing beside it moved.
    assert values(run, blank, "Sheet1!A1:E4") == [["Item", "Qty"], ["a", 1], ["b", 2, "", "note", "note"], ["c", 3]]
    assert values(run, blank, "Sheet1!E3", "FORMULA") == [["=D3"]]


def test_a_bad_insert_data_option_is_a_clear_error(run: Run, blank: str) -> None:
    with pytest.raises(SheetsError) as raised:
        run(lambda s: s.values_append(blank, "Sheet1!A1", [["x"]], "USER_ENTERED", insertDataOption="INSERT"))
    assert "insertDataOption" in raised.value.message and "INSERT_ROWS" in raised.value.message
    assert values(run, blank, "Sheet1!A1:A3") == []


def test_named_ranges_and_merges_inside_the_band_move_with_their_cells(run: Run, sheet: str) -> None:
    run(lambda s: s.spreadsheets_batch_update(sheet, [
        {"addNamedRange": {"namedRange": {"name": "Firsts", "range": grid(0, 4, 0, 1)}}},  # A1:A4, inside the band
        {"addNamedRange": {"namedRange": {"name": "Wide", "range": grid(1, 3, 0, 2)}}},  # A2:B3, reaches outside it
        {"mergeCells": {"range": grid(6, 8, 0, 1), "mergeType": "MERGE_ALL"}},  # A7:A8
    ]))
    run(lambda s: s.values_update(sheet, "Sheet1!G1:G2", [["=SUM(Firsts)"], ["=SUM(Wide)"]], "USER_ENTERED"))
    shift(run, sheet, "insertRange", 1, 3, 0, 1, "ROWS")  # A2:A3 inserted, column A shifts down two
    got = run(lambda s: s.spreadsheets_get(sheet))
    names = {n["name"]: n["range"] for n in got["namedRanges"]}
    assert names["Firsts"] == grid(0, 6, 0, 1) and names["Wide"] == grid(1, 3, 0, 2)
    assert got["sheets"][0]["merges"] == [grid(8, 10, 0, 1)]
    assert values(run, sheet, "Sheet1!G1:G2") == [[10], [20 + 30]]  # Wide now holds two blanks of A and B2:B3

