"""Tables of the chat app (a Slack clone). Ids and timestamps follow Slack's formats:
`T…` team, `U…` user, `C…` public/private channel, `D…` DM, `ts` = "1712345678.000100"."""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from officegym.core.db import Base


class Workspace(Base):
    __tablename__ = "chat_workspace"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # "T…"
    name: Mapped[str] = mapped_column(String(128))
    domain: Mapped[str] = mapped_column(String(64))  # <domain>.slack.com


class User(Base):
    __tablename__ = "chat_users"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # "U…"
    name: Mapped[str] = mapped_column(String(80), unique=True)  # handle, "priya.sharma"
    real_name: Mapped[str] = mapped_column(String(128))
    display_name: Mapped[str] = mapped_column(String(128), default="")
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    title: Mapped[str] = mapped_column(String(128), default="")
    phone: Mapped[str] = mapped_column(String(64), default="")
    tz: Mapped[str] = mapped_column(String(64), default="UTC")
    status_text: Mapped[str] = mapped_column(String(100), default="")
    status_emoji: Mapped[str] = mapped_column(String(64), default="")
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    person_id: Mapped[str | None] = mapped_column(String(16), nullable=True)  # company person


class Channel(Base):
    __tablename__ = "chat_channels"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # "C…" or "D…"
    name: Mapped[str] = mapped_column(String(80), default="")  # "" for DMs
    is_private: Mapped[bool] = mapped_column(Boolean, default=False)
    is_im: Mapped[bool] = mapped_column(Boolean, default=False)
    is_mpim: Mapped[bool] = mapped_column(Boolean, default=False)
    is_archived: Mapped[bool] = mapped_column(Boolean, default=False)
    is_general: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[int] = mapped_column(Integer)  # unix seconds
    creator: Mapped[str] = mapped_column(String(16))
    topic: Mapped[str] = mapped_column(Text, default="")
    topic_creator: Mapped[str] = mapped_column(String(16), default="")
    topic_last_set: Mapped[int] = mapped_column(Integer, default=0)
    purpose: Mapped[str] = mapped_column(Text, default="")
    purpose_creator: Mapped[str] = mapped_column(String(16), default="")
    purpose_last_set: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (Index("ix_chat_channels_name", "name"),)


class Member(Base):
    __tablename__ = "chat_members"
    channel_id: Mapped[str] = mapped_column(ForeignKey("chat_channels.id"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("chat_users.id"), primary_key=True)

    __table_args__ = (Index("ix_chat_members_user", "user_id"),)


class Message(Base):
    """A message; a reply has `thread_ts` = its parent's ts. A parent with replies keeps
    `thread_ts` = its own ts, as Slack does. Deleting a parent that has replies leaves a
    tombstone (subtype "tombstone"), also as Slack does."""

    __tablename__ = "chat_messages"
    channel_id: Mapped[str] = mapped_column(ForeignKey("chat_channels.id"), primary_key=True)
    ts: Mapped[str] = mapped_column(String(17), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    thread_ts: Mapped[str | None] = mapped_column(String(17), nullable=True)
    subtype: Mapped[str | None] = mapped_column(String(32), nullable=True)
    edited_ts: Mapped[str | None] = mapped_column(String(17), nullable=True)
    edited_by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Block Kit blocks as posted (JSON text), or None. `text` is then Slack's fallback: the
    # caller's, or rendered from the blocks when none was given (apps/chat/blocks.py).
    blocks: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Legacy secondary attachments as posted (JSON text, each with its `id`), or None
    # (apps/chat/attachments.py).
    attachments: Mapped[str | None] = mapped_column(Text, nullable=True)

    __table_args__ = (
        # Covering for thread summaries (a history page reads its threads' reply ts and
        # authors from the index alone, in order: apps/chat/queries.py REPLIES_BETWEEN).
        Index("ix_chat_messages_thread", "channel_id", "thread_ts", "ts", "user_id"),
        Index("ix_chat_messages_user", "user_id"),
    )


class Reaction(Base):
    __tablename__ = "chat_reactions"
    channel_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    ts: Mapped[str] = mapped_column(String(17), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)  # order added (Slack lists reactions in that order)

    # Covering for a history page's reactions: each message's, in the order added, from the
    # index alone (apps/chat/queries.py REACTIONS_BETWEEN).
    __table_args__ = (Index("ix_chat_reactions_order", "channel_id", "ts", "seq", "name", "user_id"),)


class Pin(Base):
    __tablename__ = "chat_pins"
    channel_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    ts: Mapped[str] = mapped_column(String(17), primary_key=True)
    pinned_by: Mapped[str] = mapped_column(String(16))
    pinned_at: Mapped[int] = mapped_column(Integer)


class ReadCursor(Base):
    """Where a user has read up to in a channel (conversations.mark). Bookkeeping: it is
    excluded from graders' collateral-damage diff, reading is never damage."""

    __tablename__ = "chat_read_cursors"
    channel_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    last_read: Mapped[str] = mapped_column(String(17))


class Canvas(Base):
    """A canvas: a markdown document, standalone (seen by its creator) or attached to a channel
    (seen by whoever sees the channel). Company state: a canvas is a shared document, and
    creating or rewriting one is as visible to colleagues as a message."""

    __tablename__ = "chat_canvases"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # "F…", a canvas is a file
    title: Mapped[str] = mapped_column(String(255), default="")
    markdown: Mapped[str] = mapped_column(Text, default="")
    channel_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    is_channel_canvas: Mapped[bool] = mapped_column(Boolean, default=False)  # the channel's one canvas tab
    creator: Mapped[str] = mapped_column(String(16))
    created: Mapped[int] = mapped_column(Integer)  # unix seconds
    updated: Mapped[int] = mapped_column(Integer)
    updated_by: Mapped[str] = mapped_column(String(16))

    __table_args__ = (Index("ix_chat_canvases_channel", "channel_id"),)


class ScheduledMessage(Base):
    """A message waiting for the env clock to reach `post_at`, then posted as its author.
    Company state: it will reach colleagues; scheduling the wrong message is real damage."""

    __tablename__ = "chat_scheduled_messages"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # "Q…"
    channel_id: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[str] = mapped_column(String(16))
    post_at: Mapped[int] = mapped_column(Integer)  # unix seconds
    date_created: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    blocks: Mapped[str | None] = mapped_column(Text, nullable=True)
    attachments: Mapped[str | None] = mapped_column(Text, nullable=True)
    thread_ts: Mapped[str | None] = mapped_column(String(17), nullable=True)
    reply_broadcast: Mapped[bool] = mapped_column(Boolean, default=False)

    # Delivery asks "is anything due?" before every operation: the index answers it at once.
    __table_args__ = (Index("ix_chat_scheduled_post_at", "post_at"),)


class Draft(Base):
    """An unsent message only its author sees, one per destination (channel or thread).
    Bookkeeping: nobody else ever sees a draft, so writing one changes nothing in the company,
    as composing in the message box changes nothing until it is sent."""

    __tablename__ = "chat_drafts"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # "Dr…"
    user_id: Mapped[str] = mapped_column(String(16))
    channel_id: Mapped[str] = mapped_column(String(16))
    thread_ts: Mapped[str | None] = mapped_column(String(17), nullable=True)
    broadcast: Mapped[bool] = mapped_column(Boolean, default=False)
    text: Mapped[str] = mapped_column(Text)
    blocks: Mapped[str | None] = mapped_column(Text, nullable=True)
    date_created: Mapped[int] = mapped_column(Integer)
    last_updated_ts: Mapped[str] = mapped_column(String(17))

    __table_args__ = (Index("ix_chat_drafts_user", "user_id", "channel_id"),)


# Tables whose changes are never collateral damage: read state and unsent drafts, which no one
# but their owner sees (not company state).
BOOKKEEPING_TABLES = frozenset({"chat_read_cursors", "chat_drafts"})
