"""JQL compiled to SQLAlchemy Core: a WHERE condition and an ORDER BY over `tickets_issues`.

Values are checked the way Jira checks them: an unknown field, status, project, user, sprint or
function is an error that names it; an operator a field does not support is an error too.
Relative dates and date functions are read on the env clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, exists, false, func, literal, not_, or_, select, true
from sqlalchemy.orm import Session

from apps.tickets import catalog
from apps.tickets.ids import jira_time, split_key
from apps.tickets.jql import dates
from apps.tickets.jql.fields import DATE_COLUMNS, TEXT_COLUMNS, USER_COLUMNS, FieldSpec, spec
from apps.tickets.jql.ordering import order_by
from apps.tickets.jql.parser import Bool, Clause, Empty, Func, JqlError, Query, parse
from apps.tickets.models import Comment, Component, Issue, IssueComponent, IssueVersion, Label, Sprint, SprintIssue, User, Version, Watcher


@dataclass
class JqlContext:
    db: Session
    actor_id: str
    now: datetime


def _no_value(value: str, field: FieldSpec) -> JqlError:
    return JqlError(f"The value '{value}' does not exist for the field '{field.name}'.")


def _function_name(f: Func) -> str:
    return f"{f.name}({', '.join(f.args)})"


class Compiler:
    def __init__(self, ctx: JqlContext) -> None:
        self.ctx = ctx

    # -- conditions ----------------------------------------------------------------------
    def condition(self, node: Any) -> Any:
        if isinstance(node, Bool):
            parts = [self.condition(p) for p in node.parts]
            if node.op == "and":
                return and_(*parts)
            if node.op == "or":
                return or_(*parts)
            # NOT is the complement as a set of issues: an unassigned issue is in NOT (assignee = x).
            return Issue.id.not_in(select(Issue.id).where(parts[0]))
        return self.clause(node)

    def clause(self, c: Clause) -> Any:
        field = spec(c.field)
        op = c.op.lower()
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
        if column is None:
            return false() if is_empty else true()  # fields every issue has (status, project, ...)
        if kind == "text":
            return or_(column.is_(None), column == "") if is_empty else and_(column.is_not(None), column != "")
        return column.is_(None) if is_empty else column.is_not(None)

    @staticmethod
    def _apply(op: str, column: Any, values: list[Any]) -> Any:
        if op in ("=", "in"):
            return column.in_(values) if values else false()
        if op in ("!=", "not in"):
            return and_(column.is_not(None), column.not_in(values)) if values else column.is_not(None)
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
        positive = or_(Issue.resolution.in_(names) if names else false(), Issue.resolution.is_(None) if unresolved else false())
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
        return Issue.priority.in_([p.name for p in catalog.PRIORITIES if test(p.rank)])

    def users(self, field: FieldSpec, values: tuple[Any, ...]) -> list[str]:
        ids: list[str] = []
        for v in values:
            if isinstance(v, Func):
                if v.name.lower() != "currentuser":
                    raise JqlError(f"Unable to find JQL function '{_function_name(v)}'.")
                ids.append(self.ctx.actor_id)
                continue
            text = str(v).strip()
            rows = list(self.ctx.db.scalars(select(User.account_id).where(or_(
                User.account_id == text, func.lower(User.email) == text.lower(), func.lower(User.display_name) == text.lower()))))
            if not rows:
                raise _no_value(text, field)
            ids += rows
        return ids

    def _user(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        return self._apply(op, USER_COLUMNS[field.name.lower()], self.users(field, values))

    def _watcher(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        watched = exists(select(literal(1)).select_from(Watcher).where(Watcher.issue_id == Issue.id, Watcher.account_id.in_(self.users(field, values))))
        return watched if op in ("=", "in") else not_(watched)

    def _key(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        parts = []
        for v in self._strings(field, values):
            if v.isdigit():
                row = self.ctx.db.scalar(select(Issue.id).where(Issue.id == int(v))) if len(v) < 10 else None
                parts.append(("id", int(v), row))
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
            rows = list(self.ctx.db.scalars(select(Component.id).where(or_(func.lower(Component.name) == v.lower(),
                                                                             Component.id == (int(v) if v.isdigit() and len(v) < 10 else -1)))))
            if not rows:
                raise _no_value(v, field)
            ids += rows
        return self._linked(field, op, (0,), IssueComponent, IssueComponent.issue_id, lambda _v: IssueComponent.component_id.in_(ids))

    def _version(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        ids: list[int] = []
        for v in values:
            if isinstance(v, Func) and v.name.lower() in ("releasedversions", "unreleasedversions"):
                ids += list(self.ctx.db.scalars(select(Version.id).where(Version.released.is_(v.name.lower() == "releasedversions"))))
                continue
            (text,) = self._strings(field, (v,))
            rows = list(self.ctx.db.scalars(select(Version.id).where(or_(func.lower(Version.name) == text.lower(),
                                                                           Version.id == (int(text) if text.isdigit() and len(text) < 10 else -1)))))
            if not rows:
                raise _no_value(text, field)
            ids += rows
        return self._linked(field, op, (0,), IssueVersion, IssueVersion.issue_id, lambda _v: IssueVersion.version_id.in_(ids))

    def _sprint(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        ids: list[int] = []
        states = {"opensprints": ("active",), "closedsprints": ("closed",), "futuresprints": ("future",)}
        for v in values:
            if isinstance(v, Func):
                wanted = states.get(v.name.lower())
                if wanted is None:
                    raise JqlError(f"Unable to find JQL function '{_function_name(v)}'.")
                ids += list(self.ctx.db.scalars(select(Sprint.id).where(Sprint.state.in_(wanted))))
                continue
            text = str(v).strip()
            rows = list(self.ctx.db.scalars(select(Sprint.id).where(or_(func.lower(Sprint.name) == text.lower(),
                                                                          Sprint.id == (int(text) if text.isdigit() and len(text) < 10 else -1)))))
            if not rows:
                raise _no_value(text, field)
            ids += rows
        return self._linked(field, op, (0,), SprintIssue, SprintIssue.issue_id, lambda _v: SprintIssue.sprint_id.in_(ids))

    def _parent(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        ids = []
        for v in self._strings(field, values):
            key = split_key(v)
            row = None
            if key:
                row = self.ctx.db.scalar(select(Issue.id).where(Issue.project_key == key[0], Issue.number == key[1]))
            elif v.isdigit() and len(v) < 10:
                row = self.ctx.db.scalar(select(Issue.id).where(Issue.id == int(v)))
            if row is None:
                raise JqlError(f"An issue with key '{v}' does not exist for field '{field.name}'.")
            ids.append(row)
        return self._apply(op, Issue.parent_id, ids)

    def _moments(self, field: FieldSpec, values: tuple[Any, ...]) -> list[tuple[datetime, bool]]:
        out = []
        for v in values:
            if isinstance(v, Func):
                moment = dates.function(v, self.ctx.now, field.name)
                out.append((moment, False))
            else:
                out.append(dates.moment(str(v), self.ctx.now, field.name))
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

    def _case(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        strings = self._strings(field, values)
        if op in ("~", "!~"):
            return self._text(field, op, values)
        return self._apply(op, Issue.case_number, strings)

    def _text(self, field: FieldSpec, op: str, values: tuple[Any, ...]) -> Any:
        if op not in ("~", "!~"):
            raise JqlError(f"The operator '{op.upper()}' is not supported by the '{field.name}' field.")
        (text,) = self._strings(field, values)
        terms = _terms(text)
        if not terms:
            raise JqlError(f"The field '{field.name}' does not support searching for an empty string.")
        name = field.name.lower()

        def like(column: Any, term: str) -> Any:
            return func.lower(column).like(f"%{_escape(term)}%", escape="\\")

        def matches(term: str) -> Any:
            comment = exists(select(literal(1)).select_from(Comment).where(Comment.issue_id == Issue.id, like(Comment.body, term)))
            if name == "comment":
                return comment
            if name == "salesforce case":
                return like(Issue.case_number, term)
            if name == "text":
                return or_(like(Issue.summary, term), like(Issue.description, term), comment, like(Issue.case_number, term))
            return like(TEXT_COLUMNS[name][0], term)

        found = and_(*[matches(t) for t in terms])
        return found if op == "~" else not_(found)

def _compare(column: Any, op: str, value: Any) -> Any:
    return {">": column > value, ">=": column >= value, "<": column < value, "<=": column <= value}[op]


def _escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _terms(text: str) -> list[str]:
    """Words of a text search, lower-cased; a quoted phrase stays whole; wildcards are dropped
    (a term matches inside words anyway)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        phrase = text[1:-1].strip().lower()
        return [phrase] if phrase else []
    return [w.strip("*?").lower() for w in text.split() if w.strip("*?") and w.upper() not in ("AND", "OR")]


def compile_query(text: str, ctx: JqlContext) -> tuple[Any, list[Any]]:
    """(WHERE condition or None, ORDER BY clauses) for a JQL query."""
    query: Query = parse(text)
    compiler = Compiler(ctx)
    where = compiler.condition(query.where) if query.where is not None else None
    return where, order_by(query.order)
