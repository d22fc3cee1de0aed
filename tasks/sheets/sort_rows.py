"""sheets/sort-by-rule-v1: sort a table of a seeded spreadsheet (the forecast's Pipeline, the
support Tickets) by one column, or by one and then another within its ties ("by Stage, then
Amount, largest first"), keeping every row whole and every formula reading its own row. Every
column a person sorts by, in the directions that make sense; a rule the table already follows
as seeded is never asked.

Graded on the final book: the table holds the same rows as before (as tuples of its typed
columns), in the asked order (ties of every key in any order; blanks last, as a spreadsheet
sorts them), and every formula column of the table (the
Pipeline's Probability and Weighted, the Tickets' Age) still holds, in every row, a formula that
reads its own row and follows it when the row's data changes, so pasting sorted values or
constants over any of them fails.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from apps.sheets.a1 import column_letter
from apps.sheets.formulas.values import compare
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_discarded, TABLE_FORMULAS, allow_cells, allow_formatting, allow_recalc, allow_touch, final, follows_every, formula_cells, keeps_formulas, pick,
    reading_formulas, seeded, seeded_ids, template_book, wreck,
)


TEXT, NUMBER, DATE = "text", "number", "date"
# The words for each direction of each kind of column: (ascending, descending).
ORDER_WORDS = {TEXT: ("A to Z", "Z to A"), NUMBER: ("smallest first", "largest first"), DATE: ("earliest first", "latest first")}


@dataclass(frozen=True, slots=True)
class Table:
    title: str  # the spreadsheet's title prefix
    tab: str
    width: int  # columns in the table
    literal: tuple[int, ...]  # typed-in columns (a row is these values)
    headers: tuple[str, ...]
    kinds: tuple[str, ...]  # each column's kind (how its order is said)
    formulas: tuple[int, ...] = ()  # its formula columns (each reads its own row)


PIPELINE = Table("Sales Forecast", "Pipeline", 9, (0, 1, 2, 3, 4, 5, 6),
                 ("Deal ID", "Account", "Opportunity", "Owner", "Stage", "Amount", "Close Date", "Probability", "Weighted"),
                 (TEXT, TEXT, TEXT, TEXT, TEXT, NUMBER, DATE, NUMBER, NUMBER))
TICKETS = Table("Support Metrics", "Tickets", 9, (0, 1, 2, 3, 4, 5, 6, 7),
                ("Key", "Summary", "Type", "Priority", "Status", "Customer", "Assignee", "Created", "Age (days)"),
                (TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, DATE, NUMBER))
# The acting CSM's own Customer Health sheet: their customers, each row's Health worked out from its Open tickets.
ACCOUNTS = Table("Customer Health", "Accounts", 6, (0, 1, 2, 3, 4),
                 ("Customer", "Tier", "Industry", "Employees", "Open tickets", "Health"), (TEXT, TEXT, TEXT, NUMBER, NUMBER, TEXT), (5,))


@dataclass(frozen=True, slots=True)
class Rule:
    table: Table
    keys: tuple[tuple[int, bool], ...]  # (column, descending), the first key first

    @property
    def title(self) -> str:
        return self.table.title

    @property
    def tab(self) -> str:
        return self.table.tab

    @property
    def width(self) -> int:
        return self.table.width

    @property
    def literal(self) -> tuple[int, ...]:
        return self.table.literal

    @property
    def by(self) -> int:
        return self.keys[0][0]

    @property
    def descending(self) -> bool:
        return self.keys[0][1]

    @property
    def header(self) -> str:
        return self.table.headers[self.by]

    def said(self) -> str:
        """The rule as a person says it: "Amount, largest first" or "Stage (A to Z), then Amount, largest first"."""
        parts = [(self.table.headers[c], ORDER_WORDS[self.table.kinds[c]][d]) for c, d in self.keys]
        if len(parts) == 1:
            return f"{parts[0][0]}, {parts[0][1]}"
        return f"{parts[0][0]} ({parts[0][1]}), then by {parts[1][0]}, {parts[1][1]} (rows with the same {parts[0][0]})"


def _rules(table: Table, *keys: tuple[tuple[int, bool], ...]) -> tuple[Rule, ...]:
    return tuple(Rule(table, k) for k in keys)


UP, DOWN = False, True
# Every column of the seeded tables a person sorts by, in the directions that make sense, and
# the two-key sorts a team asks for (rows grouped by the first, ordered inside by the second).
RULES = (
    *_rules(PIPELINE, ((5, DOWN),), ((5, UP),), ((6, UP),), ((6, DOWN),), ((1, UP),), ((1, DOWN),), ((2, UP),), ((3, UP),),
            ((8, DOWN),), ((4, UP), (5, DOWN)), ((3, UP), (6, UP)), ((3, UP), (5, DOWN)), ((1, UP), (6, UP)), ((6, UP), (5, DOWN)),
            ((7, DOWN), (5, DOWN))),
    *_rules(TICKETS, ((7, DOWN),), ((7, UP),), ((5, UP),), ((5, DOWN),), ((6, UP),), ((1, UP),), ((5, UP), (7, DOWN)),
            ((6, UP), (7, UP)), ((2, UP), (7, DOWN)), ((4, UP), (7, UP))),
    *_rules(ACCOUNTS, ((0, UP),), ((0, DOWN),), ((3, DOWN),), ((3, UP),), ((2, UP),), ((4, DOWN), (0, UP)), ((1, UP), (3, DOWN))),
)


class SortByRule:
    id = "sheets/sort-by-rule-v1"
    apps = ("sheets",)
    difficulty = "easy"
    summary = "Sort a spreadsheet table by one column or two, keeping rows whole and formulas working."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            # Every table a variant may sort is read once per template; a rule its table already
            # follows (the Tickets come in the order they were created) asks nothing, so is left out.
            return (shuffled(self.id, ctx, [r for r in RULES if not _follows(ctx, r)], "rule"),)

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        (rule,) = pick(self.id, ctx, self._axes(ctx))
        book = seeded(ctx, rule.title)
        tab = book.tabs[rule.tab]
        start = template_book(ctx, book.id)
        last = max(r for (s, r, c) in start.inputs if s == tab and c == 0)
        rows = range(1, last + 1)
        before = sorted(_row(start, tab, r, rule) for r in rows)
        prompt = (f"In the Google Sheet \"{book.title}\", sort the {rule.tab} tab's rows (everything below the header row) by "
                  f"{rule.said()}. Keep each row together and its formulas working. Change nothing else.")
        named = " then ".join(rule.table.headers[c] for c, _ in rule.keys)
        formula_letters = ", ".join(column_letter(c) for c in (TABLE_FORMULAS.get(rule.tab) or rule.table.formulas))

        def sorted_check(db: Any) -> CheckResult:
            sb = final(db, book.id).book
            now = [_row(sb, tab, r, rule) for r in rows]
            if sorted(now) != before:
                return failed(f"the {rule.tab} rows are not the same rows as before (a row was split, lost or changed)")
            keys = [[sb.get((tab, r, c)) for c, _ in rule.keys] for r in rows]
            wrong = _in_order(keys, rule.keys)
            if wrong is not None:
                return failed(f"rows {wrong + 2} and {wrong + 3} are out of order by {named}")
            return passed(f"{len(keys)} rows sorted by {named}")

        def formulas_check(db: Any) -> CheckResult:
            if not sorted_check(db).passed:
                return failed("the rows are not sorted as asked, so their formulas are not checked")
            stored = final(db, book.id)
            ok, why = (keeps_formulas(stored, book.tabs, rule.tab, rows) if rule.tab in TABLE_FORMULAS else
                       _keeps_health(stored, tab, rows))
            return passed(f"columns {formula_letters} still compute from each row") if ok else failed(why)

        span = {"sheetId": tab, "startRowIndex": 1, "endRowIndex": last + 1, "startColumnIndex": 0, "endColumnIndex": rule.width}

        async def sort(tools: Tools, by: int, descending: bool, sheet_id: int = tab, width: int = rule.width, end: int = last + 1,
                       then: tuple[tuple[int, bool], ...] = ()) -> None:
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"sortRange": {
                "range": {**span, "sheetId": sheet_id, "endColumnIndex": width, "endRowIndex": end},
                "sortSpecs": [{"dimensionIndex": c, "sortOrder": "DESCENDING" if d else "ASCENDING"} for c, d in ((by, descending), *then)]}}])

        async def oracle(tools: Tools) -> None:
            await sort(tools, rule.by, rule.descending, then=rule.keys[1:])

        async def rewrite(tools: Tools) -> None:
            """Read the typed columns, sort them in the client (a formula column's keys read off its
            shown values), write them back; the formulas stay put and follow."""
            data = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(rule.width - 1)}{last + 1}")
            raw = await tools.call("get_sheet_formulas", spreadsheet_id=book.id, sheet=rule.tab,
                                   range=f"A2:{column_letter(max(rule.literal))}{last + 1}")
            shown = data["valueRanges"][0]["values"]
            width = len(rule.literal)
            lines = [list(line) + [""] * (width - len(line)) for line in raw]
            # each line carries its sort keys: the typed value, or the number a formula column shows
            keyed = [[*(line[c] if c < width else _number(shown[i][c] if c < len(shown[i]) else "") for c, _ in rule.keys), line]
                     for i, line in enumerate(lines)]
            ordered = [k[-1] for k in _sorted_rows(keyed, tuple((i, d) for i, (_, d) in enumerate(rule.keys)), len(rule.keys) + 1)]
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(max(rule.literal))}{last + 1}",
                             data=ordered)

        other = next((t for t in book.tabs if t != rule.tab), None)
        forecast = seeded(ctx, PIPELINE.title)

        async def say(tools: Tools, text: str) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=rule.tab, range="A2", data=[[text]])

        async def elsewhere(tools: Tools) -> None:  # another spreadsheet's table sorted
            await tools.call("batch_update", spreadsheet_id=forecast.id, requests=[{"sortRange": {
                "range": {"sheetId": forecast.tabs["Stages"], "startRowIndex": 1, "endRowIndex": 8, "startColumnIndex": 0, "endColumnIndex": 2},
                "sortSpecs": [{"dimensionIndex": 0, "sortOrder": "DESCENDING"}]}}])

        async def wrong(tools: Tools) -> None:  # sorts another tab of the spreadsheet (of another one, when it has one tab)
            if other is None:
                await elsewhere(tools)
            else:
                await sort(tools, 0, True, sheet_id=book.tabs[other], width=2, end=8)

        async def typed(tools: Tools) -> None:  # the sorted values pasted over the table, formulas included
            shown = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(rule.width - 1)}{last + 1}")
            ordered = _sorted_rows(shown["valueRanges"][0]["values"], rule.keys, rule.width)
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(rule.width - 1)}{last + 1}",
                             data=ordered)

        async def wrong_record(tools: Tools) -> None:
            await sort(tools, 0 if rule.by != 0 else 2, not rule.descending)

        async def shotgun(tools: Tools) -> None:
            await sort(tools, rule.by, rule.descending, then=rule.keys[1:])
            for title, sid in book.tabs.items():
                if title != rule.tab:
                    await sort(tools, 0, rule.descending, sheet_id=sid, width=2, end=8)
            if other is None:  # a one-tab spreadsheet: another spreadsheet's table too
                await elsewhere(tools)

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"the {rule.tab} rows are sorted by {named}", sorted_check),
                    Check(f"sorted, and columns {formula_letters} still follow each row", formulas_check, 2.0)],
            expected=[*allow_cells(book.id, tab, lambda r, c: 1 <= r <= last and c < rule.width), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                      *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(rewrite,),
            moves=Moves(say=say, wrong=wrong, everything=typed, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise),
            facts={"spreadsheet": book.id, "tab": rule.tab, "by": rule.header, "descending": rule.descending,
                   "then": [(rule.table.headers[c], d) for c, d in rule.keys[1:]]},
        )


def _row(cells: Any, tab: int, r: int, rule: Rule) -> tuple:
    return tuple(repr(cells.get((tab, r, c))) for c in rule.literal)


def _health(open_tickets: Any) -> Any:
    """What the Customer Health sheet's Health formula gives for a row's open tickets."""
    if not isinstance(open_tickets, (int, float)):
        return None
    return "At risk" if open_tickets >= 3 else "Watch" if open_tickets >= 1 else "Healthy"


def _keeps_health(stored: Any, tab: int, rows: range) -> tuple[bool, str]:
    """The Accounts' Health column still holds, in each row, a formula reading its own row's Open
    tickets, giving its value and following it when the row's count changes."""
    targets = [(tab, r, 5) for r in rows]
    label = "the Health formulas"
    ok, why = reading_formulas(stored, targets, lambda k: [[(tab, k[1], 4)]], label)
    if ok:
        ok, why = formula_cells(stored, targets, lambda k: _health(stored.book.get((tab, k[1], 4))), label)
    if ok:
        moves = {(tab, r, 4): 0 if (stored.book.get((tab, r, 4)) or 0) >= 1 else 3 for r in rows}
        ok, why = follows_every(stored, targets, [moves], lambda cells: lambda k: _health(cells.get((tab, k[1], 4))), label)
    return ok, why


def _follows(ctx: SampleContext, rule: Rule) -> bool:
    """Whether the table, as seeded, is already in the rule's order."""
    book = seeded(ctx, rule.title)
    tab, start = book.tabs[rule.tab], template_book(ctx, book.id)
    last = max(r for (s, r, c) in start.inputs if s == tab and c == 0)
    return _in_order([[start.get((tab, r, c)) for c, _ in rule.keys] for r in range(1, last + 1)], rule.keys) is None


def _blank(value: Any) -> bool:
    return value in (None, "")


def _compare(a: list[Any], b: list[Any], keys: tuple[tuple[int, bool], ...]) -> int:
    """How two rows, given as their key values, compare by the keys in turn (blanks last in
    either direction, as a spreadsheet sorts them)."""
    for x, y, (_, descending) in zip(a, b, keys):
        if _blank(x) or _blank(y):
            if _blank(x) and _blank(y):
                continue
            return 1 if _blank(x) else -1
        found = compare(x, y)
        if found:
            return -found if descending else found
    return 0


def _in_order(keys: list[list[Any]], spec: tuple[tuple[int, bool], ...]) -> int | None:
    """The first position out of order (each row given as its key values, in `spec`'s order), or None."""
    for i in range(len(keys) - 1):
        if _compare(keys[i], keys[i + 1], spec) > 0:
            return i
    return None


def _sorted_rows(lines: list[list[Any]], keys: tuple[tuple[int, bool], ...], width: int) -> list[list[Any]]:
    """Rows padded to `width` and sorted by the keys (column, descending), blanks last."""
    padded = [list(line) + [""] * (width - len(line)) for line in lines]
    return sorted(padded, key=functools.cmp_to_key(lambda a, b: _compare([a[c] for c, _ in keys], [b[c] for c, _ in keys], keys)))


def _number(shown: Any) -> Any:
    """A formula column's shown value ("$12,500.00", "75%") as the number it is."""
    text = str(shown).strip()
    if not text:
        return ""
    scale = 0.01 if text.endswith("%") else 1
    try:
        return float(text.replace("$", "").replace(",", "").rstrip("%")) * scale
    except ValueError:
        return text
