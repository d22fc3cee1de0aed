"""How a CRM object is described: its fields, their types, picklists and relationships.

One `SObject` per standard object is the single source for everything that needs to know
about a field: the table that stores it (models.py builds columns from it), describe
metadata, SOQL compilation (which names exist, which are parents or child relationships)
and write validation (required fields, picklist values, lengths, references).
Fields are stored in columns named exactly as Salesforce names them ("AccountId",
"Jira_Issue_Key__c"), so a query's field is its column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Field types as describe reports them; the storage and JSON type follow from them.
TEXT_TYPES = frozenset({"id", "string", "textarea", "picklist", "multipicklist", "reference", "email", "phone", "url", "date", "datetime"})
NUMBER_TYPES = frozenset({"currency", "double", "percent"})
INT_TYPES = frozenset({"int"})
BOOLEAN_TYPES = frozenset({"boolean"})


@dataclass(frozen=True)
class Field:
    name: str
    type: str  # id, string, textarea, picklist, multipicklist, reference, boolean, currency, double, percent, int, date, datetime, email, phone, url
    label: str = ""
    length: int = 0  # text types: the longest value accepted
    required: bool = False  # on create (nillable False, no default)
    picklist: tuple[str, ...] = ()
    restricted: bool = False  # a restricted picklist refuses values outside its list
    reference_to: tuple[str, ...] = ()  # for references: the object(s) it points at
    relationship: str | None = None  # the parent path name: AccountId -> "Account"
    createable: bool = True
    updateable: bool = True
    default: Any = None

    @property
    def nillable(self) -> bool:
        return not self.required and self.type != "boolean" and self.name != "Id"

    @property
    def polymorphic(self) -> bool:
        return len(self.reference_to) > 1

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name, "label": self.label or _label(self.name), "type": self.type,
            "length": self.length, "nillable": self.nillable, "createable": self.createable, "updateable": self.updateable,
            "defaultedOnCreate": self.default is not None or self.name in SYSTEM_FIELDS,
            "custom": self.name.endswith("__c"), "externalId": False, "unique": self.name == "Id",
            "picklistValues": [{"value": v, "label": v, "active": True, "defaultValue": v == self.default} for v in self.picklist],
            "restrictedPicklist": self.restricted,
            "referenceTo": list(self.reference_to), "relationshipName": self.relationship,
            "calculated": not self.createable and not self.updateable and self.name not in SYSTEM_FIELDS,
            "filterable": self.type != "textarea", "sortable": self.type != "textarea", "groupable": self.type not in ("textarea", "double", "currency", "percent", "datetime"),
        }


@dataclass(frozen=True)
class Child:
    """A child relationship: `Contacts` on Account is Contact rows whose AccountId is the parent's Id."""

    name: str  # "Contacts"
    object: str  # "Contact"
    field: str  # "AccountId"


@dataclass(frozen=True)
class SObject:
    name: str
    label: str
    plural: str
    prefix: str  # the 3-character key prefix of its ids
    table: str
    fields: tuple[Field, ...]
    children: tuple[Child, ...] = ()
    name_field: str = "Name"  # what search results and record titles show
    searchable: tuple[str, ...] = ()  # text fields SOSL looks in (NAME FIELDS is the first)
    index: dict[str, Field] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.index.update({f.name.lower(): f for f in self.fields})

    def field(self, name: str) -> Field | None:
        return self.index.get(name.lower())

    def parent(self, relationship: str) -> Field | None:
        """The reference field behind a parent path segment ("Account" -> AccountId)."""
        rel = relationship.lower()
        return next((f for f in self.fields if f.relationship and f.relationship.lower() == rel), None)

    def child(self, name: str) -> Child | None:
        return next((c for c in self.children if c.name.lower() == name.lower()), None)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name, "label": self.label, "labelPlural": self.plural, "keyPrefix": self.prefix,
            "custom": False, "createable": True, "updateable": True, "deletable": True, "queryable": True,
            "searchable": bool(self.searchable), "retrieveable": True,
            "fields": [f.describe() for f in self.fields],
            "childRelationships": [
                {"childSObject": c.object, "field": c.field, "relationshipName": c.name, "cascadeDelete": False}
                for c in self.children
            ],
            "urls": {"sobject": f"/services/data/v62.0/sobjects/{self.name}",
                     "describe": f"/services/data/v62.0/sobjects/{self.name}/describe",
                     "rowTemplate": f"/services/data/v62.0/sobjects/{self.name}/{{ID}}"},
        }

    def summary(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "labelPlural": self.plural, "keyPrefix": self.prefix,
                "custom": False, "queryable": True, "createable": True, "updateable": True, "deletable": True,
                "urls": {"sobject": f"/services/data/v62.0/sobjects/{self.name}",
                         "describe": f"/services/data/v62.0/sobjects/{self.name}/describe"}}


SYSTEM_FIELDS = ("Id", "CreatedDate", "LastModifiedDate", "CreatedById", "LastModifiedById", "SystemModstamp")


def _label(name: str) -> str:
    base = name.removesuffix("__c").removesuffix("Id") if name.endswith(("Id", "__c")) and name != "Id" else name
    words, current = [], ""
    for ch in base.replace("_", " "):
        if ch.isupper() and current and not current[-1].isupper() and current[-1] != " ":
            words.append(current)
            current = ch
        else:
            current += ch
    words.append(current)
    return " ".join(w.strip() for w in words if w.strip()) or name


# -- field builders: short names keep the object tables readable -------------------------
def text(name: str, length: int = 255, **kw: Any) -> Field:
    return Field(name, "string", length=length, **kw)


def area(name: str, length: int = 32000, **kw: Any) -> Field:
    return Field(name, "textarea", length=length, **kw)


def pick(name: str, values: tuple[str, ...], restricted: bool = False, **kw: Any) -> Field:
    return Field(name, "picklist", length=255, picklist=values, restricted=restricted, **kw)


def ref(name: str, *to: str, relationship: str | None = None, **kw: Any) -> Field:
    rel = relationship or (name[:-2] if name.endswith("Id") else name.replace("__c", "__r"))
    return Field(name, "reference", length=18, reference_to=to, relationship=rel, **kw)


def flag(name: str, default: bool = False, **kw: Any) -> Field:
    return Field(name, "boolean", default=default, **kw)


def money(name: str, **kw: Any) -> Field:
    return Field(name, "currency", **kw)


def number(name: str, kind: str = "double", **kw: Any) -> Field:
    return Field(name, kind, **kw)


def day(name: str, **kw: Any) -> Field:
    return Field(name, "date", **kw)


def moment(name: str, **kw: Any) -> Field:
    return Field(name, "datetime", **kw)


def system(owner: bool = True, owner_label: str = "Owner ID") -> tuple[Field, ...]:
    """The fields every object has (Id, audit fields) and, when it has one, its owner (an
    activity's owner is whom it is assigned to: Salesforce labels it "Assigned To ID")."""
    audit = (
        Field("Id", "id", length=18, createable=False, updateable=False),
        moment("CreatedDate", createable=False, updateable=False),
        ref("CreatedById", "User", createable=False, updateable=False),
        moment("LastModifiedDate", createable=False, updateable=False),
        ref("LastModifiedById", "User", createable=False, updateable=False),
        moment("SystemModstamp", createable=False, updateable=False),
    )
    return (*audit, ref("OwnerId", "User", label=owner_label)) if owner else audit
