"""A parsed SOQL query compiled to one SQLAlchemy SELECT over the crm tables (plus one per
child subquery), with what it takes to shape each row into a Salesforce record.

Rows come back in a stable order: the query's ORDER BY (text case-insensitively, nulls where
asked), then Id, so paging never repeats or skips a record and both backends agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from itertools import count
from typing import Any

from sqlalchemy import Select, String, collate, func, select
from sqlalchemy.sql import ColumnElement

from officegym.core.sql import Prepared

from apps.crm.objects import sobject
from apps.crm.schema import INT_TYPES, NUMBER_TYPES, Field, SObject
from apps.crm.soql import ast as A
from apps.crm.soql.conditions import TEXTUAL, compare, condition, date_function
from apps.crm.soql.parser import SoqlError
from apps.crm.soql.scope import Resolved, Scope

AGGREGATE_FUNCTIONS = ("COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX")
MAX_CHILD_SUBQUERIES = 20  # Salesforce's limit per query


@dataclass(frozen=True)
class Context:
    today: date  # the env clock's day, for date literals
    dialect: str  # "sqlite" | "postgresql": how to ask for byte-order text sorting


@dataclass
class Column:
    label: str  # the SQL label
    path: tuple[str, ...]  # where the value goes in the record ("Account", "Name"); aggregates: (alias,)
    field: Field
    hidden: bool = False


@dataclass
class ChildPlan:
    name: str  # relationship name, as the record key ("Contacts")
    link: str  # the child's field pointing at the parent ("AccountId")
    plan: Plan


@dataclass
class Plan:
    obj: SObject
    statement: Select
    columns: list[Column]
    parents: dict[tuple[str, ...], str]  # parent path -> label of its Id column
    children: list[ChildPlan] = field(default_factory=list)
    aggregate: bool = False
    count_only: bool = False  # SELECT COUNT() FROM ...: only totalSize
    limit: int | None = None
    offset: int = 0
    link_label: str | None = None  # child plans: the label of the link column
    # The statement of each batch read (offset, limit), prepared once: agents page and repeat
    # queries, and building the statement anew cost more than running it (see run.py).
    batches: dict[tuple[int, int], Prepared] = field(default_factory=dict, repr=False, compare=False)
    steps: Any = field(default=None, repr=False, compare=False)  # how to shape a row (run.py), once
    counted: Prepared | None = field(default=None, repr=False, compare=False)  # COUNT() plans: the statement, prepared
    # Child plans: their statement for N parents, prepared once per N (run.py).
    by_parents: dict[int, Prepared] = field(default_factory=dict, repr=False, compare=False)
    dated: bool = False  # a relative date literal (TODAY, LAST_N_DAYS:7) made it: it holds for one day only


class _Compiler:
    def __init__(self, ctx: Context, aliases: count) -> None:
        self.ctx = ctx
        self.aliases = aliases
        self.dated = False  # whether any condition read ctx.today

    def plan(self, query: A.Query, obj: SObject, link: str | None = None) -> Plan:
        scope = Scope(obj, self.aliases)
        columns: list[Column] = []
        exprs: list[ColumnElement[Any]] = []
        parents: dict[tuple[str, ...], str] = {}
        children: list[ChildPlan] = []
        grouped = bool(query.group_by) or any(isinstance(i, A.Aliased) and isinstance(i.expr, A.Aggregate) for i in query.select)

        def add(expr: ColumnElement[Any], path: tuple[str, ...], fld: Field, hidden: bool = False) -> str:
            label = f"c{len(exprs)}"
            exprs.append(expr.label(label))
            columns.append(Column(label, path, fld, hidden))
            return label

        group_texts = {self._group_key(g) for g in query.group_by}
        unnamed = count()
        seen: set[tuple[str, ...]] = set()
        for item in query.select:
            if isinstance(item, A.Query):
                if grouped:
                    raise SoqlError("MALFORMED_QUERY", "a child subquery cannot be used in an aggregate query")
                children.append(self._child(item, obj))
                continue
            if isinstance(item, A.Aliased):
                expr, fld = self._expression(item.expr, scope)
                if isinstance(item.expr, A.Aggregate) and item.expr.func == "COUNT" and item.expr.arg is None:
                    if len(query.select) == 1 and not query.group_by:
                        return self._count_only(query, scope, obj)
                    raise SoqlError("MALFORMED_QUERY", "COUNT() must be the only item selected and cannot be grouped; use COUNT(Id) with GROUP BY")
                if isinstance(item.expr, A.DateFn) and grouped and self._group_key(item.expr) not in group_texts:
                    raise SoqlError("MALFORMED_QUERY", f"{item.expr.text} must be grouped: add it to GROUP BY")
                name = item.alias or f"expr{next(unnamed)}"
                if (name.lower(),) in seen:
                    raise SoqlError("MALFORMED_QUERY", f"duplicate alias: {name}")
                seen.add((name.lower(),))
                add(expr, (name,), fld)
                continue
            resolved = scope.resolve(item)
            if grouped and self._group_key(item) not in group_texts:
                raise SoqlError("MALFORMED_QUERY", f"Field must be grouped or aggregated: {resolved.path[-1]}")
            if tuple(p.lower() for p in resolved.path) in seen:
                raise SoqlError("MALFORMED_QUERY", f"duplicate field selected: {item.text}")
            seen.add(tuple(p.lower() for p in resolved.path))
            if grouped:
                add(resolved.expr, (resolved.path[-1],), resolved.field)
                continue
            for prefix, id_column in resolved.parents:
                if prefix not in parents:
                    parents[prefix] = add(id_column, prefix + ("Id",), Field("Id", "id"), hidden=True)
            add(resolved.expr, resolved.path, resolved.field)
        if not grouped and not any(c.path == ("Id",) for c in columns):
            add(scope.table.c.Id, ("Id",), obj.field("Id"), hidden=True)
        link_label = add(scope.table.c[link], (link,), obj.field(link), hidden=True) if link else None
        where = condition(query.where, lambda leaf: self._leaf(leaf, scope, allow_aggregates=False)) if query.where is not None else None
        group_exprs = [self._expression(g, scope)[0] if isinstance(g, A.DateFn) else scope.resolve(g).expr for g in query.group_by]
        having = None
        if query.having is not None:
            if not grouped:
                raise SoqlError("MALFORMED_QUERY", "HAVING needs GROUP BY or an aggregate in the SELECT list")
            having = condition(query.having, lambda leaf: self._leaf(leaf, scope, allow_aggregates=True))
        order = self._order(query.order_by, scope, grouped)
        statement = select(*exprs).select_from(scope.source)
        if where is not None:
            statement = statement.where(where)
        if group_exprs:
            statement = statement.group_by(*group_exprs)
        if having is not None:
            statement = statement.having(having)
        if not grouped:
            order.append(scope.table.c.Id)
        # Groups come out in one order on every backend: SQLite returns them sorted by their
        # keys, PostgreSQL in whatever order its plan gives (a hash aggregate's, changing with
        # the table's statistics), so the same call would answer differently. Salesforce leaves
        # the order unspecified; the group keys follow any ORDER BY given, as SQLite sorts them
        # (byte order for text, nulls first).
        for expr in group_exprs:
            if self.ctx.dialect == "postgresql" and isinstance(expr.type, String):
                expr = collate(expr, "C")
            order.append(expr.asc().nulls_first())
        statement = statement.order_by(*order) if order else statement
        if len(children) > MAX_CHILD_SUBQUERIES:
            raise SoqlError("MALFORMED_QUERY", f"at most {MAX_CHILD_SUBQUERIES} child subqueries per query")
        return Plan(obj, statement, columns, parents, children, grouped, False, query.limit, query.offset or 0, link_label)

    def _count_only(self, query: A.Query, scope: Scope, obj: SObject) -> Plan:
        where = condition(query.where, lambda leaf: self._leaf(leaf, scope, allow_aggregates=False)) if query.where is not None else None
        statement = select(func.count().label("c0")).select_from(scope.source)
        if where is not None:
            statement = statement.where(where)
        return Plan(obj, statement, [Column("c0", ("expr0",), Field("COUNT", "int"))], {}, aggregate=True, count_only=True,
                    limit=query.limit, offset=query.offset or 0)

    def _child(self, query: A.Query, parent: SObject) -> ChildPlan:
        rel = parent.child(query.object)
        if rel is None:
            names = ", ".join(c.name for c in parent.children) or "none"
            raise SoqlError("INVALID_TYPE", f"Didn't understand relationship '{query.object}' in FROM part of query call. "
                                            f"{parent.name}'s child relationships: {names}")
        if any(isinstance(i, A.Query) for i in query.select):
            raise SoqlError("MALFORMED_QUERY", "a child subquery cannot contain another subquery")
        plan = self.plan(query, sobject(rel.object), link=rel.field)
        if plan.aggregate:
            raise SoqlError("MALFORMED_QUERY", "aggregate functions are not allowed in a child subquery")
        return ChildPlan(rel.name, rel.field, plan)

    @staticmethod
    def _group_key(item: Any) -> str:
        return item.text.lower()

    def _expression(self, expr: Any, scope: Scope) -> tuple[ColumnElement[Any], Field]:
        if isinstance(expr, A.FieldRef):
            resolved = scope.resolve(expr)
            return resolved.expr, resolved.field
        if isinstance(expr, A.DateFn):
            resolved = scope.resolve(expr.arg)
            return date_function(expr.func, resolved.expr, resolved.field)
        if expr.func not in AGGREGATE_FUNCTIONS:
            raise SoqlError("MALFORMED_QUERY", f"unknown aggregate {expr.func}")
        if expr.arg is None:
            if expr.func != "COUNT":
                raise SoqlError("MALFORMED_QUERY", f"{expr.func}() needs a field")
            return func.count(), Field("expr", "int")
        resolved: Resolved = scope.resolve(expr.arg)
        fld = resolved.field
        if expr.func == "COUNT":
            return func.count(resolved.expr), Field("expr", "int")
        if expr.func == "COUNT_DISTINCT":
            return func.count(resolved.expr.distinct()), Field("expr", "int")
        if expr.func in ("SUM", "AVG") and fld.type not in NUMBER_TYPES | INT_TYPES:
            raise SoqlError("MALFORMED_QUERY", f"field {fld.name} does not support aggregate operator {expr.func}: it is {fld.type}, not a number")
        if expr.func in ("MIN", "MAX") and fld.type in ("textarea", "boolean"):
            raise SoqlError("MALFORMED_QUERY", f"field {fld.name} does not support aggregate operator {expr.func}")
        call = getattr(func, expr.func.lower())(resolved.expr)
        kind = "double" if expr.func == "AVG" else fld.type
        return call, Field("expr", kind)

    def _leaf(self, leaf: Any, scope: Scope, allow_aggregates: bool) -> ColumnElement[Any]:
        if isinstance(leaf, A.SemiJoin):
            left = scope.resolve(leaf.left)
            inner_obj = sobject(leaf.query.object)
            if inner_obj is None:
                raise SoqlError("INVALID_TYPE", f"sObject type '{leaf.query.object}' is not supported")
            inner = self.plan(leaf.query, inner_obj)
            target = inner.columns[0]
            if target.field.type not in ("id", "reference") or left.field.type not in ("id", "reference"):
                raise SoqlError("MALFORMED_QUERY", "a semi-join compares an Id or lookup field with an Id or lookup field of the subquery")
            sub = inner.statement.with_only_columns(inner.statement.selected_columns[0]).order_by(None)
            test = left.expr.in_(sub)
            return ~test if leaf.negate else test
        if isinstance(leaf.left, A.Aggregate) and not allow_aggregates:
            raise SoqlError("MALFORMED_QUERY", "aggregates can be filtered only in HAVING, not WHERE")
        expr, fld = self._expression(leaf.left, scope)
        if any(value.kind == "relative" for value in leaf.values):
            self.dated = True
        return compare(leaf.op, expr, fld, leaf.values, self.ctx.today)

    def _order(self, items: tuple[A.Order, ...], scope: Scope, grouped: bool) -> list[ColumnElement[Any]]:
        order: list[ColumnElement[Any]] = []
        for item in items:
            expr, fld = self._expression(item.expr, scope)
            if fld.type == "textarea":
                raise SoqlError("MALFORMED_QUERY", f"field {fld.name} (a long text area) can not be sorted in a query call")
            if fld.type in TEXTUAL:
                expr = func.lower(expr)
                if self.ctx.dialect == "postgresql":
                    expr = collate(expr, "C")
            # NULLS FIRST/LAST, not a CASE on IS NULL before the key: the same order, and an
            # index on the key can serve it (where the nulls fall where the index keeps them).
            ordered = expr.desc() if item.descending else expr.asc()
            order.append(ordered.nulls_last() if item.nulls_last else ordered.nulls_first())
        return order


def compile_query(query: A.Query, ctx: Context) -> Plan:
    obj = sobject(query.object)
    if obj is None:
        raise SoqlError("INVALID_TYPE", f"sObject type '{query.object}' is not supported. If you are attempting to use a "
                                        f"custom object, be sure to append the '__c' after the entity name")
    compiler = _Compiler(ctx, count())
    plan = compiler.plan(query, obj)
    plan.dated = compiler.dated
    return plan
