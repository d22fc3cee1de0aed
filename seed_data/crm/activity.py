"""Activity history: the calls, emails and meetings logged on opportunities, cases and
accounts over the months before `company.now` (Tasks and Events), plus a few account notes.
Open opportunities also carry an open follow-up task due soon."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from apps.crm import objects as O
from apps.crm.schema import SObject
from apps.crm.values import sf_date, sf_datetime

if TYPE_CHECKING:
    from seed_data.crm import CrmSeeder

CALLS = ("Call with {who}", "Discovery call", "Pricing discussion", "Check-in call with {who}", "Follow-up call")
EMAILS = ("Email: proposal sent", "Email: follow-up on {deal}", "Email: security questionnaire", "Email: order form")
MEETINGS = ("Demo for {account}", "Onsite workshop", "Executive sponsor meeting", "Quarterly business review")
CASE_TASKS = ("Call customer about case {number}", "Email: update on case {number}", "Confirm fix with {who}")


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("+0000", "+00:00"))


def _between(seeder: CrmSeeder, start: datetime, end: datetime) -> datetime:
    span = max(int((end - start).total_seconds() // 60), 1)
    moment = start + timedelta(minutes=seeder.rng.randint(0, span))
    return moment.replace(hour=seeder.rng.randint(13, 21), minute=seeder.rng.choice((0, 15, 30, 45)), second=0, microsecond=0)


def activity_rows(seeder: CrmSeeder) -> Iterator[tuple[SObject, dict[str, Any]]]:
    rng, now = seeder.rng, seeder.company.now
    contacts_by_account: dict[str, list[dict[str, Any]]] = {}
    for contact in seeder.rows["Contact"]:
        contacts_by_account.setdefault(contact["AccountId"], []).append(contact)
    accounts = {row["Id"]: row for row in seeder.rows["Account"]}
    for opp in seeder.rows["Opportunity"]:
        people = contacts_by_account.get(opp["AccountId"], [])
        start = _moment(opp["CreatedDate"])
        end = min(_moment(opp["LastModifiedDate"]), now - timedelta(hours=1))
        for _ in range(rng.randint(1, 4)):
            who = rng.choice(people) if people else None
            at = min(_between(seeder, start, end), now - timedelta(hours=1))
            is_call = rng.random() < 0.6
            subject = rng.choice(CALLS if is_call else EMAILS).format(who=who["Name"] if who else "the customer", deal=opp["Name"])
            yield O.TASK, dict(
                Subject=subject[:255], Status="Completed", IsClosed=True, Priority="Normal", ActivityDate=sf_date(at),
                WhoId=who["Id"] if who else None, WhatId=opp["Id"], TaskSubtype="Call" if is_call else "Email",
                CallType="Outbound" if is_call else None, CallDurationInSeconds=rng.randint(300, 2400) if is_call else None,
                Description="Discussed scope, timeline and next steps." if is_call else "Sent as discussed.",
                OwnerId=opp["OwnerId"], CreatedDate=sf_datetime(at), CreatedById=opp["OwnerId"],
            )
        if rng.random() < 0.6:
            at = min(_between(seeder, start, end), now - timedelta(hours=3))
            minutes = rng.choice((30, 45, 60))
            who = rng.choice(people) if people else None
            yield O.EVENT, dict(
                Subject=rng.choice(MEETINGS).format(account=accounts[opp["AccountId"]]["Name"]), StartDateTime=sf_datetime(at),
                EndDateTime=sf_datetime(at + timedelta(minutes=minutes)), ActivityDateTime=sf_datetime(at),
                ActivityDate=sf_date(at), DurationInMinutes=minutes, Location="Zoom", Type="Meeting",
                WhoId=who["Id"] if who else None, WhatId=opp["Id"], OwnerId=opp["OwnerId"],
                CreatedDate=sf_datetime(at - timedelta(days=rng.randint(1, 7))), CreatedById=opp["OwnerId"],
            )
        if not opp["IsClosed"]:
            due = now + timedelta(days=rng.randint(-5, 14))
            status = rng.choice(("Not Started", "In Progress"))
            priority = rng.choice(("High", "Normal"))  # drawn in the same order as before: the seed's stream stays
            yield O.TASK, dict(
                Subject=(opp["NextStep"] or "Follow up")[:255], Status=status, Priority=priority, IsHighPriority=priority == "High",
                ActivityDate=sf_date(due), WhatId=opp["Id"], TaskSubtype="Task",
                OwnerId=opp["OwnerId"], CreatedDate=sf_datetime(now - timedelta(days=rng.randint(1, 10))), CreatedById=opp["OwnerId"],
            )
    for case in seeder.rows["Case"]:
        start = _moment(case["CreatedDate"])
        end = min(_moment(case["LastModifiedDate"]), now - timedelta(hours=1))
        if end <= start:
            continue
        for _ in range(rng.randint(0, 2)):
            at = _between(seeder, start, end)
            at = min(max(at, start), now - timedelta(hours=1))
            yield O.TASK, dict(
                Subject=rng.choice(CASE_TASKS).format(number=case["CaseNumber"], who="the customer")[:255], Status="Completed",
                IsClosed=True, Priority="Normal", ActivityDate=sf_date(at), WhoId=case["ContactId"], WhatId=case["Id"],
                TaskSubtype=rng.choice(("Call", "Email")), OwnerId=case["OwnerId"], CreatedDate=sf_datetime(at),
                CreatedById=case["OwnerId"],
            )
    for account in seeder.rows["Account"]:
        if account["Tier__c"] == "Enterprise" or rng.random() < 0.3:
            at = now - timedelta(days=rng.randint(3, 170), hours=rng.randint(0, 8))
            yield O.NOTE, dict(
                Title=f"Account plan: {account['Name']}"[:80],
                Body=f"Tier {account['Tier__c']}. Key goals this year: adoption across teams, a clean renewal, exec alignment.",
                ParentId=account["Id"], OwnerId=account["OwnerId"], CreatedDate=sf_datetime(at.astimezone(UTC)),
                CreatedById=account["OwnerId"],
            )
