"""SOSL: `FIND {words} IN <scope> FIELDS RETURNING Object(fields WHERE … ORDER BY … LIMIT n)`.

Every word must appear (case-insensitively, anywhere) in one of the object's fields the
scope names: NAME FIELDS its name field, EMAIL/PHONE FIELDS its email/phone fields, ALL
FIELDS every searchable text field. `*` matches any run of characters and `?` one; words
joined by OR need only one of them. Each object's records then go through the same SOQL
compiler (its WHERE, ORDER BY and LIMIT), so the fields and shapes are a query's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import lru_cache
from typing import Any

from sqlalchemy.orm import Session

from apps.crm.objects import OBJECTS, sobject
from apps.crm.schema import SObject
from apps.crm.soql import ast as A
from apps.crm.soql.compiler import Context, compile_query
from apps.crm.soql.parser import SoqlError, parse_sosl
from apps.crm.soql.run import prepared_batch, shape_record

MAX_RESULTS = 2000  # SOSL returns at most 2,000 records in all


def _pattern(word: str) -> str:
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return "%" + escaped.replace("*", "%").replace("?", "_") + "%"


def _words(term: str) -> list[list[str]]:
    """The term as OR-groups of AND-ed words: 'acme OR globex corp' -> [[acme], [globex, corp]]."""
    text = term.replace("\\", "").replace('"', " ").strip()
    groups: list[list[str]] = [[]]
    for word in text.split():
        if not any(ch.isalnum() or ch in "*?" for ch in word):
            continue  # punctuation alone ("—" in "Acme — Renewal") separates words, as Salesforce reads it
        if word.upper() == "OR":
            groups.append([])
        elif word.upper() not in ("AND", "AND NOT"):
            groups[-1].append(word)
    groups = [g for g in groups if g]
    if not groups or any(len(w.replace("*", "").replace("?", "")) < 2 for g in groups for w in g):
        raise SoqlError("MALFORMED_SEARCH", f"search term must be longer than one character (every word, without wildcards): {term[:80]!r}")
    return groups


def scope_fields(obj: SObject, scope: str) -> list[str]:
    if scope == "NAME":
        return [obj.name_field] if obj.searchable else []
    if scope == "EMAIL":
        return [f.name for f in obj.fields if f.type == "email"]
    if scope == "PHONE":
        return [f.name for f in obj.fields if f.type == "phone"]
    if not obj.searchable:
        return []
    extra = [f.name for f in obj.fields if f.type in ("email", "phone") and f.name not in obj.searchable]
    return [*obj.searchable, *extra]


def _matches(fields: list[str], groups: list[list[str]]) -> Any:
    def word_test(word: str) -> Any:
        tests = tuple(A.Compare("LIKE", A.FieldRef((name,)), (A.Literal("string", _pattern(word)),)) for name in fields)
        return tests[0] if len(tests) == 1 else A.Logic("OR", tests)

    ands = [A.Logic("AND", tuple(word_test(w) for w in group)) if len(group) > 1 else word_test(group[0]) for group in groups]
    return ands[0] if len(ands) == 1 else A.Logic("OR", tuple(ands))


# Searches whose plans no relative date literal went into, by (text, dialect): the same on any
# day, so running one reads no clock (as SOQL plans, run.py).
_UNDATED: dict[tuple[str, str], tuple[int, tuple[tuple[Any, int], ...]]] = {}
_UNDATED_MAX = 256


def run_search(db: Session, text: str, today: Callable[[], date]) -> list[dict[str, Any]]:
    """The records a search finds; `today` (the env clock's day) is asked only when a WHERE of
    the search has a relative date literal, or the search is new."""
    dialect = db.get_bind().dialect.name
    kept = _UNDATED.get((text, dialect))
    if kept is None:
        kept = _plans(text, today(), dialect)
        if not any(plan.dated for plan, _ in kept[1]):
            if len(_UNDATED) >= _UNDATED_MAX:
                _UNDATED.clear()
            _UNDATED[(text, dialect)] = kept
    budget, plans = kept
    found: list[dict[str, Any]] = []
    for plan, limit in plans:
        left = min(limit, budget - len(found))
        if left <= 0:
            break
        found.extend(shape_record(plan, row) for row in prepared_batch(plan, 0, left).tuples(db))
    return found


@lru_cache(maxsize=256)
def _plans(text: str, today: date, dialect: str) -> tuple[int, tuple[tuple[Any, int], ...]]:
    """The search's overall limit, and one compiled query per returned object with its own
    limit (kept, as SOQL plans are)."""
    search = parse_sosl(text)
    groups = _words(search["term"])
    wanted = search["returning"] or [{"object": o.name, "fields": [], "where": None, "order_by": (), "limit": None}
                                     for o in OBJECTS if o.searchable]
    ctx = Context(today, dialect)
    budget = min(search["limit"] or MAX_RESULTS, MAX_RESULTS)
    plans = []
    for spec in wanted:
        obj = sobject(spec["object"])
        if obj is None:
            raise SoqlError("INVALID_TYPE", f"sObject type '{spec['object']}' is not supported")
        fields = scope_fields(obj, search["scope"])
        if not fields:
            continue
        where = _matches(fields, groups)
        if spec["where"] is not None:
            where = A.Logic("AND", (spec["where"], where))
        limit = min(spec["limit"] or budget, budget)
        query = A.Query(obj.name, tuple(spec["fields"]) or (A.FieldRef(("Id",)),), where, (), None, spec["order_by"], limit)
        plans.append((compile_query(query, ctx), limit))
    return budget, tuple(plans)
