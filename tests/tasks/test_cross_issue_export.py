"""cross/issue-export-v1 across Jira, Sheets and Slack: the matching issues exported to a new
sheet with the asked columns and its link sent back pass, in the forms a careful person uses;
listing every issue, leaving one out, another title, a second link, a link to another sheet,
the export moved to the trash, an email for a name or an issue edited on the way fail."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from apps.sheets.operations import OPERATIONS
from graders.rubric import PASS_LINE
from officegym.core.ops import invoke
from officegym.gym import Gym
from officegym.validate import McpTools
from tasks.tickets._common import search_all

TASK = "cross/issue-export-v1"
FIELDS = "summary,status,assignee,priority,issuetype"


def _value(issue: dict[str, Any], column: str, email: bool = False) -> str:
    if column == "Key":
        return issue["key"]
    if column == "Summary":
        return issue["summary"]
    if column == "Type":
        return issue["issue_type"]["name"]
    if column == "Assignee":
        who = issue.get("assignee") or {}
        return (who.get("email") if email else who.get("display_name")) or ""
    return issue[column.lower()]["name"]


async def _issues(tools: McpTools, jql: str) -> list[dict[str, Any]]:
    return await search_all(tools, jql, FIELDS)


async def _sheet(tools: McpTools, title: str, lines: list[list[Any]]) -> str:
    sid = (await tools.call("create_spreadsheet", title=title))["spreadsheetId"]
    first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
    width = max(len(line) for line in lines)
    await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:{chr(64 + width)}{len(lines)}", data=lines)
    return sid


def _url(sid: str) -> str:
    return f"https://docs.google.com/spreadsheets/d/{sid}/edit"


async def _reply(tools: McpTools, facts: dict[str, Any], text: str) -> None:
    if facts["place"] == "thread":
        history = await tools.call("slack_get_channel_history", channel_id=facts["channel"], limit=20)
        ask = next(m["ts"] for m in history["messages"] if m["user"] == facts["asker"] and "Google Sheet" in m["text"])
        await tools.call("slack_reply_to_thread", channel_id=facts["channel"], thread_ts=ask, text=text)
    else:
        await tools.call("slack_post_message", channel_id=facts["dm"], text=text)


def _export(facts: dict[str, Any], jql: str | None = None, title: str | None = None, email: bool = False,
            reply: Callable[[str], str] | None = None, keep: Callable[[list[dict]], list[dict]] = lambda found: found) -> Callable:
    """A correct export (unless told otherwise): the asked columns, one row per issue the JQL
    finds, under the title, and the link in the reply."""
    async def run(tools: McpTools) -> str:
        found = keep(await _issues(tools, jql or facts["jql"]))
        lines = [list(facts["columns"]), *[[_value(i, c, email) for c in facts["columns"]] for i in found]]
        sid = await _sheet(tools, title or facts["title"], lines)
        await _reply(tools, facts, reply(sid) if reply else f"Here it is: {_url(sid)}")
        return sid

    return run


def _failed(grade: dict[str, Any]) -> list[str]:
    return [c["name"] for c in grade["checks"] if not c["passed"]]


def test_the_instance_is_what_jira_says(rollout: Callable[..., Rollout]) -> None:
    """The expected issues are what Jira's own search finds for the ask, and the ask names the
    title and the columns the grader reads."""
    kinds = set()
    for variant in range(0, 24, 2):
        r = rollout(TASK, variant=variant)
        f = r.facts
        kinds.add(f["kind"])
        found = r.call("jira_search", jql=f["jql"], limit=50, fields="summary")
        assert sorted(i["key"] for i in found["issues"]) == sorted(f["keys"]) and found["total"] == len(f["keys"])
        asked = json.dumps(r.call("slack_get_channel_history", channel_id=f["channel"], limit=5))
        assert f["title"] in asked and ", ".join(f["columns"]) in asked
    assert len(kinds) >= 4, kinds


def test_every_instance_is_a_proper_subset(rollout: Callable[..., Rollout]) -> None:
    """Each instance asks for a few issues (two to twenty), never every issue of what it narrows."""
    for variant in range(12):
        f = rollout(TASK, seed=0, variant=variant).facts
        assert 2 <= len(f["keys"]) <= 20 and len(set(f["keys"])) == len(f["keys"]), f


@pytest.mark.parametrize("place", ["dm", "thread"])
def test_the_oracle_passes_and_doing_nothing_scores_nothing(rollout: Callable[..., Rollout], place: str) -> None:
    r = rollout(TASK, where=lambda f: f["place"] == place)
    assert r.grade()["reward"] == 0.0
    grade = r.oracle_then()
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_correct_export_done_differently_passes(rollout: Callable[..., Rollout]) -> None:
    """Another query, the columns in another order under Jira's CSV spellings ("Issue key",
    "Issue Type"), keys as HYPERLINK formulas, a title line above and a count below, nobody
    assigned left blank, the title in other case, a draft made first and moved to the trash,
    and the link with its tab (#gid=0) as a Slack link in a thread under the ask."""
    r = rollout(TASK, variant=1, where=lambda f: f["place"] == "dm" and "Assignee" in f["columns"])
    f = r.facts
    spelt = {"Key": "Issue key", "Type": "Issue Type"}
    columns = list(reversed(f["columns"]))

    async def export(tools: McpTools) -> None:
        draft = await _sheet(tools, f["title"], [["Key"], ["nothing yet"]])
        invoke(r.gym.store, r.env, OPERATIONS, OPERATIONS["sheets.files.update"], {"fileId": draft, "resource": {"trashed": True}},
               face="rest", tool="PATCH /drive/v3/files/{fileId}")
        found = await _issues(tools, "key IN (" + ", ".join(f["keys"]) + ")")
        rows = []
        for issue in sorted(found, key=lambda i: i["summary"]):
            row = [_value(issue, c) for c in columns]
            row[columns.index("Key")] = f'=HYPERLINK("https://example.atlassian.net/browse/{issue["key"]}", "{issue["key"]}")'
            rows.append(row)
        lines = [[f"Export of {f['filter']}"], [spelt.get(c, c) for c in columns], *rows, [], ["", f"{len(rows)} issues"]]
        sid = await _sheet(tools, f["title"].lower(), lines)
        history = await tools.call("slack_get_channel_history", channel_id=f["dm"], limit=5)
        ask = next(m["ts"] for m in history["messages"] if m["user"] == f["asker"])
        await tools.call("slack_reply_to_thread", channel_id=f["dm"], thread_ts=ask,
                         text=f"<https://docs.google.com/spreadsheets/d/{sid}#gid=0|{f['title']}> :white_check_mark:")

    grade = r.do(export)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_drive_link_and_the_sheet_pages_own_address_pass(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=2)
    f = r.facts
    grade = r.do(_export(f, reply=lambda sid: f"https://drive.google.com/open?id={sid} (or in the browser: "
                                               f"http://127.0.0.1:8000/envs/{r.env.id}/sheets/d/{sid}, id {sid})"))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


@pytest.mark.parametrize("attack", ["every issue", "one missing", "one twice", "a second list beside", "another title"])
def test_a_wrong_export_fails(rollout: Callable[..., Rollout], attack: str) -> None:
    r = rollout(TASK, variant=3)
    f = r.facts
    scope = {"type": "project = {p}", "unassigned": "project = {p}", "since": "project = {p}"}.get(f["kind"])
    if attack == "every issue":  # everything the ask narrows down: the whole project, or every open issue
        everything = scope.format(p=f["keys"][0].split("-")[0]) if scope else "resolution = EMPTY OR sprint in openSprints()"
        step = _export(f, jql=everything)
    elif attack == "one missing":
        step = _export(f, keep=lambda found: found[:-1])
    elif attack == "one twice":
        step = _export(f, keep=lambda found: [*found, found[0]])
    elif attack == "a second list beside":
        async def step(tools: McpTools) -> None:
            found = await _issues(tools, f["jql"])
            others = await _issues(tools, f"key NOT IN ({', '.join(f['keys'])}) ORDER BY key")
            lines = [[*f["columns"], "See also"],
                     *[[*(_value(i, c) for c in f["columns"]), o["key"]] for i, o in zip(found, others, strict=False)]]
            sid = await _sheet(tools, f["title"], lines)
            await _reply(tools, f, _url(sid))
    else:
        step = _export(f, title=f"{f['title']} (export)")
    grade = r.do(step)
    assert not grade["passed"] and grade["reward"] < PASS_LINE, (attack, json.dumps(grade))


@pytest.mark.parametrize("attack", ["two links", "another sheet's link", "no link, only the title"])
def test_a_wrong_reply_fails(rollout: Callable[..., Rollout], attack: str) -> None:
    r = rollout(TASK, variant=4)
    f = r.facts
    other = r.call("list_spreadsheets")[0]["id"]  # a seeded spreadsheet

    def reply(sid: str) -> str:
        if attack == "no link, only the title":
            return f"Done, it's the \"{f['title']}\" sheet in your Drive."
        return f"{_url(other)} and {_url(sid)}" if attack == "two links" else f"Here: {_url(other)}"

    grade = r.do(_export(f, reply=reply))
    assert not grade["passed"] and _failed(grade) == [next(c["name"] for c in grade["checks"] if "link" in c["name"])], json.dumps(grade)


def test_the_export_moved_to_the_trash_is_no_export(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, variant=5)
    f = r.facts

    async def trash(tools: McpTools) -> None:
        sid = await _export(f)(tools)
        invoke(r.gym.store, r.env, OPERATIONS, OPERATIONS["sheets.files.update"], {"fileId": sid, "resource": {"trashed": True}},
               face="rest", tool="PATCH /drive/v3/files/{fileId}")

    grade = r.do(trash)
    assert not grade["passed"] and grade["reward"] == 0.0, json.dumps(grade)


def test_an_email_for_the_assignee_is_not_the_name_asked(rollout: Callable[..., Rollout]) -> None:
    """The ask says values as Jira shows them, and Jira shows a person by their name."""
    def assigned(f: dict[str, Any]) -> bool:
        return "Assignee" in f["columns"] and f["kind"] in ("assignee", "type", "sprint")

    r = rollout(TASK, variant=6, where=assigned)
    f = r.facts
    grade = r.do(_export(f, email=True))
    if not any(c["passed"] is False for c in grade["checks"]):  # every matching issue unassigned: nothing to show
        pytest.skip("no assigned issue in this instance")
    assert not grade["passed"] and _failed(grade) == [next(c["name"] for c in grade["checks"] if "columns" in c["name"])], json.dumps(grade)


def test_editing_an_issue_on_the_way_costs_the_export(rollout: Callable[..., Rollout]) -> None:
    """The export reads Jira; an issue edited on the way (here one of the matching ones retitled)
    is collateral damage that takes the reward below the pass line."""
    r = rollout(TASK, variant=7)
    f = r.facts

    async def retitle(tools: McpTools) -> None:
        await tools.call("jira_update_issue", issue_key=f["keys"][0], fields=json.dumps({"summary": "Exported"}))

    grade = r.oracle_then(retitle)
    assert not grade["passed"] and grade["reward"] < PASS_LINE, json.dumps(grade)
    assert any(c["table"] == "tickets_issues" for c in grade["collateral"]), json.dumps(grade)


def test_acknowledging_the_ask_in_the_channel_with_a_reaction_is_no_damage(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, where=lambda f: f["place"] == "thread")
    f = r.facts

    async def eyes(tools: McpTools) -> None:
        history = await tools.call("slack_get_channel_history", channel_id=f["channel"], limit=20)
        ask = next(m["ts"] for m in history["messages"] if m["user"] == f["asker"] and "Google Sheet" in m["text"])
        await tools.call("slack_add_reaction", channel_id=f["channel"], timestamp=ask, reaction="eyes")

    grade = r.do(eyes, _export(f))
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_reply_in_the_channel_instead_of_the_thread_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(TASK, where=lambda f: f["place"] == "thread")
    f = r.facts

    async def in_channel(tools: McpTools) -> None:
        found = await _issues(tools, f["jql"])
        sid = await _sheet(tools, f["title"], [list(f["columns"]), *[[_value(i, c) for c in f["columns"]] for i in found]])
        await tools.call("slack_post_message", channel_id=f["channel"], text=_url(sid))

    grade = r.do(in_channel)
    assert not grade["passed"], json.dumps(grade)
    assert "nothing from you" in next(c["detail"] for c in grade["checks"] if "link" in c["name"]), json.dumps(grade)


def test_a_restarted_gym_grades_the_thread_the_same(rollout: Callable[..., Rollout]) -> None:
    """After a restart the instance is sampled again without its setup: the ask's thread is read
    back from the env, so the reply in it still counts."""
    from officegym.gym import Gym

    r = rollout(TASK, where=lambda f: f["place"] == "thread")
    before = r.oracle_then()
    again = Gym(envs_dir=r.gym.store.root, db_url=getattr(r.gym.store.backend, "url", None))
    try:
        assert again.get(r.env.id).task is not r.env.task
        assert again.grade(r.env.id) == before and before["reward"] == 1.0, json.dumps(before)
    finally:
        again.close()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_ask_of_the_pool_is_what_two_searches_find(gym: Gym, seed: int) -> None:
    """Every filter the family may ask for, on each seed: the issues the grader expects are
    exactly what Jira finds for the ask, by the oracle's query and by another one for the same
    issues (statusCategory or resolution, a name or an accountId, openSprints() or the sprint's name)."""
    from seed_data.actor import acting_person
    from tasks import registry
    from tasks.base import SampleContext

    family, env = registry.get(TASK), gym.create(None, seed=seed)
    try:
        company = gym.template(seed).company
        with gym.store.session(env) as db:
            pool = family._filters(SampleContext(company=company, actor=acting_person(company), db=db, cache={}))
        assert len(pool) >= 10 and len({f.kind for f in pool}) >= 4

        async def search(tools: McpTools) -> None:
            for f in pool:
                for jql in (f.jql, f.other_jql):
                    found = sorted(i["key"] for i in await search_all(tools, jql, "summary"))
                    assert found == sorted(f.keys), (f.name, jql)

        async def go() -> None:
            async with gym.mcp_client(env.id) as client:
                await search(McpTools(client))

        asyncio.run(go())
    finally:
        gym.delete(env.id)


def test_keys_as_issue_links_and_an_extra_parent_column_pass(rollout: Callable[..., Rollout]) -> None:
    """A key pasted as the issue's link (…/browse/KEY) names that issue, and an extra column
    naming each issue's parent is more than asked, not a second list."""
    r = rollout(TASK, seed=0, where=lambda f: f["kind"] == "sprint" and f["place"] == "dm")
    f = r.facts

    async def export(tools: McpTools) -> None:
        found = await search_all(tools, f["jql"], FIELDS + ",parent")
        assert any(i.get("parent") for i in found) or pytest.skip("no sub-task among the matches")
        lines = [[*f["columns"], "Parent"]]
        for issue in found:
            row = [_value(issue, c) for c in f["columns"]]
            row[0] = f"https://example.atlassian.net/browse/{issue['key']}"
            lines.append([*row, (issue.get("parent") or {}).get("key", "")])
        sid = await _sheet(tools, f["title"], lines)
        await _reply(tools, f, _url(sid))

    grade = r.do(export)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


def test_a_scratch_sheet_thrown_away_is_free_and_a_hidden_tab_is_no_export(rollout: Callable[..., Rollout]) -> None:
    """A scratch spreadsheet of the agent's own moved to the trash is gone, not damage; a tab a
    reader cannot see is not the export (the right list hidden behind a wrong one fails)."""
    r = rollout(TASK, variant=5)
    f = r.facts

    async def with_scratch(tools: McpTools) -> None:
        scratch = await _sheet(tools, "scratch work", [["Key"], ["X-1"]])
        invoke(r.gym.store, r.env, OPERATIONS, OPERATIONS["sheets.files.update"], {"fileId": scratch, "resource": {"trashed": True}},
               face="rest", tool="PATCH /drive/v3/files/{fileId}")
        await _export(f)(tools)

    grade = r.do(with_scratch)
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)

    r = rollout(TASK, variant=5)
    f = r.facts

    async def hidden_behind_a_decoy(tools: McpTools) -> None:
        sid = await _export(f)(tools)
        await tools.call("batch_update", spreadsheet_id=sid, requests=[
            {"addSheet": {"properties": {"title": "Decoy", "index": 1}}},
            {"updateSheetProperties": {"properties": {"sheetId": 0, "hidden": True}, "fields": "hidden"}}])
        await tools.call("update_cells", spreadsheet_id=sid, sheet="Decoy", range="A1:A2", data=[[f["columns"][0]], ["SUP-1"]])

    grade = r.do(hidden_behind_a_decoy)
    assert not grade["passed"] and "it lists exactly" in " ".join(_failed(grade)), json.dumps(grade)
