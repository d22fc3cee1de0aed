"""Jira's `update` verbs on an issue edit (PUT /rest/api/3/issue/{key}), through the `jira`
package over HTTP: issuelinks add (as the issue's inward or outward end), labels, components
and fixVersions add/remove/set, and comment add, in one edit with fields. Before, an edit
with update.issuelinks was a 400, so linking the way Jira's docs show was refused; only the
last of several comment adds was kept."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from jira import JIRA, JIRAError

from officegym.core.env_store import Env
from tests.apps.tickets.test_client_library_round6 import client


def two_issues(jira: JIRA) -> tuple[Any, Any]:
    first, second = jira.search_issues("project = ENG ORDER BY key ASC", maxResults=2)
    return first, second


def links_of(jira: JIRA, key: str) -> set[tuple[str, str, str]]:
    found = set()
    for link in jira.issue(key, fields="issuelinks").fields.issuelinks:
        if hasattr(link, "outwardIssue"):
            found.add((link.type.name, "outward", link.outwardIssue.key))
        if hasattr(link, "inwardIssue"):
            found.add((link.type.name, "inward", link.inwardIssue.key))
    return found


def test_update_issuelinks_add_links_the_issue_as_jira_does(agent_url: str, env: Env) -> None:
    jira = client(agent_url, env)
    first, second = two_issues(jira)
    first.update(update={"issuelinks": [{"add": {"type": {"name": "Blocks"}, "outwardIssue": {"key": second.key}}}]})
    assert ("Blocks", "outward", second.key) in links_of(jira, first.key)  # first blocks second
    assert ("Blocks", "inward", first.key) in links_of(jira, second.key)
    second.update(update={"issuelinks": [{"add": {"type": {"name": "Relates"}, "inwardIssue": {"key": first.key}}}]})
    assert ("Relates", "inward", first.key) in links_of(jira, second.key)


def test_update_verbs_for_labels_components_versions_and_comments(agent_url: str, env: Env) -> None:
    jira = client(agent_url, env)
    first, _ = two_issues(jira)
    component = jira.project_components("ENG")[0].name
    versions = [v.name for v in jira.project_versions("ENG")]
    first.update(fields={"summary": "Edited with verbs"}, update={
        "labels": [{"set": ["alpha", "beta"]}, {"add": "gamma"}, {"remove": "alpha"}],
        "components": [{"set": []}, {"add": {"name": component}}],
        "fixVersions": [{"set": [{"name": versions[0]}]}],
        "comment": [{"add": {"body": "first note"}}, {"add": {"body": "second note"}}],
    })
    issue = jira.issue(first.key)
    assert issue.fields.summary == "Edited with verbs"
    assert sorted(issue.fields.labels) == ["beta", "gamma"]
    assert [c.name for c in issue.fields.components] == [component]
    assert [v.name for v in issue.fields.fixVersions] == [versions[0]]
    bodies = [str(c.body) for c in jira.comments(first.key)]
    assert any("first note" in b for b in bodies) and any("second note" in b for b in bodies)
    jira.issue(first.key).add_field_value("labels", "delta")  # the client's own helper: update.labels add
    assert "delta" in jira.issue(first.key).fields.labels


@pytest.mark.parametrize("update", [
    {"issuelinks": [{"remove": {"type": {"name": "Blocks"}, "outwardIssue": {"key": "ENG-2"}}}]},
    {"issuelinks": [{"add": {"type": {"name": "Blocks"}}}]},
    {"issuelinks": [{"add": {"type": {"name": "Explodes"}, "outwardIssue": {"key": "ENG-2"}}}]},
    {"issuelinks": [{"add": {"type": {"name": "Blocks"}, "outwardIssue": {"key": "ENG-99999"}}}], "labels": [{"add": "kept-out"}]},
])
def test_a_bad_link_verb_is_refused_and_writes_nothing(agent_url: str, env: Env, update: dict[str, Any]) -> None:
    jira = client(agent_url, env)
    first, _ = two_issues(jira)
    before = links_of(jira, first.key), sorted(jira.issue(first.key).fields.labels)
    response = httpx.put(f"{agent_url}/envs/{env.id}/api/tickets/rest/api/3/issue/{first.key}", json={"update": update})
    assert response.status_code in (400, 404), response.text
    assert response.json().get("errorMessages") or response.json().get("errors")
    assert (links_of(jira, first.key), sorted(jira.issue(first.key).fields.labels)) == before
    with pytest.raises(JIRAError):
        first.update(update=update)
