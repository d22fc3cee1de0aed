"""cross/issue-export-v1 and cross/log-customer-issue-v1 under a second round of attack: what the
asker opens is graded, every tab of it in view and every link under a key; a case filed on
another customer's account is the wrong record, not a small slip. Correct work in the forms a
careful person uses (a tab grouping the same issues, a link under each key, a priority given by
its id, the key as the issue's link) still passes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rollouts import Rollout
from test_cross_issue_export import TASK, _export, _issues, _reply, _sheet, _url, _value
from test_cross_log_issue import _case, _solve

from graders.rubric import PASS_LINE
from officegym.validate import McpTools

LOG = "cross/log-customer-issue-v1"


def _failed(grade: dict[str, Any]) -> list[str]:
    return [c["name"] for c in grade["checks"] if not c["passed"]]


def _with_tab(f: dict[str, Any], jql: str, name: str) -> Callable[[McpTools], Any]:
    """The correct export, and a second tab in view listing what `jql` finds."""
    async def run(tools: McpTools) -> None:
        sid = await _export(f)(tools)
        found = await _issues(tools, jql)
        await tools.call("batch_update", spreadsheet_id=sid, requests=[{"addSheet": {"properties": {"title": name}}}])
        lines = [["Key", "Status"], *[[i["key"], i["status"]["name"]] for i in found]]
        await tools.call("update_cells", spreadsheet_id=sid, sheet=name, range=f"A1:B{len(lines)}", data=lines)

    return run


def test_a_second_tab_listing_other_issues_is_a_second_list(rollout: Callable[..., Rollout]) -> None:
    """The asker opens every tab in view: the asked list on the first and every issue of the
    project on a second is the list-everything hedge; a second tab of the same issues sorted by
    status is more of the same export."""
    r = rollout(TASK, variant=3, where=lambda f: f["kind"] in ("type", "unassigned", "since"))
    f = r.facts
    project = f["keys"][0].split("-")[0]
    grade = r.do(_with_tab(f, f"project = {project} ORDER BY key", "Everything"))
    assert not grade["passed"] and grade["reward"] < PASS_LINE, json.dumps(grade)
    assert any("it lists exactly" in n for n in _failed(grade)), json.dumps(grade)

    r = rollout(TASK, variant=3, where=lambda f: f["kind"] in ("type", "unassigned", "since"))
    f = r.facts
    grade = r.do(_with_tab(f, f"key IN ({', '.join(f['keys'])}) ORDER BY status", "By status"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_key_whose_link_opens_another_issue_names_two(rollout: Callable[..., Rollout]) -> None:
    """A HYPERLINK showing a matching key but opening another issue sends the reader elsewhere;
    one opening the issue it shows is the key, as Jira's own export links it."""
    def run(r: Rollout, target: Callable[[str], str]) -> dict[str, Any]:
        f = r.facts

        async def export(tools: McpTools) -> None:
            found = await _issues(tools, f["jql"])
            lines = [list(f["columns"])]
            for issue in found:
                row = [_value(issue, c) for c in f["columns"]]
                row[0] = f'=HYPERLINK("https://example.atlassian.net/browse/{target(issue["key"])}", "{issue["key"]}")'
                lines.append(row)
            sid = await _sheet(tools, f["title"], lines)
            await _reply(tools, f, _url(sid))

        return r.do(export)

    r = rollout(TASK, variant=4)
    others = [k for k in (i["key"] for i in r.call("jira_search", jql="ORDER BY key", limit=50, fields="summary")["issues"])
              if k not in r.facts["keys"]]
    grade = run(r, lambda key: others[0])
    assert not grade["passed"] and grade["reward"] < PASS_LINE, json.dumps(grade)
    assert "link opens" in json.dumps(grade), json.dumps(grade)

    grade = run(rollout(TASK, variant=4), lambda key: key)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_case_on_another_customers_account_is_the_wrong_record(rollout: Callable[..., Rollout]) -> None:
    """The right ticket, and its case filed on another customer's account (a look-alike name
    picked from a search): that customer's records now carry a problem they never raised, and
    the customer who did has no case. Below the pass line, as the whole job done for the wrong
    customer is."""
    r = rollout(LOG, variant=3)
    f = r.facts
    accounts = r.call("salesforce_run_soql", query="SELECT Id, Tier__c FROM Account")["records"]
    other = next(a["Id"] for a in accounts if a["Id"] != f["account"] and a["Tier__c"] == f["tier"])
    grade = _solve(r, AccountId=other)
    assert not grade["passed"] and grade["reward"] < PASS_LINE, json.dumps(grade)
    assert any(c["table"] == "crm_case" for c in grade["collateral"]), json.dumps(grade)


def test_a_priority_by_id_and_the_key_as_its_link_pass(rollout: Callable[..., Rollout]) -> None:
    """Jira takes a priority by its id as well as its name, and the key sent as the issue's
    link names it."""
    r = rollout(LOG, variant=4)
    f = r.facts

    async def by_id(tools: McpTools) -> None:
        level = {"Highest": "1", "High": "2", "Medium": "3", "Low": "4", "Lowest": "5"}[f["priority"]]
        made = await tools.call("jira_create_issue", project_key="SUP", summary=f["summary"], issue_type="Bug",
                                additional_fields=json.dumps({"priority": {"id": level}}))
        key = made["issue"]["key"]
        await _case(tools, f, key)
        await tools.call("slack_post_message", channel_id=f["dm"], text=f"Logged: https://example.atlassian.net/browse/{key}")

    grade = r.do(by_id)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_subtask_typed_as_the_ask_spells_it_is_its_type(rollout: Callable[..., Rollout]) -> None:
    """The ask says "Sub-tasks count too", and Jira takes "Sub-task" for its Subtask type: a Type
    column spelling it so shows the type Jira shows. Another type on the row is still wrong."""
    def run(spelt: str) -> dict[str, Any]:
        r = rollout(TASK, seed=1, variant=3, where=lambda f: "Type" in f["columns"] and f["kind"] in ("assignee", "sprint"))
        f = r.facts

        async def export(tools: McpTools) -> None:
            found = await _issues(tools, f["jql"])
            assert any(i["issue_type"]["name"] == "Subtask" for i in found)
            lines = [list(f["columns"])]
            for issue in found:
                row = [_value(issue, c) for c in f["columns"]]
                if issue["issue_type"]["name"] == "Subtask":
                    row[f["columns"].index("Type")] = spelt
                lines.append(row)
            sid = await _sheet(tools, f["title"], lines)
            await _reply(tools, f, _url(sid))

        return r.do(export)

    grade = run("Sub-task")
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)
    grade = run("Task")
    assert not grade["passed"] and any("columns" in n for n in _failed(grade)), json.dumps(grade)


def test_a_total_row_under_the_keys_is_a_note(rollout: Callable[..., Rollout]) -> None:
    """"Total" with the count under the Key column names no issue: a total row, free as the
    family says; a key that is no issue in Jira there is still a wrong row."""
    def run(last: Callable[[str, int], list[Any]]) -> dict[str, Any]:
        r = rollout(TASK, variant=3)
        f = r.facts

        async def export(tools: McpTools) -> None:
            found = await _issues(tools, f["jql"])
            lines = [list(f["columns"]), *[[_value(i, c) for c in f["columns"]] for i in found], [], last(found[0]["key"], len(found))]
            sid = await _sheet(tools, f["title"], lines)
            await _reply(tools, f, _url(sid))

        return r.do(export)

    for total in (lambda key, n: ["Total", n], lambda key, n: [f"Total: {n} issues"], lambda key, n: ["(none unassigned)"]):
        grade = run(total)
        assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)
    for wrong in (lambda key, n: [key.split("-")[0] + "-99999"], lambda key, n: [f"https://example.atlassian.net/browse/{key.split('-')[0]}-99999"]):
        grade = run(wrong)
        assert not grade["passed"] and grade["reward"] < PASS_LINE, json.dumps(grade)


def test_a_link_with_the_signed_in_account_is_a_link(rollout: Callable[..., Rollout]) -> None:
    """Google puts the signed-in account in a sheet's address (…/spreadsheets/u/0/d/<id>/edit)
    when a browser holds more than one: a link to the export all the same; the same address to
    another spreadsheet beside it is still a second one."""
    r = rollout(TASK, variant=3)
    f = r.facts
    grade = r.do(_export(f, reply=lambda sid: f"https://docs.google.com/spreadsheets/u/0/d/{sid}/edit#gid=0"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)

    r = rollout(TASK, variant=3)
    f = r.facts
    other = r.call("list_spreadsheets")[0]["id"]  # a seeded one
    grade = r.do(_export(f, reply=lambda sid: f"{_url(sid)} (and https://docs.google.com/spreadsheets/u/1/d/{other}/edit)"))
    assert not grade["passed"] and any("link" in n for n in _failed(grade)), json.dumps(grade)


def test_keys_named_inside_a_note_are_a_second_list(rollout: Callable[..., Rollout]) -> None:
    """A note under the export that names other issues in its text ("Maybe also: …") hedges
    as a second list does; a summary copied as Jira shows it names nothing beyond its row."""
    r = rollout(TASK, variant=5)
    f = r.facts

    async def hedge(tools: McpTools) -> None:
        found = await _issues(tools, f["jql"])
        everything = await _issues(tools, f["jql"].split(" ORDER BY")[0].split(" AND ")[0])
        extra = [i["key"] for i in everything if i["key"] not in f["keys"]][:5]
        assert extra
        lines = [list(f["columns"]), *[[_value(i, c) for c in f["columns"]] for i in found], [f"Maybe also: {', '.join(extra)}"]]
        sid = await _sheet(tools, f["title"], lines)
        await _reply(tools, f, f"Here it is: {_url(sid)}")

    grade = r.do(hedge)
    assert not grade["passed"] and grade["reward"] < PASS_LINE, json.dumps(grade)
