"""What agents do on a Jira issue beyond adding to it: web links (Jira's remote issue links:
add, update by globalId, read, delete by id or globalId), editing and deleting their own
comments, and editing and deleting their own worklogs with the remaining estimate adjusted as
Jira does ("auto", "leave", "new", "manual"). Over the live server: httpx on the REST routes,
the `jira` package unchanged, the MCP SDK client for mcp-atlassian's
jira_create_remote_issue_link; every write is in the trajectory."""

from __future__ import annotations

import json
import warnings
from typing import Any

import httpx
from jira import JIRA
from mcp import Client

KEY = "SUP-1"


def api(live_server: Any, env_id: str, version: str = "3") -> str:
    return f"{live_server.base_url}/envs/{env_id}/api/tickets/rest/api/{version}"


def adf(text: str) -> dict[str, Any]:
    return {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]}


def writes(live_server: Any, env_id: str) -> list[tuple[str, str]]:
    return [(e["face"], e["operation"]) for e in live_server.gym.events(env_id) if not e["is_error"] and not e["operation"].split(".")[1].startswith("get")]


def changelog_fields(base: str, key: str) -> list[tuple[str, str | None, str | None]]:
    return [(i["field"], i["fromString"], i["toString"]) for h in httpx.get(f"{base}/issue/{key}/changelog").json()["values"] for i in h["items"]]


# -- web links --------------------------------------------------------------------------------
def test_web_links_are_added_updated_by_global_id_read_and_deleted(live_server: Any, env_id: str) -> None:
    v3, v2 = api(live_server, env_id), api(live_server, env_id, "2")
    before = httpx.get(f"{v3}/issue/{KEY}/remotelink").json()
    simple = httpx.post(f"{v3}/issue/{KEY}/remotelink", json={"object": {"url": "https://status.example.com/incidents/42", "title": "Incident 42"}})
    assert simple.status_code == 201, simple.text
    link_id = simple.json()["id"]
    assert isinstance(link_id, int) and simple.json()["self"].endswith(f"/rest/api/3/issue/{KEY}/remotelink/{link_id}")
    assert simple.json()["self"].startswith(live_server.base_url)

    body = {"globalId": "system=https://runbooks.example.com&id=7", "application": {"type": "com.example.runbooks", "name": "Runbooks"},
            "relationship": "mentioned in",
            "object": {"url": "https://runbooks.example.com/7", "title": "Refund runbook", "summary": "How refunds are reissued",
                       "icon": {"url16x16": "https://runbooks.example.com/favicon.png", "title": "Runbook"}, "status": {"resolved": False}}}
    created = httpx.post(f"{v3}/issue/{KEY}/remotelink", json=body)
    assert created.status_code == 201, created.text
    again = httpx.post(f"{v3}/issue/{KEY}/remotelink", json={**body, "object": {**body["object"], "title": "Refund runbook (v2)"}})
    assert again.status_code == 200 and again.json()["id"] == created.json()["id"]  # the same globalId: updated, not added

    listed = httpx.get(f"{v3}/issue/{KEY}/remotelink").json()
    assert len(listed) == len(before) + 2
    one = httpx.get(f"{v2}/issue/{KEY}/remotelink/{created.json()['id']}").json()
    assert one["globalId"] == body["globalId"] and one["application"] == body["application"] and one["relationship"] == "mentioned in"
    assert one["object"]["title"] == "Refund runbook (v2)" and one["object"]["summary"] == "How refunds are reissued"
    assert one["object"]["icon"] == body["object"]["icon"] and one["object"]["status"]["resolved"] is False
    assert "/rest/api/2/" in one["self"]
    by_global = httpx.get(f"{v3}/issue/{KEY}/remotelink", params={"globalId": body["globalId"]}).json()
    assert by_global["id"] == created.json()["id"]

    put = httpx.put(f"{v3}/issue/{KEY}/remotelink/{link_id}", json={"object": {"url": "https://status.example.com/incidents/43", "title": "Incident 43"}})
    assert put.status_code == 204, put.text
    assert httpx.get(f"{v3}/issue/{KEY}/remotelink/{link_id}").json()["object"]["url"] == "https://status.example.com/incidents/43"

    assert httpx.delete(f"{v3}/issue/{KEY}/remotelink", params={"globalId": body["globalId"]}).status_code == 204
    assert httpx.delete(f"{v3}/issue/{KEY}/remotelink/{link_id}").status_code == 204
    assert httpx.get(f"{v3}/issue/{KEY}/remotelink").json() == before
    gone = httpx.get(f"{v3}/issue/{KEY}/remotelink/{link_id}")
    assert gone.status_code == 404 and gone.json()["errorMessages"]
    assert httpx.delete(f"{v3}/issue/{KEY}/remotelink/{link_id}").status_code == 404

    fields = changelog_fields(v3, KEY)
    assert ("RemoteIssueLink", None, 'This issue links to "Incident 42"') in fields
    assert ("RemoteIssueLink", 'This issue links to "Refund runbook (v2)"', None) in fields
    assert [op for face, op in writes(live_server, env_id)] == ["tickets.createRemoteLink"] * 3 + ["tickets.updateRemoteLink"] + ["tickets.deleteRemoteLink"] * 2


def test_a_web_link_needs_an_address_and_a_title_and_writes_nothing_without(live_server: Any, env_id: str) -> None:
    v3 = api(live_server, env_id)
    before = httpx.get(f"{v3}/issue/{KEY}/remotelink").json()
    for obj, field in (({"title": "No address"}, "url"), ({"url": "https://example.com"}, "title"),
                       ({"url": "javascript:alert(1)", "title": "Script"}, "url"), ({"url": "example.com/page", "title": "Relative"}, "url")):
        refused = httpx.post(f"{v3}/issue/{KEY}/remotelink", json={"object": obj})
        assert refused.status_code == 400 and field in refused.json()["errors"], (obj, refused.text)
    assert httpx.post(f"{v3}/issue/SUP-999999/remotelink", json={"object": {"url": "https://example.com", "title": "x"}}).status_code == 404
    assert httpx.get(f"{v3}/issue/{KEY}/remotelink").json() == before
    assert live_server.gym.changes(env_id) == []


def test_the_jira_client_adds_reads_updates_and_deletes_web_links(live_server: Any, env_id: str) -> None:
    jira = JIRA(server=f"{live_server.base_url}/envs/{env_id}/api/tickets")
    simple = jira.add_simple_link(KEY, {"url": "https://docs.example.com/refunds", "title": "Refund policy"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the client first asks for the site's application links, which a non-admin may not list
        remote = jira.add_remote_link(KEY, {"url": "https://git.example.com/pr/12", "title": "PR 12"}, globalId="git=pr-12",
                                      application={"type": "com.example.git", "name": "Git"}, relationship="fixed by")
    links = {link.id: link for link in jira.remote_links(KEY)}
    assert links[simple.id].object.title == "Refund policy"
    assert links[remote.id].relationship == "fixed by" and links[remote.id].globalId == "git=pr-12"
    fetched = jira.remote_link(KEY, remote.id)
    fetched.update({"url": "https://git.example.com/pr/13", "title": "PR 13"}, globalId="git=pr-12", relationship="fixed by")
    assert jira.remote_link(KEY, remote.id).object.url == "https://git.example.com/pr/13"
    jira.remote_link(KEY, simple.id).delete()
    assert [link.id for link in jira.remote_links(KEY)].count(simple.id) == 0


async def test_jira_create_remote_issue_link_over_mcp(live_server: Any, env_id: str) -> None:
    async with Client(f"{live_server.base_url}/envs/{env_id}/mcp/tickets") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        schema = tools["jira_create_remote_issue_link"].input_schema
        assert set(schema["properties"]) == {"issue_key", "url", "title", "summary", "relationship", "icon_url"}
        assert set(schema["required"]) == {"issue_key", "url", "title"}
        made = await client.call_tool("jira_create_remote_issue_link", {"issue_key": KEY, "url": "https://wiki.example.com/refunds",
                                                                         "title": "Refunds FAQ", "relationship": "documentation"})
        assert made.is_error is False, made.content
        refused = await client.call_tool("jira_create_remote_issue_link", {"issue_key": KEY, "url": "not a link", "title": "x"})
    assert json.loads(made.content[0].text) == {"success": True, "message": f"Remote link created for issue {KEY}", "issue_key": KEY,
                                                "link_title": "Refunds FAQ", "link_url": "https://wiki.example.com/refunds",
                                                "relationship": "documentation"}
    assert refused.is_error is True and "url" in refused.content[0].text
    listed = httpx.get(f"{api(live_server, env_id)}/issue/{KEY}/remotelink").json()
    assert [(l["object"]["title"], l.get("relationship")) for l in listed if l["object"]["url"] == "https://wiki.example.com/refunds"] == [
        ("Refunds FAQ", "documentation")]
    assert writes(live_server, env_id) == [("mcp", "tickets.createRemoteLink")]


# -- comments ---------------------------------------------------------------------------------
def test_comments_are_edited_and_deleted_by_their_author_only(live_server: Any, env_id: str) -> None:
    v2, v3 = api(live_server, env_id, "2"), api(live_server, env_id)
    me = httpx.get(f"{v3}/myself").json()["accountId"]
    theirs = next(c for c in httpx.get(f"{v2}/issue/{KEY}/comment").json()["comments"] if c["author"]["accountId"] != me)
    mine = httpx.post(f"{v3}/issue/{KEY}/comment", json={"body": adf("Refund reissued")}).json()
    edited = httpx.put(f"{v3}/issue/{KEY}/comment/{mine['id']}", json={"body": adf("Refund reissued on Monday")})
    assert edited.status_code == 200 and edited.json()["body"] == adf("Refund reissued on Monday")
    assert httpx.get(f"{v2}/issue/{KEY}/comment/{mine['id']}").json()["body"] == "Refund reissued on Monday"

    for method in ("PUT", "DELETE"):
        refused = httpx.request(method, f"{v2}/issue/{KEY}/comment/{theirs['id']}", json={"body": "rewritten"})
        assert refused.status_code == 403 and refused.json()["errorMessages"], refused.text
    assert httpx.get(f"{v2}/issue/{KEY}/comment/{theirs['id']}").json()["body"] == theirs["body"]

    deleted = httpx.delete(f"{v2}/issue/{KEY}/comment/{mine['id']}")
    assert deleted.status_code == 204 and deleted.content == b""
    assert httpx.get(f"{v2}/issue/{KEY}/comment/{mine['id']}").status_code == 404
    assert mine["id"] not in [c["id"] for c in httpx.get(f"{v2}/issue/{KEY}/comment").json()["comments"]]
    assert httpx.delete(f"{v2}/issue/{KEY}/comment/{mine['id']}").status_code == 404
    assert [op for _, op in writes(live_server, env_id)] == ["tickets.addComment", "tickets.editComment", "tickets.deleteComment"]


def test_the_jira_client_deletes_its_comment(live_server: Any, env_id: str) -> None:
    jira = JIRA(server=f"{live_server.base_url}/envs/{env_id}/api/tickets")
    comment = jira.add_comment(KEY, "Wrong ticket, sorry")
    comment.delete()
    assert comment.id not in [c.id for c in jira.comments(KEY)]


# -- worklogs ---------------------------------------------------------------------------------
def tracking(base: str, key: str) -> dict[str, Any]:
    fields = httpx.get(f"{base}/issue/{key}", params={"fields": "timetracking,timespent,timeestimate,timeoriginalestimate"}).json()["fields"]
    return {**fields["timetracking"], "timespent": fields["timespent"], "timeestimate": fields["timeestimate"],
            "timeoriginalestimate": fields["timeoriginalestimate"]}


def test_worklogs_are_edited_and_deleted_with_the_estimate_adjusted(live_server: Any, env_id: str) -> None:
    v3 = api(live_server, env_id)
    key = httpx.post(f"{v3}/issue", json={"fields": {"project": {"key": "SUP"}, "issuetype": {"name": "Task"}, "summary": "Reissue refunds",
                                                     "timetracking": {"originalEstimate": "1d"}}}).json()["key"]
    assert tracking(v3, key) == {"originalEstimate": "1d", "remainingEstimate": "1d", "originalEstimateSeconds": 28800,
                                 "remainingEstimateSeconds": 28800, "timespent": None, "timeestimate": 28800, "timeoriginalestimate": 28800}
    first = httpx.post(f"{v3}/issue/{key}/worklog", json={"timeSpent": "2h", "comment": adf("Found the failed batch")}).json()
    assert tracking(v3, key)["remainingEstimateSeconds"] == 6 * 3600  # auto, the default: 8h - 2h
    second = httpx.post(f"{v3}/issue/{key}/worklog", params={"adjustEstimate": "leave"}, json={"timeSpent": "1h"}).json()
    assert tracking(v3, key)["remainingEstimateSeconds"] == 6 * 3600 and tracking(v3, key)["timeSpentSeconds"] == 3 * 3600

    edited = httpx.put(f"{v3}/issue/{key}/worklog/{first['id']}", json={"timeSpent": "3h", "comment": adf("Found and replayed the batch")})
    assert edited.status_code == 200, edited.text
    assert edited.json()["timeSpentSeconds"] == 3 * 3600 and edited.json()["comment"] == adf("Found and replayed the batch")
    assert edited.json()["updated"] >= edited.json()["created"]
    now = tracking(v3, key)
    assert (now["timeSpentSeconds"], now["timespent"], now["remainingEstimateSeconds"]) == (4 * 3600, 4 * 3600, 5 * 3600)  # auto: 1h more spent
    httpx.put(f"{v3}/issue/{key}/worklog/{first['id']}", params={"adjustEstimate": "leave"}, json={"timeSpent": "4h"})
    assert tracking(v3, key)["remainingEstimateSeconds"] == 5 * 3600 and tracking(v3, key)["timeSpentSeconds"] == 5 * 3600
    httpx.put(f"{v3}/issue/{key}/worklog/{first['id']}", params={"adjustEstimate": "new", "newEstimate": "2h"}, json={"timeSpent": "4h"})
    assert tracking(v3, key)["remainingEstimate"] == "2h"

    assert httpx.delete(f"{v3}/issue/{key}/worklog/{second['id']}", params={"adjustEstimate": "leave"}).status_code == 204
    assert tracking(v3, key)["remainingEstimateSeconds"] == 2 * 3600 and tracking(v3, key)["timeSpentSeconds"] == 4 * 3600
    assert httpx.delete(f"{v3}/issue/{key}/worklog/{first['id']}").status_code == 204  # auto: the 4h go back to the estimate
    now = tracking(v3, key)
    assert now.get("timeSpentSeconds") is None and now["timespent"] is None and now["remainingEstimateSeconds"] == 6 * 3600
    assert httpx.get(f"{v3}/issue/{key}/worklog").json()["worklogs"] == []
    assert httpx.get(f"{v3}/issue/{key}/worklog/{first['id']}").status_code == 404
    spent = [(f, to) for f, _, to in changelog_fields(v3, key) if f == "timespent"]
    assert spent == [("timespent", "7200"), ("timespent", "10800"), ("timespent", "14400"), ("timespent", "18000"), ("timespent", "14400"),
                     ("timespent", "0")]
    assert [op for _, op in writes(live_server, env_id)] == ["tickets.createIssue", "tickets.addWorklog", "tickets.addWorklog"] + [
        "tickets.updateWorklog"] * 3 + ["tickets.deleteWorklog"] * 2


def test_a_worklog_edit_refused_changes_nothing(live_server: Any, env_id: str) -> None:
    v2 = api(live_server, env_id, "2")
    me = httpx.get(f"{v2}/myself").json()["accountId"]
    found = httpx.get(f"{v2}/search", params={"jql": "ORDER BY key", "fields": "worklog", "maxResults": 1000}).json()["issues"]
    theirs = next(w for i in found for w in i["fields"]["worklog"]["worklogs"] if w["author"]["accountId"] != me)  # a colleague's, seeded
    mine = httpx.post(f"{v2}/issue/{KEY}/worklog", json={"timeSpent": "30m"}).json()
    changes = live_server.gym.changes(env_id)
    for params, body in (({}, {"timeSpent": "nonsense"}), ({}, {}), ({"adjustEstimate": "new"}, {"timeSpent": "1h"}),
                         ({"adjustEstimate": "sideways"}, {"timeSpent": "1h"}), ({"adjustEstimate": "manual"}, {"timeSpent": "1h"})):
        refused = httpx.put(f"{v2}/issue/{KEY}/worklog/{mine['id']}", params=params, json=body)
        assert refused.status_code == 400, (params, body, refused.text)
    assert httpx.delete(f"{v2}/issue/{KEY}/worklog/{mine['id']}", params={"adjustEstimate": "manual"}).status_code == 400
    assert httpx.put(f"{v2}/issue/{KEY}/worklog/99999999", json={"timeSpent": "1h"}).status_code == 404
    issue = theirs["issueId"]
    assert httpx.put(f"{v2}/issue/{issue}/worklog/{theirs['id']}", json={"timeSpent": "1m"}).status_code == 403
    assert httpx.delete(f"{v2}/issue/{issue}/worklog/{theirs['id']}").status_code == 403
    assert live_server.gym.changes(env_id) == changes
    assert httpx.get(f"{v2}/issue/{KEY}/worklog/{mine['id']}").json()["timeSpentSeconds"] == 1800


def test_the_jira_client_edits_and_deletes_its_worklog(live_server: Any, env_id: str) -> None:
    jira = JIRA(server=f"{live_server.base_url}/envs/{env_id}/api/tickets")
    issue = jira.create_issue(project="SUP", summary="Chase the refund", issuetype={"name": "Task"})
    assert "timetracking" in jira.editmeta(issue.key)["fields"]
    issue.update(fields={"timetracking": {"originalEstimate": "4h"}})
    logged = jira.add_worklog(issue.key, timeSpent="1h", comment="Called the bank")
    assert jira.issue(issue.key).fields.timetracking.remainingEstimateSeconds == 3 * 3600
    logged.update(fields={"timeSpent": "2h", "comment": "Called the bank twice"})
    assert jira.worklog(issue.key, logged.id).comment == "Called the bank twice"
    assert jira.issue(issue.key).fields.timetracking.remainingEstimateSeconds == 2 * 3600
    jira.worklog(issue.key, logged.id).delete(adjustEstimate="new", newEstimate="3h")
    assert jira.worklogs(issue.key) == []
    assert jira.issue(issue.key).fields.timetracking.remainingEstimate == "3h"


def test_hostile_input_to_the_new_routes_is_a_4xx_in_jiras_shape(live_server: Any, env_id: str) -> None:
    v3 = api(live_server, env_id)
    mine = httpx.post(f"{v3}/issue/{KEY}/worklog", json={"timeSpent": "30m"}).json()["id"]
    comment = httpx.post(f"{v3}/issue/{KEY}/comment", json={"body": "mine"}).json()["id"]
    link = httpx.post(f"{v3}/issue/{KEY}/remotelink", json={"object": {"url": "https://example.com", "title": "x"}}).json()["id"]
    changes = live_server.gym.changes(env_id)
    odd = ["abc", "-1", "99999999999999999999", "1e3", "%00", "0x10"]
    calls: list[tuple[str, str, Any, dict[str, str]]] = [
        ("POST", f"issue/{KEY}/remotelink", [], {}), ("POST", f"issue/{KEY}/remotelink", {"object": "x"}, {}),
        ("POST", f"issue/{KEY}/remotelink", {"object": {"url": 5, "title": ["a"]}}, {}),
        ("POST", f"issue/{KEY}/remotelink", {"object": {"url": "https://e.com", "title": "t"}, "application": "nope"}, {}),
        ("POST", f"issue/{KEY}/remotelink", {"object": {"url": "https://e.com", "title": "t"}, "globalId": {"a": 1}}, {}),
        ("POST", f"issue/{KEY}/remotelink", {"object": {"url": "https://e.com/" + "a" * 5000, "title": "t"}}, {}),
        ("POST", f"issue/{KEY}/remotelink", {"object": {"url": "https://e.com", "title": "t" * 300}}, {}),
        ("POST", f"issue/{KEY}/remotelink", {"object": {"url": "https://e.com", "title": "t", "status": {"resolved": "maybe"}}}, {}),
        ("PUT", f"issue/{KEY}/remotelink/{link}", {"object": {}}, {}), ("DELETE", f"issue/{KEY}/remotelink", None, {}),
        ("PUT", f"issue/{KEY}/worklog/{mine}", {"timeSpentSeconds": "abc"}, {}), ("PUT", f"issue/{KEY}/worklog/{mine}", {"comment": 5}, {}),
        ("PUT", f"issue/{KEY}/worklog/{mine}", {"timeSpent": "1h"}, {"adjustEstimate": "new", "newEstimate": "soon"}),
        ("PUT", f"issue/{KEY}/worklog/{mine}", {"started": "yesterday"}, {}), ("PUT", f"issue/{KEY}/worklog/{mine}", "text", {}),
        ("DELETE", f"issue/{KEY}/worklog/{mine}", None, {"adjustEstimate": "manual", "increaseBy": "-5h"}),
        ("POST", f"issue/{KEY}/worklog", {"timeSpent": "1h"}, {"adjustEstimate": "manual", "reduceBy": "lots"}),
        ("PUT", f"issue/{KEY}/comment/{comment}", {"body": ""}, {}), ("PUT", f"issue/{KEY}/comment/{comment}", {"body": 7}, {}),
        ("PUT", f"issue/{KEY}", {"fields": {"timetracking": "2d"}}, {}), ("PUT", f"issue/{KEY}", {"fields": {"timetracking": {"originalEstimate": "ages"}}}, {}),
    ]
    for bad in odd:
        calls += [("DELETE", f"issue/{KEY}/comment/{bad}", None, {}), ("DELETE", f"issue/{KEY}/worklog/{bad}", None, {}),
                  ("PUT", f"issue/{KEY}/worklog/{bad}", {"timeSpent": "1h"}, {}), ("GET", f"issue/{KEY}/remotelink/{bad}", None, {}),
                  ("PUT", f"issue/{KEY}/remotelink/{bad}", {"object": {"url": "https://e.com", "title": "t"}}, {}),
                  ("DELETE", f"issue/{KEY}/remotelink/{bad}", None, {})]
    for method, path, body, params in calls:
        answer = httpx.request(method, f"{v3}/{path}", params=params, **({"json": body} if body is not None else {}))
        assert 400 <= answer.status_code < 500, (method, path, body, params, answer.status_code, answer.text)
        assert set(answer.json()) == {"errorMessages", "errors"}, answer.text
    assert live_server.gym.changes(env_id) == changes


async def test_jira_add_worklog_sets_the_estimates_over_mcp(live_server: Any, env_id: str) -> None:
    """mcp-atlassian's jira_add_worklog takes original_estimate and remaining_estimate; without
    them the time logged comes off the remaining estimate (Jira's adjustEstimate=auto)."""
    v3 = api(live_server, env_id)
    key = httpx.post(f"{v3}/issue", json={"fields": {"project": {"key": "SUP"}, "issuetype": {"name": "Task"}, "summary": "Refund audit"}}).json()["key"]
    async with Client(f"{live_server.base_url}/envs/{env_id}/mcp/tickets") as client:
        first = await client.call_tool("jira_add_worklog", {"issue_key": key, "time_spent": "1h", "original_estimate": "2d"})
        assert first.is_error is False, first.content
        after_first = tracking(v3, key)
        second = await client.call_tool("jira_add_worklog", {"issue_key": key, "time_spent": "30m", "remaining_estimate": "4h"})
        after_second = tracking(v3, key)
        third = await client.call_tool("jira_add_worklog", {"issue_key": key, "time_spent": "1h"})
    logged = json.loads(first.content[0].text)["worklog"]
    assert logged["original_estimate_updated"] is True and logged["remaining_estimate_updated"] is False
    assert (after_first["originalEstimate"], after_first["remainingEstimate"]) == ("2d", "1d 7h")  # the 1h came off the new estimate
    assert json.loads(second.content[0].text)["worklog"]["remaining_estimate_updated"] is True
    assert after_second["remainingEstimate"] == "4h" and third.is_error is False
    assert tracking(v3, key)["remainingEstimate"] == "3h" and tracking(v3, key)["timeSpent"] == "2h 30m"
