"""Round 11: correct work with reasonable extras must keep full credit, and the extras that
take something out of view must not.

- A tidy person formats the tab they worked on: freezes its header, sizes its columns, colours
  the mismatches with a conditional format rule, turns on a filter (its buttons only). None of
  it changes data, so none of it is collateral (a frozen header on the reconciled tab scored
  0.4, below the pass line; the others 0.8). A column hidden, a filter whose criteria hide rows,
  or a rule that makes text unreadable still costs.
- Replying in a thread and acknowledging its first message with a reaction is what people do:
  the reaction is no collateral (it scored 0.8), as an :eyes: on a question in a DM is not.
- Monotone credit: a solution with a check failed is not the task done, so it stays below the
  pass line, while each part more done right still scores no less.
"""

from __future__ import annotations

import re

import pytest
from faces import AGILE, Face, face_fixture  # noqa: F401  (face_fixture: the `face` fixture)

from graders.rubric import PASS_LINE


def _reconciled(f: Face) -> tuple[str, int, int]:
    sid = f.facts["spreadsheet"]
    rows = f.values(sid, "Invoices!A2:B")
    f.put(sid, f"Invoices!C1:C{len(rows) + 1}", [["Status"]] + [[f'=IF(B{r}=VLOOKUP(A{r},Pipeline!$A$2:$F$61,6,FALSE),"Matches","Differs")']
                                                                 for r in range(2, len(rows) + 2)])
    book = f.sheets("GET", f"v4/spreadsheets/{sid}?fields=sheets.properties")
    tab = next(s["properties"]["sheetId"] for s in book["sheets"] if s["properties"]["title"] == "Invoices")
    return sid, tab, len(rows)


def _rule(tab: int, n: int, fmt: dict) -> dict:
    return {"addConditionalFormatRule": {"index": 0, "rule": {
        "ranges": [{"sheetId": tab, "startRowIndex": 1, "endRowIndex": n + 1, "startColumnIndex": 2, "endColumnIndex": 3}],
        "booleanRule": {"condition": {"type": "TEXT_EQ", "values": [{"userEnteredValue": "Differs"}]}, "format": fmt}}}}


TIDY = {
    "header frozen": lambda tab, n: {"updateSheetProperties": {"properties": {"sheetId": tab, "gridProperties": {"frozenRowCount": 1}},
                                                               "fields": "gridProperties.frozenRowCount"}},
    "columns sized to fit": lambda tab, n: {"autoResizeDimensions": {"dimensions": {"sheetId": tab, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 3}}},
    "a column widened": lambda tab, n: {"updateDimensionProperties": {"range": {"sheetId": tab, "dimension": "COLUMNS", "startIndex": 2, "endIndex": 3},
                                                                      "properties": {"pixelSize": 140}, "fields": "pixelSize"}},
    "mismatches in red": lambda tab, n: _rule(tab, n, {"backgroundColor": {"red": 1, "green": 0.8, "blue": 0.8}, "textFormat": {"bold": True}}),
    "a filter that hides nothing": lambda tab, n: {"setBasicFilter": {"filter": {"range": {"sheetId": tab, "startRowIndex": 0, "endRowIndex": n + 1,
                                                                                          "startColumnIndex": 0, "endColumnIndex": 3}}}},
}


@pytest.mark.parametrize("extra", list(TIDY))
def test_reconcile_with_its_tab_tidied_keeps_full_marks(face, extra: str) -> None:
    f = face("sheets/reconcile-tabs-v1")
    sid, tab, n = _reconciled(f)
    f.batch(sid, TIDY[extra](tab, n))
    f.full_marks()


OUT_OF_VIEW = {
    "the billed column hidden": lambda tab, n: {"updateDimensionProperties": {"range": {"sheetId": tab, "dimension": "COLUMNS", "startIndex": 1, "endIndex": 2},
                                                                              "properties": {"hiddenByUser": True}, "fields": "hiddenByUser"}},
    "a filter hiding the matches": lambda tab, n: {"setBasicFilter": {"filter": {
        "range": {"sheetId": tab, "startRowIndex": 0, "endRowIndex": n + 1, "startColumnIndex": 0, "endColumnIndex": 3},
        "filterSpecs": [{"columnIndex": 2, "filterCriteria": {"hiddenValues": ["Matches"]}}]}}},
    "the mismatches in white": lambda tab, n: _rule(tab, n, {"textFormat": {"foregroundColor": {"red": 1, "green": 1, "blue": 1}}}),
}


@pytest.mark.parametrize("extra", list(OUT_OF_VIEW))
def test_reconcile_with_something_taken_out_of_view_still_costs(face, extra: str) -> None:
    f = face("sheets/reconcile-tabs-v1")
    sid, tab, n = _reconciled(f)
    f.batch(sid, OUT_OF_VIEW[extra](tab, n))
    grade = f.grade()
    assert not grade["passed"] and grade["reward"] < 1.0, grade


def test_fill_column_with_the_new_column_sized_and_first_column_frozen_keeps_full_marks(face) -> None:
    f = face("sheets/fill-formula-column-v1", where=lambda c: c["computation"] == "Commission")
    sid = f.facts["spreadsheet"]
    f.put(sid, "Pipeline!J1:J61", [["Commission"]] + [[f'=IF(E{r}="Closed Won",F{r}*8%,0)'] for r in range(2, 62)])
    f.batch(sid, {"autoResizeDimensions": {"dimensions": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 9, "endIndex": 10}}},
            {"updateSheetProperties": {"properties": {"sheetId": 0, "gridProperties": {"frozenColumnCount": 1}},
                                       "fields": "gridProperties.frozenColumnCount"}})
    f.full_marks()


def test_reply_in_thread_acknowledging_its_first_message_keeps_full_marks(face) -> None:
    f = face("chat/reply-in-thread-v1")
    c = f.facts
    f.slack("chat.postMessage", channel=c["channel"], thread_ts=c["thread_ts"], text=f"Their main contact: {c['contact']}")
    f.slack("reactions.add", channel=c["channel"], timestamp=c["thread_ts"], name="white_check_mark")
    f.full_marks()


def test_reply_in_thread_reacting_elsewhere_still_costs(face) -> None:
    f = face("chat/reply-in-thread-v1")
    c = f.facts
    f.slack("chat.postMessage", channel=c["channel"], thread_ts=c["thread_ts"], text=f"Their main contact: {c['contact']}")
    other = next(m for m in f.slack("conversations.history", channel=c["channel"], limit=20)["messages"] if m["ts"] != c["thread_ts"])
    f.slack("reactions.add", channel=c["channel"], timestamp=other["ts"], name="white_check_mark")
    grade = f.grade()
    assert not grade["passed"] and grade["reward"] < 1.0, grade


def _summary_text(f: Face) -> tuple[str, str, str]:
    c = f.facts
    channel, ts = c["thread"].split("/")
    description = f.jira("GET", f"issue/{c['ticket']}?fields=description", api="rest/api/2")["fields"]["description"]
    customer = re.search(r" at (.+?) via ", description).group(1)
    f.slack("conversations.join", channel=c["target"])
    return channel, ts, f"*{c['ticket']}* ({customer}): replies from {' '.join(f'<@{u}>' for u in c['people'])}."


def test_summary_with_a_pointer_in_the_thread_it_sums_up_keeps_full_marks(face) -> None:
    """The summary posted, then a reply in the source thread pointing at it and an :eyes: on the
    thread's first message (it scored 0.8 for each)."""
    f = face("chat/summarise-thread-v1")
    channel, ts, text = _summary_text(f)
    posted = f.slack("chat.postMessage", channel=f.facts["target"], text=text)
    link = f.slack("chat.getPermalink", channel=f.facts["target"], message_ts=posted["ts"])["permalink"]
    f.slack("conversations.join", channel=channel)
    f.slack("chat.postMessage", channel=channel, thread_ts=ts, text=f"Summarised in <#{f.facts['target']}>: {link}")
    f.slack("reactions.add", channel=channel, timestamp=ts, name="eyes")
    f.full_marks()


def test_summary_posted_in_the_source_channel_itself_still_costs(face) -> None:
    f = face("chat/summarise-thread-v1")
    channel, _ts, text = _summary_text(f)
    f.slack("chat.postMessage", channel=f.facts["target"], text=text)
    f.slack("conversations.join", channel=channel)
    f.slack("chat.postMessage", channel=channel, text=text)
    grade = f.grade()
    assert not grade["passed"] and grade["reward"] < 1.0, grade


def _count_table(f: Face, total: str | None) -> None:
    c = f.facts
    sid, field = c["spreadsheet"], c["field"]
    data = f.values(sid, "Tickets!A1:Z")
    col = data[0].index(field)
    letter = chr(ord("A") + col)
    kinds = sorted({r[col] for r in data[1:] if len(r) > col and r[col]})
    f.batch(sid, {"addSheet": {"properties": {"title": c["tab"], "index": 0}}})
    rows = [[field, "Tickets"]] + [[k, f"=COUNTIF(Tickets!{letter}:{letter},A{i})"] for i, k in enumerate(kinds, 2)]
    if total is not None:
        rows.append(["Total", total.format(last=len(kinds) + 1)])
    f.put(sid, f"'{c['tab']}'!A1", rows)


def test_summary_tab_put_first_with_a_total_row_keeps_full_marks(face) -> None:
    """The count table on a tab put before the others, with a Total row summing it (it scored
    0.0: "total" read as a Status value; each tab moved along, collateral)."""
    f = face("sheets/summary-tab-v1", where=lambda c: c["scope"] == "all")
    _count_table(f, "=SUM(B2:B{last})")
    f.full_marks()


def test_summary_tab_with_a_total_that_is_not_the_sum_fails(face) -> None:
    f = face("sheets/summary-tab-v1", where=lambda c: c["scope"] == "all")
    _count_table(f, "=SUM(B2:B{last})+1")
    grade = f.grade()
    assert not grade["passed"] and grade["reward"] < PASS_LINE, grade


# -- monotone credit: nothing < part < all, and no part at the pass line ---------------------
def _triage(f: Face, n: int) -> None:
    c, key = f.facts, f.facts["issue"]
    steps = [lambda: f.jira("PUT", f"issue/{key}", {"fields": {"priority": {"name": c["priority"]}}}),
             lambda: f.jira("PUT", f"issue/{key}/assignee", {"accountId": c["assignee"]}),
             lambda: f.jira("PUT", f"issue/{key}", {"update": {"labels": [{"add": c["label"]}]}}),
             lambda: f.jira("PUT", f"issue/{key}", {"fields": {"components": [{"name": c["component"]}]}})]
    for step in steps[:n]:
        step()


def _escalate(f: Face, n: int) -> None:
    c = f.facts
    if n >= 1:
        made = f.jira("POST", "issue", {"fields": {"project": {"key": "ENG"}, "issuetype": {"name": "Bug"}, "summary": c["summary"],
                                                   "priority": {"name": c["priority"]}, "components": [{"name": c["component"]}],
                                                   "labels": ["customer", "escalated"]}})
    if n >= 2:
        f.jira("POST", "issueLink", {"type": {"name": "Blocks"}, "inwardIssue": {"key": made["key"]}, "outwardIssue": {"key": c["issue"]}})
    if n >= 3:
        f.jira("POST", f"issue/{c['issue']}/comment", {"body": {"type": "doc", "version": 1, "content": [
            {"type": "paragraph", "content": [{"type": "text", "text": f"Escalated as {made['key']}."}]}]}})


def _reassign(f: Face, n: int) -> None:
    moves = f.facts["moves"]
    for key in moves[: (1 if n == 1 else len(moves)) if n else 0]:
        f.jira("PUT", f"issue/{key}/assignee", {"accountId": f.facts["successor"]})


PARTS = {
    "tickets/triage-support-ticket-v1": (_triage, 4, None),
    "tickets/escalate-to-engineering-v1": (_escalate, 3, None),
    "tickets/reassign-departing-engineer-v1": (_reassign, 2, lambda c: len(c["moves"]) >= 2),
}


@pytest.mark.parametrize("family", list(PARTS))
def test_more_of_the_task_scores_more_and_only_all_of_it_passes(face, family: str) -> None:
    """Each step more of the task done right scores no less; every part short of all of it
    stays below the pass line (3 of triage's 4 fields scored 0.7, the escalation's bug filed
    and linked but not reported 0.8, one of two issues reassigned 0.67)."""
    solve, steps, where = PARTS[family]
    scores = []
    for n in range(steps + 1):
        f = face(family, where=where)
        solve(f, n)
        scores.append(f.grade())
    rewards = [g["reward"] for g in scores]
    assert all(a <= b for a, b in zip(rewards, rewards[1:], strict=False)), rewards
    assert all(r < PASS_LINE and not g["passed"] for r, g in zip(rewards[:-1], scores, strict=False)), rewards
    assert scores[-1]["passed"] and rewards[-1] == 1.0, scores[-1]


def test_sprint_planned_with_a_goal_keeps_full_marks(face) -> None:
    """The sprint filled by the rule and given a goal, as planning a sprint in Jira goes (the
    goal scored 0.8); renaming the sprint still costs."""
    f = face("tickets/plan-sprint-by-capacity-v1")
    c = f.facts
    f.jira("POST", f"sprint/{c['sprint']}/issue", {"issues": c["picked"]}, api=AGILE)
    f.jira("POST", f"sprint/{c['sprint']}", {"goal": f"Ship {', '.join(c['picked'])} within {c['capacity']} points"}, api=AGILE)
    f.full_marks()
    f.jira("POST", f"sprint/{c['sprint']}", {"name": "ENG Sprint 26 (planned)"}, api=AGILE)
    assert f.grade()["reward"] < 1.0
