"""Seeds the crm app: the company's Salesforce org, built from the facts every app shares.

Everyone in the company is a User (a few who left are inactive); customers are Accounts
owned by their sales rep, their people are Contacts; deals are Opportunities with the same
names, amounts, stages, close dates and owners, each with one line item (the product and
seats from the standard price book) whose total is the deal's amount; customer support
tickets are Cases numbered by `company.case_number` and linked back through
Jira_Issue_Key__c; leads come in from marketing, some converted into the contacts they
became; months of Tasks and Events sit on accounts, opportunities and cases, all before
`company.now`.

All randomness comes from one `random.Random` seeded with (seed, "crm"), ids from the env's
id counter in creation order: the same company always gives identical rows.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, time, timedelta
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from apps.crm import objects as O
from apps.crm.ids import COUNTER_KEY, make_id
from apps.crm.models import TABLES
from apps.crm.schema import SObject
from apps.crm.service import ACTOR_META_KEY
from apps.crm.values import sf_date, sf_datetime
from officegym.core.db import set_meta
from seed_data.actor import acting_person
from seed_data.company import Company, Ticket
from seed_data.crm.activity import activity_rows
from seed_data.crm.leads import lead_rows

INACTIVE_USERS = 3  # people who left: their user stays, deactivated, owning nothing
TYPE_BY_KIND = {"New Business": "New Business", "Renewal": "Existing Customer - Replacement"}
CASE_STATUS = {"To Do": "New", "In Progress": "Working", "In Review": "Escalated", "Done": "Closed"}
CASE_PRIORITY = {"Highest": "High", "High": "High", "Medium": "Medium", "Low": "Low", "Lowest": "Low"}
CASE_ORIGIN = {"email": "Email", "a phone call": "Phone", "the support portal": "Web", "chat": "Web"}


class Ids:
    """Ids in creation order from one serial counter, started at a seed-derived number."""

    def __init__(self, rng: random.Random) -> None:
        self.serial = rng.randint(62**6, 62**7)

    def new(self, obj: SObject) -> str:
        self.serial += 1
        return make_id(obj.prefix, self.serial)


def blank(obj: SObject, **values: Any) -> dict[str, Any]:
    """A full row of `obj` (every column, defaults filled) with `values` over it."""
    row = {f.name: f.default if f.default is not None else (False if f.type == "boolean" else None) for f in obj.fields}
    unknown = set(values) - set(row)
    if unknown:
        raise KeyError(f"{obj.name} has no fields {sorted(unknown)}")
    row.update(values)
    row["LastModifiedDate"] = row.get("LastModifiedDate") or row["CreatedDate"]
    row["SystemModstamp"] = row["LastModifiedDate"]
    row["LastModifiedById"] = row.get("LastModifiedById") or row["CreatedById"]
    return row


class CrmSeeder:
    def __init__(self, company: Company) -> None:
        self.company = company
        self.rng = random.Random(f"{company.seed}|crm")
        self.ids = Ids(self.rng)
        self.rows: dict[str, list[dict[str, Any]]] = {o.name: [] for o in O.OBJECTS}
        self.user_of: dict[str, str] = {}  # company person id -> User Id
        self.account_of: dict[str, str] = {}  # customer id -> Account Id
        self.contact_of: dict[str, str] = {}  # company contact id -> Contact Id
        self.opportunity_of: dict[str, str] = {}  # deal id -> Opportunity Id
        self.case_of: dict[str, str] = {}  # ticket key -> Case Id
        self.admin = ""

    def add(self, obj: SObject, **values: Any) -> str:
        values.setdefault("Id", self.ids.new(obj))
        self.rows[obj.name].append(blank(obj, **values))
        return values["Id"]

    def build(self) -> None:
        self.users()
        self.products()
        self.accounts()
        self.opportunities()
        self.cases()
        for obj, row in lead_rows(self):
            self.add(obj, **row)
        for obj, row in activity_rows(self):
            self.add(obj, **row)

    # -- people -------------------------------------------------------------------------
    def users(self) -> None:
        company = self.company
        owners = {c.owner_id for c in company.customers} | {c.csm_id for c in company.customers} | {d.owner_id for d in company.deals}
        actor = acting_person(company).id
        busy = owners | {t.assignee_id for t in company.tickets} | {t.reporter_id for t in company.tickets} | {actor}
        idle = [p.id for p in company.people if p.id not in busy and p.manager_id is not None and not company.reports(p.id)]
        leavers = set(self.rng.sample(idle, min(INACTIVE_USERS, len(idle))))
        first = company.people[0]
        for person in company.people:
            self.user_of[person.id] = make_id(O.USER.prefix, self.ids.serial + 1 + len(self.user_of))
        self.ids.serial += len(company.people)
        self.admin = self.user_of[first.id]
        created = sf_datetime(datetime.combine(min(p.start_date for p in company.people), time(9), UTC))
        for person in company.people:
            joined = sf_datetime(datetime.combine(person.start_date, time(9), UTC))
            self.add(
                O.USER, Id=self.user_of[person.id], Username=person.email, FirstName=person.first_name,
                LastName=person.last_name, Name=person.name, Email=person.email, Alias=(person.first_name[:1] + person.last_name[:4]).lower(),
                Title=person.title, Department=company.team(person.team).name, Phone=person.phone,
                IsActive=person.id not in leavers, ManagerId=self.user_of.get(person.manager_id or ""),
                TimeZoneSidKey=person.timezone, City=person.location, EmployeeNumber=person.id,
                CreatedDate=max(created, joined), CreatedById=self.admin,
            )

    def rows_user_active(self, person_id: str) -> bool:
        user = self.user_of.get(person_id)
        return any(row["Id"] == user and row["IsActive"] for row in self.rows["User"])

    def owner(self, person_id: str | None) -> str:
        return self.user_of.get(person_id or "", self.admin)

    # -- catalogue ----------------------------------------------------------------------
    def products(self) -> None:
        created = self.stamp(self.company.now - timedelta(days=400))
        self.pricebook = self.add(O.PRICEBOOK, Name="Standard Price Book", IsStandard=True, IsActive=True,
                                  Description="The standard price book", CreatedDate=created, CreatedById=self.admin)
        self.entry_of: dict[str, tuple[str, str, int, str]] = {}  # sku -> (entry id, product id, price, name)
        for product in self.company.products:
            pid = self.add(O.PRODUCT, Name=product.name, ProductCode=product.sku, Family=product.family, IsActive=True,
                           Description=f"{product.name} ({product.family}), per seat per year", CreatedDate=created, CreatedById=self.admin)
            eid = self.add(O.PRICEBOOK_ENTRY, Name=product.name, ProductCode=product.sku, Pricebook2Id=self.pricebook,
                           Product2Id=pid, UnitPrice=float(product.unit_price), IsActive=True, CreatedDate=created, CreatedById=self.admin)
            self.entry_of[product.sku] = (eid, pid, product.unit_price, product.name)

    # -- customers ----------------------------------------------------------------------
    def accounts(self) -> None:
        for customer in self.company.customers:
            days = self.rng.randint(200, 700)
            created = self.stamp(self.company.now - timedelta(days=days))
            owner = self.owner(customer.owner_id)
            phone = customer.contacts[0].phone.rsplit(" ", 1)[0] + " 0100" if customer.contacts else None
            account = self.add(
                O.ACCOUNT, Name=customer.name, Type="Customer - Direct", Industry=customer.industry,
                AnnualRevenue=float(customer.annual_revenue), NumberOfEmployees=customer.employees, Phone=phone,
                Website=f"www.{customer.domain}", BillingCity=customer.city, BillingCountry=customer.country,
                Tier__c=customer.tier, Customer_Success_Manager__c=self.user_of.get(customer.csm_id or ""),
                Product_Families__c=self.families_won(customer.id),
                Rating=self.rng.choice(O.RATINGS), OwnerId=owner, CreatedDate=created, CreatedById=owner,
            )
            self.account_of[customer.id] = account
            for contact in customer.contacts:
                self.contact_of[contact.id] = self.add(
                    O.CONTACT, FirstName=contact.first_name, LastName=contact.last_name, Name=contact.name,
                    AccountId=account, Email=contact.email, Phone=contact.phone, Title=contact.title,
                    MailingCity=customer.city, MailingCountry=customer.country, OwnerId=owner,
                    CreatedDate=created, CreatedById=owner,
                )

    def families_won(self, customer_id: str) -> str | None:
        """The product families a customer has bought (its Closed Won deals), as a multi-select value."""
        families = {p.sku: p.family for p in self.company.products}
        won = {families[d.product_sku] for d in self.company.deals if d.customer_id == customer_id and d.stage == "Closed Won"}
        return ";".join(f for f in ("Platform", "Add-on", "Services") if f in won) or None

    def opportunities(self) -> None:
        now = self.company.now
        for deal in self.company.deals:
            probability, forecast = O.STAGES[deal.stage]
            closed = deal.stage.startswith("Closed")
            opened = datetime.combine(deal.close_date, time(15), UTC) - timedelta(days=self.rng.randint(30, 120))
            opened = min(opened, now - timedelta(days=self.rng.randint(5, 40)))
            last = min(datetime.combine(deal.close_date, time(17), UTC), now - timedelta(hours=2)) if closed else now - timedelta(days=self.rng.randint(1, 20))
            owner = self.owner(deal.owner_id)
            kind = next((label for word, label in TYPE_BY_KIND.items() if word in deal.name), "Existing Customer - Upgrade")
            opportunity = self.add(
                O.OPPORTUNITY, Name=deal.name, AccountId=self.account_of[deal.customer_id], StageName=deal.stage,
                Amount=float(deal.amount), CloseDate=sf_date(deal.close_date), Probability=float(probability),
                ForecastCategoryName=forecast, IsClosed=closed, IsWon=deal.stage == "Closed Won", Type=kind,
                LeadSource=self.rng.choice(O.LEAD_SOURCES), Pricebook2Id=self.pricebook,
                NextStep=None if closed else self.rng.choice(NEXT_STEPS), OwnerId=owner,
                CreatedDate=self.stamp(opened), CreatedById=owner, LastModifiedDate=self.stamp(max(last, opened)),
            )
            self.opportunity_of[deal.id] = opportunity
            entry, product, list_price, name = self.entry_of[deal.product_sku]
            self.add(
                O.LINE_ITEM, Name=f"{deal.name} {name}", OpportunityId=opportunity, PricebookEntryId=entry,
                Product2Id=product, ProductCode=deal.product_sku, Quantity=float(deal.seats),
                UnitPrice=round(deal.amount / deal.seats, 2), ListPrice=float(list_price), TotalPrice=float(deal.amount),
                CreatedDate=self.stamp(opened), CreatedById=owner,
            )

    def cases(self) -> None:
        for ticket in self.company.tickets:
            number = self.company.case_number(ticket.key)
            if number is None:
                continue
            customer = self.company.customer(ticket.customer_id or "")
            contact = next((c for c in customer.contacts if ticket.description.startswith(f"Reported by {c.name} (")), None)
            status = CASE_STATUS.get(ticket.status, "Working")
            owner = self.owner(ticket.assignee_id or ticket.reporter_id)
            closed = status == "Closed"
            self.case_of[ticket.key] = self.add(
                O.CASE, CaseNumber=number, Subject=ticket.summary, Description=ticket.description, Status=status,
                Priority=CASE_PRIORITY.get(ticket.priority, "Medium"), Origin=self.origin(ticket),
                Type="Feature Request" if ticket.issue_type == "Story" else "Problem" if ticket.issue_type in ("Bug", "Incident") else "Question",
                AccountId=self.account_of[customer.id], ContactId=self.contact_of.get(contact.id) if contact else None,
                IsClosed=closed, ClosedDate=self.stamp(ticket.updated) if closed else None, IsEscalated=status == "Escalated",
                Jira_Issue_Key__c=ticket.key, Resolution__c=RESOLUTION.format(key=ticket.key) if closed else None,
                OwnerId=owner, CreatedDate=self.stamp(ticket.created), CreatedById=self.owner(ticket.reporter_id),
                LastModifiedDate=self.stamp(ticket.updated), LastModifiedById=owner,
            )

    @staticmethod
    def origin(ticket: Ticket) -> str:
        for words, origin in CASE_ORIGIN.items():
            if f" via {words}." in ticket.description:
                return origin
        return "Web"

    @staticmethod
    def stamp(moment: datetime) -> str:
        return sf_datetime(moment)


NEXT_STEPS = ("Schedule demo with IT", "Send revised proposal", "Security review call", "Confirm budget with CFO",
              "Legal redlines", "Pricing approval", "Kick-off meeting", "Follow up after trial")
RESOLUTION = "Fixed and verified with the customer; see {key} for the root cause."


def seed_crm(db: Session, company: Company) -> None:
    """Add the company's Salesforce org to `db` (the caller commits)."""
    seeder = CrmSeeder(company)
    seeder.build()
    for obj in O.OBJECTS:
        rows = seeder.rows[obj.name]
        if rows:
            db.execute(insert(TABLES[obj.name]), rows)
    set_meta(db, COUNTER_KEY, str(seeder.ids.serial))
    set_meta(db, ACTOR_META_KEY, seeder.user_of[acting_person(company).id])
