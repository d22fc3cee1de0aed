"""The seeded Slack workspace: deterministic, internally consistent, faithful to the company."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

import apps.chat.models  # noqa: F401  (registers the chat tables)
from apps.chat.ids import slack_id
from apps.chat.models import Channel, Member, Message, Pin, Reaction, User, Workspace
from apps.chat.service import ACTOR_META_KEY, ChatService
from officegym.core.db import Base, Meta, get_meta
from seed_data.actor import acting_person
from seed_data.chat import seed_chat
from seed_data.company import Company, generate_company

CHAT_TABLES = (Workspace, User, Channel, Member, Message, Reaction, Pin, Meta)
TS = re.compile(r"^\d{10}\.\d{6}$")
USER_MENTION = re.compile(r"<@([A-Z0-9]+)>")
CHANNEL_LINK = re.compile(r"<#([A-Z0-9]+)\|([a-z0-9_-]+)>")


def seeded_session(company: Company) -> Session:
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    session = Session(engine)
    seed_chat(session, company)
    session.commit()
    return session


def table_rows(session: Session, model: type) -> list[tuple]:
    return sorted(tuple(row) for row in session.execute(select(model.__table__)).all())


@pytest.fixture(scope="module")
def company() -> Company:
    return generate_company(0, "small")


@pytest.fixture(scope="module")
def db(company: Company):
    session = seeded_session(company)
    yield session
    session.close()


@pytest.fixture(scope="module")
def messages(db: Session) -> list[Message]:
    return list(db.scalars(select(Message).order_by(Message.channel_id, Message.ts)))


@pytest.fixture(scope="module")
def channels(db: Session) -> dict[str, Channel]:
    return {c.id: c for c in db.scalars(select(Channel))}


@pytest.fixture(scope="module")
def members(db: Session) -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for row in db.scalars(select(Member)):
        found[row.channel_id].add(row.user_id)
    return found


@pytest.fixture(scope="module")
def actor_id(db: Session, company: Company) -> str:
    return db.scalars(select(User.id).where(User.person_id == acting_person(company).id)).one()


def named(channels: dict[str, Channel], name: str) -> Channel:
    return next(c for c in channels.values() if c.name == name and not c.is_im)


def test_same_company_gives_identical_rows(company: Company, db: Session) -> None:
    again = seeded_session(company)
    try:
        for model in CHAT_TABLES:
            assert table_rows(again, model) == table_rows(db, model), model.__tablename__
    finally:
        again.close()


def test_workspace_users_and_actor(db: Session, company: Company, actor_id: str) -> None:
    workspace = db.scalars(select(Workspace)).one()
    assert (workspace.id, workspace.name, workspace.domain) == (slack_id("T", company.seed, "team"), company.name, company.slug)
    users = list(db.scalars(select(User)))
    people = [u for u in users if u.person_id]
    assert len(people) == len(company.people)
    assert {u.person_id for u in people} == {p.id for p in company.people}
    assert db.get(User, "USLACKBOT").is_bot
    assert {"jira", "salesforce", "pagerduty"} <= {u.name for u in users if u.is_bot}
    assert get_meta(db, ACTOR_META_KEY) == actor_id
    exec_ids = {p.id for p in company.members("exec")}
    assert {u.person_id for u in people if u.is_admin} == exec_ids
    assert any(u.status_text for u in people)


def test_every_reference_points_at_a_real_row(db: Session, messages: list[Message], channels: dict[str, Channel]) -> None:
    user_ids = set(db.scalars(select(User.id)))
    message_keys = {(m.channel_id, m.ts) for m in messages}
    assert all(m.user_id in user_ids and m.channel_id in channels for m in messages)
    assert all((r.channel_id, r.ts) in message_keys and r.user_id in user_ids for r in db.scalars(select(Reaction)))
    pins = list(db.scalars(select(Pin)))
    assert pins and all((p.channel_id, p.ts) in message_keys for p in pins)
    assert all(c.creator in user_ids for c in channels.values())
    for m in messages:
        assert all(u in user_ids for u in USER_MENTION.findall(m.text)), m.text
        for channel_id, name in CHANNEL_LINK.findall(m.text):
            assert channels[channel_id].name == name, m.text


def test_ts_format_unique_and_before_now(company: Company, messages: list[Message]) -> None:
    now = company.now.timestamp()
    per_channel = Counter(m.channel_id for m in messages)
    assert len({(m.channel_id, m.ts) for m in messages}) == sum(per_channel.values())
    for m in messages:
        assert TS.match(m.ts), m.ts
        assert now - 200 * 86_400 < float(m.ts) < now


def test_threads_hang_off_their_parent(db: Session, messages: list[Message]) -> None:
    by_key = {(m.channel_id, m.ts): m for m in messages}
    replies = [m for m in messages if m.thread_ts and m.thread_ts != m.ts]
    assert replies
    for reply in replies:
        parent = by_key[(reply.channel_id, reply.thread_ts)]
        assert parent.thread_ts == parent.ts and reply.ts > parent.ts
    parents = {(m.channel_id, m.thread_ts) for m in replies}
    assert all(key in parents for key, m in by_key.items() if m.thread_ts == m.ts)
    busy = next(c for c in db.scalars(select(Channel).where(Channel.name == "escalations")))
    tops = [m for m in messages if m.channel_id == busy.id and m.thread_ts in (None, m.ts)]
    assert 0.15 < sum(m.thread_ts == m.ts for m in tops) / len(tops) < 0.9


def test_posters_and_reactors_are_members(db: Session, messages: list[Message], members: dict[str, set[str]]) -> None:
    assert all(m.user_id in members[m.channel_id] for m in messages)
    assert all(r.user_id in members[r.channel_id] for r in db.scalars(select(Reaction)))
    reacted = {(r.channel_id, r.ts) for r in db.scalars(select(Reaction))}
    assert 0.1 < len(reacted) / len(messages) < 0.35


def test_people_post_on_weekdays_in_working_hours(db: Session, messages: list[Message]) -> None:
    zones = {u.id: ZoneInfo(u.tz) for u in db.scalars(select(User).where(User.is_bot.is_(False)))}
    tops = [m for m in messages if m.user_id in zones and m.thread_ts in (None, m.ts)]
    local = [datetime.fromtimestamp(float(m.ts), UTC).astimezone(zones[m.user_id]) for m in tops]
    in_hours = sum(t.weekday() < 5 and 8 <= t.hour < 19 for t in local)
    assert in_hours / len(local) > 0.85


def test_actor_sees_a_realistic_slice(
    company: Company, channels: dict[str, Channel], members: dict[str, set[str]], actor_id: str
) -> None:
    for name in ("general", "random", "announcements", "customer-success", "support", "escalations", "cs-renewals"):
        assert actor_id in members[named(channels, name).id], name
    assert any(actor_id in members[c.id] for c in channels.values() if c.name.startswith("cust-"))
    dms = [c for c in channels.values() if c.is_im and actor_id in members[c.id]]
    assert len(dms) >= 5
    manager = acting_person(company).manager_id
    partners = {u for c in dms for u in members[c.id]}
    manager_uid = slack_id("U", company.seed, "user", manager)
    assert manager_uid in partners


def test_channels_follow_the_company(company: Company, channels: dict[str, Channel], members: dict[str, set[str]]) -> None:
    names = {c.name for c in channels.values() if not c.is_im}
    assert {"general", "random", "announcements", "escalations", "deals", "incidents", "cs-renewals"} <= names
    assert {t.slug for t in company.teams if t.slug != "exec"} <= names
    general = named(channels, "general")
    assert general.is_general and len(members[general.id]) >= len(company.people)
    assert named(channels, "leadership").is_private
    assert all(c.topic and c.purpose and c.created < company.now.timestamp() for c in channels.values() if not c.is_im)
    for c in channels.values():
        assert c.id == slack_id("C", company.seed, "channel", c.name) or c.is_im


def test_dm_ids_follow_the_service_formula(db: Session, channels: dict[str, Channel], members: dict[str, set[str]]) -> None:
    workspace_id = db.scalars(select(Workspace.id)).one()
    dms = [c for c in channels.values() if c.is_im]
    assert len(dms) >= 24
    for dm in dms:
        pair = sorted(members[dm.id])
        assert len(pair) == 2 and dm.name == "" and dm.is_private
        assert dm.id == slack_id("D", workspace_id, "im", *pair)


def test_messages_mention_the_companys_real_data(company: Company, messages: list[Message]) -> None:
    text = "\n".join(m.text for m in messages)
    assert sum(c.name in text for c in company.customers) >= len(company.customers) // 2
    keys = [t.key for t in company.tickets if t.key in text]
    assert len(keys) >= 10
    assert any(t.key in m.text and t.summary in m.text for t in company.tickets for m in messages)
    assert any(p.name in text for p in company.products)


def test_deal_facts_match_the_crm(company: Company, db: Session, messages: list[Message]) -> None:
    """Salesforce notifications state each deal's real amount, stage and owner; wins land on the close date."""
    bot = db.scalars(select(User.id).where(User.name == "salesforce")).one()
    deals = defaultdict(list)  # a name can belong to two deals (same customer, product, kind and year)
    for deal in company.deals:
        deals[deal.name].append(deal)

    def states(deal, m: Message) -> bool:
        owner = slack_id("U", company.seed, "user", deal.owner_id)
        amount = f"${deal.amount:,.2f}".removesuffix(".00")  # "$48,000", or "$1,234.50" if it has cents
        said = amount in m.text and f"<@{owner}>" in m.text and f"*{deal.stage}*" in m.text
        if "Closed Won" in m.text:  # posted when it closed
            said = said and abs((datetime.fromtimestamp(float(m.ts), UTC).date() - deal.close_date).days) <= 3
        return said

    checked = 0
    for m in (m for m in messages if m.user_id == bot):
        name = re.match(r"Opportunity \*(.+?)\* ", m.text).group(1)
        assert any(states(deal, m) for deal in deals[name]), m.text
        checked += 1
    assert checked >= 5


def test_jira_notifications_match_the_tickets(company: Company, db: Session, messages: list[Message]) -> None:
    """Jira posts a new ticket's real summary, priority and assignee moments after it was created."""
    bot = db.scalars(select(User.id).where(User.name == "jira")).one()
    tickets = {t.key: t for t in company.tickets}
    created = [m for m in messages if m.user_id == bot and " created: " in m.text]
    assert len(created) >= 5
    for m in created:
        ticket = tickets[re.match(r"\*([A-Z]+-\d+)\* created: ", m.text).group(1)]
        assignee = slack_id("U", company.seed, "user", ticket.assignee_id)
        assert ticket.summary in m.text and f"Priority: {ticket.priority}" in m.text and f"<@{assignee}>" in m.text
        assert 0 <= float(m.ts) - ticket.created.timestamp() < 120


def test_nobody_mentions_themselves(messages: list[Message]) -> None:
    assert not [m.text for m in messages if f"<@{m.user_id}>" in m.text]


def test_volume_and_variety(channels: dict[str, Channel], messages: list[Message]) -> None:
    assert 2_000 <= len(messages) <= 3_500
    assert 25 <= sum(not c.is_im for c in channels.values()) <= 60
    # Nobody posts the same line twice in a channel; replies ("Thanks!") may repeat.
    tops = [(m.channel_id, m.text) for m in messages if m.thread_ts in (None, m.ts) and not channels[m.channel_id].is_im]
    assert len(set(tops)) == len(tops)
    assert len({text for _, text in tops}) > 0.9 * len(tops)


def test_service_reads_the_seeded_workspace(db: Session, company: Company) -> None:
    chat = ChatService(db)
    listed = chat.conversations_list(limit=1000)["channels"]
    general = next(c for c in listed if c["name"] == "general")
    assert general["is_general"] and general["is_member"]
    history = chat.conversations_history(general["id"], limit=5)
    assert len(history["messages"]) == 5 and history["has_more"]
    found = next(c.name for c in company.customers if chat.search_messages(f'"{c.name}"')["messages"]["total"])
    assert chat.search_messages(found)["messages"]["matches"]
