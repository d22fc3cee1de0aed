"""sheets/summary-tab-v1: add a tab to Support Metrics that counts tickets by one field, with
formulas so it stays current.

Graded on the final book: the tab's table lists exactly the right (label, count) pairs, in any
order (labels typed, or listed by a formula such as =SORT(UNIQUE(…))); and its counts are
formulas that read the Tickets tab and follow it (in memory, one ticket of every label loses
it, or is closed, and a label with one ticket gains another: every count must move, and no
label runs out; then every label gains a ticket from below its last one, so a count of only
the rows a label holds today, or over a range cut off at its last row, fails), so typed-in numbers and constant formulas fail. The tab holds columns A:B, as
asked; anything beside is collateral. A total row under the table ("Total", "Grand total") that
adds up the counts above it is what people add to a count table: it is read as the total, not
as a value of the field (one with another number is a wrong row).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from graders.checks import Check, CheckResult, Unmet, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_discarded, allow_formatting, allow_new_tab, allow_recalc, allow_touch, final, follows_every, pick, reading_formulas, same, seeded, seeded_ids, tab_named, template_book, wreck,
)

FIELDS = (("Type", 2, "C"), ("Priority", 3, "D"), ("Status", 4, "E"), ("Assignee", 6, "G"))  # header, column, letter
SCOPES = ("open", "all")
TITLES = ("By {field}", "Ticket Counts", "{field} Summary")  # "By Type": a tab named for what it counts, never a placeholder


class SummaryTab:
    id = "sheets/summary-tab-v1"
    apps = ("sheets",)
    difficulty = "medium"
    summary = "Add a summary tab counting support tickets by a field, with live formulas."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        return cached(ctx, self.id, lambda: (shuffled(self.id, ctx, FIELDS, "field"), shuffled(self.id, ctx, SCOPES, "scope"),
                                             shuffled(self.id, ctx, TITLES, "title")))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        book = seeded(ctx, "Support Metrics")
        (field, col, letter), scope, title = pick(self.id, ctx, self._axes(ctx))
        if field == "Status" and scope == "open":
            scope = "all"  # every open status counted as open would be a one-row table
        title = title.format(field=field)
        tickets = book.tabs["Tickets"]
        start = template_book(ctx, book.id)
        last = max(r for (s, r, c) in start.inputs if s == tickets and c == 0) + 1  # 1-based last row
        which = "open tickets (Status is not Done)" if scope == "open" else "tickets"
        prompt = (f"In the Google Sheet \"{book.title}\", add a tab named \"{title}\" that counts the {which} on the Tickets tab by "
                  f"{field}: header \"{field}\" in A1 and \"Tickets\" in B1, then one row per {field} value that has any such tickets "
                  "(blank values left out), with a formula for each count so the tab stays current. Change nothing else.")

        def wanted(sb: Any) -> dict[str, float]:
            cells = getattr(sb, "book", sb)  # a stored book, or the template's cells
            counts: Counter[str] = Counter()
            for r in range(1, last):
                label, status = cells.get((tickets, r, col)), cells.get((tickets, r, 4))
                if label not in (None, "") and (scope == "all" or status != "Done"):
                    counts[str(label).strip().lower()] += 1
            return {k: float(v) for k, v in counts.items()}

        def table(sb: Any) -> tuple[int | None, dict[str, tuple[int, Any]]]:
            sid = tab_named(sb, title)
            if sid is None:
                return None, {}
            rows: dict[str, tuple[int, Any]] = {}
            # Labels typed, written by formulas, or spilled by one (=SORT(UNIQUE(…)) in A2 fills the column below it).
            for s, r, c in sorted({*sb.book.inputs, *sb.book.formulas, *sb.book.spill_owner}):
                value = sb.book.get((s, r, c))
                if s == sid and c == 0 and r > 0 and value not in (None, ""):
                    label = str(value).strip().lower()
                    if label in rows:  # a reader reads the first; a table of one row per value has one
                        raise Unmet(f"{value!r} is listed twice on {title!r} (rows {rows[label][0] + 1} and {r + 1})")
                    rows[label] = (r, sb.book.get((sid, r, 1)))
            return sid, _without_total(rows, set(wanted(sb)))

        def table_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            sid, rows = table(sb)
            if sid is None:
                return failed(f"there is no tab named {title!r}")
            if not (same(sb.book.get((sid, 0, 0)), field) and same(sb.book.get((sid, 0, 1)), "Tickets")):
                return failed(f"the headers are {sb.book.get((sid, 0, 0))!r} and {sb.book.get((sid, 0, 1))!r}, expected {field!r} and 'Tickets'")
            want = wanted(sb)
            got = {k: v for k, (_, v) in rows.items()}
            if set(got) != set(want):
                return failed(f"the {field} rows are {sorted(got)}; expected {sorted(want)}")
            bad = [k for k in want if not same(got[k], want[k])]
            return failed(f"wrong counts for {bad}") if bad else passed(f"{len(want)} {field} rows with the right counts")

        def live_check(db: Any) -> CheckResult:
            """Each count reads the Tickets tab's column (and Status, for open tickets) and moves
            with it under the changes of `_rounds`, each of which moves every count."""
            sb = final(db, book.id)
            sid, rows = table(sb)
            if sid is None or not rows:
                return failed(f"there is no {title!r} table")
            label_of = {r: name for name, (r, _) in rows.items()}
            targets = [(sid, r, 1) for r in sorted(label_of)]
            labels = [[(tickets, r, col) for r in range(1, last)]]
            statuses = [[(tickets, r, 4) for r in range(1, last)]] if scope == "open" else []
            ok, why = reading_formulas(sb, targets, lambda k: labels + statuses, title)
            if not ok:
                return failed(why)
            rounds = _rounds(sb.book, tickets, col, last, scope)

            def counts_in(cells: Any) -> Any:
                counts = wanted(cells)
                return lambda key: counts.get(label_of[key[1]], 0.0)

            ok, why = follows_every(sb, targets, rounds, counts_in, title)
            return passed("the counts follow the Tickets tab") if ok else failed(why)

        def rows_for(formula: str) -> list[list[Any]]:
            labels = sorted({str(start.get((tickets, r, col))) for r in range(1, last)
                             if start.get((tickets, r, col)) not in (None, "") and (scope == "all" or start.get((tickets, r, 4)) != "Done")})
            return [[field, "Tickets"], *[[label, formula.format(n=i + 2)] for i, label in enumerate(labels)]]

        span = f"Tickets!${letter}$2:${letter}${last}"
        status = f"Tickets!$E$2:$E${last}"
        oracle_formula = (f'=COUNTIFS({span},A{{n}},{status},"<>Done")' if scope == "open" else f"=COUNTIF({span},A{{n}})")
        alt_formula = (f'=SUMPRODUCT(({span}=A{{n}})*({status}<>"Done"))' if scope == "open" else f"=SUMPRODUCT(--({span}=A{{n}}))")

        async def write(tools: Tools, name: str, data: list[list[Any]]) -> None:
            await tools.call("create_sheet", spreadsheet_id=book.id, title=name)
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=name, range=f"A1:B{len(data)}", data=data)

        async def oracle(tools: Tools) -> None:
            await write(tools, title, rows_for(oracle_formula))

        async def alternative(tools: Tools) -> None:
            """A batch_update addSheet, and SUMPRODUCT instead of COUNTIF(S)."""
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"addSheet": {"properties": {"title": title}}}])
            data = rows_for(alt_formula)
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=title, range=f"A1:B{len(data)}", data=data)

        async def say(tools: Tools, text: str) -> None:
            await write(tools, title, [[text]])

        async def wrong(tools: Tools) -> None:  # a draft table left on its own tab
            await write(tools, f"{title} draft", rows_for("=COUNTIF(Tickets!$A$2:$A$200,A{n})"))

        async def typed(tools: Tools) -> None:  # the right counts as typed numbers
            counts = wanted(start)
            data = rows_for("")
            await write(tools, title, [data[0], *[[row[0], counts[str(row[0]).lower()]] for row in data[1:]]])

        other = next(f for f in FIELDS if f[0] != field)

        async def wrong_record(tools: Tools) -> None:
            await write(tools, title, [[other[0], "Tickets"], *[[v, f"=COUNTIF(Tickets!${other[2]}$2:${other[2]}${last},A{i + 2})"]
                                                              for i, v in enumerate(sorted({str(start.get((tickets, r, other[1]))) for r in range(1, last)} - {"None", ""}))]])

        async def shotgun(tools: Tools) -> None:
            await write(tools, title, rows_for(oracle_formula))
            for spare in ("Copy 1", "Copy 2", "Copy 3"):
                await write(tools, f"{title} {spare}", rows_for(oracle_formula))

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        async def decoy(tools: Tools) -> None:  # each label with a wrong count typed in, and the right table below it
            data, counts = rows_for(oracle_formula), wanted(start)
            below = len(data) + 1  # the first row of the right block
            await write(tools, title, [data[0], *[[row[0], counts[str(row[0]).lower()] + 1] for row in data[1:]],
                                       *[[row[0], oracle_formula.format(n=below + i)] for i, row in enumerate(data[1:])]])

        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"the {title!r} tab counts {which} by {field}", table_check), Check("the counts are live formulas", live_check, 2.0)],
            expected=[*allow_new_tab(book.id, title, lambda _r, c: c < 2), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                      *allow_discarded(seeded_ids(ctx))],  # columns A:B, as asked
            oracle=oracle,
            alternatives=(alternative,),
            moves=Moves(say=say, wrong=wrong, everything=typed, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise, decoy=decoy),
            facts={"spreadsheet": book.id, "tab": title, "field": field, "scope": scope},
        )


def _rounds(cells: Any, tickets: int, col: int, last: int, scope: str) -> list[dict[Any, Any]]:
    """Changes to the Tickets tab under which every count must move, none making a label run
    out of tickets (labels a formula lists, =SORT(UNIQUE(…)), would then move up a row): a
    label with tickets to spare loses one (and, for open tickets, has another closed); a label
    with one ticket gains one, taken from a ticket that counts for nothing (no label, or done
    when open tickets are counted), else from a label with tickets to spare."""
    members: dict[str, list[int]] = {}
    written: dict[str, Any] = {}
    idle: list[int] = []  # tickets no count includes
    for r in range(1, last):
        label, status = cells.get((tickets, r, col)), cells.get((tickets, r, 4))
        if label in (None, "") or (scope == "open" and status == "Done"):
            idle.append(r)
            continue
        key = str(label).strip().lower()
        members.setdefault(key, []).append(r)
        written.setdefault(key, label)
    loses = {key: rs[0] for key, rs in members.items() if len(rs) > 1}
    spare = [r for key, rs in members.items() if len(rs) > 2 for r in rs[1:-1]]  # the first is blanked, the last stays
    donors = iter([*idle, *spare])
    first: dict[Any, Any] = {(tickets, r, col): None for r in loses.values()}
    for key, rs in members.items():
        if len(rs) == 1:
            donor = next(donors, None)
            if donor is None:  # nothing to give: the count drops to nothing (a listed label then moves up)
                first[(tickets, rs[0], col)] = None
                continue
            first[(tickets, donor, col)] = written[key]
            if scope == "open":
                first[(tickets, donor, 4)] = "To Do"
    rounds = [first]
    if scope == "open":
        rounds.append({(tickets, r, 4): "Done" for r in loses.values()})
    rounds.append(_gains(tickets, col, last, scope, members, written, idle))
    return rounds


def _gains(tickets: int, col: int, last: int, scope: str, members: dict[str, list[int]], written: dict[str, Any],
           idle: list[int]) -> dict[Any, Any]:
    """Every label gains a ticket it did not have, taken from below its last ticket where the table has one: a count
    that reads only the rows its label holds today (=(C3="Bug")+(C8="Bug"), or a range cut off at the label's last
    ticket) misses it. A donor is a ticket no count includes, else one of a label left with a ticket after giving it;
    a ticket given is reopened when open tickets are counted."""
    label_of = {r: key for key, rs in members.items() for r in rs}
    left = {key: len(rs) for key, rs in members.items()}
    used: set[int] = set()
    changes: dict[Any, Any] = {}

    def can_give(r: int, key: str) -> bool:
        if r in used or label_of.get(r) == key:
            return False
        return r not in label_of or left[label_of[r]] > 1

    for key, rs in members.items():
        later = [r for r in range(last - 1, rs[-1], -1) if can_give(r, key)]
        anywhere = [r for r in [*idle, *range(last - 1, 0, -1)] if can_give(r, key)]
        donor = next(iter(later or anywhere), None)
        if donor is None:
            continue
        used.add(donor)
        if donor in label_of:
            left[label_of[donor]] -= 1
        changes[(tickets, donor, col)] = written[key]
        if scope == "open":
            changes[(tickets, donor, 4)] = "To Do"
    return changes


_TOTALS = frozenset({"total", "grand total", "totals", "total tickets", "sum"})


def _without_total(rows: dict[str, tuple[int, Any]], values: set[str]) -> dict[str, tuple[int, Any]]:
    """The table's rows without its total row: the last row, labelled as a total (and no value of
    the field), whose count is the sum of the counts above it."""
    if not rows:
        return rows
    label, (at, total) = max(rows.items(), key=lambda item: item[1][0])
    if label not in _TOTALS or label in values:
        return rows
    others = [v for k, (_, v) in rows.items() if k != label]
    try:
        if abs(float(total) - sum(float(v) for v in others)) > 1e-9:
            return rows
    except (TypeError, ValueError):
        return rows
    return {k: v for k, v in rows.items() if k != label}
