"""Jira REST v2 carries rich text as plain strings and v3 as Atlassian Document Format, on every
route that answers text: an issue's description, a comment's body, a worklog's comment (alone,
in a list, and inside the issue's `worklog` field). A worklog logged through v2 (the `jira`
client's `add_worklog(comment=…)`) answered its comment as an ADF document, which a v2 client
reads as a dict where it expects the text it wrote. Over the live server, by httpx and by the
`jira` package."""

from __future__ import annotations

import json
from typing import Any

import httpx
from jira import JIRA
from mcp import Client

KEY = "SUP-1"


def api(live_server: Any, env_id: str, version: str) -> str:
    return f"{live_server.base_url}/envs/{env_id}/api/tickets/rest/api/{version}"


def adf(text: str) -> dict[str, Any]:
    return {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]}


def test_every_text_field_is_text_in_v2_and_adf_in_v3(live_server: Any, env_id: str) -> None:
    v2, v3 = api(live_server, env_id, "2"), api(live_server, env_id, "3")
    logged = httpx.post(f"{v2}/issue/{KEY}/worklog", json={"timeSpent": "1h 30m", "comment": "Reproduced the refund bug"})
    assert logged.status_code == 201, logged.text
    assert logged.json()["comment"] == "Reproduced the refund bug"
    assert logged.json()["timeSpentSeconds"] == 5400
    by_v3 = httpx.post(f"{v3}/issue/{KEY}/worklog", json={"timeSpent": "15m", "comment": adf("Wrote the fix")})
    assert by_v3.status_code == 201 and by_v3.json()["comment"] == adf("Wrote the fix")

    texts = {w["id"]: w.get("comment") for w in httpx.get(f"{v2}/issue/{KEY}/worklog").json()["worklogs"]}
    assert texts[logged.json()["id"]] == "Reproduced the refund bug" and texts[by_v3.json()["id"]] == "Wrote the fix"
    docs = {w["id"]: w.get("comment") for w in httpx.get(f"{v3}/issue/{KEY}/worklog").json()["worklogs"]}
    assert docs[logged.json()["id"]] == adf("Reproduced the refund bug") and docs[by_v3.json()["id"]] == adf("Wrote the fix")

    in_issue = httpx.get(f"{v2}/issue/{KEY}", params={"fields": "worklog"}).json()["fields"]["worklog"]["worklogs"]
    assert all(isinstance(w.get("comment", ""), str) for w in in_issue), in_issue
    assert "Reproduced the refund bug" in [w.get("comment") for w in in_issue]
    in_issue_v3 = httpx.get(f"{v3}/issue/{KEY}", params={"fields": "worklog"}).json()["fields"]["worklog"]["worklogs"]
    assert adf("Reproduced the refund bug") in [w.get("comment") for w in in_issue_v3]
    found = httpx.get(f"{v2}/search", params={"jql": f"key = {KEY}", "fields": "worklog"}).json()["issues"][0]["fields"]["worklog"]["worklogs"]
    assert all(isinstance(w.get("comment", ""), str) for w in found), found
    one = logged.json()["id"]
    assert httpx.get(f"{v2}/issue/{KEY}/worklog/{one}").json()["comment"] == "Reproduced the refund bug"
    assert httpx.get(f"{v3}/issue/{KEY}/worklog/{one}").json()["comment"] == adf("Reproduced the refund bug")
    missing = httpx.get(f"{v2}/issue/{KEY}/worklog/99999999")
    assert missing.status_code == 404 and missing.json()["errorMessages"]

    # The other text fields, the same way.
    added = httpx.post(f"{v2}/issue/{KEY}/comment", json={"body": "Customer confirmed the fix"})
    assert added.status_code == 201 and added.json()["body"] == "Customer confirmed the fix"
    edited = httpx.put(f"{v2}/issue/{KEY}/comment/{added.json()['id']}", json={"body": "Customer confirmed the fix twice"})
    assert edited.status_code == 200 and edited.json()["body"] == "Customer confirmed the fix twice"
    edited3 = httpx.put(f"{v3}/issue/{KEY}/comment/{added.json()['id']}", json={"body": adf("Confirmed")})
    assert edited3.json()["body"] == adf("Confirmed")

    for version, kind in (("2", str), ("3", dict)):
        base = api(live_server, env_id, version)
        issue = httpx.get(f"{base}/issue/{KEY}", params={"fields": "description,comment"}).json()["fields"]
        assert isinstance(issue["description"], kind), (version, issue["description"])
        assert issue["comment"]["comments"] and all(isinstance(c["body"], kind) for c in issue["comment"]["comments"])
        listed = httpx.get(f"{base}/issue/{KEY}/comment").json()["comments"]
        assert listed and all(isinstance(c["body"], kind) for c in listed)
        found = httpx.post(f"{base}/search/jql", json={"jql": f"key = {KEY}", "fields": ["description", "comment"]}).json()["issues"][0]["fields"]
        assert isinstance(found["description"], kind) and all(isinstance(c["body"], kind) for c in found["comment"]["comments"])
        # The changelog's values are strings in both versions.
        history = httpx.get(f"{base}/issue/{KEY}/changelog").json()["values"]
        assert all(isinstance(item.get(k) or "", str) for h in history for item in h["items"] for k in ("from", "fromString", "to", "toString"))


def test_v2_answers_link_to_v2(live_server: Any, env_id: str) -> None:
    """A v2 answer's `self` links name v2, as Jira's do: a client that follows them (the `jira`
    package's `Worklog.delete()`, `Comment.update()`) stays on the version it speaks."""
    v2 = api(live_server, env_id, "2")
    issue = httpx.get(f"{v2}/issue/{KEY}", params={"fields": "comment,status"}).json()
    assert "/rest/api/2/issue/" in issue["self"] and "/rest/api/3/" not in httpx.get(f"{v2}/issue/{KEY}").text
    assert "/rest/api/3/issue/" in httpx.get(f"{api(live_server, env_id, '3')}/issue/{KEY}").json()["self"]


def test_the_jira_client_reads_back_the_worklog_it_wrote(live_server: Any, env_id: str) -> None:
    jira = JIRA(server=f"{live_server.base_url}/envs/{env_id}/api/tickets")
    logged = jira.add_worklog(KEY, timeSpent="2h", comment="Pairing on the refund fix")
    assert logged.comment == "Pairing on the refund fix" and logged.timeSpentSeconds == 7200
    assert [w.comment for w in jira.worklogs(KEY) if w.id == logged.id] == ["Pairing on the refund fix"]
    assert jira.worklog(KEY, logged.id).comment == "Pairing on the refund fix"
    comment = jira.add_comment(KEY, "Deployed to staging")
    comment.update(body="Deployed to production")
    assert jira.comment(KEY, comment.id).body == "Deployed to production"
    assert isinstance(jira.issue(KEY).fields.description, str)


async def test_jira_get_worklog_answers_mcp_atlassians_entries(live_server: Any, env_id: str) -> None:
    """mcp-atlassian's jira_get_worklog reads v2 and answers each entry's comment as text, with
    its author's name and time spent; it answered Jira's raw worklogs with ADF comments."""
    async with Client(f"{live_server.base_url}/envs/{env_id}/mcp/tickets") as client:
        added = await client.call_tool("jira_add_worklog", {"issue_key": KEY, "time_spent": "45m", "comment": "Checked the logs"})
        assert added.is_error is False, added.content
        result = await client.call_tool("jira_get_worklog", {"issue_key": KEY})
    assert result.is_error is False, result.content
    entries = json.loads(result.content[0].text)["worklogs"]
    mine = [w for w in entries if w["comment"] == "Checked the logs"]
    assert len(mine) == 1 and mine[0]["time_spent"] == "45m" and mine[0]["time_spent_seconds"] == 2700
    assert isinstance(mine[0]["author"], str) and mine[0]["author"] != "Unknown"
    assert all(isinstance(w["comment"], str) for w in entries)
