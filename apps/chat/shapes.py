"""Slack JSON shapes of rows: what conversations.history, users.info, ... return."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from apps.chat import attachments as legacy
from apps.chat import blocks as block_kit
from apps.chat import queries
from apps.chat.ids import permalink
from apps.chat.models import Canvas, Channel, Draft, Message, ScheduledMessage, User


def channel(conv: Channel, *, is_member: bool, num_members: int, dm_user: str | None = None) -> dict[str, Any]:
    shaped: dict[str, Any] = {
        "id": conv.id,
        "name": conv.name,
        "is_channel": not (conv.is_im or conv.is_mpim or conv.is_private),
        "is_group": conv.is_private and not (conv.is_im or conv.is_mpim),
        "is_im": conv.is_im,
        "is_mpim": conv.is_mpim,
        "is_private": conv.is_private,
        "is_archived": conv.is_archived,
        "is_general": conv.is_general,
        "is_member": is_member,
        "created": conv.created,
        "creator": conv.creator,
        "topic": {"value": conv.topic, "creator": conv.topic_creator, "last_set": conv.topic_last_set},
        "purpose": {"value": conv.purpose, "creator": conv.purpose_creator, "last_set": conv.purpose_last_set},
        "num_members": num_members,
    }
    if conv.is_im:
        shaped["user"] = dm_user
        del shaped["name"], shaped["topic"], shaped["purpose"]
    return shaped


def profile(u: User) -> dict[str, Any]:
    # Each attribute read once: a users.list page shapes a hundred of these from plain rows.
    real_name, display_name = u.real_name, u.display_name
    first_name, _, last_name = real_name.partition(" ")
    return {
        "real_name": real_name,
        "display_name": display_name,
        "real_name_normalized": real_name,
        "display_name_normalized": display_name,
        "email": u.email,
        "title": u.title,
        "phone": u.phone,
        "status_text": u.status_text,
        "status_emoji": u.status_emoji,
        "first_name": first_name,
        "last_name": last_name,
    }


def user(u: User, team_id: str) -> dict[str, Any]:
    return {
        "id": u.id,
        "team_id": team_id,
        "name": u.name,
        "real_name": u.real_name,
        "deleted": u.deleted,
        "is_bot": u.is_bot,
        "is_admin": u.is_admin,
        "tz": u.tz,
        "profile": profile(u),
    }


# The order `messages` unpacks a row in, checked once here: a new column fails at import,
# never in an answer.
if queries.MESSAGE_COLUMNS != ("channel_id", "ts", "user_id", "text", "thread_ts", "subtype", "edited_ts", "edited_by", "blocks",
                               "attachments"):
    raise RuntimeError(f"shapes.messages unpacks chat_messages rows as its columns were; they are now {queries.MESSAGE_COLUMNS}")


def message_permalink(domain: str, m: Message) -> str:
    return permalink(domain, m.channel_id, m.ts, m.thread_ts)


def fresh_message(m: Any, parent_user_id: str | None) -> dict[str, Any]:
    """The shape of a message just posted: it has no reactions, pins, edits or replies yet,
    so it needs none of the lookups `messages` makes (this is every post's answer). `m` is a
    Message or a plain row of chat_messages."""
    item: dict[str, Any] = {"type": "message", "user": m.user_id, "text": m.text, "ts": m.ts}
    if m.blocks:
        item["blocks"] = block_kit.load(m.blocks)
    if m.attachments:
        item["attachments"] = legacy.load(m.attachments)
    if m.subtype:
        item["subtype"] = m.subtype
    if m.thread_ts:
        item["thread_ts"] = m.thread_ts
        item["parent_user_id"] = parent_user_id or ""
    return item


def messages(db: Session, channel_id: str, rows: Sequence[tuple[Any, ...]], pinned: set[str] | None = None) -> list[dict[str, Any]]:
    """Shape messages with their reactions, edit marks and thread summaries, in few queries.
    `rows` are rows of chat_messages, all columns in table order (queries.MESSAGE_COLUMNS):
    plain tuples or named rows, never ORM objects (unpacking a tuple is what keeps a page
    cheap). `pinned` is the channel's pinned ts when the caller has read them already (a
    history page, for its pin_count)."""
    if not rows:
        return []
    stamps: set[str] = set()
    parents: set[str] = set()  # thread parents on the page
    roots: set[str] = set()  # the threads of the page's broadcast replies
    for row in rows:
        ts, thread_ts = row[queries.MESSAGE_TS], row[queries.MESSAGE_THREAD_TS]
        stamps.add(ts)
        if thread_ts:
            if thread_ts == ts:
                parents.add(ts)
            else:
                roots.add(thread_ts)
    # Prepared statements over the page's ts window, filtered here: this runs on every
    # history read, where ORM objects and expanding IN lists would cost several times more
    # than the queries themselves.
    low, high = min(stamps), max(stamps)
    reactions: dict[str, dict[str, list[str]]] = {}  # ts → emoji → users, in the order added
    for ts, name, user_id in queries.REACTIONS_BETWEEN.tuples(db, channel_id=channel_id, low=low, high=high):
        if ts in stamps:
            by_name = reactions.get(ts)
            if by_name is None:
                reactions[ts] = {name: [user_id]}
            elif name in by_name:
                by_name[name].append(user_id)
            else:
                by_name[name] = [user_id]
    if pinned is None:
        pinned = set(queries.PINS_BETWEEN.scalars(db, channel_id=channel_id, low=low, high=high))
    threads: dict[str, list[tuple[str, str]]] = {}  # parent ts → [(reply ts, user)], oldest first
    if parents:
        for thread_ts, ts, user_id in queries.REPLIES_BETWEEN.tuples(db, channel_id=channel_id, low=min(parents), high=max(parents)):
            if thread_ts in parents:
                if thread_ts in threads:
                    threads[thread_ts].append((ts, user_id))
                else:
                    threads[thread_ts] = [(ts, user_id)]
    parent_users = {}
    if roots:
        authors = queries.AUTHORS_BETWEEN.tuples(db, channel_id=channel_id, low=min(roots), high=max(roots))
        parent_users = {ts: user for ts, user in authors if ts in roots}
    shaped = []
    for _channel_id, ts, user_id, text, thread_ts, subtype, edited_ts, edited_by, blocks, attachments in rows:
        item: dict[str, Any] = {"type": "message", "user": user_id, "text": text, "ts": ts}
        if blocks:
            item["blocks"] = block_kit.load(blocks)
        if attachments:
            item["attachments"] = legacy.load(attachments)
        if subtype:
            item["subtype"] = subtype
        if thread_ts:
            item["thread_ts"] = thread_ts
            if thread_ts != ts:
                item["parent_user_id"] = parent_users.get(thread_ts, "")
            else:
                replies = threads.get(ts, [])
                reply_users = list(dict.fromkeys([user for _, user in replies]))
                item["reply_count"] = len(replies)
                item["reply_users"] = reply_users[:5]
                item["reply_users_count"] = len(reply_users)
                item["latest_reply"] = replies[-1][0] if replies else ts
        if edited_ts:
            item["edited"] = {"user": edited_by, "ts": edited_ts}
        by_name = reactions.get(ts)
        if by_name is not None:
            item["reactions"] = [{"name": n, "users": us, "count": len(us)} for n, us in by_name.items()]
        if ts in pinned:
            item["pinned_to"] = [channel_id]
        shaped.append(item)
    return shaped


def canvas_file(c: Canvas, domain: str, team_id: str) -> dict[str, Any]:
    """A canvas as Slack lists it: a file of type "quip" (Slack's name for canvases)."""
    return {
        "id": c.id,
        "created": c.created,
        "timestamp": c.created,
        "updated": c.updated,
        "name": c.title or "Untitled",
        "title": c.title or "Untitled",
        "mimetype": "application/vnd.slack-docs",
        "filetype": "quip",
        "pretty_type": "Canvas",
        "user": c.creator,
        "last_editor": c.updated_by,
        "is_channel_space": c.is_channel_canvas,
        "linked_channel_id": c.channel_id if c.is_channel_canvas else None,
        "channels": [c.channel_id] if c.channel_id else [],
        "size": len(c.markdown.encode("utf-8")),
        "permalink": f"https://{domain}.slack.com/docs/{team_id}/{c.id}",
    }


def scheduled_message(s: ScheduledMessage) -> dict[str, Any]:
    """An entry of chat.scheduledMessages.list."""
    return {"id": s.id, "channel_id": s.channel_id, "post_at": s.post_at, "date_created": s.date_created, "text": s.text}


def delayed_message(s: ScheduledMessage, team_id: str) -> dict[str, Any]:
    """The `message` of chat.scheduleMessage's answer: what will be posted."""
    item: dict[str, Any] = {"type": "delayed_message", "text": s.text, "user": s.user_id, "team": team_id}
    if s.blocks:
        item["blocks"] = block_kit.load(s.blocks)
    if s.attachments:
        item["attachments"] = legacy.load(s.attachments)
    if s.thread_ts:
        item["thread_ts"] = s.thread_ts
    return item


def draft(d: Draft, team_id: str) -> dict[str, Any]:
    """A draft as Slack's drafts API shapes it: where it will go, and what it says."""
    destination: dict[str, Any] = {"channel_id": d.channel_id}
    if d.thread_ts:
        destination["thread_ts"] = d.thread_ts
        destination["broadcast"] = d.broadcast
    item: dict[str, Any] = {
        "id": d.id, "user_id": d.user_id, "team_id": team_id, "date_created": d.date_created,
        "last_updated_ts": d.last_updated_ts, "text": d.text, "destinations": [destination],
        "is_sent": False, "is_deleted": False,
    }
    if d.blocks:
        item["blocks"] = block_kit.load(d.blocks)
    return item
