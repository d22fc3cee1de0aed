"""Structural batchUpdate kinds: tabs (add, delete, duplicate, rename and resize) and rows or
columns (insert, delete, append), with every formula's references rewritten as Google does
(`rewrite.py`), then the whole book recalculated once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.orm import make_transient_to_detached

from apps.sheets import dimension_properties as props_runs
from apps.sheets import kept_books, tab_rules
from apps.sheets.errors import invalid
from apps.sheets.formulas.engine import SheetInfo
from apps.sheets.models import Cell, Merge, NamedRange, Sheet, Spreadsheet
from apps.sheets.rewrite import rename_sheet, shift_dimension
from apps.sheets.store import CELL_FIELDS
from officegym.core.sql import Prepared

# A spreadsheet's formula texts: does any name a tab being added? (without loading its book)
INSERT_TAB = Prepared(insert(Sheet.__table__).values({c.name: bindparam(c.name) for c in Sheet.__table__.c}))
FORMULAS = Prepared(select(Cell.formula).where(Cell.spreadsheet_id == bindparam("ss"), Cell.formula.is_not(None)))
MAX_ROWS_TOTAL = 1_000_000
MAX_COLUMNS = 18_278


def reload(self: Any, ss: Spreadsheet) -> None:
    """Drop the cached book (saving it first) so the next use reads tabs and names afresh."""
    book = self._books.pop(ss.id, None)
    if book is not None:
        book.save()


def restructure(self: Any, ss: Spreadsheet, move: Callable[[dict[str, Any]], dict[str, Any] | None],
                formula: Callable[[str, str], str]) -> None:
    """Move every cell with `move` (None drops it) and rewrite every formula with
    `formula(text, its sheet's title)`; spilled cells are dropped and recomputed. The moved book
    is built and recalculated in memory and written when the batch saves (one diff against the
    stored rows), so a batch of many row deletions reads and writes the cells once."""
    pending = self._books.get(ss.id)
    if pending is not None and pending.baseline is not None:
        stored, rows = pending.baseline, pending.cell_rows()
    else:
        reload(self, ss)
        table = Cell.__table__
        rows = [dict(r._mapping) for r in self.db.execute(select(table).where(table.c.spreadsheet_id == ss.id))]
        stored = {(row["sheet_id"], row["row"], row["col"]): dict(row) for row in rows}
    titles = {t.sheet_id: t.title for t in self.tabs(ss.id)}
    out: dict[tuple[int, int, int], dict[str, Any]] = {}
    for row in rows:
        if row["spill"] is not None:
            continue
        moved = move(dict(row))
        if moved is None:
            continue
        if moved["formula"] is not None:
            moved["formula"] = formula(moved["formula"], titles.get(moved["sheet_id"], ""))
            moved["deps"] = None
        out[(moved["sheet_id"], moved["row"], moved["col"])] = moved
    book = self.book(ss.id, cells=[tuple(row[name] for name in CELL_FIELDS) for row in out.values()])
    book.recalc_everything()
    book.baseline = stored


def _tab_props(self: Any, ss: Spreadsheet, tab: Sheet) -> dict[str, Any]:
    from apps.sheets.spreadsheets import sheet_properties

    return sheet_properties(tab)


def _unique_title(self: Any, ss: Spreadsheet, title: str, label: str, except_id: int | None = None, tabs: list[Sheet] | None = None) -> str:
    title = title.strip()
    if not title or len(title) > 100:
        raise invalid(f"{label}: a sheet title must be 1 to 100 characters")
    for t in tabs if tabs is not None else self.tabs(ss.id):
        if t.title.lower() == title.lower() and t.sheet_id != except_id:
            raise invalid(f'{label}: A sheet with the name "{title}" already exists. Please enter another name.')
    return title


def _reindex(self: Any, ss: Spreadsheet, moving: Sheet | None = None, to: int | None = None, tabs: list[Sheet] | None = None) -> None:
    """Number the tabs in order, `moving` placed at `to` (the others: `tabs` if the caller
    has them, in order)."""
    tabs = [t for t in (tabs if tabs is not None else self.tabs(ss.id)) if t is not moving]
    if moving is not None:
        tabs.insert(max(0, min(len(tabs), to if to is not None else len(tabs))), moving)
    for i, t in enumerate(tabs):
        t.index = i
    self.db.flush()
    self._tabs[ss.id] = tabs  # every tab, in its new order: the operation's list of them from here on


def add_sheet(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    from apps.sheets.requests import new_sheet_id

    props = body.get("properties") or {}
    tabs = self.tabs(ss.id)
    n = len(tabs) + 1
    while any(t.title.lower() == f"sheet{n}" for t in tabs):
        n += 1
    title = _unique_title(self, ss, str(props.get("title") or f"Sheet{n}"), label, tabs=tabs)
    grid = props.get("gridProperties") or {}
    sid = int(props["sheetId"]) if props.get("sheetId") is not None else new_sheet_id(ss, db=self.db)
    if any(t.sheet_id == sid for t in tabs):
        raise invalid(f"{label}: A sheet with id {sid} already exists")
    tab = Sheet(spreadsheet_id=ss.id, sheet_id=sid, title=title, index=len(tabs),
                row_count=int(grid.get("rowCount", 1000)), column_count=int(grid.get("columnCount", 26)),
                frozen_rows=int(grid.get("frozenRowCount", 0)), frozen_columns=int(grid.get("frozenColumnCount", 0)),
                hidden=False, tab_color=None)
    if not (1 <= tab.row_count <= MAX_ROWS_TOTAL and 1 <= tab.column_count <= MAX_COLUMNS):
        raise invalid(f"{label}: rowCount must be 1..{MAX_ROWS_TOTAL} and columnCount 1..{MAX_COLUMNS}")
    # Inserted on the driver, then made the session's object for its row (the ORM's unit of
    # work for one insert cost more than the rest of adding a tab).
    self.db.flush()
    INSERT_TAB.run(self.db, **{c.key: getattr(tab, c.key) for c in Sheet.__table__.c})
    make_transient_to_detached(tab)
    self.db.add(tab)
    _reindex(self, ss, tab, props.get("index"), tabs=tabs)  # (flushes the tabs' new places)
    # A formula that named this title before it existed (#REF!) resolves now; most books have
    # none, and then a loaded book just gains the empty tab (no reload).
    named = title.lower()
    loaded = self._books.get(ss.id)
    texts = loaded.book.formulas.values() if loaded is not None else FORMULAS.scalars(self.db, ss=ss.id)
    if any(named in text.lower() for text in texts):
        restructure(self, ss, lambda row: row, lambda text, _: text)
    elif loaded is not None:
        loaded.book.add_sheet(SheetInfo(tab.sheet_id, tab.title, tab.row_count, tab.column_count))
    return {"addSheet": {"properties": _tab_props(self, ss, tab)}}


def delete_sheet(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab = self.tab(ss.id, sheet_id=int(body.get("sheetId", -1)))
    if len(self.tabs(ss.id)) == 1:
        raise invalid(f"{label}: You can't remove all the sheets in a document.")
    title = tab.title
    for table in (Merge, NamedRange):
        self.db.execute(delete(table).where(table.spreadsheet_id == ss.id, table.sheet_id == tab.sheet_id))
    reload(self, ss)
    self.db.delete(tab)
    self.db.flush()
    self.forget_tabs(ss.id)
    _reindex(self, ss)
    for each in self.tabs(ss.id):  # a rule's formula naming the deleted tab reads #REF!, as a cell's does
        tab_rules.rewrite(each, lambda text: rename_sheet(text, title, None))
    restructure(self, ss, lambda row: None if row["sheet_id"] == tab.sheet_id else row,
                lambda text, _: rename_sheet(text, title, None))
    return {}


def update_sheet_properties(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    props = body.get("properties") or {}
    fields = str(body.get("fields") or "")
    if not fields:
        raise invalid(f"{label}: fields is required (e.g. 'title' or 'gridProperties.frozenRowCount')")
    tab = self.tab(ss.id, sheet_id=int(props.get("sheetId", 0) or 0))
    wanted = {f.strip() for f in fields.split(",")}
    every = "*" in wanted
    grid = props.get("gridProperties") or {}
    if every or "title" in wanted:
        if "title" in props:
            old = tab.title
            tab.title = _unique_title(self, ss, str(props["title"]), label, except_id=tab.sheet_id)
            self.db.flush()
            if old != tab.title:
                for each in self.tabs(ss.id):  # the rules' formulas name the tab anew too
                    tab_rules.rewrite(each, lambda text: rename_sheet(text, old, tab.title))
                restructure(self, ss, lambda row: row, lambda text, _: rename_sheet(text, old, tab.title))
    for field_name, column in (("frozenRowCount", "frozen_rows"), ("frozenColumnCount", "frozen_columns"),
                               ("rowCount", "row_count"), ("columnCount", "column_count")):
        if (every or f"gridProperties.{field_name}" in wanted or "gridProperties" in wanted) and field_name in grid:
            value = int(grid[field_name])
            if value < 0 or (column in ("row_count", "column_count") and value < 1):
                raise invalid(f"{label}: gridProperties.{field_name} must be positive")
            setattr(tab, column, value)
            if column in ("row_count", "column_count"):  # rows (columns) cut off take their properties with them
                _set_runs(tab, column == "row_count", props_runs.clip(_runs(tab, column == "row_count"), value))
                tab_rules.clip(tab, column == "row_count", value)
    if (every or "hidden" in wanted) and "hidden" in props:
        tab.hidden = bool(props["hidden"])
    if (every or "index" in wanted) and "index" in props:
        _reindex(self, ss, tab, int(props["index"]))
    self.db.flush()
    reload(self, ss)
    return {}


def update_spreadsheet_properties(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    props = body.get("properties") or {}
    if "title" in props:
        if not str(props["title"]).strip():
            raise invalid(f"{label}: the title must not be empty")
        ss.title = str(props["title"])
    if "locale" in props:
        ss.locale = str(props["locale"])[:16]
    if "timeZone" in props:
        ss.time_zone = str(props["timeZone"])[:64]
    return {}


def dimension_range(self: Any, ss: Spreadsheet, rng: Any, label: str, name: str = "range",
                    open_end: bool = False, within_grid: bool = False) -> tuple[Sheet, bool, int, int]:
    """A DimensionRange (`name` in the request: "range", or "dimensions" for autoResizeDimensions)
    as (tab, rows?, start, end). With `open_end`, a missing endIndex runs to the sheet's edge
    (as Google reads a range to hide or size); else it is required (rows to insert or delete).
    With `within_grid`, a range past the sheet's edge is refused as Google refuses it."""
    if not isinstance(rng, dict):
        raise invalid(f"{label}: {name} is required: a DimensionRange {{sheetId, dimension, startIndex, endIndex}}")
    wanted = rng.get("sheetId", 0) or 0
    if not _is_int(wanted):
        raise invalid(f"{label}: {name}.sheetId must be an integer")
    tab = next((t for t in self.tabs(ss.id) if t.sheet_id == int(wanted)), None)
    if tab is None:
        raise invalid(f"{label}: No grid with id: {int(wanted)}")
    dim = rng.get("dimension")
    if dim not in ("ROWS", "COLUMNS"):
        raise invalid(f"{label}: {name}.dimension must be ROWS or COLUMNS")
    rows = dim == "ROWS"
    limit = tab.row_count if rows else tab.column_count
    start, end = rng.get("startIndex", 0) or 0, rng.get("endIndex")
    if end is None and not open_end:
        raise invalid(f"{label}: {name}.startIndex and {name}.endIndex are required integers")
    if not _is_int(start) or (end is not None and not _is_int(end)):
        raise invalid(f"{label}: {name}.startIndex and {name}.endIndex must be integers")
    start, end = int(start), (limit if end is None else int(end))
    if start < 0 or end <= start:
        raise invalid(f"{label}: {name}.endIndex must be greater than {name}.startIndex")
    if within_grid and end > limit:
        kind = "rows" if rows else "columns"
        raise invalid(f"{label}: Range ({tab.title}, {kind} {start + 1} to {end}) exceeds grid limits. Max {kind}: {limit}")
    return tab, rows, start, end


def _runs(tab: Sheet, rows: bool) -> list[props_runs.Run]:
    return props_runs.load(tab.row_properties if rows else tab.column_properties)


def _set_runs(tab: Sheet, rows: bool, runs: list[props_runs.Run]) -> None:
    text = props_runs.dump(runs)
    if text != (tab.row_properties if rows else tab.column_properties):
        setattr(tab, "row_properties" if rows else "column_properties", text)


def _shift(self: Any, ss: Spreadsheet, tab: Sheet, rows: bool, start: int, count: int, inherit_from: int | None = None) -> None:
    """Rows (columns) inserted (`count` > 0) or deleted at `start`; inserted ones take the
    properties of index `inherit_from` as it was (None: the defaults)."""
    axis = "row" if rows else "col"
    gone_end = start - count if count < 0 else start

    def move(row: dict[str, Any]) -> dict[str, Any] | None:
        if row["sheet_id"] != tab.sheet_id:
            return row
        at = row[axis]
        if count < 0 and start <= at < gone_end:
            return None
        if at >= (gone_end if count < 0 else start):
            row[axis] = at + count
        return row

    dimension = "ROWS" if rows else "COLUMNS"
    runs = _runs(tab, rows)
    if runs:
        if count > 0:
            runs = props_runs.insert(runs, start, count, inherit_from)
        else:
            runs = props_runs.delete(runs, start, start - count)
        _set_runs(tab, rows, props_runs.clip(runs, tab.row_count if rows else tab.column_count))
    tab_rules.shift(tab, rows, start, count)  # the filter, conditional formats and validation rules move too
    _move_names_and_merges(self, ss, tab, rows, start, count)
    restructure(self, ss, move, lambda text, own: shift_dimension(text, own, tab.title, dimension, start, count))


def _move_names_and_merges(self: Any, ss: Spreadsheet, tab: Sheet, rows: bool, start: int, count: int,
                           band: tuple[int, int] | None = None) -> None:
    """Named ranges and merges move with their cells (with a `band`, only those lying wholly
    inside it, as references do); a merge whose cells are all deleted goes."""
    a, b = ("start_row", "end_row") if rows else ("start_col", "end_col")
    across = ("start_col", "end_col") if rows else ("start_row", "end_row")
    gone_end = start - count if count < 0 else start

    def inside(item: Any) -> bool:
        lo, hi = getattr(item, across[0]), getattr(item, across[1])
        return band is None or (hi is not None and band[0] <= lo and hi <= band[1])

    for named in self.db.scalars(select(NamedRange).where(NamedRange.spreadsheet_id == ss.id, NamedRange.sheet_id == tab.sheet_id)):
        if not inside(named):
            continue
        hi = getattr(named, b)
        setattr(named, a, tab_rules.index_moved(getattr(named, a), start, count))
        if hi is not None:
            setattr(named, b, max(_end_moved(hi, start, count), getattr(named, a)))
    for merge in self.db.scalars(select(Merge).where(Merge.spreadsheet_id == ss.id, Merge.sheet_id == tab.sheet_id)).all():
        if not inside(merge):
            continue
        lo, hi = tab_rules.index_moved(getattr(merge, a), start, count), _end_moved(getattr(merge, b), start, count)
        if hi - lo < 1 or (count < 0 and start <= getattr(merge, a) and getattr(merge, b) <= gone_end):
            self.db.delete(merge)
        else:
            setattr(merge, a, lo)
            setattr(merge, b, hi)
    self.db.flush()


def _end_moved(end_at: int, start: int, count: int) -> int:
    """An exclusive end moved: one inside deleted rows (columns) ends where they began."""
    return end_at + count if count >= 0 and end_at > start else (end_at if count >= 0 else tab_rules.end_moved(end_at, start, count))


def insert_dimension(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab, rows, start, end = dimension_range(self, ss, body.get("range"), label)
    limit = tab.row_count if rows else tab.column_count
    if start > limit:
        raise invalid(f"{label}: startIndex {start} is past the end of the sheet ({limit})")
    before = body.get("inheritFromBefore") or False
    if not isinstance(before, bool):
        raise invalid(f"{label}: inheritFromBefore must be true or false")
    if before and start == 0:
        raise invalid(f"{label}: inheritFromBefore can't be true when inserting at index 0 (there is nothing before it)")
    # The new ones take the properties (hidden, size) of the one before them or after them, as
    # Google's DimensionProperties are extended; none after the last: the defaults.
    inherit_from = start - 1 if before else (start if start < limit else None)
    if rows:
        tab.row_count += end - start
    else:
        tab.column_count += end - start
    if tab.row_count > MAX_ROWS_TOTAL or tab.column_count > MAX_COLUMNS:
        raise invalid(f"{label}: the sheet would exceed {MAX_ROWS_TOTAL} rows or {MAX_COLUMNS} columns")
    self.db.flush()
    _shift(self, ss, tab, rows, start, end - start, inherit_from)
    return {}


def delete_dimension(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab, rows, start, end = dimension_range(self, ss, body.get("range"), label)
    limit = tab.row_count if rows else tab.column_count
    end = min(end, limit)
    if start >= limit:
        raise invalid(f"{label}: startIndex {start} is past the end of the sheet ({limit})")
    if end - start >= limit:
        raise invalid(f"{label}: You can't delete all the {'rows' if rows else 'columns'} on the sheet.")
    if rows:
        tab.row_count -= end - start
    else:
        tab.column_count -= end - start
    self.db.flush()
    _shift(self, ss, tab, rows, start, -(end - start))
    return {}


def append_dimension(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab = self.tab(ss.id, sheet_id=int(body.get("sheetId", 0) or 0))
    length = int(body.get("length", 0) or 0)
    if length < 1:
        raise invalid(f"{label}: length must be at least 1")
    if body.get("dimension") == "COLUMNS":
        tab.column_count += length
    elif body.get("dimension") == "ROWS":
        tab.row_count += length
    else:
        raise invalid(f"{label}: dimension must be ROWS or COLUMNS")
    if tab.row_count > MAX_ROWS_TOTAL or tab.column_count > MAX_COLUMNS:
        raise invalid(f"{label}: the sheet would exceed {MAX_ROWS_TOTAL} rows or {MAX_COLUMNS} columns")
    self.db.flush()
    reload(self, ss)
    return {}


def _range_shift(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str, inserting: bool) -> dict[str, Any]:
    from apps.sheets.requests import grid_of

    tab, grid = grid_of(self, ss, body.get("range"), label)
    dim = body.get("shiftDimension")
    if dim not in ("ROWS", "COLUMNS"):
        raise invalid(f"{label}: shiftDimension must be ROWS or COLUMNS")
    rows = dim == "ROWS"
    size = ((grid.r2 or 0) - grid.r1) if rows else ((grid.c2 or 0) - grid.c1)

    def move(row: dict[str, Any]) -> dict[str, Any] | None:
        if row["sheet_id"] != tab.sheet_id:
            return row
        across, along = (row["col"], row["row"]) if rows else (row["row"], row["col"])
        lo, hi = (grid.c1, grid.c2) if rows else (grid.r1, grid.r2)
        start = grid.r1 if rows else grid.c1
        if not lo <= across < hi:  # type: ignore[operator]
            return row
        if inserting:
            if along >= start:
                row["row" if rows else "col"] = along + size
        else:
            if start <= along < start + size:
                return None
            if along >= start + size:
                row["row" if rows else "col"] = along - size
        limit = tab.row_count if rows else tab.column_count
        return row if row["row" if rows else "col"] < limit else None

    start = grid.r1 if rows else grid.c1
    band = (grid.c1, grid.c2) if rows else (grid.r1, grid.r2)
    dimension = "ROWS" if rows else "COLUMNS"
    count = size if inserting else -size
    tab_rules.shift(tab, rows, start, count, band)
    tab_rules.clip(tab, rows, tab.row_count if rows else tab.column_count)  # (pushed past the edge: gone, as the cells are)
    _move_names_and_merges(self, ss, tab, rows, start, count, band)
    restructure(self, ss, move, lambda text, own: shift_dimension(text, own, tab.title, dimension, start, count, band))
    return {}


DIMENSION_FIELDS = ("hiddenByUser", "pixelSize")
READ_ONLY_FIELDS = {"hiddenByFilter": "it is set by a filter, not by a request",
                    "developerMetadata": "developer metadata is not supported here",
                    "dataSourceColumnReference": "there are no data source sheets here"}
MAX_PIXELS = 10_000


def update_dimension_properties(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    """Rows or columns hidden, shown or resized: `properties` (DimensionProperties) written to
    the `range` (a DimensionRange; a missing end runs to the sheet's edge) for the `fields`
    named ("hiddenByUser", "pixelSize", "*"); a property not named is left as it is."""
    if "dataSourceSheetRange" in body:
        raise invalid(f"{label}: dataSourceSheetRange is not supported: there are no data source sheets here; use range")
    rng = body.get("range")
    if not isinstance(rng, dict):
        raise invalid(f"{label}: range is required: a DimensionRange {{sheetId, dimension, startIndex, endIndex}}")
    props = body.get("properties")
    if not isinstance(props, dict):
        raise invalid(f"{label}: properties is required: a DimensionProperties {{hiddenByUser, pixelSize}}")
    fields = body.get("fields")
    if not isinstance(fields, str) or not fields.strip():
        raise invalid(f"{label}: fields is required: the properties to write, e.g. 'hiddenByUser', 'pixelSize' or '*'")
    wanted = [f.strip() for f in fields.split(",") if f.strip()]
    for name in wanted:
        if name in READ_ONLY_FIELDS:
            raise invalid(f"{label}: fields names {name!r}, which can't be written: {READ_ONLY_FIELDS[name]}")
        if name != "*" and name not in DIMENSION_FIELDS:
            raise invalid(f"{label}: fields names {name!r}, which DimensionProperties does not have; "
                          f"writable: {', '.join(DIMENSION_FIELDS)} (or '*')")
    every = "*" in wanted
    unknown = sorted(set(props) - set(DIMENSION_FIELDS) - set(READ_ONLY_FIELDS))
    if unknown:
        raise invalid(f"{label}: properties has {', '.join(map(repr, unknown))}, which DimensionProperties does not have")
    tab, rows, start, end = dimension_range(self, ss, rng, label, open_end=True, within_grid=True)
    hidden: Any = props_runs.KEEP
    size: Any = props_runs.KEEP
    if every or "hiddenByUser" in wanted:
        value = props.get("hiddenByUser", False)
        if not isinstance(value, bool):
            raise invalid(f"{label}: properties.hiddenByUser must be true or false")
        hidden = value
    if every or "pixelSize" in wanted:
        value = props.get("pixelSize")
        if value is not None and (not _is_int(value) or not 0 <= int(value) <= MAX_PIXELS):
            raise invalid(f"{label}: properties.pixelSize must be a whole number of pixels, 0 to {MAX_PIXELS}")
        size = None if value is None else int(value)  # not given with '*': back to the default size
    _set_runs(tab, rows, props_runs.update(_runs(tab, rows), start, end, hidden, size))
    self.db.flush()
    return {}


def _is_int(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, str) and value.strip().lstrip("-").isdigit()


def copy_tab(self: Any, source: Spreadsheet, tab: Sheet, target: Spreadsheet, title: str) -> dict[str, Any]:
    from apps.sheets.requests import new_sheet_id

    reload(self, source)
    tabs = self.tabs(target.id)
    name, n = title, 2
    while any(t.title.lower() == name.lower() for t in tabs):
        name, n = f"{title} {n}", n + 1
    new = Sheet(spreadsheet_id=target.id, sheet_id=new_sheet_id(target), title=name, index=len(tabs), row_count=tab.row_count,
                column_count=tab.column_count, frozen_rows=tab.frozen_rows, frozen_columns=tab.frozen_columns,
                row_properties=tab.row_properties, column_properties=tab.column_properties,
                # the filter, conditional formats and validation rules go with the tab, as Google copies them
                basic_filter=tab.basic_filter, conditional_formats=tab.conditional_formats, data_validation=tab.data_validation)
    self.db.add(new)
    self.forget_tabs(target.id)
    table = Cell.__table__
    rows = [dict(r._mapping) for r in self.db.execute(select(table).where(table.c.spreadsheet_id == source.id, table.c.sheet_id == tab.sheet_id))]
    copies = [{**r, "spreadsheet_id": target.id, "sheet_id": new.sheet_id, "deps": None} for r in rows if r["spill"] is None]
    self.db.flush()
    if copies:
        self.db.execute(insert(Cell), copies)
        kept_books.unchain(self.db, target.id)  # cells written outside a book: no revision names them
    self.db.flush()
    restructure(self, target, lambda row: row, lambda text, _: text)
    return _tab_props(self, target, new)


def duplicate_sheet(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab = self.tab(ss.id, sheet_id=int(body.get("sourceSheetId", -1)))
    props = copy_tab(self, ss, tab, ss, str(body.get("newSheetName") or f"Copy of {tab.title}"))
    if body.get("insertSheetIndex") is not None:
        moved = self.tab(ss.id, sheet_id=props["sheetId"])
        _reindex(self, ss, moved, int(body["insertSheetIndex"]))
        props["index"] = moved.index
    return {"duplicateSheet": {"properties": props}}


HANDLERS: dict[str, Callable[..., dict[str, Any]]] = {
    "addSheet": add_sheet, "deleteSheet": delete_sheet, "updateSheetProperties": update_sheet_properties,
    "updateSpreadsheetProperties": update_spreadsheet_properties, "insertDimension": insert_dimension,
    "deleteDimension": delete_dimension, "appendDimension": append_dimension, "duplicateSheet": duplicate_sheet,
    "insertRange": lambda s, ss, b, lab: _range_shift(s, ss, b, lab, True),
    "deleteRange": lambda s, ss, b, lab: _range_shift(s, ss, b, lab, False),
    "updateDimensionProperties": update_dimension_properties,
}

# The kinds that leave their moved book unsaved for the next one (see restructure).
# (updateDimensionProperties reads no cells: a moved book waits through it too.)
SHIFTS = frozenset({"insertDimension", "deleteDimension", "insertRange", "deleteRange", "updateDimensionProperties"})

__all__ = ["HANDLERS", "SHIFTS", "reload", "restructure"]
