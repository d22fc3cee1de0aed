"""Graders read a spreadsheet as its reader sees it, hidden rows and columns taken out
(tasks/sheets/_common.py `as_shown`): cross/pipeline-report-v1's manager opens the report and
sees the column after a hidden one right beside the labels, and never sees a hidden row.

Both ways: a correct report with a helper column (or a stray row) hidden passes, since what
the manager sees is right; the right figures hidden behind wrong ones shown, or a group's row
hidden, fail, since what the manager sees is wrong or missing. Before, the grader read the
cells as stored and decided the other way in all four."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rollouts import Rollout

from officegym.validate import McpTools

TASK = "cross/pipeline-report-v1"


def _lines(facts: dict[str, Any]) -> list[tuple[str, float]]:
    return sorted(facts["totals"].items())


def _report(facts: dict[str, Any], rows: list[list[Any]], hide: list[dict[str, Any]]) -> Callable[[McpTools], Any]:
    async def make(tools: McpTools) -> None:
        sid = (await tools.call("create_spreadsheet", title=facts["title"]))["spreadsheetId"]
        first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
        width = max(len(r) for r in rows)
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:{'ABCDE'[width - 1]}{len(rows)}", data=rows)
        await tools.call("batch_update", spreadsheet_id=sid, requests=[
            {"updateDimensionProperties": {"range": {"sheetId": 0, **where}, "properties": {"hiddenByUser": True},
                                           "fields": "hiddenByUser"}} for where in hide])
        await tools.call("slack_post_message", channel_id=facts["dm"], text=f"Done: ${facts['total']:,.2f} in all")

    return make


def _column(index: int) -> dict[str, Any]:
    return {"dimension": "COLUMNS", "startIndex": index, "endIndex": index + 1}


def _row(index: int) -> dict[str, Any]:
    return {"dimension": "ROWS", "startIndex": index, "endIndex": index + 1}


def test_a_hidden_helper_column_between_the_labels_and_the_totals_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=1)
    f = r.facts
    rows = [["Group", "Working", "Amount"], *[[label, total * 7 + 3, total] for label, total in _lines(f)]]
    grade = r.do(_report(f, rows, [_column(1)]))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_the_right_totals_hidden_behind_wrong_ones_shown_fail(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=1)
    f = r.facts
    rows = [["Group", "Amount", "Amount"], *[[label, total, round(total * 1.1, 2)] for label, total in _lines(f)]]
    grade = r.do(_report(f, rows, [_column(1)]))
    assert not grade["passed"], json.dumps(grade)


def test_a_wrong_total_row_hidden_passes_and_a_groups_row_hidden_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=2)
    f = r.facts
    lines = [["Group", "Amount"], *[list(line) for line in _lines(f)]]
    stray = len(lines)  # the row after the groups
    grade = r.do(_report(f, [*lines, ["Total", f["total"] + 1000]], [_row(stray)]))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)

    r = rollout(TASK, variant=2)
    grade = r.do(_report(r.facts, lines, [_row(2)]))  # the second group's row
    assert not grade["passed"], json.dumps(grade)


def test_a_check_reads_cells_formulas_and_extent_as_shown(gym: Any) -> None:
    """What `as_shown` hands a check: the cell a reader sees at each place (hidden rows and
    columns taken out), its formula there, and the tab's extent as shown."""
    from apps.sheets.service import SheetsService
    from tasks.sheets._common import as_shown, final

    env = gym.create()
    try:
        def run(operation: Callable[[SheetsService], Any]) -> Any:
            with gym.store.session(env) as db:
                return operation(SheetsService(db))

        sid = run(lambda s: s.spreadsheets_create({"title": "Shown"}))["spreadsheetId"]
        run(lambda s: s.values_update(sid, "Sheet1!A1:D4", [["a", "hidden", "=A1&\"!\"", "x"], ["b", "h", "=A2&\"!\"", "y"],
                                                           ["gone", "gone", "gone", "gone"], ["c", "h", "=A4&\"!\"", ""]], "USER_ENTERED"))
        with gym.store.session(env) as db:
            plain = as_shown(final(db, sid))
            assert plain.get((0, 0, 1)) == "hidden" and plain.extent(0) == (4, 4)  # nothing hidden: the book itself
        run(lambda s: s.spreadsheets_batch_update(sid, [
            {"updateDimensionProperties": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 1, "endIndex": 2},
                                           "properties": {"hiddenByUser": True}, "fields": "hiddenByUser"}},
            {"updateDimensionProperties": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 2, "endIndex": 3},
                                           "properties": {"hiddenByUser": True}, "fields": "hiddenByUser"}},
            {"updateDimensionProperties": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 3, "endIndex": 4},
                                           "properties": {"hiddenByUser": True}, "fields": "*"}}]))
        with gym.store.session(env) as db:
            book = as_shown(final(db, sid))
            assert [[book.get((0, r, c)) for c in range(3)] for r in range(4)] == [["a", "a!", None], ["b", "b!", None],
                                                                                  ["c", "c!", None], [None, None, None]]
            assert book.extent(0) == (3, 2)
            assert book.formulas.get((0, 2, 1)) == '=A4&"!"' and book.formulas.get((0, 0, 0)) is None and (0, 1, 1) in book.formulas
    finally:
        gym.delete(env.id)


def _filtered_report(facts: dict[str, Any], rows: list[list[Any]], hidden_values: list[str]) -> Callable[[McpTools], Any]:
    """The report, with a basic filter on its first column hiding the rows whose label is one
    of `hidden_values` (as Data ▸ Create a filter, then unticking them, does)."""
    async def make(tools: McpTools) -> None:
        sid = (await tools.call("create_spreadsheet", title=facts["title"]))["spreadsheetId"]
        first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
        width = max(len(r) for r in rows)
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:{'ABCDE'[width - 1]}{len(rows)}", data=rows)
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"setBasicFilter": {"filter": {
            "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": len(rows), "startColumnIndex": 0, "endColumnIndex": width},
            "filterSpecs": [{"columnIndex": 0, "filterCriteria": {"hiddenValues": hidden_values}}]}}}])
        await tools.call("slack_post_message", channel_id=facts["dm"], text=f"Done: ${facts['total']:,.2f} in all")

    return make


def test_rows_a_filter_hides_are_out_of_view_too(rollout: Callable[..., Rollout]) -> None:
    """A basic filter's criteria take rows out of view as hiding them does: a wrong "Total" row
    filtered out passes (the manager sees the right report, a filter button on its header); a
    group's row filtered out fails (the manager does not see it); a filter hiding nothing passes."""
    r = rollout(TASK, variant=2)
    f = r.facts
    lines = [["Group", "Amount"], *[list(line) for line in _lines(f)]]
    grade = r.do(_filtered_report(f, [*lines, ["Scratch total", f["total"] + 1000]], ["Scratch total"]))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)

    r = rollout(TASK, variant=2)
    grade = r.do(_filtered_report(r.facts, lines, [lines[2][0]]))  # the second group's row
    assert not grade["passed"], json.dumps(grade)

    r = rollout(TASK, variant=2)
    grade = r.do(_filtered_report(r.facts, lines, []))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def _coloured_report(facts: dict[str, Any], rows: list[list[Any]], text_rgb: dict[str, float]) -> Callable[[McpTools], Any]:
    """The report, with a conditional format rule colouring the text of every amount over 0."""
    async def make(tools: McpTools) -> None:
        sid = (await tools.call("create_spreadsheet", title=facts["title"]))["spreadsheetId"]
        first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(rows)}", data=rows)
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"addConditionalFormatRule": {"index": 0, "rule": {
            "ranges": [{"sheetId": 0, "startRowIndex": 1, "endRowIndex": len(rows), "startColumnIndex": 1, "endColumnIndex": 2}],
            "booleanRule": {"condition": {"type": "NUMBER_GREATER", "values": [{"userEnteredValue": "0"}]},
                            "format": {"textFormat": {"foregroundColor": text_rgb}}}}}}])
        await tools.call("slack_post_message", channel_id=facts["dm"], text=f"Done: ${facts['total']:,.2f} in all")

    return make


def test_text_a_conditional_format_makes_unreadable_reads_as_blank(rollout: Callable[..., Rollout]) -> None:
    """A conditional format rule styles cells as the sheet is shown: the report's amounts
    coloured white (on white) by a rule show the manager nothing and fail, as white text typed
    in would; the same rule colouring them green passes."""
    r = rollout(TASK, variant=2)
    lines = [["Group", "Amount"], *[list(line) for line in _lines(r.facts)]]
    grade = r.do(_coloured_report(r.facts, lines, {"red": 1, "green": 1, "blue": 1}))
    assert not grade["passed"], json.dumps(grade)

    r = rollout(TASK, variant=2)
    grade = r.do(_coloured_report(r.facts, lines, {"red": 0, "green": 0.5, "blue": 0}))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)
