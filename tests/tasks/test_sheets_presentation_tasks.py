"""The presentation families: sheets/highlight-by-rule-v1 (the pipeline's matching deals shown in
a colour) and sheets/add-dropdown-v1 (a new column with a dropdown of given options).

Highlighting is graded on the sheet as shown: a conditional format rule and fills set by hand
both pass, and so does another shade of the colour; a neighbouring colour, a tint too faint to
tell, every row coloured, the rule on the wrong column, the header or the blank rows below
coloured, the rule deleted after, the tab hidden all fail. "Stays up to date" asks for
highlighting that follows the deals: fills by hand, or a rule listing today's rows, fail it.

A dropdown is graded on its rule: every row of the table, not the header, the options as asked
and in that order, shown as a dropdown; two rows set, the others blank; nothing else on the tab.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from graders.rubric import PASS_LINE
from officegym.validate import McpTools
from tasks.sheets._presentation import colour

HIGHLIGHT = "sheets/highlight-by-rule-v1"
DROPDOWN = "sheets/add-dropdown-v1"
Step = Callable[[McpTools], Any]


def _batch(sid: str, *requests: dict[str, Any]) -> Step:
    async def run(tools: McpTools) -> None:
        await tools.call("batch_update", spreadsheet_id=sid, requests=list(requests))

    return run


def _passes(grade: dict[str, Any]) -> None:
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade, indent=1)


def _fails(grade: dict[str, Any], *words: str) -> None:
    assert not grade["passed"] and grade["reward"] < PASS_LINE, json.dumps(grade, indent=1)
    details = " ".join(c["detail"] for c in grade["checks"] if not c["passed"])
    assert all(w in details for w in words), json.dumps(grade["checks"], indent=1)


# -- highlight-by-rule ---------------------------------------------------------------------------
def _grid(f: dict[str, Any], r1: int, r2: int, c1: int = 0, c2: int = 9) -> dict[str, int]:
    return {"sheetId": f["sheet_id"], "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def _format(f: dict[str, Any], hex_text: str) -> dict[str, Any]:
    return {"textFormat": {"foregroundColor": colour(hex_text)}} if f["way"] == "text" else {"backgroundColor": colour(hex_text)}


def _rule(f: dict[str, Any], formula: str, hex_text: str, *ranges: dict[str, int]) -> dict[str, Any]:
    return {"addConditionalFormatRule": {"index": 0, "rule": {"ranges": list(ranges) or [_grid(f, 1, f["last"])], "booleanRule": {
        "condition": {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": formula}]}, "format": _format(f, hex_text)}}}}


def _by_hand(f: dict[str, Any], rows: list[int], hex_text: str, c2: int = 9) -> list[dict[str, Any]]:
    """Rows (1-based) coloured by hand, A to column c2."""
    field = "userEnteredFormat.textFormat.foregroundColor" if f["way"] == "text" else "userEnteredFormat.backgroundColor"
    return [{"repeatCell": {"range": _grid(f, r - 1, r, 0, c2), "cell": {"userEnteredFormat": _format(f, hex_text)}, "fields": field}}
            for r in rows]


ASKED = {"red": "#F4CCCC", "orange": "#FCE5CD", "yellow": "#FFF2CC", "green": "#D9EAD3", "blue": "#CFE2F3", "purple": "#D9D2E9"}
INK = {"red": "#CC0000", "orange": "#E69138", "green": "#38761D", "blue": "#1155CC", "purple": "#674EA7"}


def _hex(f: dict[str, Any]) -> str:
    return (INK if f["way"] == "text" else ASKED)[f["colour"]]


@pytest.mark.parametrize("kind", ["amount", "close", "stage", "owner", "soon"])
def test_highlight_each_rule_kind_passes_by_rule_and_the_other_way_and_nothing_scores_zero(
        rollout: Callable[..., Rollout], kind: str) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: f["kind"] == kind)
    assert r.grade()["reward"] == 0.0
    _passes(r.oracle_then())
    other = rollout(HIGHLIGHT, where=lambda f: f == r.facts)
    _passes(other.do(other.task.alternatives[0]))


def test_highlight_fills_by_hand_pass_when_no_rule_is_asked_whole_rows_too(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: not f["live"])
    f = r.facts
    _passes(r.do(_batch(f["spreadsheet"], *_by_hand(f, f["rows"], _hex(f), c2=26))))


@pytest.mark.parametrize("colour_name, hex_text, ok", [
    ("red", "#FFC7CE", True),  # Excel's "light red fill"
    ("red", "#F9CB9C", False),  # light orange 2: a shade off, into orange
    ("red", "#FFF5F5", False),  # a tint nobody would call red
    ("yellow", "#FFEB9C", True),  # Excel's yellow fill
    ("yellow", "#FCE5CD", False),  # light orange 3
    ("blue", "#D0E0E3", False),  # light cyan 3: teal, not blue
    ("purple", "#CFE2F3", False),  # light blue 3
    ("green", "#EEEEEE", False),  # grey
])
def test_highlight_colour_is_read_by_its_family(rollout: Callable[..., Rollout], colour_name: str, hex_text: str, ok: bool) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: f["colour"] == colour_name and f["way"] == "fill" and not f["live"])
    f = r.facts
    grade = r.do(_batch(f["spreadsheet"], *_by_hand(f, f["rows"], hex_text)))
    if ok:
        _passes(grade)
    else:
        _fails(grade, "not " + colour_name)


def test_highlight_every_row_coloured_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT)
    f = r.facts
    _fails(r.do(_batch(f["spreadsheet"], *_by_hand(f, list(range(2, f["last"] + 1)), _hex(f)))), "is highlighted")


def test_highlight_the_right_rows_and_the_others_in_another_colour_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: f["way"] == "fill")
    f = r.facts
    others = [n for n in range(2, f["last"] + 1) if n not in f["rows"]]
    _fails(r.oracle_then(_batch(f["spreadsheet"], *_by_hand(f, others[:1], "#D9D2E9" if f["colour"] != "purple" else "#D9EAD3"))),
           "is highlighted")


def test_highlight_rule_on_the_wrong_column_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: f["kind"] == "amount")
    f = r.facts
    line = f["rule"].split("$")[1].replace(",", "")
    _fails(r.do(_batch(f["spreadsheet"], _rule(f, f"=F2>{line}", _hex(f)))))  # relative: column B tests G, C tests H, ...
    only_key = rollout(HIGHLIGHT, where=lambda g: g == f)
    _fails(only_key.do(_batch(f["spreadsheet"], _rule(f, f"=$F2>{line}", _hex(f), _grid(f, 1, f["last"], 0, 1)))), "B")


def test_highlight_rule_reaching_the_header_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: f["kind"] == "stage")
    f = r.facts
    header = _rule(f, '=OR(ROW()=1,$E1="' + f["rule"].split('"')[1] + '")', _hex(f), _grid(f, 0, f["last"]))
    _fails(r.do(_batch(f["spreadsheet"], header)), "header")


def test_highlight_rule_true_on_the_blank_rows_below_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: f["kind"] == "close" and f["way"] == "fill")  # (coloured text on blank cells shows nothing)
    f = r.facts
    day = f["rule"].rsplit("before ", 1)[1]
    import datetime as dt

    d = dt.datetime.strptime(day, "%B %d, %Y")
    _fails(r.do(_batch(f["spreadsheet"], _rule(f, f"=$G2<DATE({d.year},{d.month},{d.day})", _hex(f), _grid(f, 1, 200)))), "below the table")


def test_highlight_text_unreadable_on_its_fill_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: f["way"] == "text" and not f["live"])
    f = r.facts
    ink = INK[f["colour"]]
    both = [{"repeatCell": {"range": _grid(f, n - 1, n), "cell": {"userEnteredFormat": {
        "backgroundColor": colour(ink), "textFormat": {"foregroundColor": colour(ink)}}},
        "fields": "userEnteredFormat.backgroundColor,userEnteredFormat.textFormat.foregroundColor"}} for n in f["rows"]]
    _fails(r.do(_batch(f["spreadsheet"], *both)), "cannot be read")


def test_highlight_put_away_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT)
    f = r.facts
    _fails(r.oracle_then(_batch(f["spreadsheet"], {"deleteConditionalFormatRule": {"sheetId": f["sheet_id"], "index": 0}})))
    hidden = rollout(HIGHLIGHT, where=lambda g: g == f)
    _fails(hidden.oracle_then(_batch(f["spreadsheet"], {"updateSheetProperties": {
        "properties": {"sheetId": f["sheet_id"], "hidden": True}, "fields": "hidden"}})), "hidden")


def test_highlight_a_matching_row_hidden_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT)
    f = r.facts
    row = f["rows"][0] - 1
    _fails(r.oracle_then(_batch(f["spreadsheet"], {"updateDimensionProperties": {
        "range": {"sheetId": f["sheet_id"], "dimension": "ROWS", "startIndex": row, "endIndex": row + 1},
        "properties": {"hiddenByUser": True}, "fields": "hiddenByUser"}})), "hidden")


def test_highlight_stays_up_to_date_needs_highlighting_that_follows_the_deals(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: f["live"])
    f = r.facts
    assert "stays up to date" in r.task.prompt
    grade = r.do(_batch(f["spreadsheet"], *_by_hand(f, f["rows"], _hex(f))))  # right today, by hand
    _fails(grade, "does not follow")
    assert next(c for c in grade["checks"] if "follows" in c["name"])["passed"] is False
    listed = rollout(HIGHLIGHT, where=lambda g: g == f)  # a rule naming today's rows
    rows = ",".join(f"ROW()={n}" for n in f["rows"])
    _fails(listed.do(_batch(f["spreadsheet"], _rule(f, f"=OR({rows})", _hex(f)))), "does not follow")


def test_highlight_without_stays_up_to_date_the_prompt_asks_no_rule(rollout: Callable[..., Rollout]) -> None:
    r = rollout(HIGHLIGHT, where=lambda f: not f["live"])
    assert "up to date" not in r.task.prompt and len(r.task.checks) == 1


# -- add-dropdown --------------------------------------------------------------------------------
def _span(f: dict[str, Any], r1: int = 1, r2: int | None = None, c1: int = 9, c2: int = 10) -> dict[str, int]:
    return {"sheetId": f["sheet_id"], "startRowIndex": r1, "endRowIndex": r2 or f["last"], "startColumnIndex": c1, "endColumnIndex": c2}


def _list_rule(options: list[str], custom_ui: bool = True) -> dict[str, Any]:
    rule: dict[str, Any] = {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": o} for o in options]}}
    if custom_ui:
        rule["showCustomUi"] = True
    return rule


def _dropdown(f: dict[str, Any], options: list[str] | None = None, span: dict[str, int] | None = None, custom_ui: bool = True,
              picks: dict[str, str] | None = None, sheet: str | None = None) -> Step:
    """The header in J1, a dropdown (`options`, default as asked) on `span` (default J2:J<last>), the picks set."""
    async def run(tools: McpTools) -> None:
        sid, tab = f["spreadsheet"], sheet or f["tab"]
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"setDataValidation": {
            "range": span or _span(f), "rule": _list_rule(options or f["options"], custom_ui)}}])
        keys = await tools.call("get_sheet_data", spreadsheet_id=sid, sheet=f["tab"], range="A1:A")
        row = {line[0]: n for n, line in enumerate(keys["valueRanges"][0]["values"], start=1) if line}
        cells = {"J1": [[f["header"]]], **{f"J{row[k]}": [[v]] for k, v in (picks if picks is not None else f["asked"]).items()}}
        await tools.call("batch_update_cells", spreadsheet_id=sid, sheet=tab, ranges=cells)

    return run


@pytest.mark.parametrize("tab", ["Pipeline", "Tickets"])
def test_dropdown_oracle_and_a_list_on_a_hidden_tab_pass_and_nothing_scores_zero(rollout: Callable[..., Rollout], tab: str) -> None:
    r = rollout(DROPDOWN, where=lambda f: f["tab"] == tab)
    assert r.grade()["reward"] == 0.0
    _passes(r.oracle_then())
    other = rollout(DROPDOWN, where=lambda f: f == r.facts)
    _passes(other.do(other.task.alternatives[0]))


def test_dropdown_on_the_whole_column_below_the_header_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(DROPDOWN)
    _passes(r.do(_dropdown(r.facts, span=_span(r.facts, 1, 1000))))


def test_dropdown_column_inserted_at_j_first_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(DROPDOWN)
    f = r.facts

    async def insert(tools: McpTools) -> None:  # "insert 1 column right" of I: the grid grows, nothing moves
        await tools.call("add_columns", spreadsheet_id=f["spreadsheet"], sheet=f["tab"], count=1, start_column=9)

    _passes(r.do(insert, _dropdown(f)))


@pytest.mark.parametrize("change", ["an extra option", "another order", "another case", "no dropdown shown"])
def test_dropdown_options_must_be_those_asked_shown_as_a_dropdown(rollout: Callable[..., Rollout], change: str) -> None:
    r = rollout(DROPDOWN)
    options = list(r.facts["options"])
    if change == "an extra option":
        options.append("Other")
    elif change == "another order":
        options.reverse()
    elif change == "another case":
        options[0] = options[0].swapcase()
    _fails(r.do(_dropdown(r.facts, options, custom_ui=change != "no dropdown shown")), "dropdown")


def test_dropdown_covering_the_header_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(DROPDOWN)
    _fails(r.do(_dropdown(r.facts, span=_span(r.facts, 0))), "header")


def test_dropdown_must_cover_every_row_of_the_table(rollout: Callable[..., Rollout]) -> None:
    r = rollout(DROPDOWN)
    f = r.facts
    _fails(r.do(_dropdown(f, span=_span(f, 1, f["last"] - 1))), f"J{f['last']} has no dropdown")


@pytest.mark.parametrize("where", ["column K", "columns J and K"])
def test_dropdown_on_the_wrong_column_fails(rollout: Callable[..., Rollout], where: str) -> None:
    r = rollout(DROPDOWN)
    f = r.facts
    span = _span(f, c1=10, c2=11) if where == "column K" else _span(f, c2=11)
    _fails(r.do(_dropdown(f, span=span)), "column J alone")


def test_dropdown_on_a_scratch_tab_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(DROPDOWN)
    f = r.facts

    async def scratch(tools: McpTools) -> None:
        added = await tools.call("batch_update", spreadsheet_id=f["spreadsheet"], requests=[{"addSheet": {"properties": {"title": "Scratch"}}}])
        sid = added["replies"][0]["addSheet"]["properties"]["sheetId"]
        await _dropdown({**f, "sheet_id": sid}, sheet="Scratch")(tools)

    _fails(r.do(scratch), "no dropdown")
    extra = rollout(DROPDOWN, where=lambda g: g == f)  # the task done, and a scratch tab left with a dropdown: collateral
    grade = extra.oracle_then(scratch)
    assert not grade["passed"] and grade["collateral"], json.dumps(grade)


def test_dropdown_put_away_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(DROPDOWN)
    f = r.facts
    _fails(r.oracle_then(_batch(f["spreadsheet"], {"setDataValidation": {"range": _span(f)}})), "no dropdown")
    hidden = rollout(DROPDOWN, where=lambda g: g == f)
    _fails(hidden.oracle_then(_batch(f["spreadsheet"], {"updateSheetProperties": {
        "properties": {"sheetId": f["sheet_id"], "hidden": True}, "fields": "hidden"}})), "hidden")


def test_dropdown_picks_on_the_asked_rows_only(rollout: Callable[..., Rollout]) -> None:
    r = rollout(DROPDOWN)
    f = r.facts
    (a, va), (b, vb) = f["asked"].items()
    _fails(r.do(_dropdown(f, picks={a: vb, b: va})), f"expected {va!r}")
    extra = rollout(DROPDOWN, where=lambda g: g == f)
    other = next(k for k in (("o0001", "o0002") if f["tab"] == "Pipeline" else ("SUP-1", "SUP-2")) if k not in f["asked"])
    _fails(extra.do(_dropdown(f, picks={**f["asked"], other: va})), "only")


def test_dropdown_list_written_over_seeded_cells_is_collateral(rollout: Callable[..., Rollout]) -> None:
    r = rollout(DROPDOWN, where=lambda f: f["tab"] == "Pipeline")
    f = r.facts
    n = len(f["options"])

    async def over_names(tools: McpTools) -> None:  # the options written over deals' names (column C), and read from there
        sid = f["spreadsheet"]
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Pipeline", range=f"C2:C{n + 1}", data=[[o] for o in f["options"]])
        await _dropdown(f)(tools)
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"setDataValidation": {"range": _span(f), "rule": {
            "condition": {"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": f"=Pipeline!$C$2:$C${n + 1}"}]}, "showCustomUi": True}}}])

    grade = r.do(over_names)
    assert all(c["passed"] for c in grade["checks"]), json.dumps(grade)
    assert not grade["passed"] and grade["reward"] < PASS_LINE and len(grade["collateral"]) == n, json.dumps(grade)
