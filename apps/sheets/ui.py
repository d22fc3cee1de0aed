"""The browser face of the sheets app: a server-rendered, Sheets-like grid.

`/envs/{id}/sheets/` lists the spreadsheets you can open; `/envs/{id}/sheets/d/{spreadsheetId}`
shows one tab as an ARIA grid (column letters, row numbers, computed values through their
number formats, errors as a spreadsheet shows them), a name box and formula bar showing the
selected cell's formula, and the tabs. Editing is a form post of (cell, content) through the
same `sheets.values.update` operation as the API, answered with a 303 back to the cell, so it
works with JavaScript off; a small static script adds selection by mouse and arrow keys,
typing into the formula bar and Enter to commit. Writes land in the trajectory (face "ui").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from sqlalchemy import select

from apps.sheets import ui_actions
from apps.sheets.a1 import A1Error, GridRange, cell_name, column_letter, parse_area, quote_sheet
from apps.sheets.entry import decode, load_json
from apps.sheets.errors import SheetsError
from apps.sheets.formulas.formats import display
from apps.sheets.models import Cell, Merge
from apps.sheets.operations import OPERATIONS
from apps.sheets.service import SheetsService
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.ops import invoke
from officegym.core.web import EnvRoute, current_env, env_store

router = APIRouter(route_class=EnvRoute)
_jinja = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True,
                            trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
templates = Jinja2Templates(env=_jinja)
SHOWN_ROWS, SHOWN_COLS = 60, 15  # the window of the grid a page shows (scroll with ?top=)


def _base(env: Env) -> str:
    return f"/envs/{env.id}/sheets"


@router.get("/", response_class=HTMLResponse)
def index(request: Request, env: Env = Depends(current_env)) -> HTMLResponse:
    return render_index(request, env)


def render_index(request: Request, env: Env, error: str = "", status: int = 200) -> HTMLResponse:
    """The list of spreadsheets you can open, with "Blank spreadsheet"."""
    with env_store(request).session(env, reading=True) as db:
        service = SheetsService(db)
        files = service.files_list()
        roles = {f["id"]: service.role(f["id"]) for f in files}
    return templates.TemplateResponse(request, "index.html", {"base": _base(env), "files": files, "roles": roles, "me": service.actor_email,
                                                             "error": error}, status_code=status)


def _grid(service: SheetsService, spreadsheet_id: str, tab: Any, top: int, left: int) -> dict[str, Any]:
    rows = range(top, min(top + SHOWN_ROWS, tab.row_count))
    cols = range(left, min(left + SHOWN_COLS, tab.column_count))
    found = service.db.execute(select(Cell.row, Cell.col, Cell.formula, Cell.kind, Cell.value, Cell.note, Cell.number_format, Cell.style).where(
        Cell.spreadsheet_id == spreadsheet_id, Cell.sheet_id == tab.sheet_id, Cell.row >= rows.start, Cell.row < rows.stop,
        Cell.col >= cols.start, Cell.col < cols.stop)).all()
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    for row, col, formula, kind, value, note, fmt, style in found:
        decoded = decode(kind, value, note)
        shown = display(decoded, load_json(fmt))
        text_style = (load_json(style) or {}).get("textFormat") or {}
        cells[(row, col)] = {
            "shown": str(shown), "entered": formula if formula is not None else _entered_text(decoded, load_json(fmt)),
            "error": kind == "e", "note": note or "", "number": kind == "n", "bold": bool(text_style.get("bold")),
            "italic": bool(text_style.get("italic")),
        }
    merges = service.db.scalars(select(Merge).where(Merge.spreadsheet_id == spreadsheet_id, Merge.sheet_id == tab.sheet_id)).all()
    hidden, spans = set(), {}
    for m in merges:
        spans[(m.start_row, m.start_col)] = (m.end_row - m.start_row, m.end_col - m.start_col)
        hidden |= {(r, c) for r in range(m.start_row, m.end_row) for c in range(m.start_col, m.end_col)} - {(m.start_row, m.start_col)}
    return {"rows": list(rows), "cols": [(c, column_letter(c)) for c in cols], "cells": cells, "hidden": hidden, "spans": spans}


def _entered_text(value: Any, fmt: dict[str, str] | None) -> str:
    """What the formula bar shows for a literal: dates and percentages as typed, else as shown."""
    if value is None:
        return ""
    shown = display(value, fmt)
    if fmt and fmt.get("type") in ("DATE", "DATE_TIME", "PERCENT", "TIME"):
        return str(shown)
    if isinstance(value, float):
        return display(value, None)
    return str(shown)


@router.get("/d/{spreadsheet_id}", response_class=HTMLResponse)
def spreadsheet_page(request: Request, spreadsheet_id: str, sheet: int | None = None, cell: str = "A1", top: int = 0,
                     env: Env = Depends(current_env)) -> HTMLResponse:
    return render_page(request, env, spreadsheet_id, sheet, cell, top)


def render_page(request: Request, env: Env, spreadsheet_id: str, sheet: int | None, cell: str, top: int,
                error: str = "", typed: str | None = None, status: int = 200) -> HTMLResponse:
    """One tab of a spreadsheet, `cell` (a cell or a range, as the name box shows it) selected."""
    with env_store(request).session(env) as db:
        service = SheetsService(db)
        try:
            spreadsheet = service.spreadsheet(spreadsheet_id)
        except SheetsError:
            return templates.TemplateResponse(request, "index.html", {"base": _base(env), "files": service.files_list(), "roles": {},
                                                                      "me": service.actor_email, "missing": spreadsheet_id}, status_code=404)
        tabs = service.tabs(spreadsheet.id)
        tab = next((t for t in tabs if t.sheet_id == sheet), tabs[0])
        try:
            area = parse_area(cell.strip())
            if area.sheet is not None:
                raise A1Error(cell)
        except A1Error:
            area = GridRange(None, 0, 0, 1, 1)
        selected = area.bounded(tab.row_count, tab.column_count)
        top = max(0, min(top, tab.row_count - 1))
        if not top <= selected.r1 < top + SHOWN_ROWS:
            top = max(0, selected.r1 - SHOWN_ROWS // 2)
        grid = _grid(service, spreadsheet.id, tab, top, 0)
        current = grid["cells"].get((selected.r1, selected.c1), {"entered": "", "shown": ""})
        context = {
            "base": _base(env), "spreadsheet": spreadsheet, "tabs": tabs, "tab": tab, "grid": grid, "role": service.role(spreadsheet.id),
            "selected": cell_name(selected.r1, selected.c1) if area.is_cell else area.a1(with_sheet=False),
            "sel_row": selected.r1, "sel_col": selected.c1, "sel": (selected.r1, selected.c1, selected.r2, selected.c2),
            "entered": current["entered"] if typed is None else typed, "error": error, "top": top, "shown_rows": SHOWN_ROWS,
            "quote": quote, "columns": [column_letter(c) for c in range(tab.column_count)],
        }
    return templates.TemplateResponse(request, "sheet.html", context, status_code=status)


@router.post("/d/{spreadsheet_id}/cells")
def edit_cell(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form(...), content: str = Form(""),
              top: int = Form(0), env: Env = Depends(current_env)) -> Any:
    with env_store(request).session(env) as db:
        service = SheetsService(db)
        try:
            tab = service.tab(spreadsheet_id, sheet_id=sheet) if service.role(spreadsheet_id) else None
        except SheetsError:
            tab = None
    if tab is None:
        return render_page(request, env, spreadsheet_id, sheet, cell, top, error="That sheet does not exist.", status=404)
    target = f"{quote_sheet(tab.title)}!{cell}"
    route = getattr(request.scope.get("route"), "path", request.url.path)
    try:
        invoke(env_store(request), env, OPERATIONS, OPERATIONS["sheets.values.update"],
               {"spreadsheetId": spreadsheet_id, "range": target, "values": [[content.replace("\r\n", "\n")]], "valueInputOption": "USER_ENTERED"},
               face="ui", tool=f"POST {route}")
    except AppError as error:
        return render_page(request, env, spreadsheet_id, sheet, cell, top, error=error.message, typed=content, status=400)
    try:
        at = parse_area(cell)
        next_cell = cell_name(at.r1 + 1, at.c1)  # Enter moves down, as in a spreadsheet
    except A1Error:
        next_cell = "A1"
    query = urlencode({"sheet": sheet, "cell": next_cell, "top": top})
    return RedirectResponse(f"{_base(env)}/d/{spreadsheet_id}?{query}", status_code=303)


router.include_router(ui_actions.router)  # the menus, shortcuts, paste and tab actions (ui_actions.py)
