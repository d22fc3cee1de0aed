"""Who the agent is: one employee of the company acts in every app of every env.

The agent works as that person (a customer-success manager: someone whose job touches
chat, CRM, tickets and sheets), so "post in #support" or "DM your manager" have one meaning.
"""

from __future__ import annotations

from seed_data.company import Company, Person

ACTING_TEAM = "customer-success"


def acting_person(company: Company) -> Person:
    team = company.team(ACTING_TEAM)
    # An individual contributor (no reports), not the lead or a manager: the agent does the work.
    managers = {p.manager_id for p in company.people}
    candidates = [p for p in company.members(ACTING_TEAM) if p.id != team.lead_id and p.id not in managers]
    if not candidates:
        raise ValueError(f"company has no non-lead member of {ACTING_TEAM!r} to act as the agent")
    return candidates[0]
