"""The statements every chat tool call runs, prepared once (officegym.core.sql.Prepared).

Resolving a channel and paging its history with reactions, pins and thread summaries is
what nearly every call does; built per call through SQLAlchemy these cost ~0.2 ms each
before SQLite does any work. Here they are built once and run on the driver.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache
from typing import Any

from sqlalchemy import Select, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from apps.chat.models import Channel, Member, Message, Pin, Reaction, ScheduledMessage, User, Workspace
from officegym.core.db import meta_value
from officegym.core.sql import Prepared

# The workspace never changes, and nothing an operation does changes a user: both are read as
# plain rows (the same attribute names as the models'), not ORM objects (an ORM `get` of a
# user cost ~170 µs, the prepared read ~8 µs).
WORKSPACE = Prepared(select(*Workspace.__table__.c).limit(1))
USER_BY_ID = Prepared(select(*User.__table__.c).where(User.id == bindparam("id")))
USER_BY_HANDLE = Prepared(select(*User.__table__.c).where(or_(User.name == bindparam("handle"), User.email == bindparam("handle"))).limit(1))
USER_BY_EMAIL = Prepared(select(*User.__table__.c).where(func.lower(User.email) == bindparam("email")).order_by(User.id).limit(1))
CHANNEL_BY_ID = Prepared(select(Channel).where(Channel.id == bindparam("id")))
CHANNEL_BY_NAME = Prepared(select(Channel).where(Channel.name == bindparam("name"), Channel.is_im.is_(False)).limit(1))
MEMBERS_OF = Prepared(select(Member.user_id).where(Member.channel_id == bindparam("channel_id")).order_by(Member.user_id))
MEMBER_COUNT = Prepared(select(func.count()).select_from(Member).where(Member.channel_id == bindparam("channel_id")))
CHANNELS_OF = Prepared(select(Member.channel_id).where(Member.user_id == bindparam("user_id")))
IS_MEMBER = Prepared(select(Member.user_id).where(Member.channel_id == bindparam("channel_id"), Member.user_id == bindparam("user_id")))
SOONEST_SCHEDULED = Prepared(select(ScheduledMessage.post_at).order_by(ScheduledMessage.post_at).limit(1))
# The env clock's meta values (officegym/core/clock.py): a write's tick reads both, a logged
# call's event stamp and a scheduled delivery read the time.
CLOCK_META_KEYS = ("clock_us", "clock_ticks")


# What every operation reads before it starts, in one statement: who acts (og_meta), when the
# next scheduled message is due (scheduled.deliver_due), and the env clock, which the service
# puts in the transaction's meta cache (a write's tick and the event log then read no more).
ACTOR_SOONEST_AND_CLOCK = Prepared(select(
    meta_value(bindparam("key")),
    SOONEST_SCHEDULED.statement.scalar_subquery(),
    *(meta_value(key) for key in CLOCK_META_KEYS),
))
MESSAGE_COLUMNS = tuple(c.name for c in Message.__table__.c)
MESSAGE_TS, MESSAGE_THREAD_TS = MESSAGE_COLUMNS.index("ts"), MESSAGE_COLUMNS.index("thread_ts")
MessageRow = namedtuple("MessageRow", MESSAGE_COLUMNS)  # a message as a plain row (a new post's)
INSERT_MESSAGE = Prepared(insert(Message).values({name: bindparam(name) for name in MESSAGE_COLUMNS}))
MESSAGE_BY_TS = Prepared(select(*Message.__table__.c).where(Message.channel_id == bindparam("channel_id"), Message.ts == bindparam("ts")))
# A message replied to becomes a thread parent (its thread_ts its own ts), as Slack marks it.
MARK_THREAD_PARENT = Prepared(
    update(Message).where(Message.channel_id == bindparam("cid"), Message.ts == bindparam("parent_ts")).values(thread_ts=Message.ts)
)

# Reactions and pins are added and removed by key, written here rather than through the ORM
# (no ORM object of these rows is ever held in an operation's session).
_REACTION_KEY = (
    Reaction.channel_id == bindparam("channel_id"), Reaction.ts == bindparam("ts"),
    Reaction.name == bindparam("name"), Reaction.user_id == bindparam("user_id"),
)
HAS_REACTION = Prepared(select(Reaction.seq).where(*_REACTION_KEY))
INSERT_REACTION = Prepared(insert(Reaction).values({c.name: bindparam(c.name) for c in Reaction.__table__.c}))
DELETE_REACTION = Prepared(delete(Reaction).where(*_REACTION_KEY))
_PIN_KEY = (Pin.channel_id == bindparam("channel_id"), Pin.ts == bindparam("ts"))
HAS_PIN = Prepared(select(Pin.pinned_at).where(*_PIN_KEY))
INSERT_PIN = Prepared(insert(Pin).values({c.name: bindparam(c.name) for c in Pin.__table__.c}))
DELETE_PIN = Prepared(delete(Pin).where(*_PIN_KEY))
# Every pinned ts of a channel (a handful at most): a history page's pin marks and its
# pin_count in one read.
PINS_OF_CHANNEL = Prepared(select(Pin.ts).where(Pin.channel_id == bindparam("channel_id")))

# A page's reactions, pins, replies and thread parents: each over the page's ts window
# (filtered to the page in Python), so one statement serves any page. Read as plain tuples
# (`Prepared.tuples`): they are only unpacked, and a named row each would cost more than the read.
REACTIONS_BETWEEN = Prepared(
    select(Reaction.ts, Reaction.name, Reaction.user_id)
    .where(Reaction.channel_id == bindparam("channel_id"), Reaction.ts.between(bindparam("low"), bindparam("high")))
    .order_by(Reaction.ts, Reaction.seq)  # each message's in the order added: the index's order
)
PINS_BETWEEN = Prepared(select(Pin.ts).where(Pin.channel_id == bindparam("channel_id"), Pin.ts.between(bindparam("low"), bindparam("high"))))
REPLIES_BETWEEN = Prepared(
    select(Message.thread_ts, Message.ts, Message.user_id)
    .where(
        Message.channel_id == bindparam("channel_id"),
        Message.thread_ts.between(bindparam("low"), bindparam("high")),
        Message.ts != Message.thread_ts,
    )
    .order_by(Message.thread_ts, Message.ts)  # each thread's replies oldest first: the index's order
)
AUTHORS_BETWEEN = Prepared(
    select(Message.ts, Message.user_id).where(Message.channel_id == bindparam("channel_id"), Message.ts.between(bindparam("low"), bindparam("high")))
)


def plain_rows(db: Session, query: Select[Any]) -> list[Any]:
    """An ad-hoc query's rows (a listing whose filters vary) as named tuples, as `Prepared`
    reads them: on the connection, without the ORM's result machinery, and an attribute read
    of a named tuple costs a fifth of a SQLAlchemy Row's (a users.list page reads a thousand)."""
    result = db.connection().execute(query)
    make = _row_class(tuple(result.keys()))._make
    return [make(row) for row in result.all()]


@cache
def _row_class(keys: tuple[str, ...]) -> Any:
    return namedtuple("Row", keys, rename=True)


@cache
def history(before: bool, latest: str | None, oldest: str | None) -> Prepared:
    """A channel's top-level messages (and broadcast replies), newest first, `size` of them.
    `before` adds a cursor bound; `latest`/`oldest` are None, "<"/"<=" or ">"/">=": one
    statement per combination (at most 18), built on first use."""
    query = select(*Message.__table__.c).where(
        Message.channel_id == bindparam("channel_id"),
        or_(Message.thread_ts.is_(None), Message.thread_ts == Message.ts, Message.subtype == "thread_broadcast"),
    )
    if before:
        query = query.where(Message.ts < bindparam("before"))
    if latest:
        query = query.where(Message.ts <= bindparam("latest") if latest == "<=" else Message.ts < bindparam("latest"))
    if oldest:
        query = query.where(Message.ts >= bindparam("oldest") if oldest == ">=" else Message.ts > bindparam("oldest"))
    return Prepared(query.order_by(Message.ts.desc()).limit(bindparam("size")))


@cache
def replies(after: bool) -> Prepared:
    """A thread's replies, oldest first, `size` of them (`after`: past a cursor's ts)."""
    query = select(*Message.__table__.c).where(
        Message.channel_id == bindparam("channel_id"), Message.thread_ts == bindparam("root"), Message.ts != bindparam("root"),
    )
    if after:
        query = query.where(Message.ts > bindparam("after"))
    return Prepared(query.order_by(Message.ts).limit(bindparam("size")))
