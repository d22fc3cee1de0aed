"""The chat workspace of one template, read once and kept in the template's cache.

Families draw their candidate pools from this snapshot instead of querying history on every
env create: it depends only on the template (an env is a fresh copy of it when its task is
sampled), so `workspace(ctx)` costs one dict lookup after the first sample. It holds plain
tuples and strings, never ORM rows, so it outlives the session it was read with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select

from apps.chat.ids import ts_from_micros
from apps.chat.models import Channel, Member, Message, User
from officegym.core import clock
from tasks.base import SampleContext
from tasks.common.answers import Directory
from tasks.common.text import Lexicon, render, short_names, words
from tasks.common.variants import cached

_LEGAL_SUFFIX = re.compile(r"[\s,]+(llc|ltd|inc|plc|corp|co)\.?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Post:
    channel: str
    ts: str
    user: str
    text: str  # rendered: mentions as <@U…>, channel links as #name, entities decoded
    thread_ts: str | None

    @property
    def top_level(self) -> bool:
        return self.thread_ts in (None, self.ts)


@dataclass(frozen=True, slots=True)
class Person:
    id: str
    handle: str
    real_name: str
    is_bot: bool
    person: str | None  # the company person this user is


@dataclass(frozen=True, slots=True)
class Room:
    id: str
    name: str
    is_private: bool


@dataclass(frozen=True, slots=True)
class Workspace:
    me: Person
    users: dict[str, Person]
    rooms: tuple[Room, ...]  # channels the actor can read (public, or private and a member), by name
    public: frozenset[str]  # ids of public, unarchived channels: joining one is never collateral
    posts: tuple[Post, ...]  # every message in `rooms`, by channel then ts
    people: Directory  # humans, by mention, @handle or full name
    customers: Lexicon  # customer id -> its names
    contacts: Directory  # customer contacts by full name (their emails are read separately)
    projects: frozenset[str]  # ticket projects: only their keys count as ticket keys
    start: str  # the template's clock as a Slack ts: everything the agent writes is later
    by_person: dict[str, Person]  # company person id -> their user

    def user_of(self, person_id: str | None) -> Person | None:
        return self.by_person.get(person_id) if person_id else None

    def room(self, name: str) -> Room | None:
        return next((r for r in self.rooms if r.name == name), None)

    def thread(self, channel: str, ts: str) -> list[Post]:
        return [p for p in self.posts if p.channel == channel and p.thread_ts == ts and p.ts != ts]


def workspace(ctx: SampleContext) -> Workspace:
    return cached(ctx, "chat/workspace", lambda: _read(ctx))


def _read(ctx: SampleContext) -> Workspace:
    db, company = ctx.db, ctx.company
    users = {
        u.id: Person(u.id, u.name, u.real_name, bool(u.is_bot), u.person_id)
        for u in db.execute(select(User.id, User.name, User.real_name, User.is_bot, User.deleted, User.person_id))
        if not u.deleted
    }
    me_id = db.scalars(select(User.id).where(User.person_id == ctx.actor.id)).one()
    mine = set(db.scalars(select(Member.channel_id).where(Member.user_id == me_id)))
    rooms, public = [], set()
    query = select(Channel.id, Channel.name, Channel.is_private).where(
        Channel.is_im.is_(False), Channel.is_mpim.is_(False), Channel.is_archived.is_(False)
    )
    for row in db.execute(query):
        if not row.is_private:
            public.add(row.id)
        if not row.is_private or row.id in mine:
            rooms.append(Room(row.id, row.name, bool(row.is_private)))
    rooms.sort(key=lambda r: r.name)
    ids = [r.id for r in rooms]
    rows = db.execute(
        select(Message.channel_id, Message.ts, Message.user_id, Message.text, Message.thread_ts)
        .where(Message.channel_id.in_(ids))
        .order_by(Message.channel_id, Message.ts)
    )
    posts = tuple(Post(r.channel_id, r.ts, r.user_id, render(r.text), r.thread_ts) for r in rows)
    humans = {u.id: u for u in users.values() if not u.is_bot}
    return Workspace(
        me=users[me_id],
        users=users,
        rooms=tuple(rooms),
        public=frozenset(public),
        posts=posts,
        people=Directory({u.id: [u.real_name] for u in humans.values()}, {u.handle: u.id for u in humans.values()}),
        customers=_customer_lexicon(ctx),
        contacts=Directory({k.email.lower(): [k.name] for c in company.customers for k in c.contacts}),
        projects=frozenset(t.project for t in company.tickets),
        start=ts_from_micros(clock.now_micros(db)),
        by_person={u.person: u for u in users.values() if u.person},
    )


def _customer_lexicon(ctx: SampleContext) -> Lexicon:
    """Each customer by its name, and without a legal suffix ("Carlson LLC" → "Carlson") when
    that short form is nobody else's name: people write it either way."""
    company = ctx.company
    people = [p.name for p in company.people] + [k.name for c in company.customers for k in c.contacts]
    taken = {w for name in people for w in words(name)}  # a one-word short form must be no one's name
    forms: dict[tuple[str, ...], list[str]] = {}  # every spelling -> the customers it could mean
    for customer in company.customers:
        forms.setdefault(tuple(words(customer.name)), []).append(customer.id)
        short = tuple(words(_LEGAL_SUFFIX.sub("", customer.name)))
        if short and short != tuple(words(customer.name)) and not (len(short) == 1 and short[0] in taken):
            forms.setdefault(short, []).append(customer.id)
    names: dict[str, list[str]] = {c.id: [c.name] for c in company.customers}
    for form, owners in forms.items():
        if len(owners) == 1 and " ".join(form) != " ".join(words(company.customer(owners[0]).name)):
            names[owners[0]].append(" ".join(form))
    # And by its first word, capitalised ("Brown" for Brown Group), as people also write it:
    # a hedge naming another customer that way names it (tasks/common/text.py `short_names`).
    short = {c.id: found for c in company.customers if (found := short_names([c.name], taken=people).get(c.name))}
    return Lexicon(names, short=short)
