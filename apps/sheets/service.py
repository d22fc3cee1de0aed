"""Domain operations of the sheets app: the Sheets API v4 values methods here; spreadsheets
and batchUpdate requests (spreadsheets.py, requests.py, dimensions.py), Drive-side listing and
sharing (drive.py), the MCP servers' composite tools (tool_ops.py, excel_ops.py) and .xlsx
import/export (xlsx.py) are declared in their own modules and bound onto this class at its end.

Methods return the body of Google's response and raise `SheetsError` with Google's status and
message. The service never commits: the caller's transaction makes each operation atomic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, or_, select, update
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from apps.sheets import drive, excel_ops, spreadsheets, tool_ops, xlsx
from apps.sheets.a1 import A1Error, GridRange, parse_range, quote_sheet
from apps.sheets.dimensions import insert_dimension
from apps.sheets.entry import Entered, decode, enter, load_json, plain
from apps.sheets.errors import SheetsError, invalid, not_found
from apps.sheets.formulas.formats import display
from apps.sheets import kept_books
from apps.sheets.formulas import inferred
from apps.sheets.formulas.inferred import Inference
from apps.sheets.models import Cell, NamedRange, Permission, Sheet, Spreadsheet
from apps.sheets.params import Dimension, InputOption, Range, Ranges, RenderOption, SpreadsheetId, ValueRanges, Values
from apps.sheets.store import StoredBook
from officegym.core import clock
from officegym.core.db import get_meta
from officegym.core.operations import operation
from officegym.core.sql import Prepared

ACTOR_META_KEY = "sheets.actor_email"
WRITE_ROLES = ("owner", "writer")
INSERT_DATA_OPTIONS = ("OVERWRITE", "INSERT_ROWS")
MAX_WRITE_CELLS = 200_000  # one request; Google's limit is 10 million cells per spreadsheet


# A rectangle of one tab's cells: every read of values runs it (officegym.core.sql).
CELLS_IN = Prepared(select(Cell.row, Cell.col, Cell.formula, Cell.kind, Cell.value, Cell.note, Cell.number_format).where(
    Cell.spreadsheet_id == bindparam("ss"), Cell.sheet_id == bindparam("sheet"), Cell.row >= bindparam("r1"),
    Cell.row < bindparam("r2"), Cell.col >= bindparam("c1"), Cell.col < bindparam("c2")))
# The cells of a rectangle that can decide how a formula reading them shows its result: those
# holding a formula or a number format (apps/sheets/formulas/inferred.py).
FORMATS_IN = Prepared(select(Cell.row, Cell.col, Cell.formula, Cell.number_format).where(
    Cell.spreadsheet_id == bindparam("ss"), Cell.sheet_id == bindparam("sheet"), Cell.row >= bindparam("r1"),
    Cell.row < bindparam("r2"), Cell.col >= bindparam("c1"), Cell.col < bindparam("c2"),
    or_(Cell.formula.is_not(None), Cell.number_format.is_not(None))))
ROLE = Prepared(select(Permission.role).where(Permission.spreadsheet_id == bindparam("ss"), Permission.email == bindparam("email")))
# Every operation opens its spreadsheet: its row and the actor's role in one read on the
# driver, the row then made the session's Spreadsheet object (the ORM's own load of it cost
# ~0.25 ms); and a write's new modified time set with one UPDATE, not an ORM flush.
_SPREADSHEET = Spreadsheet.__table__
_FIELDS = tuple(c.key for c in _SPREADSHEET.c)
HEAD = Prepared(select(*_SPREADSHEET.c, Permission.role).select_from(_SPREADSHEET.outerjoin(Permission, and_(
    Permission.spreadsheet_id == _SPREADSHEET.c.id, Permission.email == bindparam("email")))).where(_SPREADSHEET.c.id == bindparam("ss")))
_TABS = Sheet.__table__
_TAB_FIELDS = tuple(c.key for c in _TABS.c)
TABS_IN_ORDER = Prepared(select(*_TABS.c).where(_TABS.c.spreadsheet_id == bindparam("ss")).order_by(_TABS.c.index))
TOUCH = Prepared(update(_SPREADSHEET).where(_SPREADSHEET.c.id == bindparam("ss")).values(modified=bindparam("modified")))


class SheetsService:
    def __init__(self, db: Session, actor_email: str | None = None) -> None:
        self.db = db
        self.actor_email = (actor_email or get_meta(db, ACTOR_META_KEY) or "").lower()
        self._books: dict[str, StoredBook] = {}
        # Each spreadsheet's tabs in order, read once per operation (an operation asks for them
        # several times: find the tab by name, bound the range…); forget_tabs drops the list
        # when a tab is added, removed or moved. Its objects are the session's own, so a change
        # to one (a title, a row count) is seen through the list.
        self._tabs: dict[str, list[Sheet]] = {}

    # -- lookups ----------------------------------------------------------------------------
    def role(self, spreadsheet_id: str) -> str | None:
        self.db.flush()  # a share earlier in the same operation counts
        return ROLE.scalar(self.db, ss=spreadsheet_id, email=self.actor_email)

    def spreadsheet(self, spreadsheet_id: str, write: bool = False) -> Spreadsheet:
        """The spreadsheet the actor may open (write: edit), as the session's object for it."""
        row = self.opened(spreadsheet_id, write)
        db = self.db
        found = db.identity_map.get(identity_key(Spreadsheet, spreadsheet_id))
        if found is None:
            found = Spreadsheet(**dict(zip(_FIELDS, row)))
            make_transient_to_detached(found)  # as if the ORM had loaded it
            db.add(found)
        return found

    def opened(self, spreadsheet_id: str, write: bool = False) -> Any:
        """`spreadsheet` for an operation that only needs the spreadsheet's id and fields as
        stored (a value read or write): its row, read-only; making the session's object for it
        cost more than a one-cell write's SQL. `save` and `touch` take it as they take the object."""
        db = self.db
        db.flush()  # a share or a new spreadsheet earlier in the same operation counts
        row = HEAD.first(db, ss=spreadsheet_id, email=self.actor_email) if spreadsheet_id else None
        role = row[-1] if row is not None else None
        if role is None:
            raise not_found(f"Requested entity was not found. (no spreadsheet {spreadsheet_id!r} you can open; "
                            "list_spreadsheets or search_spreadsheets give the IDs)")
        if write and role not in WRITE_ROLES:
            raise SheetsError("PERMISSION_DENIED", f"The caller does not have permission: you are a {role} of this spreadsheet, not an editor")
        return row

    def tabs(self, spreadsheet_id: str) -> list[Sheet]:
        found = self._tabs.get(spreadsheet_id)
        if found is None:
            db = self.db
            db.flush()  # the read below runs on the driver: pending ORM changes first
            found = []
            for row in TABS_IN_ORDER.rows(db, ss=spreadsheet_id):
                tab = db.identity_map.get(identity_key(Sheet, (spreadsheet_id, row.sheet_id)))
                if tab is None:  # made the session's object for the row, as the ORM's load would
                    tab = Sheet(**dict(zip(_TAB_FIELDS, row)))
                    make_transient_to_detached(tab)
                    db.add(tab)
                found.append(tab)
            self._tabs[spreadsheet_id] = found
        return list(found)

    def tab_rows(self, spreadsheet_id: str) -> list[Any]:
        """The tabs in order, for reading only: the operation's Sheet objects when it has them,
        else the rows as stored (immutable: a caller that changes a tab takes it from `tab`);
        a value write only looks its tab up, and making Sheet objects cost more than that."""
        found = self._tabs.get(spreadsheet_id)
        if found is not None:
            return list(found)
        self.db.flush()  # the read below runs on the driver: pending ORM changes first
        return TABS_IN_ORDER.rows(self.db, ss=spreadsheet_id)

    def forget_tabs(self, spreadsheet_id: str) -> None:
        """A tab was added, removed or moved: the next `tabs` reads them again."""
        self._tabs.pop(spreadsheet_id, None)

    def tab(self, spreadsheet_id: str, title: str | None = None, sheet_id: int | None = None) -> Sheet:
        for tab in self.tabs(spreadsheet_id):
            if (sheet_id is not None and tab.sheet_id == sheet_id) or (title is not None and tab.title.lower() == title.lower()):
                return tab
        if sheet_id is not None:
            raise invalid(f"No grid with id: {sheet_id}")
        raise invalid(f"Unable to parse range: {title} (no sheet named {title!r}; sheets: "
                      f"{', '.join(t.title for t in self.tabs(spreadsheet_id))})")

    def locate(self, spreadsheet_id: str, text: str, tabs: list[Any] | None = None) -> tuple[Sheet, GridRange]:
        """The tab and rectangle an A1 range names (a named range works too); `tabs`: the
        tabs (`tab_rows`) when the caller has them."""
        try:
            title, area = parse_range(text)
        except A1Error as bad:
            raise invalid(str(bad)) from None
        if tabs is None:
            tabs = self.tab_rows(spreadsheet_id)
        if title is None:
            tab = tabs[0]
        else:
            tab = next((t for t in tabs if t.title.lower() == title.lower()), None)
            if tab is None:
                named = self.db.get(NamedRange, (spreadsheet_id, title)) if area is None else None
                if named is None:
                    raise invalid(f"Unable to parse range: {text}")
                tab = self.tab(spreadsheet_id, sheet_id=named.sheet_id)
                area = GridRange(tab.title, named.start_row, named.start_col, named.end_row, named.end_col)
        grid = GridRange(tab.title, *(area.r1, area.c1, area.r2, area.c2) if area else (0, 0, None, None))
        if grid.r1 >= tab.row_count or grid.c1 >= tab.column_count:
            raise invalid(f"Range ({quote_sheet(tab.title)}!{text.split('!')[-1]}) exceeds grid limits. "
                          f"Max rows: {tab.row_count}, max columns: {tab.column_count}")
        return tab, grid

    def book(self, spreadsheet_id: str, cells: Iterable[tuple[Any, ...]] | None = None, tabs: list[Any] | None = None) -> StoredBook:
        """The spreadsheet's book, loaded once per operation; with `cells`, a new book of those
        cells (see StoredBook) replaces it. `tabs`: the tabs as they stand (`tab_rows`), when
        the caller has just read them."""
        found = None if cells is not None else self._books.get(spreadsheet_id)
        if found is None:
            now = clock.now(self.db).replace(tzinfo=None)
            if cells is None:
                shapes = None if tabs is None else [(t.sheet_id, t.title, t.row_count, t.column_count) for t in tabs]
                found = self._books[spreadsheet_id] = StoredBook.open(self.db, spreadsheet_id, now, shapes)
            else:
                found = self._books[spreadsheet_id] = StoredBook(self.db, spreadsheet_id, now, cells)
        return found

    def adopt(self, book: StoredBook) -> None:
        """Use `book` as its spreadsheet's loaded book from here on (a caller that already
        holds the book exactly as stored: it is not read again)."""
        book.db = self.db
        self._books[book.spreadsheet_id] = book

    def touch(self, spreadsheet: Spreadsheet) -> None:
        self._touched(spreadsheet, self.modified_now(), stored=False)

    def modified_now(self) -> str:
        """A write's modified time: the env clock, advanced."""
        return clock.from_micros(clock.tick(self.db)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"

    def _touched(self, spreadsheet: Spreadsheet, modified: str, stored: bool) -> None:
        """The spreadsheet's modified time is `modified` (`stored`: already set in the database)."""
        if not stored:
            self.db.flush()  # the update below runs on the driver: pending ORM changes first
            TOUCH.run(self.db, ss=spreadsheet.id, modified=modified)
        # The session's object shows it, with nothing left to flush (a row from `opened` is as
        # stored before the write; the object, if the session has one, is the one to update).
        target = spreadsheet
        if not isinstance(target, Spreadsheet):
            target = self.db.identity_map.get(identity_key(Spreadsheet, spreadsheet.id))
        if target is not None:
            set_committed_value(target, "modified", modified)

    def save(self, spreadsheet: Spreadsheet) -> None:
        """Save the loaded book and touch the spreadsheet: one statement sets the new revision
        and the modified time when the save advances the revision."""
        book = self._books.get(spreadsheet.id)
        modified = self.modified_now()
        self._touched(spreadsheet, modified, stored=book is not None and book.save(modified))

    # -- reading cells ----------------------------------------------------------------------
    def grid_values(self, spreadsheet_id: str, tab: Sheet, grid: GridRange, render: str = "FORMATTED_VALUE",
                    revision: str | None = None) -> list[list[Any]]:
        """The rendered values of a rectangle, rows × columns, trailing empties left out.
        `revision`: the spreadsheet's stored revision as the operation opened it."""
        bounded = grid.bounded(tab.row_count, tab.column_count)
        book = self._books.get(spreadsheet_id)
        if book is not None:
            revision = None  # this operation's own edits may be saved below: the revision moves
        if book is not None and book.unsaved:
            book.save()
        self.db.flush()  # the read below runs on the driver: pending ORM changes first
        by_row: dict[int, dict[int, Any]] = {}
        found = CELLS_IN.tuples(self.db, ss=spreadsheet_id, sheet=tab.sheet_id, r1=bounded.r1, r2=bounded.r2, c1=bounded.c1, c2=bounded.c2)
        automatic: list[tuple[int, int, str, Any]] = []  # formulas whose number result shows in an inferred format
        for row, col, formula, kind, value, note, fmt in found:
            if not kind and formula is None:
                continue
            decoded = decode(kind, value, note)
            if render == "FORMULA":
                shown = formula if formula is not None else plain(decoded)
            elif render == "UNFORMATTED_VALUE":
                shown = plain(decoded)
            elif formula is not None and kind == "n" and not fmt:
                automatic.append((row, col, formula, decoded))
                continue
            else:
                shown = display(decoded, _number_format(fmt))
            by_row.setdefault(row, {})[col] = shown
        if automatic:
            box = (bounded.r1, bounded.c1, bounded.r2, bounded.c2)
            formats = self.inferred_formats(spreadsheet_id, tab.sheet_id, [a[:3] for a in automatic],
                                            ((r[0], r[1], r[2], r[6]) for r in found), [box], revision)
            for row, col, _, decoded in automatic:
                by_row.setdefault(row, {})[col] = display(decoded, formats.get((row, col)))
        if not by_row:
            return []
        out: list[list[Any]] = []
        for r in range(bounded.r1, max(by_row) + 1):
            row_cells = by_row.get(r)
            if not row_cells:
                out.append([])
                continue
            line = [""] * (max(row_cells) - bounded.c1 + 1)
            for c, v in row_cells.items():
                line[c - bounded.c1] = v
            out.append(line)
        return out

    def inferred_formats(self, spreadsheet_id: str, sheet_id: int, formulas: list[tuple[int, int, str]],
                         known: Iterable[tuple[int, int, str | None, str | None]] = (),
                         boxes: Iterable[tuple[int, int, int, int]] = (),
                         revision: str | None = None) -> dict[tuple[int, int], dict[str, str] | None]:
        """The formats Google Sheets shows these formulas' number results in, by (row, col): each
        a formula of tab `sheet_id` in a cell with no number format of its own (None: a plain
        number). `known`: cells the caller has read, (row, col, formula, number format JSON),
        all of those in `boxes` (row1, col1, row2, col2; exclusive ends), so they are not read again.
        `revision`: the spreadsheet's stored revision, when the cells are as it names them (the
        formats worked out are then kept for the next read at that revision)."""
        tabs = self.tab_rows(spreadsheet_id)
        kept_key = None
        before: dict[Any, Any] = {}
        if kept_books.known(revision):
            kept_key = (spreadsheet_id, revision, tuple((t.sheet_id, t.title, t.row_count, t.column_count) for t in tabs))
            before = inferred.kept(kept_key)
            if all((sheet_id, row, col) in before for row, col, _ in formulas):
                return {(row, col): before[(sheet_id, row, col)] for row, col, _ in formulas}
        db = self.db

        def fetch(sheet: int, r1: int, c1: int, r2: int, c2: int) -> list[tuple[int, int, str | None, str | None]]:
            return FORMATS_IN.tuples(db, ss=spreadsheet_id, sheet=sheet, r1=r1, r2=r2, c1=c1, c2=c2)

        inference = Inference({t.title.lower(): t.sheet_id for t in tabs}, {t.sheet_id: (t.row_count, t.column_count) for t in tabs}, fetch)
        inference.memo.update(before)
        inference.know(sheet_id, boxes, known)
        inference.prefetch(sheet_id, [f for f in formulas if (sheet_id, f[0], f[1]) not in before])
        found = {(row, col): inference.of((sheet_id, row, col), formula) for row, col, formula in formulas}
        # Kept only when the revision still names the cells read (a write between the reads would
        # have moved it) and every cell needed was read.
        if kept_key is not None and inference.fetches < inferred.MAX_FETCHES and kept_books.REVISION.scalar(db, ss=spreadsheet_id) == revision:
            inferred.keep(kept_key, inference.memo)
        return found

    def value_range(self, spreadsheet_id: str, text: str, major: str = "ROWS", render: str = "FORMATTED_VALUE") -> dict[str, Any]:
        head = self.opened(spreadsheet_id)
        tab, grid = self.locate(spreadsheet_id, text)
        values = self.grid_values(spreadsheet_id, tab, grid, render, head.revision)
        shown = grid.bounded(tab.row_count, tab.column_count)
        body: dict[str, Any] = {"range": shown.a1(), "majorDimension": major}
        if values:
            if major == "COLUMNS":
                width = max(len(r) for r in values)
                columns = [[(r[c] if c < len(r) else "") for r in values] for c in range(width)]
                values = [_trim(col) for col in columns]
            body["values"] = values
        return body

    # -- writing cells ----------------------------------------------------------------------
    def write_values(self, spreadsheet: Spreadsheet, text: str, values: list[list[Any]], option: str,
                     major: str = "ROWS", at_row: int | None = None, tabs: list[Any] | None = None) -> dict[str, Any]:
        """Write `values` at the range `text` names (`at_row`: from that row, for an append);
        `tabs`: the tabs as they stand (`tab_rows`), when the caller has just read them."""
        if option not in ("RAW", "USER_ENTERED"):
            raise invalid(f"Invalid valueInputOption: {option!r}; accepted: RAW, USER_ENTERED")
        if tabs is None:
            tabs = self.tab_rows(spreadsheet.id)
        tab, grid = self.locate(spreadsheet.id, text, tabs)
        rows = _rows_of(values, major)
        top = grid.r1 if at_row is None else at_row
        height = len(rows)
        width = max((len(r) for r in rows), default=0)
        if height * max(width, 1) > MAX_WRITE_CELLS:
            raise invalid(f"Too many cells in one request: {height * width}; at most {MAX_WRITE_CELLS}")
        if at_row is None and not grid.is_cell and ((grid.r2 is not None and height > grid.r2 - grid.r1) or (grid.c2 is not None and width > grid.c2 - grid.c1)):
            raise invalid(f"Requested writing within range [{grid.a1()}], but tried writing {height} rows × {width} columns; "
                          "widen the range or send fewer values")
        if top + height > tab.row_count or grid.c1 + width > tab.column_count:
            if at_row is None:
                raise invalid(f"Range ({quote_sheet(tab.title)}!{GridRange(None, top, grid.c1, top + height, grid.c1 + width).a1()}) "
                              f"exceeds grid limits. Max rows: {tab.row_count}, max columns: {tab.column_count}")
            tab = self.tab(spreadsheet.id, sheet_id=tab.sheet_id)  # the Sheet object, to change
            tab.row_count = max(tab.row_count, top + height)
            tab.column_count = max(tab.column_count, grid.c1 + width)
            self.db.flush()
            stale = self._books.pop(spreadsheet.id, None)
            if stale is not None:
                stale.save()
            tabs = None  # one has grown: read again
        book = self.book(spreadsheet.id, tabs=tabs)
        book.book.sheets[tab.sheet_id].rows = tab.row_count
        book.book.sheets[tab.sheet_id].cols = tab.column_count
        entries: dict[tuple[int, int, int], Entered] = {}
        for i, row in enumerate(rows):
            if not isinstance(row, list):
                raise invalid(f"Invalid values[{i}]: each row must be an array of cell values")
            for j, raw in enumerate(row):
                if raw is None:
                    continue
                if isinstance(raw, (dict, list)):
                    raise invalid(f"Invalid values[{i}][{j}]: a cell value must be a string, number or boolean")
                if isinstance(raw, float) and not math.isfinite(raw):
                    raise invalid(f"Invalid values[{i}][{j}]: {raw} is not a finite number")
                if isinstance(raw, str) and len(raw) > 50_000:
                    raise invalid(f"Your input contains more than the maximum of 50000 characters in a single cell (values[{i}][{j}])")
                entries[(tab.sheet_id, top + i, grid.c1 + j)] = enter(raw, option)
        book.write(entries)
        self.save(spreadsheet)
        written = GridRange(tab.title, top, grid.c1, top + max(height, 1), grid.c1 + max(width, 1))
        body: dict[str, Any] = {"spreadsheetId": spreadsheet.id, "updatedRange": written.a1()}
        if entries:
            body.update(updatedRows=len({k[1] for k in entries}), updatedColumns=len({k[2] for k in entries}), updatedCells=len(entries))
        return body

    # -- the Sheets API values methods -----------------------------------------------------
    @operation("sheets.values.get")
    def values_get(self, spreadsheetId: SpreadsheetId, range: Range, majorDimension: Dimension = "ROWS",
                   valueRenderOption: RenderOption = "FORMATTED_VALUE") -> dict[str, Any]:
        """Read a range: `{range, majorDimension, values}`; trailing empty cells are left out."""
        return self.value_range(spreadsheetId, range, majorDimension, valueRenderOption)

    @operation("sheets.values.batchGet")
    def values_batch_get(self, spreadsheetId: SpreadsheetId, ranges: Ranges, majorDimension: Dimension = "ROWS",
                         valueRenderOption: RenderOption = "FORMATTED_VALUE") -> dict[str, Any]:
        """Read several ranges: `{spreadsheetId, valueRanges: [...]}`."""
        listed = [ranges] if isinstance(ranges, str) else ranges
        return {"spreadsheetId": spreadsheetId,
                "valueRanges": [self.value_range(spreadsheetId, r, majorDimension, valueRenderOption) for r in listed]}

    @operation("sheets.values.update", writes=True)
    def values_update(self, spreadsheetId: SpreadsheetId, range: Range, values: Values, valueInputOption: InputOption,
                      majorDimension: Dimension = "ROWS") -> dict[str, Any]:
        """Write values into a range, starting at its top-left cell; null leaves a cell as it is."""
        return self.write_values(self.opened(spreadsheetId, write=True), range, values, valueInputOption, majorDimension)

    @operation("sheets.values.append", writes=True)
    def values_append(self, spreadsheetId: SpreadsheetId, range: Range, values: Values, valueInputOption: InputOption,
                      majorDimension: Dimension = "ROWS", insertDataOption: str = "OVERWRITE") -> dict[str, Any]:
        """Append rows after the table found in the range (the last row with data in its columns).
        OVERWRITE writes into the rows below the table; INSERT_ROWS first inserts rows there for
        the new data, shifting what is below down (formulas that read it follow)."""
        if insertDataOption not in INSERT_DATA_OPTIONS:
            raise invalid(f"Invalid insertDataOption: {insertDataOption!r}; accepted: {', '.join(INSERT_DATA_OPTIONS)}")
        spreadsheet = self.spreadsheet(spreadsheetId, write=True)
        tab, grid = self.locate(spreadsheetId, range)
        bounded = grid.bounded(tab.row_count, tab.column_count)
        last = self.db.scalar(select(Cell.row).where(
            Cell.spreadsheet_id == spreadsheetId, Cell.sheet_id == tab.sheet_id, Cell.kind != "",
            Cell.row >= bounded.r1, Cell.col >= bounded.c1, Cell.col < bounded.c2).order_by(Cell.row.desc()).limit(1))
        start = bounded.r1 if last is None else last + 1
        height = len(_rows_of(values, majorDimension))
        if insertDataOption == "INSERT_ROWS" and height:
            insert_dimension(self, spreadsheet, {"range": {"sheetId": tab.sheet_id, "dimension": "ROWS", "startIndex": start,
                                                           "endIndex": start + height}}, "Invalid insertDataOption INSERT_ROWS")
        updates = self.write_values(spreadsheet, range, values, valueInputOption, majorDimension, at_row=start)
        body: dict[str, Any] = {"spreadsheetId": spreadsheetId, "updates": updates}
        if last is not None:
            width = max((len(r) for r in values), default=1)
            body["tableRange"] = GridRange(tab.title, bounded.r1, bounded.c1, last + 1, bounded.c1 + max(width, 1)).a1()
        return body

    @operation("sheets.values.clear", writes=True)
    def values_clear(self, spreadsheetId: SpreadsheetId, range: Range) -> dict[str, Any]:
        """Clear the values of a range (formats stay)."""
        spreadsheet = self.spreadsheet(spreadsheetId, write=True)
        return {"spreadsheetId": spreadsheetId, "clearedRange": self.clear_range(spreadsheet, range)}

    def clear_range(self, spreadsheet: Spreadsheet, text: str) -> str:
        tab, grid = self.locate(spreadsheet.id, text)
        bounded = grid.bounded(tab.row_count, tab.column_count)
        book = self.book(spreadsheet.id)
        keys = [k for k in (*book.book.inputs, *book.book.formulas)
                if k[0] == tab.sheet_id and bounded.contains(k[1], k[2])]
        book.write({k: Entered(None, None) for k in keys})
        self.save(spreadsheet)
        return bounded.a1()

    @operation("sheets.values.batchClear", writes=True)
    def values_batch_clear(self, spreadsheetId: SpreadsheetId, ranges: Ranges) -> dict[str, Any]:
        spreadsheet = self.spreadsheet(spreadsheetId, write=True)
        listed = [ranges] if isinstance(ranges, str) else ranges
        return {"spreadsheetId": spreadsheetId, "clearedRanges": [self.clear_range(spreadsheet, r) for r in listed]}

    @operation("sheets.values.batchUpdate", writes=True)
    def values_batch_update(self, spreadsheetId: SpreadsheetId, data: ValueRanges, valueInputOption: InputOption) -> dict[str, Any]:
        """Write several ranges: `{spreadsheetId, totalUpdated…, responses: [...]}`."""
        spreadsheet = self.opened(spreadsheetId, write=True)
        responses = []
        for i, item in enumerate(data):
            if not isinstance(item, dict) or "range" not in item or not isinstance(item.get("values", []), list):
                raise invalid(f"Invalid data[{i}]: each item must be {{\"range\": \"Sheet1!A1\", \"values\": [[…]]}}")
            responses.append(self.write_values(spreadsheet, str(item["range"]), item.get("values") or [], valueInputOption,
                                               item.get("majorDimension") or "ROWS"))
        return {
            "spreadsheetId": spreadsheetId,
            "totalUpdatedRows": sum(r.get("updatedRows", 0) for r in responses),
            "totalUpdatedColumns": sum(r.get("updatedColumns", 0) for r in responses),
            "totalUpdatedCells": sum(r.get("updatedCells", 0) for r in responses),
            "totalUpdatedSheets": len({r["updatedRange"].rsplit("!", 1)[0] for r in responses}),
            "responses": responses,
        }

    # -- bound from their own modules --------------------------------------------------------
    spreadsheets_get = spreadsheets.spreadsheets_get
    spreadsheets_create = spreadsheets.spreadsheets_create
    spreadsheets_batch_update = spreadsheets.spreadsheets_batch_update
    sheets_copy_to = spreadsheets.sheets_copy_to
    files_list = drive.files_list
    files_search = drive.files_search
    files_get = drive.files_get
    files_download = drive.files_download
    permissions_list = drive.permissions_list
    files_delete = drive.files_delete
    files_empty_trash = drive.files_empty_trash
    files_update = drive.files_update
    folders_list = drive.folders_list
    permissions_share = drive.permissions_share
    find_cells = drive.find_cells
    get_sheet_data = tool_ops.get_sheet_data
    get_sheet_formulas = tool_ops.get_sheet_formulas
    update_cells = tool_ops.update_cells
    batch_update_cells = tool_ops.batch_update_cells
    add_rows = tool_ops.add_rows
    add_columns = tool_ops.add_columns
    list_sheets = tool_ops.list_sheets
    copy_sheet = tool_ops.copy_sheet
    rename_sheet = tool_ops.rename_sheet
    multiple_sheet_data = tool_ops.multiple_sheet_data
    spreadsheet_summary = tool_ops.spreadsheet_summary
    create_sheet = tool_ops.create_sheet
    add_chart = tool_ops.add_chart
    apply_formula = excel_ops.apply_formula
    validate_formula = excel_ops.validate_formula
    format_range = excel_ops.format_range
    pivot_table = excel_ops.pivot_table
    workbook_metadata = excel_ops.workbook_metadata
    range_edit = excel_ops.range_edit
    read_range = excel_ops.read_range
    write_range = excel_ops.write_range
    create_spreadsheet = tool_ops.create_spreadsheet
    import_xlsx = xlsx.import_xlsx
    files_copy = xlsx.files_copy
    export_xlsx = xlsx.export_xlsx
    files_export = xlsx.files_export


@lru_cache(maxsize=1024)
def _number_format(text: str | None) -> dict[str, str] | None:
    """A stored number format, parsed once per distinct text (a column shares one); read only."""
    return load_json(text)


def _rows_of(values: list[list[Any]], major: str) -> list[list[Any]]:
    if major != "COLUMNS":
        return values
    width = max((len(c) for c in values), default=0)
    return [[col[i] if i < len(col) else None for col in values] for i in range(width)]


def _trim(line: list[Any]) -> list[Any]:
    while line and line[-1] == "":
        line.pop()
    return line
