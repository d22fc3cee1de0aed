"""A JQL query compiled once and kept: the page and count statements, prepared.

Agents repeat their queries, and parsing and compiling one (building the condition, then
SQLAlchemy compiling it) costs a few milliseconds against ~0.1 ms to run it. A plan is kept
per (query text, projects filter) with what it was compiled against — the answers of the
lookups its values needed (users, components, sprints, ...), the env time when it read the
clock, the acting user when it named currentUser() — and is reused while those still hold:
the lookups are re-run (prepared, a few microseconds each) and compared. So one plan serves
every env of a company, and a sprint renamed in one env only misses the cache there.
A query that reads the changelog (WAS, CHANGED) is compiled for its call only.

Most queries an env sees are new texts of a few shapes (the same clauses about another
customer, person or date), and compiling their SQL is most of a new query's cost. So the
compiled statements are also kept by shape — SQLAlchemy's cache key, which holds the
statement's structure and leaves out its literal values — and a new text of a known shape
runs the kept SQL with its own values.

A plan's statements are prepared when first run: its count only when a page does not tell how
many match (a short page ends the matches), and its page for the columns a shape reads (a
search for three fields reads those, with its assignees joined, not whole issues).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from apps.tickets.jql.compiler import Compiler, JqlContext, one_of
from apps.tickets.jql.ordering import order_by
from apps.tickets.jql.parser import parse
from apps.tickets.models import Issue
from apps.tickets.queries import ISSUE_COLUMNS, issue_view
from officegym.core.sql import Prepared

MAX_QUERIES = 256  # query texts kept
MAX_PLANS_PER_QUERY = 2  # e.g. the same relative-date query at two env times
MAX_SHAPES = 256  # compiled statements kept by shape, per dialect
MAX_STATEMENTS_PER_PLAN = 16  # its count and the pages of the field lists it is searched for


@dataclass(frozen=True, eq=False)
class Plan:
    where: tuple[Any, ...]  # the condition over issues
    order: tuple[Any, ...]  # the ORDER BY
    lookups: tuple[tuple[Prepared, tuple[tuple[str, Any], ...], tuple[Any, ...]], ...]
    now: datetime | None  # the env time it was compiled at, when it read the clock
    actor: str | None  # the acting user, when it named currentUser()
    # Its statements, prepared when first run: (prepared, this query's literals to run it with) by
    # what they read ("count", or the page's columns and joined people).
    statements: dict[Any, tuple[Prepared, dict[str, Any]]] = field(default_factory=dict)

    def total(self, db: Session) -> int:
        prepared, values = self._statement(db, "count", lambda: select(func.count()).select_from(Issue).where(*self.where))
        return prepared.scalar(db, **values) or 0

    def rows(self, db: Session, offset: int, size: int, columns: tuple[str, ...] = ISSUE_COLUMNS, people: tuple[str, ...] = ()) -> list[Any]:
        """A page of issues with these columns, and the users `people` name joined (queries.issue_view):
        a shape of three fields reads those, not the whole row."""
        def build() -> Any:
            selected, source = issue_view(columns, people)
            return (select(*selected).select_from(source).where(*self.where).order_by(*self.order)
                    .offset(bindparam("offset")).limit(bindparam("size")))
        prepared, values = self._statement(db, (columns, people), build)
        return prepared.rows(db, offset=offset, size=size, **values)

    def _statement(self, db: Session, name: Any, build: Any) -> tuple[Prepared, dict[str, Any]]:
        kept = self.statements.get(name)
        if kept is None:  # two threads may both build it: the same statement, either is right
            kept = _shaped(build(), _dialect(db))
            if len(self.statements) < MAX_STATEMENTS_PER_PLAN:  # a caller trying every field list does not grow it without end
                self.statements[name] = kept
        return kept

    def fits(self, ctx: JqlContext) -> bool:
        if self.actor is not None and self.actor != ctx.actor_id:
            return False
        if self.now is not None and self.now != ctx.clock():
            return False
        return all(tuple(statement.scalars(ctx.db, **dict(params))) == answer for statement, params, answer in self.lookups)


_plans: OrderedDict[tuple[str, tuple[str, ...]], list[Plan]] = OrderedDict()
_lock = threading.Lock()


def plan_for(ctx: JqlContext, text: str, projects: tuple[str, ...] = ()) -> Plan:
    """The plan of a query (within `projects`, when given); raises JqlError for a bad query."""
    key = (text, projects)
    with _lock:
        kept = list(_plans.get(key, ()))
    for plan in kept:
        if plan.fits(ctx):
            return plan
    plan, lasting = _compile(ctx, text, projects)
    if lasting:
        with _lock:
            _plans[key] = [plan, *_plans.get(key, [])][:MAX_PLANS_PER_QUERY]
            _plans.move_to_end(key)
            while len(_plans) > MAX_QUERIES:
                _plans.popitem(last=False)
    return plan


def _compile(ctx: JqlContext, text: str, projects: tuple[str, ...]) -> tuple[Plan, bool]:
    query = parse(text)
    compiler = Compiler(ctx)
    conditions = [compiler.condition(query.where)] if query.where is not None else []
    if projects:
        conditions.append(one_of(Issue.project_key, list(projects)))
    order = order_by(query.order)
    plan = Plan(tuple(conditions), tuple(order), tuple(compiler.lookups), compiler.now, compiler.ctx.actor_id if compiler.uses_actor else None)
    return plan, not compiler.volatile


# -- statements kept by shape ---------------------------------------------------------------------
_shapes: OrderedDict[tuple[Any, ...], tuple[Prepared, Any, tuple[str, ...]]] = OrderedDict()
_EXPLICIT = ("offset", "size")  # the page's own parameters, given at each run


def _dialect(db: Session) -> Any:
    bind = db.get_bind()
    return bind.dialect


def _shaped(statement: Any, dialect: Any) -> tuple[Prepared, dict[str, Any]]:
    """A prepared statement for `statement`: one kept for its shape, with this statement's literal
    values to run it with; or its own, when it has no cache key or its SQL spells values out."""
    key = statement._generate_cache_key() if dialect is not None else None
    if key is None:
        return Prepared(statement), {}
    shape = (dialect.name, dialect.driver, key.key)
    with _lock:
        kept = _shapes.get(shape)
        if kept is not None:
            _shapes.move_to_end(shape)
    if kept is None:
        compiled = statement.compile(dialect=dialect, cache_key=key)  # to read its parameters' names and values
        if compiled.literal_execute_params or compiled.post_compile_params:
            return Prepared(statement), {}  # values written into the SQL text: not shareable
        kept = (Prepared(statement), compiled, tuple(compiled.bind_names.values()))
        with _lock:
            _shapes[shape] = kept
            while len(_shapes) > MAX_SHAPES:
                _shapes.popitem(last=False)
    prepared, compiled, names = kept
    values = compiled.construct_params(extracted_parameters=key.bindparams, _check=False)
    return prepared, {name: values[name] for name in names if name not in _EXPLICIT and name in values}
