"""The sheets toolsets, as tables of tool → operation bindings.

`REFERENCE` (the default) is the Google Sheets MCP server agents use most
(xing5/mcp-google-sheets): its 20 tools with their exact names, arguments and result shapes,
plus .xlsx import/export and the spreadsheet resource in the same naming style. `EXCEL` is the
Excel-style server's tools (haris-musa/excel-mcp-server), with a spreadsheet ID where it
takes a file path. Results are one text item holding the JSON the server returns.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from apps.sheets.bench import recalc_after_one_edit
from apps.sheets.models import Spreadsheet
from officegym.faces.mcp import Toolset, tool
from officegym.faces.probe import Call, Probe
from seed_data.sheets import FORECAST_TITLE

SS = "The ID of the spreadsheet (found in the URL)"
SHEET = "The name of the sheet"
DOCS = {"spreadsheet_id": SS, "sheet": SHEET}

REFERENCE = Toolset("reference", "sheets", (
    tool("get_sheet_data", "sheets.getSheetData", "Get data from a specific sheet in a Google Spreadsheet.",
         docs={**DOCS, "range": "Optional cell range in A1 notation (e.g., 'A1:C10'). If not provided, gets all data.",
               "include_grid_data": "If True, includes cell formatting and other metadata in the response. Default is False (returns values only, more efficient)."}),
    tool("get_sheet_formulas", "sheets.getSheetFormulas", "Get formulas from a specific sheet in a Google Spreadsheet.",
         docs={**DOCS, "range": "Optional cell range in A1 notation (e.g., 'A1:C10'). If not provided, gets all formulas from the sheet."}),
    tool("update_cells", "sheets.updateCells", "Update cells in a Google Spreadsheet.", hint="destructive",
         docs={**DOCS, "range": "Cell range in A1 notation (e.g., 'A1:C10')", "data": "2D array of values to update"}),
    tool("batch_update_cells", "sheets.batchUpdateCells", "Batch update multiple ranges in a Google Spreadsheet.", hint="destructive",
         docs={**DOCS, "ranges": "Dictionary mapping range strings to 2D arrays of values e.g., {'A1:B2': [[1, 2], [3, 4]], 'D1:E2': [['a', 'b'], ['c', 'd']]}"}),
    tool("add_rows", "sheets.addRows", "Add rows to a sheet in a Google Spreadsheet.", hint="destructive",
         docs={**DOCS, "count": "Number of rows to add", "start_row": "0-based row index to start adding. If not provided, adds at the beginning."}),
    tool("add_columns", "sheets.addColumns", "Add columns to a sheet in a Google Spreadsheet.", hint="destructive",
         docs={**DOCS, "count": "Number of columns to add",
               "start_column": "0-based column index to start adding. If not provided, adds at the beginning."}),
    tool("list_sheets", "sheets.listSheets", "List all sheets in a Google Spreadsheet.", docs={"spreadsheet_id": SS}),
    tool("copy_sheet", "sheets.copySheet", "Copy a sheet from one spreadsheet to another.", hint="destructive",
         docs={"src_spreadsheet": "Source spreadsheet ID", "src_sheet": "Source sheet name", "dst_spreadsheet": "Destination spreadsheet ID",
               "dst_sheet": "Destination sheet name"}),
    tool("rename_sheet", "sheets.renameSheet", "Rename a sheet in a Google Spreadsheet.", hint="destructive",
         docs={"spreadsheet": "Spreadsheet ID", "sheet": "Current sheet name", "new_name": "New sheet name"}),
    tool("get_multiple_sheet_data", "sheets.getMultipleSheetData", "Get data from multiple specific ranges in Google Spreadsheets.",
         docs={"queries": "A list of dictionaries, each specifying a query. Each dictionary should have 'spreadsheet_id', 'sheet', and 'range' keys. "
                          "Example: [{'spreadsheet_id': 'abc', 'sheet': 'Sheet1', 'range': 'A1:B5'}, {'spreadsheet_id': 'xyz', 'sheet': 'Data', 'range': 'C1:C10'}]"}),
    tool("get_multiple_spreadsheet_summary", "sheets.getMultipleSpreadsheetSummary",
         "Get a summary of multiple Google Spreadsheets, including sheet names, headers, and the first few rows of data for each sheet.",
         docs={"spreadsheet_ids": "A list of spreadsheet IDs to summarize.",
               "rows_to_fetch": "The number of rows (including header) to fetch for the summary (default: 5)."}),
    tool("create_spreadsheet", "sheets.createSpreadsheet", "Create a new Google Spreadsheet.", hint="destructive",
         docs={"title": "The title of the new spreadsheet", "folder_id": "Optional Google Drive folder ID where the spreadsheet should be created. "
                                                                         "If not provided, uses the configured default folder or creates in root."}),
    tool("create_sheet", "sheets.createSheet", "Create a new sheet tab in an existing Google Spreadsheet.", hint="destructive",
         docs={"spreadsheet_id": "The ID of the spreadsheet", "title": "The title for the new sheet"}),
    tool("list_spreadsheets", "sheets.files.list", "List all spreadsheets in the specified Google Drive folder. If no folder is specified, uses the configured default folder or lists from 'My Drive'.",
         args={"folder_id": "folder_id"},
         docs={"folder_id": "Optional Google Drive folder ID to search in. If not provided, uses the configured default folder or searches 'My Drive'."}),
    tool("share_spreadsheet", "sheets.permissions.share", "Share a Google Spreadsheet with multiple users via email, assigning specific roles.",
         hint="destructive",
         docs={"spreadsheet_id": "The ID of the spreadsheet to share.",
               "recipients": "A list of dictionaries, each containing 'email_address' and 'role'. The role should be one of: 'reader', 'commenter', 'writer'.",
               "send_notification": "Whether to send a notification email to the users. Defaults to True."}),
    tool("list_folders", "sheets.folders.list", "List all folders in the specified Google Drive folder. If no parent folder is specified, lists folders from 'My Drive' root.",
         docs={"parent_folder_id": "Optional Google Drive folder ID to search within. If not provided, searches the root of 'My Drive'."}),
    tool("search_spreadsheets", "sheets.files.search", "Search for spreadsheets in Google Drive by name or content.", caps={"max_results": 100},
         args={"query": "query", "max_results": "max_results"},
         docs={"query": "Search query string. Searches in file name and content. Examples: \"budget 2024\", \"sales report\", \"project tracker\"",
               "max_results": "Maximum number of results to return (default 20, max 100)"}),
    tool("find_in_spreadsheet", "sheets.find", "Find cells containing a specific value in a Google Spreadsheet.",
         docs={"spreadsheet_id": SS, "query": "The text to search for in cell values",
               "sheet": "Optional sheet name to search in. If not provided, searches all sheets.",
               "case_sensitive": "Whether the search should be case-sensitive (default False)", "max_results": "Maximum number of results to return (default 50)"}),
    tool("batch_update", "sheets.spreadsheets.batchUpdate",
         "Execute a batch update on a Google Spreadsheet using the full batchUpdate endpoint. This provides access to all batchUpdate operations "
         "including adding sheets, updating properties, inserting/deleting dimensions, formatting, and more.",
         args={"spreadsheet_id": "spreadsheetId", "requests": "requests"}, hint="destructive",
         docs={"spreadsheet_id": SS, "requests": "A list of request objects. Each request object can contain any valid batchUpdate operation. Common operations include: "
                                               "addSheet, updateSheetProperties, insertDimension, deleteDimension, updateCells, repeatCell, mergeCells, sortRange, copyPaste, "
                                               "updateDimensionProperties (hide or show rows and columns), setBasicFilter/clearBasicFilter (a filter on a tab: "
                                               "filterSpecs hide the rows that fail, sortSpecs sort them), setDataValidation (dropdowns, checkboxes, number/date/text "
                                               "rules; no rule clears), addConditionalFormatRule/updateConditionalFormatRule/deleteConditionalFormatRule, "
                                               "updateBorders, autoResizeDimensions. Check the result: get_spreadsheet shows each tab's basicFilter and "
                                               "conditionalFormats; get_sheet_data with include_grid_data shows each cell's dataValidation and "
                                               "userEnteredFormat.borders, and rowMetadata marks rows hiddenByFilter or hiddenByUser"}),
    tool("add_chart", "sheets.addChart", "Add a chart to a Google Spreadsheet. Creates a chart from the specified data range with customizable type, title, and positioning.",
         hint="destructive",
         docs={**DOCS, "sheet": "The name of the sheet containing the data",
               "chart_type": "Type of chart to create: COLUMN, BAR, LINE, AREA, PIE, SCATTER, COMBO, HISTOGRAM",
               "data_range": "A1 notation range for chart data (e.g., 'A1:C10'). The first row is typically treated as headers.",
               "title": "Optional title for the chart", "x_axis_label": "Optional label for the X axis (bottom axis)",
               "y_axis_label": "Optional label for the Y axis (left axis)", "position_x": "Horizontal position offset in pixels (default: 0)",
               "position_y": "Vertical position offset in pixels (default: 0)", "width": "Width of the chart in pixels (default: 600)",
               "height": "Height of the chart in pixels (default: 400)"}),
    # -- beyond the reference server ---------------------------------------------------------
    tool("get_spreadsheet", "sheets.spreadsheets.get",
         "Get a spreadsheet's properties: title, tabs (sheetId, title, index, rowCount, columnCount, frozen rows, basic filter, "
         "conditional format rules), merges and named ranges.",
         args={"spreadsheet_id": "spreadsheetId"}, docs={"spreadsheet_id": SS}),
    tool("import_xlsx", "sheets.importXlsx",
         "Import an Excel .xlsx file as a new spreadsheet you own: its bytes (base64-encoded), or an .xlsx uploaded to Drive by its file id "
         "(like Drive's 'Open with Google Sheets').",
         docs={"content_base64": "The .xlsx file's bytes, base64-encoded", "title": "Optional title (default: the workbook's own, or the file's name)",
               "file_id": "The Drive file ID of an uploaded .xlsx (from its link: drive.google.com/file/d/<file_id>/view)"}),
    tool("export_xlsx", "sheets.exportXlsx", "Export a spreadsheet as an Excel .xlsx file (base64-encoded in content_base64).", docs={"spreadsheet_id": SS}),
), instructions="Google Sheets: spreadsheets, tabs, cells and formulas (ranges are A1 notation within the named sheet).")

WB = "The spreadsheet ID of the workbook (from list_workbooks)"
EXCEL_DOCS = {"spreadsheet_id": WB, "sheet_name": "Name of the worksheet"}
EXCEL = Toolset("excel", "sheets", (
    tool("create_workbook", "sheets.createSpreadsheet", "Create a new workbook (one worksheet, 'Sheet1')", args={"title": "title"},
         docs={"title": "The workbook's title"}),
    tool("list_workbooks", "sheets.files.list", "List the workbooks you can open: [{id, title}]", args={}),
    tool("create_worksheet", "sheets.createSheet", "Create a new worksheet in a workbook",
         args={"spreadsheet_id": "spreadsheet_id", "sheet_name": "title"}, docs=EXCEL_DOCS),
    tool("get_workbook_metadata", "sheets.workbookMetadata", "Get metadata about a workbook: worksheets, their sizes, used ranges and named ranges",
         docs={"spreadsheet_id": WB, "include_ranges": "Include each worksheet's used range (default false)"}),
    tool("read_data_from_excel", "sheets.readRange", "Read data from a worksheet, from start_cell to end_cell (or the end of the data), with each cell's formula",
         docs={**EXCEL_DOCS, "start_cell": "Starting cell (default A1)", "end_cell": "Optional ending cell"}),
    tool("write_data_to_excel", "sheets.writeRange", "Write rows of data to a worksheet from start_cell; '=…' strings are formulas",
         docs={**EXCEL_DOCS, "data": "List of rows, each a list of values", "start_cell": "Cell to start writing to (default A1)"}),
    tool("apply_formula", "sheets.applyFormula", "Apply an Excel formula to a cell, validating it first (syntax, functions, sheet references)",
         docs={**EXCEL_DOCS, "cell": "Target cell (e.g. 'C10')", "formula": "The formula, e.g. '=SUM(C2:C9)'"}),
    tool("validate_formula_syntax", "sheets.validateFormula", "Validate a formula without writing it", docs={**EXCEL_DOCS, "cell": "Target cell", "formula": "The formula"}),
    tool("format_range", "sheets.formatRange", "Apply formatting to a range of cells", hint="idempotent",
         docs={**EXCEL_DOCS, "start_cell": "Starting cell", "end_cell": "Optional ending cell", "font_color": "Hex colour, e.g. '#FF0000'",
               "bg_color": "Hex colour, e.g. '#FFFF00'", "number_format": "Number format, e.g. '$#,##0.00', '0%', 'yyyy-mm-dd'"}),
    tool("create_pivot_table", "sheets.pivotTable",
         "Summarise a table on a new worksheet: one row per distinct value of the `rows` fields, aggregated `values` fields (live formulas)",
         docs={**EXCEL_DOCS, "data_range": "The table including its header row, e.g. 'A1:F200'", "rows": "Header names to group rows by",
               "values": "Header names to aggregate", "columns": "Optional header name to spread across columns",
               "agg_func": "sum, count, average (mean), min or max (default sum)", "target_sheet": "Name of the new worksheet (default 'Pivot of <sheet>')"}),
    tool("merge_cells", "sheets.gridEdit", "Merge a range of cells", args={"spreadsheet_id": "spreadsheet_id", "sheet_name": "sheet_name",
         "start_cell": "start_cell", "end_cell": "end_cell"}, fixed={"action": "merge"}, required=("spreadsheet_id", "sheet_name", "start_cell", "end_cell"),
         docs=EXCEL_DOCS),
    tool("unmerge_cells", "sheets.gridEdit", "Unmerge a previously merged range of cells", args={"spreadsheet_id": "spreadsheet_id",
         "sheet_name": "sheet_name", "start_cell": "start_cell", "end_cell": "end_cell"}, fixed={"action": "unmerge"},
         required=("spreadsheet_id", "sheet_name", "start_cell", "end_cell"), docs=EXCEL_DOCS, hint="destructive"),
    tool("copy_range", "sheets.gridEdit", "Copy a range of cells (relative formula references move) to another location",
         args={"spreadsheet_id": "spreadsheet_id", "sheet_name": "sheet_name", "source_start": "start_cell", "source_end": "end_cell",
               "target_start": "target_start", "target_sheet": "target_sheet"}, fixed={"action": "copy"},
         required=("spreadsheet_id", "sheet_name", "source_start", "source_end", "target_start"), docs=EXCEL_DOCS, hint="destructive"),
    tool("delete_range", "sheets.gridEdit", "Delete a range of cells and shift the remaining cells up or left",
         args={"spreadsheet_id": "spreadsheet_id", "sheet_name": "sheet_name", "start_cell": "start_cell", "end_cell": "end_cell",
               "shift_direction": "shift_direction"}, fixed={"action": "delete_range"},
         required=("spreadsheet_id", "sheet_name", "start_cell", "end_cell"), docs=EXCEL_DOCS, hint="destructive"),
    tool("insert_rows", "sheets.gridEdit", "Insert one or more rows starting at a 1-based row number (formulas adjust)",
         args={"spreadsheet_id": "spreadsheet_id", "sheet_name": "sheet_name", "start_row": "start_row", "count": "count"},
         fixed={"action": "insert_rows"}, required=("spreadsheet_id", "sheet_name", "start_row"), docs=EXCEL_DOCS),
    tool("insert_columns", "sheets.gridEdit", "Insert one or more columns starting at a 1-based column number (formulas adjust)",
         args={"spreadsheet_id": "spreadsheet_id", "sheet_name": "sheet_name", "start_col": "start_col", "count": "count"},
         fixed={"action": "insert_columns"}, required=("spreadsheet_id", "sheet_name", "start_col"), docs=EXCEL_DOCS),
    tool("delete_sheet_rows", "sheets.gridEdit", "Delete one or more rows starting at a 1-based row number (references to them become #REF!)",
         args={"spreadsheet_id": "spreadsheet_id", "sheet_name": "sheet_name", "start_row": "start_row", "count": "count"},
         fixed={"action": "delete_rows"}, required=("spreadsheet_id", "sheet_name", "start_row"), docs=EXCEL_DOCS, hint="destructive"),
    tool("delete_sheet_columns", "sheets.gridEdit", "Delete one or more columns starting at a 1-based column number",
         args={"spreadsheet_id": "spreadsheet_id", "sheet_name": "sheet_name", "start_col": "start_col", "count": "count"},
         fixed={"action": "delete_columns"}, required=("spreadsheet_id", "sheet_name", "start_col"), docs=EXCEL_DOCS, hint="destructive"),
    tool("import_workbook", "sheets.importXlsx", "Import an .xlsx file (base64-encoded, or uploaded to Drive: its file id) as a new workbook",
         docs={"content_base64": "The .xlsx file, base64-encoded", "title": "Optional title",
               "file_id": "The Drive file ID of an uploaded .xlsx (drive.google.com/file/d/<file_id>/view)"}),
    tool("export_workbook", "sheets.exportXlsx", "Export a workbook as an .xlsx file (base64-encoded)", docs={"spreadsheet_id": WB}),
), instructions="Excel-style workbooks: worksheets, cells, formulas (validated before writing), formatting, pivots.")

TOOLSETS = (REFERENCE, EXCEL)


def _seeded_forecast(db: Any) -> dict[str, str]:
    """The seeded Sales Forecast's id (ids depend on the seed), for the probe's `{forecast}`."""
    found = db.scalar(select(Spreadsheet.id).where(Spreadsheet.title.startswith(FORECAST_TITLE)).order_by(Spreadsheet.id))
    if found is None:
        raise LookupError(f"the company has no {FORECAST_TITLE!r} spreadsheet")
    return {"forecast": found}


# What `officegym bench` times for sheets: a search over the seeded spreadsheets' titles and
# cells, and a deal's amount edited in the seeded Sales Forecast, which recalculates its
# weighted value and the summary tab's SUMIFs over the pipeline, as an agent's edit would.
BENCH_PROBE = Probe(
    mcp_read=Call("search_spreadsheets", {"query": "Sales Forecast", "max_results": 5}),
    mcp_write=Call("update_cells", {"spreadsheet_id": "{forecast}", "sheet": "Pipeline", "range": "F2", "data": [["{i}"]]}),
    rest_read=Call("drive/v3/files", {"query": "Sales Forecast"}, method="GET", operation="sheets.files.search"),
    rest_write=Call("v4/spreadsheets/{forecast}/values:batchUpdate",
                    {"valueInputOption": "USER_ENTERED", "data": [{"range": "Pipeline!F2", "values": [["{i}"]]}]},
                    operation="sheets.values.batchUpdate"),
    kernels=(("recalc 10k-cell workbook after one edit", recalc_after_one_edit),),
    refs=_seeded_forecast,
)
