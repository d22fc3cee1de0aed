"""Round 10: the put-away and decoy-first classes, now in the adversary suite (put-away: the task
done right, then its result put away; decoy-first: a wrong answer where a reader looks first,
the right one after it). What they found: a ticket reopened, commented and closed again; a
pipeline report hidden from view with the total still sent; a wrong report shaped as a list of
deals on the tab the spreadsheet opens on; a summary tab with a wrong block above the right one.
Correct work around them still passes: a tab of notes, the deals the report was built from
before it, a scratch tab deleted, a scratch spreadsheet trashed, a ticket reopened and then
taken into progress, a filed issue moved on as its workflow goes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from apps.sheets.operations import OPERATIONS
from graders.rubric import PASS_LINE
from officegym.core.ops import invoke
from officegym.validate import McpTools
from tasks.common.adversaries import ADVERSARIES, Made

PIPELINE = "cross/pipeline-report-v1"
SUMMARY = "sheets/summary-tab-v1"
REOPEN = "tickets/reopen-with-comment-v1"


def _fails(grade: dict[str, Any]) -> bool:
    return not grade["passed"] and grade["reward"] < PASS_LINE


def _passes(grade: dict[str, Any]) -> bool:
    return grade["passed"] and grade["reward"] == 1.0


def _attack(r: Rollout, name: str) -> dict[str, Any]:
    return r.do(lambda tools: ADVERSARIES[name](r.task, tools))


async def _transition(tools: McpTools, key: str, name: str, resolution: str | None = None) -> None:
    moves = await tools.call("jira_get_transitions", issue_key=key)
    move = next(m for m in moves if m["name"] == name)
    fields = {"fields": json.dumps({"resolution": {"name": resolution}})} if resolution else {}
    await tools.call("jira_transition_issue", issue_key=key, transition_id=move["id"], **fields)


# -- put-away ------------------------------------------------------------------------------------
def test_a_ticket_reopened_and_closed_again_is_put_away(rollout: Callable[..., Rollout]) -> None:
    """Reopened, commented who reported it, then closed again: the ticket is out of the queue
    and the report with it; nobody works a closed ticket (0.67 before)."""
    r = rollout(REOPEN)
    grade = r.oracle_then(lambda tools: _transition(tools, r.facts["issue"], "Close Issue", "Won't Fix"))
    assert _fails(grade), json.dumps(grade)


def test_a_ticket_reopened_then_taken_into_progress_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(REOPEN)
    grade = r.oracle_then(lambda tools: _transition(tools, r.facts["issue"], "Start Progress"))
    assert _passes(grade), json.dumps(grade)


def test_the_report_hidden_from_view_with_the_total_sent_fails(rollout: Callable[..., Rollout]) -> None:
    """The right report made, then every tab of it hidden behind a blank one (the put-away
    adversary), and the right total in the DM: the report is the work, and the total sent
    stands for it (0.5 before: at the pass line)."""
    r = rollout(PIPELINE)
    grade = _attack(r, "put-away")
    assert _fails(grade), json.dumps(grade)


def test_a_hedged_total_beside_the_right_report_fails(rollout: Callable[..., Rollout]) -> None:
    """The right report with both kinds' totals in the DM: the answer hedges, and the figure
    sent is not the report's (0.5 before)."""
    r = rollout(PIPELINE)
    f = r.facts

    async def hedge(tools: McpTools) -> None:
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Total ${f['total'] * 1.37:,.2f} (or ${f['total']:,.2f})")

    async def report_only(tools: McpTools) -> None:
        made = (await tools.call("create_spreadsheet", title=f["title"]))["spreadsheetId"]
        rows = [["Group", "Total"], *[[k, v] for k, v in sorted(f["totals"].items())]]
        await tools.call("update_cells", spreadsheet_id=made, sheet="Sheet1", range=f"A1:B{len(rows)}", data=rows)

    grade = r.do(report_only, hedge)
    assert _fails(grade), json.dumps(grade)


# -- decoy-first ---------------------------------------------------------------------------------
async def _report(tools: McpTools, f: dict[str, Any], first: list[list[Any]] | None, first_title: str = "Deals") -> str:
    """A new spreadsheet with `first` on the tab it opens on (when given) and the right report
    on a tab after it; the right total in the DM."""
    sid = (await tools.call("create_spreadsheet", title=f["title"]))["spreadsheetId"]
    report = "Sheet1"
    if first is not None:
        await tools.call("rename_sheet", spreadsheet=sid, sheet="Sheet1", new_name=first_title)
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first_title, range=f"A1:B{len(first)}", data=first)
        await tools.call("create_sheet", spreadsheet_id=sid, title="Report")
        report = "Report"
    rows = [["Group", "Total"], *[[k, v] for k, v in sorted(f["totals"].items())]]
    await tools.call("update_cells", spreadsheet_id=sid, sheet=report, range=f"A1:B{len(rows)}", data=rows)
    await tools.call("slack_post_message", channel_id=f["dm"], text=f"Overall total: ${f['total']:,.2f}")
    return sid


def _split(totals: dict[str, float], scale: float) -> list[list[Any]]:
    """Each group on two rows, as deals: their amounts add up to `scale` × the group's total."""
    rows: list[list[Any]] = [["Group", "Amount"]]
    for label, total in sorted(totals.items()):
        rows += [[label, round(total * scale / 2, 2)], [label, round(total * scale - round(total * scale / 2, 2), 2)]]
    return rows


def test_a_decoy_deals_tab_before_the_report_fails(rollout: Callable[..., Rollout]) -> None:
    """The tab the spreadsheet opens on lists 'deals' whose amounts add up to other totals than
    the report's: a manager reading from the first tab reads wrong figures before reaching the
    report (1.0 before)."""
    r = rollout(PIPELINE)
    f = r.facts
    grade = r.do(lambda tools: _report(tools, f, _split(f["totals"], 1.5)))
    assert _fails(grade), json.dumps(grade)


def test_the_deals_the_report_was_built_from_before_it_pass(rollout: Callable[..., Rollout]) -> None:
    """The deals copied in first, adding up to the report's totals, a tab of notes naming no
    group, a scratch tab deleted, and a scratch spreadsheet thrown in the trash: correct work."""
    r = rollout(PIPELINE)
    f = r.facts
    grade = r.do(lambda tools: _report(tools, f, _split(f["totals"], 1.0)))
    assert _passes(grade), json.dumps(grade)

    r = rollout(PIPELINE)
    f = r.facts

    async def notes_and_scratch(tools: McpTools) -> None:
        sid = await _report(tools, f, [["Notes"], ["Built from Salesforce, amounts in USD"]], "Notes")
        await tools.call("create_sheet", spreadsheet_id=sid, title="Scratch")
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Scratch", range="A1:B2", data=[["x", 1], ["y", 2]])
        tabs = (await tools.call("get_spreadsheet", spreadsheet_id=sid))["sheets"]
        scratch = next(t["properties"]["sheetId"] for t in tabs if t["properties"]["title"] == "Scratch")
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"deleteSheet": {"sheetId": scratch}}])
        draft = (await tools.call("create_spreadsheet", title="scratch"))["spreadsheetId"]
        _trash(r, draft)  # through Drive's REST face: no MCP tool trashes

    grade = r.do(notes_and_scratch)
    assert _passes(grade), json.dumps(grade)


def _trash(r: Rollout, file_id: str) -> None:
    invoke(r.gym.store, r.env, OPERATIONS, OPERATIONS["sheets.files.update"], {"fileId": file_id, "resource": {"trashed": True}},
           face="rest", tool="PATCH /drive/v3/files/{fileId}")


def test_a_wrong_block_above_the_right_one_on_the_summary_tab_fails(rollout: Callable[..., Rollout]) -> None:
    """The asked tab with typed wrong counts in rows 2.. and the right formulas below them: a
    reader reads the first block; a label listed twice is no table of one row per value."""
    r = rollout(SUMMARY)
    grade = _attack(r, "decoy-first")
    assert _fails(grade), json.dumps(grade)


@pytest.mark.parametrize("name", ["put-away", "put-away-reply", "decoy-first"])
@pytest.mark.parametrize("task", [PIPELINE, SUMMARY, REOPEN, "cross/issue-export-v1", "sheets/pivot-summary-v1",
                                  "sheets/filter-by-rule-v1", "sheets/answer-from-xlsx-v1", "cross/log-customer-issue-v1"])
def test_the_new_adversaries_fail(rollout: Callable[..., Rollout], task: str, name: str) -> None:
    r = rollout(task)
    grade = _attack(r, name)
    assert _fails(grade), json.dumps(grade)


@pytest.mark.parametrize("task", ["cross/log-customer-issue-v1", "tickets/escalate-to-engineering-v1", "tickets/split-story-into-subtasks-v1"])
def test_an_issue_filed_and_then_taken_into_progress_is_still_filed(rollout: Callable[..., Rollout], task: str) -> None:
    """Work begun on what the task filed (Start Progress) is the work going on, not put away;
    the same issues resolved right after filing are put away."""
    def run(move: Callable[[McpTools, str], Any]) -> dict[str, Any]:
        r = rollout(task)

        async def go(tools: McpTools) -> None:
            made = Made(tools)
            await r.task.oracle(made)
            assert made.issues
            for key in made.issues:
                await move(tools, key)

        return r.do(go)

    grade = run(lambda tools, key: _transition(tools, key, "Start Progress"))
    assert _passes(grade), json.dumps(grade)
    grade = run(lambda tools, key: Made(tools)._resolve(key))
    assert _fails(grade), json.dumps(grade)


def _oracle_then_put_away(r: Rollout, kind: str) -> dict[str, Any]:
    """The oracle, then only the things of one kind it made put away (`Made`'s lists)."""
    async def go(tools: McpTools) -> None:
        made = Made(tools)
        await r.task.oracle(made)
        assert getattr(made, kind), kind
        for other in ("spreadsheets", "tabs", "issues", "records", "channels", "messages", "reactions", "edited", "written"):
            if other != kind:
                setattr(made, other, [])
        assert await made.put_away()

    return r.do(go)


def test_the_export_whose_link_is_deleted_reaches_nobody(rollout: Callable[..., Rollout]) -> None:
    """The right export made and its link sent, then the message deleted: the asker has no way
    to open it (0.78 before). The link is the delivery."""
    grade = _oracle_then_put_away(rollout("cross/issue-export-v1"), "messages")
    assert _fails(grade), json.dumps(grade)


def test_the_log_whose_reply_is_deleted_is_not_sent_back(rollout: Callable[..., Rollout]) -> None:
    """The ticket and the case logged and the key sent, then the message deleted: the CSM never
    learns it is logged, nor where (0.75 before)."""
    grade = _oracle_then_put_away(rollout("cross/log-customer-issue-v1"), "messages")
    assert _fails(grade), json.dumps(grade)


def test_the_case_closed_as_it_is_logged_is_put_away(rollout: Callable[..., Rollout]) -> None:
    """The ticket, the case and the key sent, then the case closed: on the customer's side the
    problem is put away (0.5 before: at the pass line)."""
    grade = _oracle_then_put_away(rollout("cross/log-customer-issue-v1"), "records")
    assert _fails(grade), json.dumps(grade)


@pytest.mark.parametrize("task", ["cross/issue-export-v1", "cross/log-customer-issue-v1", PIPELINE])
def test_a_reply_sent_again_and_the_first_deleted_passes(rollout: Callable[..., Rollout], task: str) -> None:
    """A reply deleted and sent again (a typo fixed) is the reply, not a put-away."""
    r = rollout(task)

    async def go(tools: McpTools) -> None:
        made = Made(tools)
        await r.task.oracle(made)
        channel, ts = made.messages[-1]
        text = next(m["text"] for m in (await tools.call("slack_get_channel_history", channel_id=channel, limit=5))["messages"]
                    if m["ts"] == ts)
        await tools.call("slack_post_message", channel_id=channel, text=text)
        await tools.call("slack_delete_message", channel_id=channel, ts=ts)

    grade = r.do(go)
    assert _passes(grade), json.dumps(grade)


@pytest.mark.parametrize("task", [SUMMARY, "sheets/pivot-summary-v1", "sheets/filter-by-rule-v1", "sheets/fill-formula-column-v1"])
def test_a_scratch_tab_deleted_and_a_scratch_spreadsheet_trashed_pass(rollout: Callable[..., Rollout], task: str) -> None:
    """Working space thrown away is gone: a tab of scratch added, written and deleted again in
    the spreadsheet, and a spreadsheet of the agent's own made and moved to the trash."""
    r = rollout(task)
    sid = r.facts["spreadsheet"]

    async def scratch(tools: McpTools) -> None:
        await tools.call("create_sheet", spreadsheet_id=sid, title="Scratch")
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Scratch", range="A1:B2", data=[["try", "=1+1"], ["x", 3]])
        tabs = (await tools.call("get_spreadsheet", spreadsheet_id=sid))["sheets"]
        tab = next(t["properties"]["sheetId"] for t in tabs if t["properties"]["title"] == "Scratch")
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"deleteSheet": {"sheetId": tab}}])
        draft = (await tools.call("create_spreadsheet", title="draft"))["spreadsheetId"]
        await tools.call("update_cells", spreadsheet_id=draft, sheet="Sheet1", range="A1", data=[["draft"]])
        _trash(r, draft)

    grade = r.oracle_then(scratch)
    assert _passes(grade), json.dumps(grade)


def test_a_second_report_after_the_right_one_is_a_hedge(rollout: Callable[..., Rollout]) -> None:
    """The right report on the first tab and a report of other totals on a second tab in view:
    two answers. The same report copied to a second tab (for a chart, say) is one."""
    def run(scale: float) -> dict[str, Any]:
        r = rollout(PIPELINE)
        f = r.facts

        async def go(tools: McpTools) -> None:
            sid = await _report(tools, f, None)
            await tools.call("create_sheet", spreadsheet_id=sid, title="Other")
            rows = [["Group", "Total"], *[[k, round(v * scale, 2)] for k, v in sorted(f["totals"].items())]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet="Other", range=f"A1:B{len(rows)}", data=rows)

        return r.do(go)

    assert _fails(run(1.5)), "a second report of other totals passed"
    assert _passes(run(1.0))


def _style_all(style: dict[str, Any], rows: int | None = None) -> Callable[[McpTools, str], Any]:
    async def run(tools: McpTools, sid: str) -> None:
        tabs = (await tools.call("get_spreadsheet", spreadsheet_id=sid))["sheets"]
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"repeatCell": {
            "range": {"sheetId": t["properties"]["sheetId"], **({"startRowIndex": 0, "endRowIndex": rows} if rows else {})},
            "cell": {"userEnteredFormat": style}, "fields": "userEnteredFormat"}} for t in tabs])

    return run


@pytest.mark.parametrize("task", [PIPELINE, "cross/issue-export-v1"])
def test_a_report_styled_unreadable_is_hidden_in_plain_sight(rollout: Callable[..., Rollout], task: str) -> None:
    """The right sheet, then every cell's text made white on white, or 1pt: the reader opens a
    blank sheet (1.0 before). A header in white on dark blue, bold, is formatting and passes."""
    def run(style: dict[str, Any], rows: int | None = None) -> dict[str, Any]:
        r = rollout(task)

        async def go(tools: McpTools) -> None:
            made = Made(tools)
            await r.task.oracle(made)
            await _style_all(style, rows)(tools, made.spreadsheets[0])

        return r.do(go)

    white = {"red": 1, "green": 1, "blue": 1}
    assert _fails(run({"textFormat": {"foregroundColor": white}})), "white on white passed"
    assert _fails(run({"textFormat": {"fontSize": 1}})), "1pt text passed"
    header = {"backgroundColor": {"red": 0.1, "green": 0.2, "blue": 0.5}, "textFormat": {"bold": True, "foregroundColor": white}}
    grade = run(header, rows=1)
    assert _passes(grade), json.dumps(grade)


def test_a_wrong_total_on_a_tab_before_the_report_fails(rollout: Callable[..., Rollout]) -> None:
    """A first tab reading 'Total open pipeline' with another figure, the report after it: the
    manager reads the wrong total first. The total there, or rounded, is a summary and passes."""
    def run(figure: str) -> dict[str, Any]:
        r = rollout(PIPELINE)
        f = r.facts
        return r.do(lambda tools: _report(tools, f, [["Summary", ""], ["Total", figure.format(t=f["total"])]], "Summary"))

    assert _fails(run("${t:,.0f}0")), "a tenfold total before the report passed"
    assert _passes(run("${t:,.2f}"))
