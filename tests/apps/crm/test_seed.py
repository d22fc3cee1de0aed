"""The seeded org agrees with the company every app shares: accounts are its customers,
opportunities its deals (names, amounts, stages, close dates, owners), cases its customer
support tickets numbered by the shared rule and linked back by Jira key; activity history
is all in the past; owners of open work are active; ids carry their object's key prefix."""

from __future__ import annotations

from collections import Counter
from typing import Any

from apps.crm.ids import to18
from apps.crm.objects import OBJECTS, STAGES
from apps.crm.values import sf_date, sf_datetime
from seed_data.company import Company


def test_accounts_and_deals_are_the_company_s(org: dict[str, Any], gym: Any) -> None:
    company: Company = gym.template().company
    users = {u["Id"]: u for u in org["User"]}
    person_of = {u["Id"]: u["EmployeeNumber"] for u in org["User"]}
    accounts = {a["Name"]: a for a in org["Account"]}
    assert set(accounts) == {c.name for c in company.customers}
    for customer in company.customers:
        account = accounts[customer.name]
        assert person_of[account["OwnerId"]] == customer.owner_id
        assert account["Tier__c"] == customer.tier and account["NumberOfEmployees"] == customer.employees
    opportunities = {o["Name"]: o for o in org["Opportunity"]}
    assert len(opportunities) == len(company.deals)
    for deal in company.deals:
        opp = opportunities[deal.name]
        assert (opp["Amount"], opp["StageName"], opp["CloseDate"]) == (deal.amount, deal.stage, sf_date(deal.close_date))
        assert person_of[opp["OwnerId"]] == deal.owner_id
        assert opp["Probability"] == STAGES[deal.stage][0] and opp["IsWon"] == (deal.stage == "Closed Won")
    assert Counter(u["IsActive"] for u in users.values())[False] >= 2, "a few people have left"
    owners = {o["OwnerId"] for o in org["Opportunity"] if not o["IsClosed"]} | {a["OwnerId"] for a in org["Account"]}
    assert all(users[o]["IsActive"] for o in owners)


def test_cases_follow_the_support_tickets(org: dict[str, Any], gym: Any) -> None:
    company: Company = gym.template().company
    cases = {c["Jira_Issue_Key__c"]: c for c in org["Case"]}
    raised = [t for t in company.tickets if company.case_number(t.key) is not None]
    assert len(cases) == len(raised) > 0
    accounts = {a["Id"]: a["Name"] for a in org["Account"]}
    for ticket in raised:
        case = cases[ticket.key]
        assert case["CaseNumber"] == company.case_number(ticket.key) and case["Subject"] == ticket.summary
        assert accounts[case["AccountId"]] == company.customer(ticket.customer_id).name
        assert case["IsClosed"] == (ticket.status == "Done") and (case["Resolution__c"] is not None) == case["IsClosed"]
    assert sum(1 for c in org["Case"] if c["ContactId"]) >= len(raised) * 0.8, "cases name the contact who reported them"


def test_history_is_in_the_past_and_ids_are_well_formed(org: dict[str, Any], gym: Any) -> None:
    now = sf_datetime(gym.template().company.now)
    by_prefix = {o.name: o.prefix for o in OBJECTS}
    for name, rows in org.items():
        for row in rows:
            assert to18(row["Id"]) == row["Id"] and row["Id"].startswith(by_prefix[name])
            assert row["CreatedDate"] <= now, (name, row["Id"], row["CreatedDate"])
    assert len(org["Task"]) > len(org["Opportunity"]) and len(org["Event"]) > 10
    converted = [lead for lead in org["Lead"] if lead["IsConverted"]]
    contacts = {c["Id"]: c for c in org["Contact"]}
    assert converted and all(contacts[lead["ConvertedContactId"]]["Email"] == lead["Email"] for lead in converted)


def test_seeded_tasks_keep_the_rules_a_saved_task_keeps(org: dict[str, Any]) -> None:
    """What Salesforce works out on save holds for seeded tasks too: a High task is
    IsHighPriority (it read false for every seeded one), and IsClosed follows the status."""
    tasks = org["Task"]
    assert any(t["Priority"] == "High" for t in tasks) and any(t["Priority"] != "High" for t in tasks)
    for task in tasks:
        assert bool(task["IsHighPriority"]) == (task["Priority"] == "High"), task["Id"]
        assert bool(task["IsClosed"]) == (task["Status"] == "Completed"), task["Id"]


def test_seeding_is_deterministic(gym: Any) -> None:
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from apps.crm.models import TABLES
    from officegym.core.db import Base
    from seed_data.crm import seed_crm

    dumps = []
    for _ in range(2):
        engine = create_engine("sqlite://")
        Base.metadata.create_all(engine)
        with Session(engine) as db:
            seed_crm(db, gym.template().company)
            dumps.append([db.execute(select(t).order_by(t.c.Id)).all() for t in TABLES.values()])
    assert dumps[0] == dumps[1]
