"""The sheets tool servers over real streamable HTTP with the official MCP SDK client: the
reference toolset (xing5/mcp-google-sheets' 20 tools, their arguments and result shapes),
the Excel-style toolset, clear errors that leave state untouched, and every call in the
env's trajectory."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client
from mcp_types import CallToolResult

from officegym.core import events
from officegym.core.env_store import Env
from officegym.gym import Gym

# xing5/mcp-google-sheets: name → (required, all params)
REFERENCE_TOOLS: dict[str, tuple[set[str], set[str]]] = {
    "get_sheet_data": ({"spreadsheet_id", "sheet"}, {"spreadsheet_id", "sheet", "range", "include_grid_data"}),
    "get_sheet_formulas": ({"spreadsheet_id", "sheet"}, {"spreadsheet_id", "sheet", "range"}),
    "update_cells": ({"spreadsheet_id", "sheet", "range", "data"}, {"spreadsheet_id", "sheet", "range", "data"}),
    "batch_update_cells": ({"spreadsheet_id", "sheet", "ranges"}, {"spreadsheet_id", "sheet", "ranges"}),
    "add_rows": ({"spreadsheet_id", "sheet", "count"}, {"spreadsheet_id", "sheet", "count", "start_row"}),
    "add_columns": ({"spreadsheet_id", "sheet", "count"}, {"spreadsheet_id", "sheet", "count", "start_column"}),
    "list_sheets": ({"spreadsheet_id"}, {"spreadsheet_id"}),
    "copy_sheet": ({"src_spreadsheet", "src_sheet", "dst_spreadsheet", "dst_sheet"}, {"src_spreadsheet", "src_sheet", "dst_spreadsheet", "dst_sheet"}),
    "rename_sheet": ({"spreadsheet", "sheet", "new_name"}, {"spreadsheet", "sheet", "new_name"}),
    "get_multiple_sheet_data": ({"queries"}, {"queries"}),
    "get_multiple_spreadsheet_summary": ({"spreadsheet_ids"}, {"spreadsheet_ids", "rows_to_fetch"}),
    "create_spreadsheet": ({"title"}, {"title", "folder_id"}),
    "create_sheet": ({"spreadsheet_id", "title"}, {"spreadsheet_id", "title"}),
    "list_spreadsheets": (set(), {"folder_id"}),
    "share_spreadsheet": ({"spreadsheet_id", "recipients"}, {"spreadsheet_id", "recipients", "send_notification"}),
    "list_folders": (set(), {"parent_folder_id"}),
    "search_spreadsheets": ({"query"}, {"query", "max_results"}),
    "find_in_spreadsheet": ({"spreadsheet_id", "query"}, {"spreadsheet_id", "query", "sheet", "case_sensitive", "max_results"}),
    "batch_update": ({"spreadsheet_id", "requests"}, {"spreadsheet_id", "requests"}),
    "add_chart": ({"spreadsheet_id", "sheet", "chart_type", "data_range"},
                  {"spreadsheet_id", "sheet", "chart_type", "data_range", "title", "x_axis_label", "y_axis_label", "position_x",
                   "position_y", "width", "height"}),
}
READ_TOOLS = {"get_sheet_data", "get_sheet_formulas", "list_sheets", "get_multiple_sheet_data", "get_multiple_spreadsheet_summary",
              "list_spreadsheets", "list_folders", "search_spreadsheets", "find_in_spreadsheet"}


def url(live_server: Any, env_id: str) -> str:
    return f"{live_server.base_url}/envs/{env_id}/mcp/sheets"


def data(result: CallToolResult) -> Any:
    assert len(result.content) == 1 and result.content[0].type == "text", result.content
    assert result.is_error is False, result.content[0].text
    return json.loads(result.content[0].text)


def failure(result: CallToolResult) -> dict[str, Any]:
    assert result.is_error is True, result
    return json.loads(result.content[0].text)


async def test_tool_listing_matches_the_reference_server(live_server: Any, env_id: str) -> None:
    async with Client(url(live_server, env_id)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert len(REFERENCE_TOOLS) == 20 and set(REFERENCE_TOOLS) <= set(tools)
    for name, (required, params) in REFERENCE_TOOLS.items():
        schema = tools[name].input_schema
        assert set(schema.get("required", [])) == required, name
        assert set(schema["properties"]) == params, name
        assert tools[name].annotations.read_only_hint is (name in READ_TOOLS), name
        assert tools[name].description, name
    assert schema_type(tools["update_cells"], "data") == "array" and schema_type(tools["batch_update_cells"], "ranges") == "object"


def schema_type(tool: Any, prop: str) -> str:
    return tool.input_schema["properties"][prop].get("type")


async def test_reference_tools_over_http(live_server: Any, gym: Gym, env: Env) -> None:
    async with Client(url(live_server, env.id)) as client:
        found = data(await client.call_tool("search_spreadsheets", {"query": "Sales Forecast"}))
        forecast = found[0]["id"]
        assert found[0]["name"].startswith("Sales Forecast") and found[0]["owners"]
        assert data(await client.call_tool("list_sheets", {"spreadsheet_id": forecast})) == ["Pipeline", "Stages", "Summary"]
        got = data(await client.call_tool("get_sheet_data", {"spreadsheet_id": forecast, "sheet": "Summary", "range": "A1:B2"}))
        assert got["spreadsheetId"] == forecast and got["valueRanges"][0]["range"] == "Summary!A1:B2"
        assert got["valueRanges"][0]["values"][0] == ["Stage", "Deals"]
        formulas = data(await client.call_tool("get_sheet_formulas", {"spreadsheet_id": forecast, "sheet": "Pipeline", "range": "I2"}))
        assert formulas == [["=F2*H2"]]

        created = data(await client.call_tool("create_spreadsheet", {"title": "Agent notes"}))
        sid = created["spreadsheetId"]
        assert created["title"] == "Agent notes" and created["folder"] == "root" and len(sid) == 44
        updated = data(await client.call_tool("update_cells", {"spreadsheet_id": sid, "sheet": "Sheet1", "range": "A1:B2",
                                                               "data": [["x", 2], ["y", "=B1*10"]]}))
        assert updated["updatedCells"] == 4 and updated["updatedRange"] == "Sheet1!A1:B2"
        batch = data(await client.call_tool("batch_update_cells", {"spreadsheet_id": sid, "sheet": "Sheet1", "ranges": {"C1": [["=B2+1"]], "D1": [[5]]}}))
        assert batch["totalUpdatedCells"] == 2
        assert data(await client.call_tool("get_sheet_data", {"spreadsheet_id": sid, "sheet": "Sheet1"}))["valueRanges"][0]["values"] == [
            ["x", "2", "21", "5"], ["y", "20"]]
        tab = data(await client.call_tool("create_sheet", {"spreadsheet_id": sid, "title": "Extra"}))
        assert tab["title"] == "Extra" and tab["index"] == 1 and tab["spreadsheetId"] == sid
        assert "replies" in data(await client.call_tool("rename_sheet", {"spreadsheet": sid, "sheet": "Extra", "new_name": "Renamed"}))
        data(await client.call_tool("add_rows", {"spreadsheet_id": sid, "sheet": "Sheet1", "count": 1, "start_row": 0}))
        assert data(await client.call_tool("get_sheet_formulas", {"spreadsheet_id": sid, "sheet": "Sheet1", "range": "C2"})) == [["=B3+1"]]
        data(await client.call_tool("add_columns", {"spreadsheet_id": sid, "sheet": "Sheet1", "count": 2}))
        copied = data(await client.call_tool("copy_sheet", {"src_spreadsheet": forecast, "src_sheet": "Stages", "dst_spreadsheet": sid, "dst_sheet": "Stages"}))
        assert copied["copy"]["title"] == "Copy of Stages" and "rename" in copied
        multi = data(await client.call_tool("get_multiple_sheet_data", {"queries": [
            {"spreadsheet_id": sid, "sheet": "Stages", "range": "A1:B2"}, {"spreadsheet_id": sid, "sheet": "Nope", "range": "A1"}]}))
        assert multi[0]["data"][0] == ["Stage", "Probability"] and "error" in multi[1]
        summary = data(await client.call_tool("get_multiple_spreadsheet_summary", {"spreadsheet_ids": [sid], "rows_to_fetch": 2}))
        assert summary[0]["title"] == "Agent notes" and [s["title"] for s in summary[0]["sheets"]] == ["Sheet1", "Renamed", "Stages"]
        assert any(s["id"] == sid for s in data(await client.call_tool("list_spreadsheets", {})))
        assert data(await client.call_tool("list_folders", {})) == []
        hits = data(await client.call_tool("find_in_spreadsheet", {"spreadsheet_id": sid, "query": "Y"}))
        assert {"sheet": "Sheet1", "cell": "C3", "value": "y"} in hits
        colleague = found[0]["owners"][0]
        shared = data(await client.call_tool("share_spreadsheet", {"spreadsheet_id": sid, "recipients": [{"email_address": colleague, "role": "reader"}]}))
        assert shared["successes"][0]["role"] == "reader" and shared["failures"] == []
        chart = data(await client.call_tool("add_chart", {"spreadsheet_id": sid, "sheet": "Stages", "chart_type": "column", "data_range": "A1:B11", "title": "Odds"}))
        assert chart["success"] is True and isinstance(chart["chartId"], int)
        reply = data(await client.call_tool("batch_update", {"spreadsheet_id": sid, "requests": [{"addSheet": {"properties": {"title": "Q3"}}}]}))
        assert reply["replies"][0]["addSheet"]["properties"]["title"] == "Q3"

        error = failure(await client.call_tool("get_sheet_data", {"spreadsheet_id": sid, "sheet": "Sheet1", "range": "A0:B"}))
        assert error["error"]["status"] == "INVALID_ARGUMENT" and "Unable to parse range" in error["error"]["message"]
        error = failure(await client.call_tool("update_cells", {"spreadsheet_id": sid, "sheet": "Sheet1", "range": "A1"}))
        assert "'data' is required" in error["error"]["message"]
    with gym.store.session(env) as db:
        logged = events.list_events(db)
    tools = [e["tool"] for e in logged]
    assert "update_cells" in tools and "search_spreadsheets" in tools, "every call, reads included, is in the trajectory"
    assert any(e["is_error"] and e["tool"] == "get_sheet_data" for e in logged), "failed calls are logged too"


@pytest.fixture
def excel_env(gym: Gym) -> Iterator[Env]:
    created = gym.create(toolset="excel")
    yield created
    gym.delete(created.id)


async def test_excel_toolset_over_http(live_server: Any, excel_env: Env) -> None:
    async with Client(url(live_server, excel_env.id)) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert {"apply_formula", "validate_formula_syntax", "format_range", "create_pivot_table", "merge_cells", "unmerge_cells",
                "copy_range", "delete_range", "insert_rows", "insert_columns", "delete_sheet_rows", "delete_sheet_columns",
                "get_workbook_metadata"} <= names
        assert "get_sheet_data" not in names
        book = data(await client.call_tool("create_workbook", {"title": "Sales"}))["spreadsheetId"]
        data(await client.call_tool("write_data_to_excel", {"spreadsheet_id": book, "sheet_name": "Sheet1",
                                                            "data": [["Region", "Amount"], ["East", 10], ["West", 20], ["East", 5]]}))
        bad = failure(await client.call_tool("apply_formula", {"spreadsheet_id": book, "sheet_name": "Sheet1", "cell": "C1", "formula": "=SUM(B2:B4"}))
        assert "nothing was written" in bad["error"]["message"]
        ok = data(await client.call_tool("apply_formula", {"spreadsheet_id": book, "sheet_name": "Sheet1", "cell": "C1", "formula": "=SUM(B2:B4)"}))
        assert ok["value"] == 35
        data(await client.call_tool("insert_rows", {"spreadsheet_id": book, "sheet_name": "Sheet1", "start_row": 2, "count": 1}))
        read = data(await client.call_tool("read_data_from_excel", {"spreadsheet_id": book, "sheet_name": "Sheet1"}))
        assert {"address": "C1", "value": "35", "formula": "=SUM(B3:B5)"} in read["cells"]
        pivot = data(await client.call_tool("create_pivot_table", {"spreadsheet_id": book, "sheet_name": "Sheet1", "data_range": "A3:B5",
                                                                   "rows": ["East"], "values": ["10"], "agg_func": "count"}))
        assert pivot["rows"] >= 1
        data(await client.call_tool("format_range", {"spreadsheet_id": book, "sheet_name": "Sheet1", "start_cell": "B3", "end_cell": "B5", "number_format": "$#,##0"}))
        assert data(await client.call_tool("read_data_from_excel", {"spreadsheet_id": book, "sheet_name": "Sheet1", "start_cell": "B3", "end_cell": "B3"}))["values"] == [["$10"]]
        data(await client.call_tool("merge_cells", {"spreadsheet_id": book, "sheet_name": "Sheet1", "start_cell": "D1", "end_cell": "E1"}))
        meta = data(await client.call_tool("get_workbook_metadata", {"spreadsheet_id": book, "include_ranges": True}))
        assert [s["name"] for s in meta["sheets"]][0] == "Sheet1" and meta["sheets"][0]["used_range"] == "A1:C5"
