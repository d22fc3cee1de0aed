"""Seeds the chat app: a Slack workspace that reads like the company's own.

Everyone in the company is a user; channels follow the org chart (one per team), the work
(#deals, #escalations, #cs-renewals, ...) and the biggest customers (`cust-<name>`); about
six months of history sit before `company.now`. Messages are written from the template
banks in `seed_data.chat.lines`, filled with the company's real customers, deals, tickets,
products and people, and timed by the facts they state: a "Closed Won" post lands on the
deal's close date, a ticket triage right after the ticket was created, a welcome on the new
hire's first day. So what an agent reads in chat agrees with the CRM and the ticket tracker.

Everything comes from one `random.Random` seeded with (seed, "chat") and from sorted or
tuple-ordered data: the same company always gives byte-identical rows.
"""

from __future__ import annotations

import bisect
import itertools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import insert
from sqlalchemy.orm import Session

from apps.chat.ids import slack_id, ts_from_micros
from apps.chat.models import Channel, Member, Message, Pin, Reaction, User, Workspace
from apps.chat.service import ACTOR_META_KEY
from officegym.core.db import set_meta
from seed_data.actor import acting_person
from seed_data.chat.lines import (
    ACKS, ACTIVITIES, BANKS, HEALTH, PINNED, PLACES, REACTIONS, SERVICES, SOCIAL_HOBBIES, STATUSES, TIMES, TOPICS, Script,
)
from seed_data.company import Company, Customer, Deal, Person, Ticket

HISTORY_DAYS = 182  # about six months of messages before company.now
SLACKBOT_ID = "USLACKBOT"  # the service posts tombstones as this user
BOTS = (  # (handle, real name): integrations that post notifications
    ("jira", "Jira Cloud"),
    ("salesforce", "Salesforce"),
    ("google-calendar", "Google Calendar"),
    ("pagerduty", "PagerDuty"),
)
TARGET_MESSAGES = {"small": 2_500, "large": 40_000}  # whole workspace, replies included
MESSAGES_PER_PERSON = 50  # for a size not listed above
DM_SHARE = 0.18  # of all messages, the rest go to channels by their activity weight
THREAD_CHANCE = 0.3  # a script's `thread` scales this: ~25% of a busy channel's posts get a thread
REACTION_CHANCE = 0.2
REPLY_COUNT_WEIGHTS = (30, 24, 16, 10, 8, 5, 4, 3)  # 1..8 replies, mostly short threads
WORK_HOUR_WEIGHTS = (6, 12, 12, 8, 7, 11, 11, 9, 5)  # local hours 9..17, a dip at lunch
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
MICROS_PER_SECOND = 1_000_000
MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND
MICROS_PER_DAY = 86_400 * MICROS_PER_SECOND

WON, LOST = "closed won", "closed lost"
RESOLVED = ("done", "resolved", "closed")
URGENT = ("highest", "critical", "blocker", "urgent", "high", "p1", "p0")

# Topic channels: name -> (bank, activity weight, teams whose members join).
TOPIC_CHANNELS: tuple[tuple[str, str, float, tuple[str, ...]], ...] = (
    ("deals", "deals", 4, ("sales", "customer-success", "exec", "finance")),
    ("escalations", "escalations", 5, ("support", "customer-success", "engineering")),
    ("incidents", "incidents", 3, ("engineering", "support")),
    ("product-feedback", "product-feedback", 3, ("product", "customer-success", "sales", "support", "design")),
    ("releases", "releases", 1.5, ("engineering", "product", "customer-success", "support", "sales", "marketing")),
    ("hiring", "hiring", 1.5, ("people-ops", "exec")),
    ("sales-wins", "sales-wins", 1.5, ("sales", "customer-success", "exec", "marketing", "finance")),
    ("cs-renewals", "cs-renewals", 4, ("customer-success", "sales", "finance")),
    ("kudos", "kudos", 2, ()),  # () = most of the company
    ("help-it", "help", 1.5, ()),
)


# -- small helpers ------------------------------------------------------------------------
def _mention(user_id: str) -> str:
    return f"<@{user_id}>"


def _money(amount: Any) -> str:
    value = float(amount)
    return f"${value:,.0f}" if value == int(value) else f"${value:,.2f}"


def _short_date(day: date) -> str:
    return f"{day:%b} {day.day}"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60]


@cache
def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError):
        return ZoneInfo("UTC")


def _micros(moment: datetime) -> int:
    delta = moment.astimezone(UTC) - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * MICROS_PER_SECOND + delta.microseconds


def _as_datetime(value: date | datetime) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime(value.year, value.month, value.day, 12, tzinfo=UTC)


def _pick(rng: random.Random, pool: Sequence[str], avoid: Iterable[str] = ()) -> str | None:
    """A random element of `pool` not in `avoid`. Retries first: pools can hold thousands of members."""
    avoid = tuple(avoid)
    for _ in range(8):
        choice = rng.choice(pool)
        if choice not in avoid:
            return choice
    rest = [x for x in pool if x not in avoid]
    return rng.choice(rest) if rest else None


def _present(**facts: str | None) -> dict[str, str]:
    """The facts that have a value: a missing one makes lines that state it unusable."""
    return {key: value for key, value in facts.items() if value is not None}


def _line(entry: str | tuple[str, ...]) -> list[str]:
    """[wording, its own answers...] of a bank entry."""
    return [entry] if isinstance(entry, str) else list(entry)


class _Missing(LookupError):
    """A template field whose fact the subject doesn't have."""


MENTION = re.compile(r"<@([A-Z0-9]+)>")
CUSTOMER_FIELDS = frozenset({"customer", "tier", "industry", "city", "country", "owner", "csm", "contact", "contact_title"})
SUBJECT_FIELDS = CUSTOMER_FIELDS | {
    "deal", "amount", "stage", "close", "seats", "key", "summary", "priority", "status", "issue", "assignee", "reporter",
    "person", "first", "title", "team", "manager", "unassigned",
}


def _unique(ids: Iterable[str | None]) -> list[str]:
    """Ids in first-seen order without repeats or blanks (a dict keeps order, a set doesn't)."""
    return list(dict.fromkeys(i for i in ids if i))


# -- the plan of one conversation ---------------------------------------------------------
@dataclass(slots=True)
class Conversation:
    id: str
    name: str
    kind: str  # bank name, "dm" for direct messages
    members: dict[str, None]  # user ids in first-seen order (a dict: ordered, fast lookups)
    creator: str
    created: int
    weight: float = 0.0  # share of the workspace's message volume
    topic: str = ""
    purpose: str = ""
    is_private: bool = False
    is_im: bool = False
    is_general: bool = False
    lead: str | None = None  # user id answering "lead" roles here
    customer: Customer | None = None  # set for cust-<name> channels
    thread_factor: float = 1.0
    posts: list[Post] = field(default_factory=list)
    humans: list[str] = field(default_factory=list)  # members who are people, not bots


@dataclass(slots=True, eq=False)
class Post:
    micros: int
    user: str
    text: str
    emoji: tuple[str, ...]
    parent: Post | None = None
    has_replies: bool = False
    pinned: bool = False
    ts: str = ""


@dataclass(slots=True)
class Subject:
    """One thing a message talks about, with its rendered facts and the people involved."""

    key: str  # stable identity, so an anchored script is used once per subject and channel
    facts: dict[str, str]
    roles: dict[str, str]  # role -> user id
    anchor: datetime | None = None  # when it happened: a deal's close date, a hire's first day


class _Fill(dict):
    """Template fields: the subject's facts, plus per-message fields computed on first use."""

    def __init__(self, base: dict[str, str], seeder: ChatSeeder, conv: Conversation, author: str, micros: int) -> None:
        super().__init__(base)
        self.seeder, self.conv, self.author, self.micros = seeder, conv, author, micros
        self.text = ""

    def __missing__(self, key: str) -> str:
        value = self.seeder.field(key, self)
        self[key] = value
        return value


# -- the seeder ---------------------------------------------------------------------------
class ChatSeeder:
    def __init__(self, company: Company) -> None:
        self.company = company
        self.rng = random.Random(f"{company.seed}|chat")
        self.now = _micros(company.now)
        self.limit = self.now - MICROS_PER_MINUTE  # nothing seeded is later than a minute before now
        self.start = self.now - HISTORY_DAYS * MICROS_PER_DAY
        self.workspace_id = slack_id("T", company.seed, "team")
        self.people = {p.id: p for p in company.people}
        self.uid = {p.id: slack_id("U", company.seed, "user", p.id) for p in company.people}
        self.person_of = {self.uid[p.id]: p for p in company.people}
        self.bots = {handle: slack_id("U", company.seed, "bot", handle) for handle, _ in BOTS}
        self.bot_ids = frozenset(self.bots.values())
        self.actor = acting_person(company)
        self.actor_uid = self.uid[self.actor.id]
        self.teams = {t.slug: t for t in company.teams}
        self.team_people: dict[str, list[str]] = {}
        for person in company.people:
            self.team_people.setdefault(person.team, []).append(person.id)
        self.conversations: list[Conversation] = []
        self.by_name: dict[str, Conversation] = {}
        self._subjects: dict[str, Subject] = {}
        self._used_anchors: set[tuple[str, Script, str]] = set()  # an event is announced once per channel
        self._said: set[tuple[str, str]] = set()  # (channel, text): nobody posts the same thing twice
        self.word_fields = {"service": SERVICES, "place": PLACES, "activity": ACTIVITIES, "health": HEALTH}

    # -- people ---------------------------------------------------------------------------
    def team_uids(self, *slugs: str) -> list[str]:
        return [self.uid[p] for slug in slugs for p in self.team_people.get(slug, ())]

    def lead_uid(self, slug: str) -> str | None:
        team = self.teams.get(slug)
        return self.uid.get(team.lead_id) if team and team.lead_id else None

    def users(self) -> list[User]:
        rng = self.rng
        exec_ids = set(self.team_people.get("exec", ()))
        people = self.company.people
        away = set(rng.sample(range(len(people)), min(len(people), max(2, len(people) * 6 // 100))))  # a few set a status
        rows = []
        for index, person in enumerate(people):
            status = rng.choice(STATUSES) if index in away else ("", "")
            rows.append(User(
                id=self.uid[person.id], name=person.handle, real_name=person.name,
                display_name=person.first_name if rng.random() < 0.75 else person.handle,
                email=person.email, title=person.title, phone=person.phone, tz=person.timezone,
                status_emoji=status[0], status_text=status[1],
                is_bot=False, is_admin=person.id in exec_ids, deleted=False, person_id=person.id,
            ))
        for handle, real_name in BOTS:
            rows.append(User(id=self.bots[handle], name=handle, real_name=real_name, display_name=real_name, email=None,
                             tz="UTC", is_bot=True, is_admin=False, deleted=False, person_id=None))
        rows.append(User(id=SLACKBOT_ID, name="slackbot", real_name="Slackbot", display_name="Slackbot", email=None,
                         tz="UTC", is_bot=True, is_admin=False, deleted=False, person_id=None))
        return rows

    # -- channels -------------------------------------------------------------------------
    def add_channel(self, name: str, kind: str, members: Iterable[str], weight: float, *, creator: str | None = None,
                    private: bool = False, lead: str | None = None, topic: tuple[str, str] | None = None,
                    customer: Customer | None = None, thread_factor: float = 1.0, general: bool = False) -> Conversation:
        people = dict.fromkeys(_unique(members))
        creator = creator or lead or next(iter(people))
        people.setdefault(creator)
        days_old = self.rng.randint(HISTORY_DAYS + 30, HISTORY_DAYS + 900 if general else HISTORY_DAYS + 500)
        created = (self.start - days_old * MICROS_PER_DAY) // MICROS_PER_SECOND + self.rng.randrange(86_400)
        topic_text, purpose = topic or TOPICS.get(name, ("", ""))
        conv = Conversation(
            id=slack_id("C", self.company.seed, "channel", name), name=name, kind=kind, members=people,
            creator=creator, created=created, weight=weight, topic=topic_text, purpose=purpose,
            is_private=private, is_general=general, lead=lead, customer=customer, thread_factor=thread_factor,
        )
        self.conversations.append(conv)
        self.by_name[name] = conv
        return conv

    def plan_channels(self) -> None:
        company, rng = self.company, self.rng
        everyone = [self.uid[p.id] for p in company.people]
        ceo = self.lead_uid("exec") or everyone[0]
        scale = min(10.0, max(1.0, len(everyone) / 50))  # a bigger company has more optional channels, within reason
        self.add_channel("general", "general", everyone, 6, creator=ceo, general=True)
        self.add_channel("random", "random", everyone, 5, creator=ceo, thread_factor=0.8)
        self.add_channel("announcements", "announcements", everyone, 1.5, creator=ceo, lead=ceo, thread_factor=0.5)
        actor_team = self.actor.team
        for team in company.teams:
            if team.slug == "exec":  # the exec team talks in the private #leadership
                continue
            guests = rng.sample(everyone, min(len(everyone), rng.randint(1, 4)))
            members = [*self.team_uids(team.slug), self.lead_uid("exec"), *guests]
            if team.slug == "support" or team.slug == actor_team:
                members.append(self.actor_uid)
            size = len(self.team_people.get(team.slug, ()))
            kind = team.slug if team.slug in BANKS else "team"  # a team without its own bank talks shop generically
            self.add_channel(team.slug, kind, members, 2 + min(size, 40) * 0.1, lead=self.lead_uid(team.slug),
                             topic=(f"{team.name} team", team.description or f"Everything {team.name}."))
        for name, bank, weight, teams in TOPIC_CHANNELS:
            members = self.team_uids(*teams) if teams else rng.sample(everyone, max(2, int(len(everyone) * 0.8)))
            members += [self.lead_uid(slug) for slug in ("exec", "customer-success", "support", "sales")]
            members.append(self.actor_uid if name in ("escalations", "cs-renewals", "kudos", "product-feedback", "deals") else None)
            lead = next((self.lead_uid(s) for s in teams if self.lead_uid(s)), ceo)
            self.add_channel(name, bank, members, weight, lead=lead)
        leads = _unique(self.lead_uid(t.slug) for t in company.teams)
        self.add_channel("leadership", "leadership", [*self.team_uids("exec"), *leads], 2, creator=ceo, private=True, lead=ceo)
        cs_lead = self.lead_uid("customer-success")
        cs_people = self.team_uids("customer-success")
        cs_leads = [cs_lead, self.lead_uid("exec"), *cs_people[: max(2, len(cs_people) // 4)], self.actor_uid]
        self.add_channel("cs-leads", "cs-leads", cs_leads, 1.5, creator=cs_lead, private=True, lead=cs_lead)
        self.plan_customer_channels(scale)
        if scale > 2:  # only a big company has social, location and per-team standup channels
            for name in SOCIAL_HOBBIES:
                self.add_channel(name, "social", rng.sample(everyone, max(3, len(everyone) // 8)), 0.8, thread_factor=0.7)
            for city in sorted({p.location for p in company.people if p.location})[: int(scale * 3)]:
                locals_ = [self.uid[p.id] for p in company.people if p.location == city]
                self.add_channel(f"loc-{_slug(city)}", "random", locals_, 0.6, topic=(f"{city} office", f"Everything about the {city} office."))
            for team in company.teams:
                if team.slug != "exec" and len(self.team_people.get(team.slug, ())) >= 12:
                    self.add_channel(f"{team.slug}-standup", "team", self.team_uids(team.slug), 1.0,
                                     lead=self.lead_uid(team.slug), topic=(f"{team.name} async standup", "Daily updates, one thread per day."))

    def plan_customer_channels(self, scale: float) -> None:
        """Shared account channels for the biggest customers, and for some of the actor's."""
        support = self.team_uids("support")
        ranked = sorted(self.company.customers, key=lambda c: (-c.annual_revenue, c.id))
        chosen = [c for c in ranked if c.tier == self.top_tier][: int(4 * scale)]
        mine = [c for c in ranked if c.csm_id == self.actor.id and c not in chosen][:3]
        for customer in sorted([*chosen, *mine], key=lambda c: c.id):
            name = f"cust-{_slug(customer.name)}"
            if name in self.by_name:  # "Smith-Huynh" and "Smith Huynh" would share a channel name
                continue
            owner, csm = self.uid.get(customer.owner_id), self.uid.get(customer.csm_id)
            helpers = self.rng.sample(support, min(len(support), 2))
            members = [csm, owner, *helpers, self.lead_uid("support")]
            if customer in mine or self.rng.random() < 0.5:
                members.append(self.actor_uid)
            people = f"Owner: {self.people[customer.owner_id].name}" if customer.owner_id in self.people else ""
            if customer.csm_id in self.people:
                people += f" · CSM: {self.people[customer.csm_id].name}"
            topic = (f"{customer.name} · {customer.tier} · {people}".strip(" ·"),
                     f"Internal channel for the {customer.name} account team ({customer.industry}, {customer.city}).")
            self.add_channel(name, "customer", members, 1.2, creator=csm or owner, lead=csm,
                             topic=topic, customer=customer)

    def plan_dms(self) -> None:
        """Direct messages: the actor with their manager, teammates and account partners; managers
        with reports; some teammates with each other."""
        company, rng, actor = self.company, self.rng, self.actor
        pairs: list[tuple[str, str, float]] = []
        mine = [actor.manager_id, *(p for p in self.team_people.get(actor.team, ()) if p != actor.id)]
        for customer in company.customers:
            if customer.csm_id == actor.id:
                mine.append(customer.owner_id)
        mine += [self.teams[s].lead_id for s in ("support", "sales") if s in self.teams]
        mine += rng.sample(sorted(self.people), 3)
        for other in _unique(mine)[:16]:
            if other != actor.id and other in self.people:
                pairs.append((actor.id, other, 3.0))
        others = [(p.manager_id, p.id) for p in company.people if p.manager_id in self.people and actor.id not in (p.id, p.manager_id)]
        rng.shuffle(others)
        wanted = min(400, max(30, len(company.people) // 2))
        pairs += [(a, b, 1.2) for a, b in others[: wanted * 2 // 3]]
        for slug in sorted(self.team_people):
            team = [p for p in self.team_people[slug] if p != actor.id]
            for _ in range(min(20, max(1, len(team) // 4))):
                if len(team) >= 2:
                    a, b = rng.sample(team, 2)
                    pairs.append((a, b, 0.8))
        seen: set[tuple[str, str]] = set()
        for a, b, weight in pairs:
            ua, ub = sorted((self.uid[a], self.uid[b]))
            if (ua, ub) in seen:
                continue
            seen.add((ua, ub))
            conv = Conversation(
                id=slack_id("D", self.workspace_id, "im", ua, ub), name="", kind="dm", members=dict.fromkeys((ua, ub)),
                creator=self.uid[a], created=(self.start // MICROS_PER_SECOND) - rng.randrange(30, 400) * 86_400,
                weight=weight, is_private=True, is_im=True,
            )
            self.conversations.append(conv)

    def channel_rows(self) -> tuple[list[Channel], list[dict]]:
        channels, members = [], []
        for conv in self.conversations:
            set_at = conv.created + self.rng.randrange(3600, 14 * 86_400)
            channels.append(Channel(
                id=conv.id, name=conv.name, is_private=conv.is_private, is_im=conv.is_im, is_mpim=False,
                is_archived=False, is_general=conv.is_general, created=conv.created, creator=conv.creator,
                topic=conv.topic, topic_creator=conv.creator if conv.topic else "", topic_last_set=set_at if conv.topic else 0,
                purpose=conv.purpose, purpose_creator=conv.creator if conv.purpose else "",
                purpose_last_set=conv.created if conv.purpose else 0,
            ))
            members += [{"channel_id": conv.id, "user_id": u} for u in conv.members]
        return channels, members

    # -- subjects: what messages talk about -----------------------------------------------
    def role_uid(self, person_id: str | None) -> str | None:
        return self.uid.get(person_id) if person_id else None

    def customer_facts(self, customer: Customer) -> dict[str, str]:
        contact = customer.contacts[0] if customer.contacts else None
        return {
            "customer": customer.name, "tier": customer.tier, "industry": customer.industry, "city": customer.city,
            "country": customer.country,
        } | _present(
            owner=_mention(self.uid[customer.owner_id]) if customer.owner_id in self.uid else None,
            csm=_mention(self.uid[customer.csm_id]) if customer.csm_id in self.uid else None,  # SMBs may have none
            contact=contact.name if contact else None,
            contact_title=contact.title if contact else None,
        )

    def deal_subject(self, deal: Deal) -> Subject:
        key = f"deal:{deal.id}"
        if key not in self._subjects:
            customer = self.company.customer(deal.customer_id)
            product = self.products.get(deal.product_sku)
            facts = self.customer_facts(customer) | {
                "deal": deal.name, "amount": _money(deal.amount), "stage": deal.stage, "close": _short_date(deal.close_date),
                "product": product.name if product else deal.product_sku, "seats": str(deal.seats),
            } | _present(owner=_mention(self.uid[deal.owner_id]) if deal.owner_id in self.uid else None)
            roles = {"owner": self.role_uid(deal.owner_id), "csm": self.role_uid(customer.csm_id)}
            self._subjects[key] = Subject(key, facts, {k: v for k, v in roles.items() if v},
                                          anchor=_as_datetime(deal.close_date))
        return self._subjects[key]

    def ticket_subject(self, ticket: Ticket) -> Subject:
        key = f"ticket:{ticket.key}"
        if key not in self._subjects:
            customer = self.company.customer(ticket.customer_id) if ticket.customer_id else None
            facts = (self.customer_facts(customer) if customer else {}) | {
                "key": ticket.key, "summary": ticket.summary, "priority": ticket.priority, "status": ticket.status,
                "issue": ticket.issue_type,
            } | _present(
                assignee=_mention(self.uid[ticket.assignee_id]) if ticket.assignee_id in self.uid else None,  # may be unassigned
                unassigned=None if ticket.assignee_id in self.uid else "",  # lets a line say so, and only then
                reporter=_mention(self.uid[ticket.reporter_id]) if ticket.reporter_id in self.uid else None,
            )
            roles = {"assignee": self.role_uid(ticket.assignee_id), "reporter": self.role_uid(ticket.reporter_id)}
            if customer:
                roles |= {"csm": self.role_uid(customer.csm_id), "owner": self.role_uid(customer.owner_id)}
            self._subjects[key] = Subject(key, facts, {k: v for k, v in roles.items() if v})
        return self._subjects[key]

    def customer_subject(self, customer: Customer) -> Subject:
        key = f"customer:{customer.id}"
        if key not in self._subjects:
            roles = {"owner": self.role_uid(customer.owner_id), "csm": self.role_uid(customer.csm_id)}
            self._subjects[key] = Subject(key, self.customer_facts(customer), {k: v for k, v in roles.items() if v})
        return self._subjects[key]

    def person_subject(self, person: Person) -> Subject:
        key = f"person:{person.id}"
        if key not in self._subjects:
            team = self.teams.get(person.team)
            manager = self.people.get(person.manager_id or "")
            facts = {"person": _mention(self.uid[person.id]), "first": person.first_name, "title": person.title,
                     "team": team.name if team else person.team} | _present(manager=_mention(self.uid[manager.id]) if manager else None)
            roles = {"person": self.uid[person.id], "manager": self.role_uid(person.manager_id)}
            self._subjects[key] = Subject(key, facts, {k: v for k, v in roles.items() if v},
                                          anchor=_as_datetime(person.start_date))
        return self._subjects[key]

    def product_subject(self, index: int) -> Subject:
        product = self.company.products[index]
        key = f"product:{product.sku}"
        if key not in self._subjects:
            facts = {"product": product.name, "family": product.family, "price": _money(product.unit_price)}
            self._subjects[key] = Subject(key, facts, {})
        return self._subjects[key]

    def plan_subjects(self) -> None:
        """Pools of what can be talked about, each in a fixed order."""
        company, start, limit = self.company, self.start, self.limit
        self.products = {p.sku: p for p in company.products}
        in_window = lambda moment: start <= _micros(_as_datetime(moment)) < limit - 3600 * MICROS_PER_SECOND  # noqa: E731
        deals = [d for d in company.deals if d.customer_id]
        self.open_deals = [d for d in deals if d.stage.lower() not in (WON, LOST)]
        self.won_deals = [d for d in deals if d.stage.lower() == WON and in_window(d.close_date)]
        self.lost_deals = [d for d in deals if d.stage.lower() == LOST and in_window(d.close_date)]
        renewals = [d for d in self.open_deals if "renew" in d.name.lower()]
        self.renewal_deals = renewals or self.open_deals
        # What customers raised: their bugs and incidents, not engineering's own tasks and stories.
        tickets = [t for t in company.tickets if t.customer_id and t.issue_type not in ("Task", "Story")]
        self.tickets = [t for t in tickets if in_window(t.created)]
        self.urgent = [t for t in self.tickets if t.priority.lower() in URGENT] or self.tickets
        self.solved = [t for t in tickets if t.status.lower() in RESOLVED and in_window(t.updated)]
        self.bugs = [t for t in company.tickets if not t.key.startswith("SUP-") and in_window(t.created)] or self.tickets
        self.hires = [p for p in company.people if in_window(p.start_date)]
        self.everyone = list(self.uid.values())
        self.ticket_times = {f"ticket:{t.key}": (_as_datetime(t.created), _as_datetime(t.updated)) for t in company.tickets}
        biggest = max(company.customers, key=lambda c: (c.annual_revenue, c.id), default=None)
        self.top_tier = biggest.tier if biggest else ""  # "Enterprise": the tier whose customers get channels
        self.pools: dict[str, Sequence[Any]] = {
            "deal": self.open_deals, "won": self.won_deals, "lost": self.lost_deals, "renewal": self.renewal_deals,
            "ticket": self.tickets, "urgent": self.urgent, "solved": self.solved, "bug": self.bugs,
            "customer": company.customers, "hire": self.hires, "person": company.people,
        }
        self._conv_pools: dict[tuple[str, str], tuple[Sequence[Any], Sequence[Any]]] = {}

    def pick_subject(self, kind: str, conv: Conversation) -> Subject | None:
        """A subject of the given kind for this conversation, or None if there is none."""
        rng = self.rng
        if kind == "none":
            return Subject("none", {}, {})
        if kind == "product":
            return self.product_subject(rng.randrange(len(self.company.products))) if self.company.products else None
        own, pool = self.subject_pools(kind, conv)
        if own and (conv.customer is not None or rng.random() < 0.8):  # a DM is mostly about the pair's own accounts
            pool = own
        if not pool:
            return None
        item = rng.choice(pool)
        if kind in ("hire", "person"):
            return self.person_subject(item)
        if kind == "customer":
            return self.customer_subject(item)
        return self.deal_subject(item) if kind in ("deal", "won", "lost", "renewal") else self.ticket_subject(item)

    def subject_pools(self, kind: str, conv: Conversation) -> tuple[Sequence[Any], Sequence[Any]]:
        """(this conversation's own subjects, all subjects) of a kind. A customer channel owns its
        customer's deals and tickets, a DM those of the customers its two people look after."""
        key = (conv.id, kind)
        if key not in self._conv_pools:
            pool = self.pools[kind]
            customer_ids: set[str] = set()
            if conv.customer is not None:
                customer_ids = {conv.customer.id}
                pool = ()  # nothing else belongs in a customer's channel
            elif conv.is_im:
                people = {self.person_of[u].id for u in conv.members if u in self.person_of}
                customer_ids = {c.id for c in self.company.customers if c.owner_id in people or c.csm_id in people}
            own: Sequence[Any] = ()
            if customer_ids and kind not in ("hire", "person"):
                attr = "id" if kind == "customer" else "customer_id"
                own = [x for x in self.pools[kind] if getattr(x, attr) in customer_ids]
            self._conv_pools[key] = (own, pool)
        return self._conv_pools[key]

    # -- template fields computed per message ---------------------------------------------
    def field(self, key: str, fill: _Fill) -> str:
        rng, conv = self.rng, fill.conv
        if key in ("someone", "someone2"):
            taken = [fill.author, *(v[2:-1] for k, v in fill.items() if k.startswith("someone"))]
            pool = conv.humans if len(conv.humans) > len(taken) else self.everyone
            return _mention(_pick(rng, pool, taken) or fill.author)
        if key == "day":  # a coming weekday
            moment = datetime.fromtimestamp(fill.micros / MICROS_PER_SECOND, UTC)
            ahead = rng.randint(1, 4)
            target = moment + timedelta(days=ahead + (2 if moment.weekday() + ahead >= 5 else 0))
            return WEEKDAYS[min(target.weekday(), 4)]
        if key == "time":
            return rng.choice(TIMES)
        if key == "n":
            return str(rng.randint(2, 9))
        if key == "pct":
            return str(rng.randint(8, 35))
        if key == "version":  # releases are named after their week
            year, week, _ = datetime.fromtimestamp(fill.micros / MICROS_PER_SECOND, UTC).isocalendar()
            return f"v{year}.{week:02d}"
        if key in self.word_fields:
            return rng.choice(self.word_fields[key])
        if key == "incident":  # PagerDuty numbers grow with time
            return str(1000 + (fill.micros - self.start) // (3 * 3600 * MICROS_PER_SECOND))
        if key == "pr":
            return str(2000 + (fill.micros - self.start) // (2 * 3600 * MICROS_PER_SECOND) + rng.randint(0, 1))
        if key == "hobby":
            return SOCIAL_HOBBIES.get(conv.name, conv.name.replace("-", " "))
        if key == "team_any":
            return rng.choice(self.company.teams).name
        if key == "tier_top":
            return self.top_tier
        if key.startswith("ch_"):
            name = key[3:].replace("_", "-")
            target = self.by_name.get(name) or (self.by_name.get("help-it") if name == "help" else None)
            return f"<#{target.id}|{target.name}>" if target else f"#{name}"
        if key in CUSTOMER_FIELDS:
            if "customer" in fill:  # the subject's customer has no such fact (no CSM, no contact)
                raise _Missing(key)
            # A line with no customer subject that still names one: one the conversation cares about.
            own, pool = self.subject_pools("customer", conv)
            facts = self.customer_facts(rng.choice(own or pool))
            for name, value in facts.items():
                fill.setdefault(name, value)
            if key not in facts:
                raise _Missing(key)
            return facts[key]
        if key in ("product", "family", "price") and self.company.products:
            facts = self.product_subject(rng.randrange(len(self.company.products))).facts
            for name, value in facts.items():
                fill.setdefault(name, value)
            return facts[key]
        if key in SUBJECT_FIELDS:  # a fact the subject doesn't have (an unassigned ticket's assignee)
            raise _Missing(key)
        raise KeyError(f"template field {{{key}}} is not one seed_data.chat knows")

    # -- timing ---------------------------------------------------------------------------
    def work_time(self, user: str, day: date) -> int:
        """A moment on a weekday around `day`, in working hours of the poster's time zone."""
        rng = self.rng
        while day.weekday() >= 5:
            day += timedelta(days=1)
        person = self.person_of.get(user)
        zone = _zone(person.timezone) if person else _zone("UTC")  # bots keep UTC
        hour = 9 + rng.choices(range(9), WORK_HOUR_WEIGHTS)[0]
        local = datetime(day.year, day.month, day.day, hour, rng.randrange(60), rng.randrange(60), tzinfo=zone)
        return _micros(local) + rng.randrange(MICROS_PER_SECOND)

    def at_work(self, user: str, micros: int) -> int:
        """`micros` if it falls in the user's working hours, else early on their next workday."""
        person = self.person_of.get(user)
        local = datetime.fromtimestamp(micros / MICROS_PER_SECOND, _zone(person.timezone if person else "UTC"))
        if local.weekday() < 5 and 9 <= local.hour < 18:
            return micros
        day = local.date() + timedelta(days=1 if local.hour >= 18 or local.weekday() >= 5 else 0)
        while day.weekday() >= 5:
            day += timedelta(days=1)
        start = datetime(day.year, day.month, day.day, 9, tzinfo=local.tzinfo)
        return _micros(start) + self.rng.randrange(90 * MICROS_PER_MINUTE)

    def when(self, script: Script, subject: Subject, author: str) -> int | None:
        """When the message is posted, or None if the fact it states is outside the history."""
        rng = self.rng
        if script.when in ("created", "updated"):
            moment = self.ticket_times[subject.key][0 if script.when == "created" else 1]
            if author in self.bot_ids:  # an integration posts the moment it happens
                micros = _micros(moment) + rng.randint(5, 60) * MICROS_PER_SECOND + rng.randrange(MICROS_PER_SECOND)
            else:  # a person reacts within the hour, or on their next working morning
                micros = self.at_work(author, _micros(moment) + rng.randint(3, 60) * MICROS_PER_MINUTE)
        elif script.when in ("close", "start"):
            if subject.anchor is None:
                return None
            micros = self.work_time(author, subject.anchor.date())
        else:
            day = datetime.fromtimestamp((self.start + rng.randrange(self.limit - self.start)) / MICROS_PER_SECOND, UTC).date()
            micros = self.work_time(author, day)
        if not self.start <= micros < self.limit - 3600 * MICROS_PER_SECOND:
            return None
        return micros

    # -- writing messages -----------------------------------------------------------------
    def resolve(self, role: str, conv: Conversation, subject: Subject, avoid: Sequence[str] = ()) -> str:
        """The user playing `role` in this message; falls back to any plausible member."""
        rng = self.rng
        if role.startswith("bot:"):
            return self.bots[role[4:]]
        found = subject.roles.get(role)
        if role == "lead":
            found = conv.lead
        elif role == "exec":
            execs = self.team_uids("exec")
            found = rng.choice(execs) if execs else None
        if found and found not in avoid and (found in conv.members or not (conv.is_private or conv.is_im)):
            return found
        return _pick(rng, conv.humans, avoid) or rng.choice(conv.humans)

    def render(self, line: str, facts: dict[str, str], conv: Conversation, author: str, micros: int) -> _Fill | None:
        """The fields of `line` filled from `facts` (and computed where missing), or None if the
        subject lacks a fact the line states. `_Fill.text` is the message."""
        fill = _Fill(facts, self, conv, author, micros)
        try:
            fill.text = line.format_map(fill)
        except _Missing:
            return None
        return fill

    def write_conversation(self, conv: Conversation, budget: int) -> None:
        """About `budget` messages, replies included, from the conversation's bank. Fewer if the
        bank runs out of facts to state (a #sales-wins has as many posts as there were wins)."""
        bank = BANKS[conv.kind]
        weights = list(itertools.accumulate(s.weight for s in bank))
        attempts = 0
        while len(conv.posts) < budget and attempts < budget * 3:
            attempts += 1
            self.write_script(conv, bank[bisect.bisect_right(weights, self.rng.random() * weights[-1])])

    def write_script(self, conv: Conversation, script: Script) -> bool:
        """One top-level message of `script`, maybe with its thread; False if it didn't fit."""
        rng = self.rng
        subject = self.pick_subject(script.subject, conv)
        if subject is None:
            return False
        used = (conv.id, script, subject.key)
        if script.when != "any" and used in self._used_anchors:  # an event is announced once per channel
            return False
        author = self.resolve(script.author, conv, subject)
        micros = self.when(script, subject, author)
        if micros is None:
            return False
        line, *answers = _line(rng.choice(script.lines))
        fill = self.render(line, subject.facts, conv, author, micros)
        if fill is None:
            return False
        if _mention(author) in fill.text and author in self.person_of:  # nobody mentions themselves
            author = self.resolve("any", conv, subject, avoid=MENTION.findall(fill.text))
            fill = self.render(line, subject.facts, conv, author, micros)
            if fill is None or _mention(author) in fill.text:
                return False
        if not conv.is_im:  # a channel where the same line comes back reads like a bot wrote it
            if (conv.id, fill.text) in self._said:
                return False
            self._said.add((conv.id, fill.text))
        if script.when != "any":
            self._used_anchors.add(used)
        parent = Post(micros, author, fill.text, script.emoji)
        conv.posts.append(parent)
        relative = script.thread if script.thread is not None else 1.0
        # A DM question nearly always gets its answer; a channel post only sometimes gets a thread.
        chance = relative if conv.is_im else relative * THREAD_CHANCE * conv.thread_factor
        if rng.random() < chance:
            self.write_replies(conv, script, subject, parent, answers or list(script.answers), dict(fill))
        return True

    def write_replies(
        self, conv: Conversation, script: Script, subject: Subject, parent: Post, answers: list[str], facts: dict[str, str]
    ) -> None:
        """A thread under `parent` (in a DM: the rest of the exchange): an answer, follow-ups, at
        most one acknowledgement. `facts` are the parent's, so "{day}" means the same day in the
        question and in its answer."""
        rng = self.rng
        if not answers:
            return
        answer = rng.sample(answers, len(answers))  # try the others if the first states a missing fact
        lines = [*rng.sample(script.more, len(script.more)), rng.choice(ACKS)]
        wanted = min(rng.choices(range(1, 9), REPLY_COUNT_WEIGHTS)[0], 3 if conv.is_im else 8)
        micros, previous, written = parent.micros, parent.user, 0
        while written < wanted and (answer if written == 0 else lines):
            micros += rng.randint(1, 40 if written else 25) * MICROS_PER_MINUTE + rng.randrange(MICROS_PER_MINUTE)
            if micros >= self.limit:
                break
            line = (answer if written == 0 else lines).pop(0)
            author = self.replier(conv, script, subject, parent, previous, first=written == 0)
            fill = self.render(line, facts, conv, author, micros)
            if fill is not None and _mention(author) in fill.text and not conv.is_im:
                # "<@me> is on it" reads wrong from me: someone else says it
                author = self.resolve("any", conv, subject, avoid=[previous, *MENTION.findall(fill.text)])
                fill = self.render(line, facts, conv, author, micros)
            if fill is None or _mention(author) in fill.text:
                continue
            facts = dict(fill)
            conv.posts.append(Post(micros, author, fill.text, script.emoji, parent=None if conv.is_im else parent))
            parent.has_replies = not conv.is_im
            previous, written = author, written + 1

    def replier(self, conv: Conversation, script: Script, subject: Subject, parent: Post, previous: str, first: bool) -> str:
        """Who speaks next in a thread: in a DM the other person; in a channel first whoever the
        script says answers, then a mix of the original poster and others."""
        if conv.is_im:
            return next(u for u in conv.members if u != previous)
        if first:
            role = script.repliers[0]
        elif previous != parent.user and parent.user not in self.bot_ids and self.rng.random() < 0.35:
            return parent.user
        else:
            role = self.rng.choice(script.repliers)
        author = self.resolve(role, conv, subject, avoid=[previous, parent.user] if first else [previous])
        return author if author not in self.bot_ids else self.resolve("any", conv, subject, avoid=[previous])

    def write_pins(self, conv: Conversation) -> None:
        """Reference messages pinned early in the history (onboarding, runbooks, playbooks)."""
        for index, line in enumerate(PINNED.get(conv.name, ())):
            author = conv.lead or conv.creator
            day = datetime.fromtimestamp(self.start / MICROS_PER_SECOND, UTC).date() + timedelta(days=2 + 3 * index)
            micros = self.work_time(author, day)
            fill = self.render(line, {}, conv, author, micros)
            assert fill is not None, "pinned lines use only fields every workspace has"
            conv.posts.append(Post(micros, author, fill.text, ("pray", "white_check_mark", "thumbsup"), pinned=True))

    # -- rows -----------------------------------------------------------------------------
    def message_rows(self, conv: Conversation) -> tuple[list[dict], list[dict], list[dict]]:
        """Give posts strictly increasing ts in time order, then their reactions and pins."""
        rng = self.rng
        posts = sorted(conv.posts, key=lambda p: p.micros)  # stable: equal times keep write order
        last = 0
        for post in posts:
            last = max(post.micros, last + 1)
            post.micros, post.ts = last, ts_from_micros(last)
            conv.members.setdefault(post.user)  # whoever posted is a member
        humans = [u for u in conv.members if u in self.person_of]  # now including everyone who posted
        messages, reactions, pins = [], [], []
        for post in posts:
            thread_ts = post.parent.ts if post.parent else (post.ts if post.has_replies else None)
            messages.append({"channel_id": conv.id, "ts": post.ts, "user_id": post.user, "text": post.text,
                             "thread_ts": thread_ts, "subtype": None, "edited_ts": None, "edited_by": None})
            if rng.random() < REACTION_CHANCE or post.pinned:
                reactions += self.reactions(conv, post, humans)
            if post.pinned:
                pinned_at = min(post.micros + rng.randint(5, 180) * MICROS_PER_MINUTE, self.limit)
                pins.append({"channel_id": conv.id, "ts": post.ts, "pinned_by": post.user, "pinned_at": pinned_at // MICROS_PER_SECOND})
        return messages, reactions, pins

    def reactions(self, conv: Conversation, post: Post, humans: list[str]) -> list[dict]:
        rng = self.rng
        if len(humans) < 2:
            return []
        palette = _unique([*post.emoji, rng.choice(REACTIONS)])
        rows = []
        seq = post.micros
        for name in rng.sample(palette, min(len(palette), rng.choices((1, 2, 3), (60, 30, 10))[0])):
            users = _unique(_pick(rng, humans, [post.user]) for _ in range(rng.choices((1, 2, 3, 4), (45, 30, 15, 10))[0]))
            for user in users:
                seq = min(seq + rng.randint(10, 3600) * MICROS_PER_SECOND, self.limit - 1)
                rows.append({"channel_id": conv.id, "ts": post.ts, "name": name, "user_id": user, "seq": seq})
        return rows

    def build(self) -> SeededRows:
        company = self.company
        users = self.users()
        self.plan_subjects()
        self.plan_channels()
        self.plan_dms()
        target = TARGET_MESSAGES.get(company.size, MESSAGES_PER_PERSON * len(company.people))
        dm_weight = sum(c.weight for c in self.conversations if c.is_im)
        channel_weight = sum(c.weight for c in self.conversations if not c.is_im)
        budgets = {}
        for conv in self.conversations:
            conv.humans = [u for u in conv.members if u in self.person_of]
            self.write_pins(conv)
            share = DM_SHARE * conv.weight / dm_weight if conv.is_im else (1 - DM_SHARE) * conv.weight / channel_weight
            budgets[conv.id] = max(2, round(target * share))
            self.write_conversation(conv, budgets[conv.id])
        # Channels that ran out of things to say (a customer's channel, #help-it) leave a gap in
        # the volume; the channels that still had more to say fill it.
        gap = target - sum(len(c.posts) for c in self.conversations)
        talkative = [c for c in self.conversations if not c.is_im and len(c.posts) >= budgets[c.id]]
        talkative_weight = sum(c.weight for c in talkative)
        for conv in talkative if gap > 0 else ():
            self.write_conversation(conv, len(conv.posts) + round(gap * conv.weight / talkative_weight))
        messages, reactions, pins = [], [], []
        for conv in self.conversations:
            m, r, p = self.message_rows(conv)
            messages += m
            reactions += r
            pins += p
        channels, members = self.channel_rows()  # after the messages: posters joined their channels
        workspace = Workspace(id=self.workspace_id, name=company.name, domain=company.slug)
        return SeededRows(
            objects=[workspace, *users, *channels],
            bulk=((Member, members), (Message, messages), (Reaction, reactions), (Pin, pins)),
        )


@dataclass(frozen=True, slots=True)
class SeededRows:
    objects: list[Any]  # workspace, users, channels: few rows, added as ORM objects
    bulk: tuple[tuple[type, list[dict[str, Any]]], ...]  # (table, rows) in insert order


def seed_chat(db: Session, company: Company) -> None:
    """Add the company's Slack workspace to `db` (the caller commits)."""
    seeder = ChatSeeder(company)
    rows = seeder.build()
    db.add_all(rows.objects)
    set_meta(db, ACTOR_META_KEY, seeder.actor_uid)
    # Members, messages and reactions run to ~100k rows for a large company: an ORM bulk INSERT
    # of plain dicts is ~8x faster than flushing that many ORM objects. Same transaction, and
    # the flush first puts the channels and users they reference in place.
    db.flush()
    for model, table_rows in rows.bulk:
        if table_rows:
            db.execute(insert(model), table_rows)
