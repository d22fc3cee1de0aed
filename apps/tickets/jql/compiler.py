"""JQL compiled to SQLAlchemy Core: a WHERE condition and an ORDER BY over `tickets_issues`.

Values are checked the way Jira checks them: an unknown field, status, project, user, sprint or
function is an error that names it; an operator a field does not support is an error too.
Relative dates and date functions are read on the env clock.

The condition binds every value as a parameter of its own (no expanding IN lists), so the
statement compiles once and runs as a prepared statement (plan.py keeps it per query text).
What the condition depends on beyond the text is recorded as it compiles: the database
lookups it made (users, components, versions, sprints, parents) and their answers, whether it
read the clock or the acting user, and whether it read the changelog (WAS, CHANGED), whose
answer changes with every write.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, and_, bindparam, exists, false, func, literal, literal_column, not_, or_, select, true
from sqlalchemy.orm import Session

from apps.tickets import catalog
from apps.tickets.ids import jira_time, parse_duration, split_key
from apps.tickets.jql import dates, history, text_search
from apps.tickets.jql.fields import DATE_COLUMNS, TEXT_COLUMNS, USER_COLUMNS, FieldSpec, duration_column, spec
from apps.tickets.jql.parser import Bool, Clause, Empty, Func, JqlError
from apps.tickets.models import Component, Issue, IssueComponent, IssueVersion, Label, Sprint, SprintIssue, Version, Watcher
from apps.tickets.queries import USER_IDS_MATCHING
from officegym.core.sql import Prepared

HISTORY_OPS = ("was", "was not", "was in", "was not in", "changed")

# The lookups a query's values need, prepared once; their answers are part of a compiled plan.
COMPONENT_IDS = Prepared(select(Component.id).where(or_(func.lower(Component.name) == bindparam("low"), Component.id == bindparam("id")))
                         .order_by(Component.id))
VERSION_IDS = Prepared(select(Version.id).where(or_(func.lower(Version.name) == bindparam("low"), Version.id == bindparam("id")))
                       .order_by(Version.id))
VERSION_IDS_RELEASED = Prepared(select(Version.id).where(Version.released == bindparam("released", type_=Boolean)).order_by(Version.id))
SPRINT_IDS = Prepared(select(Sprint.id).where(or_(func.lower(Sprint.name) == bindparam("low"), Sprint.id == bindparam("id")))
                      .order_by(Sprint.id))
SPRINT_IDS_IN_STATE = Prepared(select(Sprint.id).where(Sprint.state == bindparam("state")).order_by(Sprint.id))
ISSUE_ID_BY_KEY = Prepared(select(Issue.id).where(Issue.project_key == bindparam("project"), Issue.number == bindparam("number")))
ISSUE_ID = Prepared(select(Issue.id).where(Issue.id == bindparam("id")))


@dataclass
class JqlContext:
    db: Session
    actor: str | Callable[[], str]  # the acting user's accountId, or how to read it (most queries never ask)
    clock: Callable[[], datetime]  # the env's now, read only by queries that need it

    @property
    def actor_id(self) -> str:
        return self.actor() if callable(self.actor) else self.actor


def _no_value(value: str, field: FieldSpec) -> JqlError:
    return JqlError(f"The value '{value}' does not exist for the field '{field.name}'.")


def _function_name(f: Func) -> str:
    return f"{f.name}({', '.join(f.args)})"


def _as_id(text: str) -> int:
    """A value as an id, or -1 (no row has it) when it is not one."""
    return int(text) if text.isdigit() and len(text) < 10 else -1


def one_of(column: Any, values: list[Any]) -> Any:
    """`column IN (values)`, one bound parameter per value (a statement that compiles once)."""
    return column.in_([literal(v, column.type) for v in values]) if values else false()


def ids_in(ids: list[int], negate: bool = False) -> Any:
    """`issue id [NOT] IN (...)` for ids computed here: integers written into the SQL as one piece
    of text (any number of them fits, and it costs nothing to compile)."""
    if not ids:
        return true() if negate else false()
    listed = ",".join(str(int(i)) for i in ids)
    return literal_column(f"({Issue.__table__.name}.id {'NOT IN' if negate else 'IN'} ({listed}))", Boolean)


class Compiler:
    def __init__(self, ctx: JqlContext) -> None:
        self.ctx = ctx
        self.lookups: list[tuple[Prepared, tuple[tuple[str, Any], ...], tuple[Any, ...]]] = []
        self.now: datetime | None = None  # set when the query read the clock
        self.uses_actor = False
        self.volatile = False  # read the changelog: valid for this call only

    # -- what the condition depends on ----------------------------------------------------
    def clock(self) -> datetime:
        if self.now is None:
            self.now = self.ctx.clock()
        return self.now

    def actor(self) -> str:
        self.uses_actor = True
        return self.ctx.actor_id

    def lookup(self, statement: Prepared, **params: Any) -> list[Any]:
        found = tuple(statement.scalars(self.ctx.db, **params))
        self.lookups.append((statement, tuple(sorted(params.items())), found))
        return list(found)

    # -- conditions ----------------------------------------------------------------------
    def condition(self, node: Any) -> Any:
        if isinstance(node, Bool):
            parts = [self.condition(p) for p in node.parts]
            if node.op == "and":
                return and_(*parts)
            if node.op == "or":
                return or_(*parts)
            # NOT is the complement as a set of issues: an unassigned issue is in NOT (assignee = x),
            # so it is "not true" (false or unknown), not SQL's NOT (which leaves the unknown out).
            # Said in place, not as a subquery of issues: NOTs nested in parentheses then nest no
            # queries (SQLite's parser overflowed at ten).
            return parts[0].is_not(true())
        return self.clause(node)

    def clause(self, c: Clause) -> Any:
        field = spec(c.field)
        op = c.op.lower()
        if op in HISTORY_OPS:
            return self.history(field, op, c)
        if op not in field.ops:
            raise JqlError(f"The operator '{c.op.upper()}' is not supported by the '{field.name}' field.")
        if any(isinstance(v, Empty) for v in c.values):
            if op in ("=", "is", "in"):
                op = "is"
            elif op in ("!=", "is not", "not in"):
                op = "is not"
            else:
                raise JqlError(f"The operator '{c.op.upper()}' does not support empty values for the '{field.name}' field.")
            return self.empty(field, op == "is")
        if op in ("is", "is not"):
            raise JqlError(f"The operator '{c.op.upper()}' only supports the value EMPTY (or NULL) for the '{field.name}' field.")
        handler: Callable[[FieldSpec, str, tuple[Any, ...]], Any] = getattr(self, f"_{field.kind}")
        return handler(field, op, c.values)

    def empty(self, field: FieldSpec, is_empty: bool) -> Any:
        kind, name = field.kind, field.name.lower()
        if kind in ("labels", "component", "version", "sprint", "watcher"):
            link, column = {"labels": (Label, Label.issue_id), "component": (IssueComponent, IssueComponent.issue_id),
                            "version": (IssueVersion, IssueVersion.issue_id), "sprint": (SprintIssue, SprintIssue.issue_id),
                            "watcher": (Watcher, Watcher.issue_id)}[kind]
            has = exists(select(literal(1)).select_from(link).where(column == Issue.id))
            return not_(has) if is_empty else has
        column = {"user": USER_COLUMNS.get(name), "datetime": DATE_COLUMNS.get(name), "date": Issue.duedate,
                  "resolution": Issue.resolution, "parent": Issue.parent_id, "number": Issue.story_points,
                  "case": Issue.case_number, "text": TEXT_COLUMNS.get(name, (None,))[0]}.get(kind)
        if kind == "duration":
            column = duration_column(field)
        if column is None:
            return false() if is_empty else true()  # fields every issue has (status, project, ...)
        if kind == "text":
            return or_(column.is_(None), column == "") if is_empty else and_(column.is_not(None), column != "")
        return column.is_(None) if is_empty else column.is_not(None)

    @staticmethod
    def _apply(op: str, column: Any, values: list[Any]) -> Any:
        if op in ("=", "in"):
            return one_of(column, values)
        if op in ("!=", "not in"):
            return and_(column.is_not(None), not_(one_of(column, values))) if values else column.is_not(None)
        raise JqlError(f"The operator '{op.upper()}' is not supported here.")

    def _strings(self, field: FieldSpec, values: tuple[Any, ...]) -> list[str]:
        out = []
        for v in values:
            if isinstance(v, Func):
                raise JqlError(f"Unable to find JQL function '{_function_name(v)}' for the field '{field.name}'.")
            out.append(str(v))
        return out

    def _choice(self, field: FieldSpec, op: str, values: tuple[Any, ...], lookup: Callable[[str], Any]) -> Any:
        resolved = []
        for v in self._strings(field, values):
            found = lookup(v)
            if found is None:
                raise _no_value(v, field)
            resolved.append(found)
        return resolved

    def _project(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        keys = [p.key for p in self._choice(field, op, values, catalog.project)]
        return self._apply(op, Issue.project_key, keys)

    def _status(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        return self._apply(op, Issue.status, [s.name for s in self._choice(field, op, values, catalog.status)])

    def _category(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        def lookup(v: str) -> str | None:
            low = v.strip().lower()
            return next((key for key, (cid, name, _c) in catalog.CATEGORIES.items() if low in (key, name.lower(), cid)), None)

        keys = set(self._choice(field, op, values, lookup))
        return self._apply(op, Issue.status, [s.name for s in catalog.STATUSES if s.category in keys])

    def _issuetype(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        names: list[str] = []
        for v in values:
            if isinstance(v, Func) and v.name.lower() in ("standardissuetypes", "subtaskissuetypes"):
                subtask = v.name.lower() == "subtaskissuetypes"
                names += [t.name for t in catalog.ISSUE_TYPES if t.subtask == subtask]
            else:
                names += [t.name for t in self._choice(field, op, (v,), catalog.issue_type)]
        return self._apply(op, Issue.issue_type, names)

    def _resolution(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        strings = self._strings(field, values)
        unresolved = any(s.lower() == "unresolved" for s in strings)
        names = self._choice(field, op, tuple(s for s in strings if s.lower() != "unresolved"), catalog.resolution)
        positive = or_(one_of(Issue.resolution, names), Issue.resolution.is_(None) if unresolved else false())
        if op in ("=", "in"):
            return positive
        return and_(not_(positive), Issue.resolution.is_not(None) if not unresolved else true())

    def _priority(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        found = self._choice(field, op, values, catalog.priority)
        if op in ("=", "!=", "in", "not in"):
            return self._apply(op, Issue.priority, [p.name for p in found])
        if len(found) != 1:
            raise JqlError(f"The operator '{op}' takes one value for the '{field.name}' field.")
        rank = found[0].rank  # "priority > Medium" means more urgent than Medium: a smaller rank
        test = {">": lambda r: r < rank, ">=": lambda r: r <= rank, "<": lambda r: r > rank, "<=": lambda r: r >= rank}[op]
        return one_of(Issue.priority, [p.name for p in catalog.PRIORITIES if test(p.rank)])

    def users(self, field: FieldSpec, values: tuple[Any, ...]) -> list[str]:
        ids: list[str] = []
        for v in values:
            if isinstance(v, Func):
                if v.name.lower() != "currentuser":
                    raise JqlError(f"Unable to find JQL function '{_function_name(v)}'.")
                ids.append(self.actor())
                continue
            text = str(v).strip()
            rows = self.lookup(USER_IDS_MATCHING, text=text, low=text.lower())
            if not rows:
                raise _no_value(text, field)
            ids += rows
        return ids

    def _user(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        return self._apply(op, USER_COLUMNS[field.name.lower()], self.users(field, values))

    def _watcher(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        watched = exists(select(literal(1)).select_from(Watcher).where(Watcher.issue_id == Issue.id, one_of(Watcher.account_id, self.users(field, values))))
        return watched if op in ("=", "in") else not_(watched)

    def _key(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        parts = []
        for v in self._strings(field, values):
            if v.isdigit():
                parts.append(("id", int(v), None))
                continue
            key = split_key(v)
            if key is None:
                raise JqlError(f"The issue key '{v}' for field '{field.name}' is invalid.")
            parts.append(("key", key, None))
        if op in ("=", "!=", "in", "not in"):
            conditions = []
            for kind, value, _row in parts:
                if kind == "id":
                    conditions.append(Issue.id == value)
                else:
                    if catalog.project(value[0]) is None:
                        raise JqlError(f"An issue with key '{value[0]}-{value[1]}' does not exist for field '{field.name}'.")
                    conditions.append(and_(Issue.project_key == value[0], Issue.number == value[1]))
            positive = or_(*conditions) if conditions else false()
            return positive if op in ("=", "in") else not_(positive)
        kind, value, _row = parts[0]
        if kind == "id":
            return {">": Issue.id > value, ">=": Issue.id >= value, "<": Issue.id < value, "<=": Issue.id <= value}[op]
        project, number = value
        compare = {">": Issue.number > number, ">=": Issue.number >= number, "<": Issue.number < number, "<=": Issue.number <= number}[op]
        return and_(Issue.project_key == project, compare)

    def _linked(self, field: FieldSpec, op: str, values: tuple[Any, ...], table: Any, column: Any, matches: Callable[[str], Any]) -> Any:
        conditions = [matches(v) for v in values]
        found = exists(select(literal(1)).select_from(table).where(column == Issue.id, or_(*conditions)))
        if op in ("=", "in"):
            return found
        anything = exists(select(literal(1)).select_from(table).where(column == Issue.id))
        return and_(anything, not_(found))

    def _labels(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        strings = self._strings(field, values)
        return self._linked(field, op, tuple(strings), Label, Label.issue_id, lambda v: func.lower(Label.label) == v.lower())

    def _component(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        ids: list[int] = []
        for v in self._strings(field, values):
            rows = self.lookup(COMPONENT_IDS, low=v.lower(), id=_as_id(v))
            if not rows:
                raise _no_value(v, field)
            ids += rows
        return self._linked(field, op, (0,), IssueComponent, IssueComponent.issue_id, lambda _v: one_of(IssueComponent.component_id, ids))

    def _version(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        ids: list[int] = []
        for v in values:
            if isinstance(v, Func) and v.name.lower() in ("releasedversions", "unreleasedversions"):
                ids += self.lookup(VERSION_IDS_RELEASED, released=v.name.lower() == "releasedversions")
                continue
            (text,) = self._strings(field, (v,))
            rows = self.lookup(VERSION_IDS, low=text.lower(), id=_as_id(text))
            if not rows:
                raise _no_value(text, field)
            ids += rows
        return self._linked(field, op, (0,), IssueVersion, IssueVersion.issue_id, lambda _v: one_of(IssueVersion.version_id, ids))

    def _sprint(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        ids: list[int] = []
        states = {"opensprints": ("active",), "closedsprints": ("closed",), "futuresprints": ("future",)}
        for v in values:
            if isinstance(v, Func):
                wanted = states.get(v.name.lower())
                if wanted is None:
                    raise JqlError(f"Unable to find JQL function '{_function_name(v)}'.")
                ids += [i for state in wanted for i in self.lookup(SPRINT_IDS_IN_STATE, state=state)]
                continue
            text = str(v).strip()
            rows = self.lookup(SPRINT_IDS, low=text.lower(), id=_as_id(text))
            if not rows:
                raise _no_value(text, field)
            ids += rows
        return self._linked(field, op, (0,), SprintIssue, SprintIssue.issue_id, lambda _v: one_of(SprintIssue.sprint_id, ids))

    def _parent(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        ids = []
        for v in self._strings(field, values):
            key = split_key(v)
            found: list[int] = []
            if key:
                found = self.lookup(ISSUE_ID_BY_KEY, project=key[0], number=key[1])
            elif v.isdigit() and len(v) < 10:
                found = self.lookup(ISSUE_ID, id=int(v))
            row = found[0] if found else None
            if row is None:
                raise JqlError(f"An issue with key '{v}' does not exist for field '{field.name}'.")
            ids.append(row)
        return self._apply(op, Issue.parent_id, ids)

    def _moments(self, field: FieldSpec, values: tuple[Any, ...]) -> list[tuple[datetime, bool]]:
        out = []
        for v in values:
            if isinstance(v, Func):
                moment = dates.function(v, self.clock(), field.name)
                out.append((moment, False))
            else:
                out.append(dates.moment(str(v), self.clock(), field.name))
        return out

    def _datetime(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        column = DATE_COLUMNS[field.name.lower()]
        stamps = [jira_time(m) for m, _bare in self._moments(field, values)]
        if op in ("=", "!=", "in", "not in"):
            return self._apply(op, column, stamps)
        return _compare(column, op, stamps[0])

    def _date(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        moments = self._moments(field, values)
        if op in ("=", "!=", "in", "not in"):
            days = [m.date().isoformat() for m, _ in moments if (m.hour, m.minute, m.second, m.microsecond) == (0, 0, 0, 0)]
            return self._apply(op, Issue.duedate, days)
        m, _bare = moments[0]
        day = m.date().isoformat()
        if (m.hour, m.minute, m.second, m.microsecond) != (0, 0, 0, 0):  # a due date is midnight: compare to the moment
            op = {"<": "<=", ">=": ">"}.get(op, op)
        return _compare(Issue.duedate, op, day)

    def _number(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        numbers = []
        for v in self._strings(field, values):
            try:
                numbers.append(float(v))
            except ValueError:
                raise JqlError(f"The value '{v}' for field '{field.name}' is not a number.") from None
        if op in ("=", "!=", "in", "not in"):
            return self._apply(op, Issue.story_points, numbers)
        return _compare(Issue.story_points, op, numbers[0])

    def _duration(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        """Time tracking: originalEstimate, remainingEstimate, timeSpent, compared with durations ("2h", "1d 4h"; a bare number is minutes)."""
        seconds = []
        for v in self._strings(field, values):
            text = v.strip()
            found = parse_duration(f"{text}m" if text.isdigit() else text)
            if found is None:
                raise JqlError(f"The value '{v}' for field '{field.name}' is not a duration (e.g. 2h, 1d 4h, 30m).")
            seconds.append(found)
        column = duration_column(field)
        if op in ("=", "!=", "in", "not in"):
            return self._apply(op, column, seconds)
        return _compare(column, op, seconds[0])

    def _case(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        strings = self._strings(field, values)
        if op in ("~", "!~"):
            return self._text(field, op, values)
        return self._apply(op, Issue.case_number, strings)

    def _text(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        if op not in ("~", "!~"):
            raise JqlError(f"The operator '{op.upper()}' is not supported by the '{field.name}' field.")
        (text,) = self._strings(field, values)
        return text_search.condition(field, op, text)

    def history(self, field: FieldSpec, op: str, c: Clause) -> Any:
        """WAS, WAS NOT, WAS IN, WAS NOT IN, CHANGED: the matching issues, read from the changelog."""
        self.volatile = True
        ids, matches = history.clause(self, field, op, c)
        return ids_in(ids, negate=not matches)


def _compare(column: Any, op: str, value: Any) -> Any:
    return {">": column > value, ">=": column >= value, "<": column < value, "<=": column <= value}[op]
