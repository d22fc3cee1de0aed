"""Drafts: unsent messages only their author sees (Slack's drafts.create, drafts.list,
drafts.delete, the methods behind its "Drafts & sent" view).

A draft never appears in a channel's history, in search or to anyone else. As in Slack, a
destination (a channel, or a thread in it) holds at most one of your drafts: saving a second
answers `draft_already_exists`, and the first must be deleted (or sent) before.

The operations are bound into `ChatService` (service.py); `self` is that service.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from apps.chat import shapes
from apps.chat.blocks import dump
from apps.chat.errors import ChatError
from apps.chat.ids import slack_id, ts_from_micros
from apps.chat.models import Draft
from apps.chat.params import Blocks, ChannelRef, DraftId, Limit, Text, Ts
from officegym.core import clock
from officegym.core.operations import operation


@operation("drafts.create", writes=True)
def drafts_create(
    self, channel: ChannelRef, text: Text = "", thread_ts: Ts | None = None, reply_broadcast: bool = False,
    blocks: Blocks | None = None,
) -> dict[str, Any]:
    """Save a draft for a channel, a person (their DM) or a thread; nobody else sees it."""
    conv = self.destination(channel)
    body, parsed = self.content(text, blocks)
    root = self.thread_parent(conv, thread_ts).ts if thread_ts else None
    mine = select(Draft).where(Draft.user_id == self.actor_id, Draft.channel_id == conv.id)
    mine = mine.where(Draft.thread_ts == root) if root else mine.where(Draft.thread_ts.is_(None))
    existing = self.db.scalars(mine).first()
    if existing is not None:
        where = f"thread {root} of {conv.id}" if root else conv.id
        raise ChatError("draft_already_exists", f"you already have a draft ({existing.id}) for {where}; delete it with drafts.delete first")
    micros = clock.tick(self.db)
    draft = Draft(
        id=slack_id("Dr", self.workspace.id, "draft", self.actor_id, conv.id, micros), user_id=self.actor_id,
        channel_id=conv.id, thread_ts=root, broadcast=bool(root and reply_broadcast), text=body, blocks=dump(parsed),
        date_created=micros // 1_000_000, last_updated_ts=ts_from_micros(micros),
    )
    self.db.add(draft)
    self.db.flush()
    return {"draft": shapes.draft(draft, self.workspace.id)}


@operation("drafts.list")
def drafts_list(self, channel: ChannelRef | None = None, limit: Limit | None = None) -> dict[str, Any]:
    """Your drafts, most recently saved first."""
    stmt = select(Draft).where(Draft.user_id == self.actor_id)
    if channel:
        stmt = stmt.where(Draft.channel_id == self.destination(channel, open_dm=False).id)
    size = 100 if limit is None else min(limit, 1000)
    rows = list(self.db.scalars(stmt.order_by(Draft.last_updated_ts.desc(), Draft.id).limit(size)))
    return {"drafts": [shapes.draft(d, self.workspace.id) for d in rows], "response_metadata": {"next_cursor": ""}}


@operation("drafts.delete", writes=True)
def drafts_delete(self, draft_id: DraftId) -> dict[str, Any]:
    """Delete one of your drafts."""
    draft = self.db.get(Draft, (draft_id or "").strip())
    if draft is None or draft.user_id != self.actor_id:
        raise ChatError("draft_not_found", f"no draft {draft_id!r} of yours; see drafts.list")
    self.db.delete(draft)
    clock.tick(self.db)
    return {}
