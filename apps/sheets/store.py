"""A spreadsheet's cells between the database and the formula engine.

`StoredBook.load` reads one spreadsheet's cells with one Core query into a `Book` (formulas
with their stored precedents, so nothing is re-parsed); edits go through `write`, which
recalculates the dependants; `save` writes back exactly the cells whose content, value or
format changed, in two executemany statements.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, delete, insert, select
from sqlalchemy.orm import Session

from apps.sheets.a1 import GridRange
from apps.sheets.entry import Entered, decode, dump_json, encode, load_json
from apps.sheets.formulas.engine import Book, Key, SheetInfo, deps_from_json, deps_json
from apps.sheets.models import Cell, NamedRange, Sheet

DATE_FUNCTIONS = {"DATE": "DATE", "TODAY": "DATE", "EOMONTH": "DATE", "EDATE": "DATE", "NOW": "DATE_TIME"}
DATE_PATTERNS = {"DATE": "yyyy-mm-dd", "DATE_TIME": "yyyy-mm-dd h:mm:ss"}
_COLUMNS = ("formula", "kind", "value", "note", "number_format", "style", "deps", "spill")


class StoredBook:
    def __init__(self, db: Session, spreadsheet_id: str, now: datetime) -> None:
        self.db = db
        self.spreadsheet_id = spreadsheet_id
        tabs = db.scalars(select(Sheet).where(Sheet.spreadsheet_id == spreadsheet_id)).all()
        names = {
            n.name: (n.sheet_id, GridRange(None, n.start_row, n.start_col, n.end_row, n.end_col))
            for n in db.scalars(select(NamedRange).where(NamedRange.spreadsheet_id == spreadsheet_id))
        }
        self.book = Book([SheetInfo(t.sheet_id, t.title, t.row_count, t.column_count) for t in tabs], names, now)
        self.formats: dict[Key, tuple[str | None, str | None]] = {}  # number_format, style (JSON)
        self.dirty: set[Key] = set()
        rows = db.execute(
            select(Cell.sheet_id, Cell.row, Cell.col, Cell.formula, Cell.kind, Cell.value, Cell.note,
                   Cell.number_format, Cell.style, Cell.deps, Cell.spill).where(Cell.spreadsheet_id == spreadsheet_id)
        ).all()
        book = self.book
        for sheet_id, row, col, formula, kind, value, note, number_format, style, deps, spill in rows:
            key = (sheet_id, row, col)
            if number_format or style:
                self.formats[key] = (number_format, style)
            if formula is not None:
                book.set_formula(key, formula, deps_from_json(deps) if deps is not None else None, decode(kind, value, note))
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

    # -- edits ----------------------------------------------------------------------------
    def write(self, entries: dict[Key, Entered]) -> set[Key]:
        """Enter new contents and recalculate; returns the cells whose value changed."""
        book = self.book
        for key, entry in entries.items():
            if entry.formula is not None:
                book.set_formula(key, entry.formula)
                self._imply_date_format(key, entry.formula)
            else:
                book.set_input(key, entry.value)
                if entry.number_format is not None and not (self.formats.get(key, (None, None))[0]):
                    self.set_format(key, dump_json(entry.number_format), self.formats.get(key, (None, None))[1])
        changed = set(entries)
        touched = book.recalc(changed, include_self=True)
        self.dirty |= changed | touched
        return touched | changed

    def _imply_date_format(self, key: Key, formula: str) -> None:
        head = formula.lstrip("=").strip().split("(", 1)[0].strip().upper()
        kind = DATE_FUNCTIONS.get(head)
        if kind and not self.formats.get(key, (None, None))[0]:
            self.set_format(key, dump_json({"type": kind, "pattern": DATE_PATTERNS[kind]}), self.formats.get(key, (None, None))[1])

    def set_format(self, key: Key, number_format: str | None, style: str | None) -> None:
        if number_format or style:
            self.formats[key] = (number_format, style)
        else:
            self.formats.pop(key, None)
        self.dirty.add(key)

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
            deps = book.deps.get(key) or []
            deps_text = deps_json(deps) if key not in book.volatile else deps_json([*deps, "v"])  # type: ignore[list-item]
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

    def save(self) -> None:
        if not self.dirty:
            return
        keys = sorted(self.dirty)
        table = Cell.__table__
        self.db.flush()
        self.db.connection().execute(
            delete(table).where(and_(table.c.spreadsheet_id == bindparam("b_ss"), table.c.sheet_id == bindparam("b_sheet"),
                                     table.c.row == bindparam("b_row"), table.c.col == bindparam("b_col"))),
            [{"b_ss": self.spreadsheet_id, "b_sheet": s, "b_row": r, "b_col": c} for s, r, c in keys],
        )
        rows = [row for row in (self.row_of(k) for k in keys) if row is not None]
        if rows:
            self.db.execute(insert(Cell), rows)
        self.dirty.clear()

    def replace_all(self, keys: Iterable[Key] | None = None) -> None:
        """Rewrite every cell of the spreadsheet (after a structural change moved them)."""
        self.db.execute(delete(Cell).where(Cell.spreadsheet_id == self.spreadsheet_id))
        book = self.book
        every = set(book.inputs) | set(book.formulas) | set(book.spill) | set(self.formats)
        rows = [row for row in (self.row_of(k) for k in sorted(every)) if row is not None]
        if rows:
            self.db.execute(insert(Cell), rows)
        self.dirty.clear()
