"""Running SOQL: parse, compile, execute one batch, shape the records as the REST API does.

Results page like Salesforce's: at most 2,000 records per batch, `done` false and a
`nextRecordsUrl` (".../query/01g…-2000") while more remain. The locator carries the query
itself, so reading the next batch writes nothing (a read never changes an env).
"""

from __future__ import annotations

import base64
import binascii
from datetime import date
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import DataError, OperationalError
from sqlalchemy.orm import Session

from apps.crm.objects import BY_PREFIX
from apps.crm.schema import INT_TYPES, NUMBER_TYPES
from apps.crm.soql.compiler import Context, Plan, compile_query
from apps.crm.soql.parser import SoqlError, parse
from officegym.core.sql import Prepared

API = "/services/data/v62.0"
BATCH = 2000
MAX_OFFSET = 2000  # Salesforce refuses larger OFFSETs (NUMBER_OUTSIDE_VALID_RANGE)
LOCATOR_PREFIX = "01g"


def record_url(object_name: str, record_id: str) -> str:
    return f"{API}/sobjects/{object_name}/{record_id}"


@lru_cache(maxsize=1024)
def plan_for(text: str, today: date, dialect: str) -> Plan:
    """The compiled plan of a query, kept: agents repeat queries, and reusing the same
    statement objects lets SQLAlchemy reuse their compiled SQL (parse + compile is most of a
    query's cost). Plans are never changed after compiling; a query that does not compile
    raises every time (errors are not cached)."""
    return compile_query(parse(text), Context(today, dialect))


# Plans that no relative date literal went into, by (text, dialect): the same whatever day the
# env's clock says, so running one needs no clock read (a tenth of a simple query's cost).
_UNDATED: dict[tuple[str, str], Plan] = {}
_UNDATED_MAX = 1024


def plan_of(text: str, today: Callable[[], date], dialect: str) -> Plan:
    """The plan of `text`; `today` (the env clock's day) is asked only when the query has a
    relative date literal, or is new."""
    plan = _UNDATED.get((text, dialect))
    if plan is None:
        plan = plan_for(text, today(), dialect)
        if not plan.dated:
            if len(_UNDATED) >= _UNDATED_MAX:
                _UNDATED.clear()
            _UNDATED[(text, dialect)] = plan
    return plan


def run_query(db: Session, text: str, today: Callable[[], date], start: int = 0, batch: int | None = None,
              endpoint: str = "query") -> dict[str, Any]:
    plan = plan_of(text, today, db.get_bind().dialect.name)
    batch = batch or BATCH
    if plan.offset > MAX_OFFSET:
        raise SoqlError("NUMBER_OUTSIDE_VALID_RANGE", f"Maximum SOQL offset allowed is {MAX_OFFSET}; got {plan.offset}")
    if plan.count_only:
        if plan.counted is None:
            plan.counted = Prepared(plan.statement)
        total = plan.counted.scalar(db)
        total = max(0, total - plan.offset)
        if plan.limit is not None:
            total = min(total, plan.limit)
        return {"totalSize": total, "done": True, "records": []}
    want = batch if plan.limit is None else max(0, min(batch, plan.limit - start))
    try:
        rows = prepared_batch(plan, plan.offset + start, want).tuples(db) if want else []
    except (OperationalError, DataError) as error:  # the database refused it (too complex, out of range)
        raise SoqlError("MALFORMED_QUERY", f"the query could not run: {str(error.orig).splitlines()[0][:200]}") from None
    if start == 0 and len(rows) < batch and (plan.limit is None or len(rows) <= plan.limit):
        total = len(rows)
    else:
        bounded = plan.statement.offset(plan.offset)
        if plan.limit is not None:
            bounded = bounded.limit(plan.limit)
        total = db.execute(select(func.count()).select_from(bounded.subquery())).scalar_one()
    records = [_aggregate_record(plan, row) for row in rows] if plan.aggregate else [shape_record(plan, row) for row in rows]
    if plan.children and records:
        _attach_children(db, plan, rows, records)
    done = start + len(rows) >= total
    result: dict[str, Any] = {"totalSize": total, "done": done, "records": records}
    if not done:
        result["nextRecordsUrl"] = f"{API}/{endpoint}/{encode_locator(text)}-{start + len(rows)}"
    return result


def prepared_batch(plan: Plan, skip: int, want: int) -> Prepared:
    """The statement reading `want` rows of the plan after `skip`, prepared once per plan."""
    prepared = plan.batches.get((skip, want))
    if prepared is None:
        if len(plan.batches) > 64:  # a query paged far: keep the cache small
            plan.batches.clear()
        prepared = plan.batches[(skip, want)] = Prepared(plan.statement.offset(skip).limit(want))
    return prepared


def encode_locator(text: str) -> str:
    return LOCATOR_PREFIX + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_locator(locator: str) -> tuple[str, int]:
    """(query text, start) from "01g…-2000"; SoqlError INVALID_QUERY_LOCATOR when it is not ours."""
    head, dash, tail = (locator or "").rsplit("/", 1)[-1].rpartition("-")  # a whole nextRecordsUrl works too
    bad = SoqlError("INVALID_QUERY_LOCATOR", f"invalid query locator {locator[:60]!r}: use the nextRecordsUrl of a query result")
    if not dash or not tail.isdigit() or not head.startswith(LOCATOR_PREFIX) or len(tail) > 9:
        raise bad
    body = head[len(LOCATOR_PREFIX):]
    try:
        text = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True).decode()
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise bad from None
    if not text.strip():
        raise bad
    return text, int(tail)


def _value(field_type: str, value: Any) -> Any:
    if value is None:
        return None
    if field_type in INT_TYPES:
        return int(value)
    if field_type in NUMBER_TYPES:
        return float(value)
    if field_type == "boolean":
        return bool(value)
    return value


def _converter(field_type: str) -> Callable[[Any], Any] | None:
    """How a column of this type is read into JSON (None: as the driver gives it)."""
    if field_type in INT_TYPES:
        return int
    if field_type in NUMBER_TYPES:
        return float
    if field_type == "boolean":
        return bool
    return None


Steps = tuple[int, tuple[tuple[tuple[tuple[str, int], ...], str, int, Callable[[Any], Any] | None], ...]]


def _steps(plan: Plan) -> Steps:
    """How to shape a row of this plan, worked out once per plan (plans are cached per query
    text): the Id column's position, then per shown column the parent hops (segment, position
    of the parent's Id), the field name, the column's position and how its value is read.
    Rows are read by position (a plan's columns are its SELECT list, in order). Shaping rows
    was most of a simple query's cost when each row walked the plan anew."""
    if plan.steps is None:
        at = {column.label: index for index, column in enumerate(plan.columns)}
        record_id = next(index for index, column in enumerate(plan.columns) if column.path == ("Id",))
        steps = tuple(
            (tuple((segment, at[plan.parents[column.path[: depth + 1]]]) for depth, segment in enumerate(column.path[:-1])),
             column.path[-1], index, _converter(column.field.type))
            for index, column in enumerate(plan.columns) if not column.hidden
        )
        plan.steps = (record_id, steps)
    return plan.steps


def shape_record(plan: Plan, row: Any) -> dict[str, Any]:
    """A row (a sequence in the plan's column order) as the REST API's record."""
    id_at, steps = _steps(plan)
    name = plan.obj.name
    record: dict[str, Any] = {"attributes": {"type": name, "url": f"{API}/sobjects/{name}/{row[id_at]}"}}
    for hops, field_name, at, convert in steps:
        value = row[at]
        if convert is not None and value is not None:
            value = convert(value)
        if not hops:
            record[field_name] = value
            continue
        container: dict[str, Any] | None = record
        for segment, parent_at in hops:
            parent_id = row[parent_at]
            if parent_id is None:
                container[segment] = None
                container = None
                break
            if container.get(segment) is None:
                kind = BY_PREFIX.get(parent_id[:3])
                type_name = kind.name if kind else "Name"
                container[segment] = {"attributes": {"type": type_name, "url": f"{API}/sobjects/{type_name}/{parent_id}"}}
            container = container[segment]
        if container is not None:
            container[field_name] = value
    return record


def _aggregate_record(plan: Plan, row: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"attributes": {"type": "AggregateResult"}}
    for index, column in enumerate(plan.columns):
        record[column.path[-1]] = _value(column.field.type, row[index])
    return record


def _attach_children(db: Session, plan: Plan, rows: list[Any], records: list[dict[str, Any]]) -> None:
    id_at = _steps(plan)[0]
    ids = [row[id_at] for row in rows]
    parents = {f"parent{index}": parent_id for index, parent_id in enumerate(ids)}
    for child in plan.children:
        sub = child.plan
        link_at = next(index for index, column in enumerate(sub.columns) if column.label == sub.link_label)
        grouped: dict[str, list[dict[str, Any]]] = {}
        for row in _of_parents(sub, len(ids)).tuples(db, **parents):
            bucket = grouped.setdefault(row[link_at], [])
            if sub.limit is None or len(bucket) < sub.limit:
                bucket.append(shape_record(sub, row))
        for parent_id, record in zip(ids, records, strict=True):
            found = grouped.get(parent_id)
            record[child.name] = {"totalSize": len(found), "done": True, "records": found} if found else None


def _of_parents(plan: Plan, count: int) -> Prepared:
    """The child plan's statement restricted to `count` parents (its link column IN
    :parent0…), prepared once per count: a query with child subqueries reads one batch of
    children per subquery, and building that statement anew cost more than running it."""
    prepared = plan.by_parents.get(count)
    if prepared is None:
        if len(plan.by_parents) > 64:  # many batch sizes: keep the cache small
            plan.by_parents.clear()
        link_expr = next(col for col in plan.statement.selected_columns if col.key == plan.link_label)
        statement = plan.statement.where(link_expr.element.in_([bindparam(f"parent{index}") for index in range(count)]))
        prepared = plan.by_parents[count] = Prepared(statement)
    return prepared
