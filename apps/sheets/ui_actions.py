"""What the sheets page does besides typing into a cell, as Google Sheets' menus and keys do it:
insert and delete rows and columns, clear, fill down or right (Ctrl+D, Ctrl+R), bold (Ctrl+B),
Format ▸ Number (plain text, number, percent, currency, currency rounded, date), Format ▸ Borders
(all, inner, horizontal, vertical, outer, left, top, right, bottom, clear: updateBorders), Insert ▸
Checkbox (a checkbox rule, setDataValidation), View ▸ Freeze (rows
and columns), Data ▸ Create a filter / Remove filter and a filter header's Filter by values and Filter by color
(setBasicFilter, clearBasicFilter),
sort a range (Data ▸ Sort range, with or without a header row) or the sheet (Data ▸ Sort sheet, by the
selected column, frozen rows left on top), Insert ▸ Pivot table (a
summary of the selected table on a new tab), paste (Ctrl+V: text copied
from anywhere lands from the selected cell; cells copied on the page are pasted as the
product pastes them, formulas moved with their position), and a tab's add, rename, duplicate
and delete; a blank spreadsheet from the list.

Each is a form post (so a computer-use agent can also drive it with JavaScript off, through
the menubar's buttons and the name box) answered with a 303 back to the page, and each runs
the operation the API runs for it (`spreadsheets.batchUpdate` with the request the product's
own UI sends, `values.update`, `values.clear`, `spreadsheets.create`), so the trajectory shows
it with face "ui" and the state is the same as through any other face.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from apps.sheets import filters, tab_rules
from apps.sheets.a1 import A1Error, GridRange, column_letter, parse_area, quote_sheet
from apps.sheets.entry import load_json
from apps.sheets.errors import SheetsError
from apps.sheets.operations import OPERATIONS
from apps.sheets.theme import hex_to_rgb
from apps.sheets.service import SheetsService
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.ops import invoke
from officegym.core.web import EnvRoute, current_env, env_store

router = APIRouter(route_class=EnvRoute)
MAX_PASTED_CHARS = 1_000_000

# The selection actions of the menubar and the context menu: each one batchUpdate request
# built from the selection (`_request`), or a values.clear.
ACTIONS = ("insert_rows_above", "insert_rows_below", "delete_rows", "insert_columns_left", "insert_columns_right",
           "delete_columns", "clear", "fill_down", "fill_right", "bold", "add_sheet")
# Format ▸ Number: the number format each item sets on the selection (type, pattern), as the product's menu does.
NUMBER_FORMATS = {
    "format_plain_text": ("TEXT", "@"), "format_number": ("NUMBER", "#,##0.00"), "format_percent": ("PERCENT", "0.00%"),
    "format_currency": ("CURRENCY", "$#,##0.00"), "format_currency_rounded": ("CURRENCY", "$#,##0"), "format_date": ("DATE", "yyyy-mm-dd"),
}
# View ▸ Freeze: no rows, 1 or 2 rows, up to the selected row (columns the same).
FREEZES = {f"freeze_{what}_{n}": (what, n) for what in ("rows", "columns") for n in ("0", "1", "2", "current")}
# Hide or unhide the rows (columns) the selection spans, as the row and column header menus do;
# unhiding a selection that spans hidden ones (B:D around a hidden C) shows them again.
HIDES = {"hide_rows": ("ROWS", True), "hide_columns": ("COLUMNS", True), "unhide_rows": ("ROWS", False), "unhide_columns": ("COLUMNS", False)}
# Format ▸ Borders (the toolbar's borders button): the sides of the selection each one draws, a
# solid black line (updateBorders), or takes away ("clear").
BORDERS = {
    "borders_all": ("top", "bottom", "left", "right", "innerHorizontal", "innerVertical"), "borders_inner": ("innerHorizontal", "innerVertical"),
    "borders_horizontal": ("innerHorizontal",), "borders_vertical": ("innerVertical",), "borders_outer": ("top", "bottom", "left", "right"),
    "borders_left": ("left",), "borders_top": ("top",), "borders_right": ("right",), "borders_bottom": ("bottom",),
    "borders_clear": ("top", "bottom", "left", "right", "innerHorizontal", "innerVertical"),
}
# Format ▸ Merge cells: how each item merges the selection (mergeCells' mergeType), or unmerges it.
MERGES = {"merge_all": "MERGE_ALL", "merge_horizontally": "MERGE_ROWS", "merge_vertically": "MERGE_COLUMNS"}
MERGE_WARNING = "Merging cells will only preserve the top-leftmost value. Merge anyway?"
ACTIONS += (*NUMBER_FORMATS, "sort_sheet_asc", "sort_sheet_desc", *FREEZES, *HIDES, "create_filter", "remove_filter", *BORDERS, "insert_checkbox",
            *MERGES, "unmerge")


class UiRefusal(ValueError):
    """What the page says when an action cannot apply to the selection."""


def _run(request: Request, env: Env, name: str, args: dict[str, Any]) -> Any:
    route = getattr(request.scope.get("route"), "path", request.url.path)
    return invoke(env_store(request), env, OPERATIONS, OPERATIONS[name], args, face="ui", tool=f"POST {route}")


def _back(env: Env, spreadsheet_id: str, sheet: int, cell: str, top: int, left: int = 0, panel: str = "") -> RedirectResponse:
    query = urlencode({"sheet": sheet, "cell": cell, "top": top, "left": left, **({"panel": panel[:20]} if panel else {})})
    return RedirectResponse(f"/envs/{env.id}/sheets/d/{spreadsheet_id}?{query}", status_code=303)


def _refused(request: Request, env: Env, spreadsheet_id: str, sheet: int, cell: str, top: int, error: Exception | str,
             status: int = 400) -> Response:
    """The page again, saying why the action was not done (nothing was written)."""
    from apps.sheets.ui import render_page  # (ui.py includes this module's routes)

    message = error.message if isinstance(error, AppError) else str(error)
    return render_page(request, env, spreadsheet_id, sheet, cell, top, error=message, status=status)


def _tab(request: Request, env: Env, spreadsheet_id: str, sheet: int) -> Any:
    """The tab as stored (id, title, size), or None when there is no such tab you can open."""
    with env_store(request).session(env, reading=True) as db:
        service = SheetsService(db)
        try:
            return service.tab(spreadsheet_id, sheet_id=sheet) if service.role(spreadsheet_id) else None
        except SheetsError:
            return None


def _selection(cell: str, tab: Any) -> GridRange:
    try:
        return parse_area(cell.strip())
    except A1Error:
        raise UiRefusal(f"{cell[:40]!r} is not a cell or range: type one in the name box, like A2 or A2:C10") from None


def _span(selection: GridRange, tab: Any, rows: bool) -> tuple[int, int]:
    """The selected rows (or columns) as [start, end), a whole-column (or row) selection
    meaning every one the tab has."""
    bounded = selection.bounded(tab.row_count, tab.column_count)
    return (bounded.r1, bounded.r2) if rows else (bounded.c1, bounded.c2)  # type: ignore[return-value]


def _json(tab: Any, grid: GridRange) -> dict[str, int]:
    bounded = grid.bounded(tab.row_count, tab.column_count)
    return {"sheetId": tab.sheet_id, "startRowIndex": bounded.r1, "endRowIndex": bounded.r2,  # type: ignore[dict-item]
            "startColumnIndex": bounded.c1, "endColumnIndex": bounded.c2}  # type: ignore[dict-item]


def _request(action: str, tab: Any, selection: GridRange, bold_now: bool) -> dict[str, Any]:
    """The batchUpdate request Google's UI sends for `action` on the selection."""
    if action in ("insert_rows_above", "insert_rows_below", "delete_rows", "insert_columns_left", "insert_columns_right", "delete_columns"):
        rows = "rows" in action
        if (selection.r2 if rows else selection.c2) is None:  # a whole column (row) selected: every row (column) of the tab
            raise UiRefusal(f"select the {'rows' if rows else 'columns'} first (click a {'row number' if rows else 'column letter'}, "
                            f"or type e.g. {'5:7' if rows else 'C:D'} in the name box)")
        start, end = _span(selection, tab, rows)
        count = end - start
        dimension = "ROWS" if rows else "COLUMNS"
        if action.startswith("delete"):
            return {"deleteDimension": {"range": {"sheetId": tab.sheet_id, "dimension": dimension, "startIndex": start, "endIndex": end}}}
        after = action.endswith(("below", "right"))
        at = end if after else start
        return {"insertDimension": {"range": {"sheetId": tab.sheet_id, "dimension": dimension, "startIndex": at, "endIndex": at + count},
                                    "inheritFromBefore": after}}
    if action in ("fill_down", "fill_right"):
        grid = selection.bounded(tab.row_count, tab.column_count)
        down = action == "fill_down"
        if (grid.r2 - grid.r1 if down else grid.c2 - grid.c1) < 2:  # type: ignore[operator]
            raise UiRefusal(f"select the cells to fill {'down' if down else 'right'} into, starting with the one to copy (e.g. A2:A20)")
        source = GridRange(None, grid.r1, grid.c1, grid.r1 + 1 if down else grid.r2, grid.c2 if down else grid.c1 + 1)
        target = GridRange(None, grid.r1 + 1 if down else grid.r1, grid.c1 if down else grid.c1 + 1, grid.r2, grid.c2)
        return {"copyPaste": {"source": _json(tab, source), "destination": _json(tab, target), "pasteType": "PASTE_NORMAL"}}
    if action in ("sort_sheet_asc", "sort_sheet_desc"):  # Data ▸ Sort sheet: every row below the frozen ones, by the selected column
        below = min(tab.frozen_rows or 0, tab.row_count - 1)
        return {"sortRange": {"range": {"sheetId": tab.sheet_id, "startRowIndex": below, "endRowIndex": tab.row_count, "startColumnIndex": 0,
                                        "endColumnIndex": tab.column_count},
                              "sortSpecs": [{"dimensionIndex": selection.c1, "sortOrder": "DESCENDING" if action.endswith("desc") else "ASCENDING"}]}}
    if action in NUMBER_FORMATS:
        kind, pattern = NUMBER_FORMATS[action]
        return {"repeatCell": {"range": _json(tab, selection), "cell": {"userEnteredFormat": {"numberFormat": {"type": kind, "pattern": pattern}}},
                               "fields": "userEnteredFormat.numberFormat"}}
    if action in FREEZES:
        what, n = FREEZES[action]
        count = (selection.r1 + 1 if what == "rows" else selection.c1 + 1) if n == "current" else int(n)
        field = "frozenRowCount" if what == "rows" else "frozenColumnCount"
        return {"updateSheetProperties": {"properties": {"sheetId": tab.sheet_id, "gridProperties": {field: count}}, "fields": f"gridProperties.{field}"}}
    if action in HIDES:
        dimension, hide = HIDES[action]
        start, end = _span(selection, tab, dimension == "ROWS")
        return {"updateDimensionProperties": {"range": {"sheetId": tab.sheet_id, "dimension": dimension, "startIndex": start, "endIndex": end},
                                              "properties": {"hiddenByUser": hide}, "fields": "hiddenByUser"}}
    if action == "create_filter":  # Data ▸ Create a filter: over the selection, or the sheet's data when one cell is selected
        return {"setBasicFilter": {"filter": {"range": _json(tab, selection)}}}
    if action == "remove_filter":
        return {"clearBasicFilter": {"sheetId": tab.sheet_id}}
    if action in BORDERS:
        line = {"style": "NONE"} if action == "borders_clear" else {"style": "SOLID", "width": 1, "color": {}}
        return {"updateBorders": {"range": _json(tab, selection), **{side: dict(line) for side in BORDERS[action]}}}
    if action in MERGES:
        return {"mergeCells": {"range": _json(tab, selection), "mergeType": MERGES[action]}}
    if action == "unmerge":
        return {"unmergeCells": {"range": _json(tab, selection)}}
    if action == "insert_checkbox":  # Insert ▸ Checkbox: a checkbox rule on the selection
        return {"setDataValidation": {"range": _json(tab, selection), "rule": {"condition": {"type": "BOOLEAN"}}}}
    if action == "bold":
        return {"repeatCell": {"range": _json(tab, selection), "cell": {"userEnteredFormat": {"textFormat": {"bold": not bold_now}}},
                               "fields": "userEnteredFormat.textFormat.bold"}}
    raise UiRefusal(f"unknown action {action[:40]!r}")


def _is_bold(request: Request, env: Env, spreadsheet_id: str, tab: Any, selection: GridRange) -> bool:
    """Whether the selection's first cell is bold (Ctrl+B makes it the other way)."""
    with env_store(request).session(env, reading=True) as db:
        book = SheetsService(db).book(spreadsheet_id)
        style = book.formats.get((tab.sheet_id, selection.r1, selection.c1), (None, None))[1]
    return bool(((load_json(style) or {}).get("textFormat") or {}).get("bold"))


def _next_title(request: Request, env: Env, spreadsheet_id: str) -> str:
    with env_store(request).session(env, reading=True) as db:
        taken = {t.title.lower() for t in SheetsService(db).tabs(spreadsheet_id)}
    n = len(taken) + 1
    while f"sheet{n}" in taken:
        n += 1
    return f"Sheet{n}"


@router.post("/create")
def create_spreadsheet(request: Request, title: str = Form("Untitled spreadsheet"), env: Env = Depends(current_env)) -> Response:
    """The list's "Blank spreadsheet": a new spreadsheet, opened."""
    try:
        made = _run(request, env, "sheets.spreadsheets.create", {"properties": {"title": title.strip() or "Untitled spreadsheet"}})
    except AppError as error:
        from apps.sheets.ui import render_index  # (ui.py includes this module's routes)

        return render_index(request, env, error=error.message, status=400)
    return RedirectResponse(f"/envs/{env.id}/sheets/d/{made['spreadsheetId']}", status_code=303)


@router.post("/d/{spreadsheet_id}/act")
def act(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form("A1"), action: str = Form(...),
        top: int = Form(0), left: int = Form(0), panel: str = Form(""), confirmed: bool = Form(False),
        env: Env = Depends(current_env)) -> Response:
    """A menubar, context-menu or shortcut action on the selection (`cell`, the name box); the
    window stays where it was scrolled, and a side panel open stays open. A merge that would
    drop values asks first, as Google's does (`confirmed` once the user says OK)."""
    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, "That sheet does not exist.", 404)
    try:
        if action not in ACTIONS:
            raise UiRefusal(f"unknown action {action[:40]!r}")
        if action == "add_sheet":
            title = _next_title(request, env, spreadsheet_id)
            reply = _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": [{"addSheet": {"properties": {"title": title}}}]})
            return _back(env, spreadsheet_id, reply["replies"][0]["addSheet"]["properties"]["sheetId"], "A1", 0, 0, panel)
        selection = _selection(cell, tab)
        if action == "create_filter" and selection.is_cell:
            selection = _data_region(request, env, spreadsheet_id, tab)
        if action in MERGES and not confirmed and _merge_drops_values(request, env, spreadsheet_id, tab, selection, MERGES[action]):
            from apps.sheets.ui import render_page  # (ui.py includes this module's routes)

            return render_page(request, env, spreadsheet_id, sheet, cell, top, left=left, scrolled=True, panel=panel,
                               confirm={"action": action, "message": MERGE_WARNING, "title": "Merge cells"})
        if action == "clear":
            _run(request, env, "sheets.values.clear", {"spreadsheetId": spreadsheet_id, "range": f"{quote_sheet(tab.title)}!{selection.a1(with_sheet=False)}"})
        else:
            bold_now = action == "bold" and _is_bold(request, env, spreadsheet_id, tab, selection)
            _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": [_request(action, tab, selection, bold_now)]})
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, error)
    return _back(env, spreadsheet_id, sheet, cell if not action.startswith("delete") else _first_cell(cell), top, left, panel)


def _merge_drops_values(request: Request, env: Env, spreadsheet_id: str, tab: Any, selection: GridRange, kind: str) -> bool:
    """Whether merging the selection this way would drop a value: one in a cell that is not the
    top-left of its merged piece."""
    bounded = selection.bounded(tab.row_count, tab.column_count)
    with env_store(request).session(env, reading=True) as db:
        book = SheetsService(db).book(spreadsheet_id).book
        for (sid, r, c) in (*book.inputs, *book.formulas):
            if sid != tab.sheet_id or not bounded.contains(r, c):
                continue
            kept = (r == bounded.r1 or kind == "MERGE_ROWS") and (c == bounded.c1 or kind == "MERGE_COLUMNS")
            if not kept and book.get((sid, r, c)) not in (None, ""):
                return True
    return False


def _data_region(request: Request, env: Env, spreadsheet_id: str, tab: Any) -> GridRange:
    """The tab's data, from A1 to its last used row and column (what Google's Create a filter
    covers when one cell is selected)."""
    with env_store(request).session(env, reading=True) as db:
        rows, cols = SheetsService(db).book(spreadsheet_id).book.extent(tab.sheet_id)
    return GridRange(None, 0, 0, max(rows, 1), max(cols, 1))


def _first_cell(cell: str) -> str:
    try:
        grid = parse_area(cell)
    except A1Error:
        return "A1"
    return f"{column_letter(grid.c1)}{grid.r1 + 1}"


@router.post("/d/{spreadsheet_id}/sort")
def sort(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form(...), by: str = Form(...),
         order: str = Form("asc"), then_by: str = Form(""), then_order: str = Form("asc"), header: bool = Form(False),
         top: int = Form(0), env: Env = Depends(current_env)) -> Response:
    """Data ▸ Sort range: the selected range by one column (and a second), A → Z or Z → A,
    its first row left in place when it is a header row."""
    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, "That sheet does not exist.", 404)
    try:
        grid = _selection(cell, tab).bounded(tab.row_count, tab.column_count)
        if header:
            grid = GridRange(None, grid.r1 + 1, grid.c1, grid.r2, grid.c2)
        specs = []
        for column, direction in ((by, order), (then_by, then_order)):
            if not column.strip():
                continue
            at = _selection(f"{column.strip()}1", tab).c1
            if not grid.c1 <= at < grid.c2:  # type: ignore[operator]
                raise UiRefusal(f"column {column.strip()[:5]} is not in the selected range {cell[:40]}")
            specs.append({"dimensionIndex": at, "sortOrder": "DESCENDING" if direction == "desc" else "ASCENDING"})
        if not specs:
            raise UiRefusal("choose the column to sort by")
        _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": [{"sortRange": {"range": _json(tab, grid), "sortSpecs": specs}}]})
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, error)
    return _back(env, spreadsheet_id, sheet, cell, top)


@router.post("/d/{spreadsheet_id}/filter")
def filter_by_values(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form("A1"), column: int = Form(...),
                     value: list[str] = Form(default=[]), show: list[str] = Form(default=[]), top: int = Form(0), left: int = Form(0),
                     env: Env = Depends(current_env)) -> Response:
    """The filter icon's "Filter by values": the column's values left unticked are hidden
    (setBasicFilter with the filter as it is, that column's hiddenValues replaced)."""
    hidden = sorted(set(value) - set(show))

    def with_values(own: dict[str, Any]) -> dict[str, Any]:
        return {**{k: v for k, v in own.items() if k != "hiddenValues"}, **({"hiddenValues": hidden} if hidden else {})}

    return _refilter(request, env, spreadsheet_id, sheet, cell, top, left, column, with_values)


@router.post("/d/{spreadsheet_id}/filter_color")
def filter_by_color(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form("A1"), column: int = Form(...),
                    color: str = Form(...), top: int = Form(0), left: int = Form(0), env: Env = Depends(current_env)) -> Response:
    """The filter icon's "Filter by color": only the rows whose cell shows that fill (or text)
    colour stay ("fill:rrggbb", "text:rrggbb"), or "none" to stop filtering the column by
    colour (setBasicFilter with the filter as it is, that column's colour criteria replaced)."""
    kind, _, shade = color.partition(":")

    def with_color(own: dict[str, Any]) -> dict[str, Any]:
        if color != "none" and (kind not in ("fill", "text") or not re.fullmatch(r"[0-9a-fA-F]{6}", shade)):
            raise UiRefusal("choose a fill or text color from the list")
        criteria = {k: v for k, v in own.items() if k not in filters.COLOR_FIELDS}
        if color != "none":
            field = "visibleBackgroundColorStyle" if kind == "fill" else "visibleForegroundColorStyle"
            criteria[field] = {"rgbColor": hex_to_rgb(shade)}
        return criteria

    return _refilter(request, env, spreadsheet_id, sheet, cell, top, left, column, with_color)


def _refilter(request: Request, env: Env, spreadsheet_id: str, sheet: int, cell: str, top: int, left: int, column: int,
              change: Callable[[dict[str, Any]], dict[str, Any]]) -> Response:
    """The tab's basic filter set again as it is, with `column`'s criteria made `change(own)`
    (own: the column's criteria now; none left: the column is not filtered)."""
    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, "That sheet does not exist.", 404)
    try:
        found = tab_rules.load(tab.basic_filter)
        if not found:
            raise UiRefusal("this sheet has no filter: choose Data ▸ Create a filter first")
        specs = [s for s in found.get("filterSpecs", []) if s["columnIndex"] != column]
        own = next((s["filterCriteria"] for s in found.get("filterSpecs", []) if s["columnIndex"] == column), {})
        criteria = change(own)
        if criteria:
            specs.append({"columnIndex": column, "filterCriteria": criteria})
        body: dict[str, Any] = {"range": tab_rules.grid_range(tab.sheet_id, found["range"]),
                                **({"filterSpecs": sorted(specs, key=lambda s: s["columnIndex"])} if specs else {}),
                                **({"sortSpecs": found["sortSpecs"]} if found.get("sortSpecs") else {})}
        _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": [{"setBasicFilter": {"filter": body}}]})
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, error)
    return _back(env, spreadsheet_id, sheet, cell, top, left)


PIVOT_SUMMARIES = ("sum", "counta", "count", "average", "min", "max")  # COUNTA: the rows (filled values) per group, as COUNT counts them here


@router.post("/d/{spreadsheet_id}/pivot")
def pivot(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form(...), rows: str = Form(...), values: str = Form(...),
          columns: str = Form(""), summarize: str = Form("sum"), title: str = Form(""), top: int = Form(0),
          env: Env = Depends(current_env)) -> Response:
    """Insert ▸ Pivot table: the selected table (its first row the headers) summarised on a new
    tab, one row per value of the Rows field, a column per Values field (per Columns value when
    one is chosen), summarised by SUM, COUNT, AVERAGE, MIN or MAX (live formulas)."""
    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, "That sheet does not exist.", 404)
    try:
        grid = _selection(cell, tab)
        if summarize not in PIVOT_SUMMARIES:
            raise UiRefusal(f"summarize by one of {', '.join(s.upper() for s in PIVOT_SUMMARIES)}")
        args: dict[str, Any] = {"spreadsheet_id": spreadsheet_id, "sheet_name": tab.title, "data_range": grid.a1(with_sheet=False), "rows": [rows],
                                "values": [values], "agg_func": "count" if summarize == "counta" else summarize}
        if columns.strip():
            args["columns"] = [columns]
        if title.strip():
            args["target_sheet"] = title.strip()
        made = _run(request, env, "sheets.pivotTable", args)
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, error)
    with env_store(request).session(env, reading=True) as db:
        new = SheetsService(db).tab(spreadsheet_id, title=made["sheet"])
    return _back(env, spreadsheet_id, new.sheet_id, "A1", 0)


@router.post("/d/{spreadsheet_id}/paste")
def paste(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form(...), text: str = Form(""),
          source: str = Form(""), top: int = Form(0), env: Env = Depends(current_env)) -> Response:
    """Ctrl+V at the selection: cells copied on this spreadsheet's page (`source`, "sheetId!A1:B2")
    are pasted as the product pastes them (formulas moved with their position, tiled over a
    bigger selection); other copied text is split into rows (line breaks) and cells (tabs) and
    entered from the selection's first cell, as if typed."""
    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, "That sheet does not exist.", 404)
    try:
        selection = _selection(cell, tab)
        if source:
            from_sheet, _, area = source.partition("!")
            origin = _tab(request, env, spreadsheet_id, int(from_sheet)) if from_sheet.isdigit() else None
            if origin is None:
                raise UiRefusal("the copied cells are not on this spreadsheet any more: copy them again")
            copied = _selection(area, origin)
            height = (copied.r2 or origin.row_count) - copied.r1
            width = (copied.c2 or origin.column_count) - copied.c1
            target = selection.bounded(tab.row_count, tab.column_count)
            destination = GridRange(None, target.r1, target.c1, target.r1 + max(height, target.r2 - target.r1), target.c1 + max(width, target.c2 - target.c1))  # type: ignore[operator]
            _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": [
                {"copyPaste": {"source": _json(origin, copied), "destination": _json(tab, destination), "pasteType": "PASTE_NORMAL"}}]})
        else:
            if len(text) > MAX_PASTED_CHARS:
                raise UiRefusal(f"the pasted text is over {MAX_PASTED_CHARS:,} characters")
            rows = [line.split("\t") for line in text.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n").split("\n")]
            if rows == [[""]]:
                raise UiRefusal("there is nothing to paste")
            target = f"{quote_sheet(tab.title)}!{column_letter(selection.c1)}{selection.r1 + 1}"
            _run(request, env, "sheets.values.update", {"spreadsheetId": spreadsheet_id, "range": target, "values": rows, "valueInputOption": "USER_ENTERED"})
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, error)
    return _back(env, spreadsheet_id, sheet, cell, top)


@router.post("/d/{spreadsheet_id}/rename")
def rename_spreadsheet(request: Request, spreadsheet_id: str, sheet: int = Form(0), title: str = Form(""),
                       env: Env = Depends(current_env)) -> Response:
    """The title at the top of the page, edited in place (Enter saves it), as in the product."""
    try:
        if not title.strip():
            raise UiRefusal("type the spreadsheet's new name")
        _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": [
            {"updateSpreadsheetProperties": {"properties": {"title": title.strip()}, "fields": "title"}}]})
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, "A1", 0, error)
    return _back(env, spreadsheet_id, sheet, "A1", 0)


@router.post("/d/{spreadsheet_id}/tab")
def tab_action(request: Request, spreadsheet_id: str, sheet: int = Form(...), action: str = Form(...), title: str = Form(""),
               env: Env = Depends(current_env)) -> Response:
    """A tab's menu: rename, duplicate or delete it."""
    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return _refused(request, env, spreadsheet_id, sheet, "A1", 0, "That sheet does not exist.", 404)
    requests = {
        "rename": [{"updateSheetProperties": {"properties": {"sheetId": sheet, "title": title.strip()}, "fields": "title"}}],
        "duplicate": [{"duplicateSheet": {"sourceSheetId": sheet, "newSheetName": f"Copy of {tab.title}"}}],
        "delete": [{"deleteSheet": {"sheetId": sheet}}],
    }
    try:
        if action not in requests:
            raise UiRefusal(f"unknown tab action {action[:40]!r}; accepted: rename, duplicate, delete")
        if action == "rename" and not title.strip():
            raise UiRefusal("type the tab's new name")
        reply = _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": requests[action]})
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, "A1", 0, error)
    if action == "duplicate":
        sheet = reply["replies"][0]["duplicateSheet"]["properties"]["sheetId"]
    elif action == "delete":
        with env_store(request).session(env, reading=True) as db:
            sheet = SheetsService(db).tabs(spreadsheet_id)[0].sheet_id
    return _back(env, spreadsheet_id, sheet, "A1", 0)
