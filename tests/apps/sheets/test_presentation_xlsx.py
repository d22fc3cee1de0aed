"""An .xlsx file carries a tab's auto filter, data validation, conditional formatting and
borders both ways: an exported file has them as Excel keeps them (read here with openpyxl, the
rows the filter hides saved hidden), importing that file gives them back, and a workbook made
in Excel (here: by openpyxl) opens with them. Through the MCP export_xlsx / import_xlsx tools.

Before, an exported file had none of them, and importing a workbook dropped them."""

from __future__ import annotations

import asyncio
import base64
import io
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.formatting.rule import CellIsRule, ColorScaleRule, FormulaRule
from openpyxl.styles import Border, PatternFill, Side
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.filters import FilterColumn, Filters

from officegym.core.env_store import Env
from officegym.gym import Gym
from officegym.validate import McpTools
from tests.apps.sheets.test_basic_filter import sheets

RED = {"red": 1.0}


def _mcp(gym: Gym, env: Env, solver: Any) -> Any:
    async def go() -> Any:
        async with gym.mcp_client(env.id) as client:
            return await solver(McpTools(client))

    return asyncio.run(go())


def rng(r1: int, r2: int, c1: int, c2: int) -> dict[str, int]:
    return {"sheetId": 0, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


@pytest.fixture
def made(agent_url: str, env: Env) -> tuple[Any, str]:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Presented"}}).execute()["spreadsheetId"]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:C5", valueInputOption="USER_ENTERED", body={"values": [
        ["Who", "Region", "Amount"], ["Ann", "West", 120], ["Bob", "East", 40], ["Cy", "West", 75], ["Di", "North", 300]]}).execute()
    api.batchUpdate(spreadsheetId=sid, body={"requests": [
        {"setDataValidation": {"range": rng(1, 5, 1, 2), "rule": {"condition": {"type": "ONE_OF_LIST", "values": [
            {"userEnteredValue": "West"}, {"userEnteredValue": "East"}, {"userEnteredValue": "North"}]}, "strict": True, "showCustomUi": True}}},
        {"setDataValidation": {"range": rng(1, 5, 2, 3), "rule": {"condition": {"type": "NUMBER_BETWEEN", "values": [
            {"userEnteredValue": "0"}, {"userEnteredValue": "1000"}]}}}},
        {"setBasicFilter": {"filter": {"range": rng(0, 5, 0, 3), "filterSpecs": [
            {"columnIndex": 1, "filterCriteria": {"hiddenValues": ["East"]}},
            {"columnIndex": 2, "filterCriteria": {"condition": {"type": "NUMBER_GREATER", "values": [{"userEnteredValue": "50"}]}}}]}}},
        {"addConditionalFormatRule": {"rule": {"ranges": [rng(1, 5, 2, 3)], "booleanRule": {
            "condition": {"type": "NUMBER_GREATER", "values": [{"userEnteredValue": "100"}]},
            "format": {"backgroundColor": RED, "textFormat": {"bold": True}}}}}},
        {"addConditionalFormatRule": {"index": 1, "rule": {"ranges": [rng(1, 5, 0, 1)], "booleanRule": {
            "condition": {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": "=$C2<50"}]}, "format": {"textFormat": {"italic": True}}}}}},
        {"updateBorders": {"range": rng(0, 1, 0, 3), "bottom": {"style": "SOLID_MEDIUM", "color": RED}}},
    ]}).execute()
    return api, sid


def test_export_writes_them_as_excel_keeps_them_and_import_reads_them_back(made: tuple[Any, str], gym: Gym, env: Env) -> None:
    api, sid = made

    async def go(tools: McpTools) -> tuple[Any, Any]:
        exported = await tools.call("export_xlsx", spreadsheet_id=sid)
        back = await tools.call("import_xlsx", content_base64=exported["content_base64"], title="Round trip")
        return exported, back

    exported, back = _mcp(gym, env, go)
    ws = load_workbook(io.BytesIO(base64.b64decode(exported["content_base64"])))["Sheet1"]
    assert ws.auto_filter.ref == "A1:C5"
    assert [r for r in range(1, 6) if ws.row_dimensions[r].hidden] == [3]  # Bob: East and 40
    lists = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    assert lists["B2:B5"].type == "list" and lists["B2:B5"].formula1 == '"West,East,North"' and lists["B2:B5"].errorStyle == "stop"
    assert lists["C2:C5"].type == "decimal" and lists["C2:C5"].operator == "between"
    rules = [(str(cf.sqref), rule) for cf in ws.conditional_formatting for rule in cf.rules]
    assert [(where, rule.type) for where, rule in rules] == [("C2:C5", "cellIs"), ("A2:A5", "expression")]
    assert rules[0][1].formula == ["100"] and rules[1][1].formula == ["$C2<50"]
    assert ws["B1"].border.bottom.style == "medium" and ws["B1"].border.bottom.color.rgb == "FFFF0000"

    got = api.get(spreadsheetId=back["spreadsheetId"], ranges=["Sheet1!A1:C5"], includeGridData=True).execute()["sheets"][0]
    original = api.get(spreadsheetId=sid, ranges=["Sheet1!A1:C5"], includeGridData=True).execute()["sheets"][0]
    assert got["basicFilter"] == original["basicFilter"]
    assert got["conditionalFormats"] == original["conditionalFormats"]
    data, was = got["data"][0], original["data"][0]
    assert [m.get("hiddenByFilter", False) for m in data["rowMetadata"]] == [False, False, True, False, False]
    assert not any(m.get("hiddenByUser") for m in data["rowMetadata"])  # hidden by the filter, not by the user
    cells = [[c.get("dataValidation") for c in row["values"]] for row in data["rowData"]]
    assert cells == [[c.get("dataValidation") for c in row["values"]] for row in was["rowData"]]
    assert data["rowData"][0]["values"][1]["userEnteredFormat"]["borders"] == was["rowData"][0]["values"][1]["userEnteredFormat"]["borders"]


def test_a_workbook_made_in_excel_opens_with_them(made: tuple[Any, str], gym: Gym, env: Env) -> None:
    api, _ = made
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Data"
    for row in [["Item", "Status", "Qty"], ["a", "Open", 5], ["b", "Done", 50], ["c", "Open", 500]]:
        ws.append(row)
    ws.auto_filter.ref = "A1:C4"
    column = FilterColumn(colId=1)
    column.filters = Filters(filter=["Open"])
    ws.auto_filter.filterColumn.append(column)
    ws.row_dimensions[3].hidden = True
    dropdown = DataValidation(type="list", formula1='"Open,Done"', allow_blank=True)
    dropdown.add("B2:B10")
    ws.add_data_validation(dropdown)
    ws.conditional_formatting.add("C2:C4", CellIsRule(operator="greaterThan", formula=["10"], fill=PatternFill(
        start_color="FF00FF00", end_color="FF00FF00", fill_type="solid")))
    ws.conditional_formatting.add("A2:A4", FormulaRule(formula=['$B2="Done"']))
    ws.conditional_formatting.add("C2:C4", ColorScaleRule(start_type="min", start_color="FFFFFFFF", end_type="max", end_color="FF00FF00"))
    ws["A1"].border = Border(bottom=Side(style="thick", color="FF0000FF"))
    out = io.BytesIO()
    workbook.save(out)
    made_in_excel = _mcp(gym, env, lambda t: t.call("import_xlsx", content_base64=base64.b64encode(out.getvalue()).decode()))
    got = api.get(spreadsheetId=made_in_excel["spreadsheetId"], ranges=["Data!A1:C4"], includeGridData=True).execute()["sheets"][0]
    assert got["basicFilter"]["range"] == rng(0, 4, 0, 3)
    assert got["basicFilter"]["filterSpecs"] == [{"columnIndex": 1, "filterCriteria": {"hiddenValues": ["Done"]}}]
    assert [m.get("hiddenByFilter", False) for m in got["data"][0]["rowMetadata"]] == [False, False, True, False]
    kinds = [next(iter(set(r) - {"ranges"})) for r in got["conditionalFormats"]]
    assert kinds == ["booleanRule", "gradientRule", "booleanRule"] or sorted(kinds) == ["booleanRule", "booleanRule", "gradientRule"]
    conditions = [r["booleanRule"]["condition"] for r in got["conditionalFormats"] if "booleanRule" in r]
    assert {"type": "NUMBER_GREATER", "values": [{"userEnteredValue": "10"}]} in conditions
    assert {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": '=$B2="Done"'}]} in conditions
    rows = got["data"][0]["rowData"]
    assert rows[1]["values"][1]["dataValidation"]["condition"] == {"type": "ONE_OF_LIST", "values": [
        {"userEnteredValue": "Open"}, {"userEnteredValue": "Done"}]}
    assert rows[0]["values"][0]["userEnteredFormat"]["borders"]["bottom"]["style"] == "SOLID_THICK"
