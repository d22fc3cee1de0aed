"""WHERE and HAVING: SOQL conditions compiled to SQLAlchemy expressions.

Text comparisons are case-insensitive, as in Salesforce (`Name = 'acme'` finds "Acme");
ids match in their 15- or 18-character form; a literal must suit its field's type (a date
field takes a date or a date literal, never a quoted string), and a date literal
(THIS_QUARTER, LAST_N_DAYS:30) becomes the range it covers on the env clock's day.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Integer, and_, cast, false, func, literal_column, not_, or_
from sqlalchemy.sql import ColumnElement

from apps.crm.ids import to18
from apps.crm.schema import BOOLEAN_TYPES, INT_TYPES, NUMBER_TYPES, Field
from apps.crm.soql import ast as A
from apps.crm.soql.dates import RangeError, date_range
from apps.crm.soql.parser import SoqlError
from apps.crm.values import BadValue, parse_date, parse_datetime, sf_date, sf_datetime

TEXTUAL = frozenset({"string", "textarea", "picklist", "multipicklist", "email", "phone", "url"})
ID_TYPES = frozenset({"id", "reference"})
MAX_PATTERN = 1_000  # SQLite refuses very long LIKE patterns; Salesforce text fields are shorter anyway
COMPARISONS = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
DATE_FUNCTIONS = ("CALENDAR_YEAR", "CALENDAR_QUARTER", "CALENDAR_MONTH", "DAY_IN_MONTH", "DAY_ONLY", "FISCAL_YEAR", "FISCAL_QUARTER")


def date_function(fn: str, expr: ColumnElement[Any], field: Field) -> tuple[ColumnElement[Any], Field]:
    """CALENDAR_YEAR(CloseDate) and friends over the stored "YYYY-MM-DD..." text."""
    if field.type not in ("date", "datetime"):
        raise SoqlError("MALFORMED_QUERY", f"{fn}() takes a date or datetime field; {field.name} is {field.type}")
    # Positions are inlined (not bound) so GROUP BY repeats the SELECT's expression exactly,
    # which PostgreSQL requires; // is integer division on both backends.
    def part(start: int, length: int) -> ColumnElement[Any]:
        return func.substr(expr, literal_column(str(start)), literal_column(str(length)))

    month = cast(part(6, 2), Integer)
    if fn in ("CALENDAR_YEAR", "FISCAL_YEAR"):
        return cast(part(1, 4), Integer), Field(fn, "int")
    if fn == "CALENDAR_MONTH":
        return month, Field(fn, "int")
    if fn in ("CALENDAR_QUARTER", "FISCAL_QUARTER"):
        return (month + literal_column("2")) // literal_column("3"), Field(fn, "int")
    if fn == "DAY_IN_MONTH":
        return cast(part(9, 2), Integer), Field(fn, "int")
    if fn == "DAY_ONLY":
        if field.type != "datetime":
            raise SoqlError("MALFORMED_QUERY", f"DAY_ONLY() takes a datetime field; {field.name} is a date")
        return part(1, 10), Field(fn, "date")
    raise SoqlError("MALFORMED_QUERY", f"unknown function {fn}; supported: {', '.join(DATE_FUNCTIONS)}")


def _wrong(field: Field, literal: A.Literal) -> SoqlError:
    wants = {"date": "a date (2026-08-24) or a date literal (TODAY, LAST_N_DAYS:30), not quoted",
             "datetime": "a datetime (2026-08-24T09:30:00Z) or a date literal (TODAY, THIS_MONTH), not quoted",
             "boolean": "true or false, not quoted"}.get(field.type)
    if wants is None:
        wants = "a number, not quoted" if field.type in NUMBER_TYPES | INT_TYPES else "a quoted string ('text')"
    shown = repr(literal.value) if literal.kind != "relative" else literal.value[0]
    return SoqlError("INVALID_FIELD", f"value of filter criterion for field '{field.name}' must be {wants}; got {shown}")


def scalar(field: Field, literal: A.Literal) -> Any:
    """The stored form of `literal` compared with `field` (never a relative date)."""
    kind = literal.kind
    if kind == "null":
        return None
    if field.type in TEXTUAL:
        if kind != "string":
            raise _wrong(field, literal)
        return literal.value
    if field.type in ID_TYPES:
        if kind != "string":
            raise _wrong(field, literal)
        return to18(literal.value) or literal.value  # a malformed id simply matches nothing
    if field.type in BOOLEAN_TYPES:
        if kind != "boolean":
            raise _wrong(field, literal)
        return literal.value
    if field.type in NUMBER_TYPES | INT_TYPES:
        if kind != "number":
            raise _wrong(field, literal)
        return literal.value
    try:
        if field.type == "date" and kind == "date":
            return sf_date(parse_date(literal.value))
        if field.type == "datetime" and kind == "datetime":
            return sf_datetime(parse_datetime(literal.value))
    except BadValue as bad:
        raise SoqlError("INVALID_FIELD", f"{field.name}: {bad}") from None
    raise _wrong(field, literal)


def _bounds(field: Field, literal: A.Literal, today: date) -> tuple[str, str]:
    name, n = literal.value
    try:
        start, end = date_range(name, n, today)
    except RangeError as bad:
        raise SoqlError("MALFORMED_QUERY", str(bad)) from None
    if field.type == "date":
        return sf_date(start), sf_date(end)
    if field.type == "datetime":
        return (sf_datetime(datetime(start.year, start.month, start.day, tzinfo=UTC)),
                sf_datetime(datetime(end.year, end.month, end.day, tzinfo=UTC)))
    raise _wrong(field, literal)


def _ranged(op: str, expr: ColumnElement[Any], start: str, end: str) -> ColumnElement[Any]:
    inside = and_(expr >= start, expr < end)
    return {
        "=": inside, "!=": or_(expr.is_(None), not_(inside)), "<": expr < start, "<=": expr < end,
        ">": expr >= end, ">=": expr >= start,
    }[op]


def _text(expr: ColumnElement[Any], field: Field) -> ColumnElement[Any]:
    return func.lower(expr) if field.type in TEXTUAL else expr


def _value(field: Field, value: Any) -> Any:
    return value.lower() if field.type in TEXTUAL and isinstance(value, str) else value


def compare(op: str, expr: ColumnElement[Any], field: Field, literals: tuple[A.Literal, ...], today: date) -> ColumnElement[Any]:
    if op in ("=", "!=", "<", "<=", ">", ">="):
        literal = literals[0]
        if literal.kind == "relative":
            start, end = _bounds(field, literal, today)
            return _ranged(op, expr, start, end)
        value = scalar(field, literal)
        if value is None:
            if op not in ("=", "!="):
                raise SoqlError("MALFORMED_QUERY", f"null can only be compared with = or != (got {op} null on {field.name})")
            return expr.is_(None) if op == "=" else expr.is_not(None)
        if field.type in BOOLEAN_TYPES and op not in ("=", "!="):
            raise SoqlError("INVALID_FIELD", f"{field.name} is a boolean: compare it with = or !=")
        left, right = _text(expr, field), _value(field, value)
        test = COMPARISONS[op](left, right)
        return or_(expr.is_(None), test) if op == "!=" else test
    if op == "LIKE":
        literal = literals[0]
        if field.type not in TEXTUAL | ID_TYPES or literal.kind != "string":
            raise SoqlError("INVALID_FIELD", f"LIKE works on text fields with a quoted pattern ('Acme%'); {field.name} is {field.type}")
        if len(literal.value) > MAX_PATTERN:
            raise SoqlError("MALFORMED_QUERY", f"LIKE patterns are at most {MAX_PATTERN} characters; got {len(literal.value)}")
        return func.lower(expr).like(literal.value.lower(), escape="\\")
    if op in ("IN", "NOT IN"):
        tests = []
        plain = []
        for literal in literals:
            if literal.kind == "relative":
                start, end = _bounds(field, literal, today)
                tests.append(_ranged("=", expr, start, end))
            else:
                plain.append(scalar(field, literal))
        values = [_value(field, v) for v in plain if v is not None]
        if values:
            tests.append(_text(expr, field).in_(values))
        if any(v is None for v in plain):
            tests.append(expr.is_(None))
        inside = or_(*tests) if tests else false()
        return inside if op == "IN" else negate(inside)
    if op in ("INCLUDES", "EXCLUDES"):
        if field.type != "multipicklist":
            raise SoqlError("INVALID_FIELD", f"{op} works only on multi-select picklists; {field.name} is {field.type}")
        tests = []
        for literal in literals:
            wanted = [part.strip().lower() for part in str(scalar(field, literal) or "").split(";") if part.strip()]
            padded = func.lower(";" + func.coalesce(expr, "") + ";")
            tests.append(and_(*(padded.like(f"%;{part};%") for part in wanted)) if wanted else false())
        return or_(*tests) if op == "INCLUDES" else negate(or_(*tests))
    raise SoqlError("MALFORMED_QUERY", f"unknown operator {op}")


def condition(node: Any, leaf: Callable[[Any], ColumnElement[Any]]) -> ColumnElement[Any]:
    """AND/OR/NOT over leaves compiled by `leaf`."""
    if isinstance(node, A.Logic):
        parts = [condition(item, leaf) for item in node.items]
        if node.op == "AND":
            return and_(*parts)
        if node.op == "OR":
            return or_(*parts)
        return negate(parts[0])
    return leaf(node)


def negate(test: ColumnElement[Any]) -> ColumnElement[Any]:
    """NOT with two-valued logic: a row whose test is unknown (a null field) is not inside,
    so NOT keeps it, as Salesforce does (`NOT Industry = 'Retail'` keeps blank industries)."""
    return not_(func.coalesce(test, false()))
