"""cross/pipeline-report-v1 across Salesforce, Sheets and Slack: correct work in the forms a
careful person uses passes; a report that lists groups without deals, two reports, a wrong
total row, a renamed seeded spreadsheet, or a second figure in the reply fails."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from apps.sheets.operations import OPERATIONS
from officegym.core.ops import invoke
from officegym.validate import McpTools

TASK = "cross/pipeline-report-v1"


def _lines(facts: dict[str, Any]) -> list[list[Any]]:
    return [[label, total] for label, total in sorted(facts["totals"].items())]


async def _sheet(tools: McpTools, title: str, rows: list[list[Any]], raw: bool = False) -> str:
    sid = (await tools.call("create_spreadsheet", title=title))["spreadsheetId"]
    first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
    if raw:  # values as typed text, the way the Sheets API's RAW input keeps them
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"updateCells": {
            "start": {"sheetId": 0, "rowIndex": 0, "columnIndex": 0}, "fields": "userEnteredValue",
            "rows": [{"values": [{"userEnteredValue": {"stringValue": str(v)}} for v in row]} for row in rows]}}])
    else:
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(rows)}", data=rows)
    return sid


async def _reply(tools: McpTools, facts: dict[str, Any], text: str) -> None:
    await tools.call("slack_post_message", channel_id=facts["dm"], text=text)


def test_the_instance_is_what_salesforce_says(rollout: Callable[..., Rollout]) -> None:
    """The expected totals are the CRM's own GROUP BY, read through the agent's tools."""
    for variant in range(0, 20, 3):
        r = rollout(TASK, variant=variant)
        f = r.facts
        where = "IsClosed = false" if f["kind"] == "open" else "IsWon = true AND CloseDate = THIS_YEAR"
        found = r.call("salesforce_run_soql", query=f"SELECT {f['grouping']}, SUM(Amount) total FROM Opportunity WHERE {where} "
                                                   f"GROUP BY {f['grouping']}")["records"]
        name = f["grouping"].split(".")[-1]
        assert {str(x[name]): float(x["total"]) for x in found} == f["totals"]
        assert f["title"] in r.env.task.prompt or f["title"] in json.dumps(r.call("slack_get_channel_history", channel_id=f["dm"]))


def test_text_amounts_a_total_row_and_a_breakdown_in_the_reply_pass(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=1)
    f = r.facts
    rows = [["Group", "Amount"], *[[label, f"${total:,.2f}"] for label, total in _lines(f)], ["Grand total", f"${f['total']:,.2f}"]]
    parts = ", ".join(f"{label} ${total:,.0f}" for label, total in _lines(f)[:2])
    grade = r.do(lambda t: _sheet(t, f["title"].upper(), rows, raw=True),
                 lambda t: _reply(t, f, f"Overall ${f['total']:,.2f} (biggest: {parts})"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


@pytest.mark.parametrize("attack", ["empty group", "wrong total row", "two reports", "two figures", "also in a channel"])
def test_gaming_the_report_fails(rollout: Callable[..., Rollout], attack: str) -> None:
    r = rollout(TASK, variant=2)
    f = r.facts
    lines = [["Group", "Amount"], *_lines(f)]
    steps: list[Callable[[McpTools], Any]] = []
    reply = f"${f['total']:,.2f}"
    if attack == "empty group":
        lines.append(["(nothing here)", 0])
    elif attack == "wrong total row":
        lines.append(["Total", f["total"] + 1000])
    elif attack == "two reports":
        steps.append(lambda t: _sheet(t, f["title"], [["Group", "Amount"], *[[label, v * 1.1] for label, v in _lines(f)]]))
    elif attack == "two figures":
        reply = f"${f['total'] * 1.1:,.2f}, sorry, I mean ${f['total']:,.2f}"
    steps.append(lambda t: _sheet(t, f["title"], lines))
    steps.append(lambda t: _reply(t, f, reply))
    if attack == "also in a channel":
        steps.append(lambda t: t.call("slack_post_message", channel_id="#general", text=f"Pipeline: ${f['total']:,.2f}"))
    grade = r.do(*steps)
    assert not grade["passed"] and grade["reward"] < 0.5 + 1e-9, (attack, json.dumps(grade))


def test_a_seeded_spreadsheet_renamed_to_the_title_is_not_the_report(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=3)
    f = r.facts

    async def rename(tools: McpTools) -> None:
        listed = await tools.call("list_spreadsheets")
        seeded = listed[0]["id"]
        await tools.call("batch_update", spreadsheet_id=seeded, requests=[{"updateSpreadsheetProperties": {
            "properties": {"title": f["title"]}, "fields": "title"}}])

    grade = r.do(rename, lambda t: _reply(t, f, f"${f['total']:,.2f}"))
    assert not grade["passed"], json.dumps(grade)
    assert any("no new spreadsheet" in c["detail"] for c in grade["checks"]), json.dumps(grade)


def test_every_instance_has_an_unambiguous_report(rollout: Callable[..., Rollout]) -> None:
    """Across the family's instances: groups told apart by name (case and spacing aside), at
    least two of them, each total the sum of its deals, and no (grouping, kind) asked twice
    under the same title."""
    seen = set()
    for variant in range(20):
        f = rollout(TASK, seed=0, variant=variant).facts
        keys = [" ".join(k.split()).lower() for k in f["totals"]]
        assert len(keys) == len(set(keys)) >= 2 and all(k for k in keys), f
        assert abs(sum(f["totals"].values()) - f["total"]) < 0.005
        seen.add((f["grouping"], f["kind"], f["title"]))
    assert len(seen) == 20, "each variant of the 20 is its own instance"


def test_the_report_on_a_tab_after_an_empty_first_one_passes(rollout: Callable[..., Rollout]) -> None:
    """A new spreadsheet's empty Sheet1 left in front of the report's own tab is no report, so
    the report is the first tab holding anything."""
    r = rollout(TASK, variant=4)
    f = r.facts

    async def on_second_tab(tools: McpTools) -> None:
        sid = (await tools.call("create_spreadsheet", title=f["title"]))["spreadsheetId"]
        await tools.call("create_sheet", spreadsheet_id=sid, title="Report")
        rows = [["Group", "Total"], *_lines(f)]
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Report", range=f"A1:B{len(rows)}", data=rows)

    grade = r.do(on_second_tab, lambda t: _reply(t, f, f"${f['total']:,.2f}"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_duplicate_moved_to_the_trash_is_gone(rollout: Callable[..., Rollout]) -> None:
    """Two reports made, the wrong one then trashed through Drive (files.update trashed=true):
    the one left is the report, and the trashed one costs nothing."""
    r = rollout(TASK, variant=5)
    f = r.facts

    async def trash_a_draft(tools: McpTools) -> None:
        draft = await _sheet(tools, f["title"], [["Group", "Amount"], *[[label, v * 2] for label, v in _lines(f)]])
        # No MCP tool trashes a file; Drive's REST face does (files.update), as an agent would call it.
        invoke(r.gym.store, r.env, OPERATIONS, OPERATIONS["sheets.files.update"], {"fileId": draft, "resource": {"trashed": True}},
               face="rest", tool="PATCH /drive/v3/files/{fileId}")

    grade = r.do(trash_a_draft, lambda t: _sheet(t, f["title"], [["Group", "Amount"], *_lines(f)]),
                 lambda t: _reply(t, f, f"${f['total']:,.2f}"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)
