"""The fictional company every app shares, generated deterministically from `(seed, size)`.

`generate_company(seed, size)` returns an immutable `Company`: teams and people (one org
tree), CRM customers with contacts, the product line, deals and Jira tickets, all dated
relative to the company's `now`. The same arguments always give an identical company: all
randomness comes from `random.Random` instances and one Faker seeded from the arguments,
never from the global random, the wall clock or uuid. Each section (people, customers, ...)
draws from its own generator, so changing how tickets are made does not reshuffle people.

Word banks (titles, places, ticket templates) live in `seed_data._words`.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import types
import typing
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import date, datetime, time, timedelta, timezone
from functools import cache

from faker import Faker

from seed_data import _words as W

# Bump whenever the output for a given (seed, size) changes: cached templates carry it.
GENERATOR_VERSION = 2
SIZES = ("small", "large")


@dataclass(frozen=True, slots=True)
class _Scale:
    headcount: dict[str, int]
    execs: tuple[tuple[str, str], ...]
    offices: tuple[tuple[str, int], ...]
    customers: int
    products: int
    deals: int
    sup_tickets: int
    eng_tickets: int


_SCALES = {
    "small": _Scale(W.HEADCOUNT_SMALL, W.EXECS_SMALL, W.SMALL_OFFICES, 40, 6, 60, 80, 40),
    "large": _Scale(W.HEADCOUNT_LARGE, W.EXECS_LARGE, W.LARGE_OFFICES, 800, 12, 1_500, 2_000, 1_000),
}


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
    # Lookup tables, built on first use. A dict field (not cached_property, which needs
    # __dict__) keeps the class slotted; compare=False keeps it out of ==, hash and JSON.
    _index: dict[str, dict] = field(default_factory=dict, init=False, repr=False, compare=False)

    def person(self, person_id: str) -> Person:
        return self._get("people", person_id, "person")

    def team(self, slug: str) -> Team:
        return self._get("teams", slug, "team")

    def customer(self, customer_id: str) -> Customer:
        return self._get("customers", customer_id, "customer")

    def members(self, team_slug: str) -> tuple[Person, ...]:
        return self._get("members", team_slug, "team")

    def reports(self, person_id: str) -> tuple[Person, ...]:
        """Direct reports of a person (empty for individual contributors)."""
        self.person(person_id)  # unknown ids fail loudly instead of looking like "no reports"
        return self._lookup("reports").get(person_id, ())

    def by_email(self, email: str) -> Person | None:
        return self._lookup("emails").get(email.lower())

    def case_number(self, ticket_key: str) -> str | None:
        """The CRM case a support ticket was raised from, as Salesforce numbers cases
        ("00001001"); None for tickets no customer raised. The CRM seeds these cases and
        the tracker links its issues to them, so both agree through this one rule: customer
        tickets of the support desk, in the order they were raised, numbered from 1001."""
        return self._lookup("cases").get(ticket_key)

    def _get(self, table: str, key: str, what: str):
        try:
            return self._lookup(table)[key]
        except KeyError:
            raise KeyError(f"no {what} {key!r} in company {self.name!r}") from None

    def _lookup(self, table: str) -> dict:
        if not self._index:
            members: dict[str, list[Person]] = {t.slug: [] for t in self.teams}
            reports: dict[str, list[Person]] = {}
            for p in self.people:
                members[p.team].append(p)
                if p.manager_id is not None:
                    reports.setdefault(p.manager_id, []).append(p)
            self._index.update(
                people={p.id: p for p in self.people},
                teams={t.slug: t for t in self.teams},
                customers={c.id: c for c in self.customers},
                members={k: tuple(v) for k, v in members.items()},
                reports={k: tuple(v) for k, v in reports.items()},
                emails={p.email: p for p in self.people},
                cases={t.key: f"{1001 + n:08d}" for n, t in enumerate(
                    t for t in self.tickets if t.project == "SUP" and t.customer_id is not None)},
            )
        return self._index[table]

    def to_json(self) -> str:
        data = {"generator_version": GENERATOR_VERSION, **_encode(self)}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Company:
        data = json.loads(text)
        data.pop("generator_version", None)
        return _decode(cls, data)


# --- JSON: walk the dataclasses by their type hints, so new fields need no extra code ------


def _encode(value):
    if is_dataclass(value):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value) if f.init}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, date):  # datetime too: both round-trip through isoformat
        return value.isoformat()
    return value


@cache
def _hints(cls: type) -> dict[str, object]:
    init_fields = {f.name for f in fields(cls) if f.init}
    return {k: v for k, v in typing.get_type_hints(cls).items() if k in init_fields}


def _decode(tp, value):
    origin = typing.get_origin(tp)
    if origin is tuple:
        item_type = typing.get_args(tp)[0]
        return tuple(_decode(item_type, v) for v in value)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        tp = next(a for a in typing.get_args(tp) if a is not type(None))
        return _decode(tp, value)
    if tp is datetime:
        return datetime.fromisoformat(value)
    if tp is date:
        return date.fromisoformat(value)
    if is_dataclass(tp):
        return tp(**{name: _decode(hint, value[name]) for name, hint in _hints(tp).items()})
    return value


# --- generation ---------------------------------------------------------------------------


def generate_company(seed: int, size: str) -> Company:
    if size not in SIZES:
        raise ValueError(f"unknown company size {size!r}; accepted sizes: {', '.join(SIZES)}")
    scale = _SCALES[size]

    def rng(section: str) -> random.Random:
        return random.Random(f"officegym/{seed}/{size}/{section}")

    faker = Faker("en_US")

    def fake(section: str) -> Faker:
        faker.seed_instance(f"officegym/{seed}/{size}/{section}")
        return faker

    # Name and "now" depend on the seed alone: seed 7 is the same company at either size.
    identity = random.Random(f"officegym/{seed}/identity")
    brand = identity.choice(W.BRAND_HEADS) + identity.choice(W.BRAND_TAILS)
    name = f"{brand} {identity.choice(W.COMPANY_SUFFIXES)}"
    slug = brand.lower()
    domain = slug + identity.choice(W.COMPANY_TLDS)
    now = _present(identity)

    teams, people = _staff(rng("people"), fake("people"), scale, now.date(), domain)
    customers = _customers(rng("customers"), fake("customers"), scale, people)
    products = tuple(Product(f"{brand[:3].upper()}-{sku}", f"{brand} {title}", family, price)
                     for sku, title, family, price in W.PRODUCTS[: scale.products])
    deals = _deals(rng("deals"), scale, now.date(), customers, products, people)
    tickets = (_tickets(rng("sup"), "SUP", scale.sup_tickets, now, customers, people)
               + _tickets(rng("eng"), "ENG", scale.eng_tickets, now, customers, people))
    return Company(seed, size, name, brand, domain, slug, now, teams, people, customers, products, deals, tickets)


def _present(rng: random.Random) -> datetime:
    """A weekday between 2026-03-02 and 2026-09-30, 09:30 UTC: a working morning to start in."""
    first, last = date(2026, 3, 2), date(2026, 9, 30)
    day = first + timedelta(days=rng.randint(0, (last - first).days))
    while day.weekday() >= 5:  # last is a Wednesday, so this never passes it
        day += timedelta(days=1)
    return datetime.combine(day, time(9, 30), tzinfo=timezone.utc)


def _phone(rng: random.Random, pattern: str) -> str:
    return "".join(str(rng.randint(0, 9)) if ch == "#" else ch for ch in pattern)


def _ascii_slug(text: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", text.lower()))


def _unique(base: str, taken: set[str], sep: str = "") -> str:
    """base, or base2, base3... - the way Slack and mail admins resolve clashes."""
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}{sep}{n}"
    taken.add(candidate)
    return candidate


# --- people -------------------------------------------------------------------------------


@dataclass
class _Draft:
    """A person before ids exist: ids are given in hire order, like an HR system's."""

    team: str
    title: str
    start: date
    manager: _Draft | None
    office: str = ""
    first: str = ""
    last: str = ""


def _staff(rng: random.Random, faker: Faker, scale: _Scale, today: date, domain: str):
    founded = today - timedelta(days=rng.randint(5 * 365, 9 * 365))
    age = (today - founded).days
    hq = rng.choice(W.HQ_CITIES)
    offices = [(hq, W.HQ_WEIGHT)] + [o for o in scale.offices if o[0] != hq]

    def hired_between(lo: int, hi: int) -> date:  # days after founding, never on/after today
        return founded + timedelta(days=min(rng.randint(lo, max(lo, hi)), age - 1))

    drafts: list[_Draft] = []
    ceo = _Draft("exec", scale.execs[0][0], founded, None)
    execs = {"ceo": ceo}
    drafts.append(ceo)
    for title, key in scale.execs[1:]:
        execs[key] = _Draft("exec", title, hired_between(0, 2 * 365), ceo)
        drafts.append(execs[key])

    leads = {"exec": ceo}
    big = scale is _SCALES["large"]
    for slug, base in scale.headcount.items():
        if slug == "exec":
            continue
        ladder = W.TEAM_LADDERS[slug]
        spread = max(1, round(base * 0.06)) if base >= 4 else 0  # a little variety between seeds
        headcount = max(base + rng.randint(-spread, spread), 2 + len(ladder["must"]))
        lead = _Draft(slug, ladder["lead"][big], hired_between(90, age - 180), execs.get(W.TEAM_EXEC[slug], ceo))
        leads[slug] = lead
        drafts.append(lead)
        drafts.extend(_team_below_lead(rng, slug, lead, headcount - 1, hired_between, today, age))

    for d in drafts:
        d.office = _pick_office(rng, offices, d.team)
        if d.office == "Bengaluru":  # Faker's en_US names would read wrong there
            d.first, d.last = rng.choice(W.INDIAN_FIRST_NAMES), rng.choice(W.INDIAN_LAST_NAMES)
        else:
            d.first, d.last = faker.first_name(), faker.last_name()

    order = sorted(range(len(drafts)), key=lambda i: (drafts[i].start, i))
    ids = {id(drafts[i]): f"p{n:04d}" for n, i in enumerate(order, start=1)}  # keyed by object: drafts are unhashable
    handles: set[str] = set()
    people = []
    for i in order:
        d = drafts[i]
        city, _country, tz, phone_pattern = W.OFFICES[d.office]
        handle = _unique(f"{_ascii_slug(d.first)}.{_ascii_slug(d.last)}", handles)
        people.append(Person(
            id=ids[id(d)], first_name=d.first, last_name=d.last, name=f"{d.first} {d.last}", handle=handle,
            email=f"{handle}@{domain}", title=d.title, team=d.team,
            manager_id=ids[id(d.manager)] if d.manager else None, timezone=tz, location=city,
            phone=_phone(rng, phone_pattern), start_date=d.start,
        ))
    teams = tuple(Team(slug, W.TEAM_INFO[slug][0], ids[id(leads[slug])], W.TEAM_INFO[slug][1]) for slug in scale.headcount)
    return teams, tuple(people)


def _team_below_lead(rng, slug, lead, size, hired_between, today, age) -> list[_Draft]:
    """Everyone under a team lead: flat for small teams; big teams get managers of ~8 people
    and, above ten managers, directors between them and the lead."""
    ladder = W.TEAM_LADDERS[slug]
    directors: list[_Draft] = []
    managers: list[_Draft] = []
    if size > 14:
        n_managers = round(size / 9)
        n_directors = -(-n_managers // 7) if n_managers > 10 else 0
        directors = [_Draft(slug, ladder["director"], hired_between(365, age - 90), lead) for _ in range(n_directors)]
        bosses = itertools.cycle(directors or [lead])
        managers = [_Draft(slug, ladder["manager"], hired_between(180, age - 60), next(bosses)) for _ in range(n_managers)]
    n_ics = size - len(directors) - len(managers)
    titles, weights = zip(*ladder["ics"])
    ic_titles = list(ladder["must"]) + rng.choices(titles, weights, k=n_ics - len(ladder["must"]))
    # A growing company: most people joined recently, and a few joined in the last two months.
    # The team may predate its current lead by up to a year (the first hires came before them).
    recent = set(rng.sample(range(n_ics), k=max(1, round(n_ics * 0.05))))
    team_age = min(age - 1, (today - lead.start).days + rng.randint(0, 365))
    bosses = managers[:] or [lead]
    rng.shuffle(bosses)
    ics = []
    for i, title in enumerate(ic_titles):
        days_ago = rng.randint(1, 60) if i in recent else max(1, int(team_age * rng.random() ** 1.6))
        ics.append(_Draft(slug, title, today - timedelta(days=days_ago), bosses[i % len(bosses)]))
    return directors + managers + ics


def _pick_office(rng: random.Random, offices: list[tuple[str, int]], team: str) -> str:
    if team == "exec":
        return offices[0][0]  # leadership sits at HQ
    bias = W.TEAM_OFFICE_BIAS.get(team, ())
    names = [o for o, _ in offices]
    weights = [w * (3 if o in bias else 1) for o, w in offices]
    return rng.choices(names, weights)[0]


def _ic_pool(people: tuple[Person, ...], team: str, title_has: str = "") -> list[Person]:
    """Individual contributors of a team (the people who own accounts and work tickets)."""
    titles = {t for t, _ in W.TEAM_LADDERS[team]["ics"]}
    return [p for p in people if p.team == team and p.title in titles and title_has in p.title]


# --- customers, deals, tickets ------------------------------------------------------------


def _customers(rng: random.Random, faker: Faker, scale: _Scale, people: tuple[Person, ...]) -> tuple[Customer, ...]:
    aes = _ic_pool(people, "sales", "Account Executive")
    senior_aes = [p for p in aes if p.title != "Account Executive"] or aes
    csms = _ic_pool(people, "customer-success", "Customer Success Manager")
    # Books are dealt round-robin so every rep carries a similar number of accounts.
    owners = {False: itertools.cycle(rng.sample(aes, len(aes))), True: itertools.cycle(rng.sample(senior_aes, len(senior_aes)))}
    csm_cycle = itertools.cycle(rng.sample(csms, len(csms)))
    tiers, tier_weights = zip(*W.TIERS)
    names: set[str] = set()
    domains: set[str] = set()
    customers = []
    contact_no = itertools.count(1)
    for n in range(1, scale.customers + 1):
        name = faker.company()
        while name in names or _domain_of(name) in domains:
            name = faker.company()
        names.add(name)
        domain = _domain_of(name)
        domains.add(domain)
        tier = rng.choices(tiers, tier_weights)[0]
        emp_lo, emp_hi, _, _ = W.TIER_SCALE[tier]
        employees = rng.randint(emp_lo, emp_hi)
        employees = round(employees, -1) if employees > 100 else employees
        city, country, phone_pattern = rng.choice(W.CUSTOMER_CITIES)
        # SMB accounts are often served by the pooled ("digital") CS motion: no named CSM.
        csm = next(csm_cycle).id if tier != "SMB" or rng.random() < 0.5 else None
        emails: set[str] = set()
        contacts = []
        for title in rng.sample(W.CONTACT_TITLES, k=rng.randint(1, 3)):
            first, last = faker.first_name(), faker.last_name()
            local = _unique(f"{_ascii_slug(first)}.{_ascii_slug(last)}", emails)
            contacts.append(Contact(f"c{next(contact_no):04d}", first, last, f"{first} {last}", f"{local}@{domain}",
                                    title, _phone(rng, phone_pattern)))
        customers.append(Customer(
            id=f"a{n:04d}", name=name, domain=domain, industry=rng.choice(W.INDUSTRIES), tier=tier, city=city,
            country=country, owner_id=next(owners[tier == "Enterprise"]).id, csm_id=csm, employees=employees,
            annual_revenue=int(round(employees * rng.randint(120_000, 450_000), -5)), contacts=tuple(contacts),
        ))
    return tuple(customers)


def _domain_of(company_name: str) -> str:
    """"Smith, Jones and Brown" -> "smith-jones-brown.com"; legal suffixes are not in domains."""
    words = [w for w in re.findall(r"[a-z0-9]+", company_name.lower()) if w not in ("and", "inc", "llc", "plc", "ltd")]
    return "-".join(words) + ".com"


def _deals(rng, scale, today, customers, products, people) -> tuple[Deal, ...]:
    by_sku = {p.sku.split("-", 1)[1]: p for p in products}
    addons = [p for p in products if p.family != "Platform"]
    aes = [p.id for p in _ic_pool(people, "sales", "Account Executive")]
    # Every account gets one deal first (so each has CRM history), the rest go mostly to big accounts.
    weights = [{"Enterprise": 4, "Mid-Market": 2, "SMB": 1}[c.tier] for c in customers]
    picks = rng.sample(customers, len(customers))[: scale.deals]
    picks += rng.choices(customers, weights, k=scale.deals - len(picks))
    stages, stage_weights = zip(*W.STAGES)
    kinds = [k for k, _ in W.DEAL_KINDS]
    base_seats = {c.id: rng.randint(*W.TIER_SCALE[c.tier][2:]) for c in customers}
    names: set[str] = set()
    deals = []
    for n, customer in enumerate(picks, start=1):
        stage = rng.choices(stages, stage_weights)[0]
        if stage.startswith("Closed"):
            close = today - timedelta(days=rng.randint(1, 180))
        else:  # later stages are expected to close sooner
            close = today + timedelta(days=rng.randint(3, 120 - 9 * stages.index(stage)))
        for _attempt in range(6):
            kind = rng.choices(kinds, (30, 30, 20, 20))[0]
            product = rng.choice(addons) if kind == "addon" else by_sku[W.PLATFORM_FOR_TIER[customer.tier]]
            short = product.name.split(" ", 1)[1]
            pattern = dict(W.DEAL_KINDS)[kind]
            name = pattern.format(customer=customer.name, short=short, year=close.year, quarter=(close.month - 1) // 3 + 1)
            if name not in names:
                break
        name = _unique(name, names, sep=" #")
        seats = base_seats[customer.id]
        if kind == "expansion":
            seats = max(5, round(seats * rng.uniform(0.1, 0.4)))
        elif kind == "addon":
            seats = max(5, round(seats * rng.uniform(0.3, 1.0)))
        discount = rng.choice((0, 0, 0.05, 0.1, 0.15, 0.2, 0.25))
        amount = max(100, int(round(seats * product.unit_price * (1 - discount), -2)))
        owner = customer.owner_id if rng.random() < 0.85 or len(aes) < 2 else rng.choice(aes)
        deals.append(Deal(f"o{n:04d}", customer.id, name, stage, amount, close, owner, product.sku, seats))
    return tuple(deals)


_PRIORITIES = ("Highest", "High", "Medium", "Low", "Lowest")
_PRIORITY_WEIGHTS = {"Incident": (50, 45, 5, 0, 0), "Bug": (5, 25, 45, 20, 5), "Task": (2, 13, 50, 28, 7), "Story": (2, 15, 50, 25, 8)}


def _tickets(rng, project, count, now, customers, people) -> tuple[Ticket, ...]:
    templates = W.SUP_TEMPLATES if project == "SUP" else W.ENG_TEMPLATES
    workers = [p.id for p in _ic_pool(people, "support" if project == "SUP" else "engineering")]
    support = [p.id for p in _ic_pool(people, "support")]
    builders = [p.id for p in _ic_pool(people, "engineering")] + [p.id for p in _ic_pool(people, "product")]
    account_team = [p.id for p in people if p.team in ("sales", "customer-success")]
    weights = [{"Enterprise": 4, "Mid-Market": 2, "SMB": 1}[c.tier] for c in customers]
    share_with_customer = 0.92 if project == "SUP" else 0.25
    summaries: set[str] = set()
    drafts = []
    for _ in range(count):
        customer = rng.choices(customers, weights)[0] if rng.random() < share_with_customer else None
        # Customers escalate defects and feature requests to ENG, not its internal chores.
        pool = [t for t in templates if t[0] != "Task"] if project == "ENG" and customer else templates
        # Redraw a few times so a backlog rarely shows the same line twice; a problem many
        # customers hit gets the customer's name, as support desks do.
        for _attempt in range(8):
            slots = {k: rng.choice(v) for k, v in W.TICKET_SLOTS.items()}
            issue_type, summary, detail = rng.choice(pool)
            summary = summary.format_map(slots)
            if summary not in summaries:
                break
        else:
            if customer is not None:
                summary = f"{summary} — {customer.name}"
        summaries.add(summary)
        detail = detail.format_map(slots)
        impact = rng.choice(W.IMPACTS).format(n=rng.randint(5, 400))
        if project == "SUP" and customer:
            contact = rng.choice(customer.contacts)
            description = (f"Reported by {contact.name} ({contact.title}) at {customer.name} via {rng.choice(W.CHANNELS)}."
                           f"\n\n{detail}\n\nImpact: {impact}.")
            reporter = customer.csm_id if customer.csm_id and rng.random() < 0.3 else rng.choice(support)
        elif project == "SUP":
            description = f"{detail}\n\nImpact: {impact}."
            reporter = rng.choice(support) if rng.random() < 0.6 else rng.choice(account_team)
        elif customer:
            description = f"{detail}\n\nEscalated from support for {customer.name} ({customer.tier})."
            reporter = rng.choice(support)
        else:
            description = detail
            reporter = rng.choice(builders)

        created = _working_moment(rng, now, max_days=180)
        age = (now - created).total_seconds() / 86_400
        # Old tickets are mostly resolved; fresh ones are mostly still open.
        if rng.random() < min(0.85, 0.1 + age / 140):
            status = "Done"
        else:
            status = rng.choices(("To Do", "In Progress", "In Review"), (45, 35, 20 if project == "ENG" else 8))[0]
        span = {"Done": min(age, 21), "To Do": min(age, 2)}.get(status, age)
        updated = min(created + timedelta(minutes=rng.randint(5, max(5, int(span * 1440)))), now - timedelta(minutes=1))
        assignee = None if status == "To Do" and rng.random() < 0.5 else rng.choice(workers)
        priority = rng.choices(_PRIORITIES, _PRIORITY_WEIGHTS[issue_type])[0]
        drafts.append((created, summary, description, issue_type, status, priority,
                       customer.id if customer else None, reporter, assignee, updated))
    # Jira numbers issues in creation order.
    drafts.sort(key=lambda d: d[0])
    return tuple(Ticket(f"{project}-{n}", project, summary, description, issue_type, status, priority, customer_id,
                        reporter, assignee, created, max(updated, created))
                 for n, (created, summary, description, issue_type, status, priority, customer_id, reporter,
                         assignee, updated) in enumerate(drafts, start=1))


def _working_moment(rng: random.Random, now: datetime, max_days: int) -> datetime:
    """A moment in the past `max_days` days, on a weekday (mostly) during working hours (UTC)."""
    while True:
        day = now.date() - timedelta(days=rng.randint(1, max_days))
        if day.weekday() < 5 or rng.random() < 0.25:  # incidents and eager customers do write at weekends
            moment = datetime.combine(day, time(rng.randint(7, 19), rng.randint(0, 59), rng.randint(0, 59)), tzinfo=timezone.utc)
            return moment
