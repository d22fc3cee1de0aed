"""Lead conversion, as Salesforce's convertLead does it: the lead's company becomes an
Account (or joins the one given), the lead becomes a Contact there (or merges into the one
given), an Opportunity is created unless asked not to, the lead's open activities move to
the contact, and the lead is marked converted with the ids of what it became."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import update

from apps.crm.errors import CrmError
from apps.crm.models import TABLES
from apps.crm.objects import LEAD_STATUSES, sobject
from apps.crm.records import Records
from apps.crm.values import sf_date

CONVERTED_STATUSES = ("Closed - Converted",)
FIRST_STAGE = "Prospecting"


def _quarter_end(day: date) -> date:
    quarter_start = (day.month - 1) // 3 * 3 + 1
    first_next = date(day.year + 1, 1, 1) if quarter_start == 10 else date(day.year, quarter_start + 3, 1)
    return first_next - timedelta(days=1)


def convert_lead(records: Records, today: date, *, lead_id: str, status: str, account_id: str | None, contact_id: str | None,
                 opportunity_name: str | None, no_opportunity: bool, owner_id: str | None) -> dict[str, Any]:
    lead = records.require(sobject("Lead"), lead_id)
    if lead["IsConverted"]:
        raise CrmError("CANNOT_UPDATE_CONVERTED_LEAD", f"lead {lead['Id']} is already converted (to account "
                                                       f"{lead['ConvertedAccountId']}, contact {lead['ConvertedContactId']})")
    if status not in CONVERTED_STATUSES:
        raise CrmError("INVALID_STATUS", f"invalid converted status {status[:80]!r}: a conversion sets a converted status; "
                                         f"accepted: {', '.join(CONVERTED_STATUSES)} (lead statuses: {', '.join(LEAD_STATUSES)})",
                       ["convertedStatus"])
    owner = owner_id or lead["OwnerId"]
    account = records.require(sobject("Account"), account_id) if account_id else None
    contact = records.require(sobject("Contact"), contact_id) if contact_id else None
    if contact is not None and account is None:
        raise CrmError("REQUIRED_FIELD_MISSING", "to merge into an existing contact, also give accountId (the contact's account)",
                       ["accountId"])
    if contact is not None and contact["AccountId"] != account["Id"]:
        raise CrmError("FIELD_INTEGRITY_EXCEPTION", f"contact {contact['Id']} is not associated with account {account['Id']}",
                       ["contactId"])
    if account is None:
        new_account = records.create(sobject("Account"), _present(
            Name=lead["Company"], Industry=lead["Industry"], BillingCity=lead["City"], BillingCountry=lead["Country"],
            NumberOfEmployees=lead["NumberOfEmployees"], AnnualRevenue=lead["AnnualRevenue"], Phone=lead["Phone"],
            Type="Prospect", OwnerId=owner,
        ))
        account = records.require(sobject("Account"), new_account)
    if contact is None:
        new_contact = records.create(sobject("Contact"), _present(
            FirstName=lead["FirstName"], LastName=lead["LastName"], AccountId=account["Id"], Email=lead["Email"],
            Phone=lead["Phone"], Title=lead["Title"], LeadSource=lead["LeadSource"], MailingCity=lead["City"],
            MailingCountry=lead["Country"], Description=lead["Description"], OwnerId=owner,
        ))
        contact = records.require(sobject("Contact"), new_contact)
    opportunity_id = None
    if not no_opportunity:
        opportunity_id = records.create(sobject("Opportunity"), _present(
            Name=opportunity_name or f"{lead['Company']}-", AccountId=account["Id"], StageName=FIRST_STAGE,
            CloseDate=sf_date(_quarter_end(today)), LeadSource=lead["LeadSource"], Type="New Business", OwnerId=owner,
        ))
    for activity in ("Task", "Event"):
        table = TABLES[activity]
        records.db.execute(update(table).where(table.c.WhoId == lead["Id"]).values(WhoId=contact["Id"]))
    leads = TABLES["Lead"]
    records.db.execute(update(leads).where(leads.c.Id == lead["Id"]).values(
        IsConverted=True, Status=status, ConvertedDate=sf_date(today), ConvertedAccountId=account["Id"],
        ConvertedContactId=contact["Id"], ConvertedOpportunityId=opportunity_id, LastModifiedById=records.actor_id,
    ))
    return {"leadId": lead["Id"], "accountId": account["Id"], "contactId": contact["Id"], "opportunityId": opportunity_id,
            "success": True, "errors": []}


def _present(**values: Any) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}
