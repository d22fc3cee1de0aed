"""sheets/fill-formula-column-v1: add a computed column to the sales pipeline with formulas.

Graded on the final book: the header, every row's value, that every row holds a formula reading
its own row's inputs, and that the formulas follow them (every row's inputs changed in memory,
each so its value must move, and the whole column recomputes), so typed-in numbers and constant
formulas such as `="Q4"` fail in any row and any equivalent formula passes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from apps.sheets.a1 import column_letter
from apps.sheets.formulas.values import from_serial, to_serial
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_discarded, allow_cells, allow_formatting, allow_recalc, allow_touch, final, follows_every, formula_cells, pick, reading_formulas, same, seeded, seeded_ids, template_book, wreck,
)

AMOUNT, STAGE, CLOSE, PROBABILITY, WEIGHTED = 5, 4, 6, 7, 8  # Pipeline columns F, E, G, H, I


@dataclass(frozen=True, slots=True)
class Computation:
    header: str
    ask: str  # how the prompt words it
    value: Callable[[dict[int, Any]], Any]  # the expected value from the row's cells
    oracle: str  # formula templates, {n} = the row number
    alternative: str
    wrong: str
    reads: tuple[int, ...]  # the typed columns of its own row a formula must read (directly or through H/I)
    perturb: Callable[[dict[int, Any]], dict[int, Any]]  # new inputs that move the row's expected value


def _quarter(serial: float) -> str:
    return f"Q{(from_serial(serial).month + 2) // 3}"


def _later(months: int) -> Callable[[dict[int, Any]], dict[int, Any]]:
    """The close date moved `months` later (to the 1st): a month later moves the month, three
    later the quarter, in every row."""
    def perturb(cells: dict[int, Any]) -> dict[int, Any]:
        day = from_serial(cells[CLOSE])
        index = day.year * 12 + day.month - 1 + months
        return {CLOSE: to_serial(day.replace(year=index // 12, month=index % 12 + 1, day=1))}

    return perturb


def _remainder_moves(cells: dict[int, Any]) -> dict[int, Any]:
    """A won deal counts in full (probability 100%), so its remainder is 0 whatever its amount:
    it also leaves Closed Won."""
    return {AMOUNT: cells[AMOUNT] * 2 + 100, **({STAGE: "Prospecting"} if cells[STAGE] == "Closed Won" else {})}


COMPUTATIONS = (
    Computation("Amount (k)", "the deal amount in thousands (Amount divided by 1000)", lambda c: c[AMOUNT] / 1000,
                "=F{n}/1000", "=F{n}*0.001", "=F{n}/100", (AMOUNT,), lambda c: {AMOUNT: c[AMOUNT] + 5000}),
    Computation("Unweighted remainder", "the part of the amount not counted in Weighted (Amount minus Weighted)",
                lambda c: c[AMOUNT] - c[WEIGHTED], "=F{n}-I{n}", "=F{n}*(1-H{n})", "=I{n}-F{n}", (AMOUNT, STAGE), _remainder_moves),
    Computation("Close month", "the month number (1-12) of the Close Date", lambda c: float(from_serial(c[CLOSE]).month),
                "=MONTH(G{n})", '=VALUE(TEXT(G{n},"m"))', "=DAY(G{n})", (CLOSE,), _later(1)),
    Computation("Won?", 'whether the deal is won: "Yes" when Stage is Closed Won, otherwise "No"',
                lambda c: "Yes" if c[STAGE] == "Closed Won" else "No", '=IF(E{n}="Closed Won","Yes","No")',
                '=IFS(E{n}="Closed Won","Yes",TRUE,"No")', '=IF(E{n}="Closed Lost","Yes","No")', (STAGE,),
                lambda c: {STAGE: "Prospecting" if c[STAGE] == "Closed Won" else "Closed Won"}),
    Computation("Commission", "the 8% commission on won deals (8% of Amount when Stage is Closed Won, else 0)",
                lambda c: c[AMOUNT] * 0.08 if c[STAGE] == "Closed Won" else 0.0, '=IF(E{n}="Closed Won",F{n}*8%,0)',
                '=(E{n}="Closed Won")*F{n}*0.08', "=F{n}*0.08", (STAGE, AMOUNT), lambda c: {STAGE: "Closed Won", AMOUNT: c[AMOUNT] + 1000}),
    Computation("Close quarter", 'the calendar quarter of the Close Date, written "Q1" to "Q4"', lambda c: _quarter(c[CLOSE]),
                '="Q"&ROUNDUP(MONTH(G{n})/3,0)', '="Q"&INT((MONTH(G{n})+2)/3)', '="Q"&MONTH(G{n})', (CLOSE,), _later(3)),
)
TARGETS = (9, 10, 11)  # columns J, K, L


class FillFormulaColumn:
    id = "sheets/fill-formula-column-v1"
    apps = ("sheets",)
    difficulty = "medium"
    summary = "Add a computed column to the sales pipeline, with a formula in every row."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        return cached(ctx, self.id, lambda: (shuffled(self.id, ctx, COMPUTATIONS, "what"), shuffled(self.id, ctx, TARGETS, "where")))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        book = seeded(ctx, "Sales Forecast")
        what, col = pick(self.id, ctx, self._axes(ctx))
        tab = book.tabs["Pipeline"]
        start = template_book(ctx, book.id)
        last = max(r for (s, r, c) in start.inputs if s == tab and c == 0)  # the last deal's row (0-based)
        rows = range(1, last + 1)
        letter = column_letter(col)
        prompt = (f"In the Google Sheet \"{book.title}\", on the Pipeline tab, fill column {letter} with {what.ask} for every deal: "
                  f"put the header \"{what.header}\" in {letter}1 and a formula in each deal row ({letter}2:{letter}{last + 1}), "
                  "so the column stays right when the deal data changes. Change nothing else.")

        def cells_of(sb: Any, r: int) -> dict[int, Any]:
            cells = getattr(sb, "book", sb)  # a stored book, or the template's cells
            return {c: cells.get((tab, r, c)) for c in (AMOUNT, STAGE, CLOSE, PROBABILITY, WEIGHTED)}

        targets = [(tab, r, col) for r in rows]

        def needs(key: Any) -> list[list[Any]]:  # each row's formula reads that row's own inputs
            return [[(tab, key[1], c)] for c in what.reads]

        def column_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            header = sb.book.get((tab, 0, col))
            if not same(header, what.header):
                return failed(f"{letter}1 is {header!r}, expected the header {what.header!r}")
            ok, why = reading_formulas(sb, targets, needs, f"column {letter}")
            if ok:
                ok, why = formula_cells(sb, targets, lambda k: what.value(cells_of(sb, k[1])), f"column {letter}")
            return passed(f"column {letter} computes {what.header} in every row") if ok else failed(why)

        def live_check(db: Any) -> CheckResult:
            """Every deal's inputs changed at once, each so that its row's value must move."""
            sb = final(db, book.id)
            ok, why = reading_formulas(sb, targets, needs, f"column {letter}")
            if ok:
                changes = {(tab, r, c): v for r in rows for c, v in what.perturb(cells_of(sb, r)).items()}
                ok, why = follows_every(sb, targets, [changes], lambda cells: lambda k: what.value(cells_of(cells, k[1])), f"column {letter}")
            return passed("the formulas follow the deal data") if ok else failed(why)

        def fill(template: str, column: int = col) -> list[list[Any]]:
            return [[what.header], *[[template.format(n=r + 1)] for r in rows]]

        span = f"{letter}1:{letter}{last + 1}"

        async def oracle(tools: Tools) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=span, data=fill(what.oracle))

        async def alternative(tools: Tools) -> None:
            """Another formula and another tool: the header, then the formulas as one batch."""
            found = await tools.call("search_spreadsheets", query="Sales Forecast")
            sid = found[0]["id"]
            await tools.call("batch_update_cells", spreadsheet_id=sid, sheet="Pipeline",
                             ranges={f"{letter}1": [[what.header]], f"{letter}2:{letter}{last + 1}": fill(what.alternative)[1:]})

        async def say(tools: Tools, text: str) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=f"{letter}1", data=[[text]])

        next_letter = column_letter(col + 1)

        async def wrong(tools: Tools) -> None:  # a second candidate column beside the right one
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=f"{next_letter}1:{next_letter}{last + 1}",
                             data=fill(what.wrong))

        async def typed(tools: Tools) -> None:  # the right numbers, typed in: no formulas
            values = [[what.header], *[[what.value(cells_of(start, r))] for r in rows]]
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=span, data=values)

        async def wrong_record(tools: Tools) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=f"{next_letter}1:{next_letter}{last + 1}",
                             data=fill(what.oracle))

        async def shotgun(tools: Tools) -> None:
            for other in (9, 10, 11, 12):
                name = column_letter(other)
                await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range=f"{name}1:{name}{last + 1}", data=fill(what.oracle))

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        return TaskInstance(
            prompt=prompt,
            # The live check weighs most: a formula naming its inputs but ignoring them (`=0*G2&"Q4"`) gives the
            # right values today and must still stay below the pass line.
            checks=[Check(f"column {letter} holds {what.header} formulas", column_check),
                    Check("the formulas follow the deal data", live_check, 2.0)],
            expected=[*allow_cells(book.id, tab, lambda r, c: c == col), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                      *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(alternative,),
            moves=Moves(say=say, wrong=wrong, everything=typed, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise),
            facts={"spreadsheet": book.id, "column": letter, "computation": what.header},
        )
