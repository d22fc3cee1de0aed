"""spreadsheets.get, spreadsheets.create, spreadsheets.batchUpdate, sheets.copyTo.

The operations are bound into `SheetsService` (service.py); `self` is that service.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, insert, select

from apps.sheets import budget, conditional_formats, filters, theme, validation
from apps.sheets import dimension_properties as props_runs
from apps.sheets import requests as kinds
from apps.sheets.a1 import GridRange
from apps.sheets.entry import decode, dump_json, load_json, plain
from apps.sheets.errors import invalid
from apps.sheets.formulas.formats import display
from apps.sheets.ids import google_id, permission_id
from apps.sheets.models import Cell, Chart, Merge, NamedRange, Permission, Sheet, Spreadsheet
from apps.sheets.params import Ranges, Requests, SpreadsheetId, Title
from officegym.core import clock
from officegym.core.db import get_meta
from officegym.core.operations import operation
from officegym.core.sql import Prepared

DEFAULT_ROWS, DEFAULT_COLS = 1000, 26

# What every spreadsheet resource lists beside its tabs (create and get return it): rows with
# the models' attribute names, read on the driver (officegym.core.sql).
MERGES = Prepared(select(Merge.sheet_id, Merge.start_row, Merge.start_col, Merge.end_row, Merge.end_col)
                  .where(Merge.spreadsheet_id == bindparam("ss")))
CHARTS = Prepared(select(Chart.sheet_id, Chart.chart_id, Chart.spec).where(Chart.spreadsheet_id == bindparam("ss")))
TABS = Prepared(select(*Sheet.__table__.c).where(Sheet.spreadsheet_id == bindparam("ss")).order_by(Sheet.index))
NAMES = Prepared(select(NamedRange.named_range_id, NamedRange.name, NamedRange.sheet_id, NamedRange.start_row, NamedRange.start_col,
                        NamedRange.end_row, NamedRange.end_col).where(NamedRange.spreadsheet_id == bindparam("ss")).order_by(NamedRange.name))


def grid_range_json(sheet_id: int, r1: int, c1: int, r2: int | None, c2: int | None) -> dict[str, int]:
    out = {"sheetId": sheet_id, "startRowIndex": r1, "startColumnIndex": c1}
    if r2 is not None:
        out["endRowIndex"] = r2
    if c2 is not None:
        out["endColumnIndex"] = c2
    return out


def sheet_properties(tab: Sheet) -> dict[str, Any]:
    grid: dict[str, Any] = {"rowCount": tab.row_count, "columnCount": tab.column_count}
    if tab.frozen_rows:
        grid["frozenRowCount"] = tab.frozen_rows
    if tab.frozen_columns:
        grid["frozenColumnCount"] = tab.frozen_columns
    props: dict[str, Any] = {"sheetId": tab.sheet_id, "title": tab.title, "index": tab.index, "sheetType": "GRID", "gridProperties": grid}
    if tab.hidden:
        props["hidden"] = True
    if tab.tab_color:
        props["tabColorStyle"] = {"rgbColor": theme.hex_to_rgb(tab.tab_color)}
    return props


def resource(self: Any, spreadsheet: Spreadsheet, include_grid: bool = False, ranges: list[str] | None = None) -> dict[str, Any]:
    self.db.flush()  # the prepared reads below run on the driver: pending ORM changes first
    tabs = TABS.rows(self.db, ss=spreadsheet.id)
    merges = MERGES.rows(self.db, ss=spreadsheet.id)
    charts = CHARTS.rows(self.db, ss=spreadsheet.id)
    sheets = []
    wanted = None
    allowance = budget.GridAllowance()
    if ranges:
        wanted = {}
        for text in ranges:
            tab, grid = self.locate(spreadsheet.id, text)
            wanted.setdefault(tab.sheet_id, []).append(grid)
    for tab in tabs:
        entry: dict[str, Any] = {"properties": sheet_properties(tab)}
        own = [m for m in merges if m.sheet_id == tab.sheet_id]
        if own:
            entry["merges"] = [grid_range_json(m.sheet_id, m.start_row, m.start_col, m.end_row, m.end_col) for m in own]
        if tab.basic_filter:
            entry["basicFilter"] = filters.basic_filter_json(tab)
        if tab.conditional_formats:
            entry["conditionalFormats"] = conditional_formats.rules_json(tab)
        own_charts = [c for c in charts if c.sheet_id == tab.sheet_id]
        if own_charts:
            entry["charts"] = [{"chartId": c.chart_id, "spec": load_json(c.spec)} for c in own_charts]
        if include_grid and (wanted is None or tab.sheet_id in wanted):
            grids = wanted.get(tab.sheet_id) if wanted else [GridRange(tab.title, 0, 0, None, None)]
            entry["data"] = [grid_data(self, spreadsheet.id, tab, g, allowance) for g in grids]
        sheets.append(entry)
    names = NAMES.rows(self.db, ss=spreadsheet.id)
    body: dict[str, Any] = {
        "spreadsheetId": spreadsheet.id,
        "properties": {"title": spreadsheet.title, "locale": spreadsheet.locale, "autoRecalc": "ON_CHANGE",
                       "timeZone": spreadsheet.time_zone, "spreadsheetTheme": theme.spreadsheet_theme()},
        "sheets": sheets,
        "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{spreadsheet.id}/edit",
    }
    if names:
        body["namedRanges"] = [{"namedRangeId": n.named_range_id, "name": n.name,
                                "range": grid_range_json(n.sheet_id, n.start_row, n.start_col, n.end_row, n.end_col)} for n in names]
    return body


def _extended(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": plain(value)}
    if hasattr(value, "code"):
        return {"errorValue": {"type": kinds.ERROR_TYPES.get(value.code, "ERROR"), "message": value.message or value.code}}
    return {"stringValue": value}


def grid_data(self: Any, spreadsheet_id: str, tab: Sheet, grid: GridRange, allowance: budget.GridAllowance | None = None) -> dict[str, Any]:
    """GridData for spreadsheets.get with includeGridData: entered and effective values, formats.
    Each cell listed is paid for from `allowance` as it is listed (budget.py): a rule repeated
    on every cell of a big grid is refused before it is built, not after."""
    allowance = allowance or budget.GridAllowance()
    bounded = grid.bounded(tab.row_count, tab.column_count)
    self.book(spreadsheet_id).save()
    rows = self.db.execute(select(Cell).where(
        Cell.spreadsheet_id == spreadsheet_id, Cell.sheet_id == tab.sheet_id, Cell.row >= bounded.r1, Cell.row < bounded.r2,
        Cell.col >= bounded.c1, Cell.col < bounded.c2)).scalars().all()
    by_row: dict[int, dict[int, Cell]] = {}
    for cell in rows:
        by_row.setdefault(cell.row, {})[cell.col] = cell
    # A formula with a number result and no number format of its own shows in the format
    # inferred from what it reads: its effectiveFormat, not its userEnteredFormat.
    automatic = [(cell.row, cell.col, cell.formula) for cell in rows
                 if cell.formula is not None and cell.kind == "n" and not cell.number_format]
    inferred = self.inferred_formats(spreadsheet_id, tab.sheet_id, automatic, ((c.row, c.col, c.formula, c.number_format) for c in rows),
                                     [(bounded.r1, bounded.c1, bounded.r2, bounded.c2)]) if automatic else {}
    row_data = []
    # Cells with a data validation rule are listed with it, values or not.
    checks = [((max(r1, bounded.r1), max(c1, bounded.c1), min(r2, bounded.r2), min(c2, bounded.c2)), rule)  # type: ignore[type-var]
              for (r1, c1, r2, c2), rule in validation.rules(tab)]
    checks = [(rect, rule) for rect, rule in checks if rect[0] < rect[2] and rect[1] < rect[3]]
    rule_chars = {id(rule): len(dump_json(rule)) for _, rule in checks}
    last = max(max(by_row, default=bounded.r1 - 1), max((rect[2] - 1 for rect, _ in checks), default=bounded.r1 - 1))
    for r in range(bounded.r1, last + 1):
        cells = by_row.get(r, {})
        ruled = [(rect, rule) for rect, rule in checks if rect[0] <= r < rect[2]]
        end = max((max(cells) + 1) if cells else bounded.c1, max((rect[3] for rect, _ in ruled), default=bounded.c1))
        values = []
        for c in range(bounded.c1, end):
            cell = cells.get(c)
            rule = next((rl for rect, rl in ruled if rect[1] <= c < rect[3]), None)
            allowance.spend(_LISTED + (rule_chars[id(rule)] if rule is not None else 0) + (_cell_chars(cell) if cell is not None else 0))
            if cell is None:
                values.append({"dataValidation": rule} if rule is not None else {})
                continue
            value = decode(cell.kind, cell.value, cell.note)
            fmt = load_json(cell.number_format)
            item: dict[str, Any] = {}
            if cell.formula is not None:
                item["userEnteredValue"] = {"formulaValue": cell.formula}
            elif value is not None and cell.spill is None:
                item["userEnteredValue"] = _extended(value)
            shown_format = fmt or inferred.get((r, c))
            if value is not None:
                item["effectiveValue"] = _extended(value)
                item["formattedValue"] = str(display(value, shown_format))
            style = load_json(cell.style) or {}
            if fmt or style:
                item["userEnteredFormat"] = {**style, **({"numberFormat": fmt} if fmt else {})}
            if shown_format or style:
                item["effectiveFormat"] = {**style, **({"numberFormat": shown_format} if shown_format else {})}
            if rule is not None:
                item["dataValidation"] = rule
            values.append(item)
        row_data.append({"values": values} if values else {})
    # Every row and column of the range, as Google lists them: its size, hiddenByUser when hidden
    # by the user and hiddenByFilter when the tab's basic filter hides it.
    row_metadata = props_runs.metadata(props_runs.load(tab.row_properties), bounded.r1, bounded.r2, props_runs.ROW_PIXELS)
    if tab.basic_filter:
        for start, end in filters.hidden_rows(tab, self.book(spreadsheet_id)):
            for r in range(max(start, bounded.r1), min(end, bounded.r2 or 0)):
                row_metadata[r - bounded.r1] = {"hiddenByFilter": True, **row_metadata[r - bounded.r1]}
    return {"startRow": bounded.r1, "startColumn": bounded.c1, "rowData": row_data, "rowMetadata": row_metadata,
            "columnMetadata": props_runs.metadata(props_runs.load(tab.column_properties), bounded.c1, bounded.c2,
                                                  props_runs.COLUMN_PIXELS)}


_LISTED = 16  # what listing a cell costs beyond its contents, in characters (its braces and keys)


def _cell_chars(cell: Cell) -> int:
    # Its value is listed twice or three times (entered, effective, formatted), its format twice.
    return (len(cell.formula or "") + 3 * len(cell.value or "") + len(cell.note or "")
            + 2 * (len(cell.number_format or "") + len(cell.style or "")))


@operation("sheets.spreadsheets.get")
def spreadsheets_get(self: Any, spreadsheetId: SpreadsheetId, ranges: Ranges | None = None, includeGridData: bool = False) -> dict[str, Any]:
    """A spreadsheet's properties, tabs (sheetId, title, index, grid size, frozen rows), merges,
    named ranges; with includeGridData, the cells of `ranges` (or of every tab)."""
    spreadsheet = self.spreadsheet(spreadsheetId)
    listed = [ranges] if isinstance(ranges, str) else ranges
    return resource(self, spreadsheet, includeGridData, listed)


class _RowInsert:
    """An insert of whole rows of a table on the driver, the model's column defaults filled in."""

    def __init__(self, table: Any) -> None:
        self.statement = Prepared(insert(table).values({c.name: bindparam(c.name) for c in table.c}))
        self.defaults = {c.name: c.default.arg for c in table.c if c.default is not None and c.default.is_scalar}
        self.columns = tuple(c.name for c in table.c)

    def run(self, db: Any, rows: list[dict[str, Any]]) -> None:
        self.statement.run_many(db, [{**dict.fromkeys(self.columns), **self.defaults, **row} for row in rows])


# A new spreadsheet's rows, written on the driver: three ORM inserts and their flushes were
# most of what creating one cost.
INSERT_SPREADSHEET = _RowInsert(Spreadsheet.__table__)
INSERT_PERMISSION = _RowInsert(Permission.__table__)
INSERT_TAB = _RowInsert(Sheet.__table__)


def insert_spreadsheet(self: Any, title: str, tabs: list[str] | None = None, folder: str = "root") -> str:
    """A new spreadsheet you own, with its tabs: its id."""
    if not title.strip():
        raise invalid("Invalid spreadsheet title: it must not be empty")
    micros = clock.tick(self.db)
    stamp = clock.from_micros(micros).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    seed = get_meta(self.db, "seed") or "0"
    spreadsheet_id = google_id(seed, "spreadsheet", micros, title)
    minted = SimpleNamespace(id=spreadsheet_id, next_sheet_id=1)  # what new_sheet_id reads and advances
    tab_rows = [{"spreadsheet_id": spreadsheet_id, "sheet_id": kinds.new_sheet_id(minted, index), "title": name, "index": index,  # type: ignore[arg-type]
                 "row_count": DEFAULT_ROWS, "column_count": DEFAULT_COLS} for index, name in enumerate(tabs or ["Sheet1"])]
    self.db.flush()  # the inserts below run on the driver: pending ORM changes first
    INSERT_SPREADSHEET.run(self.db, [{"id": spreadsheet_id, "title": title, "owner_email": self.actor_email, "folder_id": folder,
                                      "created": stamp, "modified": stamp, "next_sheet_id": minted.next_sheet_id}])
    INSERT_PERMISSION.run(self.db, [{"spreadsheet_id": spreadsheet_id, "email": self.actor_email, "role": "owner",
                                     "permission_id": permission_id(spreadsheet_id, self.actor_email)}])
    INSERT_TAB.run(self.db, tab_rows)
    self.forget_tabs(spreadsheet_id)
    return spreadsheet_id


def new_spreadsheet(self: Any, title: str, tabs: list[str] | None = None, folder: str = "root") -> Spreadsheet:
    """`insert_spreadsheet`, read back through the ORM for callers that change it."""
    return self.db.get_one(Spreadsheet, insert_spreadsheet(self, title, tabs, folder))


@operation("sheets.spreadsheets.create", writes=True)
def spreadsheets_create(self: Any, properties: dict[str, Any] | None = None, sheets: list[dict[str, Any]] | None = None,
                        title: Title | None = None) -> dict[str, Any]:
    """Create a spreadsheet you own: `properties.title` (or `title`), optional `sheets` with their titles."""
    name = (properties or {}).get("title") or title or "Untitled spreadsheet"
    tabs = [str((s.get("properties") or {}).get("title") or f"Sheet{i + 1}") for i, s in enumerate(sheets or []) if isinstance(s, dict)]
    if len(set(t.lower() for t in tabs)) != len(tabs):
        raise invalid("Invalid requests: sheet titles must be unique")
    spreadsheet = new_spreadsheet(self, str(name), tabs or None)
    return resource(self, spreadsheet)


@operation("sheets.spreadsheets.batchUpdate", writes=True)
def spreadsheets_batch_update(self: Any, spreadsheetId: SpreadsheetId, requests: Requests,
                              includeSpreadsheetInResponse: bool = False) -> dict[str, Any]:
    """Apply requests in order, all or none: `{spreadsheetId, replies: [...]}` (one reply per request)."""
    spreadsheet = self.spreadsheet(spreadsheetId, write=True)
    if not requests:
        raise invalid("Invalid requests: at least one request is required")
    replies = []
    for i, request in enumerate(requests):
        replies.append(kinds.apply(self, spreadsheet, request, i))
    self.save(spreadsheet)
    body: dict[str, Any] = {"spreadsheetId": spreadsheetId, "replies": replies}
    if includeSpreadsheetInResponse:
        body["updatedSpreadsheet"] = resource(self, spreadsheet)
    return body


@operation("sheets.sheets.copyTo", writes=True)
def sheets_copy_to(self: Any, spreadsheetId: SpreadsheetId, sheetId: int, destinationSpreadsheetId: SpreadsheetId) -> dict[str, Any]:
    """Copy a tab, with its cells and formats, into another (or the same) spreadsheet: its SheetProperties."""
    source = self.spreadsheet(spreadsheetId)
    target = self.spreadsheet(destinationSpreadsheetId, write=True)
    tab = self.tab(source.id, sheet_id=sheetId)
    props = kinds.copy_tab(self, source, tab, target, f"Copy of {tab.title}")
    self.save(target)
    return props
