"""What sheets task families share: finding the seeded spreadsheets, reading the final book,
checking that cells hold formulas that compute the right values *and follow their inputs*
(so typed-in numbers never pass where a formula is asked for, and any equivalent formula
does), and the changes a sheets task allows.

A spreadsheet in Drive's trash is gone for everyone who would read it, in every family: no
check passes on one (`final`), and a title names only the spreadsheets out of the trash
(`titled`, `in_view`), so a trashed duplicate does not count and the right one trashed fails.
A hidden tab is gone from view the same way (`tab_named`, `hidden_tabs`), and so is a cell
styled unreadable: a check reading what its reader sees reads it as blank (`as_shown`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import false, or_, select, true
from sqlalchemy.orm import Session

from apps.sheets import kept_books
from apps.sheets.entry import Entered
from apps.sheets.formulas.engine import Book as EngineBook
from apps.sheets.formulas.engine import Dep, Key
from apps.sheets.formulas.values import CellError, to_serial
from apps.sheets.models import Sheet, Spreadsheet
from apps.sheets.store import StoredBook
from graders.checks import Unmet
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
        found = ctx.db.scalars(select(Spreadsheet).where(Spreadsheet.title.like(f"{title_prefix}%"), Spreadsheet.trashed == false())
                               .order_by(Spreadsheet.id)).first()
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


def titled(db: Session, title: str, besides: frozenset[str] = frozenset()) -> list[tuple[str, bool]]:
    """The spreadsheets named `title` (case and spacing aside), but those in `besides` (the
    seeded ones, say), each with whether it is in Drive's trash, in id order. A check counts
    only those out of the trash (`in_view`): a trashed one is gone for a user, so a trashed
    duplicate does not count and the right one trashed is not there. The trashed are listed
    too, for the changes a task allows in them (the agent's own drafts, thrown away)."""
    wanted = _title_key(title)
    found = db.execute(select(Spreadsheet.id, Spreadsheet.title, Spreadsheet.trashed).order_by(Spreadsheet.id)).all()
    return [(i, bool(trashed)) for i, t, trashed in found if i not in besides and _title_key(t) == wanted]


def in_view(found: Iterable[tuple[str, bool]]) -> list[str]:
    """Of `titled`'s spreadsheets, the ids of those out of the trash."""
    return [i for i, trashed in found if not trashed]


def _title_key(title: Any) -> str:
    return " ".join(str(title).split()).lower()


def final(db: Session, spreadsheet_id: str) -> StoredBook:
    """The book as the checks grade it: read once per grading transaction (every check of a
    rollout reads the same final state) and handed out as a private copy, so a check may try
    changes on it in memory (`follows_inputs`) without the next check seeing them. A
    spreadsheet in Drive's trash is gone for everyone who would read it: a check reading one
    fails (`Unmet`), whatever its cells hold."""
    transaction = db.get_transaction()
    kept = db.info.get(_FINAL)
    if kept is None or transaction is None or kept[0] is not transaction:
        kept = db.info[_FINAL] = (transaction, {})
    books: dict[str, StoredBook | str] = kept[1]
    found = books.get(spreadsheet_id)
    if found is None:
        gone = db.execute(select(Spreadsheet.title, Spreadsheet.trashed).where(Spreadsheet.id == spreadsheet_id)).first()
        found = books[spreadsheet_id] = gone.title if gone is not None and gone.trashed else load(db, spreadsheet_id)
    if isinstance(found, str):
        raise Unmet(f"the spreadsheet {found!r} is in the trash: gone for everyone who would read it")
    return found.copy()


class AsShown:
    """A book as a reader sees it: a cell whose style makes its content unreadable (`hides`:
    text the colour of its fill, a font too small to read) shows nothing, as a hidden tab or a
    trashed spreadsheet does; and rows and columns hidden by the user are not there at all: the
    reader sees the row after a hidden one right below the row before it, and a column after a
    hidden one beside the column before it. So `get`, `extent` and `formulas` read the tab as
    shown, its hidden rows and columns taken out (with none hidden, as the book has it); a check
    reading "column B" reads the second column the reader sees. Reads as the book does
    otherwise (`sheets`, ...)."""

    def __init__(self, stored: StoredBook, hidden: dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]] | None = None) -> None:
        self.book = stored.book
        self.unreadable = _unreadable(stored) | _under_merges(stored)
        self.hidden = hidden or {}  # sheetId → (hidden rows, hidden columns), as [start, end) stretches
        self._shown: dict[int, tuple[list[int], list[int]]] = {}
        self.formulas = _ShownFormulas(self)

    def shown_lines(self, sheet_id: int) -> tuple[list[int], list[int]] | None:
        """The rows and the columns of a tab a reader sees, in order (up to the last the book
        uses), or None when none is hidden."""
        if sheet_id not in self.hidden:
            return None
        found = self._shown.get(sheet_id)
        if found is None:
            height, width = self.book.extent(sheet_id)
            rows, cols = self.hidden[sheet_id]
            found = self._shown[sheet_id] = ([r for r in range(height) if not any(a <= r < b for a, b in rows)],
                                             [c for c in range(width) if not any(a <= c < b for a, b in cols)])
        return found

    def real(self, key: Key) -> Key | None:
        """The book's cell a reader sees at `key` (None: past what the book uses)."""
        lines = self.shown_lines(key[0])
        if lines is None:
            return key
        rows, cols = lines
        if not (0 <= key[1] < len(rows) and 0 <= key[2] < len(cols)):
            return None
        return key[0], rows[key[1]], cols[key[2]]

    def get(self, key: Key) -> Any:
        at = self.real(key)
        return None if at is None or at in self.unreadable else self.book.get(at)

    def extent(self, sheet_id: int) -> tuple[int, int]:
        lines = self.shown_lines(sheet_id)
        if lines is None:
            return self.book.extent(sheet_id)
        # (to the last shown row and column holding anything)
        row_at = {r: i for i, r in enumerate(lines[0])}
        col_at = {c: i for i, c in enumerate(lines[1])}
        height = width = 0
        for s, r, c in (*self.book.inputs, *self.book.formulas, *self.book.spill):
            if s == sheet_id and r in row_at and c in col_at:
                height, width = max(height, row_at[r] + 1), max(width, col_at[c] + 1)
        return height, width

    def __getattr__(self, name: str) -> Any:
        return getattr(self.book, name)


class _ShownFormulas:
    """The formulas of a book as shown (`AsShown`): by the cell a reader sees."""

    def __init__(self, shown: AsShown) -> None:
        self.shown = shown

    def get(self, key: Key, default: Any = None) -> Any:
        at = self.shown.real(key)
        return default if at is None else self.shown.book.formulas.get(at, default)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and self.get(key) is not None  # type: ignore[arg-type]


def _hidden_lines(db: Session, spreadsheet_id: str) -> dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """Each tab's rows and columns hidden by the user: sheetId → (rows, columns), as [start, end) stretches."""
    from apps.sheets import dimension_properties

    found = {}
    for sheet_id, rows, cols in db.execute(select(Sheet.sheet_id, Sheet.row_properties, Sheet.column_properties).where(
            Sheet.spreadsheet_id == spreadsheet_id, or_(Sheet.row_properties.is_not(None), Sheet.column_properties.is_not(None)))):
        hidden = (dimension_properties.hidden(dimension_properties.load(rows)), dimension_properties.hidden(dimension_properties.load(cols)))
        if hidden[0] or hidden[1]:
            found[sheet_id] = hidden
    return found


def _unreadable(stored: StoredBook) -> frozenset[Key]:
    """The cells whose content nobody can read (`hides`): by their own style, or by the style a
    conditional format rule gives them as the sheet is now (the rule's colours over the cell's
    own, as the grid draws them)."""
    import json

    from apps.sheets import conditional_formats

    found = {key for key, (_, style) in stored.formats.items() if style and hides(style)}
    for tab in stored.db.scalars(select(Sheet).where(Sheet.spreadsheet_id == stored.spreadsheet_id, Sheet.conditional_formats.is_not(None))):
        height, width = stored.book.extent(tab.sheet_id)
        for (r, c), rule_format in conditional_formats.shown_formats(tab, stored, (0, 0, height, width)).items():
            key = (tab.sheet_id, r, c)
            style = stored.formats.get(key, (None, None))[1]
            own = json.loads(style) if style else {}
            if hides(json.dumps(_over(own, rule_format))):
                found.add(key)
            else:  # a rule can make text its own style hid readable again
                found.discard(key)
    return frozenset(found)


def _under_merges(stored: StoredBook) -> frozenset[Key]:
    """The cells holding something under a merge but not at its top left: the merged cell shows
    only its top-left cell's content (what was written into the others is kept, out of sight)."""
    from apps.sheets.models import Merge

    merges = stored.db.execute(select(Merge.sheet_id, Merge.start_row, Merge.start_col, Merge.end_row, Merge.end_col)
                               .where(Merge.spreadsheet_id == stored.spreadsheet_id)).all()
    if not merges:
        return frozenset()
    book = stored.book
    found = set()
    for s, r, c in (*book.inputs, *book.formulas, *book.spill):
        if any(s == m_s and r1 <= r < r2 and c1 <= c < c2 and (r, c) != (r1, c1) for m_s, r1, c1, r2, c2 in merges):
            found.add((s, r, c))
    return frozenset(found)


def _over(own: dict[str, Any], rule_format: dict[str, Any]) -> dict[str, Any]:
    """A cell's style with a conditional format's over it: each colour or text property the rule
    sets replaces the cell's own (in either spelling, plain or *Style)."""
    def laid(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
        out = dict(base)
        for name, value in top.items():
            plain = name.removesuffix("Style")
            out.pop(plain, None)
            out.pop(plain + "Style", None)
            out[name] = value
        return out

    merged = laid(own, {k: v for k, v in rule_format.items() if k != "textFormat"})
    if isinstance(rule_format.get("textFormat"), dict):
        merged["textFormat"] = laid(own.get("textFormat") if isinstance(own.get("textFormat"), dict) else {}, rule_format["textFormat"])
    return merged


def _hidden_from_view(stored: StoredBook) -> dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """Each tab's rows and columns out of view: hidden by the user, or rows a basic filter's
    criteria hide (a reader of the tab sees neither; the filter's are read from the cells as
    they are now, as the grid shows them)."""
    from apps.sheets import filters

    found = _hidden_lines(stored.db, stored.spreadsheet_id)
    for sheet_id, rows in filters.hidden_by_filter(stored).items():
        by_user, cols = found.get(sheet_id, ([], []))
        found[sheet_id] = (sorted(by_user + rows), cols)
    return found


def as_shown(stored: StoredBook) -> Any:
    """The book a check reads as its reader sees it (`AsShown`); the book itself when no cell,
    row or column hides."""
    shown_book = AsShown(stored, _hidden_from_view(stored))
    return shown_book if shown_book.unreadable or shown_book.hidden else stored.book


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
    """Every key holds a formula, or a cell of an array formula's result (one ARRAYFORMULA
    filling a column is a formula for each of its rows), whose value is `expected(key)` (read
    from the same book)."""
    for key in keys:
        if key not in stored.book.formulas and key not in stored.book.spill_owner:
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


# -- formulas that read their inputs and follow them --------------------------------------------
Needs = Callable[[Key], Iterable[Iterable[Key]]]  # a target → groups of input cells; it must read one cell of each


class Reads:
    """What a book's formulas read, directly or through the formulas they read (a spilled
    cell reads what its array formula reads): built once per book checked."""

    def __init__(self, book: EngineBook) -> None:
        self.book = book
        self._inside: dict[Dep, list[Key]] = {}
        self._closure: dict[Key, list[Dep]] = {}
        self._by_sheet: dict[int, list[Key]] | None = None

    def anchor(self, key: Key) -> Key | None:
        return key if key in self.book.formulas else self.book.spill_owner.get(key)

    def deps(self, key: Key) -> list[Dep]:
        """Every range `key`'s formula reads, through other formulas too (worked out only for
        a formula whose own references do not already name the cell asked about)."""
        start = self.anchor(key)
        if start is None:
            return []
        found = self._closure.get(start)
        if found is None:
            found, seen, todo = [], {start}, [start]
            while todo:
                for dep in self.book.deps.get(todo.pop(), ()):
                    found.append(dep)
                    for inner in self._formulas_in(dep):
                        if inner not in seen:
                            seen.add(inner)
                            todo.append(inner)
            self._closure[start] = found
        return found

    def reads(self, key: Key, cell: Key) -> bool:
        start = self.anchor(key)
        return start is not None and (any(_inside(dep, cell) for dep in self.book.deps.get(start, ()))
                                      or any(_inside(dep, cell) for dep in self.deps(start)))

    def _formulas_in(self, dep: Dep) -> list[Key]:
        found = self._inside.get(dep)
        if found is None and dep[3] == dep[1] + 1 and dep[4] == dep[2] + 1:  # one cell: looked up, not searched for
            cell = (dep[0], dep[1], dep[2])
            owner = cell if cell in self.book.formulas else self.book.spill_owner.get(cell)
            found = self._inside[dep] = [owner] if owner is not None else []
        if found is None:
            if self._by_sheet is None:
                self._by_sheet = {}
                for key in self.book.formulas:
                    self._by_sheet.setdefault(key[0], []).append(key)
            found = self._inside[dep] = [k for k in self._by_sheet.get(dep[0], ()) if _inside(dep, k)]
        return found


def _inside(dep: Dep, cell: Key) -> bool:
    s, r1, c1, r2, c2 = dep
    return cell[0] == s and r1 <= cell[1] and (r2 is None or cell[1] < r2) and c1 <= cell[2] and (c2 is None or cell[2] < c2)


def reading_formulas(stored: StoredBook, keys: Iterable[Key], needs: Needs, label: str) -> tuple[bool, str]:
    """Every key holds a formula (or a cell of an array formula's result) that reads, directly
    or through other formulas, at least one cell of each group of inputs `needs` names: a
    constant such as `=1234` or `="Q4"` is typed in, whatever its `=`."""
    reads = Reads(stored.book)
    for key in keys:
        if reads.anchor(key) is None:
            value = stored.book.get(key)
            return False, f"{label}: {_name(key)} holds {shown(value) if value is not None else 'nothing'}, not a formula"
        for group in needs(key):
            cells = list(group)
            if cells and not any(reads.reads(key, cell) for cell in cells):
                what = _name(cells[0]) if len(cells) == 1 else f"any of {_name(min(cells))}:{_name(max(cells))}"
                return False, f"{label}: the formula in {_name(key)} does not read {what}, which it depends on"
    return True, ""


def follows_every(stored: StoredBook, targets: list[Key], rounds: Iterable[dict[Key, Any]],
                  expected: Callable[[EngineBook], Callable[[Key], Any]], label: str) -> tuple[bool, str]:
    """Each round of input changes, tried on its own copy of the book (never saved; the last
    on `stored` itself, which must be the check's private copy from `final` and is spent): every
    target recomputes to `expected(book)(key)` (`expected` reads a book's state once, and is
    asked again after each round). And every target's expected value must move in
    some round, so no target is left untested: a formula that ignores its inputs (`=0*F2+1234`)
    cannot pass by luck. A target no round moves fails the check rather than pass unseen (the
    family's rounds are chosen so that this never happens on a right book; validate proves it)."""
    want_before = expected(stored.book)
    before = {key: want_before(key) for key in targets}
    moved: set[Key] = set()
    rounds = list(rounds)
    for i, changes in enumerate(rounds):
        trial = stored if i == len(rounds) - 1 else stored.copy()  # the last round changes `stored` itself: a check's own copy
        trial.write({key: Entered(None, value) for key, value in changes.items()})
        want_now = expected(trial.book)
        for key in targets:
            got, want = trial.book.get(key), want_now(key)
            if not same(got, want):
                return False, f"{label}: when its inputs change, {_name(key)} gives {shown(got)} instead of {shown(want)}"
            if not same(want, before[key]):
                moved.add(key)
    unmoved = [key for key in targets if key not in moved]
    if unmoved:
        return False, f"{label}: no change to the data moves {', '.join(_name(k) for k in unmoved[:4])}, so it cannot be shown to follow it"
    return True, ""


def _name(key: Key) -> str:
    from apps.sheets.a1 import cell_name

    return cell_name(key[1], key[2])


# -- the seeded tables' own formula columns -----------------------------------------------------
# Each table's formula columns → the typed columns of its own row each reads (directly, or
# through the other: Weighted = Amount × Probability, Probability = the Stage's on Stages).
TABLE_FORMULAS = {"Pipeline": {7: (4,), 8: (5, 4)}, "Tickets": {8: (7,)}}


def _probabilities(cells: Any, tabs: dict[str, int]) -> dict[Any, Any]:
    """Stage → probability, as the Stages tab has them."""
    stages, table = tabs.get("Stages"), {}
    for r in range(1, 40 if stages is not None else 1):
        table.setdefault(cells.get((stages, r, 0)), cells.get((stages, r, 1)))
    table.pop(None, None)
    table.pop("", None)
    return table


def _table_value(cells: Any, tabs: dict[str, int], key: tuple[int, int, int], probabilities: dict[Any, Any]) -> Any:
    """What the seeded formula at `key` gives for its row (None where its inputs are no numbers:
    no formula matches that)."""
    tab, r, c = key
    number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)  # noqa: E731
    if tab == tabs.get("Pipeline"):
        probability, amount = probabilities.get(cells.get((tab, r, 4))), cells.get((tab, r, 5))
        if c == 7:
            return probability
        return amount * probability if number(amount) and number(probability) else None
    created = cells.get((tab, r, 7))
    return to_serial(cells.now.date()) - created if number(created) else None  # Age = TODAY() - Created


def _table_moves(cells: Any, tabs: dict[str, int], tab: int, rows: list[int]) -> dict[Any, Any]:
    """Every row's data changed so each of its formulas must move: a deal goes to a stage with
    another probability and its amount rises; a ticket was created 10 days earlier."""
    if tab != tabs.get("Pipeline"):
        return {(tab, r, 7): cells.get((tab, r, 7)) - 10 for r in rows if isinstance(cells.get((tab, r, 7)), (int, float))}
    table = _probabilities(cells, tabs)
    changes: dict[Any, Any] = {}
    for r in rows:
        stage, amount = cells.get((tab, r, 4)), cells.get((tab, r, 5))
        other = next((name for name, p in table.items() if p != table.get(stage)), None)
        if other is not None:
            changes[(tab, r, 4)] = other
        if isinstance(amount, (int, float)):
            changes[(tab, r, 5)] = amount + 1000
    return changes


def keeps_formulas(stored: StoredBook, tabs: dict[str, int], table: str, rows: Iterable[int]) -> tuple[bool, str]:
    """The table's formula columns (a task that moves or drops rows asks no change to them)
    still hold, in each of `rows`, a formula reading its own row, giving its row's value and
    following its row when the row's data changes: pasted values, constants and wiped cells fail."""
    tab, columns, rows = tabs[table], TABLE_FORMULAS[table], list(rows)
    targets = [(tab, r, c) for r in rows for c in columns]
    label = f"the {table} formulas"
    def values(cells: Any) -> Callable[[Key], Any]:
        probabilities = _probabilities(cells, tabs)
        return lambda key: _table_value(cells, tabs, key, probabilities)

    ok, why = reading_formulas(stored, targets, lambda k: [[(tab, k[1], c)] for c in columns[k[2]]], label)
    if ok:
        ok, why = formula_cells(stored, targets, values(stored.book), label)
    if ok:
        ok, why = follows_every(stored, targets, [_table_moves(stored.book, tabs, tab, rows)], values, label)
    return ok, why


# -- the changes a sheets task may make ---------------------------------------------------------
# Every table holding a spreadsheet's rows → the column naming the spreadsheet: what a task that
# lets the agent make a spreadsheet of its own (and do anything in it) allows.
SPREADSHEET_TABLES = {"sheets_spreadsheets": "id", **{t: "spreadsheet_id" for t in (
    "sheets_tabs", "sheets_cells", "sheets_permissions", "sheets_merges", "sheets_named_ranges", "sheets_charts")}}


def seeded_ids(ctx: SampleContext) -> frozenset[str]:
    """The template's spreadsheet ids, read once per template: what was there before the task."""
    return cached(ctx, "sheets/ids", lambda: frozenset(ctx.db.scalars(select(Spreadsheet.id))))


def allow_discarded(seeded: frozenset[str]) -> list[Expect]:
    """A spreadsheet the agent made and then moved to the trash (a draft or a scratch copy thrown
    away) is gone from view, as a message posted and deleted is: nothing it holds is a change
    beyond the task. Only the agent's own: a seeded spreadsheet trashed stays collateral."""
    memo = object()  # one read of the final state per grading transaction, for every table's rule

    def discarded(db: Session) -> frozenset[str]:
        transaction = db.get_transaction()
        kept = db.info.get(memo)
        if kept is None or transaction is None or kept[0] is not transaction:
            found = frozenset(i for i in db.scalars(select(Spreadsheet.id).where(Spreadsheet.trashed == true())) if i not in seeded)
            kept = db.info[memo] = (transaction, found)
        return kept[1]

    def rule(key: str) -> Callable[[RowChange, frozenset[str]], bool]:
        return lambda change, ids: change.change != "delete" and change.row.get(key) in (ids or ())

    return [Expect(t, "any", rule(key), given=discarded) for t, key in SPREADSHEET_TABLES.items()]


def allow_cells(spreadsheet_id: str, sheet_id: int, where: Callable[[int, int], bool]) -> list[Expect]:
    """Any change to the cells `where` names, except hiding what they hold (`hidden_by`)."""
    def covers(change: RowChange) -> bool:
        row = change.row
        return (row["spreadsheet_id"] == spreadsheet_id and row["sheet_id"] == sheet_id and where(row["row"], row["col"])
                and not hidden_by(change))

    return [Expect("sheets_cells", "any", covers)]


def allow_recalc(spreadsheet_id: str) -> Expect:
    """A formula elsewhere showing a new value because its inputs changed: the formula is the
    same, only its computed value moved (recalculation is not the agent's doing)."""

    def covers(change: RowChange) -> bool:
        before, after = change.before or {}, change.after or {}
        return (change.change == "update" and after.get("spreadsheet_id") == spreadsheet_id and after.get("formula") is not None
                and before.get("formula") == after.get("formula") and set(change.changed_columns) <= {"kind", "value", "note"})

    return Expect("sheets_cells", "update", covers)


_FORMAT = frozenset({"style", "number_format"})


class _CellsAndTabs(Expect):
    """An allowance over both the cells and the tabs of a spreadsheet (formatting lives on both)."""

    __slots__ = ()

    def covers(self, row: RowChange, state: Any = None) -> bool:
        return (row.table in ("sheets_cells", "sheets_tabs") and self.change in ("any", row.change)
                and bool(self.where(row, state) if self.given is not None else self.where(row)))


def _ruled_unreadable(db: Session, spreadsheet_id: str) -> frozenset[Key]:
    """The cells holding something that a conditional format rule makes unreadable as the sheet
    is now, over the cell's own style (the rule's text colour on the fill given by hand): their
    own style alone shows them."""
    import json

    from apps.sheets import conditional_formats

    tabs = db.scalars(select(Sheet).where(Sheet.spreadsheet_id == spreadsheet_id, Sheet.conditional_formats.is_not(None))).all()
    if not tabs:
        return frozenset()
    stored = final(db, spreadsheet_id)
    book, found = stored.book, set()
    for tab in tabs:
        height, width = book.extent(tab.sheet_id)
        for (r, c), rule_format in conditional_formats.shown_formats(tab, stored, (0, 0, height, width)).items():
            key = (tab.sheet_id, r, c)
            if book.get(key) in (None, ""):
                continue
            style = stored.formats.get(key, (None, None))[1]
            if hides(json.dumps(_over(json.loads(style) if style else {}, rule_format))) and not hides(style):
                found.add(key)
    return frozenset(found)


def allow_formatting(spreadsheet_id: str) -> Expect:
    """Formatting changes no data: a header row bolded or coloured (its blank cells get a style
    too), a column given a number format where it had none. Replacing a format a cell already
    had (amounts shown as dates) is a change to what readers see, and stays collateral; so is a
    style that hides a cell's content (its text the colour of its fill, or a font too small to
    read): the data is still there, but nobody can see it. On a tab: a header frozen, columns
    sized, a tab colour, a filter or a colouring rule that hides nothing (tasks/sheets/_formatting.py)."""
    from tasks.sheets._formatting import tab_formatting

    def covers(change: RowChange, ruled: frozenset[Key] | None) -> bool:
        # `ruled`: the cells a rule makes unreadable over their own fill, as the sheet is now (a
        # rule's text colour and a fill by hand that each read fine alone)
        row = change.row
        if change.table == "sheets_tabs":
            sheet_id = row.get("sheet_id")
            return tab_formatting(change, spreadsheet_id) and not (
                "conditional_formats" in change.changed_columns and ruled and any(k[0] == sheet_id for k in ruled))
        if row.get("spreadsheet_id") != spreadsheet_id:
            return False
        if ruled and change.change == "update" and (row.get("sheet_id"), row.get("row"), row.get("col")) in ruled:
            return False
        if change.change == "insert":  # a blank cell that only carries a format
            return not row.get("kind") and row.get("formula") is None and row.get("value") in (None, "")
        if change.change != "update" or not set(change.changed_columns) <= _FORMAT:
            return False
        if hidden_by(change):
            return False
        return "number_format" not in change.changed_columns or not (change.before or {}).get("number_format")

    return _CellsAndTabs("sheets_cells", "any", covers, given=lambda db: _ruled_unreadable(db, spreadsheet_id))


def hidden_by(change: RowChange) -> bool:
    """Whether a change leaves a cell with content styled unreadable (`hides`) that could be read before."""
    after = change.after or {}
    if change.change == "delete" or not after.get("kind") or not hides(after.get("style")):
        return False
    return not hides((change.before or {}).get("style")) if change.before is not None else True


_INK, _PAPER = {"red": 0.0, "green": 0.0, "blue": 0.0}, {"red": 1.0, "green": 1.0, "blue": 1.0}  # a cell's defaults
_SMALLEST_READABLE = 4  # points


def hides(style: str | None) -> bool:
    """Whether a cell's style (JSON, as the sheets app stores it) makes its content unreadable: text the colour
    of the cell's fill (white on the default white), or a font too small to read."""
    import json

    try:
        parsed = json.loads(style) if style else {}
    except ValueError:
        return False
    if not isinstance(parsed, dict):
        return False
    text = parsed.get("textFormat") if isinstance(parsed.get("textFormat"), dict) else {}

    def colour(value: Any, default: dict[str, float]) -> tuple[float, ...]:
        from tasks.sheets._presentation import rgb

        got = rgb(value)  # a plain colour, an rgbColor or a themeColor, as the grid draws it
        return got if got is not None else tuple(float(default.get(k, 0)) for k in ("red", "green", "blue"))

    ink = colour(text.get("foregroundColorStyle") or text.get("foregroundColor"), _INK)
    paper = colour(parsed.get("backgroundColorStyle") or parsed.get("backgroundColor"), _PAPER)
    size = text.get("fontSize")
    return max(abs(a - b) for a, b in zip(ink, paper)) < 0.12 or (isinstance(size, (int, float)) and 0 < size < _SMALLEST_READABLE)


def allow_touch(spreadsheet_id: str) -> Expect:
    """Any write marks the spreadsheet modified (its `modified` time moves, and the revision
    naming its cells with it)."""
    return Expect("sheets_spreadsheets", "update",
                  lambda c: c.row["id"] == spreadsheet_id and set(c.changed_columns) <= {"modified", "next_sheet_id", "revision"})


def allow_new_tab(spreadsheet_id: str, title: str, where: Callable[[int, int], bool] = lambda _r, _c: True) -> list[Expect]:
    """The one tab the task asks for, with its cells (those `where` allows: a task that says
    what goes where allows no more) (its id is minted when it is added, so the allowance reads
    it from the final state)."""
    wanted = title.strip().lower()

    def tab_id(db: Session) -> int | None:
        tabs = db.scalars(select(Sheet).where(Sheet.spreadsheet_id == spreadsheet_id)).all()
        return next((t.sheet_id for t in tabs if t.title.strip().lower() == wanted), None)

    return [
        Expect("sheets_tabs", "insert", lambda c: c.row["spreadsheet_id"] == spreadsheet_id and str(c.row["title"]).strip().lower() == wanted),
        Expect("sheets_cells", "any", lambda c, sid: c.row["spreadsheet_id"] == spreadsheet_id and sid is not None and c.row["sheet_id"] == sid
               and where(c.row["row"], c.row["col"]) and not hidden_by(c), given=tab_id),
    ]


def tab_named(stored: StoredBook, title: str) -> int | None:
    """The tab a check reads by its title (case and spacing at the ends aside), None if there
    is none. A hidden tab is gone from view, as a spreadsheet in the trash is: nobody opening
    the spreadsheet sees it, so a check reading one fails (`Unmet`)."""
    found = next((s.id for s in stored.book.sheets.values() if s.title.strip().lower() == title.strip().lower()), None)
    if found is not None and found in hidden_tabs(stored.db, stored.spreadsheet_id):
        raise Unmet(f"the tab {title!r} is hidden: nobody opening the spreadsheet sees it")
    return found


def hidden_tabs(db: Session, spreadsheet_id: str) -> frozenset[int]:
    """The ids of a spreadsheet's hidden tabs (gone from view, for a check)."""
    return frozenset(db.scalars(select(Sheet.sheet_id).where(Sheet.spreadsheet_id == spreadsheet_id, Sheet.hidden == true())))


async def wreck(tools: Tools, spreadsheet_id: str) -> None:
    """What a vandal does besides the task: clears a tab of the same spreadsheet and deletes another's rows."""
    sheets = await tools.call("list_sheets", spreadsheet_id=spreadsheet_id)
    await tools.call("batch_update", spreadsheet_id=spreadsheet_id, requests=[{"deleteDimension": {"range": {
        "sheetId": (await tools.call("get_spreadsheet", spreadsheet_id=spreadsheet_id))["sheets"][-1]["properties"]["sheetId"],
        "dimension": "ROWS", "startIndex": 1, "endIndex": 4}}}])
    await tools.call("update_cells", spreadsheet_id=spreadsheet_id, sheet=sheets[0], range="A2", data=[["(cleared)"]])
