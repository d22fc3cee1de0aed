"""The Jira REST face with Jira's own client: `jira.JIRA(server=…, token_auth=…)` works
unchanged against an env (issue, search_issues, create_issue, transitions, transition_issue,
add_comment, assign_issue), both under the env's API URL and at the origin's root by API
token; errors come back in Jira's shape and status codes; agile and search/jql over httpx."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from jira import JIRA, JIRAError

from officegym.core.api_token import api_token


def api_url(live_server: Any, env_id: str) -> str:
    return f"{live_server.base_url}/envs/{env_id}/api/tickets"


@pytest.mark.parametrize("where", ["env_url", "root_with_token"])
def test_the_jira_package_works_unchanged(live_server: Any, env_id: str, where: str) -> None:
    server = api_url(live_server, env_id) if where == "env_url" else live_server.base_url
    jira = JIRA(server=server, token_auth=api_token(env_id))
    assert jira._is_cloud

    issue = jira.issue("SUP-1")
    assert issue.key == "SUP-1" and issue.fields.summary and issue.fields.status.name
    assert issue.fields.project.key == "SUP"

    found = jira.search_issues("project = SUP AND status = 'To Do' ORDER BY created DESC", maxResults=200)
    assert found and all(i.fields.status.name == "To Do" and i.key.startswith("SUP-") for i in found)
    everything = jira.search_issues("project = ENG", maxResults=False)
    assert len(everything) > 40, "the client follows nextPageToken across pages"

    created = jira.create_issue(project="ENG", summary="Speed up report rendering", issuetype={"name": "Task"},
                                description="Reports over 10k rows render slowly", priority={"name": "High"}, labels=["performance"])
    assert created.key.startswith("ENG-") and created.fields.priority.name == "High"
    assert created.fields.description == "Reports over 10k rows render slowly", "v2 carries plain text"

    transitions = jira.transitions(created)
    assert {t["name"] for t in transitions} >= {"Start Progress", "Done"}
    jira.transition_issue(created, "Start Progress")
    assert jira.issue(created.key).fields.status.name == "In Progress"
    jira.transition_issue(created, "Done", comment="Shipped")
    done = jira.issue(created.key)
    assert done.fields.status.name == "Done" and done.fields.resolution.name == "Done"

    comment = jira.add_comment(created.key, "Verified in production")
    assert comment.body == "Verified in production" and comment.id.isdigit()
    assert [c.body for c in jira.comments(created.key)] == ["Shipped", "Verified in production"]

    someone = jira.issue("SUP-1").fields.reporter
    assert jira.assign_issue(created.key, someone.emailAddress)
    assert jira.issue(created.key).fields.assignee.accountId == someone.accountId
    assert jira.myself()["accountId"]

    with pytest.raises(JIRAError) as missing:
        jira.issue("SUP-999999")
    assert missing.value.status_code == 404


def test_errors_are_jiras_shape_and_status(live_server: Any, env_id: str) -> None:
    base = api_url(live_server, env_id)
    with httpx.Client(timeout=30) as http:
        bad = http.get(f"{base}/rest/api/3/search/jql", params={"jql": "project = SUP AND"})
        assert bad.status_code == 400 and bad.json() == {"errorMessages": [bad.json()["errorMessages"][0]], "errors": {}}
        assert "(line 1, character 18)" in bad.json()["errorMessages"][0]
        missing = http.get(f"{base}/rest/api/3/issue/NOPE-1")
        assert missing.status_code == 404 and missing.json()["errorMessages"]
        field = http.post(f"{base}/rest/api/3/issue", json={"fields": {"project": {"key": "ENG"}, "summary": "x", "issuetype": {"name": "Task"},
                                                                      "priority": {"name": "Urgent"}}})
        assert field.status_code == 400 and "priority" in field.json()["errors"]
        refused = http.post(f"{base}/rest/api/3/issue/SUP-1/transitions", json={"transition": {"id": "999"}})
        assert refused.status_code == 400 and "transition" in refused.json()["errors"]
        not_json = http.post(f"{base}/rest/api/3/issue", content=b"{", headers={"content-type": "application/json"})
        assert not_json.status_code == 400 and not_json.json()["errorMessages"]
        assert http.get(f"{live_server.base_url}/envs/{'0' * 32}/api/tickets/rest/api/3/issue/SUP-1").status_code == 404
        for method, path in (("GET", "search/jql"), ("POST", "issue/SUP-1/comment"), ("GET", "issue/SUP-1"), ("GET", "serverInfo")):
            unknown = http.request(method, f"{base}/rest/api/9/{path}", json={"body": "x"} if method == "POST" else None)
            assert unknown.status_code == 404 and unknown.json() == {"errorMessages": ["no REST API version '9'; use /rest/api/3 (or 2)"], "errors": {}}, path


def test_rest_v3_routes(live_server: Any, env_id: str) -> None:
    base = api_url(live_server, env_id)
    with httpx.Client(timeout=30) as http:
        created = http.post(f"{base}/rest/api/3/issue", json={"fields": {"project": {"key": "SUP"}, "summary": "Webhooks stalled",
                                                                        "issuetype": {"name": "Incident"}, "description": {"type": "doc", "version": 1, "content": [
                                                                            {"type": "paragraph", "content": [{"type": "text", "text": "No deliveries since 9:00"}]}]}}})
        assert created.status_code == 201 and set(created.json()) == {"id", "key", "self"}
        key = created.json()["key"]
        assert created.json()["self"].startswith(base + "/rest/api/3/issue/"), "self links point back at this API"
        issue = http.get(f"{base}/rest/api/3/issue/{key}").json()
        assert issue["fields"]["description"]["content"][0]["content"][0]["text"] == "No deliveries since 9:00"
        assert http.put(f"{base}/rest/api/3/issue/{key}", json={"fields": {"summary": "Webhooks stalled in EU"}, "update": {"labels": [{"add": "eu"}]}}).status_code == 204
        me = http.get(f"{base}/rest/api/3/myself").json()
        assert http.put(f"{base}/rest/api/3/issue/{key}/assignee", json={"accountId": me["accountId"]}).status_code == 204
        moves = http.get(f"{base}/rest/api/3/issue/{key}/transitions").json()["transitions"]
        resolve = next(t for t in moves if t["name"] == "Resolve Issue")
        assert resolve["to"]["statusCategory"]["key"] == "done" and resolve["fields"]["resolution"]["required"] is True
        # The id as a JSON number, as the jira client sends an id it was given as one: Jira takes it.
        assert http.post(f"{base}/rest/api/3/issue/{key}/transitions", json={"transition": {"id": int(resolve["id"])}, "fields": {"resolution": {"name": "Fixed"}}}).status_code == 204
        assert http.post(f"{base}/rest/api/3/issueLink", json={"type": {"name": "Relates"}, "inwardIssue": {"key": key}, "outwardIssue": {"key": "SUP-1"}}).status_code == 201
        assert http.post(f"{base}/rest/api/3/issue/{key}/worklog", json={"timeSpent": "2h"}).status_code == 201
        after = http.get(f"{base}/rest/api/3/issue/{key}", params={"expand": "changelog"}).json()
        f = after["fields"]
        assert (f["summary"], f["labels"], f["assignee"]["accountId"], f["status"]["name"]) == ("Webhooks stalled in EU", ["eu"], me["accountId"], "Done")
        assert f["issuelinks"][0]["outwardIssue"]["key"] == "SUP-1" and f["worklog"]["worklogs"][0]["timeSpentSeconds"] == 7200
        assert {i["field"] for h in after["changelog"]["histories"] for i in h["items"]} >= {"summary", "labels", "assignee", "status", "resolution"}

        page = http.post(f"{base}/rest/api/3/search/jql", json={"jql": "project = SUP ORDER BY key ASC", "maxResults": 30, "fields": ["summary"]}).json()
        assert set(page) == {"issues", "nextPageToken", "isLast"} and page["isLast"] is False and set(page["issues"][0]["fields"]) == {"summary"}
        rest = http.get(f"{base}/rest/api/3/search/jql", params={"jql": "project = SUP ORDER BY key ASC", "maxResults": 100, "fields": "key",
                                                                  "nextPageToken": page["nextPageToken"]}).json()
        assert rest["isLast"] is True and "nextPageToken" not in rest
        ids_only = http.get(f"{base}/rest/api/3/search/jql", params={"jql": "project = SUP ORDER BY key ASC", "maxResults": 2}).json()
        assert ids_only["issues"] == [{"id": i["id"]} for i in page["issues"][:2]], "without fields the enhanced search returns ids only"
        assert int(rest["issues"][0]["key"].split("-")[1]) == 31
        assert {p["key"] for p in http.get(f"{base}/rest/api/3/project/search").json()["values"]} == {"SUP", "ENG", "IT"}
        assert http.get(f"{base}/rest/api/3/user/search", params={"query": me["displayName"].split()[0]}).json()
        assert any(fd["id"] == "customfield_10050" for fd in http.get(f"{base}/rest/api/3/field").json())

        boards = http.get(f"{base}/rest/agile/1.0/board", params={"projectKeyOrId": "ENG"}).json()["values"]
        sprints = http.get(f"{base}/rest/agile/1.0/board/{boards[0]['id']}/sprint", params={"state": "future"}).json()["values"]
        assert http.post(f"{base}/rest/agile/1.0/sprint/{sprints[0]['id']}/issue", json={"issues": ["ENG-1"]}).status_code == 204
        in_sprint = http.get(f"{base}/rest/agile/1.0/sprint/{sprints[0]['id']}/issue").json()["issues"]
        assert "ENG-1" in {i["key"] for i in in_sprint}
