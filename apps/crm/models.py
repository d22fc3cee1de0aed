"""Tables of the crm app (a Salesforce clone): one table per standard object, its columns
built from the object's description (apps/crm/objects.py), named as Salesforce names the
fields. Dates are stored as Salesforce writes them ("2026-08-24"), datetimes likewise
("2026-08-24T09:30:00.000+0000"): fixed-width UTC text, so they sort and compare as text."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text

from apps.crm.objects import OBJECTS
from apps.crm.schema import BOOLEAN_TYPES, INT_TYPES, NUMBER_TYPES, Field, SObject
from officegym.core.db import STAMP, Base


# The audit fields Salesforce moves on every save.
STAMPS = frozenset({"LastModifiedDate", "LastModifiedById", "SystemModstamp"})


def _column(field: Field) -> Column:
    if field.name == "Id":
        return Column("Id", String(18), primary_key=True)
    if field.name in STAMPS:
        return Column(field.name, String(max(field.length, 18)), nullable=True, info=STAMP)
    if field.type in BOOLEAN_TYPES:
        return Column(field.name, Boolean, nullable=False, default=bool(field.default))
    if field.type in NUMBER_TYPES:
        return Column(field.name, Float, nullable=True)
    if field.type in INT_TYPES:
        return Column(field.name, Integer, nullable=True)
    if field.type == "textarea":
        return Column(field.name, Text, nullable=True)
    return Column(field.name, String(max(field.length, 18)), nullable=True)


# Every lookup is indexed (queries filter and join on them; deletes cascade along them) but
# the audit ones: nearly every record points at a handful of users through them, no screen or
# common query reads by them, and each index is pages every save writes. The indexes hold
# only records that have the lookup (many are mostly empty: a task's WhatId, a lead's
# ConvertedAccountId): `= x` and `IN (…)` imply it, so they use the index all the same.
UNINDEXED_LOOKUPS = frozenset({"CreatedById", "LastModifiedById"})


def _lookup_index(obj: SObject, column: Column) -> Index:
    present = column.isnot(None)
    return Index(f"ix_{obj.table}_{column.name.lower()}", column, sqlite_where=present, postgresql_where=present)


def _table(obj: SObject) -> Table:
    columns = {f.name: _column(f) for f in obj.fields}
    indexes = [_lookup_index(obj, columns[f.name]) for f in obj.fields if f.type == "reference" and f.name not in UNINDEXED_LOOKUPS]
    return Table(obj.table, Base.metadata, *columns.values(), *indexes)


TABLES: dict[str, Table] = {obj.name: _table(obj) for obj in OBJECTS}

# No crm table is bookkeeping: every row is company state.
BOOKKEEPING_TABLES: frozenset[str] = frozenset()
