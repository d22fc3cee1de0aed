"""Domain operations of the crm app, one per Salesforce REST resource (query, search,
sobjects CRUD, describe) plus lead conversion. Every face binds to these.

Methods return the REST API's response bodies and raise `CrmError` with Salesforce's
error codes. The service never commits: the caller's transaction makes each operation
atomic. The MCP reference server's formatted tools live in reference.py and are bound onto
this class at its end, so they are its operations all the same.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from apps.crm import convert, merge, reference, search
from apps.crm.errors import CrmError
from apps.crm.objects import OBJECTS
from apps.crm.params import FieldList, Flag, LeadStatus, Locator, MasterRecord, MergeIds, ObjectName, OpportunityName, RecordId, Soql, Sosl, Values
from apps.crm.records import ACTOR_META_KEY, Records, object_named
from apps.crm.soql.parser import SoqlError
from apps.crm.soql.run import decode_locator, record_url, run_query
from officegym.core import clock
from officegym.core.db import get_meta
from officegym.core.operations import operation

class CrmService:
    def __init__(self, db: Session, actor_id: str | None = None) -> None:
        self.db = db
        # Read on first use: queries never need the actor, and its meta read was a tenth of one.
        self.records = Records(db, actor_id or None, lambda: get_meta(db, ACTOR_META_KEY) or "")

    @property
    def actor_id(self) -> str:
        return self.records.actor_id

    def today(self) -> date:
        return clock.now(self.db).date()

    def soql(self, text: str, start: int = 0, endpoint: str = "query") -> dict[str, Any]:
        try:
            return run_query(self.db, text, self.today, start=start, endpoint=endpoint)
        except SoqlError as error:
            raise CrmError(error.code, error.message) from None

    # -- query and search -------------------------------------------------------------
    @operation("crm.query")
    def query(self, q: Soql) -> dict[str, Any]:
        """Run a SOQL query; up to 2,000 records per batch, then follow nextRecordsUrl."""
        return self.soql(q)

    @operation("crm.queryAll")
    def query_all(self, q: Soql) -> dict[str, Any]:
        """Run a SOQL query including deleted and archived records (deleted records are purged here, so as query)."""
        return self.soql(q, endpoint="queryAll")

    @operation("crm.queryMore")
    def query_more(self, locator: Locator) -> dict[str, Any]:
        """The next batch of a query, by the locator at the end of its nextRecordsUrl."""
        try:
            text, start = decode_locator(locator)
        except SoqlError as error:
            raise CrmError(error.code, error.message) from None
        return self.soql(text, start=start)

    @operation("crm.search")
    def search(self, q: Sosl) -> dict[str, Any]:
        """Run a SOSL search: FIND {term} IN ALL FIELDS RETURNING Account(Id, Name), Contact(...)."""
        try:
            return {"searchRecords": search.run_search(self.db, q, self.today)}
        except SoqlError as error:
            raise CrmError(error.code, error.message) from None

    # -- metadata ---------------------------------------------------------------------
    @operation("crm.describeGlobal")
    def describe_global(self) -> dict[str, Any]:
        """The objects of the org: name, label, key prefix."""
        return {"encoding": "UTF-8", "maxBatchSize": 200, "sobjects": [o.summary() for o in OBJECTS]}

    @operation("crm.describe")
    def describe(self, sobject: ObjectName) -> dict[str, Any]:
        """An object's fields (name, label, type, length, nillable, picklist values, references) and child relationships."""
        return object_named(sobject).describe()

    # -- records ----------------------------------------------------------------------
    @operation("crm.retrieve")
    def retrieve(self, sobject: ObjectName, id: RecordId, fields: FieldList | None = None) -> dict[str, Any]:
        """One record by Id, with all its fields or the ones listed."""
        obj = object_named(sobject)
        record = self.records.require(obj, id)
        names = [f.name for f in obj.fields]
        if fields:
            wanted = [name.strip() for name in fields.split(",") if name.strip()]
            unknown = [name for name in wanted if obj.field(name) is None]
            if unknown:
                raise CrmError("INVALID_FIELD", f"No such column '{unknown[0][:80]}' on entity '{obj.name}'", unknown[:5])
            names = [obj.field(name).name for name in wanted]
        body: dict[str, Any] = {"attributes": {"type": obj.name, "url": record_url(obj.name, record["Id"])}}
        for name in names:
            body[name] = record[name]
        return body

    @operation("crm.create", writes=True)
    def create(self, sobject: ObjectName, record: Values) -> dict[str, Any]:
        """Create one record; answers its new Id."""
        obj = object_named(sobject)
        return {"id": self.records.create(obj, record), "success": True, "errors": []}

    @operation("crm.update", writes=True)
    def update(self, sobject: ObjectName, id: RecordId, record: Values) -> dict[str, Any]:
        """Update fields of one record (only the fields given change)."""
        obj = object_named(sobject)
        saved = self.records.update(obj, id, record)
        return {"id": saved["Id"], "success": True, "errors": []}

    @operation("crm.delete", writes=True)
    def delete(self, sobject: ObjectName, id: RecordId) -> dict[str, Any]:
        """Delete one record (with the records that cannot exist without it)."""
        obj = object_named(sobject)
        return {"id": self.records.delete(obj, id), "success": True, "errors": []}

    @operation("crm.merge", writes=True)
    def merge(self, sobject: ObjectName, masterRecord: MasterRecord, recordToMergeIds: MergeIds) -> dict[str, Any]:
        """Merge up to three Accounts or Contacts into one: the master takes the chosen values, the others' related records
        move to it, and the others are deleted."""
        return merge.merge(self.records, object_named(sobject), masterRecord, list(recordToMergeIds))

    @operation("crm.convertLead", writes=True)
    def convert_lead(
        self, leadId: RecordId, convertedStatus: LeadStatus = "Closed - Converted", accountId: RecordId | None = None,
        contactId: RecordId | None = None, opportunityName: OpportunityName | None = None, doNotCreateOpportunity: Flag = False,
        ownerId: RecordId | None = None,
    ) -> dict[str, Any]:
        """Convert a lead: create (or reuse) its Account and Contact, optionally an Opportunity, and mark it converted."""
        return convert.convert_lead(
            self.records, self.today(), lead_id=leadId, status=convertedStatus, account_id=accountId, contact_id=contactId,
            opportunity_name=opportunityName, no_opportunity=doNotCreateOpportunity, owner_id=ownerId,
        )


reference.bind(CrmService)
