"""The typed arguments of sheets operations, with the descriptions agents read in tool
schemas and the Sheets API's own limits."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

SpreadsheetId = Annotated[str, Field(max_length=128, description="The ID of the spreadsheet (the long id in its URL: docs.google.com/spreadsheets/d/<id>)")]
Range = Annotated[str, Field(max_length=512, description="A range in A1 notation: 'Sheet1!A1:C10', \"'My Sheet'!A:A\", 'Sheet1!2:2', 'A2:B' (open-ended), or a sheet title for the whole sheet")]
Ranges = Annotated[list[str] | str, Field(description="Ranges in A1 notation (a list, or one range)")]
Values = Annotated[list[list[Any]], Field(description="The values: a 2-D array, one inner array per row (or column with majorDimension COLUMNS); strings, numbers, booleans, null to skip")]
InputOption = Annotated[Literal["RAW", "USER_ENTERED"], Field(description="RAW stores input as typed; USER_ENTERED parses it as if typed into the UI: formulas ('=SUM(A1:A3)'), numbers, percentages, dates")]
RenderOption = Annotated[Literal["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"], Field(description="FORMATTED_VALUE: as displayed; UNFORMATTED_VALUE: raw numbers; FORMULA: formulas rather than their results")]
Dimension = Annotated[Literal["ROWS", "COLUMNS"], Field(description="ROWS (default) or COLUMNS: how the 2-D values array is laid out")]
Title = Annotated[str, Field(max_length=256, description="A title")]
SheetTitle = Annotated[str, Field(max_length=100, description="The name of the sheet (tab), e.g. 'Sheet1'")]
Requests = Annotated[list[dict[str, Any]], Field(description="Sheets API batchUpdate requests, e.g. [{\"addSheet\": {\"properties\": {\"title\": \"Q3\"}}}]; kinds: addSheet, deleteSheet, updateSheetProperties, duplicateSheet, insertDimension, deleteDimension, appendDimension, updateDimensionProperties (hide or show rows and columns, their size), repeatCell, updateCells, mergeCells, unmergeCells, sortRange, copyPaste, cutPaste, deleteRange, insertRange, addNamedRange, deleteNamedRange, updateSpreadsheetProperties, findReplace, addChart, setBasicFilter/clearBasicFilter (one filter per tab: filterSpecs hide rows, sortSpecs sort them), setDataValidation (dropdowns: ONE_OF_LIST, ONE_OF_RANGE, BOOLEAN checkboxes, NUMBER_/DATE_/TEXT_ conditions, CUSTOM_FORMULA; no rule clears), addConditionalFormatRule/updateConditionalFormatRule/deleteConditionalFormatRule (booleanRule or gradientRule), updateBorders, autoResizeDimensions")]
ValueRanges = Annotated[list[dict[str, Any]], Field(description="ValueRanges to write: [{\"range\": \"Sheet1!A1:B2\", \"values\": [[…]]}, …]")]
Query = Annotated[str, Field(max_length=500, description="Text to look for")]
Count = Annotated[int, Field(ge=1, le=100_000, description="How many")]
Index0 = Annotated[int, Field(ge=0, le=10_000_000, description="A 0-based index")]
Email = Annotated[str, Field(max_length=254, description="An email address")]
Formula = Annotated[str, Field(max_length=50_000, description="A formula, starting with '=' (e.g. '=SUM(B2:B10)')")]
Cell = Annotated[str, Field(max_length=32, description="A cell in A1 notation, e.g. 'B7'")]
MaxResults = Annotated[int, Field(ge=1, description="Maximum number of results")]
Base64 = Annotated[str, Field(max_length=40_000_000, description="The .xlsx file, base64-encoded")]
FolderId = Annotated[str, Field(max_length=128, description="A Drive folder ID ('root' for My Drive)")]
