"""Row rules for the filter family: conditions on one column of a seeded table, worded for the
prompt, tested on values as the engine holds them (numbers, date serials, text) or as a reader
copies them (formatted text such as "$12,000" or "2026-03-04", read back the way typing them
would), and the concrete rules a template offers (thresholds and dates that no row sits on,
so "over" and "before" are never a judgement call)."""

from __future__ import annotations

import functools

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from apps.sheets.entry import enter
from apps.sheets.formulas.values import CellError, from_serial


def norm(value: Any) -> Any:
    """One comparable form of a cell value: numbers (and dates, as serials) as rounded floats,
    text stripped and lower-cased, blanks as ""."""
    if value is None or isinstance(value, bool) or isinstance(value, CellError):
        return "" if value is None else value
    if isinstance(value, (int, float)):
        return round(float(value), 6)
    return _norm_text(str(value))


@functools.lru_cache(maxsize=65_536)
def _norm_text(raw: str) -> Any:
    """Text read the way typing it reads (cached: tables repeat their stages, names and dates)."""
    text = raw.strip()
    read = enter(text, "USER_ENTERED") if text and not text.startswith("=") else None
    if read is not None and isinstance(read.value, float):
        return round(read.value, 6)
    return text.lower()


@dataclass(frozen=True, slots=True)
class Test:
    col: int
    op: str  # eq, ne, in, not_prefix, gt, lt
    value: Any
    words: str

    def holds(self, row: Sequence[Any]) -> bool:
        got = norm(row[self.col]) if self.col < len(row) else ""
        want = self.value
        if self.op == "eq":
            return got == norm(want)
        if self.op == "ne":
            return got != norm(want)
        if self.op == "in":
            return got in {norm(v) for v in want}
        if self.op == "not_prefix":
            return not (isinstance(got, str) and got.startswith(str(want).lower()))
        if not isinstance(got, float):
            return False
        return got > want if self.op == "gt" else got < want


@dataclass(frozen=True, slots=True)
class Rule:
    title: str  # the spreadsheet's title prefix
    tab: str
    literal: int  # columns 0..literal-1 are typed in; the rest are formulas
    tests: tuple[Test, ...]
    either: bool = False  # any one test is enough (the rule as a careless reader widens it)

    def holds(self, row: Sequence[Any]) -> bool:
        return (any if self.either else all)(t.holds(row) for t in self.tests)

    @property
    def words(self) -> str:
        return (" or " if self.either else " and ").join(t.words for t in self.tests)


def _day(serial: float) -> str:
    day = from_serial(serial)
    return f"{day:%B} {day.day}, {day.year}"


def rules_for(title: str, tab: str, literal: int, rows: list[list[Any]]) -> list[Rule]:
    """The concrete rules this table offers: every pairing below with parameters where the
    rule keeps at least 3 rows and leaves out at least a third."""
    out: list[Rule] = []

    def add(*tests: Test) -> None:
        rule = Rule(title, tab, literal, tests)
        kept = sum(rule.holds(r) for r in rows)
        if 3 <= kept <= len(rows) * 2 // 3:
            out.append(rule)

    def column(col: int) -> list[Any]:
        return [norm(r[col]) for r in rows]

    def thresholds(col: int, step: float) -> list[float]:
        values = sorted(v for v in column(col) if isinstance(v, float))
        picked = []
        for q in (0.4, 0.6, 0.75):
            near = round(values[int(q * (len(values) - 1))] / step) * step
            # a round line no row sits on: the nearest multiple of the step, else half a step off
            t = next((c for c in (near, near + step / 2, near - step / 2) if c > 0 and c not in values), None)
            if t is not None and t not in picked:
                picked.append(t)
        return picked

    def dates(col: int) -> list[float]:
        values = sorted(v for v in column(col) if isinstance(v, float))
        picked: list[float] = []
        for q in (0.35, 0.65):
            d = float(int(values[int(q * (len(values) - 1))]) + 1)
            while d in values:  # a day no row is on: "before" it is never a judgement call
                d += 1
            if d not in picked:
                picked.append(d)
        return picked

    def people(col: int) -> list[str]:
        seen: dict[str, str] = {}
        for r in rows:
            if r[col] not in (None, ""):
                seen.setdefault(norm(r[col]), str(r[col]))
        return [seen[k] for k in sorted(seen)]

    if tab == "Pipeline":
        open_ = Test(4, "not_prefix", "Closed", 'the deal is open (its Stage is neither "Closed Won" nor "Closed Lost")')
        won = Test(4, "eq", "Closed Won", 'Stage is "Closed Won"')
        for t in thresholds(5, 10_000):
            add(open_, Test(5, "gt", t, f"Amount is over ${t:,.0f}"))
            add(won, Test(5, "gt", t, f"Amount is over ${t:,.0f}"))
        for person in people(3):
            add(Test(3, "eq", person, f"Owner is {person}"), open_)
        for d in dates(6):
            add(open_, Test(6, "lt", d, f"Close Date is before {_day(d)}"))
    else:
        open_ = Test(4, "ne", "Done", 'Status is not "Done"')
        urgent = Test(3, "in", ("High", "Highest"), 'Priority is "High" or "Highest"')
        add(open_, urgent)
        add(Test(2, "eq", "Bug", 'Type is "Bug"'), open_)
        for person in people(6):
            add(Test(6, "eq", person, f"Assignee is {person}"), open_)
        for d in dates(7):
            add(urgent, Test(7, "lt", d, f"Created is before {_day(d)}"))
    return out

