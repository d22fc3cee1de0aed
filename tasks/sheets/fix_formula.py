"""sheets/fix-broken-formula-v1: a Summary formula of the sales forecast was broken (a typo
that shows #NAME?, or a range or criterion pointing at the wrong rows); fix it.

Graded on the final book: the cell holds a formula computing what the original formula
computes, and it follows the Pipeline data (a deal changed in memory changes it), so typing
the number in fails and any equivalent formula passes.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from apps.sheets.a1 import cell_name
from apps.sheets.entry import Entered
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_discarded, allow_cells, allow_formatting, allow_recalc, allow_touch, final, follows_every, fresh_book, load, pick, reading_formulas, same, seeded, seeded_ids, shown, template_book, wreck,
)

FUNCTION_TYPOS = {"COUNTIF": "COUNTIFF", "SUMIF": "SUMIFF", "SUM": "SUMM"}
BREAKS = ("typo", "range")


@dataclass(frozen=True, slots=True)
class Target:
    row: int
    col: int
    formula: str  # as seeded (right)
    label: str  # "the Amount of Closed Won deals"


def broken(formula: str, how: str, row: int) -> str:
    """The formula with a typo in its function name, or pointing at the wrong rows: a total
    that stops one row short, a criterion read from the next row."""
    if how == "typo":
        name = re.match(r"=([A-Z]+)\(", formula).group(1)  # type: ignore[union-attr]
        return formula.replace(f"={name}(", f"={FUNCTION_TYPOS.get(name, name + 'X')}(", 1)
    if formula.startswith("=SUM("):
        return re.sub(r"([A-Z])(\d+)\)$", lambda m: f"{m.group(1)}{int(m.group(2)) - 1})", formula)
    return formula.replace(f",A{row + 1},", f",A{row + 2},", 1)


class FixBrokenFormula:
    id = "sheets/fix-broken-formula-v1"
    apps = ("sheets",)
    difficulty = "easy"
    summary = "Find and fix a broken formula on the sales forecast's Summary tab."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            book = seeded(ctx, "Sales Forecast")
            stored = load(ctx.db, book.id)
            tab = book.tabs["Summary"]
            headers = {c: stored.book.get((tab, 0, c)) for c in (1, 2, 3)}
            targets = []
            for (s, r, c), text in sorted(stored.book.formulas.items()):
                if s != tab or c not in headers or r == 0 or stored.book.get((tab, r, 0)) in (None, "Owner"):
                    continue
                name = stored.book.get((tab, r, 0))
                if not isinstance(name, str) or r > 12:  # the stage block and its total
                    continue
                label = f"the total {headers[c]}" if name == "Total" else f"the {headers[c]} of {name} deals"
                right = stored.book.get((s, r, c))
                if not right or not all(_differs(stored, tab, broken(text, how, r), right) for how in BREAKS):
                    continue  # a break that leaves the number right would be no task
                targets.append(Target(r, c, text, label))
            return (shuffled(self.id, ctx, targets, "cell"), shuffled(self.id, ctx, BREAKS, "how"))

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        book = seeded(ctx, "Sales Forecast")
        target, how = pick(self.id, ctx, self._axes(ctx))
        tab, pipeline, stages = book.tabs["Summary"], book.tabs["Pipeline"], book.tabs["Stages"]
        key = (tab, target.row, target.col)
        where = cell_name(target.row, target.col)
        bad = broken(target.formula, how, target.row)
        symptom = "shows an error" if how == "typo" else "gives the wrong number"
        prompt = (f"In the Google Sheet \"{book.title}\", the Summary tab's cell {where} ({target.label}) {symptom}. "
                  "Fix its formula so it computes that from the Pipeline tab again. Change nothing else.")

        def setup(db: Any) -> None:
            stored = fresh_book(ctx, db, book.id)
            stored.write({key: Entered(bad, None)})
            stored.save()

        def expected(sb: Any) -> Any:
            """The seeded formula, evaluated on the same data in an unused cell (of a stored
            book, or of a check's engine book)."""
            cells, scratch = getattr(sb, "book", sb), (tab, 900, 25)
            cells.set_formula(scratch, target.formula)
            cells.recalc({scratch}, include_self=True)
            return cells.get(scratch)

        def on_pipeline(_key: Any) -> list[list[Any]]:  # "computes that from the Pipeline tab": it reads the deals
            return [[k for k in template_book(ctx, book.id).inputs if k[0] == pipeline]]

        def fixed_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            ok, why = reading_formulas(sb, [key], on_pipeline, where)
            if not ok:
                return failed(why)
            got = sb.book.get(key)
            want = expected(sb)
            return passed(f"{where} computes {shown(got)} again") if same(got, want) else failed(f"{where} computes {shown(got)}, expected {shown(want)}")

        def live_check(db: Any) -> CheckResult:
            """Two rounds on the Pipeline data, each on its own copy: a deal from another stage (one
            below the stage's last deal where there is one) moves into this row's stage (its amount
            and the stage's probability raised), which
            moves the row's count, amount and weighted and every total of amounts; and one deal
            is removed outright (its whole row blanked), which moves the total count."""
            sb = final(db, book.id)
            ok, why = reading_formulas(sb, [key], on_pipeline, where)
            if not ok:
                return failed(why)
            cells = sb.book
            deals = [r for (s, r, c) in cells.inputs if s == pipeline and c == 0 and r > 0]
            stage = cells.get((tab, target.row, 0))
            stage = stage if isinstance(stage, str) and stage != "Total" else None
            weight = lambda r: cells.get((pipeline, r, 8)) if isinstance(cells.get((pipeline, r, 8)), (int, float)) else 0  # noqa: E731
            # The deal that moves in sits below the stage's last deal where the table has one (below every deal with a weight,
            # for a total): a range cut off at the stage's last row gives today's number, and must not follow that.
            others = [r for r in deals if cells.get((pipeline, r, 4)) != stage]
            below = max((r for r in deals if cells.get((pipeline, r, 4)) == stage or (stage is None and weight(r))), default=0)
            later = [r for r in others if r >= below and (stage is not None or weight(r))]
            mover = max(later or others, key=lambda r: (weight(r), -r), default=None)
            moved = {} if mover is None else {(pipeline, mover, 5): float(cells.get((pipeline, mover, 5)) or 0) + 12_345.0}
            if moved and stage is not None:
                moved[(pipeline, mover, 4)] = stage
                probability = next(((s, r) for (s, r, c), v in cells.inputs.items() if s == stages and c == 0 and v == stage), None)
                if probability is not None and isinstance(cells.get((*probability, 1)), (int, float)):
                    moved[(*probability, 1)] = cells.get((*probability, 1)) + 0.05
            gone = max((r for r in deals if stage is None or cells.get((pipeline, r, 4)) == stage), key=lambda r: (weight(r), -r), default=None)
            rounds = [moved] + ([{(pipeline, gone, c): None for c in range(9)}] if gone is not None else [])

            def value_in(cells: Any) -> Any:
                value = expected(cells)
                return lambda _key: value

            ok, why = follows_every(sb, [key], rounds, value_in, where)
            return passed(f"{where} follows the Pipeline data") if ok else failed(why)

        async def oracle(tools: Tools) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Summary", range=where, data=[[target.formula]])

        async def alternative(tools: Tools) -> None:
            """Find the spreadsheet, read the neighbours' formulas, write an equivalent one with relative references."""
            sid = (await tools.call("search_spreadsheets", query="Sales Forecast"))[0]["id"]
            await tools.call("get_sheet_formulas", spreadsheet_id=sid, sheet="Summary", range="A1:D12")
            await tools.call("batch_update", spreadsheet_id=sid, requests=[{"updateCells": {
                "rows": [{"values": [{"userEnteredValue": {"formulaValue": target.formula.replace("$", "")}}]}],
                "start": {"sheetId": tab, "rowIndex": target.row, "columnIndex": target.col}, "fields": "userEnteredValue"}}])

        async def say(tools: Tools, text: str) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Summary", range=where, data=[[text]])

        async def wrong(tools: Tools) -> None:  # scratch attempts left in the spare column beside the table
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Summary", range="E2:E12", data=[[bad]] * 11)

        async def typed(tools: Tools) -> None:  # the right number, typed in
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Summary", range=where, data=[[expected_value]])

        other_row = target.row + 1 if target.row + 1 <= 11 else target.row - 1
        other = cell_name(other_row, target.col)

        async def wrong_record(tools: Tools) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Summary", range=other, data=[[target.formula]])

        async def shotgun(tools: Tools) -> None:
            column = cell_name(1, target.col)[:-1]
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Summary", range=f"{column}2:{column}12",
                             data=[[target.formula]] * 11)

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        expected_value = template_book(ctx, book.id).get(key)  # the seeded (right) value, before setup breaks it
        return TaskInstance(
            prompt=prompt,
            # The live check weighs most: the right number behind a formula that only names the data
            # (`=1071360+0*Pipeline!F2`) must stay below the pass line.
            checks=[Check(f"{where} computes {target.label}", fixed_check), Check(f"{where} follows the Pipeline data", live_check, 2.0)],
            expected=[*allow_cells(book.id, tab, lambda r, c: (r, c) == (target.row, target.col)), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                      *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(alternative,),
            setup=setup,
            setup_in_expected=True,  # the setup rewrites the very cell the task allows (and its recalculation)
            moves=Moves(say=say, wrong=wrong, everything=typed, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise),
            facts={"spreadsheet": book.id, "cell": where, "broken": bad, "seeded": target.formula},
        )


def _differs(stored: Any, tab: int, formula: str, right: Any) -> bool:
    scratch = (tab, 900, 25)
    stored.write({scratch: Entered(formula, None)})
    value = stored.book.get(scratch)
    stored.write({scratch: Entered(None, None)})
    return not same(value, right)
