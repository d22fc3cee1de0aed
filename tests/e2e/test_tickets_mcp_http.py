"""The tickets tool servers over real streamable HTTP with the official MCP SDK client: the
reference toolset named and shaped like mcp-atlassian's Jira tools, a triage-to-resolution
flow through them, errors in Jira's shape that change nothing, every call in the trajectory,
and the official (Atlassian remote server) toolset driven by its cloudId."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client
from mcp_types import CallToolResult

from officegym.core.env_store import Env

# mcp-atlassian's Jira tools: name → required arguments
REFERENCE_TOOLS: dict[str, set[str]] = {
    "jira_get_issue": {"issue_key"}, "jira_search": {"jql"}, "jira_get_project_issues": {"project_key"},
    "jira_create_issue": {"project_key", "summary", "issue_type"}, "jira_batch_create_issues": {"issues"},
    "jira_update_issue": {"issue_key", "fields"}, "jira_delete_issue": {"issue_key"}, "jira_add_comment": {"issue_key", "body"},
    "jira_edit_comment": {"issue_key", "comment_id", "body"}, "jira_get_transitions": {"issue_key"},
    "jira_transition_issue": {"issue_key", "transition_id"}, "jira_search_fields": set(), "jira_get_user_profile": {"user_identifier"},
    "jira_get_all_projects": set(), "jira_get_project_issue_types": {"project_key"}, "jira_get_project_components": {"project_key"},
    "jira_get_project_versions": {"project_key"}, "jira_get_agile_boards": set(), "jira_get_sprints_from_board": {"board_id"},
    "jira_get_sprint_issues": {"sprint_id"}, "jira_add_issues_to_sprint": {"sprint_id", "issue_keys"}, "jira_get_link_types": set(),
    "jira_create_issue_link": {"link_type", "inward_issue_key", "outward_issue_key"}, "jira_link_to_epic": {"issue_key", "epic_key"},
    "jira_get_issue_watchers": {"issue_key"}, "jira_add_watcher": {"issue_key", "user_identifier"}, "jira_add_worklog": {"issue_key", "time_spent"},
}
OFFICIAL_TOOLS = {
    "getAccessibleAtlassianResources", "atlassianUserInfo", "search", "fetch", "getJiraIssue", "searchJiraIssuesUsingJql", "createJiraIssue",
    "editJiraIssue", "transitionJiraIssue", "getTransitionsForJiraIssue", "lookupJiraAccountId", "getJiraIssueTypeMetaWithFields",
    "listJiraProjects", "listJiraProjectIssueTypesMetadata", "addOrEditJiraIssueComment", "getIssueLinkTypes", "createIssueLink",
    "addWorklogToJiraIssue",
}


def mcp_url(live_server: Any, env_id: str, app: str = "tickets") -> str:
    return f"{live_server.base_url}/envs/{env_id}/mcp/{app}"


def ok(result: CallToolResult) -> Any:
    assert len(result.content) == 1 and result.content[0].type == "text", result.content
    data = json.loads(result.content[0].text)
    assert result.is_error is False, data
    return data


def failed(result: CallToolResult) -> dict[str, Any]:
    assert result.is_error is True, result
    data = json.loads(result.content[0].text)
    assert set(data) == {"errorMessages", "errors"}, data
    return data


async def test_reference_tools_are_mcp_atlassians(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(REFERENCE_TOOLS) <= set(tools), sorted(set(REFERENCE_TOOLS) - set(tools))
    for name, tool in tools.items():
        assert name.startswith("jira_") and tool.description, name
        assert tool.annotations is not None and tool.annotations.read_only_hint is not None, name
        assert "style" not in tool.input_schema["properties"] and "cloud_id" not in tool.input_schema["properties"], name
    for name, required in REFERENCE_TOOLS.items():
        assert set(tools[name].input_schema.get("required", [])) == required, name
    assert tools["jira_search"].input_schema["properties"]["limit"]["type"] == "integer"
    assert tools["jira_create_issue"].input_schema["properties"]["additional_fields"].get("anyOf") or True
    assert tools["jira_get_issue"].annotations.read_only_hint is True and tools["jira_delete_issue"].annotations.destructive_hint is True


async def test_triage_to_resolution_through_the_reference_tools(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        found = ok(await client.call_tool("jira_search", {"jql": "project = SUP AND status = 'To Do' ORDER BY created DESC", "limit": 5}))
        assert set(found) == {"total", "start_at", "max_results", "issues"} and 0 < len(found["issues"]) <= 5
        assert all(i["status"]["name"] == "To Do" for i in found["issues"])
        # mcp-atlassian's default fields: no comments, links or subtasks unless asked for
        assert set(found["issues"][0]) == {"id", "key", "summary", "description", "status", "assignee", "reporter", "labels", "priority",
                                           "created", "updated", "issue_type"}
        issue = ok(await client.call_tool("jira_get_issue", {"issue_key": "SUP-1"}))
        assert {"id", "key", "summary", "url", "description", "status", "issue_type", "priority", "assignee", "reporter", "labels",
                "created", "updated", "comments"} <= set(issue)
        assert issue["url"].endswith("/browse/SUP-1")

        created = ok(await client.call_tool("jira_create_issue", {
            "project_key": "SUP", "summary": "Customer cannot download invoices", "issue_type": "Bug", "description": "Seen since Monday",
            "components": "Billing", "additional_fields": json.dumps({"priority": {"name": "High"}, "labels": ["billing", "customer"]})}))
        assert created["message"] == "Issue created successfully"
        key = created["issue"]["key"]
        assert created["issue"]["priority"] == {"name": "High"} and created["issue"]["components"] == ["Billing"]

        me = ok(await client.call_tool("jira_get_user_profile", {"user_identifier": created["issue"]["reporter"]["account_id"]}))
        assigned = ok(await client.call_tool("jira_update_issue", {"issue_key": key, "fields": json.dumps({"assignee": me["email"]})}))
        assert assigned["issue"]["assignee"]["email"] == me["email"]

        moves = ok(await client.call_tool("jira_get_transitions", {"issue_key": key}))
        assert isinstance(moves, list) and {"id", "name", "to_status"} == set(moves[0])
        start = next(m for m in moves if m["name"] == "Start Progress")
        ok(await client.call_tool("jira_transition_issue", {"issue_key": key, "transition_id": start["id"]}))
        refused = failed(await client.call_tool("jira_transition_issue", {"issue_key": key, "transition_id": "Resolve Issue"}))
        assert "resolution" in refused["errors"]
        done = ok(await client.call_tool("jira_transition_issue", {"issue_key": key, "transition_id": "resolve issue",
                                                                   "fields": json.dumps({"resolution": {"name": "Fixed"}}), "comment": "Fixed in 4.2"}))
        assert done["issue"]["status"]["name"] == "Done" and done["issue"]["resolution"] == {"name": "Fixed"}

        comment = ok(await client.call_tool("jira_add_comment", {"issue_key": key, "body": "Customer confirmed"}))
        assert set(comment) == {"id", "body", "created", "updated", "author"}
        ok(await client.call_tool("jira_add_worklog", {"issue_key": key, "time_spent": "1h 30m"}))
        ok(await client.call_tool("jira_create_issue_link", {"link_type": "Relates", "inward_issue_key": key, "outward_issue_key": "SUP-1"}))
        final = ok(await client.call_tool("jira_get_issue", {"issue_key": key, "comment_limit": 5}))
        assert [c["body"] for c in final["comments"]] == ["Fixed in 4.2", "Customer confirmed"]
        assert final["issuelinks"][0]["issue"]["key"] == "SUP-1"

        boards = ok(await client.call_tool("jira_get_agile_boards", {"project_key": "ENG"}))
        sprints = ok(await client.call_tool("jira_get_sprints_from_board", {"board_id": boards[0]["id"], "state": "active"}))
        assert [s["state"] for s in sprints] == ["active"]
        in_sprint = ok(await client.call_tool("jira_get_sprint_issues", {"sprint_id": sprints[0]["id"], "limit": 50}))
        assert in_sprint["total"] >= len(in_sprint["issues"]) > 0
    events = live_server.gym.events(env_id)
    assert [e["tool"] for e in events if e["tool"] == "jira_transition_issue"] == ["jira_transition_issue"] * 3
    assert any(e["is_error"] for e in events if e["tool"] == "jira_transition_issue")


async def test_bad_calls_are_jira_errors_and_change_nothing(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        before = ok(await client.call_tool("jira_search", {"jql": "project = SUP", "limit": 1}))["total"]
        bad_jql = failed(await client.call_tool("jira_search", {"jql": "project = SUP AND"}))
        assert "(line 1, character 18)" in bad_jql["errorMessages"][0]
        missing = failed(await client.call_tool("jira_get_issue", {"issue_key": "SUP-99999"}))
        assert "does not exist" in missing["errorMessages"][0]
        bad_json = failed(await client.call_tool("jira_create_issue", {"project_key": "SUP", "summary": "x", "issue_type": "Bug", "additional_fields": "{not json"}))
        assert "additional_fields" in bad_json["errorMessages"][0]
        no_args = failed(await client.call_tool("jira_create_issue", {}))
        assert "project_key" in " ".join(no_args["errorMessages"]) + json.dumps(no_args["errors"])
        after = ok(await client.call_tool("jira_search", {"jql": "project = SUP", "limit": 1}))["total"]
    assert after == before


@pytest.fixture
def official_env(live_server: Any) -> Iterator[Env]:
    env = live_server.gym.create(toolset="official")
    yield env
    live_server.gym.delete(env.id)


async def test_official_toolset_works_by_cloud_id(live_server: Any, official_env: Env) -> None:
    async with Client(mcp_url(live_server, official_env.id)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert OFFICIAL_TOOLS <= set(tools)
        site = ok(await client.call_tool("getAccessibleAtlassianResources", {}))[0]
        cloud = site["id"]
        page = ok(await client.call_tool("searchJiraIssuesUsingJql", {"cloudId": cloud, "jql": "project = ENG ORDER BY key ASC", "maxResults": 5}))
        assert len(page["issues"]) == 5 and page["nextPageToken"] and page["issues"][0]["key"] == "ENG-1"
        more = ok(await client.call_tool("searchJiraIssuesUsingJql", {"cloudId": cloud, "jql": "project = ENG ORDER BY key ASC", "maxResults": 5,
                                                                      "nextPageToken": page["nextPageToken"]}))
        assert more["issues"][0]["key"] == "ENG-6"
        created = ok(await client.call_tool("createJiraIssue", {"cloudId": cloud, "projectKey": "ENG", "issueTypeName": "Task", "summary": "Rotate keys"}))
        moves = ok(await client.call_tool("getTransitionsForJiraIssue", {"cloudId": cloud, "issueIdOrKey": created["key"]}))["transitions"]
        ok(await client.call_tool("transitionJiraIssue", {"cloudId": cloud, "issueIdOrKey": created["key"], "transition": moves[0]["id"]}))
        ok(await client.call_tool("addOrEditJiraIssueComment", {"cloudId": cloud, "issueIdOrKey": created["key"], "commentBody": "Started"}))
        issue = ok(await client.call_tool("getJiraIssue", {"cloudId": cloud, "issueIdOrKey": created["key"]}))
        assert issue["fields"]["status"]["name"] == "In Progress" and issue["fields"]["comment"]["total"] == 1
        hits = ok(await client.call_tool("search", {"query": "Rotate keys"}))["results"]
        fetched = ok(await client.call_tool("fetch", {"id": hits[0]["id"]}))
        assert fetched["key"] == created["key"]
        wrong = failed(await client.call_tool("getJiraIssue", {"cloudId": "not-my-site", "issueIdOrKey": "ENG-1"}))
        assert "cloudId" in wrong["errors"]
