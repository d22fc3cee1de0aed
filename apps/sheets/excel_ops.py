"""The Excel-style tools (haris-musa/excel-mcp-server's names, a spreadsheet ID where it takes
a file path): formulas validated before they are written, formatting by cell corners, a
pivot-style summary tab that stays live (SUMIFS/COUNTIFS/AVERAGEIFS formulas over the data),
and grid edits by A1 cells and 1-based row/column numbers. Bound into `SheetsService`."""

from __future__ import annotations

from typing import Any, Literal

from apps.sheets.a1 import A1Error, GridRange, cell_name, column_letter, parse_area, quote_sheet
from apps.sheets.entry import plain
from apps.sheets.errors import invalid
from apps.sheets.formulas.evaluator import FUNCTIONS
from apps.sheets.formulas.formats import display
from apps.sheets.formulas.parser import FormulaSyntaxError, parse, scoped
from apps.sheets.params import Cell, Formula, SheetTitle, SpreadsheetId, Values
from apps.sheets.theme import hex_to_rgb
from officegym.core.operations import operation

AGGREGATES = {"sum": "SUMIFS", "count": "COUNTIFS", "average": "AVERAGEIFS", "mean": "AVERAGEIFS", "min": "MINIFS", "max": "MAXIFS"}


def _cell(text: str, what: str = "cell") -> tuple[int, int]:
    try:
        grid = parse_area(text.replace("$", ""))
    except A1Error:
        raise invalid(f"Invalid {what} {text!r}: use A1 notation like 'B7'") from None
    if not grid.is_cell:
        raise invalid(f"Invalid {what} {text!r}: give a single cell like 'B7'")
    return grid.r1, grid.c1


def check_formula(self: Any, spreadsheet_id: str, formula: str) -> str | None:
    """Why a formula would not work (syntax, unknown function, unknown sheet or name), or None."""
    text = formula if formula.startswith("=") else "=" + formula
    try:
        tree = parse(text)
    except FormulaSyntaxError as bad:
        return str(bad)
    titles = {t.title.lower() for t in self.tabs(spreadsheet_id)}
    names = set(n.lower() for n in self.book(spreadsheet_id).book.names)
    for node, bound in scoped(tree):  # LET names and LAMBDA parameters are known where bound
        if node[0] == "call":
            if node[1] not in FUNCTIONS and node[1] != "_INVOKE" and node[1] not in bound:
                return f"Unknown function: '{node[1]}'"
        elif node[0] == "ref" and node[1] is not None and node[1].lower() not in titles:
            return f"Unresolved sheet name '{node[1]}'"
        elif node[0] == "name" and node[1].upper() not in bound and node[1].lower() not in names:
            return f"Unknown range name: '{node[1]}'"
    return None


@operation("sheets.applyFormula", writes=True)
def apply_formula(self: Any, spreadsheet_id: SpreadsheetId, sheet_name: SheetTitle, cell: Cell, formula: Formula) -> dict[str, Any]:
    """Validate a formula, then write it into one cell; returns the value it computes."""
    spreadsheet = self.spreadsheet(spreadsheet_id, write=True)
    tab = self.tab(spreadsheet.id, title=sheet_name)
    row, col = _cell(cell)
    problem = check_formula(self, spreadsheet.id, formula)
    if problem:
        raise invalid(f"Invalid formula {formula!r}: {problem}; nothing was written")
    text = formula if formula.startswith("=") else "=" + formula
    self.write_values(spreadsheet, f"{quote_sheet(tab.title)}!{cell_name(row, col)}", [[text]], "USER_ENTERED")
    value = self.book(spreadsheet.id).book.get((tab.sheet_id, row, col))
    # As the cell shows it (values.get's FORMATTED_VALUE): its own format, else the one Google
    # Sheets infers for the formula ($2,300.50 for a SUM of currency cells).
    shown = self.grid_values(spreadsheet.id, tab, GridRange(tab.title, row, col, row + 1, col + 1))
    return {"message": f"Applied formula '{text}' to cell {cell_name(row, col)}", "cell": cell_name(row, col), "formula": text,
            "value": plain(value), "formatted_value": shown[0][0] if shown and shown[0] else display(value, None)}


@operation("sheets.validateFormula")
def validate_formula(self: Any, spreadsheet_id: SpreadsheetId, sheet_name: SheetTitle, cell: Cell, formula: Formula) -> dict[str, Any]:
    """Check a formula's syntax, functions and references without writing it."""
    self.opened(spreadsheet_id)
    self.tab(spreadsheet_id, title=sheet_name)
    _cell(cell)
    problem = check_formula(self, spreadsheet_id, formula)
    if problem:
        return {"valid": False, "message": f"Invalid formula: {problem}", "cell": cell, "formula": formula}
    return {"valid": True, "message": f"Formula '{formula}' is valid", "cell": cell, "formula": formula}


def _area(self: Any, spreadsheet_id: str, sheet_name: str, start_cell: str, end_cell: str | None) -> tuple[Any, GridRange]:
    tab = self.tab(spreadsheet_id, title=sheet_name)
    r1, c1 = _cell(start_cell, "start_cell")
    r2, c2 = _cell(end_cell, "end_cell") if end_cell else (r1, c1)
    grid = GridRange(tab.title, min(r1, r2), min(c1, c2), max(r1, r2) + 1, max(c1, c2) + 1)
    if grid.r2 > tab.row_count or grid.c2 > tab.column_count:  # type: ignore[operator]
        raise invalid(f"Range {grid.a1()} exceeds grid limits. Max rows: {tab.row_count}, max columns: {tab.column_count}")
    return tab, grid


def _json_range(tab: Any, grid: GridRange) -> dict[str, int]:
    return {"sheetId": tab.sheet_id, "startRowIndex": grid.r1, "endRowIndex": grid.r2, "startColumnIndex": grid.c1, "endColumnIndex": grid.c2}  # type: ignore[dict-item]


@operation("sheets.formatRange", writes=True)
def format_range(self: Any, spreadsheet_id: SpreadsheetId, sheet_name: SheetTitle, start_cell: Cell, end_cell: Cell | None = None,
                 bold: bool | None = None, italic: bool | None = None, underline: bool | None = None, font_size: int | None = None,
                 font_color: str | None = None, bg_color: str | None = None, number_format: str | None = None,
                 alignment: Literal["left", "center", "right"] | None = None, wrap_text: bool | None = None) -> dict[str, Any]:
    """Format cells: bold/italic/underline, font size and colour ('#RRGGBB'), background, number format ('$#,##0.00', '0%', 'yyyy-mm-dd'), alignment."""
    self.spreadsheet(spreadsheet_id, write=True)
    tab, grid = _area(self, spreadsheet_id, sheet_name, start_cell, end_cell)
    text: dict[str, Any] = {k: v for k, v in (("bold", bold), ("italic", italic), ("underline", underline), ("fontSize", font_size)) if v is not None}
    fmt: dict[str, Any] = {}
    for name, color in (("font_color", font_color), ("bg_color", bg_color)):
        if color is not None and not (len(color.lstrip("#")) == 6 and all(ch in "0123456789abcdefABCDEF" for ch in color.lstrip("#"))):
            raise invalid(f"Invalid {name} {color!r}: use a hex colour like '#1A73E8'")
    if font_color:
        text["foregroundColor"] = hex_to_rgb(font_color)
    if text:
        fmt["textFormat"] = text
    if bg_color:
        fmt["backgroundColor"] = hex_to_rgb(bg_color)
    if alignment:
        fmt["horizontalAlignment"] = alignment.upper()
    if wrap_text is not None:
        fmt["wrapStrategy"] = "WRAP" if wrap_text else "OVERFLOW_CELL"
    if number_format:
        kind = "PERCENT" if "%" in number_format else "CURRENCY" if "$" in number_format else (
            "DATE" if any(ch in number_format.lower() for ch in "ymd") else "NUMBER")
        fmt["numberFormat"] = {"type": kind, "pattern": number_format}
    if not fmt:
        raise invalid("give at least one format: bold, italic, underline, font_size, font_color, bg_color, number_format, alignment, wrap_text")
    self.spreadsheets_batch_update(spreadsheet_id, [{"repeatCell": {"range": _json_range(tab, grid), "cell": {"userEnteredFormat": fmt},
                                                                    "fields": "userEnteredFormat"}}])
    return {"message": f"Range {grid.a1()} formatted successfully", "range": grid.a1()}


@operation("sheets.gridEdit", writes=True)
def range_edit(self: Any, spreadsheet_id: SpreadsheetId, sheet_name: SheetTitle,
               action: Literal["merge", "unmerge", "copy", "delete_range", "insert_rows", "insert_columns", "delete_rows", "delete_columns"],
               start_cell: Cell | None = None, end_cell: Cell | None = None, target_start: Cell | None = None,
               target_sheet: SheetTitle | None = None, start_row: int | None = None, start_col: int | None = None,
               count: int = 1, shift_direction: Literal["up", "left"] = "up") -> dict[str, Any]:
    """Edit the grid: merge/unmerge/copy/delete a range (A1 corners), insert or delete rows or columns (1-based numbers)."""
    self.spreadsheet(spreadsheet_id, write=True)
    tab = self.tab(spreadsheet_id, title=sheet_name)
    if action in ("insert_rows", "insert_columns", "delete_rows", "delete_columns"):
        rows = action.endswith("rows")
        start = start_row if rows else start_col
        if start is None or start < 1:
            raise invalid(f"{'start_row' if rows else 'start_col'} is required: a 1-based {'row' if rows else 'column'} number")
        if count < 1:
            raise invalid("count must be at least 1")
        kind = "insertDimension" if action.startswith("insert") else "deleteDimension"
        self.spreadsheets_batch_update(spreadsheet_id, [{kind: {"range": {"sheetId": tab.sheet_id, "dimension": "ROWS" if rows else "COLUMNS",
                                                                          "startIndex": start - 1, "endIndex": start - 1 + count}}}])
        where = f"{'row' if rows else 'column'} {start if rows else column_letter(start - 1)}"
        return {"message": f"{'Inserted' if kind == 'insertDimension' else 'Deleted'} {count} {'rows' if rows else 'columns'} at {where}"}
    if not start_cell:
        raise invalid("start_cell is required (A1 notation, e.g. 'A1')")
    _, grid = _area(self, spreadsheet_id, sheet_name, start_cell, end_cell)
    where_json = _json_range(tab, grid)
    if action == "merge":
        request = {"mergeCells": {"range": where_json, "mergeType": "MERGE_ALL"}}
    elif action == "unmerge":
        request = {"unmergeCells": {"range": where_json}}
    elif action == "copy":
        if not target_start:
            raise invalid("target_start is required: the top-left cell to copy to")
        dest_tab = self.tab(spreadsheet_id, title=target_sheet or sheet_name)
        r, c = _cell(target_start, "target_start")
        height, width = (grid.r2 or 0) - grid.r1, (grid.c2 or 0) - grid.c1
        request = {"copyPaste": {"source": where_json, "destination": {"sheetId": dest_tab.sheet_id, "startRowIndex": r, "endRowIndex": r + height,
                                                                        "startColumnIndex": c, "endColumnIndex": c + width}, "pasteType": "PASTE_NORMAL"}}
    else:
        request = {"deleteRange": {"range": where_json, "shiftDimension": "ROWS" if shift_direction == "up" else "COLUMNS"}}
    self.spreadsheets_batch_update(spreadsheet_id, [request])
    return {"message": f"{action.replace('_', ' ').capitalize()} done on {grid.a1()}", "range": grid.a1()}


@operation("sheets.pivotTable", writes=True)
def pivot_table(self: Any, spreadsheet_id: SpreadsheetId, sheet_name: SheetTitle, data_range: str, rows: list[str], values: list[str],
                columns: list[str] | None = None, agg_func: str = "sum", target_sheet: SheetTitle | None = None) -> dict[str, Any]:
    """Summarise a table (first row = headers) on a new tab: one row per distinct `rows` value, one
    aggregate column per `values` field (per `columns` value when given); live formulas."""
    spreadsheet = self.spreadsheet(spreadsheet_id, write=True)
    func = AGGREGATES.get(agg_func.lower())
    if func is None:
        raise invalid(f"agg_func must be one of {', '.join(AGGREGATES)}; got {agg_func!r}")
    tab, grid = self.locate(spreadsheet.id, f"{quote_sheet(sheet_name)}!{data_range}")
    table = self.grid_values(spreadsheet.id, tab, grid, "UNFORMATTED_VALUE")
    if len(table) < 2:
        raise invalid(f"data_range {data_range!r} needs a header row and at least one row of data")
    headers = [str(h) for h in table[0]]
    bounded = grid.bounded(tab.row_count, tab.column_count)
    last = bounded.r1 + len(table)

    def column_of(name: str) -> str:
        if name not in headers:
            raise invalid(f"unknown field {name!r}; the headers are: {', '.join(headers)}")
        col = column_letter(bounded.c1 + headers.index(name))
        return f"{quote_sheet(tab.title)}!${col}${bounded.r1 + 2}:${col}${last}"

    if not rows or not values:
        raise invalid("rows and values must each name at least one header")
    row_cols = [column_of(n) for n in rows]
    value_cols = [column_of(n) for n in values]
    col_field = columns[0] if columns else None
    col_range = column_of(col_field) if col_field else None

    def distinct(name: str) -> list[Any]:
        index = headers.index(name)
        seen: dict[Any, None] = {}
        for line in table[1:]:
            v = line[index] if index < len(line) else ""
            if v != "":
                seen.setdefault(v, None)
        return sorted(seen, key=lambda v: (isinstance(v, str), str(v).lower() if isinstance(v, str) else v))

    keys = [()]  # the cross product of every row field's distinct values, in sorted order
    for name in rows:
        keys = [k + (v,) for k in keys for v in distinct(name)]
    col_values = distinct(col_field) if col_field else [None]
    header = list(rows) + [f"{agg_func.upper()} of {v}" + (f" ({c})" if c is not None else "") for v in values for c in col_values]
    out: list[list[Any]] = [header]
    for n, key in enumerate(keys):
        r = n + 2
        line: list[Any] = list(key)
        for vcol in value_cols:
            for ci, cval in enumerate(col_values):
                crit = "".join(f", {rc}, ${column_letter(i)}{r}" for i, rc in enumerate(row_cols))
                if col_range is not None:
                    crit += f", {col_range}, {_literal(cval)}"
                line.append(f"={func}({crit[2:]})" if func == "COUNTIFS" else f"={func}({vcol}{crit})")
        out.append(line)
    title = target_sheet or f"Pivot of {sheet_name}"
    existing = [t.title.lower() for t in self.tabs(spreadsheet.id)]
    if title.lower() in existing:
        raise invalid(f'A sheet with the name "{title}" already exists; pass another target_sheet')
    self.spreadsheets_batch_update(spreadsheet.id, [{"addSheet": {"properties": {"title": title}}}])
    self.write_values(spreadsheet, f"{quote_sheet(title)}!A1", out, "USER_ENTERED")
    return {"message": f"Pivot summary written to sheet '{title}'", "sheet": title,
            "range": f"{quote_sheet(title)}!A1:{column_letter(len(header) - 1)}{len(out)}", "rows": len(out) - 1}


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace('"', '""') + '"'
    return str(value)


@operation("sheets.workbookMetadata")
def workbook_metadata(self: Any, spreadsheet_id: SpreadsheetId, include_ranges: bool = False) -> dict[str, Any]:
    """Title, tabs with their sizes and (with include_ranges) used ranges, named ranges."""
    spreadsheet = self.spreadsheet(spreadsheet_id)
    book = self.book(spreadsheet.id).book
    sheets = []
    for tab in self.tabs(spreadsheet.id):
        entry: dict[str, Any] = {"name": tab.title, "sheet_id": tab.sheet_id, "index": tab.index, "rows": tab.row_count,
                                 "columns": tab.column_count, "frozen_rows": tab.frozen_rows}
        if include_ranges:
            used_rows, used_cols = book.extent(tab.sheet_id)
            entry["used_range"] = f"A1:{cell_name(used_rows - 1, used_cols - 1)}" if used_rows else ""
        sheets.append(entry)
    return {"spreadsheet_id": spreadsheet.id, "title": spreadsheet.title, "sheets": sheets,
            "named_ranges": sorted(book.names), "modified": spreadsheet.modified}


@operation("sheets.readRange")
def read_range(self: Any, spreadsheet_id: SpreadsheetId, sheet_name: SheetTitle, start_cell: Cell = "A1", end_cell: Cell | None = None) -> dict[str, Any]:
    """Values from a start cell (to an end cell, or to the end of the data), with the formulas behind them."""
    self.opened(spreadsheet_id)
    tab = self.tab(spreadsheet_id, title=sheet_name)
    r1, c1 = _cell(start_cell, "start_cell")
    if end_cell:
        r2, c2 = _cell(end_cell, "end_cell")
        grid = GridRange(tab.title, min(r1, r2), min(c1, c2), max(r1, r2) + 1, max(c1, c2) + 1)
    else:
        grid = GridRange(tab.title, r1, c1, None, None)
    values = self.grid_values(spreadsheet_id, tab, grid)
    formulas = self.grid_values(spreadsheet_id, tab, grid, "FORMULA")
    cells = []
    for i, line in enumerate(values):
        for j, value in enumerate(line):
            if value == "":
                continue
            item = {"address": cell_name(grid.r1 + i, grid.c1 + j), "value": value}
            shown = formulas[i][j] if i < len(formulas) and j < len(formulas[i]) else None
            if isinstance(shown, str) and shown.startswith("="):
                item["formula"] = shown
            cells.append(item)
    return {"sheet_name": tab.title, "range": grid.bounded(tab.row_count, tab.column_count).a1(), "values": values, "cells": cells}


@operation("sheets.writeRange", writes=True)
def write_range(self: Any, spreadsheet_id: SpreadsheetId, sheet_name: SheetTitle, data: Values, start_cell: Cell = "A1") -> dict[str, Any]:
    """Write rows of values from a start cell, as typed ('=…' formulas, numbers, dates)."""
    spreadsheet = self.spreadsheet(spreadsheet_id, write=True)
    tab = self.tab(spreadsheet.id, title=sheet_name)
    r, c = _cell(start_cell, "start_cell")
    body = self.write_values(spreadsheet, f"{quote_sheet(tab.title)}!{cell_name(r, c)}", data, "USER_ENTERED", at_row=r)
    return {"message": f"Data written to {body['updatedRange']}", **body}
