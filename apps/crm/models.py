"""Tables of the crm app (a Salesforce clone): one table per standard object, its columns
built from the object's description (apps/crm/objects.py), named as Salesforce names the
fields. Dates are stored as Salesforce writes them ("2026-08-24"), datetimes likewise
("2026-08-24T09:30:00.000+0000"): fixed-width UTC text, so they sort and compare as text."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text

from apps.crm.objects import OBJECTS
from apps.crm.schema import BOOLEAN_TYPES, INT_TYPES, NUMBER_TYPES, Field, SObject
from officegym.core.db import Base


def _column(field: Field) -> Column:
    if field.name == "Id":
        return Column("Id", String(18), primary_key=True)
    if field.type in BOOLEAN_TYPES:
        return Column(field.name, Boolean, nullable=False, default=bool(field.default))
    if field.type in NUMBER_TYPES:
        return Column(field.name, Float, nullable=True)
    if field.type in INT_TYPES:
        return Column(field.name, Integer, nullable=True)
    if field.type == "textarea":
        return Column(field.name, Text, nullable=True)
    return Column(field.name, String(max(field.length, 18)), nullable=True)


def _table(obj: SObject) -> Table:
    columns = [_column(f) for f in obj.fields]
    indexes = [Index(f"ix_{obj.table}_{f.name.lower()}", f.name) for f in obj.fields if f.type == "reference"]
    return Table(obj.table, Base.metadata, *columns, *indexes)


TABLES: dict[str, Table] = {obj.name: _table(obj) for obj in OBJECTS}

# No crm table is bookkeeping: every row is company state.
BOOKKEEPING_TABLES: frozenset[str] = frozenset()
