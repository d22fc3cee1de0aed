"""The statements every chat tool call runs, prepared once (officegym.core.sql.Prepared).

Resolving a channel and paging its history with reactions, pins and thread summaries is
what nearly every call does; built per call through SQLAlchemy these cost ~0.2 ms each
before SQLite does any work. Here they are built once and run on the driver.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache

from sqlalchemy import bindparam, func, insert, or_, select

from apps.chat.models import Channel, Member, Message, Pin, Reaction, ScheduledMessage, User, Workspace
from officegym.core.sql import Prepared

# The workspace never changes and a user found by email is only shaped: read as plain rows
# (the same attribute names as the models'), not ORM objects.
WORKSPACE = Prepared(select(*Workspace.__table__.c).limit(1))
USER_BY_EMAIL = Prepared(select(*User.__table__.c).where(func.lower(User.email) == bindparam("email")).order_by(User.id).limit(1))
CHANNEL_BY_ID = Prepared(select(Channel).where(Channel.id == bindparam("id")))
CHANNEL_BY_NAME = Prepared(select(Channel).where(Channel.name == bindparam("name"), Channel.is_im.is_(False)).limit(1))
IS_MEMBER = Prepared(select(Member.user_id).where(Member.channel_id == bindparam("channel_id"), Member.user_id == bindparam("user_id")))
SOONEST_SCHEDULED = Prepared(select(ScheduledMessage.post_at).order_by(ScheduledMessage.post_at).limit(1))
MESSAGE_COLUMNS = tuple(c.name for c in Message.__table__.c)
MessageRow = namedtuple("MessageRow", MESSAGE_COLUMNS)  # a message as a plain row (a new post's)
INSERT_MESSAGE = Prepared(insert(Message).values({name: bindparam(name) for name in MESSAGE_COLUMNS}))
PIN_COUNT = Prepared(select(func.count()).select_from(Pin).where(Pin.channel_id == bindparam("channel_id")))

# A page's reactions, pins, replies and thread parents: each over the page's ts window
# (filtered to the page in Python), so one statement serves any page.
REACTIONS_BETWEEN = Prepared(
    select(Reaction.ts, Reaction.name, Reaction.user_id)
    .where(Reaction.channel_id == bindparam("channel_id"), Reaction.ts.between(bindparam("low"), bindparam("high")))
    .order_by(Reaction.seq)
)
PINS_BETWEEN = Prepared(select(Pin.ts).where(Pin.channel_id == bindparam("channel_id"), Pin.ts.between(bindparam("low"), bindparam("high"))))
REPLIES_BETWEEN = Prepared(
    select(Message.thread_ts, Message.ts, Message.user_id)
    .where(
        Message.channel_id == bindparam("channel_id"),
        Message.thread_ts.between(bindparam("low"), bindparam("high")),
        Message.ts != Message.thread_ts,
    )
    .order_by(Message.ts)
)
AUTHORS_BETWEEN = Prepared(
    select(Message.ts, Message.user_id).where(Message.channel_id == bindparam("channel_id"), Message.ts.between(bindparam("low"), bindparam("high")))
)


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
