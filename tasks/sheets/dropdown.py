"""sheets/add-dropdown-v1: add a column to a seeded table (the sales pipeline, the support
tickets) with a dropdown of given options in every row, and pick an option for two rows.

Graded on the final book: the header in J1 (the first free column, as the prompt says); a data
validation rule that shows a dropdown (ONE_OF_LIST, or ONE_OF_RANGE over cells that list the
options, with showCustomUi: without it Google Sheets shows no dropdown, only checks what is
typed) on every data row of column J, one rule for all of them, and none on the header; the
options exactly those asked, spelled and ordered as asked (they are what everyone picks from, and
so what the column will hold: "high" beside "High", or the list in another order, is what a
reviewer sends back; the prompt says "in that order"); no other validation on the tab (a
dropdown on the wrong column, or one taking in the next column, is wrong); the two rows hold the
options asked (as a pick would give them, case aside), every other row of the column blank.

The rule may reach below the table (a dropdown on J2:J1000, as people set one on a whole
column, is right). A list the dropdown reads (ONE_OF_RANGE) may be written where the rule
points, on a new tab (hidden or not) or in empty cells: that is part of the work. Nothing else
may change; a new tab or cells elsewhere are collateral. An empty column inserted at J first (the
grid's "insert column", or add_columns) is the column added: the grid grows by one, nothing moves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from apps.sheets import conditions, validation
from apps.sheets.a1 import A1Error, cell_name, parse_range
from apps.sheets.models import Sheet
from graders.checks import Check, CheckResult, failed, passed
from graders.diff import RowChange
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_cells, allow_discarded, allow_formatting, allow_touch, final, pick, same, seeded, seeded_ids, tab_named, template_book, wreck,
)
from tasks.sheets._formatting import tab_formatting

COLUMN = 9  # J: the first free column of both tables (A to I)
PAIRS = 5  # pairs of rows per table an instance may ask to set


@dataclass(frozen=True, slots=True)
class Spec:
    title: str  # the spreadsheet's title prefix
    tab: str
    noun: str  # how the prompt names a row: "deal", "ticket"
    header: str
    options: tuple[str, ...]


SPECS = (
    Spec("Sales Forecast", "Pipeline", "deal", "Forecast Category", ("Pipeline", "Best Case", "Commit", "Omitted")),
    Spec("Sales Forecast", "Pipeline", "deal", "Next Step", ("Discovery call", "Demo", "Proposal", "Contract")),
    Spec("Sales Forecast", "Pipeline", "deal", "Deal Risk", ("Low", "Medium", "High")),
    Spec("Sales Forecast", "Pipeline", "deal", "Review Status", ("Not started", "In review", "Approved")),
    Spec("Support Metrics", "Tickets", "ticket", "Severity", ("S1", "S2", "S3", "S4")),
    Spec("Support Metrics", "Tickets", "ticket", "Root Cause", ("Bug", "Configuration", "User error", "Unknown")),
    Spec("Support Metrics", "Tickets", "ticket", "Follow-up", ("None", "Call customer", "Send docs", "Escalate")),
    Spec("Support Metrics", "Tickets", "ticket", "Channel", ("Email", "Phone", "Chat", "Portal")),
)
PICKS = ((0, 1), (2, 0), (1, 2), (2, 1))  # which options the two rows get (by index)


def _quoted(options: tuple[str, ...]) -> str:
    quoted = [f'"{o}"' for o in options]
    return ", ".join(quoted[:-1]) + f" and {quoted[-1]}"


class AddDropdown:
    id = "sheets/add-dropdown-v1"
    apps = ("sheets",)
    difficulty = "easy"
    summary = "Add a column with a dropdown of given options to a table, and pick an option for two of its rows."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            for title, tab in {(s.title, s.tab) for s in SPECS}:
                book = seeded(ctx, title)
                cells, sid = template_book(ctx, book.id), book.tabs[tab]
                last = max(r for (s, r, c) in cells.inputs if s == sid and c == 0)
                keys = [str(cells.get((sid, r, 0))) for r in range(1, last + 1)]
                rows = shuffled(self.id, ctx, range(1, last + 1), f"rows/{tab}")[:2 * PAIRS]
                ctx.cache[f"{self.id}/{tab}"] = (last, [(keys[a - 1], keys[b - 1]) for a, b in zip(rows[::2], rows[1::2])])
            return (shuffled(self.id, ctx, SPECS, "spec"), shuffled(self.id, ctx, range(PAIRS), "pair"), shuffled(self.id, ctx, PICKS, "pick"))

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        spec, pair, (i, j) = pick(self.id, ctx, self._axes(ctx))
        book = seeded(ctx, spec.title)
        sid = book.tabs[spec.tab]
        last, pairs = ctx.cache[f"{self.id}/{spec.tab}"]
        (key_a, key_b), options = pairs[pair], spec.options
        asked = {key_a: options[i], key_b: options[j]}
        key_name = "Deal ID" if spec.tab == "Pipeline" else "Key"
        prompt = (f"In the Google Sheet \"{book.title}\", add a \"{spec.header}\" column to the {spec.tab} tab in column J, the first "
                  f"free column: the header \"{spec.header}\" in J1, and in every {spec.noun} row of the table below it a dropdown of the "
                  f"options {_quoted(options)} (in that order). Then set it to \"{options[i]}\" for the {spec.noun} with {key_name} "
                  f"{key_a} and to \"{options[j]}\" for {key_b}, and leave it blank for the other {spec.noun}s. Change nothing else.")

        # -- grading --------------------------------------------------------------------------
        def tab_row(db: Any) -> Any:
            return db.scalars(select(Sheet).where(Sheet.spreadsheet_id == book.id, Sheet.sheet_id == sid)).first()

        def data_rows(cells: Any, tab: int) -> dict[str, int]:
            """Key → row (0-based) of every row of the table, as the book holds it now."""
            height = cells.extent(tab)[0]
            found: dict[str, int] = {}
            for r in range(1, height):
                key = cells.get((tab, r, 0))
                if key not in (None, ""):
                    found.setdefault(str(key).strip().lower(), r)
            return found

        def header_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            if tab_named(sb, spec.tab) is None:
                return failed(f"there is no {spec.tab} tab")
            got = sb.book.get((sid, 0, COLUMN))
            return passed(f"J1 is {spec.header!r}") if same(got, spec.header) else failed(f"J1 is {got!r}, expected the header {spec.header!r}")

        def listed(sb: Any, rule: dict[str, Any]) -> list[str] | None:
            """The options a rule's dropdown offers, as shown (None: not a list)."""
            condition = rule.get("condition") or {}
            if condition.get("type") == "ONE_OF_LIST":
                items = [v.get("userEnteredValue", "") for v in condition.get("values") or []]
            elif condition.get("type") == "ONE_OF_RANGE":
                items = conditions.reader_for(sb, sid).cells(condition["values"][0]["userEnteredValue"][1:])
            else:
                return None
            return [str(v).strip() for v in items if v not in (None, "") and str(v).strip()]

        def dropdown_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            if tab_named(sb, spec.tab) is None:
                return failed(f"there is no {spec.tab} tab")
            tab = tab_row(db)
            rows = sorted(data_rows(sb.book, sid).values())
            if not rows:
                return failed(f"the {spec.tab} table has no rows")
            rules = validation.rules(tab)
            for (r1, c1, r2, c2), _ in rules:
                if (c1, c2) != (COLUMN, COLUMN + 1):
                    return failed(f"there is a validation rule on {_area(r1, c1, r2, c2)}: the dropdown belongs in column J alone")
                if r1 == 0:
                    return failed("the header J1 has the dropdown too: it belongs on the rows below the header")
            first = validation.rule_at(tab, rows[0], COLUMN)
            for r in rows:
                rule = validation.rule_at(tab, r, COLUMN)
                if rule is None:
                    return failed(f"{cell_name(r, COLUMN)} has no dropdown")
                if rule != first:
                    return failed(f"{cell_name(r, COLUMN)} has another rule than {cell_name(rows[0], COLUMN)}: one dropdown for the column was asked")
            items = listed(sb, first)
            if items is None:
                return failed(f"the rule on column J is {first['condition']['type']}, not a dropdown of options")
            if not first.get("showCustomUi"):
                return failed("the rule shows no dropdown in the cells (showCustomUi is off): it only checks what is typed")
            if items != list(options):
                return failed(f"the dropdown offers {items}; asked {list(options)}, in that order")
            return passed(f"every {spec.noun} row of column J has the dropdown {list(options)}")

        def values_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            if tab_named(sb, spec.tab) is None:
                return failed(f"there is no {spec.tab} tab")
            rows = data_rows(sb.book, sid)
            for key, option in asked.items():
                r = rows.get(key.lower())
                if r is None:
                    return failed(f"there is no {spec.noun} {key} on {spec.tab}")
                got = sb.book.get((sid, r, COLUMN))
                if not same(got, option):
                    return failed(f"{cell_name(r, COLUMN)} ({key}) is {got!r}, expected {option!r}")
            keep = {k.lower() for k in asked}
            for key, r in sorted(rows.items(), key=lambda item: item[1]):
                got = sb.book.get((sid, r, COLUMN))
                if key not in keep and got not in (None, ""):
                    return failed(f"{cell_name(r, COLUMN)} ({key}) holds {got!r}: only {' and '.join(asked)} were to be set")
            return passed(f"{key_a} is {options[i]!r}, {key_b} is {options[j]!r}, the other rows blank")

        # -- solutions --------------------------------------------------------------------------
        span = {"sheetId": sid, "startRowIndex": 1, "endRowIndex": last + 1, "startColumnIndex": COLUMN, "endColumnIndex": COLUMN + 1}

        def one_of(items: tuple[str, ...] | list[str]) -> dict[str, Any]:
            return {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": o} for o in items]}, "showCustomUi": True, "strict": True}

        async def rows_of(tools: Tools) -> dict[str, int]:
            got = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet=spec.tab, range="A1:A")
            return {str(line[0]): n for n, line in enumerate(got["valueRanges"][0]["values"], start=1) if line}

        async def put(tools: Tools, picks: dict[str, str], column: str = "J") -> None:
            where = await rows_of(tools)
            await tools.call("batch_update_cells", spreadsheet_id=book.id, sheet=spec.tab,
                             ranges={f"{column}{where[k]}": [[v]] for k, v in picks.items()})

        async def oracle(tools: Tools) -> None:
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"setDataValidation": {"range": span, "rule": one_of(options)}}])
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=spec.tab, range="J1", data=[[spec.header]])
            await put(tools, asked)

        async def alternative(tools: Tools) -> None:
            """The options listed on a hidden "Lists" tab and the rule read from there (ONE_OF_RANGE),
            set with repeatCell over the whole column below the header; the cells by updateCells."""
            added = await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"addSheet": {"properties": {"title": "Lists"}}}])
            lists = added["replies"][0]["addSheet"]["properties"]["sheetId"]
            await tools.call("update_cells", spreadsheet_id=book.id, sheet="Lists", range=f"A1:A{len(options)}", data=[[o] for o in options])
            where = await rows_of(tools)
            rule = {"condition": {"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": f"=Lists!$A$1:$A${len(options)}"}]}, "showCustomUi": True}
            cell = lambda text: {"values": [{"userEnteredValue": {"stringValue": text}}]}  # noqa: E731
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[
                {"updateSheetProperties": {"properties": {"sheetId": lists, "hidden": True}, "fields": "hidden"}},
                {"repeatCell": {"range": {**span, "endRowIndex": 1000}, "cell": {"dataValidation": rule}, "fields": "dataValidation"}},
                {"updateCells": {"start": {"sheetId": sid, "rowIndex": 0, "columnIndex": COLUMN}, "rows": [cell(spec.header)],
                                 "fields": "userEnteredValue"}},
                *[{"updateCells": {"start": {"sheetId": sid, "rowIndex": where[k] - 1, "columnIndex": COLUMN}, "rows": [cell(v)],
                                   "fields": "userEnteredValue"}} for k, v in asked.items()]])

        async def say(tools: Tools, text: str) -> None:
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=spec.tab, range="J1", data=[[text]])

        async def wrong(tools: Tools) -> None:  # a draft beside it: column K with one option more
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"setDataValidation": {
                "range": {**span, "startColumnIndex": COLUMN + 1, "endColumnIndex": COLUMN + 2}, "rule": one_of([*options, "Other"])}}])
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=spec.tab, range="K1", data=[[spec.header]])
            await put(tools, asked, "K")

        async def everything(tools: Tools) -> None:  # a dropdown offering everything plausible
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"setDataValidation": {
                "range": span, "rule": one_of([*options, "Other", "N/A"])}}])
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=spec.tab, range="J1", data=[[spec.header]])
            await put(tools, asked)

        async def wrong_record(tools: Tools) -> None:  # the right dropdown, the picks on the next pair's rows
            other = pairs[(pair + 1) % len(pairs)]
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"setDataValidation": {"range": span, "rule": one_of(options)}}])
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=spec.tab, range="J1", data=[[spec.header]])
            await put(tools, {other[0]: options[i], other[1]: options[j]})

        async def shotgun(tools: Tools) -> None:  # the dropdown on the whole column, header and all
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"setDataValidation": {
                "range": {**span, "startRowIndex": 0, "endRowIndex": 1000}, "rule": one_of(options)}}])
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=spec.tab, range="J1", data=[[spec.header]])
            await put(tools, asked)

        async def vandalise(tools: Tools) -> None:
            await oracle(tools)
            await wreck(tools, book.id)

        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"J1 is the header {spec.header!r}", header_check),
                    Check(f"every {spec.noun} row of column J has a dropdown of {list(options)}", dropdown_check, 2.0),
                    Check(f"{key_a} and {key_b} set, the other rows blank", values_check)],
            expected=[*allow_cells(book.id, sid, lambda r, c: c == COLUMN and r <= last), allow_touch(book.id), allow_formatting(book.id),
                      _allow_tab(book.id, sid), *_allow_list(book.id, sid), *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(alternative,),
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise),
            facts={"spreadsheet": book.id, "tab": spec.tab, "sheet_id": sid, "header": spec.header, "options": list(options),
                   "asked": asked, "last": last + 1},
        )


def _area(r1: int, c1: int, r2: int, c2: int) -> str:
    return f"{cell_name(r1, c1)}:{cell_name(r2 - 1, c2 - 1)}"


def _allow_tab(spreadsheet_id: str, sheet_id: int) -> Expect:
    """The table's tab given its validation rules (what they hold, the checks judge) or a column
    more (an empty column inserted at J, as "add a column" is done in the grid: the grid grows,
    nothing moves), with any formatting that hides nothing in the same change."""
    def covers(change: RowChange) -> bool:
        row, before, after = change.row, change.before or {}, change.after or {}
        if change.change != "update" or row.get("spreadsheet_id") != spreadsheet_id or row.get("sheet_id") != sheet_id:
            return False
        changed = set(change.changed_columns)
        if not changed & {"data_validation", "column_count"}:
            return False
        if "column_count" in changed and not (after.get("column_count") or 0) > (before.get("column_count") or 0):
            return False
        rest = RowChange(change.table, change.key, change.change, before,
                         {**after, "data_validation": before.get("data_validation"), "column_count": before.get("column_count")})
        return not rest.changed_columns or tab_formatting(rest, spreadsheet_id)

    return Expect("sheets_tabs", "update", covers)


def _allow_list(spreadsheet_id: str, sheet_id: int) -> list[Expect]:
    """The list a ONE_OF_RANGE dropdown on the table's tab reads, written where it points: a new
    tab of that title, and cells filled in its range (never cells that held something)."""
    def pointed(db: Any) -> tuple[str, int | None, tuple[int, int, int, int]] | None:
        tab = db.scalars(select(Sheet).where(Sheet.spreadsheet_id == spreadsheet_id, Sheet.sheet_id == sheet_id)).first()
        if tab is None:
            return None
        for _, rule in validation.rules(tab):
            condition = rule.get("condition") or {}
            if condition.get("type") != "ONE_OF_RANGE":
                continue
            try:
                title, area = parse_range(condition["values"][0]["userEnteredValue"][1:])
            except A1Error:
                return None
            if area is None:
                return None
            title = title or tab.title
            found = next((i for i, t in db.execute(select(Sheet.sheet_id, Sheet.title).where(Sheet.spreadsheet_id == spreadsheet_id))
                          if t.strip().lower() == title.strip().lower()), None)
            return title.strip().lower(), found, (area.r1, area.c1, area.r2 if area.r2 is not None else 10**6,
                                                  area.c2 if area.c2 is not None else 10**6)
        return None

    def new_tab(change: RowChange, at: Any) -> bool:
        return at is not None and change.row.get("spreadsheet_id") == spreadsheet_id and str(change.row.get("title", "")).strip().lower() == at[0]

    def cells(change: RowChange, at: Any) -> bool:
        row = change.row
        if at is None or at[1] is None or row.get("spreadsheet_id") != spreadsheet_id or row.get("sheet_id") != at[1]:
            return False
        r1, c1, r2, c2 = at[2]
        return r1 <= row["row"] < r2 and c1 <= row["col"] < c2

    return [Expect("sheets_tabs", "insert", new_tab, given=pointed), Expect("sheets_cells", "insert", cells, given=pointed)]
