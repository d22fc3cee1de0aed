"""Round 12: the grid, the message and the list are graded as their reader sees them.

- Theme colours: a fill or text colour given as a ColorStyle's themeColor is the colour of the
  book's theme (a new Google Sheet's: ACCENT2 is red, ACCENT1 blue, BACKGROUND white). It read
  as no colour at all: deals highlighted in a theme red scored 0, other deals filled in a theme
  blue were not seen (1.0), and totals written in the theme's BACKGROUND white on white were
  read as shown (1.0).
- A Slack message shows its blocks (its text is then only their notification fallback), and an
  attachment its pretext, author, title, text, fields and footer (its fallback only when it has
  nothing else to show). An answer put only where the reader does not see it was read as said
  (1.0).
"""

from __future__ import annotations

import pytest
from faces import Face, face_fixture  # noqa: F401  (face_fixture: the `face` fixture)

from graders.rubric import PASS_LINE

HIGHLIGHT = "sheets/highlight-by-rule-v1"
THEME = {"ACCENT1": (0x42 / 255, 0x85 / 255, 0xF4 / 255), "ACCENT2": (0xEA / 255, 0x43 / 255, 0x35 / 255), "ACCENT3": (0xFB / 255, 0xBC / 255, 0x04 / 255),
         "ACCENT4": (0x34 / 255, 0xA8 / 255, 0x53 / 255), "ACCENT5": (0xFF / 255, 0x6D / 255, 0x01 / 255)}  # a new Google Sheet's theme
ACCENT = {"red": "ACCENT2", "orange": "ACCENT5", "yellow": "ACCENT3", "green": "ACCENT4", "blue": "ACCENT1"}


def _fails(f: Face) -> None:
    grade = f.grade()
    assert not grade["passed"] and grade["reward"] < PASS_LINE, grade


def _table(f: Face, r1: int, r2: int) -> dict:
    return {"sheetId": f.facts["sheet_id"], "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": 0, "endColumnIndex": 9}


def _look(f: Face, theme: str) -> dict:
    style = {"themeColor": theme}
    return {"textFormat": {"foregroundColorStyle": style}} if f.facts["way"] == "text" else {"backgroundColorStyle": style}


def _rows_by_hand(f: Face, rows: list[int], theme: str, plain: bool = False) -> list[dict]:
    """The rows filled (or their text coloured) in the theme's colour: as a ColorStyle's
    themeColor, or (`plain`) as that colour's red, green and blue."""
    look = _look(f, theme)
    if plain:
        rgb = {k: v for k, v in zip(("red", "green", "blue"), THEME[theme], strict=True)}
        look = {"textFormat": {"foregroundColor": rgb}} if f.facts["way"] == "text" else {"backgroundColor": rgb}
    field = "userEnteredFormat.textFormat" if f.facts["way"] == "text" else "userEnteredFormat.backgroundColor,userEnteredFormat.backgroundColorStyle"
    return [{"repeatCell": {"range": _table(f, r - 1, r), "cell": {"userEnteredFormat": look}, "fields": field}} for r in rows]


def _by_hand_face(face, live: bool = False) -> Face:  # noqa: ANN001
    return face(HIGHLIGHT, where=lambda c: c["colour"] in ACCENT and c["live"] is live and not (c["way"] == "text" and c["colour"] == "orange"))


def test_deals_highlighted_in_the_themes_colour_keep_full_marks(face) -> None:
    f = _by_hand_face(face)
    f.batch(f.facts["spreadsheet"], *_rows_by_hand(f, f.facts["rows"], ACCENT[f.facts["colour"]]))
    f.full_marks()


def test_other_deals_coloured_in_another_theme_colour_fail(face) -> None:
    f = _by_hand_face(face)
    c = f.facts
    others = [r for r in range(2, c["last"] + 1) if r not in c["rows"]]
    other = next(a for name, a in ACCENT.items() if name != c["colour"])
    f.batch(c["spreadsheet"], *_rows_by_hand(f, c["rows"], ACCENT[c["colour"]], plain=True), *_rows_by_hand(f, others, other))
    _fails(f)


def _reconciled(f: Face) -> tuple[str, int, int]:
    sid = f.facts["spreadsheet"]
    rows = f.values(sid, "Invoices!A2:B")
    f.put(sid, f"Invoices!C1:C{len(rows) + 1}", [["Status"]] + [[f'=IF(B{r}=VLOOKUP(A{r},Pipeline!$A$2:$F$61,6,FALSE),"Matches","Differs")']
                                                                 for r in range(2, len(rows) + 2)])
    book = f.sheets("GET", f"v4/spreadsheets/{sid}?fields=sheets.properties")
    tab = next(s["properties"]["sheetId"] for s in book["sheets"] if s["properties"]["title"] == "Invoices")
    return sid, tab, len(rows)


@pytest.mark.parametrize("how", ["a rule", "by hand", "by hand, plain white"])
def test_mismatches_written_in_the_themes_background_colour_still_cost(face, how: str) -> None:
    """(Written white by hand, in any spelling, the flags the task asked for scored 1.0: the
    column's allowance took any change to it, unreadable or not.)"""
    f = face("sheets/reconcile-tabs-v1")
    sid, tab, n = _reconciled(f)
    white = {"textFormat": {"foregroundColorStyle": {"themeColor": "BACKGROUND"}}}
    if how.endswith("plain white"):
        white = {"textFormat": {"foregroundColor": {"red": 1, "green": 1, "blue": 1}}}
    area = {"sheetId": tab, "startRowIndex": 1, "endRowIndex": n + 1, "startColumnIndex": 2, "endColumnIndex": 3}
    if how == "a rule":
        f.batch(sid, {"addConditionalFormatRule": {"index": 0, "rule": {"ranges": [area], "booleanRule": {
            "condition": {"type": "TEXT_EQ", "values": [{"userEnteredValue": "Differs"}]}, "format": white}}}})
    else:
        f.batch(sid, {"repeatCell": {"range": area, "cell": {"userEnteredFormat": white}, "fields": "userEnteredFormat.textFormat"}})
    grade = f.grade()
    assert not grade["passed"] and grade["reward"] < 1.0, grade


# -- what a Slack message shows ------------------------------------------------------------
ANSWER = "chat/find-and-answer-v1"


def test_the_answer_only_in_an_attachments_fallback_fails(face) -> None:
    """The client shows the attachment's text; its fallback only in a notification."""
    f = face(ANSWER)
    c = f.facts
    f.slack("chat.postMessage", channel=f.dm(c["asker"]), text="Found it",
            attachments=[{"fallback": f"The ticket is {c['ticket']}", "text": "It is in the tracker."}])
    _fails(f)


def test_the_answer_only_in_the_text_beside_blocks_fails(face) -> None:
    """A message with blocks shows the blocks; its text is their notification fallback."""
    f = face(ANSWER)
    c = f.facts
    f.slack("chat.postMessage", channel=f.dm(c["asker"]), text=f"The ticket is {c['ticket']}",
            blocks=[{"type": "section", "text": {"type": "mrkdwn", "text": "Found it, it is in the tracker."}}])
    _fails(f)


@pytest.mark.parametrize("where", ["the text beside blocks", "an attachment's fallback"])
def test_another_answer_in_what_the_notification_shows_is_a_hedge(face, where: str) -> None:
    """The message shows the right key; its notification (the text beside blocks, the fallback)
    another: the asker reads both."""
    f = face(ANSWER)
    c = f.facts
    project, number = c["ticket"].split("-")
    other = f"{project}-{int(number) + 1}"
    shown = f"The ticket is {c['ticket']}"
    args = {"the text beside blocks": {"text": f"The ticket is {other}", "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": shown}}]},
            "an attachment's fallback": {"text": "Found it", "attachments": [{"fallback": f"The ticket is {other}", "text": shown}]}}[where]
    f.slack("chat.postMessage", channel=f.dm(c["asker"]), **args)
    _fails(f)


@pytest.mark.parametrize("where", ["attachment text", "attachment field", "fallback alone", "blocks"])
def test_the_answer_where_the_message_shows_it_keeps_full_marks(face, where: str) -> None:
    f = face(ANSWER)
    c = f.facts
    answer = f"The ticket is {c['ticket']}"
    args = {"attachment text": {"text": "Found it", "attachments": [{"fallback": "ticket", "text": answer}]},
            "attachment field": {"text": "Found it", "attachments": [{"fallback": "ticket", "fields": [{"title": "Ticket", "value": c["ticket"]}]}]},
            "fallback alone": {"text": "Found it", "attachments": [{"fallback": answer}]},
            "blocks": {"text": "Found it", "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": answer}}]}}[where]
    f.slack("chat.postMessage", channel=f.dm(c["asker"]), **args)
    f.full_marks()


# -- a report as shown: merges -------------------------------------------------------------
REPORT = "cross/pipeline-report-v1"


def _report_rows(facts: dict) -> list[list]:
    return [["Group", "Amount"], *[[label, total] for label, total in sorted(facts["totals"].items())], ["Total", facts["total"]]]


async def _report(tools, facts: dict, rows: list[list], merged: bool) -> str:  # noqa: ANN001
    sid = (await tools.call("create_spreadsheet", title=facts["title"]))["spreadsheetId"]
    first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
    if merged:  # each row's A and B merged, then the totals written into B: the merged cells show A only
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:A{len(rows)}", data=[[a] for a, _ in rows])
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"mergeCells": {"mergeType": "MERGE_ROWS", "range": {
            "sheetId": 0, "startRowIndex": 0, "endRowIndex": len(rows), "startColumnIndex": 0, "endColumnIndex": 2}}}])
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"B1:B{len(rows)}", data=[[b] for _, b in rows])
    else:
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(rows)}", data=rows)
    await tools.call("slack_post_message", channel_id=facts["dm"], text=f"Done. Overall total ${facts['total']:,.2f}")
    return sid


def test_report_totals_written_under_merged_cells_fail(rollout) -> None:  # noqa: ANN001
    """A merged cell shows its top-left cell only: totals written into the rest of it are out of
    sight (it scored 1.0)."""
    r = rollout(REPORT, variant=1)
    grade = r.do(lambda t: _report(t, r.facts, _report_rows(r.facts), merged=True))
    assert not grade["passed"] and grade["reward"] < PASS_LINE, grade


def test_report_with_a_merged_title_above_it_keeps_full_marks(rollout) -> None:  # noqa: ANN001
    r = rollout(REPORT, variant=1)
    f = r.facts

    async def go(t) -> None:  # noqa: ANN001
        sid = await _report(t, f, [[f["title"], None], *_report_rows(f)], merged=False)
        await t.call("batch_update", spreadsheet_id=sid, requests=[{"mergeCells": {"mergeType": "MERGE_ALL", "range": {
            "sheetId": 0, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 2}}}])

    grade = r.do(go)
    assert grade["passed"] and grade["reward"] == 1.0, grade


def test_report_with_a_second_set_of_totals_a_filter_hides_keeps_full_marks(rollout) -> None:  # noqa: ANN001
    """Decided: graded as shown. A filter hiding rows the reader does not see leaves the report
    the reader sees; one hiding the right rows and showing others fails (as before)."""
    r = rollout(REPORT, variant=1)
    f = r.facts
    rows = _report_rows(f)
    body = [[*rows[0], "Keep"], *[[a, b, "yes"] for a, b in rows[1:]], *[[a, b * 2, "no"] for a, b in rows[1:]]]

    async def go(t, hide: str) -> None:  # noqa: ANN001
        sid = await _report(t, f, [x[:2] for x in body], merged=False)
        await t.call("update_cells", spreadsheet_id=sid, sheet="Sheet1", range=f"C1:C{len(body)}", data=[[x[2]] for x in body])
        await t.call("batch_update", spreadsheet_id=sid, requests=[{"setBasicFilter": {"filter": {
            "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": len(body), "startColumnIndex": 0, "endColumnIndex": 3},
            "filterSpecs": [{"columnIndex": 2, "filterCriteria": {"hiddenValues": [hide]}}]}}}])

    grade = r.do(lambda t: go(t, "no"))
    assert grade["passed"] and grade["reward"] == 1.0, grade
    r = rollout(REPORT, variant=1)
    grade = r.do(lambda t: go(t, "yes"))
    assert not grade["passed"] and grade["reward"] < PASS_LINE, grade


@pytest.mark.parametrize("order", ["fill first", "rule first"])
def test_mismatches_a_rule_colours_as_their_fill_by_hand_still_cost(face, order: str) -> None:
    """Each reads fine alone, together the flags cannot be read: the column filled red by hand
    and a rule writing the mismatches in that red (it scored 1.0)."""
    f = face("sheets/reconcile-tabs-v1")
    sid, tab, n = _reconciled(f)
    area = {"sheetId": tab, "startRowIndex": 1, "endRowIndex": n + 1, "startColumnIndex": 2, "endColumnIndex": 3}
    red = {"red": 0.8, "green": 0, "blue": 0}
    fill = {"repeatCell": {"range": area, "cell": {"userEnteredFormat": {"backgroundColor": red}}, "fields": "userEnteredFormat.backgroundColor"}}
    rule = {"addConditionalFormatRule": {"index": 0, "rule": {"ranges": [area], "booleanRule": {
        "condition": {"type": "TEXT_EQ", "values": [{"userEnteredValue": "Differs"}]}, "format": {"textFormat": {"foregroundColor": red}}}}}}
    f.batch(sid, *([fill, rule] if order == "fill first" else [rule, fill]))
    grade = f.grade()
    assert not grade["passed"] and grade["reward"] < 1.0, grade


def test_every_deal_filled_in_a_pale_tint_of_the_colour_fails(face) -> None:
    """A tint pale enough to pass for "not highlighted" on the other rows (#E6FFE6, each channel
    over 0.9) still named the colour on the matching ones: every row filled in it scored 1.0."""
    f = face(HIGHLIGHT, where=lambda c: c["way"] == "fill" and c["colour"] in ("green", "red", "blue") and not c["live"])
    c = f.facts
    tint = {"green": {"red": 0.9, "green": 1, "blue": 0.9}, "red": {"red": 1, "green": 0.9, "blue": 0.9},
            "blue": {"red": 0.9, "green": 0.9, "blue": 1}}[c["colour"]]
    f.batch(c["spreadsheet"], {"repeatCell": {"range": _table(f, 1, c["last"]), "cell": {"userEnteredFormat": {"backgroundColor": tint}},
                                              "fields": "userEnteredFormat.backgroundColor"}})
    _fails(f)


def test_deals_filled_in_a_pale_tint_of_the_colour_keep_full_marks(face) -> None:
    f = face(HIGHLIGHT, where=lambda c: c["way"] == "fill" and c["colour"] == "green" and not c["live"])
    c = f.facts
    f.batch(c["spreadsheet"], *[{"repeatCell": {"range": _table(f, r - 1, r), "cell": {"userEnteredFormat": {"backgroundColor": {
        "red": 0.9, "green": 1, "blue": 0.9}}}, "fields": "userEnteredFormat.backgroundColor"}} for r in c["rows"]])
    f.full_marks()
