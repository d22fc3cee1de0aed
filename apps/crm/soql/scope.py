"""Name resolution for one SELECT: which table a field path reads, joined how.

A `Scope` starts at the queried object's table and adds a LEFT OUTER JOIN for each parent
path the query uses (`Account.Owner.Name` joins Account, then its owner User), once per path.
Polymorphic lookups (Task.What, Task.Who, Note.Parent) join each possible parent; only Id,
Name and Type can be read through them, as in Salesforce.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import count
from typing import Any

from sqlalchemy import String, case, cast, func, literal, literal_column
from sqlalchemy.sql import ColumnElement
from sqlalchemy.sql.expression import FromClause

from apps.crm.models import TABLES
from apps.crm.objects import BY_PREFIX, sobject
from apps.crm.schema import Field, SObject
from apps.crm.soql.ast import FieldRef
from apps.crm.soql.parser import SoqlError

MAX_PARENT_DEPTH = 5  # Salesforce allows five levels of parent-to-child in a path
POLYMORPHIC_FIELDS = ("Id", "Name", "Type")


@dataclass(frozen=True)
class Resolved:
    """A field path bound to SQL: its expression, its field, and the parents on the way."""

    expr: ColumnElement[Any]
    field: Field
    path: tuple[str, ...]  # canonical names, e.g. ("Account", "Owner", "Name")
    parents: tuple[tuple[tuple[str, ...], ColumnElement[Any]], ...]  # (canonical prefix, that parent's Id column)


@lru_cache(maxsize=1024)
def _alias(object_name: str, number: int) -> Any:
    """The object's table named t<number> in a statement. Kept: building an alias builds a
    proxy of each of its columns, over half of compiling a new query; an alias never changes,
    and one statement numbers its aliases apart, so reusing them across statements is safe."""
    return TABLES[object_name].alias(f"t{number}")


class Scope:
    def __init__(self, obj: SObject, aliases: count) -> None:
        self.obj = obj
        self.aliases = aliases
        self.table = _alias(obj.name, next(aliases))
        self.source: FromClause = self.table
        self.joins: dict[tuple[str, ...], tuple[Any, SObject, tuple[str, ...]]] = {}
        self.poly: dict[tuple[str, ...], list[tuple[Any, SObject]]] = {}

    def _join(self, parent_key: tuple[str, ...], table: Any, ref: Field, target: SObject) -> Any:
        alias = _alias(target.name, next(self.aliases))
        self.source = self.source.outerjoin(alias, alias.c.Id == table.c[ref.name])
        return alias

    def resolve(self, ref: FieldRef) -> Resolved:
        path = ref.path
        if len(path) > 1 and path[0].lower() == self.obj.name.lower() and self.obj.parent(path[0]) is None:
            path = path[1:]  # "Contact.Name" in FROM Contact
        if len(path) > MAX_PARENT_DEPTH + 1:
            raise SoqlError("MALFORMED_QUERY", f"{ref.text}: a path may go through at most {MAX_PARENT_DEPTH} parents")
        table, obj = self.table, self.obj
        canonical: tuple[str, ...] = ()
        parents: list[tuple[tuple[str, ...], ColumnElement[Any]]] = []
        for depth, segment in enumerate(path[:-1]):
            ref_field = obj.parent(segment)
            if ref_field is None:
                raise SoqlError(
                    "INVALID_FIELD",
                    f"Didn't understand relationship '{segment}' in field path '{ref.text}'. {obj.name} has these "
                    f"relationships: {', '.join(sorted(f.relationship for f in obj.fields if f.relationship))}",
                )
            canonical = (*canonical, ref_field.relationship)
            if ref_field.polymorphic:
                return self._polymorphic(ref, table, ref_field, canonical, tuple(parents), path[depth + 1:])
            target = sobject(ref_field.reference_to[0])
            known = self.joins.get(canonical)
            if known is None:
                alias = self._join(canonical, table, ref_field, target)
                self.joins[canonical] = (alias, target, canonical)
            else:
                alias = known[0]
            parents.append((canonical, alias.c.Id))
            table, obj = alias, target
        field = obj.field(path[-1])
        if field is None:
            raise SoqlError("INVALID_FIELD", f"No such column '{path[-1]}' on entity '{obj.name}'. Check the spelling; "
                                             f"describe {obj.name} lists its fields")
        return Resolved(table.c[field.name], field, (*canonical, field.name), tuple(parents))

    def _polymorphic(self, ref: FieldRef, table: Any, ref_field: Field, canonical: tuple[str, ...],
                     parents: tuple[tuple[tuple[str, ...], ColumnElement[Any]], ...], rest: tuple[str, ...]) -> Resolved:
        if len(rest) != 1 or rest[0].lower() not in {f.lower() for f in POLYMORPHIC_FIELDS}:
            raise SoqlError("INVALID_FIELD", f"{ref.text}: through the polymorphic relationship {ref_field.relationship} "
                                             f"only {', '.join(POLYMORPHIC_FIELDS)} can be read")
        name = next(f for f in POLYMORPHIC_FIELDS if f.lower() == rest[0].lower())
        ref_column = table.c[ref_field.name]
        parents = (*parents, (canonical, ref_column))
        if name == "Id":
            return Resolved(ref_column, Field("Id", "id", length=18), (*canonical, "Id"), parents)
        if name == "Type":
            whens = [(func.substr(ref_column, literal_column("1"), literal_column("3")) == o, literal(BY_PREFIX[o].name)) for o in _prefixes(ref_field)]
            return Resolved(case(*whens, else_=None), Field("Type", "string", length=40), (*canonical, "Type"), parents)
        joined = self.poly.get(canonical)
        if joined is None:
            joined = self.poly[canonical] = [(self._join(canonical, table, ref_field, sobject(t)), sobject(t)) for t in ref_field.reference_to]
        names = [cast(alias.c[target.name_field], String) for alias, target in joined]
        return Resolved(func.coalesce(*names), Field("Name", "string", length=255), (*canonical, "Name"), parents)


def _prefixes(ref_field: Field) -> list[str]:
    return [sobject(t).prefix for t in ref_field.reference_to]
