"""Leads: marketing's inbound names. Some were converted and became the contacts the org
has now (same name, email and company, with Converted*Id pointing at them); the rest are
open, being worked, or closed without conversion."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from faker import Faker

from apps.crm import objects as O
from apps.crm.schema import SObject
from apps.crm.values import sf_date, sf_datetime

if TYPE_CHECKING:
    from seed_data.crm import CrmSeeder

CONVERTED_SHARE = 0.25
OPEN_STATUSES = (("Open - Not Contacted", 5), ("Working - Contacted", 4), ("Closed - Not Converted", 2))


def lead_rows(seeder: CrmSeeder) -> Iterator[tuple[SObject, dict[str, Any]]]:
    company, rng = seeder.company, seeder.rng
    faker = Faker("en_US")
    faker.seed_instance(f"{company.seed}|crm-leads")
    count = max(20, len(company.customers) * 3 // 4)
    converted = max(2, int(count * CONVERTED_SHARE))
    sales = [p for p in company.people if p.team in ("sales", "marketing") and seeder.rows_user_active(p.id)]
    accounts = {row["Id"]: row for row in seeder.rows["Account"]}
    opportunities_by_account: dict[str, str] = {}
    for row in seeder.rows["Opportunity"]:
        if row["Type"] == "New Business":
            opportunities_by_account.setdefault(row["AccountId"], row["Id"])
    contacts = sorted(seeder.rows["Contact"], key=lambda r: r["Id"])
    for contact in rng.sample(contacts, min(converted, len(contacts))):
        account = accounts[contact["AccountId"]]
        when = datetime.fromisoformat(account["CreatedDate"].replace("+0000", "+00:00"))
        created = when - timedelta(days=rng.randint(5, 40))
        yield O.LEAD, dict(
            FirstName=contact["FirstName"], LastName=contact["LastName"], Name=contact["Name"], Company=account["Name"],
            Title=contact["Title"], Email=contact["Email"], Phone=contact["Phone"], Status="Closed - Converted",
            LeadSource=rng.choice(O.LEAD_SOURCES), Industry=account["Industry"], City=account["BillingCity"],
            Country=account["BillingCountry"], IsConverted=True, ConvertedDate=sf_date(when),
            ConvertedAccountId=account["Id"], ConvertedContactId=contact["Id"],
            ConvertedOpportunityId=opportunities_by_account.get(account["Id"]), OwnerId=account["OwnerId"],
            CreatedDate=sf_datetime(created), CreatedById=account["OwnerId"], LastModifiedDate=sf_datetime(when),
        )
    customer_names = {c.name for c in company.customers}
    statuses, weights = zip(*OPEN_STATUSES)
    for _ in range(count - converted):
        name = faker.company()
        while name in customer_names:
            name = faker.company()
        first, last = faker.first_name(), faker.last_name()
        domain = "".join(ch for ch in name.lower().split(",")[0].split(" ")[0] if ch.isalnum()) or "example"
        owner = seeder.owner(rng.choice(sales).id) if sales else seeder.admin
        created = company.now - timedelta(days=rng.randint(1, 150), minutes=rng.randint(0, 600))
        city, country = faker.city(), rng.choice(("United States", "Canada", "United Kingdom", "Germany", "Australia"))
        yield O.LEAD, dict(
            FirstName=first, LastName=last, Name=f"{first} {last}", Company=name, Title=faker.job()[:128],
            Email=f"{first.lower()}.{last.lower()}@{domain}.com", Phone=faker.numerify("(###) ###-####"),
            Status=rng.choices(statuses, weights)[0], LeadSource=rng.choice(O.LEAD_SOURCES),
            Industry=rng.choice(O.INDUSTRIES), Rating=rng.choice(O.RATINGS), City=city, Country=country,
            NumberOfEmployees=rng.choice((15, 40, 120, 350, 800, 2500)), OwnerId=owner,
            CreatedDate=sf_datetime(created), CreatedById=owner,
        )
