"""Property-based fuzz of every sheets MCP tool (both toolsets) and the Sheets API v4 routes
over the live server, with arguments drawn from each tool's schema mixed with hostile values
and real ids, sheet names, ranges and formulas: no 5xx, every failure in Google's error shape
(a bad argument named by the tool's own name), and a failed call or any read changes nothing
but the trajectory."""

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
from tests.e2e.test_fuzz import FUZZ, HOSTILE, MCP_HEADERS, EnvUnderFuzz, arguments

SHEETS = apps.get("sheets")
FUZZ_HERE = settings(FUZZ, max_examples=max(2, FUZZ.max_examples // (2 if backend_name(os.environ.get("OFFICEGYM_DB")) == "postgresql" else 1)))
TOOLS = [(toolset.name, tool.name) for toolset in SHEETS.toolsets for tool in toolset.tools]
REFS = ["Pipeline", "Summary", "Stages", "Sheet1", "A1", "A1:C3", "B2", "Pipeline!A1:B2", "'Summary'!A:A", "2:3", "A2:B", "Z1000",
        "=SUM(A1:A3)", "=1/0", "=A1", "=VLOOKUP(1,A:B,2,FALSE)", "=SUMM(1)", "=(", "reader", "writer", "owner", "COLUMN", "PIE",
        "sum", "count", "Stage", "Deals", "Amount", "up", "left", "root", "Closed Won"]
ROUTES = [  # (method, path after /v4/spreadsheets/{id}, with a body)
    ("GET", "", False), ("POST", ":batchUpdate", True), ("GET", "/values/{range}", False), ("PUT", "/values/{range}", True),
    ("POST", "/values/{range}:append", True), ("POST", "/values/{range}:clear", True), ("GET", "/values:batchGet", False),
    ("POST", "/values:batchUpdate", True), ("POST", "/values:batchClear", True),
]




class Target(EnvUnderFuzz):
    def __init__(self, live_server: Any, toolset: str | None) -> None:
        super().__init__(live_server, toolset, "sheets_")
        files = self.client.get(f"{self.base}/api/sheets/drive/v3/files").json()["files"]
        self.ids = [f["id"] for f in files]
        self.refs = REFS + self.ids


@pytest.fixture(scope="module")
def targets(live_server: Any) -> Iterator[dict[str | None, Target]]:
    made = {toolset.name: Target(live_server, toolset.name) for toolset in SHEETS.toolsets}
    made[None] = made["reference"]
    yield made
    for name, target in made.items():
        if name is not None:
            target.close()


def google_error(payload: Any) -> str:
    assert set(payload) == {"error"} and set(payload["error"]) == {"code", "message", "status"}, payload
    assert "the server failed" not in payload["error"]["message"], payload
    return payload["error"]["message"]


@pytest.mark.parametrize(("toolset", "tool_name"), TOOLS, ids=[f"{t}:{n}" for t, n in TOOLS])
@FUZZ_HERE
@given(data=st.data())
def test_mcp_tool(targets: dict[str | None, Target], toolset: str, tool_name: str, data: st.DataObject) -> None:
    tool = next(t for t in SHEETS.toolset(toolset).tools if t.name == tool_name)
    op = SHEETS.operations[tool.operation]
    schema = tool.input_schema(op)
    target = targets[toolset]
    args = data.draw(arguments(schema, target.refs), label="args")
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool_name, "arguments": args}}
    response = target.client.post(f"{target.base}/mcp/sheets", content=json.dumps(request, allow_nan=True).encode(), headers=MCP_HEADERS)
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
        text = google_error(payload)
        if "argument '" in text:
            assert any(f"'{name}" in text for name in schema["properties"]), f"the error names a {tool_name} argument: {text}"
    target.settle(not result.get("isError") and op.writes, f"{tool_name} {str(args)[:200]} → {str(payload)[:200]}")


@pytest.mark.parametrize(("method", "path", "with_body"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
@FUZZ_HERE
@given(data=st.data())
def test_rest_route(targets: dict[str | None, Target], method: str, path: str, with_body: bool, data: st.DataObject) -> None:
    target = targets[None]
    sid = data.draw(st.sampled_from([*target.ids, "nope", "1" * 44]), label="spreadsheet")
    rng = data.draw(st.sampled_from(["Pipeline!A1:B2", "Summary", "A1", "Nope!A1", "A0", "'", "%21", "Stages!A:A"]), label="range")
    keys = ["valueInputOption", "valueRenderOption", "majorDimension", "ranges", "includeGridData", "requests", "values", "data",
            "properties", "insertDataOption"]
    values = st.one_of(st.sampled_from(target.refs + ["RAW", "USER_ENTERED", "FORMULA", "COLUMNS"]), HOSTILE,
                       st.lists(st.one_of(st.lists(st.one_of(st.sampled_from(REFS), HOSTILE), max_size=3),
                                          st.dictionaries(st.sampled_from(["addSheet", "deleteSheet", "range", "values", "insertDimension"]),
                                                          st.one_of(HOSTILE, st.dictionaries(st.sampled_from(["sheetId", "title", "properties", "range"]), HOSTILE, max_size=2)),
                                                          max_size=2)), max_size=3))
    args = data.draw(st.dictionaries(st.sampled_from(keys), values, max_size=4), label="args")
    url = f"{target.base}/api/sheets/v4/spreadsheets/{sid}{path.replace('{range}', rng)}"
    query = {k: v for k, v in args.items() if isinstance(v, str) and "\ud800" not in v and "\udfff" not in v and "\x00" not in v}
    if with_body:
        response = target.client.request(method, url, params=query, content=json.dumps(args, allow_nan=True).encode(),
                                          headers={"content-type": "application/json"})
    else:
        response = target.client.request(method, url, params=query)
    assert response.status_code in (200, 400, 403, 404), (response.status_code, response.text[:300])
    if response.status_code >= 400 and response.headers.get("content-type", "").startswith("application/json"):
        body = response.json()
        if "error" in body and isinstance(body["error"], dict):
            google_error(body)
    target.settle(response.status_code == 200 and method != "GET", f"{method} {path} {args}")
