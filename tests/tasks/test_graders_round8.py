"""Adversary round 8: the cross families and classes across families.

- A spreadsheet in Drive's trash is gone for a user, in every family: a check reading a
  spreadsheet in the trash fails (the only right file trashed), and a trashed duplicate under
  the asked title does not count.
- cross/log-customer-issue: logging the problem means leaving it open. A ticket resolved or a
  case closed as it is logged (a correct write undone) fails; a ticket made through Jira's REST
  API (v2 with wiki text and a priority by id, v3 with an ADF description) and a second ticket
  made and deleted again are correct work and pass.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from rollouts import Rollout

from sqlalchemy import update

from apps.sheets.models import Spreadsheet
from apps.sheets.operations import OPERATIONS
from officegym.core.ops import invoke
from officegym.validate import McpTools

Make = Callable[..., Rollout]
LOG = "cross/log-customer-issue-v1"
REPORT = "cross/pipeline-report-v1"


def _trash(r: Rollout, spreadsheet_id: str, trashed: bool = True) -> None:
    """Drive's files.update (no MCP tool trashes a file; the REST face does, as an agent would call it)."""
    invoke(r.gym.store, r.env, OPERATIONS, OPERATIONS["sheets.files.update"], {"fileId": spreadsheet_id, "resource": {"trashed": trashed}},
           face="rest", tool="PATCH /drive/v3/files/{fileId}")


def _failed_checks(grade: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in grade["checks"] if not c["passed"]]


# -- a spreadsheet in the trash is gone ---------------------------------------------------------
SHEET_FAMILIES = ["sheets/fill-formula-column-v1", "sheets/fix-broken-formula-v1", "sheets/summary-tab-v1", "sheets/reconcile-tabs-v1",
                  "sheets/update-from-crm-v1", "sheets/sort-by-rule-v1", "sheets/pivot-summary-v1", "sheets/filter-by-rule-v1"]


def _target(r: Rollout) -> str:
    """The seeded spreadsheet the instance works on (its id, as the checks read it)."""
    listed = r.call("list_spreadsheets")
    title = r.task.prompt.split('"')[1]
    return next(s["id"] for s in listed if s["title"] == title)


def _trashed_by_its_owner(r: Rollout, spreadsheet_id: str, trashed: bool = True) -> None:
    """The seeded spreadsheets belong to colleagues (Drive lets only an owner trash a file, so
    the agent cannot): their owner moves it to the trash, or out of it."""
    with r.gym.store.session(r.env) as db:
        db.execute(update(Spreadsheet).where(Spreadsheet.id == spreadsheet_id).values(trashed=trashed))
        db.commit()


@pytest.mark.parametrize("family", SHEET_FAMILIES)
def test_the_right_work_in_a_spreadsheet_in_the_trash_fails_its_checks(rollout: Make, family: str) -> None:
    """The task done, then its spreadsheet in the trash: the work is gone from view, so every
    check reading it fails, saying so (before, they passed); out of the trash again, it passes."""
    r = rollout(family, seed=0)
    sid = _target(r)
    with pytest.raises(Exception, match="PERMISSION_DENIED"):  # not the agent's to trash
        _trash(r, sid)
    r.run(r.task.oracle)
    _trashed_by_its_owner(r, sid)
    grade = r.grade()
    failing = _failed_checks(grade)
    assert failing and all("trash" in c["detail"] for c in failing), json.dumps(grade)
    assert grade["reward"] < 0.5
    _trashed_by_its_owner(r, sid, trashed=False)
    grade = r.grade()
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def _lines(facts: dict[str, Any]) -> list[list[Any]]:
    return [[label, total] for label, total in sorted(facts["totals"].items())]


async def _report(tools: McpTools, title: str, rows: list[list[Any]]) -> str:
    sid = (await tools.call("create_spreadsheet", title=title))["spreadsheetId"]
    first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
    await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(rows)}", data=rows)
    return sid


def test_the_only_report_trashed_fails_and_a_trashed_wrong_one_is_gone(rollout: Make) -> None:
    r = rollout(REPORT, variant=3)
    f = r.facts
    made: list[str] = []

    async def build(tools: McpTools) -> None:
        made.append(await _report(tools, f["title"], [["Group", "Total"], *[[k, v * 3] for k, v in _lines(f)]]))  # a wrong draft
        made.append(await _report(tools, f["title"], [["Group", "Total"], *_lines(f)]))
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Total: ${f['total']:,.2f}")

    r.run(build)
    _trash(r, made[0])
    grade = r.grade()
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)
    _trash(r, made[1])
    grade = r.grade()
    assert not grade["passed"] and "trash" in _failed_checks(grade)[0]["detail"], json.dumps(grade)  # the reply alone is half


# -- cross/log-customer-issue: the log left open ------------------------------------------------
async def _ticket(tools: McpTools, f: dict[str, Any]) -> str:
    made = await tools.call("jira_create_issue", project_key="SUP", summary=f["summary"], issue_type="Bug",
                            additional_fields=json.dumps({"priority": {"name": f["priority"]}}))
    return made["issue"]["key"]


async def _case(tools: McpTools, f: dict[str, Any], key: str, **fields: Any) -> None:
    record = {"AccountId": f["account"], "Subject": f["summary"], "Priority": f["priority"], "Jira_Issue_Key__c": key, **fields}
    text = await tools.call("salesforce_dml_records", operation="insert", objectName="Case", records=[record])
    assert "- Failed: 0" in str(text), text


def _log(r: Rollout, after: Callable[[McpTools, str], Any] | None = None, **case_fields: Any) -> dict[str, Any]:
    f = r.facts

    async def go(tools: McpTools) -> None:
        key = await _ticket(tools, f)
        await _case(tools, f, key, **case_fields)
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Logged as {key}.")
        if after is not None:
            await after(tools, key)

    r.run(go)
    return r.grade()


@pytest.mark.parametrize("resolution", ["Won't Fix", "Done"])
def test_a_ticket_resolved_as_it_is_logged_fails(rollout: Make, resolution: str) -> None:
    async def resolve(tools: McpTools, key: str) -> None:
        found = await tools.call("jira_get_transitions", issue_key=key)
        listed = found if isinstance(found, list) else found.get("transitions", [])
        done = next(t for t in listed if "resolve" in str(t).lower() or "done" in str(t).lower())
        await tools.call("jira_transition_issue", issue_key=key, transition_id=str(done["id"]),
                         fields=json.dumps({"resolution": {"name": resolution}}))

    grade = _log(rollout(LOG, variant=2), resolve)
    assert not grade["passed"] and grade["reward"] < 0.5, json.dumps(grade)  # as good as no ticket: nor for the case, nor for the reply
    assert "put away" in _failed_checks(grade)[0]["detail"]


def test_a_case_closed_as_it_is_logged_fails(rollout: Make) -> None:
    grade = _log(rollout(LOG, variant=2), Status="Closed", Resolution__c="Logged in Jira")
    assert not grade["passed"] and grade["reward"] < 0.7, json.dumps(grade)
    assert "put away" in _failed_checks(grade)[0]["detail"]


def test_a_ticket_moved_on_to_in_progress_still_passes(rollout: Make) -> None:
    """Work started on it is still an open log."""
    async def start(tools: McpTools, key: str) -> None:
        found = await tools.call("jira_get_transitions", issue_key=key)
        listed = found if isinstance(found, list) else found.get("transitions", [])
        begun = next(t for t in listed if "progress" in str(t).lower())
        await tools.call("jira_transition_issue", issue_key=key, transition_id=str(begun["id"]))

    grade = _log(rollout(LOG, variant=2), start)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_second_ticket_made_and_deleted_again_passes(rollout: Make) -> None:
    """A slip undone: the duplicate is gone, so the one ticket left is the log."""
    r = rollout(LOG, variant=2)
    f = r.facts

    async def undo_a_slip(tools: McpTools, _key: str) -> None:
        slip = await _ticket(tools, f)
        await tools.call("jira_delete_issue", issue_key=slip)

    grade = _log(r, undo_a_slip)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


@pytest.mark.parametrize("version", ["2", "3"])
def test_the_ticket_made_through_jiras_rest_api_passes(rollout: Make, agent_url: str, version: str) -> None:
    """v2 with wiki text and the priority by id; v3 with an ADF description and the priority by
    name. The case over Salesforce's REST API, the reply through Slack's Web API with the key as
    a link."""
    r = rollout(LOG, variant=4)
    f = r.facts
    api = f"{agent_url}/envs/{r.env.id}/api"
    if version == "2":
        description: Any = f"h3. Reported on a call\n*{f['customer']}*: {f['problem']}"
        priority = {"id": {"High": "2", "Medium": "3", "Low": "4"}[f["priority"]]}
    else:
        description = {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": f["problem"]}]}]}
        priority = {"name": f["priority"]}
    made = httpx.post(f"{api}/tickets/rest/api/{version}/issue", json={"fields": {
        "project": {"key": "SUP"}, "summary": f["summary"], "issuetype": {"name": "Bug"}, "priority": priority, "description": description}})
    assert made.status_code == 201, made.text
    key = made.json()["key"]
    case = httpx.post(f"{api}/crm/services/data/v62.0/sobjects/Case", json={
        "AccountId": f["account"], "Subject": f["summary"], "Priority": f["priority"], "Jira_Issue_Key__c": key})
    assert case.status_code == 201, case.text
    sent = httpx.post(f"{api}/chat/chat.postMessage", json={"channel": f["dm"], "text": f"Logged: <https://jira.example.com/browse/{key}|{key}>"})
    assert sent.json()["ok"], sent.text
    grade = r.grade()
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


# -- cross/log-customer-issue: the record-keeping a careful person adds ------------------------
async def _case_of(tools: McpTools, key: str) -> dict[str, Any]:
    found = await tools.call("salesforce_run_soql", query=f"SELECT Id, CaseNumber FROM Case WHERE Jira_Issue_Key__c = '{key}'")
    return found["records"][0]


async def _web_link_to_the_case(tools: McpTools, key: str) -> None:
    case = await _case_of(tools, key)
    await tools.call("jira_create_remote_issue_link", issue_key=key, url=f"https://acme.my.salesforce.com/lightning/r/Case/{case['Id']}/view",
                     title=f"Salesforce case {case['CaseNumber']}")


async def _comment_on_the_case(tools: McpTools, key: str) -> None:
    case = await _case_of(tools, key)
    await tools.call("salesforce_dml_records", operation="insert", objectName="CaseComment",
                     records=[{"ParentId": case["Id"], "CommentBody": f"Logged in Jira as {key}."}])


async def _note_on_the_case(tools: McpTools, key: str) -> None:
    case = await _case_of(tools, key)
    await tools.call("salesforce_dml_records", operation="insert", objectName="Note",
                     records=[{"ParentId": case["Id"], "Title": "Jira", "Body": f"Tracked as {key}."}])


@pytest.mark.parametrize("step", [_web_link_to_the_case, _comment_on_the_case, _note_on_the_case], ids=lambda s: s.__name__.strip("_"))
def test_linking_the_ticket_and_the_case_is_no_collateral(rollout: Make, step: Callable[[McpTools, str], Any]) -> None:
    """A web link from the ticket to the case (what the Jira-Salesforce connectors add), a
    comment or a note on the case naming the ticket: record-keeping, not a change beyond the task."""
    grade = _log(rollout(LOG, variant=2), step)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_another_key_hedged_in_a_note_on_the_case_fails_the_reply(rollout: Make) -> None:
    """What the agent writes in the CRM is read with its reply: a note offering another key is a hedge."""
    async def hedge(tools: McpTools, key: str) -> None:
        case = await _case_of(tools, key)
        await tools.call("salesforce_dml_records", operation="insert", objectName="Note",
                         records=[{"ParentId": case["Id"], "Title": "Jira", "Body": f"{key}, or maybe SUP-1."}])

    grade = _log(rollout(LOG, variant=2), hedge)
    assert not grade["passed"] and any("SUP-1" in c["detail"] for c in _failed_checks(grade)), json.dumps(grade)


# -- a draft of the agent's own, thrown away ----------------------------------------------------
async def _scratch(tools: McpTools, title: str = "scratch") -> str:
    sid = (await tools.call("create_spreadsheet", title=title))["spreadsheetId"]
    first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
    await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range="A1:B2", data=[["working", "out"], ["1", "2"]])
    return sid


@pytest.mark.parametrize("family", ["sheets/fill-formula-column-v1", "sheets/answer-from-sheet-v1", REPORT])
def test_a_scratch_spreadsheet_moved_to_the_trash_is_no_collateral(rollout: Make, family: str) -> None:
    """The task done, with a scratch spreadsheet of the agent's own made on the way: kept, it is a
    stray addition; moved to the trash, it is gone, as a message posted and deleted is."""
    r = rollout(family, seed=0)
    made: list[str] = []

    async def with_scratch(tools: McpTools) -> None:
        made.append(await _scratch(tools))
        await r.task.oracle(tools)

    r.run(with_scratch)
    grade = r.grade()
    assert not grade["passed"] and grade["collateral"], json.dumps(grade)
    _trash(r, made[0])
    grade = r.grade()
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


# -- cross/pipeline-report: a note under the report ---------------------------------------------
def _report_with(r: Rollout, rows: list[list[Any]]) -> dict[str, Any]:
    f = r.facts

    async def go(tools: McpTools) -> None:
        sid = (await tools.call("create_spreadsheet", title=f["title"]))["spreadsheetId"]
        first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(rows)}", data=[[*row, "", ""][:2] for row in rows])
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Total: ${f['total']:,.2f}")

    r.run(go)
    return r.grade()


@pytest.mark.parametrize("note", ["Source: Salesforce, open opportunities as of today", "Amounts in USD", "Total pipeline {total}"])
def test_a_note_under_the_report_passes(rollout: Make, note: str) -> None:
    """A line of text below the table (its source, its currency, the total in words) with
    nothing in column B is a note, not a group the data lacks."""
    r = rollout(REPORT, variant=3)
    f = r.facts
    grade = _report_with(r, [["Group", "Total"], *_lines(f), [], [note.format(total=f"${f['total']:,.2f}")]])
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_note_naming_another_figure_or_a_group_without_deals_fails(rollout: Make) -> None:
    """A note offering another figure is a stray figure in the report; a row naming a group the
    asked deals are not in (Closed Won in an open pipeline by stage) is still a wrong row, even
    with its total left blank."""
    r = rollout(REPORT, variant=0, where=lambda f: f["kind"] == "open" and f["grouping"] == "StageName")
    f = r.facts
    grade = _report_with(r, [["Stage", "Total"], *_lines(f), ["Note: won this year came to $1,234,567"]])
    assert not grade["passed"] and grade["reward"] <= 0.5, json.dumps(grade)
    r = rollout(REPORT, variant=0, where=lambda f: f["kind"] == "open" and f["grouping"] == "StageName")
    grade = _report_with(r, [["Stage", "Total"], *_lines(f), ["Closed Won"]])
    assert not grade["passed"] and grade["reward"] <= 0.5, json.dumps(grade)


# -- work filed, then put away at once: tickets families ------------------------------------------
async def _eng_keys(tools: McpTools) -> list[str]:
    found = await tools.call("jira_search", jql="project = ENG ORDER BY key DESC", limit=10, fields="summary")
    return [i["key"] for i in found["issues"]]


@pytest.mark.parametrize("family", ["tickets/escalate-to-engineering-v1", "tickets/split-story-into-subtasks-v1"])
@pytest.mark.parametrize("resolution", ["Won't Fix", "Done"])
def test_the_issues_filed_then_resolved_at_once_fail(rollout: Make, family: str, resolution: str) -> None:
    """The bug escalated, or the story's subtasks, filed as asked and then resolved straight
    away: the work is put away, not filed (it scored 1.0). Started (In Progress), it still passes."""
    from tasks.tickets._common import transition

    r = rollout(family, seed=1)

    async def file_then(tools: McpTools, move: str, how: str | None) -> None:
        before = set(await _eng_keys(tools))
        await r.task.oracle(tools)
        for key in [k for k in await _eng_keys(tools) if k not in before]:
            await transition(tools, key, move, how)

    r.run(lambda tools: file_then(tools, "Done", resolution))
    grade = r.grade()
    assert not grade["passed"] and grade["reward"] < 0.5 and any("put away" in c["detail"] for c in _failed_checks(grade)), json.dumps(grade)
    r = rollout(family, seed=1)
    r.run(lambda tools: file_then(tools, "Start Progress", None))
    grade = r.grade()
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_the_case_made_in_the_ui_with_the_account_picked_by_name_passes(rollout: Make, agent_url: str) -> None:
    """The case made in Salesforce's UI, its account found by the lookup's search text, not by an Id from SOQL."""
    r = rollout(LOG, variant=4)
    f = r.facts
    keys: list[str] = []

    async def ticket(tools: McpTools) -> None:
        keys.append(await _ticket(tools, f))

    r.run(ticket)
    made = httpx.post(f"{agent_url}/envs/{r.env.id}/crm/o/Case/new", headers={"Origin": agent_url}, data={
        "AccountId.search": f["customer"], "AccountId": "", "Subject": f["summary"], "Priority": f["priority"], "Status": "New",
        "Origin": "Phone", "Jira_Issue_Key__c": keys[0]})
    assert made.status_code == 303, made.text[:500]
    grade = r.do(lambda t: t.call("slack_post_message", channel_id=f["dm"], text=f"It's {keys[0]}"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


# -- a hidden tab is gone from view, as the trash is ----------------------------------------------
async def _hide(tools: McpTools, spreadsheet_id: str, sheet_id: int) -> None:
    await tools.call("batch_update", spreadsheet_id=spreadsheet_id, requests=[
        {"updateSheetProperties": {"properties": {"sheetId": sheet_id, "hidden": True}, "fields": "hidden"}}])


@pytest.mark.parametrize("family", ["sheets/summary-tab-v1", "sheets/pivot-summary-v1", "sheets/filter-by-rule-v1"])
def test_the_asked_tab_made_then_hidden_fails(rollout: Make, family: str) -> None:
    """The tab the task asks for, made right and then hidden: nobody opening the spreadsheet sees
    it (it scored 1.0)."""
    r = rollout(family, seed=0, where=lambda f: f.get("mode", "copy") == "copy")
    sid = _target(r)

    async def made_then_hidden(tools: McpTools) -> None:
        before = {s["properties"]["sheetId"] for s in (await tools.call("get_spreadsheet", spreadsheet_id=sid))["sheets"]}
        await r.task.oracle(tools)
        new = [s["properties"]["sheetId"] for s in (await tools.call("get_spreadsheet", spreadsheet_id=sid))["sheets"]
               if s["properties"]["sheetId"] not in before]
        assert len(new) == 1
        await _hide(tools, sid, new[0])

    grade = r.do(made_then_hidden)
    assert not grade["passed"] and grade["reward"] < 0.5 and any("hidden" in c["detail"] for c in _failed_checks(grade)), json.dumps(grade)


def test_the_right_report_on_a_hidden_tab_before_a_wrong_one_fails(rollout: Make) -> None:
    """The report right on a first tab that is then hidden, a wrong one on the tab a reader sees:
    the report is what a reader sees (it scored 1.0)."""
    r = rollout(REPORT, variant=3)
    f = r.facts

    async def hedge(tools: McpTools) -> None:
        sid = await _report(tools, f["title"], [["Group", "Total"], *_lines(f)])
        await tools.call("create_sheet", spreadsheet_id=sid, title="Report")
        wrong = [["Group", "Total"], *[[k, v * 2] for k, v in _lines(f)]]
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Report", range=f"A1:B{len(wrong)}", data=wrong)
        first = (await tools.call("get_spreadsheet", spreadsheet_id=sid))["sheets"][0]["properties"]["sheetId"]
        await _hide(tools, sid, first)
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Total: ${f['total']:,.2f}")

    grade = r.do(hedge)
    assert not grade["passed"] and _failed_checks(grade), json.dumps(grade)


def test_the_deals_on_a_hidden_tab_behind_the_report_pass(rollout: Make) -> None:
    """Working data hidden away behind the report is tidy, not a hedge."""
    r = rollout(REPORT, variant=3)
    f = r.facts

    async def tidy(tools: McpTools) -> None:
        sid = await _report(tools, f["title"], [["Group", "Total"], *_lines(f)])
        await tools.call("create_sheet", spreadsheet_id=sid, title="Deals")
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Deals", range="A1:B2", data=[["Deal", "Amount"], ["Acme renewal", "100"]])
        tabs = (await tools.call("get_spreadsheet", spreadsheet_id=sid))["sheets"]
        await _hide(tools, sid, next(t["properties"]["sheetId"] for t in tabs if t["properties"]["title"] == "Deals"))
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Total: ${f['total']:,.2f}")

    grade = r.do(tidy)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_report_in_other_careful_forms_passes(rollout: Make) -> None:
    """Groups in reverse order with currency text, a pivot-style header and a 'Grand Total' row
    computed by =SUM; and the report as one QUERY formula over a tab of the deals."""
    r = rollout(REPORT, variant=6)
    f = r.facts
    lines = _lines(f)[::-1]
    rows = [["Row Labels", "SUM of Amount"], *[[k, f"${v:,.2f}"] for k, v in lines], ["Grand Total", f"=SUM(B2:B{len(lines) + 1})"]]
    grade = _report_with(r, rows)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)

    r = rollout(REPORT, variant=6)
    field, where = f["grouping"], {"open": "IsClosed = false", "won": "IsWon = true AND CloseDate = THIS_YEAR"}[f["kind"]]

    async def query(tools: McpTools) -> None:
        deals = (await tools.call("salesforce_run_soql", query=f"SELECT {field}, Amount FROM Opportunity WHERE {where}"))["records"]
        group = (lambda d: d[field.split(".")[0]][field.split(".")[1]]) if "." in field else (lambda d: d[field])
        sid = (await tools.call("create_spreadsheet", title=f["title"]))["spreadsheetId"]
        first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
        await tools.call("create_sheet", spreadsheet_id=sid, title="Deals")
        data = [["Group", "Amount"], *[[str(group(d)), d["Amount"]] for d in deals]]
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Deals", range=f"A1:B{len(data)}", data=data)
        await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range="A1",
                         data=[["=QUERY(Deals!A1:B, \"select A, sum(B) where A is not null group by A label sum(B) 'Total'\", 1)"]])
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Total: ${f['total']:,.2f}")

    grade = r.do(query)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)
