"""sheets/update-from-crm-v1: one deal's row on the sales forecast is out of date (the setup
makes it stale); bring the field up to date from the CRM, where it is right.

Graded on the final book: the cell holds the CRM's value (a date in any date form, since it is
the serial that is compared), the rest of the pipeline is untouched, and the forecast's own
formulas recalculated from it.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from apps.sheets.a1 import cell_name
from apps.sheets.entry import Entered
from apps.sheets.formulas.values import to_serial
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_cells, allow_discarded, allow_formatting, allow_recalc, allow_touch, final, fresh_book, load, pick, same, seeded, seeded_ids, shown, template_book, wreck,
)

FIELDS = (("Amount", 5), ("Stage", 4), ("Close Date", 6))
OPEN_STAGES = ("Qualification", "Needs Analysis", "Proposal/Price Quote", "Negotiation/Review")


class UpdateFromCrm:
    id = "sheets/update-from-crm-v1"
    apps = ("sheets", "crm")
    difficulty = "medium"
    summary = "Bring a stale deal row of the sales forecast up to date from the CRM."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            book = seeded(ctx, "Sales Forecast")
            stored = load(ctx.db, book.id)
            tab = book.tabs["Pipeline"]
            ids = {v: r for (s, r, c), v in stored.book.inputs.items() if s == tab and c == 0 and r > 0}
            deals = tuple((d.id, ids[d.id]) for d in ctx.company.deals if d.id in ids)
            return (shuffled(self.id, ctx, deals, "deal"), shuffled(self.id, ctx, FIELDS, "field"))

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        book = seeded(ctx, "Sales Forecast")
        (deal_id, row), (field, col) = pick(self.id, ctx, self._axes(ctx))
        deal = next(d for d in ctx.company.deals if d.id == deal_id)
        tab = book.tabs["Pipeline"]
        key = (tab, row, col)
        where = cell_name(row, col)
        truth: Any = {"Amount": float(deal.amount), "Stage": deal.stage, "Close Date": to_serial(deal.close_date)}[field]
        stale: Any = {"Amount": float(round(deal.amount * 0.9 + 500, -2)), "Close Date": to_serial(deal.close_date + timedelta(days=30)),
                      "Stage": next(s for s in OPEN_STAGES if s != deal.stage)}[field]
        typed = {"Amount": str(deal.amount), "Stage": deal.stage, "Close Date": deal.close_date.isoformat()}[field]
        prompt = (f"In the Google Sheet \"{book.title}\", the Pipeline tab's {field} for deal {deal_id} (\"{deal.name}\") is out of "
                  f"date. Look the opportunity up in the CRM (Salesforce), which is right, and update that one cell to match. "
                  "Change nothing else.")

        def setup(db: Any) -> None:
            stored = fresh_book(ctx, db, book.id)
            stored.write({key: Entered(None, stale)})
            stored.save()

        def updated(db: Any) -> CheckResult:
            sb = final(db, book.id)
            got = sb.book.get(key)
            if not same(got, truth):
                return failed(f"{where} ({field} of {deal_id}) is {shown(got)}, the CRM says {shown(truth)}")
            return passed(f"{where} matches the CRM")

        async def oracle(tools: Tools) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=where, data=[[typed]])

        async def alternative(tools: Tools) -> None:
            """Find the row with find_in_spreadsheet, then write a typed value through batch_update."""
            hits = await tools.call("find_in_spreadsheet", spreadsheet_id=book.id, query=deal_id, sheet="Pipeline")
            at = int(hits[0]["cell"][1:]) - 1
            value = {"Amount": {"numberValue": deal.amount}, "Stage": {"stringValue": deal.stage},
                     "Close Date": {"numberValue": truth}}[field]
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"updateCells": {
                "rows": [{"values": [{"userEnteredValue": value}]}], "start": {"sheetId": tab, "rowIndex": at, "columnIndex": col},
                "fields": "userEnteredValue"}}])

        # Neighbouring deals whose value differs: writing the value there really changes them.
        cells = template_book(ctx, book.id)
        last = max(r for (s, r, c) in cells.inputs if s == tab and c == 0)
        nearby = sorted(range(1, last + 1), key=lambda r: (abs(r - row), r))
        below = [cell_name(r, col) for r in nearby if r != row and not same(cells.get((tab, r, col)), truth)][:2]

        async def say(tools: Tools, text: str) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=where, data=[[text]])

        async def wrong(tools: Tools) -> None:  # the value pasted into the neighbouring deals too
            for other in below:
                await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=other, data=[[typed]])

        async def everything(tools: Tools) -> None:  # the whole column set to the value
            data = [[typed]] * 60
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=f"{where[0]}2:{where[0]}61", data=data)

        async def wrong_record(tools: Tools) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=below[0], data=[[typed]])

        async def shotgun(tools: Tools) -> None:
            for cell in (where, *below):
                await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=cell, data=[[typed]])

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"{where} matches the CRM", updated)],
            expected=[*allow_cells(book.id, tab, lambda r, c: (r, c) == (row, col)), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                      *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(alternative,),
            setup=setup,
            setup_in_expected=True,  # the setup rewrites the very cell the task allows (and its recalculation)
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise),
            facts={"spreadsheet": book.id, "deal": deal_id, "field": field, "cell": where},
        )
