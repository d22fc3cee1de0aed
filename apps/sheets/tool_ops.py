"""The composite operations the Google Sheets MCP server (xing5/mcp-google-sheets) offers as
single tools, with its result shapes: a sheet name and an A1 range given apart, formulas as a
2-D array, rows added by count, summaries of several spreadsheets. Each is one transaction
over the same service methods the Sheets API face uses. Bound into `SheetsService`."""

from __future__ import annotations

from typing import Any

from apps.sheets.a1 import quote_sheet
from apps.sheets.errors import invalid
from apps.sheets.params import Count, Index0, Range, SheetTitle, SpreadsheetId, Title, Values
from officegym.core.operations import operation

CHART_TYPES = ("COLUMN", "BAR", "LINE", "AREA", "PIE", "SCATTER", "COMBO", "HISTOGRAM")


def full_range(sheet: str, area: str | None) -> str:
    return f"{quote_sheet(sheet)}!{area}" if area else quote_sheet(sheet)


def _tab_id(self: Any, spreadsheet_id: str, sheet: str, tabs: list[Any] | None = None) -> int:
    for tab in self.tab_rows(spreadsheet_id) if tabs is None else tabs:
        if tab.title == sheet:
            return tab.sheet_id
    raise invalid(f"Sheet '{sheet}' not found (sheets: {', '.join(t.title for t in self.tabs(spreadsheet_id))})")


@operation("sheets.getSheetData")
def get_sheet_data(self: Any, spreadsheet_id: SpreadsheetId, sheet: SheetTitle, range: Range | None = None,
                   include_grid_data: bool = False) -> dict[str, Any]:
    """Values of a sheet (or a range of it): {spreadsheetId, valueRanges: [{range, values}]};
    with include_grid_data, the full grid data with formats."""
    target = full_range(sheet, range)
    _tab_id(self, self.opened(spreadsheet_id).id, sheet)
    if include_grid_data:
        return self.spreadsheets_get(spreadsheet_id, [target], True)
    found = self.value_range(spreadsheet_id, target)
    return {"spreadsheetId": spreadsheet_id, "valueRanges": [{"range": target, "values": found.get("values", [])}]}


@operation("sheets.getSheetFormulas")
def get_sheet_formulas(self: Any, spreadsheet_id: SpreadsheetId, sheet: SheetTitle, range: Range | None = None) -> list[list[Any]]:
    """The formulas of a sheet or range as a 2-D array (plain values where a cell has no formula)."""
    self.opened(spreadsheet_id)
    _tab_id(self, spreadsheet_id, sheet)
    return self.value_range(spreadsheet_id, full_range(sheet, range), render="FORMULA").get("values", [])


@operation("sheets.updateCells", writes=True)
def update_cells(self: Any, spreadsheet_id: SpreadsheetId, sheet: SheetTitle, range: Range, data: Values) -> dict[str, Any]:
    """Write a 2-D array into a range as if typed (USER_ENTERED: '=…' is a formula, '12%' a number)."""
    spreadsheet = self.opened(spreadsheet_id, write=True)
    tabs = self.tab_rows(spreadsheet_id)
    _tab_id(self, spreadsheet_id, sheet, tabs)
    return self.write_values(spreadsheet, full_range(sheet, range), data, "USER_ENTERED", tabs=tabs)


@operation("sheets.batchUpdateCells", writes=True)
def batch_update_cells(self: Any, spreadsheet_id: SpreadsheetId, sheet: SheetTitle, ranges: dict[str, list[list[Any]]]) -> dict[str, Any]:
    """Write several ranges of one sheet: {'A1:B2': [[1, 2], [3, 4]], 'D1': [['x']]} (USER_ENTERED)."""
    _tab_id(self, self.opened(spreadsheet_id).id, sheet)
    data = [{"range": full_range(sheet, area), "values": values} for area, values in ranges.items()]
    if not data:
        raise invalid("ranges must map at least one A1 range to a 2-D array of values")
    return self.values_batch_update(spreadsheet_id, data, "USER_ENTERED")


def _insert(self: Any, spreadsheet_id: str, sheet: str, dimension: str, count: int, start: int | None) -> dict[str, Any]:
    sid = _tab_id(self, self.spreadsheet(spreadsheet_id, write=True).id, sheet)
    at = start if start is not None else 0
    request = {"insertDimension": {"range": {"sheetId": sid, "dimension": dimension, "startIndex": at, "endIndex": at + count},
                                   "inheritFromBefore": start is not None and start > 0}}
    return self.spreadsheets_batch_update(spreadsheet_id, [request])


@operation("sheets.addRows", writes=True)
def add_rows(self: Any, spreadsheet_id: SpreadsheetId, sheet: SheetTitle, count: Count, start_row: Index0 | None = None) -> dict[str, Any]:
    """Insert `count` empty rows at 0-based `start_row` (default: at the top); formulas below adjust."""
    return _insert(self, spreadsheet_id, sheet, "ROWS", count, start_row)


@operation("sheets.addColumns", writes=True)
def add_columns(self: Any, spreadsheet_id: SpreadsheetId, sheet: SheetTitle, count: Count, start_column: Index0 | None = None) -> dict[str, Any]:
    """Insert `count` empty columns at 0-based `start_column` (default: at the left)."""
    return _insert(self, spreadsheet_id, sheet, "COLUMNS", count, start_column)


@operation("sheets.listSheets")
def list_sheets(self: Any, spreadsheet_id: SpreadsheetId) -> list[str]:
    """The titles of a spreadsheet's tabs, in order."""
    return [t.title for t in self.tabs(self.opened(spreadsheet_id).id)]


@operation("sheets.copySheet", writes=True)
def copy_sheet(self: Any, src_spreadsheet: SpreadsheetId, src_sheet: SheetTitle, dst_spreadsheet: SpreadsheetId,
               dst_sheet: SheetTitle) -> dict[str, Any]:
    """Copy a tab into a spreadsheet and name it `dst_sheet`: {copy[, rename]}."""
    sid = _tab_id(self, self.spreadsheet(src_spreadsheet).id, src_sheet)
    copied = self.sheets_copy_to(src_spreadsheet, sid, dst_spreadsheet)
    if copied["title"] == dst_sheet:
        return {"copy": copied}
    renamed = self.spreadsheets_batch_update(dst_spreadsheet, [{"updateSheetProperties": {
        "properties": {"sheetId": copied["sheetId"], "title": dst_sheet}, "fields": "title"}}])
    return {"copy": copied, "rename": renamed}


@operation("sheets.renameSheet", writes=True)
def rename_sheet(self: Any, spreadsheet: SpreadsheetId, sheet: SheetTitle, new_name: SheetTitle) -> dict[str, Any]:
    """Rename a tab; formulas that reference it follow the new name."""
    sid = _tab_id(self, self.spreadsheet(spreadsheet, write=True).id, sheet)
    return self.spreadsheets_batch_update(spreadsheet, [{"updateSheetProperties": {
        "properties": {"sheetId": sid, "title": new_name}, "fields": "title"}}])


@operation("sheets.getMultipleSheetData")
def multiple_sheet_data(self: Any, queries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Several ranges from any spreadsheets: each query {spreadsheet_id, sheet, range} comes back with `data` or `error`."""
    results = []
    for query in queries:
        if not isinstance(query, dict) or not all(query.get(k) for k in ("spreadsheet_id", "sheet", "range")):
            results.append({**(query if isinstance(query, dict) else {}), "error": "Missing required keys (spreadsheet_id, sheet, range)"})
            continue
        try:
            found = self.value_range(str(query["spreadsheet_id"]), full_range(str(query["sheet"]), str(query["range"])))
            results.append({**query, "data": found.get("values", [])})
        except Exception as error:  # noqa: BLE001 - a bad query reports its error in place, as the server does
            results.append({**query, "error": getattr(error, "message", str(error))})
    return results


@operation("sheets.getMultipleSpreadsheetSummary")
def spreadsheet_summary(self: Any, spreadsheet_ids: list[str], rows_to_fetch: Count = 5) -> list[dict[str, Any]]:
    """For each spreadsheet: title and, per tab, its headers and first rows."""
    out = []
    for sid in spreadsheet_ids:
        summary: dict[str, Any] = {"spreadsheet_id": sid, "title": None, "sheets": [], "error": None}
        try:
            spreadsheet = self.spreadsheet(str(sid))
            summary["title"] = spreadsheet.title
            for tab in self.tabs(spreadsheet.id):
                rows = self.value_range(spreadsheet.id, f"{quote_sheet(tab.title)}!A1:{max(1, rows_to_fetch)}").get("values", [])
                summary["sheets"].append({"title": tab.title, "sheet_id": tab.sheet_id, "headers": rows[0] if rows else [],
                                          "first_rows": rows[1:max(1, rows_to_fetch)] if len(rows) > 1 else [], "error": None})
        except Exception as error:  # noqa: BLE001 - reported per spreadsheet, as the server does
            summary["error"] = f"Error fetching spreadsheet {sid}: {getattr(error, 'message', error)}"
        out.append(summary)
    return out


@operation("sheets.createSpreadsheet", writes=True)
def create_spreadsheet(self: Any, title: Title, folder_id: str | None = None) -> dict[str, Any]:
    """Create a spreadsheet (one tab, 'Sheet1'): {spreadsheetId, title, folder}."""
    from apps.sheets.spreadsheets import insert_spreadsheet

    folder = folder_id or "root"
    return {"spreadsheetId": insert_spreadsheet(self, title, None, folder), "title": title, "folder": folder}


@operation("sheets.createSheet", writes=True)
def create_sheet(self: Any, spreadsheet_id: SpreadsheetId, title: SheetTitle) -> dict[str, Any]:
    """Add a tab: {sheetId, title, index, spreadsheetId}."""
    reply = self.spreadsheets_batch_update(spreadsheet_id, [{"addSheet": {"properties": {"title": title}}}])
    props = reply["replies"][0]["addSheet"]["properties"]
    return {"sheetId": props["sheetId"], "title": props["title"], "index": props["index"], "spreadsheetId": spreadsheet_id}


@operation("sheets.addChart", writes=True)
def add_chart(self: Any, spreadsheet_id: SpreadsheetId, sheet: SheetTitle, chart_type: str, data_range: Range,
              title: str | None = None, x_axis_label: str | None = None, y_axis_label: str | None = None,
              position_x: int = 0, position_y: int = 0, width: int = 600, height: int = 400) -> dict[str, Any]:
    """Add a chart of a data range (first row headers, first column the domain)."""
    kind = chart_type.upper()
    if kind not in CHART_TYPES:
        raise invalid(f"Invalid chart type '{chart_type}'. Must be one of: {', '.join(CHART_TYPES)}")
    sid = _tab_id(self, self.spreadsheet(spreadsheet_id, write=True).id, sheet)
    _, grid = self.locate(spreadsheet_id, full_range(sheet, data_range))
    bounded = grid.bounded(10_000_000, 18_278)
    source = {"sheetId": sid, "startRowIndex": bounded.r1, "endRowIndex": bounded.r2, "startColumnIndex": bounded.c1, "endColumnIndex": bounded.c2}
    domain = {**source, "endColumnIndex": bounded.c1 + 1}
    series = [{**source, "startColumnIndex": c, "endColumnIndex": c + 1} for c in range(bounded.c1 + 1, bounded.c2 or bounded.c1 + 1)]
    if kind == "PIE":
        spec: dict[str, Any] = {"pieChart": {"legendPosition": "RIGHT_LEGEND", "domain": {"sourceRange": {"sources": [domain]}},
                                             "series": {"sourceRange": {"sources": series[:1]}}}}
    else:
        axis = [a for a in ({"position": "BOTTOM_AXIS", "title": x_axis_label} if x_axis_label else None,
                            {"position": "LEFT_AXIS", "title": y_axis_label} if y_axis_label else None) if a]
        spec = {"basicChart": {"chartType": kind, "legendPosition": "RIGHT_LEGEND", "axis": axis, "headerCount": 1,
                               "domains": [{"domain": {"sourceRange": {"sources": [domain]}}}],
                               "series": [{"series": {"sourceRange": {"sources": [s]}}, "targetAxis": "LEFT_AXIS"} for s in series]}}
    if title:
        spec["title"] = title
    position = {"overlayPosition": {"anchorCell": {"sheetId": sid, "rowIndex": 0, "columnIndex": 0}, "offsetXPixels": position_x,
                                    "offsetYPixels": position_y, "widthPixels": width, "heightPixels": height}}
    result = self.spreadsheets_batch_update(spreadsheet_id, [{"addChart": {"chart": {"spec": spec, "position": position}}}])
    return {"success": True, "message": f"Chart '{title or kind}' added successfully",
            "chartId": result["replies"][0]["addChart"]["chart"]["chartId"], "result": result}
