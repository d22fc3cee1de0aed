"""sheets/sort-by-rule-v1: sort a table of a seeded spreadsheet by one column, keeping every
row whole and every formula reading its own row.

Graded on the final book: the table holds the same rows as before (as tuples of its typed
columns), in the asked order (ties in any order), and every formula column of the table (the
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
    allow_discarded, TABLE_FORMULAS, allow_cells, allow_formatting, allow_recalc, allow_touch, final, keeps_formulas, pick, seeded, seeded_ids, template_book, wreck,
)


@dataclass(frozen=True, slots=True)
class Rule:
    title: str  # the spreadsheet's title prefix
    tab: str
    width: int  # columns in the table
    literal: tuple[int, ...]  # typed-in columns (a row is these values)
    formula: int  # the last formula column (named in the check)
    by: int  # the column to sort by
    header: str
    descending: bool


RULES = (
    Rule("Sales Forecast", "Pipeline", 9, (0, 1, 2, 3, 4, 5, 6), 8, 5, "Amount", True),
    Rule("Sales Forecast", "Pipeline", 9, (0, 1, 2, 3, 4, 5, 6), 8, 6, "Close Date", False),
    Rule("Sales Forecast", "Pipeline", 9, (0, 1, 2, 3, 4, 5, 6), 8, 1, "Account", False),
    Rule("Support Metrics", "Tickets", 9, (0, 1, 2, 3, 4, 5, 6, 7), 8, 7, "Created", True),
    Rule("Support Metrics", "Tickets", 9, (0, 1, 2, 3, 4, 5, 6, 7), 8, 5, "Customer", False),
)


class SortByRule:
    id = "sheets/sort-by-rule-v1"
    apps = ("sheets",)
    difficulty = "easy"
    summary = "Sort a spreadsheet table by a column, keeping rows whole and formulas working."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            for title in {r.title for r in RULES}:  # read every table a variant may sort, once per template
                template_book(ctx, seeded(ctx, title).id)
            return (shuffled(self.id, ctx, RULES, "rule"),)

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
        order = "largest first" if rule.descending else ("A to Z" if rule.by in (1, 5) else "earliest first")
        prompt = (f"In the Google Sheet \"{book.title}\", sort the {rule.tab} tab's rows (everything below the header row) by "
                  f"{rule.header}, {order}. Keep each row together and its formulas working. Change nothing else.")
        formula_letters = ", ".join(column_letter(c) for c in TABLE_FORMULAS[rule.tab])

        def sorted_check(db: Any) -> CheckResult:
            sb = final(db, book.id).book
            now = [_row(sb, tab, r, rule) for r in rows]
            if sorted(now) != before:
                return failed(f"the {rule.tab} rows are not the same rows as before (a row was split, lost or changed)")
            keys = [sb.get((tab, r, rule.by)) for r in rows]
            wrong = _in_order(keys, rule.descending)
            if wrong is not None:
                return failed(f"rows {wrong + 2} and {wrong + 3} are out of order by {rule.header}")
            return passed(f"{len(keys)} rows sorted by {rule.header}")

        def formulas_check(db: Any) -> CheckResult:
            if not sorted_check(db).passed:
                return failed("the rows are not sorted as asked, so their formulas are not checked")
            ok, why = keeps_formulas(final(db, book.id), book.tabs, rule.tab, rows)
            return passed(f"columns {formula_letters} still compute from each row") if ok else failed(why)

        span = {"sheetId": tab, "startRowIndex": 1, "endRowIndex": last + 1, "startColumnIndex": 0, "endColumnIndex": rule.width}

        async def sort(tools: Tools, by: int, descending: bool, sheet_id: int = tab, width: int = rule.width, end: int = last + 1) -> None:
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"sortRange": {
                "range": {**span, "sheetId": sheet_id, "endColumnIndex": width, "endRowIndex": end},
                "sortSpecs": [{"dimensionIndex": by, "sortOrder": "DESCENDING" if descending else "ASCENDING"}]}}])

        async def oracle(tools: Tools) -> None:
            await sort(tools, rule.by, rule.descending)

        async def rewrite(tools: Tools) -> None:
            """Read the typed columns, sort them in the client, write them back; the formulas stay put and follow."""
            data = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet=rule.tab,
                                    range=f"A2:{column_letter(max(rule.literal))}{last + 1}")
            raw = await tools.call("get_sheet_formulas", spreadsheet_id=book.id, sheet=rule.tab,
                                   range=f"A2:{column_letter(max(rule.literal))}{last + 1}")
            del data
            ordered = _sorted_rows(raw, rule.by, rule.descending, len(rule.literal))
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(max(rule.literal))}{last + 1}",
                             data=ordered)

        other = next(t for t in book.tabs if t != rule.tab)

        async def say(tools: Tools, text: str) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=rule.tab, range="A2", data=[[text]])

        async def wrong(tools: Tools) -> None:  # sorts another tab of the spreadsheet too
            await sort(tools, 0, True, sheet_id=book.tabs[other], width=2, end=8)

        async def typed(tools: Tools) -> None:  # the sorted values pasted over the table, formulas included
            shown = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(rule.width - 1)}{last + 1}")
            ordered = _sorted_rows(shown["valueRanges"][0]["values"], rule.by, rule.descending, rule.width)
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(rule.width - 1)}{last + 1}",
                             data=ordered)

        async def wrong_record(tools: Tools) -> None:
            await sort(tools, 0 if rule.by != 0 else 2, not rule.descending)

        async def shotgun(tools: Tools) -> None:
            await sort(tools, rule.by, rule.descending)
            for title, sid in book.tabs.items():
                if title != rule.tab:
                    await sort(tools, 0, rule.descending, sheet_id=sid, width=2, end=8)

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"the {rule.tab} rows are sorted by {rule.header}", sorted_check),
                    Check(f"sorted, and columns {formula_letters} still follow each row", formulas_check, 2.0)],
            expected=[*allow_cells(book.id, tab, lambda r, c: 1 <= r <= last and c < rule.width), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                      *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(rewrite,),
            moves=Moves(say=say, wrong=wrong, everything=typed, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise),
            facts={"spreadsheet": book.id, "tab": rule.tab, "by": rule.header, "descending": rule.descending},
        )


def _row(cells: Any, tab: int, r: int, rule: Rule) -> tuple:
    return tuple(repr(cells.get((tab, r, c))) for c in rule.literal)


def _in_order(keys: list[Any], descending: bool) -> int | None:
    """The first position out of order (blanks go last, as a spreadsheet sorts them), or None."""
    for i in range(len(keys) - 1):
        a, b = keys[i], keys[i + 1]
        if a in (None, ""):
            if b not in (None, ""):
                return i
            continue
        if b in (None, ""):
            continue
        c = compare(a, b)
        if (c < 0 if descending else c > 0):
            return i
    return None


def _sorted_rows(lines: list[list[Any]], by: int, descending: bool, width: int) -> list[list[Any]]:
    """Rows padded to `width` and sorted by one column, blanks last."""
    padded = [list(line) + [""] * (width - len(line)) for line in lines]
    filled = [line for line in padded if line[by] not in (None, "")]
    blank = [line for line in padded if line[by] in (None, "")]
    filled.sort(key=functools.cmp_to_key(lambda a, b: compare(a[by], b[by])), reverse=descending)
    return filled + blank

