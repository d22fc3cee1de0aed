"""JQL's history operators over the changelog: WAS, WAS NOT, WAS IN, WAS NOT IN and CHANGED,
with their predicates (AFTER, BEFORE, ON, DURING, BY; and FROM, TO for CHANGED).

An issue's history of one field is a run of spans: the value it was created with (the first
change's "from", or today's value when it never changed), held from its creation; then each
change's "to", held from that change until the next. The time predicates together make one
window — AFTER d: after d; BEFORE d: before d; ON day: within that day; DURING (a, b): from a
to b, both included — and WAS looks for a span holding one of the values at some moment in the
window, set BY one of the people named (the issue's creator set the value it was created
with); CHANGED looks for one change made in the window, BY one of the people, FROM and TO the
values named.

Times are Jira's text stamps (always UTC, fixed width), so comparing the text compares the
times. Values are names for status, priority and resolution, account ids for people; EMPTY is
None. The operators read every change of the field, so the matching issues are computed here
and the query narrows to their ids.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import select

from apps.tickets import catalog
from apps.tickets.ids import jira_time
from apps.tickets.jql import dates
from apps.tickets.jql.parser import Clause, Empty, Func, JqlError
from apps.tickets.models import Issue
from apps.tickets.queries import CHANGES_OF
from officegym.core.sql import Prepared

# JQL field name (lower case) → (the changelog's field name, the issue column holding today's value,
# whether the changelog's value is the id column (people) rather than the display string).
FIELDS: dict[str, tuple[str, Any, bool]] = {
    "status": ("status", Issue.status, False),
    "assignee": ("assignee", Issue.assignee_id, True),
    "reporter": ("reporter", Issue.reporter_id, True),
    "priority": ("priority", Issue.priority, False),
    "resolution": ("resolution", Issue.resolution, False),
}
WAS_PREDICATES = ("after", "before", "on", "during", "by")
CHANGED_PREDICATES = (*WAS_PREDICATES, "from", "to")


class Span(NamedTuple):
    value: str | None
    start: str
    end: str | None  # None: still held
    by: str | None


class Change(NamedTuple):
    when: str
    by: str | None
    old: str | None
    new: str | None


Bound = tuple[str, bool]  # (time, included)


@dataclass(frozen=True)
class Predicates:
    """Predicates read into comparable values: the time window as Jira stamps, people as
    account ids, field values as their canonical value (None for EMPTY)."""

    lower: Bound | None = None
    upper: Bound | None = None
    by: tuple[frozenset[str], ...] = ()
    old: tuple[frozenset[str | None], ...] = ()  # FROM
    new: tuple[frozenset[str | None], ...] = ()  # TO

    def empty_window(self) -> bool:
        if self.lower is None or self.upper is None:
            return False
        (low, low_in), (high, high_in) = self.lower, self.upper
        return low > high or (low == high and not (low_in and high_in))


def narrower_lower(a: Bound | None, b: Bound) -> Bound:
    """The later of two lower bounds (at the same time, the one that leaves the time out)."""
    if a is None or b[0] > a[0] or (b[0] == a[0] and not b[1]):
        return b
    return a


def narrower_upper(a: Bound | None, b: Bound) -> Bound:
    if a is None or b[0] < a[0] or (b[0] == a[0] and not b[1]):
        return b
    return a


@cache
def _today(field: str) -> Prepared:
    """Every issue's creation, creator and value of the field today."""
    column = FIELDS[field][1]
    return Prepared(select(Issue.id, Issue.created, Issue.creator_id, Issue.reporter_id, column))


def changes_of(db: Any, field: str) -> dict[int, list[Change]]:
    """Every issue's changes of one field (its JQL name, lower case), oldest first."""
    logged, _column, by_value = FIELDS[field]
    changes: dict[int, list[Change]] = defaultdict(list)
    for issue_id, created, author, from_value, from_string, to_value, to_string in CHANGES_OF.tuples(db, field=logged):
        old, new = (from_value, to_value) if by_value else (from_string, to_string)
        changes[issue_id].append(Change(created, author, old or None, new or None))
    return changes


def spans_of(db: Any, field: str) -> dict[int, list[Span]]:
    """Every issue's spans of one field: the values it held and when."""
    changes = changes_of(db, field)
    spans: dict[int, list[Span]] = {}
    for issue_id, created, creator, reporter, current in _today(field).tuples(db):  # plain tuples: hundreds of text rows
        made = changes.get(issue_id, [])
        first = made[0].old if made else current
        run = [Span(first, created, made[0].when if made else None, creator or reporter)]
        for n, change in enumerate(made):
            run.append(Span(change.new, change.when, made[n + 1].when if n + 1 < len(made) else None, change.by))
        spans[issue_id] = run
    return spans


def _span_fits(span: Span, p: Predicates) -> bool:
    if span.end is not None and span.end <= span.start:  # changed again at the same moment: never held
        return False
    if p.lower is not None and span.end is not None and span.end <= p.lower[0]:
        return False
    if p.upper is not None and (span.start > p.upper[0] or (span.start == p.upper[0] and not p.upper[1])):
        return False
    return all(span.by in people for people in p.by)


def _change_fits(change: Change, p: Predicates) -> bool:
    when = change.when
    if p.lower is not None and (when < p.lower[0] or (when == p.lower[0] and not p.lower[1])):
        return False
    if p.upper is not None and (when > p.upper[0] or (when == p.upper[0] and not p.upper[1])):
        return False
    if any(change.by not in people for people in p.by):
        return False
    return all(change.old in values for values in p.old) and all(change.new in values for values in p.new)


def was(db: Any, field: str, values: frozenset[str | None], p: Predicates) -> list[int]:
    """Ids of the issues whose field held one of `values` in a span meeting the predicates."""
    if p.empty_window():
        return []
    return sorted(i for i, run in spans_of(db, field).items() if any(s.value in values and _span_fits(s, p) for s in run))


def changed(db: Any, field: str, p: Predicates) -> list[int]:
    """Ids of the issues with a change of the field meeting the predicates."""
    if p.empty_window():
        return []
    return sorted(i for i, made in changes_of(db, field).items() if any(_change_fits(c, p) for c in made))


# -- a clause, checked and read into values ---------------------------------------------------
def _names() -> str:
    return ", ".join(sorted(FIELDS))


def clause(compiler: Any, field: Any, op: str, c: Clause) -> tuple[list[int], bool]:
    """The ids of the issues a history clause is about, and whether it matches them (WAS,
    WAS IN, CHANGED) or every other issue (WAS NOT, WAS NOT IN: never held the values).
    `compiler` resolves people (names, emails, currentUser()) and reads the env clock;
    `field` is the clause's FieldSpec."""
    name = field.name.lower()
    if name not in FIELDS:
        raise JqlError(f"The '{op}' operator is not supported by the '{field.name}' field. "
                       f"WAS, WAS NOT, WAS IN, WAS NOT IN and CHANGED search the history of: {_names()}.")
    allowed = CHANGED_PREDICATES if op == "changed" else WAS_PREDICATES
    p = _predicates(compiler, field, op, c.predicates, allowed)
    if op == "changed":
        return changed(compiler.ctx.db, name, p), True
    return was(compiler.ctx.db, name, _values(compiler, field, c.values), p), op in ("was", "was in")


def _values(compiler: Any, field: Any, values: tuple[Any, ...]) -> frozenset[str | None]:
    """Query values as the changelog holds them: names (status, priority, resolution) or
    account ids (people); EMPTY as None."""
    name = field.name.lower()
    out: set[str | None] = set()
    for v in values:
        if isinstance(v, Empty):
            out.add(None)
        elif FIELDS[name][2]:
            out |= set(compiler.users(field, (v,)))
        elif isinstance(v, Func):
            raise JqlError(f"Unable to find JQL function '{v.name}({', '.join(v.args)})' for the field '{field.name}'.")
        else:
            out.add(_choice(field, str(v)))
    return frozenset(out)


def _choice(field: Any, text: str) -> str | None:
    name = field.name.lower()
    if name == "resolution" and text.strip().lower() == "unresolved":
        return None
    lookup = {"status": catalog.status, "priority": catalog.priority, "resolution": catalog.resolution}[name]
    found = lookup(text)
    if found is None:
        raise JqlError(f"The value '{text}' does not exist for the field '{field.name}'.")
    return found if isinstance(found, str) else found.name


def _moment(compiler: Any, kind: str, value: Any) -> datetime:
    if isinstance(value, Empty):
        raise JqlError(f"The '{kind.upper()}' predicate takes a date, not EMPTY.")
    if isinstance(value, Func):
        return dates.function(value, compiler.clock(), kind.upper())
    try:
        return dates.moment(str(value), compiler.clock(), kind.upper())[0]
    except JqlError:
        raise JqlError(f"Date value '{value}' for predicate '{kind.upper()}' is invalid. Valid formats include: {dates.FORMATS_TEXT}.") from None


def _predicates(compiler: Any, field: Any, op: str, given: tuple[tuple[str, tuple[Any, ...]], ...], allowed: tuple[str, ...]) -> Predicates:
    lower: Bound | None = None
    upper: Bound | None = None
    found: dict[str, list[Any]] = defaultdict(list)
    for kind, values in given:
        if kind not in allowed:
            raise JqlError(f"The '{kind.upper()}' predicate is not supported by the '{op}' operator; "
                           f"it takes {', '.join(a.upper() for a in allowed)}.")
        if kind in ("after", "before", "on") and len(values) != 1:
            raise JqlError(f"The '{kind.upper()}' predicate takes one date; got {len(values)}.")
        if kind == "after":
            lower = narrower_lower(lower, (jira_time(_moment(compiler, kind, values[0])), False))
        elif kind == "before":
            upper = narrower_upper(upper, (jira_time(_moment(compiler, kind, values[0])), False))
        elif kind == "on":
            day = _moment(compiler, kind, values[0]).replace(hour=0, minute=0, second=0, microsecond=0)
            lower = narrower_lower(lower, (jira_time(day), True))
            upper = narrower_upper(upper, (jira_time(day + timedelta(days=1)), False))
        elif kind == "during":
            lower = narrower_lower(lower, (jira_time(_moment(compiler, kind, values[0])), True))
            upper = narrower_upper(upper, (jira_time(_moment(compiler, kind, values[1])), True))
        elif kind == "by":
            if any(isinstance(v, Empty) for v in values):
                raise JqlError("The 'BY' predicate takes users, not EMPTY.")
            found["by"].append(frozenset(compiler.users(field, values)))
        else:
            found[{"from": "old", "to": "new"}[kind]].append(_values(compiler, field, values))
    return Predicates(lower, upper, **{k: tuple(v) for k, v in found.items()})
