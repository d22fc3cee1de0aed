"""The crm tool servers over real streamable HTTP with the official MCP SDK client: the
reference toolset lists tsmztech's six data tools with their exact arguments and answers in
that server's text, writes and lead conversion work and land in the trajectory, errors are
`is_error` results in Salesforce's shape that change nothing; the official toolset answers
raw SOQL results."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client
from mcp_types import CallToolResult

# tsmztech/mcp-server-salesforce: name -> (required, all params)
REFERENCE_TOOLS: dict[str, tuple[set[str], set[str]]] = {
    "salesforce_search_objects": ({"searchPattern"}, {"searchPattern"}),
    "salesforce_describe_object": ({"objectName"}, {"objectName"}),
    "salesforce_query_records": ({"objectName", "fields"}, {"objectName", "fields", "whereClause", "orderBy", "limit"}),
    "salesforce_aggregate_query": ({"objectName", "selectFields", "groupByFields"},
                                   {"objectName", "selectFields", "groupByFields", "whereClause", "havingClause", "orderBy", "limit"}),
    "salesforce_dml_records": ({"operation", "objectName", "records"}, {"operation", "objectName", "records", "externalIdField"}),
    "salesforce_search_all": ({"searchTerm", "objects"}, {"searchTerm", "searchIn", "objects"}),
}
WRITES = {"salesforce_dml_records", "salesforce_convert_lead"}


def mcp_url(live_server: Any, env_id: str) -> str:
    return f"{live_server.base_url}/envs/{env_id}/mcp/crm"


def text(result: CallToolResult) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text", result.content
    return result.content[0].text


def ok_text(result: CallToolResult) -> str:
    assert result.is_error is False, text(result)
    return text(result)


async def test_reference_tools_are_listed_as_tsmztech_lists_them(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(REFERENCE_TOOLS) <= set(tools)
    for name, (required, params) in REFERENCE_TOOLS.items():
        schema = tools[name].input_schema
        assert set(schema["required"]) == required and set(schema["properties"]) == params, name
    assert tools["salesforce_dml_records"].input_schema["properties"]["operation"]["enum"] == ["insert", "update", "delete", "upsert"]
    assert tools["salesforce_query_records"].input_schema["properties"]["fields"]["type"] == "array"
    for name, tool in tools.items():
        assert name.startswith("salesforce_") and tool.description
        assert tool.annotations.read_only_hint is (name not in WRITES), name
    assert tools["salesforce_dml_records"].annotations.destructive_hint is True
    assert {"salesforce_run_soql", "salesforce_convert_lead", "salesforce_query_more"} <= set(tools)


async def test_reading_tools_answer_in_the_reference_text(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        found = ok_text(await client.call_tool("salesforce_search_objects", {"searchPattern": "opportunity"}))
        assert found.startswith("Found 2 matching objects:") and "OpportunityLineItem\n  Label: Opportunity Product" in found
        described = ok_text(await client.call_tool("salesforce_describe_object", {"objectName": "Opportunity"}))
        assert "Object: Opportunity (Opportunity)" in described
        assert "  - StageName (Stage)\n    Type: picklist, Length: 255\n    Required: true" in described
        assert "Picklist Values: Prospecting, Qualification, Needs Analysis" in described
        rows = ok_text(await client.call_tool("salesforce_query_records", {
            "objectName": "Account", "fields": ["Name", "Owner.Name", "(SELECT Id FROM Contacts)"],
            "whereClause": "Tier__c = 'Enterprise'", "orderBy": "Name", "limit": 3}))
        assert rows.startswith("Query returned 3 records:\n\nRecord 1:\n    Name: ")
        assert "    Owner.Name: " in rows and "    Contacts: [" in rows
        grouped = ok_text(await client.call_tool("salesforce_aggregate_query", {
            "objectName": "Opportunity", "selectFields": ["StageName", "COUNT(Id) OpportunityCount", "SUM(Amount)"],
            "groupByFields": ["StageName"], "havingClause": "COUNT(Id) > 0", "orderBy": "StageName"}))
        assert grouped.startswith("Aggregate query returned 10 grouped results:\n\nGroup 1:\n    StageName: Closed Lost\n    OpportunityCount: ")
        assert "    expr0: " in grouped
        raw = json.loads(ok_text(await client.call_tool("salesforce_run_soql", {"query": "SELECT COUNT() FROM Lead"})))
        assert raw["done"] is True and raw["totalSize"] > 0 and raw["records"] == []
        searched = ok_text(await client.call_tool("salesforce_search_all", {
            "searchTerm": "Platform*", "searchIn": "NAME FIELDS", "objects": [{"name": "Opportunity", "fields": ["Name", "StageName"], "limit": 2},
                                                                              {"name": "Account", "fields": ["Name"]}]}))
        assert searched.startswith("Search Results:\nOpportunity (2 records found):\n  Record 1:\n    Name: ")
        assert "\nAccount (0 records found):\n" in searched


async def test_writes_convert_and_land_in_the_trajectory(live_server: Any, env_id: str) -> None:
    gym = live_server.gym
    async with Client(mcp_url(live_server, env_id)) as client:
        made = ok_text(await client.call_tool("salesforce_dml_records", {
            "operation": "insert", "objectName": "Task", "records": [{"Subject": "Call Ada", "Status": "Completed"}, {"Status": "Done"}]}))
        assert "Processed 2 records:\n- Successful: 1\n- Failed: 1" in made and "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST" in made
        lead = json.loads(ok_text(await client.call_tool("salesforce_run_soql", {"query": "SELECT Id FROM Lead WHERE IsConverted = false LIMIT 1"})))
        lead_id = lead["records"][0]["Id"]
        converted = json.loads(ok_text(await client.call_tool("salesforce_convert_lead", {"leadId": lead_id, "doNotCreateOpportunity": True})))
        assert converted["success"] is True and converted["opportunityId"] is None and converted["contactId"].startswith("003")
    tools = [e["tool"] for e in gym.events(env_id)]
    assert tools[-3:] == ["salesforce_dml_records", "salesforce_run_soql", "salesforce_convert_lead"]
    changes = {(c.table, c.change) for c in gym.changes(env_id)}
    assert ("crm_task", "insert") in changes and ("crm_contact", "insert") in changes and ("crm_lead", "update") in changes


@pytest.mark.parametrize(("tool", "args", "code"), [
    ("salesforce_query_records", {"objectName": "Acount", "fields": ["Id"]}, "INVALID_TYPE"),
    ("salesforce_query_records", {"objectName": "Account", "fields": ["Nme"]}, "INVALID_FIELD"),
    ("salesforce_query_records", {"objectName": "Account", "fields": ["Id"], "whereClause": "Name = "}, "MALFORMED_QUERY"),
    ("salesforce_aggregate_query", {"objectName": "Opportunity", "selectFields": ["StageName", "COUNT(Id)"], "groupByFields": ["Type"]}, "MALFORMED_QUERY"),
    ("salesforce_dml_records", {"operation": "merge", "objectName": "Account", "records": [{"Name": "x"}]}, "INVALID_INPUT"),
    ("salesforce_dml_records", {"operation": "upsert", "objectName": "Account", "records": [{"Name": "x"}]}, "MISSING_ARGUMENT"),
    ("salesforce_describe_object", {"objectName": "Widget__c"}, "NOT_FOUND"),
    ("salesforce_convert_lead", {"leadId": "00Qnope"}, "MALFORMED_ID"),
])
async def test_bad_calls_are_errors_that_change_nothing(live_server: Any, env_id: str, tool: str, args: dict[str, Any], code: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        result = await client.call_tool(tool, args)
    assert result.is_error is True
    errors = json.loads(text(result))
    assert errors[0]["errorCode"] == code, errors
    assert live_server.gym.changes(env_id) == []


async def test_official_toolset_answers_raw_soql(live_server: Any) -> None:
    gym = live_server.gym
    env = gym.create(toolset="official")
    try:
        async with Client(mcp_url(live_server, env.id)) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == {"run_soql_query", "salesforce_dml_records"}
            raw = json.loads(ok_text(await client.call_tool("run_soql_query", {"query": "SELECT Id, Name, Account.Name FROM Opportunity ORDER BY Name LIMIT 2"})))
            assert raw["totalSize"] == 2 and raw["done"] is True
            record = raw["records"][0]
            assert record["attributes"]["type"] == "Opportunity" and record["attributes"]["url"].endswith(record["Id"])
            assert record["Account"]["attributes"]["type"] == "Account"
            tooling = await client.call_tool("run_soql_query", {"query": "SELECT Id FROM ApexClass", "useToolingApi": True})
            assert tooling.is_error is True
    finally:
        gym.delete(env.id)
