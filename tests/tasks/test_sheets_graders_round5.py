"""Sheets graders, fifth round of adversary findings, each a real rollout through the env's MCP
tools:
- labels listed by a formula: a summary or pivot tab whose label column is one
  `=SORT(UNIQUE(FILTER(…)))` spilling down column A lists its labels as typed labels do (the
  grader reads the spilled cells, and the changes that prove the counts live never empty a
  label, which would shift the list under the formulas beside it);
- one array formula filling the asked column (`=ARRAYFORMULA(…)` in the first row) is a formula
  in every row, while an array of typed values still is not;
- a record's code ("INV-ACM-1004", the invoice's number) named with the answer is not an amount,
  and a hedge beside it is still read;
- formatting is no change to the data: a header row bolded across the grid (its blank cells
  styled too) or a number format given to the new column is not collateral, while replacing a
  format cells had (amounts shown as dates) still is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from apps.sheets.a1 import column_letter

Make = Callable[..., Rollout]


def grid(r: Rollout, sheet: str, range_: str) -> list[list[Any]]:
    return r.call("get_sheet_data", spreadsheet_id=r.facts["spreadsheet"], sheet=sheet, range=range_)["valueRanges"][0]["values"]


def write(r: Rollout, sheet: str, range_: str, data: list[list[Any]]) -> None:
    r.call("update_cells", spreadsheet_id=r.facts["spreadsheet"], sheet=sheet, range=range_, data=data)


def oracle(r: Rollout) -> None:
    r.run(r.task.oracle)
    assert r.passes(), r.grade()


# -- class: labels a formula lists (a spilled UNIQUE) --------------------------------------------
def _spilled_summary(r: Rollout) -> int:
    """The summary tab with its labels from one spilled formula and a COUNTIFS per row; the number of labels."""
    f, tab = r.facts, r.facts["tab"]
    letter = column_letter(grid(r, "Tickets", "A1:J1")[0].index(f["field"]))
    data, open_only = f"Tickets!{letter}2:{letter}", f["scope"] == "open"
    r.call("create_sheet", spreadsheet_id=f["spreadsheet"], title=tab)
    keep = f'{data}<>""' + (',Tickets!E2:E<>"Done"' if open_only else "")
    write(r, tab, "A1:B2", [[f["field"], "Tickets"], [f"=SORT(UNIQUE(FILTER({data},{keep})))", None]])
    n = len(grid(r, tab, "A2:A"))
    count = "=COUNTIFS({data},A{i}" + (',Tickets!E2:E,"<>Done")' if open_only else ")")
    write(r, tab, f"B2:B{n + 1}", [[count.format(data=data, i=i)] for i in range(2, n + 2)])
    return n


@pytest.mark.parametrize("variant", [0, 1, 2])
def test_summary_tab_labels_spilled_by_unique_pass(rollout: Make, variant: int) -> None:
    r = rollout("sheets/summary-tab-v1", variant=variant)
    _spilled_summary(r)
    assert r.passes(), r.grade()


def test_summary_tab_spilled_labels_with_typed_counts_fail(rollout: Make) -> None:
    r = rollout("sheets/summary-tab-v1")
    n = _spilled_summary(r)
    shown = grid(r, r.facts["tab"], f"B2:B{n + 1}")
    write(r, r.facts["tab"], f"B2:B{n + 1}", [[float(line[0])] for line in shown])  # today's counts, typed in
    assert r.fails(), r.grade()


# -- class: one array formula filling the asked column (ARRAYFORMULA spilling down) --------------
ARRAY = {"Amount (k)": "F2:F/1000", "Close month": "MONTH(G2:G)", "Won?": 'IF(E2:E="Closed Won","Yes","No")',
         "Commission": 'IF(E2:E="Closed Won",F2:F*0.08,0)', "Close quarter": '"Q"&ROUNDUP(MONTH(G2:G)/3,0)',
         "Unweighted remainder": "F2:F-I2:I"}


@pytest.mark.parametrize("variant", [0, 1, 2, 3, 4, 5])
def test_fill_column_one_arrayformula_for_the_column_passes(rollout: Make, variant: int) -> None:
    r = rollout("sheets/fill-formula-column-v1", variant=variant)
    letter, what = r.facts["column"], r.facts["computation"]
    write(r, "Pipeline", f"{letter}1:{letter}2", [[what], [f'=ARRAYFORMULA(IF(A2:A="","",{ARRAY[what]}))']])
    assert r.passes(), r.grade()


def test_fill_column_an_array_of_typed_values_fails(rollout: Make) -> None:
    r = rollout("sheets/fill-formula-column-v1", where=lambda f: f["computation"] == "Amount (k)")
    letter = r.facts["column"]
    write(r, "Pipeline", f"{letter}1:{letter}2", [["Amount (k)"], ['=ARRAYFORMULA(IF(A2:A="","",F2:F/1000))']])
    shown = grid(r, "Pipeline", f"{letter}2:{letter}")
    typed = ";".join(str(line[0]).replace(",", "") for line in shown if line)
    write(r, "Pipeline", f"{letter}2", [[f"={{{typed}}}"]])  # the same numbers as one array constant
    assert grid(r, "Pipeline", f"{letter}2:{letter}") == shown
    assert r.fails(), r.grade()


AGGREGATE = {"sum": "SUMIFS({v},{r},A{i})", "count": "COUNTIFS({r},A{i})", "max": "MAXIFS({v},{r},A{i})"}


@pytest.mark.parametrize("agg", ["count", "max"])
def test_pivot_live_row_labels_spilled_by_unique_pass(rollout: Make, agg: str) -> None:
    """Counting a group's rows out must not empty a group (its listed label would move up a row)."""
    r = rollout("sheets/pivot-summary-v1", where=lambda f: f["live"] and f["across"] is None and f["agg"] == agg)
    f, tab = r.facts, r.facts["tab"]
    header = grid(r, f["data"], "A1:I1")[0]
    span = lambda name: f"{f['data']}!${column_letter(header.index(name))}$2:${column_letter(header.index(name))}${f['last_row']}"  # noqa: E731
    rows, values = span(f["rows"]), span(f["value"])
    r.call("create_sheet", spreadsheet_id=f["spreadsheet"], title=tab)
    write(r, tab, "A1:B2", [[f["rows"], f["value"]], [f'=SORT(UNIQUE(FILTER({rows},{rows}<>"")))', None]])
    n = len(grid(r, tab, "A2:A"))
    write(r, tab, f"B2:B{n + 1}", [["=" + AGGREGATE[agg].format(v=values, r=rows, i=i)] for i in range(2, n + 2)])
    assert r.passes(), r.grade()


# -- class: a record's code read as an amount ("INV-ACM-1004" is no $1,004) ----------------------
def _largest_invoice_reply(rollout: Make, name_it: str) -> Rollout:
    r = rollout("sheets/answer-from-xlsx-v1", where=lambda f: f["question"] == "largest")
    converted = r.call("import_xlsx", file_id=r.facts["file_id"])
    rows = r.call("get_sheet_data", spreadsheet_id=converted["spreadsheetId"], sheet="Invoices")["valueRanges"][0]["values"]
    largest = max((line for line in rows[1:] if line and str(line[0]).startswith("INV-")),
                  key=lambda line: int(str(line[5]).replace("$", "").replace(",", "")))
    dm = r.call("slack_open_dm", users=r.facts["asker"])["channel"]["id"]
    r.call("slack_post_message", channel_id=dm, text=name_it.format(number=largest[0], amount=largest[5], other=f"${r.facts['answer'] + 900:,}"))
    return r


def test_answer_naming_the_largest_invoice_by_its_number_passes(rollout: Make) -> None:
    r = _largest_invoice_reply(rollout, "The largest invoice is {number} for {amount}.")
    assert r.passes(), r.grade()


def test_answer_naming_the_invoice_number_still_reads_a_hedge(rollout: Make) -> None:
    r = _largest_invoice_reply(rollout, "The largest is {number}: {amount}, or maybe {other}.")
    assert r.fails(), r.grade()


# -- class: formatting counted as collateral (a header row bolded across the grid) ---------------
def _sheet_id(r: Rollout, title: str) -> int:
    book = r.call("get_spreadsheet", spreadsheet_id=r.facts["spreadsheet"])
    return next(s["properties"]["sheetId"] for s in book["sheets"] if s["properties"]["title"] == title)


def _format(r: Rollout, title: str, cell_format: dict[str, Any], fields: str, **bounds: int) -> None:
    r.call("batch_update", spreadsheet_id=r.facts["spreadsheet"], requests=[{"repeatCell": {
        "range": {"sheetId": _sheet_id(r, title), **bounds}, "cell": {"userEnteredFormat": cell_format}, "fields": fields}}])


BOLD = {"textFormat": {"bold": True}, "backgroundColor": {"red": 0.9, "green": 0.9, "blue": 0.9}}


@pytest.mark.parametrize(("family", "tab"), [("sheets/summary-tab-v1", "tab"), ("sheets/fill-formula-column-v1", "Pipeline")])
def test_a_whole_header_row_bolded_is_no_collateral(rollout: Make, family: str, tab: str) -> None:
    r = rollout(family)
    oracle(r)
    _format(r, r.facts.get(tab, tab), BOLD, "userEnteredFormat(textFormat,backgroundColor)", startRowIndex=0, endRowIndex=1)
    assert r.passes(), r.grade()


def test_a_number_format_on_the_new_column_is_no_collateral(rollout: Make) -> None:
    r = rollout("sheets/fill-formula-column-v1", where=lambda f: f["computation"] in ("Amount (k)", "Commission", "Unweighted remainder"))
    oracle(r)
    col = ord(r.facts["column"]) - ord("A")
    _format(r, "Pipeline", {"numberFormat": {"type": "NUMBER", "pattern": "#,##0.00"}}, "userEnteredFormat.numberFormat",
            startRowIndex=1, startColumnIndex=col, endColumnIndex=col + 1)
    assert r.passes(), r.grade()


def test_amounts_reformatted_as_dates_stay_collateral(rollout: Make) -> None:
    r = rollout("sheets/fill-formula-column-v1")
    oracle(r)
    _format(r, "Pipeline", {"numberFormat": {"type": "DATE", "pattern": "yyyy-mm-dd"}}, "userEnteredFormat.numberFormat",
            startRowIndex=1, endRowIndex=20, startColumnIndex=5, endColumnIndex=6)
    assert r.fails(), r.grade()
