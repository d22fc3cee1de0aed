"""Reactions and pins: reactions.add, reactions.remove, reactions.get, pins.add, pins.remove,
pins.list.

The operations are bound into `ChatService` (service.py); `self` is that service.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from apps.chat.errors import ChatError
from apps.chat.models import Message, Pin, Reaction
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
    if self.db.get(Reaction, (conv.id, message.ts, emoji, self.actor_id)) is not None:
        raise ChatError("already_reacted", f"you already reacted with :{emoji}: to that message")
    seq = clock.tick(self.db)
    self.db.add(Reaction(channel_id=conv.id, ts=message.ts, name=emoji, user_id=self.actor_id, seq=seq))
    self.db.flush()
    return {}


@operation("reactions.remove", writes=True)
def reactions_remove(self, channel: ChannelRef, timestamp: Ts, name: Emoji) -> dict[str, Any]:
    conv = self.channel(channel)
    message = self._message(conv, timestamp)
    emoji = _emoji(name)
    found = self.db.get(Reaction, (conv.id, message.ts, emoji, self.actor_id))
    if found is None:
        raise ChatError("no_reaction", f"you have no :{emoji}: reaction on that message")
    self.db.delete(found)
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
    if self.db.get(Pin, (conv.id, message.ts)) is not None:
        raise ChatError("already_pinned", "that message is already pinned")
    self.db.add(Pin(channel_id=conv.id, ts=message.ts, pinned_by=self.actor_id, pinned_at=clock.tick(self.db) // 1_000_000))
    self.db.flush()
    return {}


@operation("pins.remove", writes=True)
def pins_remove(self, channel: ChannelRef, timestamp: Ts) -> dict[str, Any]:
    conv = self.channel(channel)
    message = self._message(conv, timestamp)
    pin = self.db.get(Pin, (conv.id, message.ts))
    if pin is None:
        raise ChatError("no_pin", "that message is not pinned")
    self.db.delete(pin)
    clock.tick(self.db)
    return {}


@operation("pins.list")
def pins_list(self, channel: ChannelRef) -> dict[str, Any]:
    conv = self.channel(channel)
    pins = list(self.db.scalars(select(Pin).where(Pin.channel_id == conv.id).order_by(Pin.pinned_at.desc())))
    messages = {m.ts: m for m in self.db.scalars(select(Message).where(Message.channel_id == conv.id, Message.ts.in_([p.ts for p in pins])))}
    items = []
    for pin in pins:
        shaped = self._shape_messages(conv, [messages[pin.ts]])[0]
        items.append({"type": "message", "created": pin.pinned_at, "created_by": pin.pinned_by, "channel": conv.id, "message": shaped})
    return {"items": items}
