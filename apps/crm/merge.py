"""Merging duplicate records, as Salesforce's merge does it (Merge Contacts, Merge Accounts;
the API's `merge` call): up to three records of one object become one. The master record
keeps its Id and takes the field values chosen for it; every record that pointed at a merged
record (contacts, opportunities, cases and child accounts of an account; cases of a contact;
tasks, events and notes of either; a converted lead's links) points at the master instead;
then the merged records are deleted. All of it or none of it: one refused step writes nothing.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update

from apps.crm.errors import CrmError
from apps.crm.ids import to18
from apps.crm.models import STAMPS, TABLES
from apps.crm.objects import BY_PREFIX, OBJECTS
from apps.crm.records import Records
from apps.crm.schema import SObject
from apps.crm.values import sf_stamp
from officegym.core import clock

MERGEABLE = ("Account", "Contact")
MAX_MERGED = 2  # besides the master: three records at most, as Salesforce merges them
_NOT_LINKS = frozenset({"OwnerId", "CreatedById", "LastModifiedById"})


def links_to(name: str) -> list[tuple[SObject, str]]:
    """Every (object, lookup field) that can point at a record of object `name`."""
    return [(o, f.name) for o in OBJECTS for f in o.fields
            if f.type == "reference" and name in f.reference_to and f.name not in _NOT_LINKS and f.name not in STAMPS]


def merge(records: Records, obj: SObject, master_record: dict[str, Any], merge_ids: list[str]) -> dict[str, Any]:
    if obj.name not in MERGEABLE:
        raise CrmError("INVALID_TYPE", f"{obj.name} records cannot be merged; merge accepts: {', '.join(MERGEABLE)}")
    if not isinstance(master_record, dict) or not master_record.get("Id"):
        raise CrmError("REQUIRED_FIELD_MISSING", "masterRecord needs the Id of the record to keep", ["Id"])
    if not merge_ids or len(merge_ids) > MAX_MERGED:
        raise CrmError("LIMIT_EXCEEDED", f"a merge takes 1 or {MAX_MERGED} records to merge into the master (3 records in all); "
                                         f"got {len(merge_ids)}", ["recordToMergeIds"])
    for record_id in (master_record["Id"], *merge_ids):
        kind = BY_PREFIX.get((to18(str(record_id)) or "")[:3])
        if kind is not None and kind is not obj:
            raise CrmError("INVALID_TYPE", f"{str(record_id)[:40]} is a {kind.name}, not a {obj.name}: merged records are all of "
                                           f"one object", ["recordToMergeIds"])
    master = records.require(obj, master_record["Id"])
    others = [records.require(obj, record_id) for record_id in merge_ids]
    ids = [master["Id"], *(o["Id"] for o in others)]
    if len(set(ids)) != len(ids):
        raise CrmError("INVALID_ID_FIELD", "a record cannot be merged with itself: the master and the records to merge are "
                                           "different records", ["recordToMergeIds"])
    values = {k: v for k, v in master_record.items() if k not in ("Id", "attributes")}
    if values:
        records.update(obj, master["Id"], values)
    merged = ids[1:]
    stamp = sf_stamp(clock.tick(records.db))
    moved: list[str] = []
    for kind, field in links_to(obj.name):
        table = TABLES[kind.name]
        column = table.c[field]
        if kind is obj:  # a merged record's children of the same object (child accounts); the master never parents itself
            records.db.execute(update(table).where(table.c.Id == master["Id"], column.in_(merged)).values({field: None}))
        stamped = {"LastModifiedDate": stamp, "SystemModstamp": stamp, "LastModifiedById": records.actor_id}
        found = list(records.db.execute(select(table.c.Id).where(column.in_(merged), table.c.Id.not_in(ids)).order_by(table.c.Id)).scalars())
        if found:
            records.db.execute(update(table).where(table.c.Id.in_(found))
                               .values({field: master["Id"], **{k: v for k, v in stamped.items() if k in table.c}}))
            moved += [i for i in found if i not in moved]
    for record_id in merged:
        records.delete(obj, record_id)
    return {"id": master["Id"], "success": True, "errors": [], "mergedRecordIds": merged, "updatedRelatedIds": moved}
