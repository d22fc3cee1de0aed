"""The fictional company: people, teams, customers, products, deals and tickets.

Deterministic from `(seed, size)`: every random choice comes from generators seeded with the
seed and a purpose label, so adding a field to one part does not reshuffle the others.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field, fields
from datetime import UTC, date, datetime, timedelta
from typing import Any

from faker import Faker

GENERATOR_VERSION = 1
SIZES = ("small", "large")

# people, customers, deals, tickets per size
_COUNTS = {"small": (50, 40, 60, 120), "large": (2000, 800, 1500, 3000)}

_BRANDS = ("Lumora", "Quillon", "Northbeam", "Veridian", "Arcwell", "Tessaly", "Brightloop", "Corvana", "Halcyra", "Ostrik")
_SUFFIXES = (("Systems", "io"), ("Labs", "com"), ("Software", "com"), ("Cloud", "io"), ("Technologies", "com"))

# slug, name, share of headcount, title ladder (junior → senior), lead title, description
_TEAMS = (
    ("exec", "Executive", 0, ("Chief of Staff",), "CEO", "Company leadership"),
    ("engineering", "Engineering", 30, ("Software Engineer", "Senior Software Engineer", "Staff Engineer"), "VP of Engineering", "Builds and runs the platform"),
    ("sales", "Sales", 16, ("Sales Development Rep", "Account Executive", "Senior Account Executive"), "VP of Sales", "New business and expansion"),
    ("support", "Support", 14, ("Support Engineer", "Senior Support Engineer", "Support Team Lead"), "Head of Support", "Customer support and escalations"),
    ("customer-success", "Customer Success", 10, ("Customer Success Manager", "Senior Customer Success Manager"), "Head of Customer Success", "Onboarding, adoption and renewals"),
    ("product", "Product", 7, ("Product Manager", "Senior Product Manager"), "VP of Product", "Roadmap and product discovery"),
    ("marketing", "Marketing", 7, ("Marketing Manager", "Content Strategist", "Product Marketing Manager"), "VP of Marketing", "Demand generation and brand"),
    ("finance", "Finance", 4, ("Financial Analyst", "Accountant", "Controller"), "CFO", "Billing, planning and accounting"),
    ("people-ops", "People Ops", 3, ("People Partner", "Recruiter", "Talent Coordinator"), "Head of People", "Hiring and people operations"),
    ("design", "Design", 3, ("Product Designer", "Senior Product Designer"), "Head of Design", "Product and brand design"),
    ("data", "Data", 3, ("Data Analyst", "Data Engineer", "Analytics Engineer"), "Head of Data", "Analytics and data platform"),
    ("it", "IT", 2, ("IT Support Specialist", "Systems Administrator"), "IT Manager", "Devices, access and internal tools"),
    ("legal", "Legal", 1, ("Legal Counsel", "Contracts Manager"), "General Counsel", "Contracts and compliance"),
)
_SMALL_TEAMS = ("exec", "engineering", "sales", "support", "customer-success", "product", "marketing", "finance")

_PLACES = (
    ("America/New_York", "New York"), ("America/Chicago", "Chicago"), ("America/Los_Angeles", "San Francisco"),
    ("America/Denver", "Denver"), ("Europe/London", "London"), ("Europe/Berlin", "Berlin"),
    ("Europe/Dublin", "Dublin"), ("Asia/Kolkata", "Bengaluru"), ("Asia/Singapore", "Singapore"), ("Australia/Sydney", "Sydney"),
)
_INDUSTRIES = ("Technology", "Healthcare", "Retail", "Financial Services", "Manufacturing", "Education", "Media", "Logistics", "Energy", "Hospitality")
_TIERS = (("Enterprise", 1), ("Mid-Market", 2), ("SMB", 2))
_CONTACT_TITLES = ("VP of Operations", "IT Director", "Head of Procurement", "CTO", "Operations Manager", "Director of Customer Experience", "Finance Director", "Program Manager")
_PRODUCTS = (
    ("PLAT-STD", "Platform Standard", "Platform", 240), ("PLAT-ENT", "Platform Enterprise", "Platform", 480),
    ("ANLY", "Analytics Add-on", "Add-on", 120), ("AUTO", "Automation Add-on", "Add-on", 150),
    ("SSO", "SSO & Audit Pack", "Security", 60), ("SUPP-PREM", "Premium Support", "Services", 90),
    ("DATA", "Data Connectors", "Add-on", 80), ("MOBL", "Mobile Workspace", "Platform", 100),
    ("AI", "AI Assistant", "Add-on", 200), ("GOV", "Governance Suite", "Security", 140),
    ("ONB", "Onboarding Services", "Services", 50), ("SBOX", "Sandbox Environments", "Add-on", 70),
)
_STAGES = ("Prospecting", "Qualification", "Needs Analysis", "Value Proposition", "Id. Decision Makers", "Perception Analysis", "Proposal/Price Quote", "Negotiation/Review", "Closed Won", "Closed Lost")
_DEAL_KINDS = ("New Business", "Renewal", "Expansion", "Upsell")
_FEATURES = ("SSO login", "CSV export", "dashboard", "webhook delivery", "audit log", "API rate limiter", "billing page", "user provisioning (SCIM)", "report scheduler", "mobile sync", "search index", "email notifications", "data connector", "permissions editor")
_SYMPTOMS = (
    "fails for users with plus-addressed emails", "times out above 50k rows", "shows stale numbers after refresh",
    "drops events during peak hours", "returns 500 on large payloads", "is missing entries for deleted users",
    "double-charges on plan change", "ignores timezone settings", "is slow to load for large workspaces",
    "sends duplicate messages", "breaks after the latest release", "rejects valid API tokens",
)
_TASKS = ("Add retry to {f}", "Document limits of the {f}", "Improve error messages in the {f}", "Add metrics for the {f}")
_STATUSES = (("To Do", 3), ("In Progress", 3), ("In Review", 1), ("Done", 4))
_PRIORITIES = (("Highest", 1), ("High", 3), ("Medium", 5), ("Low", 2), ("Lowest", 1))


@dataclass(frozen=True, slots=True)
class Team:
    slug: str
    name: str
    lead_id: str
    description: str


@dataclass(frozen=True, slots=True)
class Person:
    id: str
    first_name: str
    last_name: str
    name: str
    handle: str
    email: str
    title: str
    team: str
    manager_id: str | None
    timezone: str
    location: str
    phone: str
    start_date: date


@dataclass(frozen=True, slots=True)
class Contact:
    id: str
    first_name: str
    last_name: str
    name: str
    email: str
    title: str
    phone: str


@dataclass(frozen=True, slots=True)
class Customer:
    id: str
    name: str
    domain: str
    industry: str
    tier: str
    city: str
    country: str
    owner_id: str
    csm_id: str | None
    employees: int
    annual_revenue: int
    contacts: tuple[Contact, ...]


@dataclass(frozen=True, slots=True)
class Product:
    sku: str
    name: str
    family: str
    unit_price: int


@dataclass(frozen=True, slots=True)
class Deal:
    id: str
    customer_id: str
    name: str
    stage: str
    amount: int
    close_date: date
    owner_id: str
    product_sku: str
    seats: int


@dataclass(frozen=True, slots=True)
class Ticket:
    key: str
    project: str
    summary: str
    description: str
    issue_type: str
    status: str
    priority: str
    customer_id: str | None
    reporter_id: str
    assignee_id: str | None
    created: datetime
    updated: datetime


@dataclass(frozen=True, slots=True)
class Company:
    seed: int
    size: str
    name: str
    brand: str
    domain: str
    slug: str
    now: datetime
    teams: tuple[Team, ...]
    people: tuple[Person, ...]
    customers: tuple[Customer, ...]
    products: tuple[Product, ...]
    deals: tuple[Deal, ...]
    tickets: tuple[Ticket, ...]
    _index: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def _lookup(self, kind: str) -> dict[str, Any]:
        if kind not in self._index:
            if kind == "person":
                self._index[kind] = {p.id: p for p in self.people}
            elif kind == "team":
                self._index[kind] = {t.slug: t for t in self.teams}
            elif kind == "customer":
                self._index[kind] = {c.id: c for c in self.customers}
            elif kind == "email":
                self._index[kind] = {p.email.lower(): p for p in self.people}
        return self._index[kind]

    def person(self, person_id: str) -> Person:
        return self._lookup("person")[person_id]

    def team(self, slug: str) -> Team:
        return self._lookup("team")[slug]

    def customer(self, customer_id: str) -> Customer:
        return self._lookup("customer")[customer_id]

    def members(self, team_slug: str) -> tuple[Person, ...]:
        return tuple(p for p in self.people if p.team == team_slug)

    def reports(self, person_id: str) -> tuple[Person, ...]:
        return tuple(p for p in self.people if p.manager_id == person_id)

    def by_email(self, email: str) -> Person | None:
        return self._lookup("email").get(email.lower())

    def to_json(self) -> str:
        return json.dumps(_encode(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Company:
        return _decode(cls, json.loads(text))


# -- JSON round trip of the dataclasses above --------------------------------------------
def _encode(value: Any) -> Any:
    if isinstance(value, datetime):
        return {"$dt": value.isoformat()}
    if isinstance(value, date):
        return {"$d": value.isoformat()}
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value) if not f.name.startswith("_")}
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    return value


_NESTED = {"teams": Team, "people": Person, "customers": Customer, "products": Product, "deals": Deal, "tickets": Ticket, "contacts": Contact}


def _decode(cls: type, data: dict[str, Any]) -> Any:
    kwargs = {}
    for name, raw in data.items():
        if isinstance(raw, dict) and "$dt" in raw:
            kwargs[name] = datetime.fromisoformat(raw["$dt"])
        elif isinstance(raw, dict) and "$d" in raw:
            kwargs[name] = date.fromisoformat(raw["$d"])
        elif name in _NESTED:
            kwargs[name] = tuple(_decode(_NESTED[name], item) for item in raw)
        else:
            kwargs[name] = raw
    return cls(**kwargs)


# -- generation ----------------------------------------------------------------------------
def _weighted(rng: random.Random, options: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([o for o, _ in options], weights=[w for _, w in options])[0]


def _slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def generate_company(seed: int, size: str = "small") -> Company:
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}; accepted sizes: {', '.join(SIZES)}")
    rng = random.Random(f"company|{seed}|{size}")
    fake = Faker("en_US")
    fake.seed_instance(f"faker|{seed}|{size}")
    n_people, n_customers, n_deals, n_tickets = _COUNTS[size]

    brand = rng.choice(_BRANDS)
    suffix, tld = rng.choice(_SUFFIXES)
    name, slug = f"{brand} {suffix}", brand.lower()
    domain = f"{slug}.{tld}"
    day = date(2026, 3, 2) + timedelta(days=rng.randrange(0, 200))
    while day.weekday() >= 5:
        day += timedelta(days=1)
    now = datetime(day.year, day.month, day.day, 9, 30, tzinfo=UTC)

    teams, people = _people(rng, fake, size, n_people, domain, now)
    customers = _customers(rng, fake, people, n_customers)
    products = tuple(Product(f"{brand[:3].upper()}-{sku}", f"{brand} {pname}", fam, price) for sku, pname, fam, price in _PRODUCTS[: 6 if size == "small" else 12])
    deals = _deals(rng, customers, products, n_deals, now, people)
    tickets = _tickets(rng, people, customers, n_tickets, now)
    return Company(seed, size, name, brand, domain, slug, now, teams, people, customers, products, deals, tickets)


def _people(rng, fake, size, count, domain, now):
    team_specs = [t for t in _TEAMS if size == "large" or t[0] in _SMALL_TEAMS]
    total_share = sum(t[2] for t in team_specs)
    # Headcount per team: exec gets the CEO and one chief of staff; the rest by share.
    sizes = {spec[0]: max(2, round((count - 2) * spec[2] / total_share)) for spec in team_specs if spec[0] != "exec"}
    sizes["exec"] = 2
    handles: set[str] = set()
    people: list[Person] = []
    teams: list[Team] = []

    def new_person(team: str, title: str, manager: str | None) -> Person:
        first, last = fake.first_name(), fake.last_name()
        handle = _slugify(f"{first}.{last}").replace("-", ".")
        base, n = handle, 2
        while handle in handles:
            handle, n = f"{base}{n}", n + 1
        handles.add(handle)
        tz, city = rng.choice(_PLACES)
        person = Person(
            id=f"p{len(people) + 1:04d}", first_name=first, last_name=last, name=f"{first} {last}", handle=handle,
            email=f"{handle}@{domain}", title=title, team=team, manager_id=manager, timezone=tz, location=city,
            phone=fake.numerify("+1-###-###-####"), start_date=(now - timedelta(days=rng.randrange(60, 2500))).date(),
        )
        people.append(person)
        return person

    ceo = new_person("exec", "CEO", None)
    for slug, team_name, _share, ladder, lead_title, description in team_specs:
        lead = ceo if slug == "exec" else new_person(slug, lead_title, ceo.id)
        teams.append(Team(slug, team_name, lead.id, description))
        members = sizes[slug] - 1
        managers: list[Person] = []
        if size == "large" and members > 40:  # a middle layer of managers in big teams
            for _ in range(members // 12):
                managers.append(new_person(slug, f"{team_name} Manager", lead.id))
            members -= len(managers)
        for i in range(members):
            boss = managers[i % len(managers)].id if managers else lead.id
            new_person(slug, rng.choice(ladder), boss)
    return tuple(teams), tuple(people)


def _customers(rng, fake, people, count):
    sellers = [p for p in people if p.team == "sales" and "Account Executive" in p.title] or [p for p in people if p.team == "sales"]
    csms = [p for p in people if p.team == "customer-success"]
    names: set[str] = set()
    customers = []
    contact_no = 0
    while len(customers) < count:
        cname = fake.company().replace(",", "")
        if cname in names:
            continue
        names.add(cname)
        cdomain = _slugify(cname.replace(" and ", " ")).replace("-", "")[:24] + ".com"
        tier = _weighted(rng, _TIERS)
        contacts = []
        for _ in range(rng.randint(1, 3)):
            contact_no += 1
            first, last = fake.first_name(), fake.last_name()
            contacts.append(Contact(f"c{contact_no:04d}", first, last, f"{first} {last}", f"{first.lower()}.{last.lower()}@{cdomain}", rng.choice(_CONTACT_TITLES), fake.numerify("+1-###-###-####")))
        employees = {"Enterprise": rng.randint(2000, 50000), "Mid-Market": rng.randint(200, 2000), "SMB": rng.randint(15, 200)}[tier]
        customers.append(Customer(
            id=f"a{len(customers) + 1:04d}", name=cname, domain=cdomain, industry=rng.choice(_INDUSTRIES), tier=tier,
            city=fake.city(), country=rng.choice(("United States", "United States", "United Kingdom", "Germany", "Canada", "Australia", "India")),
            owner_id=rng.choice(sellers).id, csm_id=rng.choice(csms).id if csms and (tier != "SMB" or rng.random() < 0.5) else None,
            employees=employees, annual_revenue=employees * rng.randint(80, 400) * 1000, contacts=tuple(contacts),
        ))
    return tuple(customers)


def _deals(rng, customers, products, count, now, people):
    deals = []
    for i in range(count):
        customer = customers[i % len(customers)] if i < len(customers) else rng.choice(customers)
        product = rng.choice(products)
        stage = rng.choice(_STAGES)
        closed = stage.startswith("Closed")
        close = now.date() + (timedelta(days=-rng.randrange(1, 180)) if closed else timedelta(days=rng.randrange(3, 120)))
        seats = rng.choice((25, 50, 75, 100, 150, 200, 250, 400, 500, 1000))
        deals.append(Deal(
            id=f"o{i + 1:04d}", customer_id=customer.id, name=f"{customer.name} — {product.name.split(' ', 1)[1]} {rng.choice(_DEAL_KINDS)} {close.year}",
            stage=stage, amount=seats * product.unit_price, close_date=close, owner_id=customer.owner_id,
            product_sku=product.sku, seats=seats,
        ))
    return tuple(deals)


def _tickets(rng, people, customers, count, now):
    support = [p for p in people if p.team == "support"]
    engineers = [p for p in people if p.team == "engineering"]
    reporters = support + [p for p in people if p.team in ("customer-success", "sales")]
    used: set[str] = set()
    tickets = []
    counters = {"SUP": 0, "ENG": 0}
    for _ in range(count):
        project = "SUP" if rng.random() < 0.65 else "ENG"
        counters[project] += 1
        feature = rng.choice(_FEATURES)
        if project == "ENG" and rng.random() < 0.4:
            summary, kind = rng.choice(_TASKS).format(f=feature), rng.choice(("Task", "Story"))
        else:
            summary, kind = f"{feature[0].upper()}{feature[1:]} {rng.choice(_SYMPTOMS)}", "Bug" if rng.random() < 0.85 else "Incident"
        if summary in used:  # keep summaries unique so a summary names one ticket
            summary = f"{summary} ({rng.choice(customers).name.split()[0]})"
        used.add(summary)
        customer = rng.choice(customers) if project == "SUP" or rng.random() < 0.3 else None
        created = now - timedelta(days=rng.randrange(1, 180), minutes=rng.randrange(0, 600))
        status = _weighted(rng, _STATUSES)
        assignees = support if project == "SUP" else engineers
        tickets.append(Ticket(
            key=f"{project}-{counters[project]}", project=project, summary=summary,
            description=f"{summary}." + (f" Reported by {customer.name}." if customer else "") + " Steps to reproduce and logs in the comments.",
            issue_type=kind, status=status, priority=_weighted(rng, _PRIORITIES), customer_id=customer.id if customer else None,
            reporter_id=rng.choice(reporters).id, assignee_id=rng.choice(assignees).id if status != "To Do" or rng.random() < 0.5 else None,
            created=created, updated=min(now, created + timedelta(days=rng.randrange(0, 30))),
        ))
    return tuple(tickets)
