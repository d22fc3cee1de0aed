"""A formula whose cell has no number format of its own shows its result in the format Google
Sheets infers from what it reads: a total of currency cells in currency, a date plus days as
a date, a difference of dates as a number of days, counts and text functions as plain numbers.
FORMATTED_VALUE reads, spreadsheets.get's effectiveFormat and the browser grid show it; the
cell's userEnteredFormat stays empty and UNFORMATTED_VALUE is the number; a format set on the
cell wins."""

from __future__ import annotations

from typing import Any

import httpx

from officegym.core.env_store import Env
from tests.apps.sheets.conftest import Run

TABLE = [["Item", "Amount", "Date", "Rate", "Qty"],
         ["a", "$1,200.00", "2026-03-01", "5%", "3"],
         ["b", "$800.50", "2026-03-04", "10%", "4"],
         ["c", "$300", "2026-04-01", "15%", "5"]]


def shown(run: Run, sid: str, formulas: list[str], render: str = "FORMATTED_VALUE") -> list[Any]:
    """Each formula written under the table in column G, read back as `render` shows it."""
    run(lambda s: s.values_update(sid, "Sheet1!A1", TABLE, "USER_ENTERED"))
    run(lambda s: s.values_update(sid, "Sheet1!G1", [[f] for f in formulas], "USER_ENTERED"))
    got = run(lambda s: s.values_get(sid, f"Sheet1!G1:G{len(formulas)}", valueRenderOption=render))["values"]
    return [row[0] for row in got]


def test_results_show_in_the_format_of_what_they_read(run: Run, blank: str) -> None:
    formulas = {
        "=SUM(B2:B4)": "$2,300.50", "=B2": "$1,200.00", "=AVERAGE(D2:D4)": "10%", "=MAX(C2:C4)": "2026-04-01",
        "=SUMIF(A2:A4,\"a\",B2:B4)": "$1,200.00", "=ROUND(B3,0)": "$801.00", "=B2+B3": "$2,000.50",
        "=B2*E2": "$3,600.00", "=E2*B2": "$3,600.00", "=Sheet1!B3/2": "$400.25", "=C2+7": "2026-03-08",
        # counts, text functions and a difference of dates never take a format
        "=COUNT(B2:B4)": "3", "=COUNTIF(A2:A4,\"a\")": "1", "=LEN(A2)": "1", "=YEAR(C2)": "2026", "=C3-C2": "3",
        # formats of two types do not settle one
        "=B2*D2": "60", "=B2+D2": "1200.05",
    }
    assert shown(run, blank, list(formulas)) == list(formulas.values())
    assert shown(run, blank, list(formulas), "UNFORMATTED_VALUE")[:2] == [2300.5, 1200]


def test_a_formula_reading_a_formula_and_another_tab_shows_the_inferred_format(run: Run, blank: str) -> None:
    run(lambda s: s.spreadsheets_batch_update(blank, [{"addSheet": {"properties": {"title": "Totals"}}}]))
    run(lambda s: s.values_update(blank, "Sheet1!A1", TABLE, "USER_ENTERED"))
    run(lambda s: s.values_update(blank, "Totals!A1:A3", [["=SUM(Sheet1!B2:B4)"], ["=A1*2"], ["=A2-Sheet1!B2"]], "USER_ENTERED"))
    got = run(lambda s: s.values_get(blank, "Totals!A1:A3"))["values"]
    assert got == [["$2,300.50"], ["$4,601.00"], ["$3,401.00"]]


def test_a_format_set_on_the_cell_wins(run: Run, blank: str) -> None:
    assert shown(run, blank, ["=SUM(B2:B4)"]) == ["$2,300.50"]
    run(lambda s: s.spreadsheets_batch_update(blank, [{"repeatCell": {
        "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 6, "endColumnIndex": 7},
        "cell": {"userEnteredFormat": {"numberFormat": {"type": "NUMBER", "pattern": "0.0"}}}, "fields": "userEnteredFormat.numberFormat"}}]))
    assert run(lambda s: s.values_get(blank, "Sheet1!G1"))["values"] == [["2300.5"]]


def test_grid_data_puts_the_inferred_format_in_effective_format_only(run: Run, blank: str) -> None:
    shown(run, blank, ["=SUM(B2:B4)", "=COUNT(B2:B4)"])
    sheet = run(lambda s: s.spreadsheets_get(blank, ranges="Sheet1!G1:G2", includeGridData=True))["sheets"][0]
    total, count = (row["values"][0] for row in sheet["data"][0]["rowData"])
    assert total["formattedValue"] == "$2,300.50" and total["effectiveValue"] == {"numberValue": 2300.5}
    assert total["effectiveFormat"]["numberFormat"]["type"] == "CURRENCY" and "userEnteredFormat" not in total
    assert count["formattedValue"] == "3" and "numberFormat" not in count.get("effectiveFormat", {})


def test_the_browser_grid_shows_the_inferred_format(agent_url: str, env: Env, run: Run, blank: str) -> None:
    shown(run, blank, ["=SUM(B2:B4)"])
    page = httpx.get(f"{agent_url}/envs/{env.id}/sheets/d/{blank}", params={"cell": "G1"}, timeout=10).text
    assert "$2,300.50" in page and ">2300.5<" not in page


def test_date_functions_show_dates_and_a_span_of_days_a_number(run: Run, blank: str) -> None:
    """A date function's result shows as a date without a format stored on the cell (Google
    leaves its userEnteredFormat empty), and a date function minus a date is a number of days
    (it showed as a date in 1900 when the first function name decided the cell's format)."""
    got = shown(run, blank, ["=DATE(2026,3,1)", "=EDATE(C2,1)", "=DATE(2026,3,11)-C2", "=TODAY()-TODAY()"])
    assert got == ["2026-03-01", "2026-04-01", "10", "0"]
    sheet = run(lambda s: s.spreadsheets_get(blank, ranges="Sheet1!G1", includeGridData=True))["sheets"][0]
    assert "userEnteredFormat" not in sheet["data"][0]["rowData"][0]["values"][0]


def test_an_exported_file_carries_the_formats_sheets_shows(run: Run, blank: str) -> None:
    """An .xlsx has no "automatic" format: a formula cell goes out in the format Sheets shows
    it in, so Excel shows $2,300.50 and a date, not 2300.5 and a serial number."""
    import base64
    import io

    from openpyxl import load_workbook

    shown(run, blank, ["=SUM(B2:B4)", "=DATE(2026,3,1)", "=COUNT(B2:B4)"])
    data = base64.b64decode(run(lambda s: s.export_xlsx(blank))["content_base64"])
    sheet = load_workbook(io.BytesIO(data))["Sheet1"]
    assert [sheet[f"G{r}"].number_format for r in (1, 2, 3)] == ["$#,##0.00", "yyyy-mm-dd", "General"]
