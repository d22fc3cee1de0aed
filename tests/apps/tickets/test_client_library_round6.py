"""Two ways the `jira` package plans work that Jira Cloud accepts, over real HTTP: moving
issues under an epic with the agile API (`add_issues_to_epic`: POST /rest/agile/1.0/epic/{epic}/issue,
a 404 here) and putting an issue in a sprint by setting its Sprint field (customfield_10020)
on an edit or a creation (a 400 "cannot be set" here). Correct work done either way scored 0."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from jira import JIRA, JIRAError

from officegym.core.env_store import Env
from officegym.gym import Gym

SPRINT = "customfield_10020"


def client(agent_url: str, env: Env) -> JIRA:
    return JIRA(server=f"{agent_url}/envs/{env.id}/api/tickets")


def parent_of(jira: JIRA, key: str) -> str | None:
    parent = getattr(jira.issue(key, fields="parent").fields, "parent", None)
    return parent.key if parent is not None else None


def backlog_story(jira: JIRA) -> Any:
    return jira.search_issues("project = ENG AND issuetype = Story AND resolution = EMPTY AND sprint IS EMPTY ORDER BY key ASC", maxResults=1)[0]


def future_sprint(jira: JIRA) -> Any:
    board = jira.boards(projectKeyOrID="ENG")[0]
    return jira.sprints(board.id, state="future")[0]


def sprint_keys(jira: JIRA, sprint_id: int) -> set[str]:
    return {i.key for i in jira.search_issues(f"sprint = {sprint_id}", maxResults=False)}


def test_add_issues_to_epic_puts_them_under_it(agent_url: str, env: Env) -> None:
    jira = client(agent_url, env)
    epic = jira.search_issues("project = ENG AND issuetype = Epic ORDER BY key ASC", maxResults=1)[0]
    bug = jira.search_issues(f"project = ENG AND issuetype = Bug AND parent != {epic.key} ORDER BY key ASC", maxResults=1)[0]
    jira.add_issues_to_epic(epic.id, [bug.key])  # by the epic's id, as the client's docs show
    assert parent_of(jira, bug.key) == epic.key
    api = f"{agent_url}/envs/{env.id}/api/tickets/rest/agile/1.0"
    assert httpx.post(f"{api}/epic/none/issue", json={"issues": [bug.key]}).status_code == 204
    assert parent_of(jira, bug.key) is None
    assert httpx.post(f"{api}/epic/{epic.key}/issue", json={"issues": [bug.id]}).status_code == 204, "by key and issue id"
    assert parent_of(jira, bug.key) == epic.key

    missing = httpx.post(f"{api}/epic/{epic.key}/issue", json={"issues": ["ENG-99999"]})
    assert missing.status_code == 404 and missing.json()["errorMessages"]
    not_epic = httpx.post(f"{api}/epic/{bug.key}/issue", json={"issues": [epic.key]})
    assert not_epic.status_code == 400 and "not an Epic" in str(not_epic.json())
    assert httpx.post(f"{api}/epic/{epic.key}/issue", json={"issue": bug.key}).status_code == 400


def test_a_bulk_move_with_one_refused_issue_moves_none(agent_url: str, env: Env, gym: Gym) -> None:
    """Moving issues to an epic or the backlog is all or nothing: one unknown key in the list
    is a 404 and the issues before it stay where they were (they were moved one by one)."""
    jira = client(agent_url, env)
    epic = jira.search_issues("project = ENG AND issuetype = Epic ORDER BY key ASC", maxResults=1)[0]
    bugs = jira.search_issues(f"project = ENG AND issuetype = Bug AND parent != {epic.key} ORDER BY key ASC", maxResults=2)
    parents = {b.key: parent_of(jira, b.key) for b in bugs}
    api = f"{agent_url}/envs/{env.id}/api/tickets/rest/agile/1.0"
    writes = len(gym.events(env.id))
    refused = httpx.post(f"{api}/epic/{epic.key}/issue", json={"issues": [b.key for b in bugs] + ["ENG-99999"]})
    assert refused.status_code == 404 and "ENG-99999" in str(refused.json())
    assert {b.key: parent_of(jira, b.key) for b in bugs} == parents
    assert [e["is_error"] for e in gym.events(env.id)[writes:]] == [True], "one failed call in the trajectory, nothing written"
    too_many = httpx.post(f"{api}/backlog/issue", json={"issues": [bugs[0].key] * 51})
    assert too_many.status_code == 400 and "50" in str(too_many.json())


def test_the_sprint_field_moves_an_issue_into_a_sprint_and_back(agent_url: str, env: Env) -> None:
    jira = client(agent_url, env)
    story, sprint = backlog_story(jira), future_sprint(jira)
    story.update(fields={SPRINT: sprint.id})
    assert story.key in sprint_keys(jira, sprint.id)
    history = jira.issue(story.key, expand="changelog").changelog.histories
    assert any(item.field == "Sprint" and item.toString == sprint.name for h in history for item in h.items)

    story.update(fields={SPRINT: None})
    assert story.key not in sprint_keys(jira, sprint.id), "null sends it back to the backlog"
    for shape in (str(sprint.id), {"id": sprint.id}, [sprint.id]):
        story.update(fields={SPRINT: shape})
        assert story.key in sprint_keys(jira, sprint.id), shape
        story.update(fields={SPRINT: []})
        assert story.key not in sprint_keys(jira, sprint.id)

    with pytest.raises(JIRAError) as bad:
        story.update(fields={SPRINT: "next one"})
    assert bad.value.status_code == 400 and SPRINT in bad.value.response.json()["errors"]
    with pytest.raises(JIRAError) as unknown:
        story.update(fields={SPRINT: 987654})
    assert unknown.value.status_code == 404


def test_a_new_issue_can_be_created_in_a_sprint(agent_url: str, env: Env) -> None:
    jira = client(agent_url, env)
    sprint = future_sprint(jira)
    made = jira.create_issue(fields={"project": {"key": "ENG"}, "summary": "Rotate the signing keys", "issuetype": {"name": "Task"}, SPRINT: sprint.id})
    assert made.key in sprint_keys(jira, sprint.id)


def test_rich_text_keeps_the_words_of_smart_links_mentions_and_dates(agent_url: str, env: Env) -> None:
    """A v3 comment whose issue key is a smart link (what Jira's editor makes of a pasted key), with a
    mention, an emoji, a date and a status lozenge: the words are kept (the smart link and the mention were
    dropped, so 'Escalated to engineering as ENG-61' read 'Escalated to engineering as .')."""
    jira = client(agent_url, env)
    who = jira.issue("SUP-1").fields.reporter
    doc = {"type": "doc", "version": 1, "content": [
        {"type": "paragraph", "content": [
            {"type": "text", "text": "Escalated to engineering as "}, {"type": "inlineCard", "attrs": {"url": "https://aurera.atlassian.net/browse/ENG-41"}},
            {"type": "text", "text": ", cc "}, {"type": "mention", "attrs": {"id": who.accountId, "text": f"@{who.displayName}"}},
            {"type": "text", "text": " "}, {"type": "emoji", "attrs": {"shortName": ":thumbsup:", "text": "👍"}}]},
        {"type": "paragraph", "content": [
            {"type": "text", "text": "Due "}, {"type": "date", "attrs": {"timestamp": "1788220800000"}},
            {"type": "text", "text": " "}, {"type": "status", "attrs": {"text": "BLOCKED", "color": "red"}}]}]}
    made = httpx.post(f"{agent_url}/envs/{env.id}/api/tickets/rest/api/3/issue/SUP-1/comment", json={"body": doc})
    assert made.status_code == 201, made.text
    text = jira.comments("SUP-1")[-1].body  # v2 answers plain text
    assert text == f"Escalated to engineering as https://aurera.atlassian.net/browse/ENG-41, cc @{who.displayName} 👍\n\nDue 2026-09-01 BLOCKED"


def test_sprint_planning_reads_and_the_backlog_move(agent_url: str, env: Env) -> None:
    """j.sprint(id) was a 405, the board's backlog and j.move_to_backlog 404s."""
    jira = client(agent_url, env)
    sprint = future_sprint(jira)
    assert jira.sprint(sprint.id).name == sprint.name and jira.sprint(sprint.id).state == "future"
    board = jira.boards(projectKeyOrID="ENG")[0]
    agile = f"{agent_url}/envs/{env.id}/api/tickets/rest/agile/1.0"
    backlog = httpx.get(f"{agile}/board/{board.id}/backlog", params={"fields": "summary,customfield_10016", "maxResults": 100}).json()
    by_jql = {i.key for i in jira.search_issues("project = ENG AND statusCategory != Done AND (sprint IS EMPTY OR sprint NOT IN openSprints())",
                                                maxResults=False)}
    assert {i["key"] for i in backlog["issues"]} == by_jql and backlog["total"] == len(by_jql) > 0
    assert set(backlog["issues"][0]["fields"]) == {"summary", "customfield_10016"}
    everything = httpx.get(f"{agile}/board/{board.id}/issue", params={"maxResults": 1}).json()
    assert everything["total"] == len(jira.search_issues("project = ENG", maxResults=False))

    story = backlog_story(jira)
    jira.add_issues_to_sprint(sprint.id, [story.key])
    assert story.key in sprint_keys(jira, sprint.id)
    assert story.key not in {i["key"] for i in httpx.get(f"{agile}/board/{board.id}/backlog", params={"maxResults": 100}).json()["issues"]}
    jira.move_to_backlog([story.key])
    assert story.key not in sprint_keys(jira, sprint.id)
    with pytest.raises(JIRAError) as missing:
        jira.sprint(987654)
    assert missing.value.status_code == 404


def test_a_support_tickets_salesforce_case_is_a_remote_link(agent_url: str, env: Env) -> None:
    jira = client(agent_url, env)
    ticket = jira.search_issues('project = SUP AND "Salesforce Case" IS NOT EMPTY ORDER BY key ASC', maxResults=1, fields="customfield_10050")[0]
    links = jira.remote_links(ticket.key)
    assert [link.object.title for link in links] == [f"Salesforce Case {ticket.fields.customfield_10050}"]
    assert "salesforce.com" in links[0].object.url


def test_editmeta_names_what_an_edit_may_set_and_errors_name_fields_by_their_ids(agent_url: str, env: Env) -> None:
    jira = client(agent_url, env)
    meta = jira.editmeta("ENG-40")["fields"]
    assert {"summary", "priority", "labels", "components", "customfield_10016", SPRINT} <= set(meta) and "project" not in meta
    assert meta["labels"]["operations"] == ["add", "set", "remove"] and meta["summary"]["required"]
    assert {p["name"] for p in meta["priority"]["allowedValues"]} >= {"Highest", "Lowest"}
    assert "customfield_10050" in jira.editmeta("SUP-1")["fields"]
    with pytest.raises(JIRAError) as refused:
        jira.issue("ENG-40").update(fields={"colour": "red"})
    message = refused.value.response.json()["errors"]["colour"]
    assert "customfield_10016 (Story Points)" in message and f"{SPRINT} (Sprint)" in message and "story_points" not in message
