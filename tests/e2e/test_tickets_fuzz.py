"""Property-based fuzz of every tickets MCP tool (both toolsets) and the main Jira REST routes
over the live server, with arguments drawn from each tool's schema mixed with hostile values:
no 5xx, every failure in Jira's error shape (a bad argument named by the tool's own name),
and a failed call or any read changes nothing but the trajectory."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from officegym import apps
from officegym.core.backend import backend_name
from tests.e2e.test_fuzz import FUZZ, HOSTILE, MCP_HEADERS, EnvUnderFuzz, arguments, form_pairs

TICKETS = apps.get("tickets")
# PostgreSQL calls and state fingerprints cost several times SQLite's: half the examples there
# keeps this module near 30 s on either backend.
FUZZ_HERE = settings(FUZZ, max_examples=max(2, FUZZ.max_examples // (2 if backend_name(os.environ.get("OFFICEGYM_DB")) == "postgresql" else 1)))
TOOLS = [(toolset.name, tool.name) for toolset in TICKETS.toolsets for tool in toolset.tools]
REFS = ["SUP-1", "ENG-2", "ENG-41", "IT-1", "10002", "SUP", "ENG", "IT", "Bug", "Task", "Subtask", "High", "Done", "Fixed", "Blocks",
        "1h 30m", "2", "1", "project = SUP", "status = Done ORDER BY created DESC", '{"priority": {"name": "High"}}', '{"labels": ["x"]}',
        "Start Progress", "41", "Billing", "2026.01", "active", "customfield_10016"]
ROUTES = [  # (method, path under the env's API, body strategy or None)
    ("GET", "rest/api/3/search/jql", None), ("POST", "rest/api/3/search/jql", "body"), ("GET", "rest/api/3/issue/SUP-1", None),
    ("POST", "rest/api/3/issue", "body"), ("PUT", "rest/api/3/issue/ENG-3", "body"), ("POST", "rest/api/3/issue/SUP-2/transitions", "body"),
    ("POST", "rest/api/3/issue/SUP-2/comment", "body"), ("POST", "rest/api/3/issueLink", "body"), ("PUT", "rest/api/3/issue/SUP-3/assignee", "body"),
    ("POST", "rest/api/3/issue/SUP-2/worklog", "body"), ("POST", "rest/agile/1.0/sprint/7/issue", "body"), ("POST", "rest/agile/1.0/sprint", "body"),
    ("GET", "rest/api/3/user/search", None), ("GET", "rest/agile/1.0/board/2/sprint", None),
]




class Target(EnvUnderFuzz):
    def __init__(self, live_server: Any, toolset: str | None) -> None:
        super().__init__(live_server, toolset, "tickets_")
        cloud = self.client.post(f"{self.base}/mcp/tickets", headers=MCP_HEADERS, content=json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "getAccessibleAtlassianResources", "arguments": {}}}))
        self.refs = REFS + ([json.loads(cloud.json()["result"]["content"][0]["text"])[0]["id"]] if toolset == "official" else [])


@pytest.fixture(scope="module")
def targets(live_server: Any) -> Iterator[dict[str | None, Target]]:
    made = {toolset.name: Target(live_server, toolset.name) for toolset in TICKETS.toolsets}
    made[None] = Target(live_server, None)
    yield made
    for target in made.values():
        target.close()


@pytest.mark.parametrize(("toolset", "tool_name"), TOOLS, ids=[f"{t}:{n}" for t, n in TOOLS])
@FUZZ_HERE
@given(data=st.data())
def test_mcp_tool(targets: dict[str | None, Target], toolset: str, tool_name: str, data: st.DataObject) -> None:
    tool = next(t for t in TICKETS.toolset(toolset).tools if t.name == tool_name)
    op = TICKETS.operations[tool.operation]
    schema = tool.input_schema(op)
    target = targets[toolset]
    args = data.draw(arguments(schema, target.refs), label="args")
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool_name, "arguments": args}}
    response = target.client.post(f"{target.base}/mcp/tickets", content=json.dumps(request, allow_nan=True).encode(), headers=MCP_HEADERS)
    assert response.status_code in (200, 400), (response.status_code, response.text[:300])
    answer = response.json()
    if "error" in answer:
        assert answer["error"]["code"] in (-32700, -32602) and "\\ud" in json.dumps(args), answer
        target.settle(False, f"{tool_name} {args}")
        return
    result = answer["result"]
    assert len(result["content"]) == 1 and result["content"][0]["type"] == "text", result
    payload = json.loads(result["content"][0]["text"])
    if result.get("isError"):
        assert set(payload) == {"errorMessages", "errors"}, payload
        text = " ".join(payload["errorMessages"]) + " " + " ".join(map(str, payload["errors"].values()))
        assert "the server failed" not in text, f"an unhandled error in {tool_name}: {args}"
        if "argument '" in text:
            assert any(f"'{name}" in text for name in schema["properties"]), f"the error names a {tool_name} argument: {text}"
    target.settle(not result.get("isError") and op.writes, f"{tool_name} {str(args)[:200]} → {str(payload)[:200]}")


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
@FUZZ_HERE
@given(data=st.data())
def test_rest_route(targets: dict[str | None, Target], method: str, path: str, body: str | None, data: st.DataObject) -> None:
    target = targets[None]
    keys = ["jql", "fields", "maxResults", "nextPageToken", "summary", "transition", "body", "accountId", "timeSpent", "issues", "type",
            "inwardIssue", "outwardIssue", "name", "originBoardId", "update", "query", "state"]
    values = st.one_of(st.sampled_from(target.refs), HOSTILE, st.dictionaries(st.sampled_from(["name", "key", "id", "project", "issuetype", "summary"]),
                                                                            st.one_of(st.sampled_from(target.refs), HOSTILE), max_size=3))
    args = data.draw(st.dictionaries(st.sampled_from(keys), values, max_size=5), label="args")
    url = f"{target.base}/api/tickets/{path}"
    if body:
        response = target.client.request(method, url, content=json.dumps({"fields": args} if "issue" == path.rsplit("/", 1)[-1] else args, allow_nan=True).encode(),
                                          headers={"content-type": "application/json"})
    else:
        response = target.client.request(method, f"{url}?{form_pairs(args)}")
    assert response.status_code in (200, 201, 204, 400, 403, 404), (response.status_code, response.text[:300])
    if response.status_code >= 400:
        assert set(response.json()) == {"errorMessages", "errors"}, response.text[:300]
    target.settle(response.status_code in (201, 204) or (response.status_code == 200 and method != "GET" and "search" not in path), f"{method} {path} {args}")
