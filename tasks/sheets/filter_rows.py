"""sheets/filter-by-rule-v1: keep only the rows of a seeded table that match a rule in the prompt
(open deals over an amount, one owner's open deals, urgent open tickets, ...): either copy them
into a new tab, header first, in their original order, or delete every other row of the table.

Graded on the final book, rows read as tuples of the table's typed columns (a copied "$12,000"
or "2026-03-04" reads as the number or date it shows): exactly the matching rows, in their
original order; a missing, extra or wrong row fails, and so does deleting a row the rule keeps.
Copied values and a FILTER() formula both pass; the new tab holds the rows, as wide as the
table, and nothing beside or below them. Deleting rows shifts the references of the
spreadsheet's summary formulas, which is the product doing its job, not collateral; the kept
rows' own formula columns (Probability, Weighted, Age) must still compute from their row.
"""

from __future__ import annotations

import random
import re
from typing import Any

from apps.sheets.a1 import column_letter
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, count, shuffled
from tasks.sheets._common import (
    allow_discarded, allow_cells, allow_formatting, allow_new_tab, allow_recalc, allow_touch, final, keeps_formulas, pick, seeded, seeded_ids, tab_named, template_book, wreck,
)
from tasks.sheets._rules import Rule, Test, norm, rules_for

TABLES = (("Sales Forecast", "Pipeline", 7, 9), ("Support Metrics", "Tickets", 8, 9))  # title, tab, typed columns, width
MODES = ("copy", "delete")
TITLES = ("Filtered", "Shortlist", "Matches")
NEW_TAB_ROWS = 1000  # the grid of a tab made with create_sheet
_DIGITS = re.compile(r"\d+")
CLOSED_STAGES = ("Closed Won", "Closed Lost")


def _rows(cells: Any, sid: int, width: int, typed: int) -> list[tuple[int, list[Any]]]:
    """(row, its first `width` values) of every row below the header with anything in its
    first `typed` columns, top to bottom (a row of formula remnants alone is no row)."""
    height = cells.extent(sid)[0]
    out = []
    for r in range(1, height):
        line = [cells.get((sid, r, c)) for c in range(width)]
        if any(v not in (None, "") for v in line[:typed]):
            out.append((r, line))
    return out


class FilterByRule:
    id = "sheets/filter-by-rule-v1"
    apps = ("sheets",)
    difficulty = "medium"
    summary = "Keep only the rows of a table that match a rule: copy them to a new tab, or delete the others."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple, ...]:
            rules: list[Rule] = []
            for title, tab, literal, width in TABLES:
                book = seeded(ctx, title)
                cells = template_book(ctx, book.id)
                table = _rows(cells, book.tabs[tab], width, literal)
                rows = [[norm(v) for v in line] for _, line in table]
                found = rules_for(title, tab, literal, [line for _, line in table])  # as shown: "Owner is Ann Lee", not "ann lee"
                header = [cells.get((book.tabs[tab], 0, c)) for c in range(width)]
                for rule in found:  # what sampling needs, so a create reads nothing: header, last row, kept rows
                    ctx.cache[self._key(rule)] = (header, table[-1][0], [tuple(line[:literal]) for line in rows if rule.holds(line)])
                rules.extend(found)
            return (shuffled(self.id, ctx, rules, "rule"), shuffled(self.id, ctx, MODES, "mode"), shuffled(self.id, ctx, TITLES, "title"))

        return cached(ctx, self.id, build)

    def _key(self, rule: Rule) -> str:
        return f"{self.id}/{rule.tab}/{rule.words}"

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        rule, mode, title = pick(self.id, ctx, self._axes(ctx))
        width = next(w for t, tab, _, w in TABLES if tab == rule.tab)
        book = seeded(ctx, rule.title)
        data = book.tabs[rule.tab]
        literal = rule.literal

        header, last, want = ctx.cache[self._key(rule)]

        def got_rows(sb: Any, sid: int) -> tuple[list[Any], list[tuple[Any, ...]]]:
            cells = sb.book
            return [cells.get((sid, 0, c)) for c in range(literal)], [tuple(norm(v) for v in line[:literal]) for _, line in _rows(cells, sid, width, literal)]

        def verdict(now: list[tuple[Any, ...]]) -> str:
            if now == want:
                return ""
            if sorted(now, key=repr) == sorted(want, key=repr):
                return "the right rows, but not in their original order"
            extra = [r[0] for r in now if r not in want]
            missing = [r[0] for r in want if r not in now]
            return f"{len(now)} rows where {len(want)} match the rule: extra {extra[:4]}, missing {missing[:4]}"

        def rows_check(db: Any) -> CheckResult:
            sb = final(db, book.id)
            sid = tab_named(sb, title) if mode == "copy" else data
            if sid is None:
                return failed(f"there is no tab named {title!r}")
            heads, now = got_rows(sb, sid)
            if [norm(h) for h in heads] != [norm(h) for h in header[:literal]]:
                return failed(f"the header row is {heads}, expected {header[:literal]}")
            why = verdict(now)
            return failed(why) if why else passed(f"exactly the {len(want)} rows where {rule.words}, in order")

        def formulas_check(db: Any) -> CheckResult:
            """Deleting rows asks no change to the table's formula columns: each kept row still
            computes its Probability and Weighted (or Age), having moved with its row."""
            if not rows_check(db).passed:
                return failed("the rows are not the ones asked for, so their formulas are not checked")
            sb = final(db, book.id)
            ok, why = keeps_formulas(sb, book.tabs, rule.tab, [r for r, _ in _rows(sb.book, data, width, literal)])
            return passed(f"every kept row still computes its {rule.tab} formulas") if ok else failed(why)

        # -- solutions ------------------------------------------------------------------------
        end = column_letter(width - 1)

        async def shown_rows(tools: Tools) -> list[list[Any]]:
            got = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet=rule.tab, range=f"A1:{end}{last + 1}")
            return [[*line, *[""] * (width - len(line))] for line in got["valueRanges"][0]["values"]]

        async def copy_into(tools: Tools, name: str, keep: Rule | None) -> None:
            lines = await shown_rows(tools)
            body = [lines[0][:literal], *[line[:literal] for line in lines[1:] if keep is None or keep.holds(line)]]
            await tools.call("create_sheet", spreadsheet_id=book.id, title=name)
            if len(body) > NEW_TAB_ROWS:  # a new tab has 1,000 rows, as in Google Sheets: grow it first
                await tools.call("add_rows", spreadsheet_id=book.id, sheet=name, count=len(body) - NEW_TAB_ROWS, start_row=NEW_TAB_ROWS)
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=name, range=f"A1:{column_letter(literal - 1)}{len(body)}", data=body)

        async def delete_others(tools: Tools, keep: Rule) -> None:
            lines = await shown_rows(tools)
            doomed = [i for i, line in enumerate(lines) if i > 0 and any(v != "" for v in line[:literal]) and not keep.holds(line)]
            runs: list[list[int]] = []
            for i in doomed:
                if runs and runs[-1][1] == i:
                    runs[-1][1] = i + 1
                else:
                    runs.append([i, i + 1])
            requests = [{"deleteDimension": {"range": {"sheetId": data, "dimension": "ROWS", "startIndex": a, "endIndex": b}}}
                        for a, b in reversed(runs)]  # bottom up, so each index still means the row it meant
            if requests:
                await tools.call("batch_update", spreadsheet_id=book.id, requests=requests)

        async def rewrite(tools: Tools) -> None:
            """Rewrite the kept rows' typed columns at the top and clear the rest (the formula
            columns stay and follow their row)."""
            raw = await tools.call("get_sheet_formulas", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(literal - 1)}{last + 1}")
            shown = (await shown_rows(tools))[1:]
            keep = [[*raw[i], *[""] * (literal - len(raw[i]))] for i, line in enumerate(shown) if rule.holds(line)]
            blank = [[""] * width for _ in range(len(shown) - len(keep))]
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=rule.tab, range=f"A2:{column_letter(literal - 1)}{len(keep) + 1}", data=keep)
            if blank:
                await tools.call("update_cells", spreadsheet_id=book.id, sheet=rule.tab, range=f"A{len(keep) + 2}:{end}{last + 1}", data=blank)

        async def oracle(tools: Tools) -> None:
            await (copy_into(tools, title, rule) if mode == "copy" else rewrite(tools))

        async def alternative(tools: Tools) -> None:
            """Copy: a FILTER() formula under a typed header. Delete: the other rows deleted (deleteDimension, bottom up)."""
            if mode == "delete":
                await delete_others(tools, rule)
                return
            span = lambda c: f"{rule.tab}!{column_letter(c)}2:{column_letter(c)}{last + 1}"  # noqa: E731
            test = "*".join(f"({_condition(t, span(t.col))})" for t in rule.tests)
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"addSheet": {"properties": {"title": title}}}])
            await tools.call("batch_update_cells", spreadsheet_id=book.id, sheet=title, ranges={
                f"A1:{column_letter(literal - 1)}1": [header[:literal]],
                "A2": [[f"=FILTER({rule.tab}!A2:{column_letter(literal - 1)}{last + 1},{test})"]]})

        first = Rule(rule.title, rule.tab, rule.literal, rule.tests[:1])
        looser = Rule(rule.title, rule.tab, rule.literal, rule.tests[1:])
        everyone = Rule(rule.title, rule.tab, rule.literal, (Test(0, "ne", "", "any row"),))

        async def say(tools: Tools, text: str) -> None:
            if mode == "copy":
                await tools.call("create_sheet", spreadsheet_id=book.id, title=title)
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=title if mode == "copy" else rule.tab, range="A2", data=[[text]])

        async def wrong(tools: Tools) -> None:  # copy: a draft with half the rule left behind; delete: one kept row deleted first
            if mode == "copy":
                await copy_into(tools, f"{title} draft", first)
                return
            lines = await shown_rows(tools)
            keep = next(i for i, line in enumerate(lines) if i > 0 and rule.holds(line))
            await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"deleteDimension": {"range": {
                "sheetId": data, "dimension": "ROWS", "startIndex": keep, "endIndex": keep + 1}}}])

        async def everything(tools: Tools) -> None:  # every row (copy), or every row either condition keeps (delete)
            if mode == "copy":
                await copy_into(tools, title, everyone)
            else:
                await delete_others(tools, Rule(rule.title, rule.tab, rule.literal, rule.tests, either=True))

        async def wrong_record(tools: Tools) -> None:  # half the rule
            if mode == "copy":
                await copy_into(tools, title, looser)
            else:
                await delete_others(tools, first)

        async def shotgun(tools: Tools) -> None:
            await oracle(tools)
            if mode == "copy":
                for name in (f"{title} 2", f"{title} 3"):
                    await copy_into(tools, name, rule)
            else:
                other = next(sid for name, sid in book.tabs.items() if name != rule.tab)
                await tools.call("batch_update", spreadsheet_id=book.id, requests=[{"deleteDimension": {"range": {
                    "sheetId": other, "dimension": "ROWS", "startIndex": 1, "endIndex": 3}}}])

        async def vandalise(tools: Tools) -> None:
            await wreck(tools, book.id)

        async def decoy(tools: Tools) -> None:  # copy: three rows the rule drops above the rows it keeps; delete: `wrong`, then the task
            if mode != "copy":
                await wrong(tools)
                await oracle(tools)
                return
            lines = await shown_rows(tools)
            body = [lines[0][:literal], *[line[:literal] for line in lines[1:] if any(line[:literal]) and not rule.holds(line)][:3],
                    *[line[:literal] for line in lines[1:] if rule.holds(line)]]
            await tools.call("create_sheet", spreadsheet_id=book.id, title=title)
            if len(body) > NEW_TAB_ROWS:
                await tools.call("add_rows", spreadsheet_id=book.id, sheet=title, count=len(body) - NEW_TAB_ROWS, start_row=NEW_TAB_ROWS)
            await tools.call("update_cells", spreadsheet_id=book.id, sheet=title, range=f"A1:{column_letter(literal - 1)}{len(body)}", data=body)

        if mode == "copy":
            ask = (f"copy the {rule.tab} rows where {rule.words} into a new tab named \"{title}\": the header row first, then those rows "
                   f"(their columns A to {column_letter(literal - 1)}) in the order they appear on {rule.tab}. Leave {rule.tab} as it is.")
            # The rows as wide as the table (a copy of whole rows, formula columns too, is still
            # the rows asked for); nothing beside or below them is.
            expected = [*allow_new_tab(book.id, title, lambda r, c: c < width and r <= len(want)), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id)]
        else:
            ask = (f"delete every row of the {rule.tab} tab except those where {rule.words}, keeping the header row and the kept rows "
                   "in their order.")
            expected = [*allow_cells(book.id, data, lambda r, c: c < width), allow_touch(book.id), allow_recalc(book.id), allow_formatting(book.id),
                        _allow_shifted_references(book.id), _allow_resize(book.id, data)]
        prompt = f"In the Google Sheet \"{book.title}\", {ask} Change nothing else."
        checks = [Check(f"exactly the rows where {rule.words}, in order", rows_check)]
        if mode == "delete":
            checks.append(Check(f"the kept rows keep their {rule.tab} formulas", formulas_check, 2.0))
        return TaskInstance(
            prompt=prompt,
            checks=checks,
            expected=[*expected, *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            alternatives=(alternative,),
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise,
                        decoy=decoy),
            facts={"spreadsheet": book.id, "tab": rule.tab, "rule": rule.words, "mode": mode, "title": title, "rows": len(want)},
        )


def _condition(test: Test, span: str) -> str:
    """A FILTER condition over a column range for one test."""
    if test.op == "not_prefix":  # the stages that start with it, each ruled out
        return "*".join(f'({span}<>"{stage}")' for stage in CLOSED_STAGES)
    if test.op == "in":
        return "+".join(f'({span}="{v}")' for v in test.value)
    if test.op in ("gt", "lt"):
        return f"{span}{'>' if test.op == 'gt' else '<'}{test.value:g}"
    return f'{span}{"=" if test.op == "eq" else "<>"}"{test.value}"'


def _allow_shifted_references(spreadsheet_id: str) -> Expect:
    """A formula elsewhere in the spreadsheet whose references moved with the deleted rows:
    the same formula but for row numbers (and its value and precedents with it)."""

    def covers(change: Any) -> bool:
        before, after = change.before or {}, change.after or {}
        return (change.change == "update" and after.get("spreadsheet_id") == spreadsheet_id and before.get("formula") is not None
                and after.get("formula") is not None and _DIGITS.sub("#", before["formula"]) == _DIGITS.sub("#", after["formula"])
                and set(change.changed_columns) <= {"formula", "deps", "kind", "value", "note"})

    return Expect("sheets_cells", "update", covers)


def _allow_resize(spreadsheet_id: str, sheet_id: int) -> Expect:
    return Expect("sheets_tabs", "update", lambda c: c.row["spreadsheet_id"] == spreadsheet_id and c.row["sheet_id"] == sheet_id
                  and set(c.changed_columns) <= {"row_count"})
