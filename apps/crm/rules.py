"""Each object's own behaviour on save and delete: derived fields and validation rules.

- Contact, Lead, User: Name is FirstName + LastName.
- Opportunity: Probability and ForecastCategoryName follow the stage unless given with it;
  IsClosed/IsWon follow the stage; validation rule: a Closed Won opportunity needs a
  positive Amount. With line items, Amount is their total (as Salesforce rolls it up).
- Case: CaseNumber is the next number; IsClosed/ClosedDate follow the status; validation
  rule: closing a case needs a Resolution__c (the org's custom field, a common pattern:
  standard Case has no resolution field, so orgs add one and require it on close).
- Task/Event: IsClosed follows the status (a Task's IsHighPriority its priority, CompletedDateTime when it
  was closed); an Event's end, duration and activity date
  agree. OpportunityLineItem: price from its price book entry, TotalPrice = Quantity ×
  UnitPrice less Discount. A converted lead cannot be edited.
- Deleting an Account removes its contacts, opportunities and cases; deleting any record
  removes its line items, comments, activities and notes, as Salesforce cascades them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, func, select, update

from apps.crm.errors import CrmError
from apps.crm.models import TABLES
from apps.crm.objects import CLOSED_CASE_STATUSES, CLOSED_TASK_STATUSES, STAGES, sobject
from apps.crm.schema import SObject
from apps.crm.values import parse_datetime, sf_date, sf_datetime
from officegym.core import clock
from officegym.core.sql import Prepared

if TYPE_CHECKING:
    from apps.crm.records import Records

FIRST_CASE_NUMBER = 1001
CASCADE = {  # object -> (child object, its field pointing here)
    "Account": (("Contact", "AccountId"), ("Opportunity", "AccountId"), ("Case", "AccountId")),
    "Opportunity": (("OpportunityLineItem", "OpportunityId"),),
    "Case": (("CaseComment", "ParentId"),),
}


# What saves read and write besides the record itself, prepared once (officegym/core/sql.py).
_BOOKS, _ITEMS, _OPPORTUNITIES = TABLES["Pricebook2"], TABLES["OpportunityLineItem"], TABLES["Opportunity"]
_STANDARD_BOOK = Prepared(select(_BOOKS.c.Id).where(_BOOKS.c.IsStandard.is_(True)))
_HIGHEST_CASE_NUMBER = Prepared(select(func.max(TABLES["Case"].c.CaseNumber)))
_LINE_TOTAL = Prepared(select(func.sum(_ITEMS.c.TotalPrice)).where(_ITEMS.c.OpportunityId == bindparam("opportunity_id")))
_SET_AMOUNT = Prepared(update(_OPPORTUNITIES).where(_OPPORTUNITIES.c.Id == bindparam("opportunity_id")).values(Amount=bindparam("amount")))


def _validation(message: str, fields: list[str]) -> CrmError:
    return CrmError("FIELD_CUSTOM_VALIDATION_EXCEPTION", message, fields)


def before_save(records: Records, obj: SObject, record: dict[str, Any], before: dict[str, Any] | None, given: set[str]) -> None:
    name = obj.name
    if name in ("Contact", "Lead", "User") and ({"FirstName", "LastName"} & given or before is None):
        record["Name"] = " ".join(p for p in (record.get("FirstName"), record.get("LastName")) if p) or None
    if name == "Lead" and before is not None and before["IsConverted"]:
        raise CrmError("CANNOT_UPDATE_CONVERTED_LEAD", f"cannot reference converted lead {before['Id']}: a converted lead "
                                                       f"cannot be edited; edit its account, contact or opportunity instead")
    if name == "Opportunity":
        _opportunity(records, record, before, given)
    elif name == "Case":
        _case(records, record, before)
    elif name == "Task":
        _task(records, record, before)
    elif name == "Event":
        _event(record)
    elif name == "OpportunityLineItem":
        _line_item(records, record, before, given)
    elif name == "PricebookEntry" and before is None:
        product = records.get(sobject("Product2"), record["Product2Id"]) if record.get("Product2Id") else None
        if product is not None:
            record.update(Name=product["Name"], ProductCode=product["ProductCode"])


def _opportunity(records: Records, record: dict[str, Any], before: dict[str, Any] | None, given: set[str]) -> None:
    stage = record.get("StageName")
    if stage in STAGES:
        probability, forecast = STAGES[stage]
        stage_changed = before is None or before.get("StageName") != stage
        if stage_changed and "Probability" not in given:
            record["Probability"] = float(probability)
        if stage_changed and "ForecastCategoryName" not in given or record.get("ForecastCategoryName") is None:
            record["ForecastCategoryName"] = forecast
        record["IsClosed"] = stage.startswith("Closed")
        record["IsWon"] = stage == "Closed Won"
    probability = record.get("Probability")
    if probability is not None and not 0 <= probability <= 100:
        raise CrmError("NUMBER_OUTSIDE_VALID_RANGE", f"Probability: {probability} is outside 0 to 100", ["Probability"])
    if record.get("Pricebook2Id") is None:
        record["Pricebook2Id"] = _STANDARD_BOOK.scalar(records.db)
    if stage == "Closed Won" and not (record.get("Amount") or 0) > 0:
        raise _validation("An opportunity can be Closed Won only with an Amount: enter the deal's Amount (or add its "
                          "products) before closing it as won", ["Amount"])


def _case(records: Records, record: dict[str, Any], before: dict[str, Any] | None) -> None:
    if before is None:
        highest = _HIGHEST_CASE_NUMBER.scalar(records.db)
        record["CaseNumber"] = f"{max(int(highest or 0) + 1, FIRST_CASE_NUMBER):08d}"
    closed = record.get("Status") in CLOSED_CASE_STATUSES
    if closed and not (record.get("Resolution__c") or "").strip():
        raise _validation("A case can be closed only with a Resolution: fill in Resolution__c with how it was resolved",
                          ["Resolution__c"])
    if closed and not (before and before["IsClosed"]):
        record["ClosedDate"] = sf_datetime(clock.now(records.db))
    if not closed:
        record["ClosedDate"] = None
    record["IsClosed"] = closed
    record["IsEscalated"] = bool(record.get("IsEscalated")) or record.get("Status") == "Escalated"


def _task(records: Records, record: dict[str, Any], before: dict[str, Any] | None) -> None:
    """IsClosed follows the status and IsHighPriority the priority; CompletedDateTime is when the
    task was saved closed (created closed, or moved from an open status to a closed one),
    cleared when it is opened again."""
    closed = record.get("Status") in CLOSED_TASK_STATUSES
    if closed and not (before and before["IsClosed"]):
        record["CompletedDateTime"] = sf_datetime(clock.now(records.db))
    if not closed:
        record["CompletedDateTime"] = None
    record["IsClosed"] = closed
    record["IsHighPriority"] = record.get("Priority") == "High"
    record["TaskSubtype"] = record.get("TaskSubtype") or "Task"


def _event(record: dict[str, Any]) -> None:
    start = record.get("StartDateTime")
    if start is None:
        return
    begins = parse_datetime(start)
    minutes, end = record.get("DurationInMinutes"), record.get("EndDateTime")
    if end is None and minutes is None:
        raise CrmError("REQUIRED_FIELD_MISSING", "Required fields are missing: [DurationInMinutes] (or give EndDateTime)",
                       ["DurationInMinutes"])
    if end is not None:
        minutes = int((parse_datetime(end) - begins).total_seconds() // 60)
        if minutes < 0:
            raise _validation("EndDateTime must not be before StartDateTime", ["EndDateTime"])
    else:
        if minutes < 0 or minutes > 14 * 24 * 60:
            raise CrmError("NUMBER_OUTSIDE_VALID_RANGE", "DurationInMinutes must be between 0 and 20160 (14 days)", ["DurationInMinutes"])
        from datetime import timedelta

        end = sf_datetime(begins + timedelta(minutes=minutes))
    record.update(EndDateTime=end, DurationInMinutes=minutes, ActivityDateTime=start, ActivityDate=sf_date(begins))


def _line_item(records: Records, record: dict[str, Any], before: dict[str, Any] | None, given: set[str]) -> None:
    if before is None:
        entry = _entry(records, record)
        record.update(PricebookEntryId=entry["Id"], Product2Id=entry["Product2Id"], ListPrice=entry["UnitPrice"],
                      ProductCode=entry["ProductCode"])
        opportunity = records.get(sobject("Opportunity"), record["OpportunityId"])
        record["Name"] = f"{opportunity['Name']} {entry['Name']}"[:376] if opportunity else entry["Name"]
        if record.get("UnitPrice") is None and record.get("TotalPrice") is None:
            record["UnitPrice"] = entry["UnitPrice"]
    quantity = record.get("Quantity")
    if quantity is not None and quantity <= 0:
        raise CrmError("FIELD_INTEGRITY_EXCEPTION", "Quantity must be greater than zero", ["Quantity"])
    if {"UnitPrice", "TotalPrice"} <= given:
        raise CrmError("FIELD_INTEGRITY_EXCEPTION", "give UnitPrice or TotalPrice, not both", ["UnitPrice", "TotalPrice"])
    discount = record.get("Discount") or 0
    if not 0 <= discount <= 100:
        raise CrmError("NUMBER_OUTSIDE_VALID_RANGE", "Discount is a percentage between 0 and 100", ["Discount"])
    if quantity:
        if "TotalPrice" in given:
            record["UnitPrice"] = round(record["TotalPrice"] / quantity / (1 - discount / 100), 2) if discount < 100 else 0.0
        else:
            record["TotalPrice"] = round(quantity * (record.get("UnitPrice") or 0) * (1 - discount / 100), 2)


def _entry(records: Records, record: dict[str, Any]) -> dict[str, Any]:
    table = TABLES["PricebookEntry"]
    if record.get("PricebookEntryId"):
        return records.get(sobject("PricebookEntry"), record["PricebookEntryId"])  # type: ignore[return-value]
    if record.get("Product2Id"):
        books = TABLES["Pricebook2"]
        standard = select(books.c.Id).where(books.c.IsStandard.is_(True)).scalar_subquery()
        found = records.db.execute(select(table).where(table.c.Product2Id == record["Product2Id"], table.c.Pricebook2Id == standard)).mappings().first()
        if found:
            return dict(found)
    raise CrmError("REQUIRED_FIELD_MISSING", "Required fields are missing: [PricebookEntryId] (or give Product2Id of a "
                                             "product in the standard price book)", ["PricebookEntryId"])


def after_save(records: Records, obj: SObject, record: dict[str, Any], before: dict[str, Any] | None) -> None:
    if obj.name == "OpportunityLineItem":
        roll_up_amount(records, record["OpportunityId"])


def roll_up_amount(records: Records, opportunity_id: str) -> None:
    total = _LINE_TOTAL.scalar(records.db, opportunity_id=opportunity_id)
    if total is not None:
        _SET_AMOUNT.run(records.db, opportunity_id=opportunity_id, amount=float(total))


def before_delete(records: Records, obj: SObject, record: dict[str, Any]) -> None:
    for child, link in CASCADE.get(obj.name, ()):
        records.delete_where(sobject(child), link, record["Id"])
    for activity in ("Task", "Event"):
        for link in ("WhatId", "WhoId"):
            records.delete_where(sobject(activity), link, record["Id"])
    records.delete_where(sobject("Note"), "ParentId", record["Id"])


def after_delete(records: Records, obj: SObject, record: dict[str, Any]) -> None:
    if obj.name == "OpportunityLineItem":
        roll_up_amount(records, record["OpportunityId"])
