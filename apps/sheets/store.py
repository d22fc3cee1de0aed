"""A spreadsheet's cells between the database and the formula engine.

`StoredBook` reads one spreadsheet's cells with one prepared query into a `Book` (formulas
with their stored precedents, so nothing is re-parsed); edits go through `write`, which
recalculates the dependants; `save` writes back exactly the cells whose content, value or
format changed: a delete of those left empty and an upsert of the rest, one driver
executemany each, and advances the spreadsheet's revision. `StoredBook.open`, what operations
use, takes the book an earlier operation kept when the revision proves it current
(kept_books.py), so a write to a big book does not load it again. Its statements run on the
driver (officegym.core.sql) rather than through the ORM.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from apps.sheets import budget, kept_books
from apps.sheets.a1 import GridRange
from apps.sheets.entry import Entered, decode, dump_json, encode, load_json
from apps.sheets.formulas.engine import Book, Key, SheetInfo, deps_from_json, deps_json
from apps.sheets.models import Cell, NamedRange, Sheet, Spreadsheet
from officegym.core.sql import Prepared

_NO_DEPS: list[Any] = []  # never changed
_COLUMNS = ("formula", "kind", "value", "note", "number_format", "style", "deps", "spill")

TABS = Prepared(select(Sheet.sheet_id, Sheet.title, Sheet.row_count, Sheet.column_count)
                .where(Sheet.spreadsheet_id == bindparam("ss")))
NAMES = Prepared(select(NamedRange.name, NamedRange.sheet_id, NamedRange.start_row, NamedRange.start_col, NamedRange.end_row,
                        NamedRange.end_col).where(NamedRange.spreadsheet_id == bindparam("ss")))
# The revision and the named ranges in one read (a row per name; one of NULLs if none).
_SPREADSHEET, _NAMED = Spreadsheet.__table__, NamedRange.__table__
REVISION_AND_NAMES = Prepared(select(_SPREADSHEET.c.revision, _NAMED.c.name, _NAMED.c.sheet_id, _NAMED.c.start_row, _NAMED.c.start_col,
                                     _NAMED.c.end_row, _NAMED.c.end_col)
                              .select_from(_SPREADSHEET.outerjoin(_NAMED, _NAMED.c.spreadsheet_id == _SPREADSHEET.c.id))
                              .where(_SPREADSHEET.c.id == bindparam("ss")))
_CELL = Cell.__table__
DELETE_CELL = Prepared(delete(_CELL).where(and_(_CELL.c.spreadsheet_id == bindparam("b_ss"), _CELL.c.sheet_id == bindparam("b_sheet"),
                                               _CELL.c.row == bindparam("b_row"), _CELL.c.col == bindparam("b_col"))))
INSERT_CELL = Prepared(insert(_CELL).values({c.name: bindparam(c.name) for c in _CELL.c}))
# A cell whose value alone changed (a formula recalculated, a number typed over a number):
# only the value's columns are set, in place.
SET_CELL_VALUE = Prepared(update(_CELL).where(and_(
    _CELL.c.spreadsheet_id == bindparam("b_ss"), _CELL.c.sheet_id == bindparam("b_sheet"), _CELL.c.row == bindparam("b_row"),
    _CELL.c.col == bindparam("b_col"))).values(kind=bindparam("b_kind"), value=bindparam("b_value"), note=bindparam("b_note")))


def _upsert(dialect: Any) -> Prepared:
    """A cell written in place (its row kept, so the env's change tracking sees one update,
    not a delete and an insert)."""
    statement = dialect.insert(_CELL).values({c.name: bindparam(c.name) for c in _CELL.c})
    keys = [c.name for c in _CELL.primary_key]
    return Prepared(statement.on_conflict_do_update(index_elements=keys, set_={
        c.name: statement.excluded[c.name] for c in _CELL.c if c.name not in keys}))


UPSERT_CELL = {"sqlite": _upsert(sqlite), "postgresql": _upsert(postgresql)}  # by dialect name
CELL_FIELDS = ("sheet_id", "row", "col", "formula", "kind", "value", "note", "number_format", "style", "deps", "spill")
CELLS = Prepared(select(Cell.sheet_id, Cell.row, Cell.col, Cell.formula, Cell.kind, Cell.value, Cell.note, Cell.number_format,
                        Cell.style, Cell.deps, Cell.spill).where(Cell.spreadsheet_id == bindparam("ss")))


def _same_literal(a: Any, b: Any) -> bool:
    """The same typed value: same type (TRUE is not 1) and equal."""
    return type(a) is type(b) and a == b


class StoredBook:
    def __init__(self, db: Session, spreadsheet_id: str, now: datetime, cells: Iterable[tuple[Any, ...]] | None = None,
                 read: tuple[list[Any], list[Any]] | None = None) -> None:
        """The stored book, or (`cells`, rows shaped as CELLS reads them) a book of other cells
        over the stored tabs and names: a structural edit builds the moved book in memory.
        `read` is the tabs and names (TABS, NAMES) when the caller has read them already."""
        self.db = db
        self.spreadsheet_id = spreadsheet_id
        # For a book `kept_books` may keep after its saves (None: a book that is not kept): the
        # rows as stored, by key; the revision naming its cells; and the spreadsheet's stored
        # revision when this book read or last set it (its save advances it from there).
        self.stored_rows: dict[Key, tuple[Any, ...]] | None = None
        self.revision: str | None = None
        self.read_at: str | None = None
        if read is None:
            db.flush()  # the prepared reads below run on the driver: pending ORM changes first
            read = TABS.rows(db, ss=spreadsheet_id), NAMES.rows(db, ss=spreadsheet_id)
        tabs, named = read
        names = {name: (sheet_id, GridRange(None, r1, c1, r2, c2)) for name, sheet_id, r1, c1, r2, c2 in named}
        self.book = Book([SheetInfo(*tab) for tab in tabs], names, now)
        self.formats: dict[Key, tuple[str | None, str | None]] = {}  # number_format, style (JSON)
        self.dirty: set[Key] = set()
        # Characters entered since the last save: a write over budget (budget.py) is refused
        # as it grows, before it has cost its whole size in memory and time.
        self.entered_chars = 0
        # The rows as stored when a structural edit rebuilt this book in memory: later saves
        # write the book over them (save_over), and the next structural edit of the same
        # batch starts from this book instead of reading and writing every cell again.
        self.baseline: dict[Key, dict[str, Any]] | None = None
        book = self.book
        if cells is None:
            cells = CELLS.tuples(db, ss=spreadsheet_id)
        for sheet_id, row, col, formula, kind, value, note, number_format, style, deps, spill in cells:
            key = (sheet_id, row, col)
            if number_format or style:
                self.formats[key] = (number_format, style)
            if formula is not None:
                if deps is None:
                    book.set_formula(key, formula, None, decode(kind, value, note))
                else:
                    book.load_formula(key, formula, deps_from_json(deps), decode(kind, value, note))
                if deps and '"v"' in deps:
                    book.mark_volatile(key)
            elif spill is not None:
                anchor_row, anchor_col = map(int, spill.split(":"))
                anchor = (sheet_id, anchor_row, anchor_col)
                book.spill[key] = decode(kind, value, note)
                book.spill_owner[key] = anchor
                book.spill_area.setdefault(anchor, []).append(key)
            elif kind:
                book.inputs[key] = decode(kind, value, note)
        for anchor, cells in book.spill_area.items():
            cells.sort()
        book.loaded()

    @classmethod
    def open(cls, db: Session, spreadsheet_id: str, now: datetime, tabs: list[tuple[int, str, int, int]] | None = None) -> StoredBook:
        """The stored book for an operation to read and edit: the one kept from an earlier
        operation when the stored rows are still exactly what it was built from (kept_books),
        else built from them. `tabs`: the tabs as TABS reads them, when the caller has them."""
        db.flush()  # the prepared reads below run on the driver: pending ORM changes first
        head = REVISION_AND_NAMES.tuples(db, ss=spreadsheet_id)
        revision = head[0][0] if head else None
        named = [row[1:] for row in head if row[1] is not None]
        if tabs is None:
            tabs = TABS.rows(db, ss=spreadsheet_id)
        kept = kept_books.take(spreadsheet_id)
        if kept is not None and not kept_books.same_frame(kept, tabs, named):
            kept = None
        if kept is not None and kept_books.known(revision) and kept.revision == revision:
            found = kept
        else:
            cells = CELLS.tuples(db, ss=spreadsheet_id)
            if kept is not None and kept_books.same_cells(kept, cells):
                found = kept
            else:
                found = cls(db, spreadsheet_id, now, cells, read=(tabs, named))
                found.stored_rows = {row[:3]: row for row in cells}
            # An unknown stored revision: the cells as read are named by their digest, worked
            # out only if this book saves (stored_rows still holds them until then).
            found.revision = revision if kept_books.known(revision) else None
        found.db = db
        found.book.now = now
        found.read_at = revision
        found.entered_chars = 0
        return found

    def copy(self, stored: bool = False) -> StoredBook:
        """An independent copy of the book as loaded (its unsaved edits included), without
        reading the database again. With `stored`, the copy also takes what this book knows
        of the rows as stored (its revision), for a copy saved into a database holding
        exactly those rows."""
        new = StoredBook.__new__(StoredBook)
        new.db, new.spreadsheet_id = self.db, self.spreadsheet_id
        new.book = self.book.copy()
        new.formats = dict(self.formats)
        new.dirty = set(self.dirty)
        new.entered_chars = self.entered_chars
        new.baseline = None if self.baseline is None else dict(self.baseline)
        new.stored_rows = new.revision = new.read_at = None
        if stored and self.stored_rows is not None:
            new.stored_rows, new.revision, new.read_at = dict(self.stored_rows), self.revision, self.read_at
        return new

    # -- edits ----------------------------------------------------------------------------
    def write(self, entries: dict[Key, Entered]) -> set[Key]:
        """Enter new contents and recalculate; returns the cells whose value changed."""
        book = self.book
        changed = set()
        self._entering(sum(len(e.formula) if e.formula is not None else len(e.value) if isinstance(e.value, str) else 8
                           for e in entries.values()))
        for key, entry in entries.items():
            if entry.formula is not None:
                # (No number format is stored for it: a date function's result shows as a date
                # by the format read-time inference gives it, formulas/inferred.py, as Google
                # Sheets leaves the cell's own format empty.)
                book.set_formula(key, entry.formula)
                changed.add(key)
            else:
                # A literal typed over the same literal (rewriting a table whose first rows stay
                # put) changes nothing: not entered, nothing recalculates, no row is written.
                value = entry.value
                if key in book.formulas or not _same_literal(book.inputs.get(key), value) or (value is None and key in book.spill):
                    book.set_input(key, value)
                    changed.add(key)
                if entry.number_format is not None and not (self.formats.get(key, (None, None))[0]):
                    self.set_format(key, dump_json(entry.number_format), self.formats.get(key, (None, None))[1])
        touched = book.recalc(changed, include_self=True)
        self.dirty |= changed | touched
        return touched | changed

    def set_format(self, key: Key, number_format: str | None, style: str | None) -> None:
        self._entering(len(number_format or "") + len(style or ""))
        if number_format or style:
            self.formats[key] = (number_format, style)
        else:
            self.formats.pop(key, None)
        self.dirty.add(key)

    def _entering(self, chars: int) -> None:
        self.entered_chars += chars
        if self.entered_chars > budget.MAX_WRITE_CHARS:
            budget.refuse_write(self.entered_chars)

    def number_format(self, key: Key) -> dict[str, str] | None:
        return load_json(self.formats.get(key, (None, None))[0])

    def recalc_everything(self) -> None:
        self.dirty |= self.book.recalc_all()
        self.dirty |= set(self.book.formulas)

    # -- saving ---------------------------------------------------------------------------
    def row_of(self, key: Key) -> dict[str, Any] | None:
        book = self.book
        number_format, style = self.formats.get(key, (None, None))
        formula = book.formulas.get(key)
        spill = None
        if formula is not None:
            value = book.values.get(key)
            deps = book.deps.get(key) or _NO_DEPS
            deps_text = deps_json(deps)
            if key in book.volatile:  # marked by a last "v" (what json.dumps([*deps, "v"]) gives)
                deps_text = deps_text[:-1] + ',"v"]' if deps else '["v"]'
        elif key in book.inputs:
            value, deps_text = book.inputs[key], None
        elif key in book.spill:
            value, deps_text = book.spill[key], None
            anchor = book.spill_owner[key]
            spill = f"{anchor[1]}:{anchor[2]}"
        else:
            value, deps_text = None, None
        kind, text, note = encode(value)
        if formula is None and not kind and not number_format and not style and spill is None:
            return None
        return {"spreadsheet_id": self.spreadsheet_id, "sheet_id": key[0], "row": key[1], "col": key[2], "formula": formula,
                "kind": kind, "value": text, "note": note, "number_format": number_format, "style": style,
                "deps": deps_text, "spill": spill}

    @property
    def unsaved(self) -> bool:
        return bool(self.dirty) or self.baseline is not None

    def cell_rows(self) -> list[dict[str, Any]]:
        """Every cell as a row (as `save` would store it), spilled cells included."""
        book = self.book
        every = set(book.inputs) | set(book.formulas) | set(book.spill) | set(self.formats)
        return [row for row in (self.row_of(k) for k in sorted(every)) if row is not None]

    def save(self, modified: str | None = None) -> bool:
        """Write what changed; with `modified`, the spreadsheet's new modified time is set by
        the statement that advances its revision, if one does: whether it was (else the caller
        sets it)."""
        if self.baseline is not None:
            self.save_over(self.baseline)
            return False
        if not self.dirty:
            kept_books.keep(self)
            return False
        rows = {key: self.row_of(key) for key in sorted(self.dirty)}
        size = budget.check_write(rows.values())
        self.entered_chars = 0
        self.db.flush()
        DELETE_CELL.run_many(self.db, [{"b_ss": self.spreadsheet_id, "b_sheet": s, "b_row": r, "b_col": c}
                                       for (s, r, c), row in rows.items() if row is None])
        stored = self.stored_rows
        if stored is None:
            UPSERT_CELL[self.db.get_bind().dialect.name].run_many(self.db, [row for row in rows.values() if row is not None])
            budget.check_book(self.db, self.spreadsheet_id, size)
            self.dirty.clear()
            self.forget_revision()
            return False
        self.dirty.clear()
        if self.revision is None:
            self.revision = kept_books.digest(list(stored.values()))
        # The stored rows are known (kept_books): a row written as it is stored is left alone,
        # one whose value alone changed has just its value set, and the rest are upserted.
        written, deleted, upserts, values = [], [], [], []
        for key, row in rows.items():
            if row is None:
                if stored.pop(key, None) is not None:
                    deleted.append(key)
                continue
            line = tuple([row[name] for name in CELL_FIELDS])
            before = stored.get(key)
            if before is None or before[3] != line[3] or before[7:] != line[7:]:
                upserts.append(row)
            elif before[4:7] != line[4:7]:
                values.append({"b_ss": self.spreadsheet_id, "b_sheet": key[0], "b_row": key[1], "b_col": key[2],
                               "b_kind": line[4], "b_value": line[5], "b_note": line[6]})
            stored[key] = line
            written.append(line)
        UPSERT_CELL[self.db.get_bind().dialect.name].run_many(self.db, upserts)
        SET_CELL_VALUE.run_many(self.db, values)
        budget.check_book(self.db, self.spreadsheet_id, size)
        revision = kept_books.chain(self.revision, written, deleted)
        if kept_books.advance(self.db, self.spreadsheet_id, self.read_at, revision, modified):
            self.revision = self.read_at = revision
            kept_books.keep(self)
            return modified is not None
        self.forget_revision()  # the cells were written since this book read them by something that is not it
        return False

    def forget_revision(self) -> None:
        """This book wrote cells it keeps no revision for: the spreadsheet's is unknown now."""
        self.stored_rows = self.revision = None
        self.read_at = kept_books.unchain(self.db, self.spreadsheet_id)

    def save_over(self, stored: dict[Key, dict[str, Any]]) -> None:
        """Write this book over the spreadsheet whose rows were `stored` (key → row as read):
        cells now empty are deleted and only rows that differ are written, so a structural
        edit writes what moved or changed, not the whole spreadsheet twice."""
        rows = {(row["sheet_id"], row["row"], row["col"]): row for row in self.cell_rows()}
        changed = [row for key, row in rows.items() if stored.get(key) != row]
        written = budget.check_write(changed)
        self.db.flush()
        DELETE_CELL.run_many(self.db, [{"b_ss": self.spreadsheet_id, "b_sheet": s, "b_row": r, "b_col": c}
                                       for (s, r, c) in sorted(stored) if (s, r, c) not in rows])
        UPSERT_CELL[self.db.get_bind().dialect.name].run_many(self.db, changed)
        budget.check_book(self.db, self.spreadsheet_id, written)
        self.dirty.clear()
        self.baseline = None
        self.forget_revision()

    def insert_all(self) -> None:
        """Write every cell of a book built in memory for a spreadsheet that has none stored
        (an imported file): one insert each, nothing to diff against."""
        rows = self.cell_rows()
        written = budget.check_write(rows)
        self.db.flush()
        INSERT_CELL.run_many(self.db, rows)
        budget.check_book(self.db, self.spreadsheet_id, written)
        self.dirty.clear()
        self.forget_revision()
