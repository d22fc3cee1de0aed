"""sheets/reconcile-tabs-v1: an Invoices tab (added by the setup) bills won deals, a few at
the wrong amount; flag each row by comparing it with the Pipeline tab, with formulas.

Graded on the final book: every invoice row's flag is right, every flag is a formula reading
its bill and its deal's amount, and every flag follows both (in memory, every bill moved so its
flag flips; then every deal amount; then the deals re-ordered on the Pipeline, as a sort leaves
them), so typed-in or constant flags fail, and so do flags pointing at the row each deal holds
today instead of looking the Deal ID up.
The invoice rows are shuffled, so a formula that compares row by row cannot pass.
"""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select

from apps.sheets.models import Sheet
from apps.sheets.service import SheetsService
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_discarded, allow_formatting, allow_recalc, allow_touch, final, follows_every, fresh_book, hidden_by, load, pick, reading_formulas, same, seeded, seeded_ids, tab_named, template_book, wreck,
)

WORDS = (("MISMATCH", "OK"), ("Check", "Fine"), ("Differs", "Matches"))
TITLE = "Invoices"


class ReconcileTabs:
    id = "sheets/reconcile-tabs-v1"
    apps = ("sheets",)
    difficulty = "hard"
    summary = "Flag the invoice rows whose billed amount differs from the deal amount on another tab."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            book = seeded(ctx, "Sales Forecast")
            stored = load(ctx.db, book.id)
            tab = book.tabs["Pipeline"]
            won = tuple(r for (s, r, c), v in sorted(stored.book.inputs.items()) if s == tab and c == 4 and v == "Closed Won")
            seeds = tuple(range(6))  # which rows are mis-billed and how the rows are shuffled
            return (shuffled(self.id, ctx, WORDS, "words"), shuffled(self.id, ctx, seeds, "layout"), (won,))

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        book = seeded(ctx, "Sales Forecast")
        (bad_word, ok_word), layout, won = pick(self.id, ctx, self._axes(ctx))
        pipeline = book.tabs["Pipeline"]
        start = template_book(ctx, book.id)
        picker = random.Random(f"{self.id}|{ctx.company.seed}|{layout}")
        rows = list(won)
        picker.shuffle(rows)
        wrong_rows = set(rows[: max(2, len(rows) // 5)])
        invoices = []
        for r in rows:
            deal, amount = start.get((pipeline, r, 0)), float(start.get((pipeline, r, 5)))
            billed = amount + picker.choice((-1, 1)) * picker.choice((100.0, 1500.0, 20_000.0)) if r in wrong_rows else amount
            invoices.append([deal, billed])
        last_deal = max(r for (s, r, c) in start.inputs if s == pipeline and c == 0) + 1
        n = len(invoices)
        prompt = (f"In the Google Sheet \"{book.title}\", the {TITLE} tab lists billed amounts by Deal ID. In column C put the header "
                  f"\"Status\" and, for every invoice row, a formula that shows \"{bad_word}\" when the billed amount differs from that deal's "
                  f"Amount on the Pipeline tab and \"{ok_word}\" when they match. Change nothing else.")

        def setup(db: Any) -> None:
            service = SheetsService(db)
            service.adopt(fresh_book(ctx, db, book.id))  # the new tab and its rows go through one book, not read again
            service.spreadsheets_batch_update(book.id, [{"addSheet": {"properties": {"title": TITLE}}}])
            service.values_update(book.id, f"{TITLE}!A1:B{n + 1}", [["Deal ID", "Billed"], *invoices], "RAW")

        def expected_flag(sb: Any, sid: int, r: int) -> str:
            cells = getattr(sb, "book", sb)  # a stored book, or its engine book
            deal, billed = cells.get((sid, r, 0)), cells.get((sid, r, 1))
            amount = next((cells.get((pipeline, pr, 5)) for pr in range(1, last_deal) if cells.get((pipeline, pr, 0)) == deal), None)
            return ok_word if same(billed, amount) else bad_word

        def flags_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            sid = tab_named(sb, TITLE)
            if sid is None:
                return failed(f"the {TITLE} tab is gone")
            if not same(sb.book.get((sid, 0, 2)), "Status"):
                return failed(f"C1 is {sb.book.get((sid, 0, 2))!r}, expected 'Status'")
            for r in range(1, n + 1):
                got, want = sb.book.get((sid, r, 2)), expected_flag(sb, sid, r)
                if not same(got, want):
                    return failed(f"row {r + 1} ({sb.book.get((sid, r, 0))}) is flagged {got!r}, expected {want!r}")
            return passed(f"all {n} invoices flagged right")

        def deal_rows(sb: Any, sid: int) -> dict[int, int]:
            """Invoice row → the Pipeline row of its deal."""
            where = {sb.book.get((pipeline, pr, 0)): pr for pr in range(1, last_deal)}
            return {r: where[sb.book.get((sid, r, 0))] for r in range(1, n + 1) if sb.book.get((sid, r, 0)) in where}

        def live_check(db: Any) -> CheckResult:
            """Each flag reads its bill and its deal's amount, and flips when either side moves:
            one round changes every bill, another every deal amount (a flag comparing the bill
            with a number typed into the formula fails the second); and a third re-orders the
            deals, so a flag must find its deal by Deal ID, not by the row it sits on today."""
            sb = final(db, book.id)
            sid = tab_named(sb, TITLE)
            if sid is None:
                return failed(f"the {TITLE} tab is gone")
            targets = [(sid, r, 2) for r in range(1, n + 1)]
            deals = deal_rows(sb, sid)
            ok, why = reading_formulas(sb, targets, lambda k: [[(sid, k[1], 1)], [(pipeline, deals[k[1]], 5)] if k[1] in deals else []],
                                       f"{TITLE} column C")
            if not ok:
                return failed(why)
            bills, amounts = {}, {}
            for r, pr in deals.items():  # every flag flips: a matching pair is pulled apart, a differing one made equal
                billed, amount = sb.book.get((sid, r, 1)), sb.book.get((pipeline, pr, 5))
                matches = same(billed, amount)
                bills[(sid, r, 1)] = float(billed or 0) + 7.0 if matches else amount
                amounts[(pipeline, pr, 5)] = float(amount or 0) + 7.0 if matches else billed
            # The deals re-ordered on the Pipeline (as a sort leaves them): each keeps its amount under its Deal ID, so a flag
            # that looks its deal up follows, and one pointing at the row its deal sits on today (=B2=Pipeline!F17) does not.
            moved_rows = sorted(set(deals.values()))
            reordered = {(pipeline, pr, c): sb.book.get((pipeline, moved_rows[(i + 1) % len(moved_rows)], c))
                         for i, pr in enumerate(moved_rows) for c in range(7)} if len(moved_rows) > 1 else {}
            rounds = [bills, amounts, *([reordered] if reordered else [])]
            ok, why = follows_every(sb, targets, rounds, lambda cells: lambda k: expected_flag(cells, sid, k[1]), TITLE)
            return passed("the flags follow the amounts") if ok else failed(why)

        lookup = f"Pipeline!$A$2:$F${last_deal}"

        def column(template: str) -> list[list[Any]]:
            return [["Status"], *[[template.format(n=r + 2)] for r in range(n)]]

        oracle_formula = f'=IF(B{{n}}=VLOOKUP(A{{n}},{lookup},6,FALSE),"{ok_word}","{bad_word}")'
        alt_formula = (f'=IF(INDEX(Pipeline!$F$2:$F${last_deal},MATCH(A{{n}},Pipeline!$A$2:$A${last_deal},0))<>B{{n}},'
                       f'"{bad_word}","{ok_word}")')

        async def oracle(tools: Tools) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=TITLE, range=f"C1:C{n + 1}", data=column(oracle_formula))

        async def alternative(tools: Tools) -> None:
            """Read the tab first, then INDEX/MATCH with the test the other way round."""
            await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet=TITLE)
            await tools.call("batch_update_cells", spreadsheet_id=book.id, sheet=TITLE, ranges={f"C1:C{n + 1}": column(alt_formula)})

        async def say(tools: Tools, text: str) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=TITLE, range="C1", data=[[text]])

        async def wrong(tools: Tools) -> None:  # a draft column of row-by-row comparisons left beside the answer
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=TITLE, range=f"D1:D{n + 1}",
                             data=column(f'=IF(B{{n}}=Pipeline!F{{n}},"{ok_word}","{bad_word}")'))

        async def typed(tools: Tools) -> None:  # the right flags, typed in
            flags = [["Status"]]
            for deal, billed in invoices:
                amount = next(start.get((pipeline, pr, 5)) for pr in range(1, last_deal) if start.get((pipeline, pr, 0)) == deal)
                flags.append([ok_word if same(billed, amount) else bad_word])
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=TITLE, range=f"C1:C{n + 1}", data=flags)

        async def wrong_record(tools: Tools) -> None:  # compares row by row instead of by Deal ID
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=TITLE, range=f"C1:C{n + 1}",
                             data=column(f'=IF(B{{n}}=Pipeline!F{{n}},"{ok_word}","{bad_word}")'))

        async def shotgun(tools: Tools) -> None:
            for letter in "CDEF":
                await tools.call("update_cells", spreadsheet_id=book.id, sheet=TITLE, range=f"{letter}1:{letter}{n + 1}", data=column(oracle_formula))

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        return TaskInstance(
            prompt=prompt,
            checks=[Check("every invoice is flagged right", flags_check), Check("the flags are live formulas", live_check, 2.0)],
            expected=[*_allow_status_column(book.id), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                      *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(alternative,),
            setup=setup,
            moves=Moves(say=say, wrong=wrong, everything=typed, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise),
            facts={"spreadsheet": book.id, "mis-billed": sorted(start.get((pipeline, r, 0)) for r in wrong_rows)},
        )


def _allow_status_column(spreadsheet_id: str) -> list[Expect]:
    def invoices_id(db: Any) -> int | None:
        return db.scalar(select(Sheet.sheet_id).where(Sheet.spreadsheet_id == spreadsheet_id, Sheet.title == TITLE))

    return [Expect("sheets_cells", "any", lambda c, sid: c.row["spreadsheet_id"] == spreadsheet_id and c.row["sheet_id"] == sid and c.row["col"] == 2
                   and not hidden_by(c),
                   given=invoices_id)]

