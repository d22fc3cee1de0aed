"""Books kept in memory between operations, each used again only while the database provably
still holds what it was built from.

Loading a spreadsheet into a `Book` (reading every cell, decoding it, indexing every formula's
precedents) costs far more than the edit most writes make, and every write paid it. So a book
is kept here after each save, and the next operation on that spreadsheet in the same env
database takes it instead of loading, when one of two proofs holds:

- the spreadsheet's `revision` is the book's. A revision names the cells' content: a digest of
  the rows as read, then, at each save of the book, a digest of the revision before and the
  rows the save wrote (`chain`). The save sets it only if the stored revision is still the one
  the book was read at (compare-and-set), and every other write of cells (a structural edit's
  rewrite, an import, a copied tab) sets an unknown revision ("!…", different each time), so
  equal revisions mean equal cells — in any env, after a rollback (the revision rolls back
  with the cells), a snapshot restored or an env database reset and reused for another env;
- or, whatever the revision, every stored cell row is the one the book was saved with
  (the rows are read and compared field by field).

Either way the tabs (id, title, size) and named ranges are read each time and must match too.
A kept book is handed to one operation at a time (taken out, kept again by its next save),
and only while it has no unsaved change.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import threading
from collections import OrderedDict
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from apps.sheets.models import Spreadsheet
from officegym.core.backend.routing import SERVING
from officegym.core.sql import Prepared

if TYPE_CHECKING:
    from apps.sheets.store import StoredBook

MAX_KEPT_CELLS = 120_000  # across every kept book of the process (a few hundred bytes each)
_KEPT: OrderedDict[tuple[str, str], StoredBook] = OrderedDict()
_LOCK = threading.Lock()
_SIZE = [0]

REVISION = Prepared(select(Spreadsheet.revision).where(Spreadsheet.id == bindparam("ss")))
_TABLE = Spreadsheet.__table__
SET_REVISION = Prepared(update(_TABLE).where(_TABLE.c.id == bindparam("ss"), _TABLE.c.revision == bindparam("old"))
                        .values(revision=bindparam("new")))
SET_FIRST_REVISION = Prepared(update(_TABLE).where(_TABLE.c.id == bindparam("ss"), _TABLE.c.revision.is_(None))
                              .values(revision=bindparam("new")))
SET_ANY_REVISION = Prepared(update(_TABLE).where(_TABLE.c.id == bindparam("ss")).values(revision=bindparam("new")))
# The same, setting the modified time as well: a write's save and its touch in one statement.
SET_REVISION_TOUCH = Prepared(update(_TABLE).where(_TABLE.c.id == bindparam("ss"), _TABLE.c.revision == bindparam("old"))
                              .values(revision=bindparam("new"), modified=bindparam("modified")))
SET_FIRST_REVISION_TOUCH = Prepared(update(_TABLE).where(_TABLE.c.id == bindparam("ss"), _TABLE.c.revision.is_(None))
                                    .values(revision=bindparam("new"), modified=bindparam("modified")))


# -- revisions ------------------------------------------------------------------------------
def known(revision: str | None) -> bool:
    return revision is not None and not revision.startswith("!")


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def digest(cells: list[tuple[Any, ...]]) -> str:
    """The revision of cells read (rows as CELLS reads them, in any order): their pickle, in
    fast mode (no memo, so equal rows give equal bytes whatever objects hold them), a quarter
    of what their repr costs."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=5)
    pickler.fast = True
    pickler.dump(sorted(cells, key=itemgetter(0, 1, 2)))
    return hashlib.blake2b(out.getvalue(), digest_size=16).hexdigest()


def chain(revision: str, written: list[tuple[Any, ...]], deleted: list[tuple[int, int, int]]) -> str:
    """The revision after a save that wrote `written` rows and deleted the cells `deleted`
    (their pickle in fast mode, as `digest`: a fifth of what their repr cost)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=5)
    pickler.fast = True
    pickler.dump((revision, written, deleted))
    return hashlib.blake2b(out.getvalue(), digest_size=16).hexdigest()


def advance(db: Session, spreadsheet_id: str, read_at: str | None, new: str, modified: str | None = None) -> bool:
    """Set the revision to `new` (and, given, the modified time to `modified`) if it is still
    `read_at`; False (and nothing set) if not."""
    if modified is not None:
        if read_at is None:
            return SET_FIRST_REVISION_TOUCH.run(db, ss=spreadsheet_id, new=new, modified=modified) == 1
        return SET_REVISION_TOUCH.run(db, ss=spreadsheet_id, old=read_at, new=new, modified=modified) == 1
    if read_at is None:
        return SET_FIRST_REVISION.run(db, ss=spreadsheet_id, new=new) == 1
    return SET_REVISION.run(db, ss=spreadsheet_id, old=read_at, new=new) == 1


def unchain(db: Session, spreadsheet_id: str) -> str:
    """Mark the cells as changed by a write that keeps no revision (a new unknown revision,
    never one the spreadsheet had before); returns it."""
    db.flush()
    new = "!" + _digest(f"!{REVISION.scalar(db, ss=spreadsheet_id)}")[:30]
    SET_ANY_REVISION.run(db, ss=spreadsheet_id, new=new)
    return new


# -- the kept books -------------------------------------------------------------------------
def _key(spreadsheet_id: str) -> tuple[str, str]:
    return SERVING.get(""), spreadsheet_id  # the env database the session is on


def take(spreadsheet_id: str) -> StoredBook | None:
    """The kept book of this spreadsheet, if any: the caller's alone from here on (checked by
    the caller with `same_frame` and `same_revision` or `same_cells` before any use)."""
    with _LOCK:
        found = _KEPT.pop(_key(spreadsheet_id), None)
        if found is not None:
            _SIZE[0] -= len(found.stored_rows or ())
    return found


def keep(book: StoredBook) -> None:
    """Keep a book that has just been saved: no unsaved change, its stored rows and revision
    known."""
    if book.stored_rows is None or book.unsaved or not known(book.revision):
        return
    key = _key(book.spreadsheet_id)
    with _LOCK:
        old = _KEPT.pop(key, None)
        if old is not None:
            _SIZE[0] -= len(old.stored_rows or ())
        _KEPT[key] = book
        _SIZE[0] += len(book.stored_rows)
        while _SIZE[0] > MAX_KEPT_CELLS and _KEPT:
            _, evicted = _KEPT.popitem(last=False)
            _SIZE[0] -= len(evicted.stored_rows or ())


def forget_all() -> None:
    with _LOCK:
        _KEPT.clear()
        _SIZE[0] = 0


def same_frame(book: StoredBook, tabs: list[Any], named: list[Any]) -> bool:
    """No unsaved change, and the same tabs (id, title, size) and named ranges as read."""
    if book.stored_rows is None or book.unsaved:
        return False
    sheets = book.book.sheets
    if len(sheets) != len(tabs):
        return False
    for sheet_id, title, rows, cols in tabs:
        info = sheets.get(sheet_id)
        if info is None or info.title != title or info.rows != rows or info.cols != cols:
            return False
    names = book.book.names
    if len(names) != len(named):
        return False
    for name, sheet_id, r1, c1, r2, c2 in named:
        found = names.get(name.lower())
        if found is None or found[0] != sheet_id:
            return False
        grid = found[1]
        if grid.r1 != r1 or grid.c1 != c1 or grid.r2 != r2 or grid.c2 != c2:
            return False
    return True


def same_cells(book: StoredBook, cells: list[tuple[Any, ...]]) -> bool:
    """Whether every stored cell row is the one the book was saved with, field for field."""
    stored = book.stored_rows
    if stored is None or len(stored) != len(cells):
        return False
    get = stored.get
    for row in cells:
        if get(row[:3]) != row:
            return False
    return True
