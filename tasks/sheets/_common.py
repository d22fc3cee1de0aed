"""What sheets task families share: finding the seeded spreadsheets, reading the final book,
checking that cells hold formulas that compute the right values *and follow their inputs*
(so typed-in numbers never pass where a formula is asked for, and any equivalent formula
does), and the changes a sheets task allows."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from apps.sheets import kept_books
from apps.sheets.entry import Entered
from apps.sheets.formulas.engine import Book as EngineBook
from apps.sheets.formulas.engine import Key
from apps.sheets.formulas.values import CellError
from apps.sheets.models import Sheet, Spreadsheet
from apps.sheets.store import StoredBook
from graders.diff import RowChange
from graders.rubric import Expect
from officegym.core import clock
from tasks.base import SampleContext, TaskUnavailable, Tools
from tasks.common.variants import cached, choose

TOLERANCE = 1e-6


@dataclass(frozen=True, slots=True)
class Book:
    """A seeded spreadsheet of the template: id, title and tabs (title → sheetId)."""

    id: str
    title: str
    tabs: dict[str, int]


def seeded(ctx: SampleContext, title_prefix: str) -> Book:
    def build() -> Book:
        found = ctx.db.scalars(select(Spreadsheet).where(Spreadsheet.title.like(f"{title_prefix}%")).order_by(Spreadsheet.id)).first()
        if found is None:
            raise TaskUnavailable(f"no seeded spreadsheet titled {title_prefix!r}")
        tabs = {t.title: t.sheet_id for t in ctx.db.scalars(select(Sheet).where(Sheet.spreadsheet_id == found.id))}
        return Book(found.id, found.title, tabs)

    return cached(ctx, f"sheets/{title_prefix}", build)


def template_book(ctx: SampleContext, spreadsheet_id: str) -> EngineBook:
    """A seeded spreadsheet's cells as the template has them, read once per template (sampling
    only reads it; graders load the env's final state themselves)."""
    return cached(ctx, f"sheets/cells/{spreadsheet_id}", lambda: load(ctx.db, spreadsheet_id).book)


def fresh_book(ctx: SampleContext, db: Session, spreadsheet_id: str) -> StoredBook:
    """A seeded spreadsheet as a new env holds it, for the task's setup to edit: a private copy
    of the template's book (read once per template) bound to the env's session, so a setup
    does not read the spreadsheet again. Only for setups: they run on the env as created, so
    the copy also carries the revision naming the template's cells, and its save leaves the
    env's spreadsheet with a known revision (apps/sheets/kept_books.py)."""
    stored = cached(ctx, f"sheets/stored/{spreadsheet_id}", lambda: _template_stored(ctx.db, spreadsheet_id)).copy(stored=True)
    stored.db = db
    return stored


def _template_stored(db: Session, spreadsheet_id: str) -> StoredBook:
    stored = StoredBook.open(db, spreadsheet_id, clock.now(db).replace(tzinfo=None))
    if stored.revision is None and stored.stored_rows is not None:
        stored.revision = kept_books.digest(list(stored.stored_rows.values()))
    return stored


def pick(family_id: str, ctx: SampleContext, axes: tuple[tuple, ...]) -> tuple[Any, ...]:
    """The variant's combination of the family's axes; TaskUnavailable when there is none."""
    if not axes:
        raise TaskUnavailable(f"{family_id}: this company offers no instance")
    return choose(family_id, ctx.variant, *axes)


def load(db: Session, spreadsheet_id: str) -> StoredBook:
    return StoredBook(db, spreadsheet_id, clock.now(db).replace(tzinfo=None))


_FINAL = "sheets.final_books"


def final(db: Session, spreadsheet_id: str) -> StoredBook:
    """The book as the checks grade it: read once per grading transaction (every check of a
    rollout reads the same final state) and handed out as a private copy, so a check may try
    changes on it in memory (`follows_inputs`) without the next check seeing them."""
    transaction = db.get_transaction()
    kept = db.info.get(_FINAL)
    if kept is None or transaction is None or kept[0] is not transaction:
        kept = db.info[_FINAL] = (transaction, {})
    books: dict[str, StoredBook] = kept[1]
    found = books.get(spreadsheet_id)
    if found is None:
        found = books[spreadsheet_id] = load(db, spreadsheet_id)
    return found.copy()


def same(got: Any, want: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return abs(got - want) <= TOLERANCE * max(1.0, abs(want))
    if isinstance(want, str) and isinstance(got, str):
        return got.strip().lower() == want.strip().lower()
    return got == want


def shown(value: Any) -> str:
    return value.code if isinstance(value, CellError) else repr(value)


def formula_cells(stored: StoredBook, keys: Iterable[Key], expected: Callable[[Key], Any], label: str) -> tuple[bool, str]:
    """Every key holds a formula whose value is `expected(key)` (read from the same book)."""
    for key in keys:
        if key not in stored.book.formulas:
            value = stored.book.get(key)
            return False, f"{label}: {_name(key)} holds {shown(value) if value is not None else 'nothing'}, not a formula"
        got, want = stored.book.get(key), expected(key)
        if not same(got, want):
            return False, f"{label}: {_name(key)} computes {shown(got)}, expected {shown(want)}"
    return True, ""


def follows_inputs(stored: StoredBook, changes: dict[Key, Any], targets: Iterable[Key], expected: Callable[[Key], Any], label: str) -> tuple[bool, str]:
    """After changing input cells in memory (never saved), the targets recompute to
    `expected(key)`: the formulas depend on their inputs the way the task asks."""
    stored.write({key: Entered(None, value) for key, value in changes.items()})
    for key in targets:
        got, want = stored.book.get(key), expected(key)
        if not same(got, want):
            return False, f"{label}: when its inputs change, {_name(key)} gives {shown(got)} instead of {shown(want)}"
    return True, ""


def _name(key: Key) -> str:
    from apps.sheets.a1 import cell_name

    return cell_name(key[1], key[2])


# -- the changes a sheets task may make ---------------------------------------------------------
def allow_cells(spreadsheet_id: str, sheet_id: int, where: Callable[[int, int], bool]) -> list[Expect]:
    def covers(change: RowChange) -> bool:
        row = change.row
        return row["spreadsheet_id"] == spreadsheet_id and row["sheet_id"] == sheet_id and where(row["row"], row["col"])

    return [Expect("sheets_cells", "any", covers)]


def allow_recalc(spreadsheet_id: str) -> Expect:
    """A formula elsewhere showing a new value because its inputs changed: the formula is the
    same, only its computed value moved (recalculation is not the agent's doing)."""

    def covers(change: RowChange) -> bool:
        before, after = change.before or {}, change.after or {}
        return (change.change == "update" and after.get("spreadsheet_id") == spreadsheet_id and after.get("formula") is not None
                and before.get("formula") == after.get("formula") and set(change.changed_columns) <= {"kind", "value", "note"})

    return Expect("sheets_cells", "update", covers)


def allow_touch(spreadsheet_id: str) -> Expect:
    """Any write marks the spreadsheet modified (its `modified` time moves, and the revision
    naming its cells with it)."""
    return Expect("sheets_spreadsheets", "update",
                  lambda c: c.row["id"] == spreadsheet_id and set(c.changed_columns) <= {"modified", "next_sheet_id", "revision"})


def allow_new_tab(spreadsheet_id: str, title: str) -> list[Expect]:
    """The one tab the task asks for, with its cells (its id is minted when it is added, so
    the allowance reads it from the final state)."""
    wanted = title.strip().lower()

    def tab_id(db: Session) -> int | None:
        tabs = db.scalars(select(Sheet).where(Sheet.spreadsheet_id == spreadsheet_id)).all()
        return next((t.sheet_id for t in tabs if t.title.strip().lower() == wanted), None)

    return [
        Expect("sheets_tabs", "insert", lambda c: c.row["spreadsheet_id"] == spreadsheet_id and str(c.row["title"]).strip().lower() == wanted),
        Expect("sheets_cells", "any", lambda c, sid: c.row["spreadsheet_id"] == spreadsheet_id and sid is not None and c.row["sheet_id"] == sid,
               given=tab_id),
    ]


def tab_named(stored: StoredBook, title: str) -> int | None:
    return next((s.id for s in stored.book.sheets.values() if s.title.strip().lower() == title.strip().lower()), None)


async def wreck(tools: Tools, spreadsheet_id: str) -> None:
    """What a vandal does besides the task: clears a tab of the same spreadsheet and deletes another's rows."""
    sheets = await tools.call("list_sheets", spreadsheet_id=spreadsheet_id)
    await tools.call("batch_update", spreadsheet_id=spreadsheet_id, requests=[{"deleteDimension": {"range": {
        "sheetId": (await tools.call("get_spreadsheet", spreadsheet_id=spreadsheet_id))["sheets"][-1]["properties"]["sheetId"],
        "dimension": "ROWS", "startIndex": 1, "endIndex": 4}}}])
    await tools.call("update_cells", spreadsheet_id=spreadsheet_id, sheet=sheets[0], range="A2", data=[["(cleared)"]])
