"""Reactions and pins: reactions.add, reactions.remove, reactions.get, pins.add, pins.remove,
pins.list.

The operations are bound into `ChatService` (service.py); `self` is that service.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from apps.chat import queries
from apps.chat.errors import ChatError
from apps.chat.models import Message, Pin
from apps.chat.params import ChannelRef, Emoji, Ts
from officegym.core import clock
from officegym.core.operations import operation

_EMOJI_NAME = re.compile(r"^[a-z0-9_+\-']+(::skin-tone-[2-6])?$")


def _emoji(name: Any) -> str:
    clean = str(name or "").strip().strip(":")
    if not clean or not _EMOJI_NAME.match(clean):
        raise ChatError("invalid_name", f"reaction must be an emoji name without colons, like 'thumbsup' or 'white_check_mark'; got {name!r}")
    return clean


@operation("reactions.add", writes=True)
def reactions_add(self, channel: ChannelRef, timestamp: Ts, name: Emoji) -> dict[str, Any]:
    conv = self.channel(channel)
    self._writable(conv)
    message = self._message(conv, timestamp)
    emoji = _emoji(name)
    key = {"channel_id": conv.id, "ts": message.ts, "name": emoji, "user_id": self.actor_id}
    if queries.HAS_REACTION.first(self.db, **key) is not None:
        raise ChatError("already_reacted", f"you already reacted with :{emoji}: to that message")
    queries.INSERT_REACTION.run(self.db, **key, seq=clock.tick(self.db))
    return {}


@operation("reactions.remove", writes=True)
def reactions_remove(self, channel: ChannelRef, timestamp: Ts, name: Emoji) -> dict[str, Any]:
    conv = self.channel(channel)
    message = self._message(conv, timestamp)
    emoji = _emoji(name)
    if not queries.DELETE_REACTION.run(self.db, channel_id=conv.id, ts=message.ts, name=emoji, user_id=self.actor_id):
        raise ChatError("no_reaction", f"you have no :{emoji}: reaction on that message")
    clock.tick(self.db)
    return {}


@operation("reactions.get")
def reactions_get(self, channel: ChannelRef, timestamp: Ts) -> dict[str, Any]:
    conv = self.channel(channel)
    message = self._message(conv, timestamp)
    return {"type": "message", "channel": conv.id, "message": self._shape_messages(conv, [message])[0]}


@operation("pins.add", writes=True)
def pins_add(self, channel: ChannelRef, timestamp: Ts) -> dict[str, Any]:
    conv = self.channel(channel)
    self._writable(conv)
    message = self._message(conv, timestamp)
    if queries.HAS_PIN.first(self.db, channel_id=conv.id, ts=message.ts) is not None:
        raise ChatError("already_pinned", "that message is already pinned")
    queries.INSERT_PIN.run(self.db, channel_id=conv.id, ts=message.ts, pinned_by=self.actor_id, pinned_at=clock.tick(self.db) // 1_000_000)
    return {}


@operation("pins.remove", writes=True)
def pins_remove(self, channel: ChannelRef, timestamp: Ts) -> dict[str, Any]:
    conv = self.channel(channel)
    message = self._message(conv, timestamp)
    if not queries.DELETE_PIN.run(self.db, channel_id=conv.id, ts=message.ts):
        raise ChatError("no_pin", "that message is not pinned")
    clock.tick(self.db)
    return {}


@operation("pins.list")
def pins_list(self, channel: ChannelRef) -> dict[str, Any]:
    conv = self.channel(channel)
    pins = list(self.db.scalars(select(Pin).where(Pin.channel_id == conv.id).order_by(Pin.pinned_at.desc())))
    pinned = select(*Message.__table__.c).where(Message.channel_id == conv.id, Message.ts.in_([p.ts for p in pins]))
    messages = {m.ts: m for m in queries.plain_rows(self.db, pinned)}  # plain rows, as shapes take them
    items = []
    for pin in pins:
        shaped = self._shape_messages(conv, [messages[pin.ts]])[0]
        items.append({"type": "message", "created": pin.pinned_at, "created_by": pin.pinned_by, "channel": conv.id, "message": shaped})
    return {"items": items}
