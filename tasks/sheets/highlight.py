"""sheets/highlight-by-rule-v1: highlight the deals of the sales pipeline that match a rule (an
amount over a line, a close date before a day, a stage, an owner, still open and closing soon) in a colour: a fill,
or the text coloured, across the deal's row of the table (columns A to I, as the prompt says).

Graded on the Pipeline tab as the grid shows it now: each cell's own style with the first
conditional format rule that holds there over it (tasks/sheets/_presentation.py). Every cell
A:I of every matching deal shows a fill (or text colour, as asked) of the asked colour family,
readable; no other deal row, and none of the few blank rows below the table, shows a fill or a
coloured text in any column; the header does not show the asked colour. A conditional format
rule and fills set by hand both pass: the prompt asks for the rows to look highlighted.

"So it stays up to date" (the live variant) asks for what only a rule gives: highlighting that
follows the data. That is graded by changing the data, not by looking for a rule: the deals'
rows are changed in a private copy of the final book (never saved), every other one in one
round and the rest in another, each so that it flips (a matching deal stops matching, any other
starts to), and the grid is worked out again from the tab's rules; exactly the deals that match
now must show the colour, each round. A rule over the wrong rows
or the wrong column, one listing today's rows (=OR(ROW()=3,…)), or fills set by hand (they stay
where they were) fail it, and any rule that is right for the data passes, whatever its formula
or its built-in condition. Changing data in a copy rather than reading the rule's condition
means no rule is judged by its wording: one that would pass a reviewer's test of the sheet
passes this one. New rows are not asked for (the prompt says "when the deals change"): a rule
over exactly the table's rows is right. "Due to close before <day>, N days from today" names the
day, so a rule with that day and one with TODAY()+N both pass (the rounds move close dates, not
the clock).
"""

from __future__ import annotations

import math
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
    allow_discarded, allow_formatting, allow_recalc, allow_touch, final, pick, seeded, seeded_ids, tab_named, template_book, wreck,
)
from tasks.sheets._presentation import colour, family, hex_of, hidden_rows, looks, unreadable
from tasks.sheets._rules import norm

OWNER, STAGE, AMOUNT, CLOSE = 3, 4, 5, 6  # Pipeline columns D, E, F, G
WIDTH = 9  # the table's columns, A to I
BELOW = 3  # blank rows under the table that must stay unhighlighted (a rule true on blanks shows there)
CLOSED = ("closed won", "closed lost")
SOON = (30, 60, 90)  # days ahead: "still open and due to close before <today + days>"


@dataclass(frozen=True, slots=True)
class Condition:
    kind: str  # amount, close, stage, owner, soon (still open, closing before a day)
    value: Any  # the line (a number, a date serial) or the text
    words: str  # the prompt's clause after "the deals "
    other: str = ""  # stage, owner: another value of the column (where a flipped row goes); soon: the days ahead

    def holds(self, row: dict[int, Any]) -> bool:
        """On a row's values (engine values or text as a reader copies it: `norm` reads both)."""
        got = norm(row.get({"amount": AMOUNT, "close": CLOSE, "stage": STAGE, "owner": OWNER}.get(self.kind, CLOSE)))
        if self.kind == "amount":
            return isinstance(got, float) and got > self.value
        if self.kind == "close":
            return isinstance(got, float) and got < self.value
        if self.kind in ("stage", "owner"):
            return got == norm(self.value)
        stage = norm(row.get(STAGE))
        return isinstance(got, float) and got < self.value and stage not in CLOSED and stage != ""

    def formula(self, n: int, alternative: bool = False) -> str:
        """A custom formula for the rule, written for row `n` (1-based), its column fixed."""
        if self.kind == "amount":
            return f"=AND(ISNUMBER($F{n}),$F{n}>{self.value:.0f})" if alternative else f"=$F{n}>{self.value:.0f}"
        if self.kind == "close":
            day = from_serial(self.value)
            return f'=$G{n}<DATEVALUE("{day:%Y-%m-%d}")' if alternative else f"=$G{n}<DATE({day.year},{day.month},{day.day})"
        if self.kind == "stage":
            return f'=LOWER($E{n})="{str(self.value).lower()}"' if alternative else f'=$E{n}="{self.value}"'
        if self.kind == "owner":
            return f'=EXACT($D{n},"{self.value}")' if alternative else f'=$D{n}="{self.value}"'
        if alternative:
            return f'=AND(ISNUMBER($G{n}),$G{n}<TODAY()+{self.other},$E{n}<>"Closed Won",$E{n}<>"Closed Lost")'
        day = from_serial(self.value)
        return f'=AND(LEFT($E{n},6)<>"Closed",$G{n}<DATE({day.year},{day.month},{day.day}))'

    def flip(self, row: dict[int, Any]) -> dict[int, Any]:
        """New values for a row so that the condition's answer for it flips."""
        if self.kind == "amount":
            return {AMOUNT: round(self.value / 2) if self.holds(row) else round(self.value * 2)}
        if self.kind == "close":
            return {CLOSE: self.value + 30 if self.holds(row) else self.value - 30}
        if self.kind in ("stage", "owner"):
            col = STAGE if self.kind == "stage" else OWNER
            return {col: self.other if self.holds(row) else self.value}
        if self.holds(row):
            return {CLOSE: self.value + 30}
        changes: dict[int, Any] = {CLOSE: self.value - 10}
        if norm(row.get(STAGE)) in CLOSED or norm(row.get(STAGE)) == "":
            changes[STAGE] = "Negotiation/Review"
        return changes


@dataclass(frozen=True, slots=True)
class Colour:
    name: str
    fill: str  # what the oracle uses (Google's palette)
    fill_alt: str  # another shade of the family (the alternative)
    text: str
    text_alt: str
    wrong_fill: str  # a neighbouring family's shade: a colour "off by a shade"
    wrong_text: str


COLOURS = {c.name: c for c in (
    Colour("red", "#F4CCCC", "#EA9999", "#CC0000", "#990000", "#F9CB9C", "#E69138"),
    Colour("orange", "#FCE5CD", "#F9CB9C", "#E69138", "#B45F06", "#FFE599", "#BF9000"),
    Colour("yellow", "#FFF2CC", "#FFE599", "", "", "#F9CB9C", ""),
    Colour("green", "#D9EAD3", "#B6D7A8", "#38761D", "#6AA84F", "#D0E0E3", "#45818E"),
    Colour("blue", "#CFE2F3", "#9FC5E8", "#1155CC", "#3C78D8", "#B4A7D6", "#674EA7"),
    Colour("purple", "#D9D2E9", "#B4A7D6", "#674EA7", "#8E7CC3", "#A4C2F4", "#3C78D8"),
)}
# (way, colour): yellow text is not offered (it does not read on white).
STYLES = tuple((way, name) for way in ("fill", "text") for name in COLOURS if not (way == "text" and name == "yellow"))
LIVE = (False, True)


def _day(serial: float) -> str:
    day = from_serial(serial)
    return f"{day:%B} {day.day}, {day.year}"


def _nice(value: float) -> float:
    """`value` to two significant figures (a line a person would draw: $45,000, $1,300,000)."""
    step = 10 ** max(0, math.floor(math.log10(value)) - 1)
    return float(round(value / step) * step)


def conditions_for(rows: list[dict[int, Any]], today: float) -> list[Condition]:
    """The template's conditions: each keeps at least 3 deals and leaves out at least a third;
    lines and days no deal sits on, so "over" and "before" are never a judgement call."""
    out: list[Condition] = []

    def add(condition: Condition) -> None:
        kept = sum(condition.holds(r) for r in rows)
        if 3 <= kept <= len(rows) * 2 // 3 and condition not in out:
            out.append(condition)

    amounts = sorted(v for r in rows if isinstance(v := norm(r.get(AMOUNT)), float))
    for q in (0.4, 0.6, 0.75):
        line = _nice(amounts[int(q * (len(amounts) - 1))])
        if line in amounts:
            line += 10 ** max(0, math.floor(math.log10(line)) - 1) / 2
        if line > 0 and line not in amounts:
            add(Condition("amount", line, f"whose Amount is over ${line:,.0f}"))
    days = sorted(v for r in rows if isinstance(v := norm(r.get(CLOSE)), float))
    for q in (0.35, 0.65):
        d = float(int(days[int(q * (len(days) - 1))]) + 1)
        while d in days:
            d += 1
        add(Condition("close", d, f"whose Close Date is before {_day(d)}"))
    for col, kind, label in ((STAGE, "stage", "Stage"), (OWNER, "owner", "Owner")):
        seen: dict[Any, str] = {}
        for r in rows:
            if r.get(col) not in (None, ""):
                seen.setdefault(norm(r[col]), str(r[col]))
        names = [seen[k] for k in sorted(seen)]
        for name in names:
            other = next(n for n in ([*names, "Qualification"] if kind == "stage" else names) if norm(n) != norm(name))
            add(Condition(kind, name, f'whose {label} is "{name}"' if kind == "stage" else f"whose {label} is {name}", other))
    for ahead in SOON:
        if today + ahead not in days:
            add(Condition("soon", today + ahead, 'that are still open (their Stage is neither "Closed Won" nor "Closed Lost") and '
                                                 f"due to close before {_day(today + ahead)}, {ahead} days from today", str(ahead)))
    return out


class HighlightByRule:
    id = "sheets/highlight-by-rule-v1"
    apps = ("sheets",)
    difficulty = "medium"
    summary = "Highlight the pipeline deals that match a rule in a colour (a conditional format rule or fills), exactly those rows."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            book = seeded(ctx, "Sales Forecast")
            cells, sid = template_book(ctx, book.id), book.tabs["Pipeline"]
            today = float(to_serial(cells.now.date()))
            last = max(r for (s, r, c) in cells.inputs if s == sid and c == 0)
            rows = [{c: cells.get((sid, r, c)) for c in range(WIDTH)} for r in range(1, last + 1)]
            found = conditions_for(rows, today)
            ctx.cache[f"{self.id}/rows"] = (last, rows)
            return (shuffled(self.id, ctx, found, "rule"), shuffled(self.id, ctx, STYLES, "style"), shuffled(self.id, ctx, LIVE, "live"))

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        condition, (way, name), live = pick(self.id, ctx, self._axes(ctx))
        book = seeded(ctx, "Sales Forecast")
        sid = book.tabs["Pipeline"]
        last, start_rows = ctx.cache[f"{self.id}/rows"]
        hue = COLOURS[name]
        text = way == "text"
        end = column_letter(WIDTH - 1)
        look = (f"make the text of each such deal's row in the table (columns A to {end}) {name}" if text else
                f"give each such deal's row in the table (columns A to {end}) {'an' if name[0] in 'aeiou' else 'a'} {name} fill")
        keep = ", so that the highlighting stays up to date as the deals change" if live else ""
        prompt = (f"In the Google Sheet \"{book.title}\", on the Pipeline tab, highlight the deals {condition.words}: {look}{keep}. "
                  "No other row should be highlighted. Change nothing else.")
        matching_start = [r for r, row in enumerate(start_rows, start=1) if condition.holds(row)]

        # -- grading ----------------------------------------------------------------------------
        def table_rows(cells: Any, tab: int) -> list[int]:
            height = cells.extent(tab)[0]
            return [r for r in range(1, height) if any(cells.get((tab, r, c)) not in (None, "") for c in range(CLOSE + 1))]

        def row_of(cells: Any, tab: int, r: int) -> dict[int, Any]:
            return {c: cells.get((tab, r, c)) for c in range(WIDTH)}

        def shown_wrong(db: Any, sb: Any, tab: int) -> str:
            """What is wrong with the tab as the grid shows it ("" when nothing): each matching
            deal's row A:I in the colour, no other row coloured."""
            cells = sb.book
            rows = table_rows(cells, tab)
            bottom = (rows[-1] if rows else 0) + 1
            width = 26  # (a rule or fill may reach past the table: the columns of a default grid)
            seen = looks(db, sb, tab, (0, 0, bottom + BELOW, width))
            matching = {r for r in rows if condition.holds(row_of(cells, tab, r))}
            out_of_view = sorted(matching & hidden_rows(db, sb, tab))
            if out_of_view:
                return f"row {out_of_view[0] + 1} is hidden: nobody sees it highlighted"
            ask = "text colour" if text else "fill"
            for r in sorted(matching):
                for c in range(WIDTH):
                    fill, ink = seen(r, c)
                    got = ink if text else fill
                    if family(got, text) != name:
                        found = family(got, text)
                        return (f"{column_letter(c)}{r + 1} ({cells.get((tab, r, 0))}, a deal {condition.words}) shows the {ask} "
                                f"{hex_of(got)}" + (f" ({found})" if found else " (no colour)") + f", not {name}")
                    if cells.get((tab, r, c)) not in (None, "") and unreadable(fill, ink):
                        return f"{column_letter(c)}{r + 1}: its text cannot be read on its fill"
            for r in [*rows, *range(bottom, bottom + BELOW)]:
                if r in matching:
                    continue
                for c in range(width):
                    fill, ink = seen(r, c)
                    # (a fill pale enough to pass for white still names a colour when it is tinted enough to be one)
                    coloured = (fill is not None and (min(fill) < 0.9 or family(fill) is not None)
                                or (family(ink, True) is not None and cells.get((tab, r, c)) not in (None, "")))
                    if coloured:
                        what = f"({cells.get((tab, r, 0))}, not a deal {condition.words})" if r < bottom else "(below the table)"
                        return f"row {r + 1} {what} is highlighted: {column_letter(c)}{r + 1} shows the fill {hex_of(fill)}, text {hex_of(ink)}"
            for c in range(WIDTH):
                fill, ink = seen(0, c)
                if family(ink if text else fill, text) == name:
                    return f"the header row is highlighted {name} ({column_letter(c)}1)"
            return ""

        def rows_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            tab = tab_named(sb, "Pipeline")
            if tab is None:
                return failed("there is no Pipeline tab")
            why = shown_wrong(db, sb, tab)
            n = sum(condition.holds(row_of(sb.book, tab, r)) for r in table_rows(sb.book, tab))
            return failed(why) if why else passed(f"exactly the {n} deals {condition.words} show {name}")

        def live_check(db: Any) -> CheckResult:
            """Every other deal's row flipped in a private copy (never saved), then the others in
            another: each time exactly the deals that match now show the colour, as the tab's
            rules work it out again. (Half at a time, so what stays put is seen too: a fill by
            hand on a row that flips into the rule's reach would be hidden under it.)"""
            from apps.sheets.entry import Entered

            sb = final(db, book.id)
            tab = tab_named(sb, "Pipeline")
            if tab is None:
                return failed("there is no Pipeline tab")
            rows = table_rows(sb.book, tab)
            for half in (0, 1):
                trial = sb.copy() if half == 0 else sb  # the last round spends the check's own copy
                changes = {(tab, r, c): v for r in rows[half::2] for c, v in condition.flip(row_of(sb.book, tab, r)).items()}
                trial.write({key: Entered(None, value) for key, value in changes.items()})
                why = shown_wrong(db, trial, tab)
                if why:
                    return failed(f"when the deals change, the highlighting does not follow: {why}")
            return passed("the highlighting follows the deals when they change")

        # -- solutions ----------------------------------------------------------------------------
        def grid(r1: int, r2: int, c1: int = 0, c2: int = WIDTH) -> dict[str, int]:
            return {"sheetId": sid, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}

        def fmt(hex_text: str, ink: bool = text) -> dict[str, Any]:
            return {"textFormat": {"foregroundColor": colour(hex_text)}} if ink else {"backgroundColor": colour(hex_text)}

        def rule(formula: str, hex_text: str, *ranges: dict[str, int], ink: bool = text) -> dict[str, Any]:
            return {"addConditionalFormatRule": {"index": 0, "rule": {"ranges": list(ranges) or [grid(1, last + 1)], "booleanRule": {
                "condition": {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": formula}]}, "format": fmt(hex_text, ink)}}}}

        def by_hand(rows: list[int], hex_text: str, ink: bool = text, c2: int = WIDTH) -> list[dict[str, Any]]:
            field = "userEnteredFormat.textFormat.foregroundColor" if ink else "userEnteredFormat.backgroundColor"
            return [{"repeatCell": {"range": grid(r, r + 1, 0, c2), "cell": {"userEnteredFormat": fmt(hex_text, ink)}, "fields": field}}
                    for r in rows]

        oracle_hex = hue.text if text else hue.fill
        alt_hex = hue.text_alt if text else hue.fill_alt
        wrong_hex = hue.wrong_text if text else hue.wrong_fill

        async def batch(tools: Tools, requests: list[dict[str, Any]]) -> None:
            if requests:
                await tools.call("batch_update", spreadsheet_id=book.id, requests=requests)

        async def oracle(tools: Tools) -> None:
            await batch(tools, [rule(condition.formula(2), oracle_hex)])

        async def alternative(tools: Tools) -> None:
            """Live: two rules with another formula, one over A:E and one over F:I. Otherwise:
            the deals read from the sheet and their rows coloured by hand, in another shade."""
            if live:
                await batch(tools, [rule(condition.formula(2, True), alt_hex, grid(1, last + 1, 0, 5)),
                                    rule(condition.formula(2, True), alt_hex, grid(1, last + 1, 5, WIDTH))])
                return
            got = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet="Pipeline", range=f"A1:{end}{last + 1}")
            lines = got["valueRanges"][0]["values"]
            picked = [i for i, line in enumerate(lines) if i > 0 and condition.holds(dict(enumerate(line)))]
            await batch(tools, by_hand(picked, alt_hex))

        near = _near(condition, start_rows)

        async def say(tools: Tools, words: str) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Pipeline", range="J1", data=[[words]])

        async def wrong(tools: Tools) -> None:  # the deals of a near rule coloured by hand
            await batch(tools, by_hand(near, oracle_hex))

        async def everything(tools: Tools) -> None:  # every deal coloured
            await batch(tools, by_hand(list(range(1, last + 1)), oracle_hex))

        async def wrong_record(tools: Tools) -> None:  # the rule's column left relative: each column tests another
            await batch(tools, [rule(condition.formula(2).replace("$", ""), oracle_hex)])

        async def shotgun(tools: Tools) -> None:  # the right rows in the colour, every other row in its neighbour
            others = [r for r in range(1, last + 1) if r not in matching_start]
            await batch(tools, [rule(condition.formula(2), oracle_hex), *by_hand(others, wrong_hex)])

        async def vandalise(tools: Tools) -> None:
            await oracle(tools)
            await wreck(tools, book.id)

        async def put_away(tools: Tools) -> None:  # the rule made, then deleted
            await oracle(tools)
            await batch(tools, [{"deleteConditionalFormatRule": {"sheetId": sid, "index": 0}}])

        checks = [Check(f"exactly the deals {condition.words} show {name}", rows_check)]
        if live:
            checks.append(Check("the highlighting follows the deals when they change", live_check, 2.0))
        return TaskInstance(
            prompt=prompt,
            checks=checks,
            expected=[allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id), *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(alternative,),
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise,
                        put_away=put_away),
            facts={"spreadsheet": book.id, "sheet_id": sid, "rule": condition.words, "kind": condition.kind, "way": way, "colour": name,
                   "live": live, "rows": [r + 1 for r in matching_start], "last": last + 1},
        )


def _near(condition: Condition, rows: list[dict[int, Any]]) -> list[int]:
    """The rows (0-based, on the tab) a near miss of the condition picks: a line or a day moved
    by a half, another stage or owner; always at least one deal the condition leaves out."""
    moved: Callable[[dict[int, Any]], bool]
    if condition.kind == "amount":
        moved = lambda row: Condition("amount", condition.value / 2, "").holds(row)  # noqa: E731
    elif condition.kind == "close":
        moved = lambda row: Condition("close", condition.value + 45, "").holds(row)  # noqa: E731
    elif condition.kind in ("stage", "owner"):
        moved = lambda row: Condition(condition.kind, condition.other, "").holds(row) or condition.holds(row)  # noqa: E731
    else:
        moved = lambda row: Condition("close", condition.value, "").holds(row)  # noqa: E731  (closed deals too)
    picked = [r for r, row in enumerate(rows, start=1) if moved(row)]
    if all(condition.holds(rows[r - 1]) for r in picked):
        picked.append(next(r for r, row in enumerate(rows, start=1) if not condition.holds(row)))
    return picked
