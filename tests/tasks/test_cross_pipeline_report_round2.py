"""cross/pipeline-report-v1, second round: a figure of the other kind named beside a breakdown
in the reply, a stray figure in column B under no label or in a "Total" row above the header,
are hedges and fail; a Total row in other words, a title row above the header, and the report
on a tab after the deals it was built from (Excel's pivot table, SUMIFS over the Sheets REST
face) are correct work and pass."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from rollouts import Rollout

from officegym.validate import McpTools

TASK = "cross/pipeline-report-v1"
WHERE = {"open": "IsClosed = false", "won": "IsWon = true AND CloseDate = THIS_YEAR"}


def _lines(facts: dict[str, Any]) -> list[list[Any]]:
    return [[label, total] for label, total in sorted(facts["totals"].items())]


def _other(facts: dict[str, Any]) -> str:
    return next(k for k in WHERE if k != facts["kind"])


async def _sheet(tools: McpTools, title: str, rows: list[list[Any]]) -> str:
    sid = (await tools.call("create_spreadsheet", title=title))["spreadsheetId"]
    first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
    await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(rows)}", data=rows)
    return sid


async def _total(tools: McpTools, kind: str) -> float:
    found = await tools.call("salesforce_run_soql", query=f"SELECT SUM(Amount) total FROM Opportunity WHERE {WHERE[kind]}")
    return float(found["records"][0]["total"])


def _group_of(record: dict[str, Any], field: str) -> str:
    if "." in field:
        parent, name = field.split(".")
        return str(record[parent][name])
    return str(record[field])


def _reply(f: dict[str, Any], text: str) -> Callable[[McpTools], Any]:
    return lambda t: t.call("slack_post_message", channel_id=f["dm"], text=text)


def _is_open_by_stage_or_source(f: dict[str, Any]) -> bool:
    return f["kind"] == "open" and f["grouping"] in ("StageName", "LeadSource")


def test_the_other_kinds_total_beside_a_breakdown_is_a_hedge(rollout: Callable[..., Rollout]) -> None:
    """Every group's total, the overall total, and then this year's won total (for an open
    pipeline report): the last is no part of the asked total, even when some groups happen to
    add up to about it. The breakdown alone, and a subtotal of two groups, stay fine."""
    r = rollout(TASK, seed=1, variant=2, where=_is_open_by_stage_or_source)
    f = r.facts
    parts = ", ".join(f"{label} ${v:,.0f}" for label, v in _lines(f))
    (a, va), (b, vb) = _lines(f)[:2]

    async def hedge(tools: McpTools) -> None:
        other = await _total(tools, _other(f))
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Total ${f['total']:,.0f}: {parts}. Won this year: ${other:,.0f}")

    grade = r.do(lambda t: _sheet(t, f["title"], [["Group", "Total"], *_lines(f)]), hedge)
    assert not grade["passed"] and grade["reward"] <= 0.5, json.dumps(grade)

    r = rollout(TASK, seed=1, variant=2, where=_is_open_by_stage_or_source)
    grade = r.do(lambda t: _sheet(t, f["title"], [["Group", "Total"], *_lines(f)]),
                 _reply(f, f"Total ${f['total']:,.0f}: {parts}. {a} and {b} together: ${va + vb:,.0f}"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


@pytest.mark.parametrize("where", ["under no label", "a Total row above the header", "a Total row as text above the header"])
def test_a_stray_figure_in_column_b_fails(rollout: Callable[..., Rollout], where: str) -> None:
    r = rollout(TASK, variant=5)
    f = r.facts
    wrong = f["total"] * 1.3
    lines = [["Group", "Total"], *_lines(f)]
    if where == "under no label":
        lines.append(["", wrong])
    elif where == "a Total row above the header":
        lines[0] = ["Total", wrong]
    else:
        lines[0] = ["Total", f"${wrong:,.2f}"]
    grade = r.do(lambda t: _sheet(t, f["title"], lines), _reply(f, f"${f['total']:,.2f}"))
    assert not grade["passed"] and grade["reward"] <= 0.5, (where, json.dumps(grade))


@pytest.mark.parametrize("label", ["Total {kind}", "Grand Total (USD)", ""])
def test_a_total_row_in_other_words_passes(rollout: Callable[..., Rollout], label: str) -> None:
    """A careful person's total row: "Total open pipeline", "Grand Total (USD)", or the sum with
    no label under the column; it must still be the overall total."""
    r = rollout(TASK, variant=6)
    f = r.facts
    name = label.format(kind="open pipeline" if f["kind"] == "open" else "won this year")
    lines = [["Group", "Total"], *_lines(f), [name, f"=SUM(B2:B{len(f['totals']) + 1})"]]
    grade = r.do(lambda t: _sheet(t, f["title"], lines), _reply(f, f"${f['total']:,.2f}"))
    assert grade["passed"] and grade["reward"] == 1.0, (label, json.dumps(grade))


def test_a_total_row_of_the_other_kind_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=6)
    f = r.facts
    other = _other(f)
    name = "Total won this year" if other == "won" else "Total open pipeline"

    async def build(tools: McpTools) -> None:
        lines = [["Group", "Total"], *_lines(f), [name, await _total(tools, other)]]
        await _sheet(tools, f["title"], lines)

    grade = r.do(build, _reply(f, f"${f['total']:,.2f}"))
    assert not grade["passed"], json.dumps(grade)


def test_a_title_row_above_the_header_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=7)
    f = r.facts
    lines = [[f["title"], ""], ["Group", "Total"], *_lines(f)]
    grade = r.do(lambda t: _sheet(t, f["title"], lines), _reply(f, f"${f['total']:,.2f}"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_report_with_no_header_row_fails(rollout: Callable[..., Rollout]) -> None:
    """The ask wants a header row above the groups: the groups alone, right as they are, are
    not the report asked for."""
    r = rollout(TASK, variant=7)
    f = r.facts
    grade = r.do(lambda t: _sheet(t, f["title"], _lines(f)), _reply(f, f"${f['total']:,.2f}"))
    assert not grade["passed"] and any("no header row" in c["detail"] for c in grade["checks"]), json.dumps(grade)


def test_the_report_on_a_tab_after_the_deals_passes_and_a_wrong_report_there_fails(rollout: Callable[..., Rollout]) -> None:
    """The deals copied onto the first tab (one row per deal) and the report built from them on
    the next, with SUMIFS: the report is the report's tab, not the deals'."""
    for wrong in (False, True):
        r = rollout(TASK, variant=8)
        f = r.facts

        async def build(tools: McpTools) -> None:
            field = f["grouping"]
            deals = (await tools.call("salesforce_run_soql", query=f"SELECT Name, {field}, Amount FROM Opportunity "
                                                                  f"WHERE {WHERE[f['kind']]}"))["records"]
            sid = (await tools.call("create_spreadsheet", title=f["title"]))["spreadsheetId"]
            first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
            await tools.call("rename_sheet", spreadsheet=sid, sheet=first, new_name="Deals")
            data = [["Opportunity", "Group", "Amount"], *[[d["Name"], _group_of(d, field), d["Amount"]] for d in deals]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet="Deals", range=f"A1:C{len(data)}", data=data)
            await tools.call("create_sheet", spreadsheet_id=sid, title="Report")
            labels = sorted(f["totals"])
            factor = "*1.1" if wrong else ""
            report = [["Group", "Total"], *[[label, f"=SUMIFS(Deals!C:C,Deals!B:B,A{i + 2}){factor}"] for i, label in enumerate(labels)]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet="Report", range=f"A1:B{len(report)}", data=report)

        grade = r.do(build, _reply(f, f"${f['total']:,.2f}"))
        if wrong:
            assert not grade["passed"], json.dumps(grade)
        else:
            assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_excels_pivot_table_over_the_deals_passes(rollout: Callable[..., Rollout]) -> None:
    """Through the Excel toolset: the deals written to Sheet1, a pivot table summing them by
    group on a new worksheet."""
    r = rollout(TASK, variant=9, toolset="excel")
    f = r.facts

    async def build(tools: McpTools) -> None:
        field = f["grouping"]
        deals = (await tools.call("salesforce_run_soql", query=f"SELECT {field}, Amount FROM Opportunity WHERE {WHERE[f['kind']]}"))["records"]
        sid = (await tools.call("create_workbook", title=f["title"]))["spreadsheetId"]
        data = [["Group", "Amount"], *[[_group_of(d, field), d["Amount"]] for d in deals]]
        await tools.call("write_data_to_excel", spreadsheet_id=sid, sheet_name="Sheet1", data=data)
        await tools.call("create_pivot_table", spreadsheet_id=sid, sheet_name="Sheet1", data_range=f"A1:B{len(data)}",
                         rows=["Group"], values=["Amount"], target_sheet="Report")

    grade = r.do(build, _reply(f, f"Overall: {f['total']:,.0f} USD"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)




def test_over_the_rest_faces_deals_then_a_sumifs_summary_passes(rollout: Callable[..., Rollout], agent_url: str) -> None:
    """SOQL over Salesforce's REST API, the Sheets API v4 (USER_ENTERED: currency text and
    formulas), Slack's Web API: the deals on the first tab, the summary on a second one."""
    r = rollout(TASK, variant=10)
    f = r.facts
    api = f"{agent_url}/envs/{r.env.id}/api"
    field = f["grouping"]
    found = httpx.get(f"{api}/crm/services/data/v62.0/query",
                      params={"q": f"SELECT {field}, Amount FROM Opportunity WHERE {WHERE[f['kind']]}"}).json()["records"]
    made = httpx.post(f"{api}/sheets/v4/spreadsheets", json={"properties": {"title": f["title"]}, "sheets": [
        {"properties": {"title": "Opportunities"}}, {"properties": {"title": "Summary"}}]}).json()
    sid = made["spreadsheetId"]
    deals = [["Group", "Amount"], *[[_group_of(d, field), f"${d['Amount']:,.2f}"] for d in found]]
    labels = sorted(f["totals"])
    summary = [["Group", "Total"], *[[label, f"=SUMIFS(Opportunities!B:B,Opportunities!A:A,A{i + 2})"] for i, label in enumerate(labels)],
               ["Total", f"=SUM(B2:B{len(labels) + 1})"]]
    for tab, values in (("Opportunities", deals), ("Summary", summary)):
        put = httpx.put(f"{api}/sheets/v4/spreadsheets/{sid}/values/{tab}!A1", params={"valueInputOption": "USER_ENTERED"},
                        json={"values": values})
        assert put.status_code == 200, put.text
    sent = httpx.post(f"{api}/chat/chat.postMessage", json={"channel": f["dm"], "text": f"The total is ${f['total']:,.2f}"})
    assert sent.json()["ok"], sent.text
    grade = r.grade()
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_formulas_filled_down_past_the_groups_pass(rollout: Callable[..., Rollout]) -> None:
    """SUMIF formulas filled a few rows further than the groups reach show 0 under no label:
    no figure, no total row."""
    r = rollout(TASK, variant=11)
    f = r.facts

    async def build(tools: McpTools) -> None:
        field = f["grouping"]
        deals = (await tools.call("salesforce_run_soql", query=f"SELECT {field}, Amount FROM Opportunity WHERE {WHERE[f['kind']]}"))["records"]
        sid = (await tools.call("create_spreadsheet", title=f["title"]))["spreadsheetId"]
        first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
        labels = sorted(f["totals"])
        report = [["Group", "Total"], *[[label, f"=SUMIF(Deals!A:A,A{i + 2},Deals!B:B)"] for i, label in enumerate(labels)],
                  *[["", f"=SUMIF(Deals!A:A,A{i + 2},Deals!B:B)"] for i in range(len(labels), len(labels) + 4)]]
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(report)}", data=report)
        await tools.call("create_sheet", spreadsheet_id=sid, title="Deals")
        data = [["Group", "Amount"], *[[_group_of(d, field), d["Amount"]] for d in deals]]
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Deals", range=f"A1:B{len(data)}", data=data)

    grade = r.do(build, _reply(f, f"${f['total']:,.2f}"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)
