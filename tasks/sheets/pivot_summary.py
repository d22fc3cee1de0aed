"""sheets/pivot-summary-v1: add a pivot-style tab that summarises a seeded data tab by one field
(down column A), optionally spread across another field's values (across row 1): a total,
count, largest or average per group.

Reachable three ways: the Excel toolset's create_pivot_table (its headers "SUM of Amount
(Closed Won)" name the column value in brackets, Google's pivot tables head a column with the
value itself: both are read), SUMIFS/COUNTIFS-style formulas, or numbers typed by hand where
the prompt does not ask for a live summary. Graded on the final book: the groups as a set
(blank values left out), every cell's computed value (an empty combination may be 0 or blank),
and, where the prompt asks the summary to stay current, that every cell is a formula reading
the data and follows it (in memory, never saved: a row of every group changed, then rows moved
into the cells that change left alone, so every cell, empty combinations too, must move; and
every group gains a row, so a cell reading only the rows its group holds today fails):
typed-in numbers and constant formulas fail there. The tab is as wide as the pivot.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from apps.sheets.a1 import column_letter
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_discarded, allow_formatting, allow_new_tab, allow_recalc, allow_touch, final, follows_every, pick, reading_formulas, same, seeded, seeded_ids, tab_named, template_book, wreck,
)

PIPELINE = {"Deal ID": 0, "Account": 1, "Owner": 3, "Stage": 4, "Amount": 5, "Weighted": 8}
TICKETS = {"Key": 0, "Type": 2, "Priority": 3, "Status": 4, "Customer": 5, "Assignee": 6, "Created": 7, "Age (days)": 8}


@dataclass(frozen=True, slots=True)
class Spec:
    title: str  # the spreadsheet's title prefix
    tab: str
    columns: dict[str, int]
    rows: str  # the field down column A
    across: str | None  # the field across row 1
    value: str  # the field aggregated
    agg: str  # sum, count, max, average
    nudge: str  # an input column that moves `value` (itself, or what its formula reads)
    delta: float  # what the live check adds to it
    exact: bool  # typed-in numbers can be exact (no display rounding): a values-only variant is fair


SPECS = (
    Spec("Sales Forecast", "Pipeline", PIPELINE, "Owner", "Stage", "Amount", "sum", "Amount", 100_000, True),
    Spec("Sales Forecast", "Pipeline", PIPELINE, "Owner", None, "Weighted", "sum", "Amount", 100_000, False),
    Spec("Sales Forecast", "Pipeline", PIPELINE, "Stage", None, "Deal ID", "count", "Amount", 100_000, True),
    Spec("Sales Forecast", "Pipeline", PIPELINE, "Account", None, "Amount", "sum", "Amount", 100_000, True),
    Spec("Sales Forecast", "Pipeline", PIPELINE, "Owner", None, "Amount", "max", "Amount", 100_000, True),
    Spec("Support Metrics", "Tickets", TICKETS, "Priority", "Status", "Key", "count", "Created", -10, True),
    Spec("Support Metrics", "Tickets", TICKETS, "Assignee", "Type", "Key", "count", "Created", -10, True),
    Spec("Support Metrics", "Tickets", TICKETS, "Customer", None, "Key", "count", "Created", -10, True),
    Spec("Support Metrics", "Tickets", TICKETS, "Assignee", None, "Age (days)", "average", "Created", -10, False),
)
TITLES = ("{rows} pivot", "By {rows}", "Pivot")
ASK = {"sum": "total {value}", "count": "number of {things}", "max": "largest {value}", "average": "average {value}"}
THINGS = {"Pipeline": "deals", "Tickets": "tickets"}
_BRACKETED = re.compile(r"\(([^()]*)\)\s*$")


def _label(value: Any) -> str:
    return str(value).strip().lower()


def _aggregate(agg: str, values: list[Any]) -> float | None:
    numbers = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if agg == "count":
        return float(len(values))
    if not numbers:
        return None
    return {"sum": sum(numbers), "max": max(numbers), "average": sum(numbers) / len(numbers)}[agg]


class PivotSummary:
    id = "sheets/pivot-summary-v1"
    apps = ("sheets",)
    difficulty = "medium"
    summary = "Add a pivot-style tab summarising a data tab by a field (a total, count, largest or average per group)."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            for title in {s.title for s in SPECS}:
                template_book(ctx, seeded(ctx, title).id)
            # A values-only variant only where typed numbers can be exact (no display rounding to copy).
            kinds = [(spec, True) for spec in SPECS] + [(spec, False) for spec in SPECS if spec.exact]
            return (shuffled(self.id, ctx, kinds, "spec"), shuffled(self.id, ctx, TITLES, "title"))

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        (spec, live), title = pick(self.id, ctx, self._axes(ctx))
        book = seeded(ctx, spec.title)
        data = book.tabs[spec.tab]
        start = template_book(ctx, book.id)
        last = max(r for (s, r, c) in start.inputs if s == data and c == 0)  # the last data row, 0-based
        title = title.format(rows=spec.rows)
        rc, vc = spec.columns[spec.rows], spec.columns[spec.value]
        ac = spec.columns[spec.across] if spec.across else None

        def groups(cells: Any) -> dict[tuple[str, str | None], list[Any]]:
            """(row label, column label) → the values aggregated, over rows with a row label."""
            out: dict[tuple[str, str | None], list[Any]] = {}
            for r in range(1, last + 1):
                label = cells.get((data, r, rc))
                if label in (None, ""):
                    continue
                across = _label(cells.get((data, r, ac))) if ac is not None else None
                if across == "":
                    continue
                out.setdefault((_label(label), across), []).append(cells.get((data, r, vc)))
            return out

        def layout(cells: Any) -> tuple[list[str], list[str | None]]:
            """The row labels and column labels as written in the data, sorted as a pivot sorts them."""
            shown_rows: dict[str, str] = {}
            shown_cols: dict[str, str] = {}
            for r in range(1, last + 1):
                label, across = cells.get((data, r, rc)), cells.get((data, r, ac)) if ac is not None else "x"
                if label not in (None, "") and across not in (None, ""):
                    shown_rows.setdefault(_label(label), str(label))
                    if ac is not None:
                        shown_cols.setdefault(_label(across), str(across))
            ordered = lambda d: [d[k] for k in sorted(d)]  # noqa: E731
            return ordered(shown_rows), (ordered(shown_cols) if ac is not None else [None])

        row_labels, col_labels = cached(ctx, f"{self.id}/{book.id}/{spec.rows}/{spec.across}", lambda: layout(start))

        def expected(cells: Any) -> Callable[[str, str | None], float | None]:
            found = groups(getattr(cells, "book", cells))
            return lambda row, col: _aggregate(spec.agg, found.get((row, col), [])) if (row, col) in found else None

        def read(sb: Any) -> tuple[int | None, dict[str, int], dict[str | None, int], str]:
            """The tab's row labels (→ row) and column labels (→ col), or why they cannot be read."""
            sid = tab_named(sb, title)
            if sid is None:
                return None, {}, {}, f"there is no tab named {title!r}"
            head = sb.book.get((sid, 0, 0))
            if not same(head, spec.rows):
                return sid, {}, {}, f"A1 is {head!r}, expected the header {spec.rows!r}"
            height, width = sb.book.extent(sid)
            rows: dict[str, int] = {}
            for r in range(1, height):
                label = sb.book.get((sid, r, 0))
                if label in (None, ""):
                    continue
                if _label(label) in rows:
                    return sid, {}, {}, f"{label!r} has two rows"
                rows[_label(label)] = r
            if ac is None:
                return sid, rows, {None: 1}, ""
            cols: dict[str | None, int] = {}
            for c in range(1, width):
                header = sb.book.get((sid, 0, c))
                if header in (None, ""):
                    continue
                bracket = _BRACKETED.search(str(header))
                name = _label(bracket.group(1) if bracket else header)
                if name in cols:
                    return sid, {}, {}, f"two columns are headed {name!r}"
                cols[name] = c
            return sid, rows, cols, ""

        def compare(sb: Any, rows: dict[str, int], cols: dict[str | None, int], sid: int, want: Callable[[str, str | None], float | None]
                    ) -> str:
            wanted_rows = {row for row, _ in groups(sb.book)}
            if set(rows) != wanted_rows:
                extra, missing = sorted(set(rows) - wanted_rows), sorted(wanted_rows - set(rows))
                return f"the {spec.rows} rows differ from the data: extra {extra[:4]}, missing {missing[:4]}"
            wanted_cols = {col for _, col in groups(sb.book)}
            if ac is not None and not wanted_cols <= set(cols):
                return f"no column for {spec.across} {sorted(wanted_cols - set(cols))[:4]}"
            for row, r in rows.items():
                for col, c in cols.items():
                    got, should = sb.book.get((sid, r, c)), want(row, col)
                    if should is None:
                        if got not in (None, "", 0, 0.0):
                            return f"{row!r} × {col!r} has no data but shows {got!r}"
                    elif not same(got, should):
                        return f"the {spec.agg} for {row!r}{f' × {col!r}' if col else ''} is {got!r}, expected {should!r}"
            return ""

        def table_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            sid, rows, cols, why = read(sb)
            if why or sid is None:
                return failed(why)
            why = compare(sb, rows, cols, sid, expected(sb))
            return failed(why) if why else passed(f"{len(rows)} {spec.rows} groups with the right {spec.agg}s")

        def live_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            sid, rows, cols, why = read(sb)
            if why or sid is None or not rows:
                return failed(why or f"the {title!r} tab has no {spec.rows} rows")
            computed = lambda key: key in sb.book.formulas or key in sb.book.spill_owner  # noqa: E731 (an array formula's cells count)
            typed = [row for row, r in rows.items() for c in cols.values() if not computed((sid, r, c))]
            if typed:
                return failed(f"the numbers for {sorted(set(typed))[:3]} are typed in, not formulas")
            targets = [(sid, r, c) for r in rows.values() for c in cols.values()]
            every = lambda c: [(data, r, c) for r in range(1, last + 1)]  # noqa: E731
            needs = [every(rc), *([every(ac)] if ac is not None else []),
                     *([every(vc) + every(spec.columns[spec.nudge])] if spec.agg != "count" else [])]
            ok, why = reading_formulas(sb, targets, lambda _k: needs, title)
            if not ok:
                return failed(why)
            by_cell = {(r, c): (row, col) for row, r in rows.items() for col, c in cols.items()}
            def want(cells: Any) -> Callable[[Any], Any]:  # the book's groups, read once
                found = expected(cells)

                def at(key: Any) -> Any:
                    value = found(*by_cell[(key[1], key[2])])
                    return 0.0 if value is None else value

                return at

            rounds = _rounds(sb.book, spec, data, last, rc, ac, vc, set(by_cell.values()))
            ok, why = follows_every(sb, targets, rounds, want, title)
            return passed(f"the summary follows the {spec.tab} tab") if ok else failed(why)

        # -- solutions ------------------------------------------------------------------------
        span = lambda col: f"{spec.tab}!${column_letter(col)}$2:${column_letter(col)}${last + 1}"  # noqa: E731
        rs, vs = span(rc), span(vc)
        acs = span(ac) if ac is not None else ""

        def cell_formula(n: int, col: int, alternative: bool) -> str:
            here = f"$A{n}"
            top = f"{column_letter(col)}$1"
            if alternative:  # SUMPRODUCT / FILTER instead of the *IFS family
                test = f"({rs}={here})" + (f"*({acs}={top})" if ac is not None else "")
                return {"sum": f"=SUMPRODUCT({test}*{vs})", "count": f"=SUMPRODUCT({test}*1)",
                        "max": f"=MAX(FILTER({vs},{rs}={here}))", "average": f"=SUMIF({rs},{here},{vs})/COUNTIF({rs},{here})"}[spec.agg]
            crit = f"{rs},{here}" + (f",{acs},{top}" if ac is not None else "")
            return {"sum": f"=SUMIFS({vs},{crit})", "count": f"=COUNTIFS({crit})", "max": f"=MAXIFS({vs},{crit})",
                    "average": f"=AVERAGEIFS({vs},{crit})"}[spec.agg]

        def numbers(cells: Any, row: str, col: str | None) -> Any:
            value = expected(cells)(_label(row), _label(col) if col is not None else None)
            return 0 if value is None else value

        def table(kind: str, rows: list[str] = row_labels, field: str = spec.rows) -> list[list[Any]]:
            header = [field, *(col_labels if ac is not None else [ASK[spec.agg].format(value=spec.value, things=THINGS[spec.tab])])]
            out: list[list[Any]] = [header]
            for i, row in enumerate(rows):
                if kind == "typed":
                    out.append([row, *(numbers(start, row, col) for col in col_labels)])
                else:
                    out.append([row, *(cell_formula(i + 2, j + 1, kind == "alternative") for j in range(len(col_labels)))])
            return out

        async def write(tools: Tools, name: str, rows: list[list[Any]], add: str = "create_sheet") -> None:
            if add == "create_sheet":
                await tools.call("create_sheet", spreadsheet_id=book.id, title=name)
            else:
                await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"addSheet": {"properties": {"title": name}}}])
            width = max(len(r) for r in rows)
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=name, range=f"A1:{column_letter(width - 1)}{len(rows)}", data=rows)

        async def oracle(tools: Tools) -> None:
            await write(tools, title, table("formulas"))

        async def alternative(tools: Tools) -> None:
            """Live: SUMPRODUCT/FILTER formulas on a tab added by batch_update. Values-only: numbers summed from what the tab shows."""
            if live:
                await write(tools, title, table("alternative"), add="batch_update")
                return
            shown = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet=spec.tab)
            lines = shown["valueRanges"][0]["values"][1:]
            sums: dict[tuple[str, str | None], list[float]] = {}
            for line in lines:
                line = [*line, *[""] * 12]
                label, across = line[rc], (line[ac] if ac is not None else None)
                if label == "" or across == "":
                    continue
                text = str(line[vc]).replace("$", "").replace(",", "")
                sums.setdefault((label, across), []).append(float(text) if text.replace(".", "", 1).isdigit() else 0.0)
            body = [[spec.rows, *(col_labels if ac is not None else ["Result"])]]
            for row in row_labels:
                body.append([row, *(_aggregate(spec.agg, sums[(row, col)]) if (row, col) in sums else 0 for col in col_labels)])
            await write(tools, title, body, add="batch_update")

        async def say(tools: Tools, text: str) -> None:
            await write(tools, title, [[text]])

        other = next(f for f in spec.columns if f not in (spec.rows, spec.across, spec.value, "Deal ID", "Key", "Amount", "Weighted",
                                                          "Created", "Age (days)"))
        other_labels = sorted({str(v) for (s, r, c), v in start.inputs.items() if s == data and c == spec.columns[other] and r > 0 and v != ""})

        async def wrong(tools: Tools) -> None:  # a draft summary by another field, left on its own tab
            await write(tools, f"{title} draft", [[other, "Rows"], *[[v, f"=COUNTIF({span(spec.columns[other])},A{i + 2})"]
                                                                   for i, v in enumerate(other_labels)]])

        async def everything(tools: Tools) -> None:
            if live:  # the right numbers, typed in
                await write(tools, title, table("typed"))
            else:  # every group of every field in one table
                rows = table("typed")
                await write(tools, title, [*rows, *[[v, *[0] * (len(rows[0]) - 1)] for v in other_labels]])

        async def wrong_record(tools: Tools) -> None:
            await write(tools, title, [[other, "Rows"], *[[v, f"=COUNTIF({span(spec.columns[other])},A{i + 2})"] for i, v in enumerate(other_labels)]])

        async def shotgun(tools: Tools) -> None:
            for name in (title, f"{title} 2", f"{title} 3"):
                await write(tools, name, table("formulas"))

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        async def decoy(tools: Tools) -> None:  # every group with wrong figures typed in, and the right table below it
            head, below = table("formulas")[0], len(row_labels) + 2
            await write(tools, title, [head, *[[row, *(numbers(start, row, col) * 2 + 1 for col in col_labels)] for row in row_labels],
                                       *[[row, *(cell_formula(below + i, j + 1, False) for j in range(len(col_labels)))]
                                         for i, row in enumerate(row_labels)]])

        # The table's own columns and no more: the labels, then one column per value of the
        # across field anywhere in the data (as create_pivot_table makes them), else one.
        width = 1 if ac is None else cached(ctx, f"{self.id}/{book.id}/{spec.across}/width", lambda: len(
            {_label(v) for (s, r, c), v in start.inputs.items() if s == data and c == ac and r > 0 and v not in (None, "")}))
        scope = f"{spec.rows}" + (f" and {spec.across}" if ac is not None else "")
        where = (f"one column per {spec.across} value across row 1 (each headed by that value), each cell the "
                 f"{ASK[spec.agg].format(value=spec.value, things=THINGS[spec.tab])} for that {spec.rows} and {spec.across}"
                 if ac is not None else
                 f"and in column B the {ASK[spec.agg].format(value=spec.value, things=THINGS[spec.tab])} for that {spec.rows}")
        keep = ("Use formulas so the summary stays current when the data changes." if live else "Plain numbers are fine; it need not update itself.")
        prompt = (f"In the Google Sheet \"{book.title}\", add a tab named \"{title}\" that summarises the {spec.tab} tab like a pivot table by "
                  f"{scope}: header \"{spec.rows}\" in A1, one row per {spec.rows} below it (those with any {THINGS[spec.tab]}; blanks left out, "
                  f"no total row), {where}. {keep} Change nothing else.")
        checks = [Check(f"the {title!r} tab summarises {spec.tab} by {scope}", table_check)]
        if live:
            checks.append(Check("the summary is live formulas over the data", live_check, 2.0))
        return TaskInstance(
            prompt=prompt,
            checks=checks,
            expected=[*allow_new_tab(book.id, title, lambda _r, c: c <= width), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                      *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(alternative,),
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise,
                        decoy=decoy),
            facts={"spreadsheet": book.id, "tab": title, "rows": spec.rows, "across": spec.across, "value": spec.value, "agg": spec.agg,
                   "live": live, "data": spec.tab, "last_row": last + 1},
        )


def _rounds(cells: Any, spec: Spec, data: int, last: int, rc: int, ac: int | None, vc: int, shown: set[tuple[str, str | None]]
            ) -> list[dict[Any, Any]]:
    """Changes to the data under which every cell of the summary must move. First, in every
    group one row changes: a count loses it (its row label blanked), a total, largest or
    average sees its largest value nudged. Then every cell that round cannot move (an empty
    combination, a group whose values stay 0 when nudged, such as Weighted on lost deals)
    gains a row with a value from elsewhere (the largest values first). No row leaves the last
    row of its row or column label (a count whose group would run out gains a row instead), so
    the labels stay what they are: labels a formula lists (=SORT(UNIQUE(…))) do not shift."""
    nudge = spec.columns[spec.nudge]
    members: dict[tuple[str, str | None], list[int]] = {}
    row_text: dict[str, Any] = {}  # a label as the data writes it
    col_text: dict[str | None, Any] = {}
    for r in range(1, last + 1):
        label = cells.get((data, r, rc))
        across = cells.get((data, r, ac)) if ac is not None else None
        if label in (None, "") or across == "":
            continue
        row_text.setdefault(_label(label), label)
        col_text.setdefault(_label(across) if ac is not None else None, across)
        members.setdefault((_label(label), _label(across) if ac is not None else None), []).append(r)
    value = lambda r: cells.get((data, r, vc)) if isinstance(cells.get((data, r, vc)), (int, float)) else 0.0  # noqa: E731
    group_of = {r: group for group, rs in members.items() for r in rs}

    def rows_per_label() -> tuple[Counter, Counter]:
        return Counter(g[0] for g in group_of.values()), Counter(g[1] for g in group_of.values())

    def can_lose(r: int, left: tuple[Counter, Counter]) -> bool:
        """Whether row `r` may leave its group without its row or column label running out of
        rows (labels a formula lists, =SORT(UNIQUE(…)), would then shift); if so, it is counted out."""
        row, col = group_of[r]
        if left[0][row] < 2 or left[1][col] < 2:
            return False
        left[0][row] -= 1
        left[1][col] -= 1
        return True

    first: dict[Any, Any] = {}
    needs_donor = [cell for cell in sorted(shown, key=repr) if cell not in members]
    left = rows_per_label()
    for group, rs in members.items():
        top = max(rs, key=lambda r: (abs(value(r)), -r))
        if spec.agg == "count":
            if can_lose(top, left):
                first[(data, top, rc)] = None
            elif group in shown:  # its last row: it gains one instead
                needs_donor.append(group)
        elif abs(value(top)) > 0 and isinstance(cells.get((data, top, nudge)), (int, float)):
            first[(data, top, nudge)] = cells.get((data, top, nudge)) + spec.delta
        elif group in shown:
            needs_donor.append(group)
    # Each round runs on its own copy of the data, so any row may give in a later round; within
    # one, each row gives once (and only to cells no round above has moved).
    donors = sorted((r for rs in members.values() for r in rs if spec.agg == "count" or abs(value(r)) > 0),
                    key=lambda r: (-abs(value(r)), r))
    rounds = [first]
    waiting = needs_donor
    while waiting:
        moves: dict[Any, Any] = {}
        left, pool, given = rows_per_label(), iter(donors), 0
        for row, col in waiting:
            donor = next((r for r in pool if group_of[r] != (row, col) and can_lose(r, left)), None)
            if donor is None:
                break
            moves[(data, donor, rc)] = row_text.get(row, row)
            if ac is not None:
                moves[(data, donor, ac)] = col_text.get(col, col)
            given += 1
        if not given:
            break
        rounds.append(moves)
        waiting = waiting[given:]
    return rounds + _gains(cells, spec, data, rc, ac, members, group_of, row_text, col_text, shown, rows_per_label, can_lose, value)


def _gains(cells: Any, spec: Spec, data: int, rc: int, ac: int | None, members: dict, group_of: dict, row_text: dict,
           col_text: dict, shown: set, rows_per_label: Callable, can_lose: Callable, value: Callable) -> list[dict[Any, Any]]:
    """Rounds in which every cell with data gains a row it did not have (one from below its group's last row where the
    table has one, a row with a value, the largest for a largest-value cell): a cell that reads only the rows its group
    holds today (=F5+F17, or a range cut off at the group's last row) misses it. No row leaves the last row of its
    label, as above."""
    nudge = spec.columns[spec.nudge]
    top = max((v for r in group_of if isinstance(v := cells.get((data, r, nudge)), (int, float))), default=0.0)
    rows = sorted(group_of)
    waiting = [cell for cell in sorted(shown, key=repr) if cell in members]
    rounds: list[dict[Any, Any]] = []
    while waiting:
        moves: dict[Any, Any] = {}
        left, used, given = rows_per_label(), set(), 0
        for cell in waiting:
            last_row = max(members[cell])
            fits = [r for r in rows if r not in used and group_of[r] != cell and (spec.agg in ("count", "max") or abs(value(r)) > 0)]
            fits.sort(key=lambda r: (r < last_row, -abs(value(r)), r))
            donor = next((r for r in fits if can_lose(r, left)), None)
            if donor is None:
                break
            used.add(donor)
            moves[(data, donor, rc)] = row_text.get(cell[0], cell[0])
            if ac is not None:
                moves[(data, donor, ac)] = col_text.get(cell[1], cell[1])
            if spec.agg == "max" and isinstance(cells.get((data, donor, nudge)), (int, float)):
                moves[(data, donor, nudge)] = top + abs(spec.delta)  # above every value: the group's largest moves
            given += 1
        if not given:
            break
        rounds.append(moves)
        waiting = waiting[given:]
    return rounds
