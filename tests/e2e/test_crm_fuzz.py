"""Property-based fuzz of every crm MCP tool (both toolsets) and the Salesforce REST routes
over the live server, with arguments drawn from each tool's schema mixed with hostile values
and SOQL fragments: no 5xx, every failure in Salesforce's error shape with a code the app
declares, a bad argument named by the tool's own name, and a failed call or any read changes
nothing but the trajectory."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from officegym import apps
from tests.e2e.test_fuzz import FUZZ, HOSTILE, MCP_HEADERS, EnvUnderFuzz, arguments, form_pairs

CRM = apps.get("crm")
TOOLS = [(toolset.name, tool.name) for toolset in CRM.toolsets for tool in toolset.tools]
SOQL = ["SELECT Id FROM Account", "SELECT Id, Name FROM Opportunity WHERE Amount > 1e400", "SELECT COUNT() FROM Lead",
        "SELECT Name, (SELECT Id FROM Contacts) FROM Account LIMIT 2", "SELECT StageName, SUM(Amount) FROM Opportunity GROUP BY StageName",
        "SELECT Id FROM Task WHERE CreatedDate = LAST_N_DAYS:99999999", "SELECT Id FROM Case WHERE CloseDate = 9999-99-99",
        "FIND {acme} RETURNING Account(Name)", "FIND {\\}} IN NAME FIELDS", "Name = 'x' OR Id != null", "Amount DESC NULLS LAST"]
REFS = ["Account", "Contact", "Opportunity", "Lead", "Case", "Task", "Event", "User", "Name", "Id", "Amount", "StageName",
        "COUNT(Id)", "Account.Name", "(SELECT Id FROM Contacts)", "insert", "update", "delete", "upsert", "Closed Won", "Closed - Converted",
        "001Hs000TwFovyCIIR", "00QHs000TwFow2pMIB", "001Hs0000000000", *SOQL]
ROUTES = [  # (method, path under /services/data/v62.0/, body?)
    ("GET", "query", False), ("GET", "queryAll", False), ("GET", "search", False), ("GET", "sobjects/Account/describe", False),
    ("POST", "sobjects/Account", True), ("POST", "sobjects/Opportunity", True), ("POST", "sobjects/Case", True),
    ("PATCH", "sobjects/Account/001Hs000TwFovyCIIR", True), ("GET", "sobjects/Contact/003Hs000TwFovyDIIR", False),
    ("DELETE", "sobjects/Lead/00Q000000000000", False), ("GET", "query/01gU0VMRUNUIElkIEZST00gVGFzaw-1", False),
]


def known_codes() -> set[str]:
    source = "".join(path.read_text() for path in sorted(CRM.source_dir.rglob("*.py")))
    from apps.crm.errors import RENAMED

    return set(re.findall(r'"([A-Z][A-Z_]+)"', source)) | set(RENAMED.values())


CODES = known_codes()


@pytest.fixture(scope="module")
def targets(live_server: Any) -> Iterator[dict[str | None, EnvUnderFuzz]]:
    made = {toolset.name: EnvUnderFuzz(live_server, toolset.name) for toolset in CRM.toolsets}
    made[None] = EnvUnderFuzz(live_server, None)
    yield made
    for target in made.values():
        target.close()


def check_errors(errors: Any, schema_names: list[str], what: str) -> None:
    assert isinstance(errors, list) and errors, errors
    for error in errors:
        assert error["errorCode"] in CODES, error
        assert "the server failed" not in error["message"], f"an unhandled error in {what}"
        if "argument '" in error["message"] and schema_names:
            assert any(f"'{name}" in error["message"] for name in schema_names), f"the error names an argument of {what}: {error}"


@pytest.mark.parametrize(("toolset", "tool_name"), TOOLS, ids=[f"{t}:{n}" for t, n in TOOLS])
@FUZZ
@given(data=st.data())
def test_mcp_tool(targets: dict[str | None, EnvUnderFuzz], toolset: str, tool_name: str, data: st.DataObject) -> None:
    tool = next(t for t in CRM.toolset(toolset).tools if t.name == tool_name)
    op = CRM.operations[tool.operation]
    schema = tool.input_schema(op)
    target = targets[toolset]
    args = data.draw(arguments(schema, REFS), label="args")
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool_name, "arguments": args}}
    response = target.client.post(f"{target.base}/mcp/crm", content=json.dumps(request, allow_nan=True).encode(), headers=MCP_HEADERS)
    assert response.status_code in (200, 400), (response.status_code, response.text[:300])
    answer = response.json()
    if "error" in answer:
        assert answer["error"]["code"] in (-32700, -32602) and "\\ud" in json.dumps(args), answer
        target.settle(False, f"{tool_name} {args}")
        return
    result = answer["result"]
    assert len(result["content"]) == 1 and result["content"][0]["type"] == "text", result
    if result.get("isError"):
        check_errors(json.loads(result["content"][0]["text"]), list(schema["properties"]), tool_name)
    target.settle(not result.get("isError") and op.writes, f"{tool_name} {str(args)[:200]} → {result['content'][0]['text'][:200]}")


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
@FUZZ
@given(data=st.data())
def test_rest_route(targets: dict[str | None, EnvUnderFuzz], method: str, path: str, body: bool, data: st.DataObject) -> None:
    target = targets[None]
    keys = ["q", "fields", "Name", "StageName", "CloseDate", "Amount", "Subject", "Status", "OwnerId", "AccountId", "Industry", "IsWon"]
    values = st.one_of(st.sampled_from(REFS), HOSTILE)
    args = data.draw(st.dictionaries(st.sampled_from(keys), values, max_size=5), label="args")
    url = f"{target.base}/api/crm/services/data/v62.0/{path}"
    if body:
        response = target.client.request(method, url, content=json.dumps(args, allow_nan=True).encode(), headers={"content-type": "application/json"})
    else:
        response = target.client.request(method, f"{url}?{form_pairs(args)}")
    assert response.status_code in (200, 201, 204, 400, 404), (response.status_code, response.text[:300])
    if response.status_code >= 400:
        check_errors(response.json(), [], f"{method} {path}")
    target.settle(response.status_code in (201, 204), f"{method} {path} {args}")
