"""The browser face of the sheets app: a server-rendered, Sheets-like grid.

`/envs/{id}/sheets/` lists the spreadsheets you can open; `/envs/{id}/sheets/d/{spreadsheetId}`
shows one tab as an ARIA grid (column letters, row numbers, computed values through their
number formats, errors as a spreadsheet shows them, frozen header rows kept on top and frozen
columns at the left), a name box and formula bar showing the selected cell's formula, the sum of
the selected numbers and, under its arrow, their average, min, max and counts (as the product's
status bar shows them), paging to further rows and columns, and the tabs. Shift+Arrow grows the
selection past the window's edge (the window follows it), and Ctrl+Arrow (with Shift: selecting)
goes to where the data ends, read from the whole sheet. A Drive link
(or file id) pasted into "Open a file" opens a spreadsheet, or an uploaded .xlsx in Drive's
preview, whose "Open with Google Sheets" converts it (Drive files.copy); Find in sheet (Ctrl+F)
selects the next cell showing the words. Editing is a form post of (cell, content) through the
same `sheets.values.update` operation as the API, answered with a 303 back to the cell, so it
works with JavaScript off; a small static script adds selection by mouse and arrow keys,
typing into the formula bar and Enter to commit. With it, an action (a jump, an edit, a find,
a page of rows, a tab, a menu's action) does not reload the page: the script asks for the view
alone (`X-Sheets-View: 1`, the same page without its script and styles), swaps it in and keeps
the address in step, so a reload or a shared link shows the same place. Data ▸ Data validation
and Format ▸ Conditional formatting open a side panel of the tab's rules beside the grid
(ui_rules.py); a checkbox cell (a BOOLEAN rule) is drawn as a checkbox that a click or Space
toggles. Writes land in the trajectory (face "ui").
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from markupsafe import Markup, escape
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from sqlalchemy import func, or_, select

from apps.sheets import conditional_formats, dimension_properties, filters, tab_rules, theme, ui_actions, ui_rules, validation
from apps.sheets.a1 import A1Error, GridRange, cell_name, column_letter, parse_area, quote_sheet
from apps.sheets.drive import uploaded_file
from apps.sheets.entry import decode, enter, load_json
from apps.sheets.errors import SheetsError
from apps.sheets.formulas.formats import display
from apps.sheets.models import Cell, Merge, Spreadsheet
from apps.sheets.operations import OPERATIONS
from apps.sheets.service import SheetsService
from apps.sheets.xlsx import GOOGLE_SHEET_MIME, XLSX_MIME
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.ops import invoke
from officegym.core.web import EnvRoute, current_env, env_store

router = APIRouter(route_class=EnvRoute)
_jinja = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True,
                            trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
templates = Jinja2Templates(env=_jinja)
SHOWN_ROWS, SHOWN_COLS = 60, 15  # the window of the grid a page shows (scroll with ?top= and ?left=)
DRIVE_ID = re.compile(r"(?:/d/|[?&]id=)([\w-]{10,128})|^([\w-]{10,128})$")


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


def _hidden(stored: str | None) -> Any:
    """Whether a row (column) is hidden by the user, from the tab's stored properties."""
    stretches = dimension_properties.hidden(dimension_properties.load(stored))
    return lambda index: any(start <= index < end for start, end in stretches)


def _grid(service: SheetsService, spreadsheet_id: str, tab: Any, top: int, left: int) -> dict[str, Any]:
    frozen = min(tab.frozen_rows or 0, top)  # frozen header rows stay on top of a scrolled window,
    frozen_cols = min(tab.frozen_columns or 0, left)  # and frozen columns at its left
    # Hidden rows and columns (hiddenByUser) are not drawn; the one after a hidden stretch says so
    # in its header, where Google draws the arrows that show them again.
    user_hidden, col_hidden = _hidden(tab.row_properties), _hidden(tab.column_properties)
    # Rows the tab's basic filter hides are not drawn either (Google leaves them out the same way).
    stored = service.book(spreadsheet_id) if (tab.basic_filter or tab.conditional_formats or tab.data_validation) else None
    by_filter = filters.hidden_rows(tab, stored) if tab.basic_filter else []
    row_hidden = (lambda r: user_hidden(r) or any(a <= r < b for a, b in by_filter)) if by_filter else user_hidden
    rows = [r for r in (*range(frozen), *range(max(top, frozen), min(top + SHOWN_ROWS, tab.row_count))) if not row_hidden(r)]
    cols = [c for c in (*range(frozen_cols), *range(max(left, frozen_cols), min(left + SHOWN_COLS, tab.column_count))) if not col_hidden(c)]
    found = service.db.execute(select(Cell.row, Cell.col, Cell.formula, Cell.kind, Cell.value, Cell.note, Cell.number_format, Cell.style).where(
        Cell.spreadsheet_id == spreadsheet_id, Cell.sheet_id == tab.sheet_id, or_(Cell.row < frozen, (Cell.row >= top) & (Cell.row < top + SHOWN_ROWS)),
        or_(Cell.col < frozen_cols, (Cell.col >= left) & (Cell.col < left + SHOWN_COLS)))).all()
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    inferred = _inferred(service, spreadsheet_id, tab.sheet_id, [(r[0], r[1], r[2], r[3], r[6]) for r in found],
                         [(r1, c1, r2, c2) for r1, r2 in ((0, frozen), (top, top + SHOWN_ROWS)) for c1, c2 in ((0, frozen_cols), (left, left + SHOWN_COLS))])
    for row, col, formula, kind, value, note, fmt, style in found:
        decoded = decode(kind, value, note)
        shown = display(decoded, load_json(fmt) or inferred.get((row, col)))
        looks = load_json(style) or {}
        text_style = looks.get("textFormat") or {}
        cells[(row, col)] = {
            "shown": str(shown), "entered": formula if formula is not None else _entered_text(decoded, load_json(fmt)),
            "error": kind == "e", "note": note or "", "number": kind == "n", "bold": bool(text_style.get("bold")),
            "italic": bool(text_style.get("italic")), "value": repr(float(decoded)) if kind == "n" and isinstance(decoded, (int, float)) else "",
            "css": _css(looks), "decoded": decoded, "_looks": looks,
        }
    # Conditional formats (the first rule that applies to a cell decides), borders and fills are
    # drawn on the cells; a cell with a dropdown shows its arrow, one whose value its validation
    # rule refuses is marked invalid, as Google marks it.
    if tab.conditional_formats and stored is not None:
        window = (0 if frozen else top, 0 if frozen_cols else left, top + SHOWN_ROWS, left + SHOWN_COLS)
        for at, fmt in conditional_formats.shown_formats(tab, stored, window).items():
            cell = cells.setdefault(at, {"shown": "", "entered": "", "error": False, "note": "", "number": False, "bold": False,
                                         "italic": False, "value": "", "css": "", "decoded": None})
            own = _looks_of(cell)
            cell["css"] = _css({**own, **fmt, "textFormat": {**(own.get("textFormat") or {}), **(fmt.get("textFormat") or {})}})
            text = fmt.get("textFormat") or {}
            cell["bold"] = cell["bold"] or bool(text.get("bold"))
            cell["italic"] = cell["italic"] or bool(text.get("italic"))
    marks: dict[tuple[int, int], str] = {}
    if tab.data_validation and stored is not None:
        for (r1, c1, r2, c2), rule in validation.rules(tab):
            listed = rule["condition"]["type"] in ("ONE_OF_LIST", "ONE_OF_RANGE") and rule.get("showCustomUi")
            boxed = rule["condition"]["type"] == "BOOLEAN"  # a checkbox, ticked when it holds the rule's checked value
            for r in range(max(r1, 0 if frozen else top), min(r2, top + SHOWN_ROWS)):
                for c in range(max(c1, 0 if frozen_cols else left), min(c2, left + SHOWN_COLS)):
                    cell = cells.get((r, c))
                    if cell is not None and cell["decoded"] is not None and not validation.passes(stored, tab, rule, r, c, cell["decoded"]):
                        marks[(r, c)] = "invalid"
                    elif boxed:
                        marks[(r, c)] = "checked" if ui_rules.is_checked(rule, cell["decoded"] if cell else None) else "unchecked"
                    elif listed:
                        marks[(r, c)] = "list"
    header = tab_rules.load(tab.basic_filter) if tab.basic_filter else None
    filter_heads = {}
    if header:
        active = {s["columnIndex"] for s in header.get("filterSpecs", [])}
        filter_heads = {(header["range"][0], c): c in active for c in range(header["range"][1], header["range"][3])}
    merges = service.db.scalars(select(Merge).where(Merge.spreadsheet_id == spreadsheet_id, Merge.sheet_id == tab.sheet_id)).all()
    hidden, spans = set(), {}
    for m in merges:
        spans[(m.start_row, m.start_col)] = (m.end_row - m.start_row, m.end_col - m.start_col)
        hidden |= {(r, c) for r in range(m.start_row, m.end_row) for c in range(m.start_col, m.end_col)} - {(m.start_row, m.start_col)}
    return {"rows": rows, "frozen": frozen, "frozen_cols": frozen_cols, "cols": [(c, column_letter(c)) for c in cols], "cells": cells,
            "after_hidden_rows": {r for r in rows if r > 0 and row_hidden(r - 1)}, "after_hidden_cols": {c for c in cols if c > 0 and col_hidden(c - 1)},
            # the hidden ones in and around the window, which the arrow keys step over
            "hidden_rows": [r for r in range(max(0, top - 1), min(top + SHOWN_ROWS + 1, tab.row_count)) if row_hidden(r)],
            "hidden_cols": [c for c in range(max(0, left - 1), min(left + SHOWN_COLS + 1, tab.column_count)) if col_hidden(c)],
            "hidden": hidden, "spans": spans, "marks": marks, "filter_heads": filter_heads,
            "filtered_rows": {r for r in rows if r > 0 and any(a <= r - 1 < b for a, b in by_filter)}}


def _looks_of(cell: dict[str, Any]) -> dict[str, Any]:
    return cell.get("_looks", {})


def _css(looks: dict[str, Any]) -> str:
    """A cell's stored (or conditional) format as inline CSS: its fill, text color, strikethrough
    and underline, and its borders."""
    out = []
    background = theme.hex_of(looks.get("backgroundColorStyle") or looks.get("backgroundColor"))
    if background:
        out.append(f"background:{background}")
    text = looks.get("textFormat") or {}
    color = theme.hex_of(text.get("foregroundColorStyle") or text.get("foregroundColor"))
    if color:
        out.append(f"color:{color}")
    if text.get("bold"):
        out.append("font-weight:bold")
    if text.get("italic"):
        out.append("font-style:italic")
    lines = " ".join(word for key, word in (("strikethrough", "line-through"), ("underline", "underline")) if text.get(key))
    if lines:
        out.append(f"text-decoration:{lines}")
    for side, border in (looks.get("borders") or {}).items():
        if side in ("top", "bottom", "left", "right") and isinstance(border, dict):
            width = {"SOLID_MEDIUM": 2, "SOLID_THICK": 3, "DOUBLE": 3}.get(border.get("style", ""), 1)
            kind = {"DOTTED": "dotted", "DASHED": "dashed", "DOUBLE": "double"}.get(border.get("style", ""), "solid")
            out.append(f"border-{side}:{width}px {kind} {theme.hex_of(border.get('colorStyle') or border.get('color') or {}) or '#000000'}")
    return ";".join(out)


def _grid_body(grid: dict[str, Any], sel: tuple[int, int, int, int], at: tuple[int, int], top: int, left: int) -> Markup:
    """The grid's rows as HTML, built here rather than in the template: a window is up to 900
    cells, and each says only what a reader or the page's script needs. A cell is a gridcell by
    being a td of the grid (its role needs no saying), named by its A1 address (aria-label,
    which the script also reads its row and column from); its formula
    rides along (data-entered) only where it differs from what the cell shows, its number
    (data-v, for the status bar's sum) only where it is one; the selected cell alone carries
    aria-selected and the tab stop; looks are classes."""
    r1, c1, r2, c2 = sel
    cols, cells, hidden, spans = grid["cols"], grid["cells"], grid["hidden"], grid["spans"]
    frozen, frozen_cols, after_hidden = grid["frozen"], grid["frozen_cols"], grid["after_hidden_rows"]
    marks, filter_heads, after_filtered = grid["marks"], grid["filter_heads"], grid["filtered_rows"]
    edge = [" frozen-col" if c < frozen_cols else " after-frozen-col" if frozen_cols and c == left else "" for c, _ in cols]
    out: list[str] = []
    for r in grid["rows"]:
        kind = ' class="frozen"' if r < frozen else ' class="after-frozen"' if frozen and r == top else ""
        mark = ' after-hidden" title="Hidden rows above: select across them and choose Unhide rows' if r in after_hidden and r not in after_filtered else (
            ' after-filtered" title="Rows above are hidden by the filter' if r in after_filtered else "")
        out.append(f'<tr role="row" aria-rowindex="{r + 2}"{kind}><th scope="row" role="rowheader" class="rowhead{mark}" data-row="{r}">{r + 1}</th>')
        row_in = r1 <= r < r2
        for i, (c, letter) in enumerate(cols):
            if (r, c) in hidden:
                continue
            cell = cells.get((r, c))
            looks = edge[i]
            extra = ""
            shown = ""
            after = ""
            if cell is not None:
                shown = cell["shown"]
                looks += (" num" if cell["number"] else "") + (" err" if cell["error"] else "") + (" b" if cell["bold"] else "") + (" i" if cell["italic"] else "")
                if cell["entered"] != shown:
                    extra += f' data-entered="{escape(cell["entered"])}"'
                if cell["value"]:
                    extra += f' data-v="{cell["value"]}"'
                if cell["error"]:
                    extra += f' title="{escape(cell["note"])}"'
                if cell.get("css"):
                    extra += f' style="{escape(cell["css"])}"'
            mark = marks.get((r, c))
            if mark == "invalid":
                looks += " dv-bad"
                extra += ' title="Invalid: this value breaks the cell&#39;s data validation rule"' if "title=" not in extra else ""
            elif mark == "list":
                looks += " dv-list"  # (its arrow drawn by the page's style: not part of the cell's text)
            elif mark in ("checked", "unchecked"):  # a checkbox (its value kept as the cell's text, out of sight, for copy and the figures)
                looks += " cb-cell"
                on = "true" if mark == "checked" else "false"
                shown_html = (f'<span class="cb" role="checkbox" aria-checked="{on}" aria-label="{letter}{r + 1}" title="Click or press Space to '
                              f'{"untick" if mark == "checked" else "tick"}"></span><span class="cb-v">{escape(shown)}</span>')
            if (r, c) in filter_heads:
                active = filter_heads[(r, c)]
                looks += " filter-head"
                after += (f'<span class="filter-icon{" on" if active else ""}" role="img" aria-label="{"Filtered" if active else "Filter"}: '
                          f'column {letter}" title="{"Filtered" if active else "Filter"}"></span>')
            if row_in and c1 <= c < c2:
                looks += " in-sel"
            if (r, c) == at:
                extra += ' aria-selected="true" tabindex="0"'
            span = spans.get((r, c))
            if span:
                extra += f' rowspan="{span[0]}" colspan="{span[1]}"'
            looks = f' class="{looks[1:]}"' if looks else ""
            body = shown_html if mark in ("checked", "unchecked") else escape(shown)
            out.append(f'<td aria-label="{letter}{r + 1}"{looks}{extra}>{body}{Markup(after)}</td>')
        out.append("</tr>\n")
    return Markup("".join(out))


def _inferred(service: SheetsService, spreadsheet_id: str, sheet_id: int, found: list[tuple[int, int, str | None, str, str | None]],
              boxes: list[tuple[int, int, int, int]]) -> dict[tuple[int, int], Any]:
    """The formats the formulas among `found` (row, col, formula, kind, number format) show their
    number results in when they have no number format of their own (formulas/inferred.py)."""
    automatic = [(row, col, formula) for row, col, formula, kind, fmt in found if formula is not None and kind == "n" and not fmt]
    if not automatic:
        return {}
    return service.inferred_formats(spreadsheet_id, sheet_id, automatic, ((r, c, f, fmt) for r, c, f, _, fmt in found), boxes)


def _selection_figures(service: SheetsService, spreadsheet_id: str, tab: Any, selected: GridRange) -> list[tuple[str, str]]:
    """What the status bar says of a selection of several cells holding numbers, as the product's
    does: Sum first (shown), then Average, Min, Max (in the first number's format), Count (the
    filled cells) and Count Numbers; nothing for one cell or no numbers."""
    if selected.r2 - selected.r1 == 1 and selected.c2 - selected.c1 == 1:  # type: ignore[operator]
        return []
    found = service.db.execute(select(Cell.kind, Cell.value, Cell.note, Cell.number_format).where(
        Cell.spreadsheet_id == spreadsheet_id, Cell.sheet_id == tab.sheet_id, Cell.kind != "", Cell.row >= selected.r1, Cell.row < selected.r2,
        Cell.col >= selected.c1, Cell.col < selected.c2).order_by(Cell.row, Cell.col)).all()
    filled = [(decode(kind, value, note), fmt) for kind, value, note, fmt in found]
    numbers = [(v, fmt) for v, fmt in filled if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if not numbers:
        return []
    fmt = load_json(numbers[0][1])
    values = [v for v, _ in numbers]
    return [("Sum", str(display(sum(values), fmt))), ("Average", str(display(sum(values) / len(values), fmt))),
            ("Min", str(display(min(values), fmt))), ("Max", str(display(max(values), fmt))),
            ("Count", str(sum(1 for v, _ in filled if v not in (None, "")))), ("Count Numbers", str(len(values)))]


def _cell_entered(service: SheetsService, spreadsheet_id: str, tab: Any, at: tuple[int, int]) -> dict[str, str]:
    """What the formula bar shows for one cell, read on its own."""
    found = service.db.execute(select(Cell.formula, Cell.kind, Cell.value, Cell.note, Cell.number_format).where(
        Cell.spreadsheet_id == spreadsheet_id, Cell.sheet_id == tab.sheet_id, Cell.row == at[0], Cell.col == at[1])).first()
    if found is None:
        return {"entered": "", "shown": ""}
    formula, kind, value, note, fmt = found
    decoded = decode(kind, value, note)
    shown_format = load_json(fmt) or _inferred(service, spreadsheet_id, tab.sheet_id, [(*at, formula, kind, fmt)], []).get(at)
    return {"entered": formula if formula is not None else _entered_text(decoded, load_json(fmt)), "shown": str(display(decoded, shown_format))}


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
def spreadsheet_page(request: Request, spreadsheet_id: str, sheet: int | None = None, cell: str = "A1", top: int = 0, left: int = 0,
                     find: str = "", scrolled: bool = False, panel: str = "", rule: str = "", env: Env = Depends(current_env)) -> HTMLResponse:
    """`scrolled`: the window was paged (the scroll links) and shows rows `top` and columns `left`
    on, wherever the selection is, as scrolling leaves the selection alone; else the window
    moves to show the selection when it is out of sight."""
    return render_page(request, env, spreadsheet_id, sheet, cell, top, left=left, find=find[:200], scrolled=scrolled, panel=panel[:20],
                       rule=rule[:10])


def render_page(request: Request, env: Env, spreadsheet_id: str, sheet: int | None, cell: str, top: int,
                error: str = "", typed: str | None = None, status: int = 200, left: int = 0, find: str = "", scrolled: bool = False,
                panel: str = "", rule: str = "", draft: dict[str, Any] | None = None, panel_error: str = "",
                confirm: dict[str, str] | None = None) -> HTMLResponse:
    """One tab of a spreadsheet, `cell` (a cell or a range, as the name box shows it) selected;
    `panel` the side panel open beside the grid (ui_rules.py: "validation" or "conditional", `rule`
    the rule open in it, `draft` what its form holds, `panel_error` why it was refused); `confirm`
    an action that asks before it is done ({action, title, message}: its dialog's OK does it)."""
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
        anchor, corner = _ends(cell, selected)
        top = max(0, min(top, tab.row_count - 1))
        if not (scrolled or top <= selected.r1 < top + SHOWN_ROWS or top <= corner[0] < top + SHOWN_ROWS):  # the window shows the selection's
            top = max(0, selected.r1 - SHOWN_ROWS // 2)                                           # start, or the corner it grows at
        left = max(0, min(left, tab.column_count - 1))
        if not (scrolled or left <= selected.c1 < left + SHOWN_COLS or left <= corner[1] < left + SHOWN_COLS):
            left = max(0, selected.c1 - SHOWN_COLS // 2)
        grid = _grid(service, spreadsheet.id, tab, top, left)
        grid["body"] = _grid_body(grid, (selected.r1, selected.c1, selected.r2, selected.c2), (selected.r1, selected.c1), top, left)
        header_row = service.db.execute(select(Cell.col, Cell.formula, Cell.kind, Cell.value, Cell.note, Cell.number_format).where(
            Cell.spreadsheet_id == spreadsheet.id, Cell.sheet_id == tab.sheet_id, Cell.row == 0).order_by(Cell.col)).all()
        header_formats = _inferred(service, spreadsheet.id, tab.sheet_id, [(0, col, f, kind, fmt) for col, f, kind, _, _, fmt in header_row],
                                   [(0, 0, 1, tab.column_count)])
        headers = [str(display(decode(kind, value, note), load_json(fmt) or header_formats.get((0, col))))
                   for col, _, kind, value, note, fmt in header_row if kind]
        last_row = service.db.scalar(select(func.max(Cell.row)).where(Cell.spreadsheet_id == spreadsheet.id, Cell.sheet_id == tab.sheet_id))
        current = grid["cells"].get(anchor) or _cell_entered(service, spreadsheet.id, tab, anchor)  # (out of the window when paged away)
        choices = _choices(service, spreadsheet.id, tab, anchor)
        filter_menu = _filter_menu(service, spreadsheet.id, tab, anchor) if tab.basic_filter else None
        context = {
            "base": _base(env), "spreadsheet": spreadsheet, "tabs": tabs, "tab": tab, "grid": grid, "role": service.role(spreadsheet.id),
            "selected": cell_name(selected.r1, selected.c1) if area.is_cell else area.a1(with_sheet=False),
            "sel_row": selected.r1, "sel_col": selected.c1, "sel": (selected.r1, selected.c1, selected.r2, selected.c2), "ends": (*anchor, *corner),
            "entered": current["entered"] if typed is None else typed, "error": error, "top": top, "shown_rows": SHOWN_ROWS,
            "quote": quote, "columns": [column_letter(c) for c in range(tab.column_count)], "left": left, "shown_cols": SHOWN_COLS,
            "ends_text": f"{cell_name(*anchor)}:{cell_name(*corner)}" if RANGE_ENDS.match(cell) else (
                cell_name(selected.r1, selected.c1) if area.is_cell else area.a1(with_sheet=False)),
            "used_rows": (last_row or 0) + 1, "find": find, "headers": [h for h in headers if h.strip()], "figures": _selection_figures(service, spreadsheet.id, tab, selected), "page": _paging(tab, top, left),
            "choices": choices, "has_filter": bool(tab.basic_filter), "filter_menu": filter_menu, "confirm": confirm,
        }
        context["panel"] = ui_rules.panel_context(tab, context["selected"], panel, rule, draft, panel_error)
    if request.headers.get(VIEW_HEADER) == "1":  # the page's script asks for the view alone, to swap in
        return templates.TemplateResponse(request, "sheet_view.html", context, status_code=status,
                                          headers={VIEW_HEADER: "1", "Cache-Control": "no-store", "Vary": VIEW_HEADER})
    return templates.TemplateResponse(request, "sheet.html", context, status_code=status, headers={"Vary": VIEW_HEADER})


VIEW_HEADER = "X-Sheets-View"


RANGE_ENDS = re.compile(r"^\s*\$?([A-Za-z]{1,3})\$?(\d{1,7})\s*:\s*\$?([A-Za-z]{1,3})\$?(\d{1,7})\s*$")


def _ends(text: str, selected: GridRange) -> tuple[tuple[int, int], tuple[int, int]]:
    """The selection's anchor (where it started) and the corner it grows at, as written: "J61:J3"
    is J3:J61 selected upwards from J61 (the keys extend it from there, and the window follows the
    corner). A cell, or rows or columns: the first cell, and the opposite corner."""
    found = RANGE_ENDS.match(text)
    if found:
        try:
            a, b = parse_area(found.group(1) + found.group(2)), parse_area(found.group(3) + found.group(4))
        except A1Error:
            pass
        else:
            if selected.contains(a.r1, a.c1) and selected.contains(b.r1, b.c1):
                return (a.r1, a.c1), (b.r1, b.c1)
    return (selected.r1, selected.c1), (selected.r2 - 1, selected.c2 - 1)  # type: ignore[operator]


def _paging(tab: Any, top: int, left: int) -> dict[str, tuple[str, int, int] | None]:
    """The links to the next and previous window of rows and columns: (its first cell, top, left)."""
    def at(row: int, col: int) -> tuple[str, int, int]:
        return cell_name(row, col), row, col

    return {
        "up": at(max(0, top - SHOWN_ROWS), left) if top > 0 else None,
        "down": at(top + SHOWN_ROWS, left) if top + SHOWN_ROWS < tab.row_count else None,
        "back": at(top, max(0, left - SHOWN_COLS)) if left > 0 else None,
        "forward": at(top, left + SHOWN_COLS) if left + SHOWN_COLS < tab.column_count else None,
    }


@router.get("/d/{spreadsheet_id}/find", response_class=HTMLResponse)
def find(request: Request, spreadsheet_id: str, sheet: int | None = None, cell: str = "A1", q: str = "", env: Env = Depends(current_env)) -> Any:
    """Find in sheet (Ctrl+F): the next cell after the selected one whose shown value contains
    the words, row by row (wrapping to the top), selected; the page says when there is none."""
    words = q.strip()[:200]
    with env_store(request).session(env, reading=True) as db:
        service = SheetsService(db)
        try:
            tab = next((t for t in service.tabs(spreadsheet_id) if t.sheet_id == sheet), None) or service.tabs(spreadsheet_id)[0]
            found = service.find_cells(spreadsheet_id, words, sheet=tab.title, max_results=500) if words else []
        except (SheetsError, IndexError):
            tab = None
    if tab is None:  # (the page says there is no such spreadsheet you can open)
        return render_page(request, env, spreadsheet_id, sheet, cell, 0, status=404)
    try:
        at = parse_area(cell.strip())
        now = (at.r1, at.c1)
    except A1Error:
        now = (-1, -1)
    places = [(parse_area(f["cell"]).r1, parse_area(f["cell"]).c1, f["cell"]) for f in found]
    following = [p for p in places if (p[0], p[1]) > now] or places
    if not following:
        return render_page(request, env, spreadsheet_id, tab.sheet_id, cell, 0, error=f"No results for {words!r} in {tab.title}." if words
                           else "Type what to find.", status=200)
    query = urlencode({"sheet": tab.sheet_id, "cell": following[0][2], "find": words})
    return RedirectResponse(f"{_base(env)}/d/{spreadsheet_id}?{query}", status_code=303)


STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


@router.get("/d/{spreadsheet_id}/edge", response_class=HTMLResponse)
def edge(request: Request, spreadsheet_id: str, sheet: int | None = None, cell: str = "A1", to: str = "down", extend: bool = False,
         top: int = 0, left: int = 0, env: Env = Depends(current_env)) -> Any:
    """Ctrl+Arrow: to the edge of the data, as a spreadsheet goes (from a filled cell with a filled
    neighbour, to the last filled one before a blank; else to the next filled one, or the sheet's
    edge); Ctrl+Home to A1 and Ctrl+End to the last filled row and column; with Shift (`extend`)
    the selection grows to it from its anchor. Rows and columns past the window are read from
    the sheet, so the jump lands where the data ends, shown."""
    step = STEPS.get(to) or ((0, 0) if to in ("home", "end") else None)
    with env_store(request).session(env, reading=True) as db:
        service = SheetsService(db)
        tab, area = None, None
        try:
            tab = next((t for t in service.tabs(spreadsheet_id) if t.sheet_id == sheet), None) or service.tabs(spreadsheet_id)[0]
            tab = tab if service.role(spreadsheet_id) else None
            area = parse_area(cell.strip()[:40])
            if area.sheet is not None or step is None:
                raise A1Error(cell)
        except (SheetsError, IndexError):
            tab = None
        except A1Error:
            area = None
        if tab is not None and area is not None:
            anchor, corner = _ends(cell, area.bounded(tab.row_count, tab.column_count))
            row, col = corner if extend else anchor
            mine = (Cell.spreadsheet_id == spreadsheet_id, Cell.sheet_id == tab.sheet_id, or_(Cell.kind != "", Cell.formula.is_not(None)))
            if to == "home":
                dest = (0, 0)
            elif to == "end":
                dest = (db.scalar(select(func.max(Cell.row)).where(*mine)) or 0, db.scalar(select(func.max(Cell.col)).where(*mine)) or 0)
            else:
                down = step[0] != 0
                filled = set(db.scalars(select(Cell.row if down else Cell.col).where(*mine, Cell.col == col if down else Cell.row == row)))
                at, way = (row, step[0]) if down else (col, step[1])
                landed = _data_edge(filled, at, way, (tab.row_count if down else tab.column_count) - 1)
                dest = (landed, col) if down else (row, landed)
    if tab is None:
        return render_page(request, env, spreadsheet_id, sheet, cell, 0, status=404)
    if area is None:
        return render_page(request, env, spreadsheet_id, tab.sheet_id, "A1", 0, error=f"{cell[:40]!r} is not a cell or range.", status=400)
    top = dest[0] - SHOWN_ROWS + 1 if dest[0] >= top + SHOWN_ROWS else min(top, dest[0])
    left = dest[1] - SHOWN_COLS + 1 if dest[1] >= left + SHOWN_COLS else min(left, dest[1])
    target = cell_name(*dest) if not extend else f"{cell_name(*anchor)}:{cell_name(*dest)}"
    query = urlencode({"sheet": tab.sheet_id, "cell": target, "top": max(0, top), "left": max(0, left)})
    return RedirectResponse(f"{_base(env)}/d/{spreadsheet_id}?{query}", status_code=303)


def _data_edge(filled: set[int], at: int, way: int, last: int) -> int:
    """Where Ctrl+Arrow lands from `at` along a row or column whose filled places are `filled`."""
    following = at + way
    if not 0 <= following <= last:
        return at
    if at in filled and following in filled:
        while following + way in filled and 0 <= following + way <= last:
            following += way
        return following
    ahead = [p for p in filled if (p > at if way > 0 else p < at)]
    if not ahead:
        return last if way > 0 else 0
    return min(ahead) if way > 0 else max(ahead)


@router.get("/open", response_class=HTMLResponse)
def open_link(request: Request, link: str = "", env: Env = Depends(current_env)) -> Any:
    """File ▸ Open: a Drive link (or a file id) pasted in. A spreadsheet opens; an uploaded
    file opens in Drive's preview, where "Open with Google Sheets" converts it."""
    found = DRIVE_ID.search(link.strip()[:2000])
    file_id = (found.group(1) or found.group(2)) if found else ""
    with env_store(request).session(env, reading=True) as db:
        service = SheetsService(db)
        if file_id and db.get(Spreadsheet, file_id) is not None and service.role(file_id):
            tab = re.search(r"[#?&]gid=(\d{1,12})", link)  # a link to one tab (…/edit#gid=123)
            return RedirectResponse(f"{_base(env)}/d/{file_id}" + (f"?sheet={tab.group(1)}" if tab else ""), status_code=303)
        try:
            uploaded_file(service, file_id)
        except SheetsError:
            pass
        else:
            return RedirectResponse(f"{_base(env)}/file/d/{file_id}/view", status_code=303)
    return render_index(request, env, error=f"No file at {link.strip()[:200]!r} that you can open: paste its Drive link "
                                            "(https://drive.google.com/file/d/<id>/view) or its id.", status=404)


@router.get("/file/d/{file_id}/view", response_class=HTMLResponse)
def file_view(request: Request, file_id: str, env: Env = Depends(current_env)) -> HTMLResponse:
    """Drive's preview of an uploaded file: its name, type, owner and size, and "Open with
    Google Sheets" for an Excel workbook."""
    with env_store(request).session(env, reading=True) as db:
        service = SheetsService(db)
        try:
            upload = uploaded_file(service, file_id)
        except SheetsError as error:
            missing = error.message
        else:
            missing, context = "", {"base": _base(env), "me": service.actor_email, "file": {
                "id": upload.id, "name": upload.name, "owner": upload.owner_email, "size": upload.size, "created": upload.created,
                "excel": upload.mime_type == XLSX_MIME, "mime": upload.mime_type}}
    if missing:  # (rendered outside the read: the list opens its own)
        return render_index(request, env, error=missing, status=404)
    return templates.TemplateResponse(request, "file.html", context)


@router.post("/file/d/{file_id}/convert")
def open_with_sheets(request: Request, file_id: str, env: Env = Depends(current_env)) -> Any:
    """"Open with Google Sheets": the upload converted into a new Google Sheet (Drive files.copy
    to the Sheets type; the upload stays), which opens."""
    route = getattr(request.scope.get("route"), "path", request.url.path)
    try:
        made = invoke(env_store(request), env, OPERATIONS, OPERATIONS["sheets.files.copy"], {"fileId": file_id, "mimeType": GOOGLE_SHEET_MIME},
                      face="ui", tool=f"POST {route}")
    except AppError as error:
        return render_index(request, env, error=error.message, status=error.status_code)
    return RedirectResponse(f"{_base(env)}/d/{made['id']}", status_code=303)


def _refused_by_validation(service: SheetsService, spreadsheet_id: str, tab: Any, cell: str, content: str) -> str | None:
    """Google's words when the cell's strict validation rule refuses what was typed (a formula
    is taken: its value is not known until it is computed); None to take it."""
    try:
        at = parse_area(cell)
    except A1Error:
        return None
    rule = validation.rule_at(tab, at.r1, at.c1)
    if rule is None or not rule.get("strict"):
        return None
    entered = enter(content.replace("\r\n", "\n"), "USER_ENTERED")
    if entered.formula is not None or entered.value is None:
        return None
    if validation.passes(service.book(spreadsheet_id), tab, rule, at.r1, at.c1, entered.value):
        return None
    return validation.refusal(at.r1, at.c1)


def _choices(service: SheetsService, spreadsheet_id: str, tab: Any, at: tuple[int, int]) -> dict[str, Any] | None:
    """The selected cell's dropdown (a ONE_OF_LIST or ONE_OF_RANGE rule): its items and help."""
    rule = validation.rule_at(tab, *at) if tab.data_validation else None
    if rule is None or rule["condition"]["type"] not in ("ONE_OF_LIST", "ONE_OF_RANGE"):
        return None
    values = rule["condition"]["values"]
    if rule["condition"]["type"] == "ONE_OF_LIST":
        items = [v["userEnteredValue"] for v in values]
    else:
        from apps.sheets.conditions import reader_for

        listed = reader_for(service.book(spreadsheet_id), tab.sheet_id).cells(values[0]["userEnteredValue"][1:])
        items = list(dict.fromkeys(str(display(v, None)) for v in listed if v is not None and v != ""))
    return {"items": items[:500], "help": rule.get("inputMessage", ""), "strict": bool(rule.get("strict"))}


def _filter_menu(service: SheetsService, spreadsheet_id: str, tab: Any, at: tuple[int, int]) -> dict[str, Any] | None:
    """With a cell of the filter's header row selected, its column's "Filter by values": each
    value its rows show, ticked unless the filter hides it (blanks as "(Blanks)")."""
    found = tab_rules.load(tab.basic_filter)
    r1, c1, r2, c2 = found["range"]
    if at[0] != r1 or not c1 <= at[1] < c2:
        return None
    stored = service.book(spreadsheet_id)
    col = at[1]
    spec = next((s for s in found.get("filterSpecs", []) if s["columnIndex"] == col), None)
    hidden = set(((spec or {}).get("filterCriteria") or {}).get("hiddenValues") or [])
    shown = sorted({str(display(stored.book.get((tab.sheet_id, r, col)), stored.number_format((tab.sheet_id, r, col))))
                    for r in range(r1 + 1, r2)}, key=lambda v: (v == "", v.lower()))[:1000]
    # "Filter by colour": the fill and text colours the column's rows show (their own or a
    # conditional format's), as Google lists them, and the one the filter keeps now.
    by_rule = conditional_formats.shown_formats(tab, stored, (r1 + 1, col, r2, col + 1)) if tab.conditional_formats else {}
    rows = {r for (s, r, c) in stored.formats if s == tab.sheet_id and c == col and r1 < r < r2} | {r for r, _ in by_rule}
    colors: dict[str, list[str]] = {}
    for kind, fill, default in (("fill", True, filters.DEFAULT_FILL), ("text", False, filters.DEFAULT_TEXT)):
        seen = {filters.shown_color(fill, stored.formats.get((tab.sheet_id, r, col)), by_rule.get((r, col))) for r in rows}
        colors[kind] = sorted(seen - {default})[:50]
    wanted = filters.wanted_color((spec or {}).get("filterCriteria") or {})
    keeps = f"{'fill' if wanted[0] else 'text'}:{wanted[1]}" if wanted else ""
    return {"col": col, "letter": column_letter(col), "values": [(v, v not in hidden) for v in shown],
            "condition": bool(((spec or {}).get("filterCriteria") or {}).get("condition")), "colors": colors, "by_color": keeps}


@router.post("/d/{spreadsheet_id}/cells")
def edit_cell(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form(...), content: str = Form(""),
              top: int = Form(0), left: int = Form(0), then: str = Form("down"), panel: str = Form(""), env: Env = Depends(current_env)) -> Any:
    with env_store(request).session(env) as db:
        service = SheetsService(db)
        try:
            tab = service.tab(spreadsheet_id, sheet_id=sheet) if service.role(spreadsheet_id) else None
        except SheetsError:
            tab = None
        refused = _refused_by_validation(service, spreadsheet_id, tab, cell, content) if tab is not None and tab.data_validation else None
    if tab is None:
        return render_page(request, env, spreadsheet_id, sheet, cell, top, error="That sheet does not exist.", status=404)
    if refused:  # a strict rule refuses what was typed, as Google Sheets does; a lenient one takes it and marks the cell
        return render_page(request, env, spreadsheet_id, sheet, cell, top, error=refused, typed=content, status=400, left=left)
    target = f"{quote_sheet(tab.title)}!{cell}"
    route = getattr(request.scope.get("route"), "path", request.url.path)
    try:
        invoke(env_store(request), env, OPERATIONS, OPERATIONS["sheets.values.update"],
               {"spreadsheetId": spreadsheet_id, "range": target, "values": [[content.replace("\r\n", "\n")]], "valueInputOption": "USER_ENTERED"},
               face="ui", tool=f"POST {route}")
    except AppError as error:
        return render_page(request, env, spreadsheet_id, sheet, cell, top, error=error.message, typed=content, status=400, left=left)
    try:
        at = parse_area(cell)
        # Enter moves down, Tab right (Shift+Tab left), an arrow after typing its way, as in a spreadsheet
        step = {"down": (1, 0), "up": (-1, 0), "right": (0, 1), "left": (0, -1), "stay": (0, 0)}.get(then, (1, 0))
        next_cell = cell_name(max(at.r1 + step[0], 0), max(at.c1 + step[1], 0))
    except A1Error:
        next_cell = "A1"
    query = urlencode({"sheet": sheet, "cell": next_cell, "top": top, "left": left, **({"panel": panel[:20]} if panel else {})})
    return RedirectResponse(f"{_base(env)}/d/{spreadsheet_id}?{query}", status_code=303)


router.include_router(ui_actions.router)  # the menus, shortcuts, paste and tab actions (ui_actions.py)
router.include_router(ui_rules.router)  # the data validation and conditional format panels, checkboxes (ui_rules.py)
