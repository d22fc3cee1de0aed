"""A JQL query compiled once and kept: the page and count statements, prepared.

Agents repeat their queries, and parsing and compiling one (building the condition, then
SQLAlchemy compiling it) costs a few milliseconds against ~0.1 ms to run it. A plan is kept
per (query text, projects filter) with what it was compiled against — the answers of the
lookups its values needed (users, components, sprints, ...), the env time when it read the
clock, the acting user when it named currentUser() — and is reused while those still hold:
the lookups are re-run (prepared, a few microseconds each) and compared. So one plan serves
every env of a company, and a sprint renamed in one env only misses the cache there.
A query that reads the changelog (WAS, CHANGED) is compiled for its call only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, select

from apps.tickets.jql.compiler import Compiler, JqlContext, one_of
from apps.tickets.jql.ordering import order_by
from apps.tickets.jql.parser import parse
from apps.tickets.models import Issue
from apps.tickets.queries import ISSUE
from officegym.core.sql import Prepared

MAX_QUERIES = 256  # query texts kept
MAX_PLANS_PER_QUERY = 2  # e.g. the same relative-date query at two env times


@dataclass(frozen=True)
class Plan:
    page: Prepared  # the issues' rows, with parameters `offset` and `size`
    count: Prepared  # how many match
    lookups: tuple[tuple[Prepared, tuple[tuple[str, Any], ...], tuple[Any, ...]], ...]
    now: datetime | None  # the env time it was compiled at, when it read the clock
    actor: str | None  # the acting user, when it named currentUser()

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
    page = select(*ISSUE).where(*conditions).order_by(*order).offset(bindparam("offset")).limit(bindparam("size"))
    count = select(func.count()).select_from(Issue).where(*conditions)
    plan = Plan(Prepared(page), Prepared(count), tuple(compiler.lookups), compiler.now,
                compiler.ctx.actor_id if compiler.uses_actor else None)
    return plan, not compiler.volatile
