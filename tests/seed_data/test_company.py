"""The company generator: deterministic, consistent with itself, and fast enough to not matter."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta

import pytest

from seed_data.company import GENERATOR_VERSION, SIZES, Company, generate_company

# (low, high) accepted counts per size: "about" the brief's numbers, leaving room for jitter.
EXPECTED = {
    "small": {"people": (45, 56), "teams": (7, 9), "customers": (40, 40), "products": (6, 6), "deals": (60, 60), "tickets": (120, 120)},
    "large": {"people": (1_900, 2_100), "teams": (12, 16), "customers": (800, 800), "products": (12, 12), "deals": (1_500, 1_500), "tickets": (3_000, 3_000)},
}


@pytest.fixture(scope="module", params=SIZES)
def company(request: pytest.FixtureRequest) -> Company:
    return generate_company(0, request.param)


@pytest.fixture(scope="module")
def small() -> Company:
    return generate_company(0, "small")


def test_exports() -> None:
    assert isinstance(GENERATOR_VERSION, int)
    assert SIZES == ("small", "large")


def test_same_seed_gives_identical_company(company: Company) -> None:
    again = generate_company(company.seed, company.size)
    assert again == company
    assert again.to_json() == company.to_json()


def test_different_seed_gives_different_company(small: Company) -> None:
    other = generate_company(1, "small")
    assert other != small
    assert other.to_json() != small.to_json()
    assert [p.name for p in other.people] != [p.name for p in small.people]


def test_generation_leaves_global_random_alone() -> None:
    random.seed(1234)
    expected = random.random()
    random.seed(1234)
    generate_company(5, "small")
    assert random.random() == expected


def test_json_round_trip_is_exact(company: Company) -> None:
    text = company.to_json()
    back = Company.from_json(text)
    assert back == company
    assert back.to_json() == text
    assert back.now.tzinfo is not None and back.tickets[0].created.tzinfo is not None


def test_counts_match_the_size(company: Company) -> None:
    for what, (low, high) in EXPECTED[company.size].items():
        assert low <= len(getattr(company, what)) <= high, what
    assert all(1 <= len(c.contacts) <= 3 for c in company.customers)


def test_unknown_size_names_the_accepted_sizes() -> None:
    with pytest.raises(ValueError) as error:
        generate_company(0, "medium")
    for size in SIZES:
        assert size in str(error.value)


def test_ids_emails_handles_and_keys_are_unique(company: Company) -> None:
    def unique(values) -> bool:
        values = list(values)
        return len(values) == len(set(values))

    assert unique(p.id for p in company.people)
    assert unique(p.email for p in company.people)
    assert unique(p.handle for p in company.people)
    assert unique(t.slug for t in company.teams)
    assert unique(c.id for c in company.customers)
    assert unique(c.name for c in company.customers)
    assert unique(c.domain for c in company.customers)
    assert unique(k.id for c in company.customers for k in c.contacts)
    assert unique(k.email for c in company.customers for k in c.contacts)
    assert unique(p.sku for p in company.products)
    assert unique(d.id for d in company.deals)
    assert unique(d.name for d in company.deals)
    assert unique(t.key for t in company.tickets)


def test_id_formats(company: Company) -> None:
    assert [p.id for p in company.people][:2] == ["p0001", "p0002"]
    assert all(p.email == f"{p.handle}@{company.domain}" and p.handle == p.handle.lower() for p in company.people)
    assert all(k.email.endswith("@" + c.domain) for c in company.customers for k in c.contacts)
    for project in ("SUP", "ENG"):
        keys = [t.key for t in company.tickets if t.project == project]
        assert keys == [f"{project}-{n}" for n in range(1, len(keys) + 1)]


def test_references_resolve(company: Company) -> None:
    people = {p.id for p in company.people}
    customers = {c.id for c in company.customers}
    teams = {t.slug for t in company.teams}
    skus = {p.sku for p in company.products}
    assert all(p.team in teams for p in company.people)
    assert all(p.manager_id is None or p.manager_id in people for p in company.people)
    assert all(t.lead_id in people and company.person(t.lead_id).team == t.slug for t in company.teams)
    assert all(c.owner_id in people and (c.csm_id is None or c.csm_id in people) for c in company.customers)
    for d in company.deals:
        assert d.customer_id in customers and d.owner_id in people and d.product_sku in skus
    for t in company.tickets:
        assert t.customer_id is None or t.customer_id in customers
        assert t.reporter_id in people and (t.assignee_id is None or t.assignee_id in people)


def test_manager_tree_has_one_root_and_no_cycles(company: Company) -> None:
    roots = [p for p in company.people if p.manager_id is None]
    assert len(roots) == 1
    ceo = roots[0]
    assert ceo.title == "CEO" and company.team("exec").lead_id == ceo.id
    for person in company.people:
        seen = set()
        while person.manager_id is not None:
            assert person.id not in seen, f"cycle through {person.id}"
            seen.add(person.id)
            person = company.person(person.manager_id)
        assert person == ceo
    # Team leads answer to the leadership team; everyone else stays inside their own team.
    leads = {t.lead_id for t in company.teams}
    for p in company.people:
        if p.manager_id and p.id not in leads:
            assert company.person(p.manager_id).team == p.team, p


def test_roles_line_up_across_apps(company: Company) -> None:
    def title(pid: str) -> str:
        return company.person(pid).title

    assert all("Account Executive" in title(c.owner_id) for c in company.customers)
    assert all(c.csm_id is None or company.person(c.csm_id).team == "customer-success" for c in company.customers)
    assert all("Account Executive" in title(d.owner_id) for d in company.deals)
    usual = sum(d.owner_id == company.customer(d.customer_id).owner_id for d in company.deals)
    assert usual >= 0.7 * len(company.deals)  # deal owner is usually the account owner
    for t in company.tickets:
        if t.assignee_id:
            assert company.person(t.assignee_id).team == ("support" if t.project == "SUP" else "engineering")


def test_dates_are_relative_to_now(company: Company) -> None:
    now = company.now
    assert now.tzinfo is not None and now.utcoffset() == timedelta(0)
    assert now.weekday() < 5 and (now.hour, now.minute) == (9, 30)
    today = now.date()
    assert all(p.start_date < today for p in company.people)
    for d in company.deals:
        if d.stage.startswith("Closed"):
            assert today - timedelta(days=190) <= d.close_date <= today
        else:
            assert today < d.close_date <= today + timedelta(days=125)
    for t in company.tickets:
        assert today - timedelta(days=190) <= t.created.date()
        assert t.created <= t.updated < now


def test_values_are_plausible(company: Company) -> None:
    assert {c.tier for c in company.customers} <= {"Enterprise", "Mid-Market", "SMB"}
    assert all(isinstance(d.amount, int) and d.amount > 0 and d.seats > 0 for d in company.deals)
    assert all(isinstance(c.annual_revenue, int) and c.employees > 0 for c in company.customers)
    statuses = {t.status for t in company.tickets}
    assert {"To Do", "Done"} <= statuses <= {"To Do", "In Progress", "In Review", "Done"}
    assert {t.priority for t in company.tickets} <= {"Highest", "High", "Medium", "Low", "Lowest"}
    assert {t.issue_type for t in company.tickets} <= {"Bug", "Task", "Story", "Incident"}
    assert len({p.timezone for p in company.people}) >= (2 if company.size == "small" else 6)
    assert company.brand.lower() == company.slug and company.domain.startswith(company.slug + ".")


def test_lookup_helpers(small: Company) -> None:
    ceo = small.people[0]
    assert small.person(ceo.id) is ceo
    assert small.by_email(ceo.email) is ceo and small.by_email("nobody@example.com") is None
    assert small.team("sales").slug == "sales"
    assert small.customer(small.customers[0].id) is small.customers[0]
    assert all(p.team == "support" for p in small.members("support"))
    assert sum(len(small.members(t.slug)) for t in small.teams) == len(small.people)
    assert {p.id for p in small.reports(ceo.id)} == {p.id for p in small.people if p.manager_id == ceo.id}
    for lookup in (small.person, small.team, small.customer, small.members, small.reports):
        with pytest.raises(KeyError):
            lookup("nope")


def test_company_is_immutable(small: Company) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        small.name = "Other"  # type: ignore[misc]
    assert hash(small) == hash(Company.from_json(small.to_json()))
