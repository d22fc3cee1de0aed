"""Slack JSON shapes of rows: what conversations.history, users.info, ... return."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

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
    return {
        "real_name": u.real_name,
        "display_name": u.display_name,
        "real_name_normalized": u.real_name,
        "display_name_normalized": u.display_name,
        "email": u.email,
        "title": u.title,
        "phone": u.phone,
        "status_text": u.status_text,
        "status_emoji": u.status_emoji,
        "first_name": u.real_name.split(" ")[0],
        "last_name": " ".join(u.real_name.split(" ")[1:]),
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


def message_permalink(domain: str, m: Message) -> str:
    return permalink(domain, m.channel_id, m.ts, m.thread_ts)


def fresh_message(m: Any, parent_user_id: str | None) -> dict[str, Any]:
    """The shape of a message just posted: it has no reactions, pins, edits or replies yet,
    so it needs none of the lookups `messages` makes (this is every post's answer). `m` is a
    Message or a plain row of chat_messages."""
    item: dict[str, Any] = {"type": "message", "user": m.user_id, "text": m.text, "ts": m.ts}
    if m.blocks:
        item["blocks"] = block_kit.load(m.blocks)
    if m.subtype:
        item["subtype"] = m.subtype
    if m.thread_ts:
        item["thread_ts"] = m.thread_ts
        item["parent_user_id"] = parent_user_id or ""
    return item


def messages(db: Session, channel_id: str, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """Shape messages (ORM objects or plain rows of chat_messages) with their reactions, edit
    marks and thread summaries, in few queries."""
    if not rows:
        return []
    # Prepared statements over the page's ts window, filtered here: this runs on every
    # history read, where ORM objects and expanding IN lists would cost several times more
    # than the queries themselves.
    stamps = {m.ts for m in rows}
    window = {"channel_id": channel_id, "low": min(stamps), "high": max(stamps)}
    reactions: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for ts, name, user_id in queries.REACTIONS_BETWEEN.rows(db, **window):
        if ts in stamps:
            reactions[ts].setdefault(name, []).append(user_id)
    pinned = set(queries.PINS_BETWEEN.scalars(db, **window)) & stamps
    parents = {m.ts for m in rows if m.thread_ts == m.ts}
    threads: dict[str, list[tuple[str, str]]] = defaultdict(list)  # parent ts → [(reply ts, user)]
    if parents:
        for thread_ts, ts, user_id in queries.REPLIES_BETWEEN.rows(db, channel_id=channel_id, low=min(parents), high=max(parents)):
            if thread_ts in parents:
                threads[thread_ts].append((ts, user_id))
    roots = {m.thread_ts for m in rows if m.thread_ts and m.thread_ts != m.ts}
    parent_users = {}
    if roots:
        authors = queries.AUTHORS_BETWEEN.rows(db, channel_id=channel_id, low=min(roots), high=max(roots))
        parent_users = {ts: user for ts, user in authors if ts in roots}
    shaped = []
    for m in rows:
        item: dict[str, Any] = {"type": "message", "user": m.user_id, "text": m.text, "ts": m.ts}
        if m.blocks:
            item["blocks"] = block_kit.load(m.blocks)
        if m.subtype:
            item["subtype"] = m.subtype
        if m.thread_ts:
            item["thread_ts"] = m.thread_ts
            if m.thread_ts != m.ts:
                item["parent_user_id"] = parent_users.get(m.thread_ts, "")
        if m.thread_ts == m.ts:
            replies = threads.get(m.ts, [])
            reply_users = list(dict.fromkeys(user for _, user in replies))
            item["reply_count"] = len(replies)
            item["reply_users"] = reply_users[:5]
            item["reply_users_count"] = len(reply_users)
            item["latest_reply"] = replies[-1][0] if replies else m.ts
        if m.edited_ts:
            item["edited"] = {"user": m.edited_by, "ts": m.edited_ts}
        if m.ts in reactions:
            item["reactions"] = [{"name": n, "users": us, "count": len(us)} for n, us in reactions[m.ts].items()]
        if m.ts in pinned:
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
