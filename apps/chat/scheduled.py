"""Scheduled messages: chat.scheduleMessage, chat.scheduledMessages.list,
chat.deleteScheduledMessage, and their delivery.

The env clock moves only when something is written, so delivery cannot be a timer: before
any chat operation runs (`ChatService.__init__` calls `deliver_due`), every scheduled message
whose `post_at` the clock has reached is posted, in `post_at` order, with `post_at` as its ts
(a microsecond later on a clash), as its author. The same calls therefore always deliver the
same messages at the same point. A message for a channel archived meanwhile, or a reply whose
thread parent is gone, is dropped, as Slack drops it.

The operations are bound into `ChatService` (service.py); `self` is that service.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from apps.chat import attachments as legacy
from apps.chat import queries, shapes
from apps.chat.blocks import dump, load
from apps.chat.errors import ChatError
from apps.chat.ids import encode_cursor, slack_id, ts_from_micros
from apps.chat.listing import cursor_value
from apps.chat.models import ScheduledMessage
from apps.chat.params import Attachments, Blocks, ChannelRef, Cursor, Limit, PostAt, ScheduledId, Text, TimeBound, Ts
from officegym.core import clock
from officegym.core.operations import operation

if TYPE_CHECKING:
    from apps.chat.service import ChatService

MAX_AHEAD_S = 120 * 86_400  # Slack schedules at most 120 days ahead


def deliver_due(chat: ChatService, soonest: int | None = None) -> int:
    """Post every scheduled message the env clock has reached; returns how many were posted.
    `soonest` is the soonest post_at when the caller has read it (every service does, in the
    statement that reads its actor: queries.ACTOR_SOONEST_AND_CLOCK)."""
    db = chat.db
    first = queries.SOONEST_SCHEDULED.scalar(db) if soonest is None else soonest
    if first is None:
        return 0
    now_s = clock.now_micros(db) // 1_000_000
    if first > now_s:
        return 0
    due = db.scalars(
        select(ScheduledMessage).where(ScheduledMessage.post_at <= now_s)
        .order_by(ScheduledMessage.post_at, ScheduledMessage.date_created, ScheduledMessage.id)
    ).all()
    posted = 0
    for row in due:
        # Read-only rows, as the operations read them: insert_message marks a parent itself.
        conv = queries.CHANNEL_BY_ID.first(db, id=row.channel_id)
        parent = queries.MESSAGE_BY_TS.first(db, channel_id=row.channel_id, ts=row.thread_ts) if row.thread_ts else None
        if conv is not None and not conv.is_archived and (parent is not None or not row.thread_ts):
            chat.insert_message(conv, _free_ts(chat, conv.id, row.post_at), row.user_id, row.text, _blocks(row), parent, row.reply_broadcast, row.attachments)
            posted += 1
        db.delete(row)
    db.flush()
    return posted


def _free_ts(chat: ChatService, channel_id: str, post_at: int) -> str:
    micros = post_at * 1_000_000
    while queries.MESSAGE_BY_TS.first(chat.db, channel_id=channel_id, ts=ts_from_micros(micros)) is not None:
        micros += 1
    return ts_from_micros(micros)


def _blocks(row: ScheduledMessage) -> Any:
    return load(row.blocks)


@operation("chat.scheduleMessage", writes=True)
def chat_schedule_message(
    self, channel: ChannelRef, post_at: PostAt, text: Text = "", thread_ts: Ts | None = None,
    reply_broadcast: bool = False, blocks: Blocks | None = None, attachments: Attachments | None = None,
) -> dict[str, Any]:
    """Schedule a message to be posted when the env clock reaches post_at."""
    conv = self.destination(channel)
    self._writable(conv)
    extra = legacy.parse(attachments)
    body, parsed = self.content(text, blocks, bool(extra))
    now_s = self._now_seconds()
    if post_at <= now_s:
        raise ChatError("time_in_past", f"post_at {post_at} is not in the future: it is now {now_s} (Unix seconds); pick a later time")
    if post_at > now_s + MAX_AHEAD_S:
        raise ChatError("time_too_far", f"post_at {post_at} is more than 120 days ahead (now is {now_s}); the latest accepted is {now_s + MAX_AHEAD_S}")
    root = self.thread_parent(conv, thread_ts).ts if thread_ts else None
    micros = clock.tick(self.db)
    row = ScheduledMessage(
        id=slack_id("Q", self.workspace.id, "scheduled", conv.id, self.actor_id, micros),
        channel_id=conv.id, user_id=self.actor_id, post_at=post_at, date_created=micros // 1_000_000,
        text=body, blocks=dump(parsed), attachments=legacy.dump(extra), thread_ts=root, reply_broadcast=bool(root and reply_broadcast),
    )
    self.db.add(row)
    self.db.flush()
    # Slack answers post_at as a string here (and as a number in the list): kept as Slack does.
    return {
        "channel": conv.id, "scheduled_message_id": row.id, "post_at": str(post_at),
        "message": shapes.delayed_message(row, self.workspace.id),
    }


@operation("chat.scheduledMessages.list")
def chat_scheduled_messages_list(
    self, channel: ChannelRef | None = None, limit: Limit | None = None, cursor: Cursor | None = None,
    oldest: TimeBound | None = None, latest: TimeBound | None = None,
) -> dict[str, Any]:
    """Your messages waiting to be posted, soonest first."""
    stmt = select(ScheduledMessage).where(ScheduledMessage.user_id == self.actor_id)
    if channel:
        stmt = stmt.where(ScheduledMessage.channel_id == self.destination(channel, open_dm=False).id)
    if oldest is not None:
        stmt = stmt.where(ScheduledMessage.post_at >= oldest)
    if latest is not None:
        stmt = stmt.where(ScheduledMessage.post_at <= latest)
    rows = list(self.db.scalars(stmt.order_by(ScheduledMessage.post_at, ScheduledMessage.id)))
    if cursor:
        after = cursor_value(cursor, "scheduled")
        rows = [r for r in rows if f"{r.post_at:012d}:{r.id}" > after]
    size = 100 if limit is None else min(limit, 1000)
    page = rows[:size]
    more = len(rows) > size
    return {
        "scheduled_messages": [shapes.scheduled_message(r) for r in page],
        "response_metadata": {"next_cursor": encode_cursor("scheduled", f"{page[-1].post_at:012d}:{page[-1].id}") if more else ""},
    }


@operation("chat.deleteScheduledMessage", writes=True)
def chat_delete_scheduled_message(self, channel: ChannelRef, scheduled_message_id: ScheduledId) -> dict[str, Any]:
    """Cancel one of your scheduled messages before it is posted."""
    conv = self.destination(channel, open_dm=False)
    row = self.db.get(ScheduledMessage, (scheduled_message_id or "").strip())
    if row is None or row.channel_id != conv.id or row.user_id != self.actor_id:
        raise ChatError(
            "invalid_scheduled_message_id",
            f"no scheduled message {scheduled_message_id!r} of yours in {conv.id}: it was already posted or deleted, or the ID is wrong "
            "(see chat.scheduledMessages.list)",
        )
    self.db.delete(row)
    clock.tick(self.db)
    return {}
