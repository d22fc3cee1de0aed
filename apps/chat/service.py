"""Domain operations of the chat app, one method per Slack Web API method.

Every face (REST, MCP, UI) is a thin wrapper over `ChatService`, so all three behave alike.
Methods return the body of Slack's response without `ok` (the faces add it) and raise
`ChatError(code, message)` with Slack's error codes; the message says what was wrong and what
is accepted. The service never commits: the caller's transaction makes each operation atomic.
"""

from __future__ import annotations

import re
from itertools import islice
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from apps.chat import shapes
from apps.chat.errors import ChatError
from apps.chat.ids import decode_cursor, encode_cursor, is_ts, slack_id, ts_from_micros
from apps.chat.models import Channel, Member, Message, Pin, Reaction, ReadCursor, User, Workspace
from apps.chat.params import ChannelRef, Cursor, Email, Emoji, Limit, Name, Query, Text, Topic, Ts, Types, UserRef, UserRefs
from apps.chat.search import run_search
from officegym.core import clock
from officegym.core.db import get_meta
from officegym.core.operations import operation

MAX_TEXT_CHARS = 40_000  # Slack rejects longer messages with msg_too_long
MAX_NAME_CHARS = 80  # Slack's channel-name limit
MAX_TOPIC_CHARS = 250  # Slack's topic/purpose limit
_CHANNEL_NAME = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")
_EMOJI_NAME = re.compile(r"^[a-z0-9_+\-']+(::skin-tone-[2-6])?$")
ACTOR_META_KEY = "chat.actor_user_id"
CHANNEL_TYPES = ("public_channel", "private_channel", "im", "mpim")


def _page_size(limit: int | None, default: int, maximum: int) -> int:
    """Slack pages at most `maximum` items and answers a bigger limit with a full page."""
    return default if limit is None else min(limit, maximum)


class ChatService:
    def __init__(self, db: Session, actor_id: str | None = None) -> None:
        self.db = db
        self.actor_id = actor_id or get_meta(db, ACTOR_META_KEY) or ""
        self._workspace: Workspace | None = None

    # -- lookups -----------------------------------------------------------------------
    @property
    def workspace(self) -> Workspace:
        if self._workspace is None:
            self._workspace = self.db.scalars(select(Workspace)).one()
        return self._workspace

    def actor(self) -> User:
        return self.user(self.actor_id)

    def user(self, user_ref: str) -> User:
        """A user by id (`U…`), `@handle`, handle or email."""
        ref = (user_ref or "").strip()
        if not ref:
            raise ChatError("user_not_found", "a user is required: pass a user id like 'U0123ABCDEF' (see users.list)")
        found = self.db.get(User, ref)
        if found is None:
            handle = ref.removeprefix("@")
            found = self.db.scalars(select(User).where(or_(User.name == handle, User.email == handle))).first()
        if found is None:
            raise ChatError("user_not_found", f"no user {ref!r}; pass a user id like 'U0123ABCDEF' from users.list")
        return found

    def _is_member(self, channel_id: str, user_id: str) -> bool:
        return self.db.get(Member, (channel_id, user_id)) is not None

    def channel(self, channel_ref: str) -> Channel:
        """A conversation the actor can see, by id (`C…`/`D…`), `#name`, name or `@user` (their DM)."""
        ref = (channel_ref or "").strip()
        if not ref:
            raise ChatError("channel_not_found", "a channel is required: pass a channel id like 'C0123ABCDEF' (see conversations.list)")
        found: Channel | None = None
        if ref.startswith("@"):
            found = self._dm_with(self.user(ref).id, create=False)
        else:
            found = self.db.get(Channel, ref)
            if found is None:
                name = ref.removeprefix("#").lower()
                found = self.db.scalars(select(Channel).where(Channel.name == name, Channel.is_im.is_(False))).first()
        if found is None or not self._can_see(found):
            raise ChatError(
                "channel_not_found",
                f"no channel {ref!r} visible to you; pass a channel id like 'C0123ABCDEF' from conversations.list, or '#name'",
            )
        return found

    def _can_see(self, channel: Channel) -> bool:
        if not (channel.is_private or channel.is_im or channel.is_mpim):
            return True
        return self._is_member(channel.id, self.actor_id)

    def _message(self, channel: Channel, ts: str, code: str = "message_not_found") -> Message:
        if not ts or not is_ts(str(ts)):
            raise ChatError(code, f"ts must look like '1712345678.000100' (a message ts from the history); got {ts!r}")
        found = self.db.get(Message, (channel.id, ts))
        if found is None:
            raise ChatError(code, f"no message with ts {ts!r} in channel {channel.id}")
        return found

    def _writable(self, channel: Channel) -> None:
        if channel.is_archived:
            raise ChatError("is_archived", f"channel {channel.id} is archived; unarchive it or pick another channel")

    def _tick_ts(self) -> str:
        return ts_from_micros(clock.tick(self.db))

    def _now_seconds(self) -> int:
        return clock.now_micros(self.db) // 1_000_000

    def members_of(self, channel_id: str) -> list[str]:
        return list(self.db.scalars(select(Member.user_id).where(Member.channel_id == channel_id).order_by(Member.user_id)))

    def _shape_channel(self, channel: Channel) -> dict[str, Any]:
        count = self.db.scalar(select(func.count()).select_from(Member).where(Member.channel_id == channel.id)) or 0
        other = None
        if channel.is_im:
            other = next((m for m in self.members_of(channel.id) if m != self.actor_id), self.actor_id)
        return shapes.channel(channel, is_member=self._is_member(channel.id, self.actor_id), num_members=count, dm_user=other)

    def _shape_messages(self, channel: Channel, messages: Sequence[Any]) -> list[dict[str, Any]]:
        return shapes.messages(self.db, channel.id, messages)

    # -- auth --------------------------------------------------------------------------
    @operation("auth.test")
    def auth_test(self) -> dict[str, Any]:
        ws, me = self.workspace, self.actor()
        return {"url": f"https://{ws.domain}.slack.com/", "team": ws.name, "user": me.name, "team_id": ws.id, "user_id": me.id}

    # -- conversations -----------------------------------------------------------------
    @operation("conversations.list")
    def conversations_list(self, types: Types | None = None, exclude_archived: bool = False, limit: Limit | None = None, cursor: Cursor | None = None) -> dict[str, Any]:
        wanted = self._channel_types(types)
        size = _page_size(limit, 100, 1000)
        query = select(Channel).order_by(Channel.id)
        query = query.where(or_(*self._type_filters(wanted)))
        if exclude_archived:
            query = query.where(Channel.is_archived.is_(False))
        if cursor:
            after = decode_cursor(cursor, "team")
            if after is None:
                raise ChatError("invalid_cursor", "cursor is not one this API returned; pass response_metadata.next_cursor as is")
            query = query.where(Channel.id > after)
        visible = (c for c in self.db.scalars(query) if self._can_see(c))
        page = list(islice(visible, size + 1))
        more = len(page) > size
        page = page[:size]
        return {
            "channels": [self._shape_channel(c) for c in page],
            "response_metadata": {"next_cursor": encode_cursor("team", page[-1].id) if more else ""},
        }

    @staticmethod
    def _channel_types(types: str | None) -> set[str]:
        wanted = {t.strip() for t in (types or "public_channel").split(",") if t.strip()}
        unknown = wanted - set(CHANNEL_TYPES)
        if unknown or not wanted:
            raise ChatError("invalid_types", f"unknown types {sorted(unknown)}; accepted: {', '.join(CHANNEL_TYPES)} (comma-separated)")
        return wanted

    @staticmethod
    def _type_filters(wanted: set[str]) -> list[Any]:
        plain = (Channel.is_im.is_(False)) & (Channel.is_mpim.is_(False))
        filters = []
        if "public_channel" in wanted:
            filters.append(plain & Channel.is_private.is_(False))
        if "private_channel" in wanted:
            filters.append(plain & Channel.is_private.is_(True))
        if "im" in wanted:
            filters.append(Channel.is_im.is_(True))
        if "mpim" in wanted:
            filters.append(Channel.is_mpim.is_(True))
        return filters

    @operation("conversations.info")
    def conversations_info(self, channel: ChannelRef) -> dict[str, Any]:
        return {"channel": self._shape_channel(self.channel(channel))}

    @operation("conversations.history")
    def conversations_history(self, channel: ChannelRef, limit: Limit | None = None, cursor: Cursor | None = None, oldest: Ts | None = None, latest: Ts | None = None, inclusive: bool = False) -> dict[str, Any]:
        """Top-level messages (and thread parents), newest first, as Slack returns them."""
        conv = self.channel(channel)
        size = _page_size(limit, 100, 999)
        # Replies stay in their thread, except those also sent to the channel (thread_broadcast).
        # Plain rows, not ORM objects: this is the hottest read, and nothing here is modified.
        query = select(*Message.__table__.c).where(
            Message.channel_id == conv.id,
            or_(Message.thread_ts.is_(None), Message.thread_ts == Message.ts, Message.subtype == "thread_broadcast"),
        )
        if cursor:
            before = decode_cursor(cursor, "next_ts")
            if before is None:
                raise ChatError("invalid_cursor", "cursor is not one this API returned; pass response_metadata.next_cursor as is")
            query = query.where(Message.ts < before)
        if latest:
            query = query.where(Message.ts <= latest if inclusive else Message.ts < latest)
        if oldest:
            query = query.where(Message.ts >= oldest if inclusive else Message.ts > oldest)
        conn = self.db.connection()
        rows = list(conn.execute(query.order_by(Message.ts.desc()).limit(size + 1)))
        more = len(rows) > size
        rows = rows[:size]
        return {
            "messages": self._shape_messages(conv, rows),
            "has_more": more,
            "pin_count": conn.scalar(select(func.count()).select_from(Pin).where(Pin.channel_id == conv.id)) or 0,
            "response_metadata": {"next_cursor": encode_cursor("next_ts", rows[-1].ts) if more else ""},
        }

    @operation("conversations.replies")
    def conversations_replies(self, channel: ChannelRef, ts: Ts, limit: Limit | None = None, cursor: Cursor | None = None) -> dict[str, Any]:
        """The parent message first, then its replies oldest first."""
        conv = self.channel(channel)
        parent = self._message(conv, ts, code="thread_not_found")
        root = parent.thread_ts or parent.ts
        if root != parent.ts:  # asked with a reply's ts: Slack answers with the whole thread
            parent = self._message(conv, root, code="thread_not_found")
        size = _page_size(limit, 1000, 1000)
        query = select(Message).where(Message.channel_id == conv.id, Message.thread_ts == root, Message.ts != root)
        if cursor:
            after = decode_cursor(cursor, "next_ts")
            if after is None:
                raise ChatError("invalid_cursor", "cursor is not one this API returned; pass response_metadata.next_cursor as is")
            query = query.where(Message.ts > after)
        replies = list(self.db.scalars(query.order_by(Message.ts).limit(size + 1)))
        more = len(replies) > size
        replies = replies[:size]
        return {
            "messages": self._shape_messages(conv, [parent, *replies]),
            "has_more": more,
            "response_metadata": {"next_cursor": encode_cursor("next_ts", replies[-1].ts) if more else ""},
        }

    @operation("conversations.create", writes=True)
    def conversations_create(self, name: Name, is_private: bool = False) -> dict[str, Any]:
        clean = (name or "").strip().removeprefix("#")
        if not clean:
            raise ChatError("invalid_name_required", "name is required: lowercase letters, digits, hyphens and underscores")
        if len(clean) > MAX_NAME_CHARS:
            raise ChatError("invalid_name_maxlength", f"name is {len(clean)} characters; the limit is {MAX_NAME_CHARS}")
        if not _CHANNEL_NAME.match(clean):
            raise ChatError(
                "invalid_name_specials",
                f"name {clean!r} is not valid: use lowercase letters, digits, hyphens and underscores only (no spaces or capitals)",
            )
        if self.db.scalars(select(Channel).where(Channel.name == clean, Channel.is_im.is_(False))).first():
            raise ChatError("name_taken", f"a channel named {clean!r} already exists; pick another name or use that channel")
        created = clock.tick(self.db) // 1_000_000
        conv = Channel(
            id=slack_id("C", self.workspace.id, "channel", clean, created),
            name=clean,
            is_private=bool(is_private),
            created=created,
            creator=self.actor_id,
        )
        self.db.add(conv)
        self.db.add(Member(channel_id=conv.id, user_id=self.actor_id))
        self.db.flush()
        return {"channel": self._shape_channel(conv)}

    @operation("conversations.join", writes=True)
    def conversations_join(self, channel: ChannelRef) -> dict[str, Any]:
        conv = self.channel(channel)
        if conv.is_private or conv.is_im or conv.is_mpim:
            raise ChatError("method_not_supported_for_channel_type", "only public channels can be joined; ask a member to invite you")
        self._writable(conv)
        if not self._is_member(conv.id, self.actor_id):
            self.db.add(Member(channel_id=conv.id, user_id=self.actor_id))
            clock.tick(self.db)
            self.db.flush()
        return {"channel": self._shape_channel(conv)}

    @operation("conversations.leave", writes=True)
    def conversations_leave(self, channel: ChannelRef) -> dict[str, Any]:
        conv = self.channel(channel)
        if conv.is_im:
            raise ChatError("method_not_supported_for_channel_type", "you cannot leave a direct message")
        if not self._is_member(conv.id, self.actor_id):
            return {"not_in_channel": True}
        self.db.execute(delete(Member).where(Member.channel_id == conv.id, Member.user_id == self.actor_id))
        clock.tick(self.db)
        return {}

    @operation("conversations.invite", writes=True)
    def conversations_invite(self, channel: ChannelRef, users: UserRefs) -> dict[str, Any]:
        conv = self.channel(channel)
        self._writable(conv)
        if conv.is_im:
            raise ChatError("method_not_supported_for_channel_type", "you cannot invite people to a direct message; open a group DM instead")
        if not self._is_member(conv.id, self.actor_id):
            raise ChatError("not_in_channel", f"you are not a member of {conv.id}; join it first (conversations.join)")
        refs = [u.strip() for u in (users.split(",") if isinstance(users, str) else users) if u and u.strip()]
        if not refs:
            raise ChatError("no_user", "users is required: a comma-separated list of user ids, e.g. 'U0123ABCDEF,U0456GHIJKL'")
        invited = [self.user(ref) for ref in refs]
        if any(u.id == self.actor_id for u in invited):
            raise ChatError("cant_invite_self", "you are already in the channel; leave yourself out of users")
        new = [u for u in dict.fromkeys(invited) if not self._is_member(conv.id, u.id)]
        if not new:
            raise ChatError("already_in_channel", "every user given is already a member of this channel")
        for u in new:
            self.db.add(Member(channel_id=conv.id, user_id=u.id))
        clock.tick(self.db)
        self.db.flush()
        return {"channel": self._shape_channel(conv)}

    @operation("conversations.kick", writes=True)
    def conversations_kick(self, channel: ChannelRef, user: UserRef) -> dict[str, Any]:
        conv = self.channel(channel)
        self._writable(conv)
        target = self.user(user)
        if target.id == self.actor_id:
            raise ChatError("cant_kick_self", "use conversations.leave to leave a channel yourself")
        if not self._is_member(conv.id, target.id):
            raise ChatError("not_in_channel", f"user {target.id} is not a member of {conv.id}")
        self.db.execute(delete(Member).where(Member.channel_id == conv.id, Member.user_id == target.id))
        clock.tick(self.db)
        return {}

    @operation("conversations.members")
    def conversations_members(self, channel: ChannelRef, limit: Limit | None = None, cursor: Cursor | None = None) -> dict[str, Any]:
        conv = self.channel(channel)
        size = _page_size(limit, 100, 1000)
        members = self.members_of(conv.id)
        if cursor:
            after = decode_cursor(cursor, "user")
            if after is None:
                raise ChatError("invalid_cursor", "cursor is not one this API returned; pass response_metadata.next_cursor as is")
            members = [m for m in members if m > after]
        page = members[:size]
        more = len(members) > size
        return {"members": page, "response_metadata": {"next_cursor": encode_cursor("user", page[-1]) if more else ""}}

    @operation("conversations.open", writes=True)
    def conversations_open(self, users: UserRefs) -> dict[str, Any]:
        refs = [u.strip() for u in (users.split(",") if isinstance(users, str) else users) if u and u.strip()]
        if not refs:
            raise ChatError("users_list_not_supplied", "users is required: one user id for a DM, or up to 8 comma-separated for a group DM")
        people = list(dict.fromkeys(self.user(ref).id for ref in refs))
        others = [u for u in people if u != self.actor_id] or [self.actor_id]
        if len(others) > 8:
            raise ChatError("too_many_users", "a group DM takes at most 8 other people")
        if len(others) == 1:
            conv = self._dm_with(others[0], create=True)
        else:
            conv = self._group_dm(others)
        return {"channel": {"id": conv.id}}

    def dm_id(self, user_a: str, user_b: str) -> str:
        """The id of the DM between two users (it exists once either opens it)."""
        return slack_id("D", self.workspace.id, "im", *sorted({user_a, user_b}))

    def _dm_with(self, user_id: str, create: bool) -> Channel | None:
        dm_id = self.dm_id(self.actor_id, user_id)
        conv = self.db.get(Channel, dm_id)
        if conv is None and create:
            conv = Channel(id=dm_id, name="", is_im=True, is_private=True, created=self._now_seconds(), creator=self.actor_id)
            self.db.add(conv)
            for member in {self.actor_id, user_id}:
                self.db.add(Member(channel_id=dm_id, user_id=member))
            self.db.flush()
        return conv

    def _group_dm(self, others: list[str]) -> Channel:
        everyone = sorted({self.actor_id, *others})
        conv_id = slack_id("C", self.workspace.id, "mpim", *everyone)
        conv = self.db.get(Channel, conv_id)
        if conv is None:
            handles = [self.user(u).name for u in everyone]
            conv = Channel(
                id=conv_id, name="mpdm-" + "--".join(handles) + "-1", is_mpim=True, is_private=True,
                created=self._now_seconds(), creator=self.actor_id,
            )
            self.db.add(conv)
            for member in everyone:
                self.db.add(Member(channel_id=conv_id, user_id=member))
            self.db.flush()
        return conv

    @operation("conversations.mark", writes=True)
    def conversations_mark(self, channel: ChannelRef, ts: Ts) -> dict[str, Any]:
        conv = self.channel(channel)
        message = self._message(conv, ts)
        cursor = self.db.get(ReadCursor, (conv.id, self.actor_id))
        if cursor is None:
            self.db.add(ReadCursor(channel_id=conv.id, user_id=self.actor_id, last_read=message.ts))
        else:
            cursor.last_read = max(cursor.last_read, message.ts)
        return {}

    @operation("conversations.archive", writes=True)
    def conversations_archive(self, channel: ChannelRef) -> dict[str, Any]:
        conv = self.channel(channel)
        if conv.is_general:
            raise ChatError("cant_archive_general", "the #general channel cannot be archived")
        if conv.is_im or conv.is_mpim:
            raise ChatError("method_not_supported_for_channel_type", "direct messages cannot be archived")
        if conv.is_archived:
            raise ChatError("already_archived", f"channel {conv.id} is already archived")
        conv.is_archived = True
        clock.tick(self.db)
        return {}

    @operation("conversations.unarchive", writes=True)
    def conversations_unarchive(self, channel: ChannelRef) -> dict[str, Any]:
        conv = self.channel(channel)
        if not conv.is_archived:
            raise ChatError("not_archived", f"channel {conv.id} is not archived")
        conv.is_archived = False
        clock.tick(self.db)
        return {}

    @operation("conversations.setTopic", writes=True)
    def conversations_set_topic(self, channel: ChannelRef, topic: Topic) -> dict[str, Any]:
        conv = self._settable(channel, topic, "topic")
        conv.topic, conv.topic_creator, conv.topic_last_set = topic, self.actor_id, clock.tick(self.db) // 1_000_000
        return {"channel": self._shape_channel(conv)}

    @operation("conversations.setPurpose", writes=True)
    def conversations_set_purpose(self, channel: ChannelRef, purpose: Topic) -> dict[str, Any]:
        conv = self._settable(channel, purpose, "purpose")
        conv.purpose, conv.purpose_creator, conv.purpose_last_set = purpose, self.actor_id, clock.tick(self.db) // 1_000_000
        return {"channel": self._shape_channel(conv)}

    def _settable(self, channel: str, value: str, what: str) -> Channel:
        conv = self.channel(channel)
        self._writable(conv)
        if len(value or "") > MAX_TOPIC_CHARS:
            raise ChatError("too_long", f"{what} is {len(value)} characters; the limit is {MAX_TOPIC_CHARS}")
        return conv

    # -- messages ----------------------------------------------------------------------
    @operation("chat.postMessage", writes=True)
    def chat_post_message(self, channel: ChannelRef, text: Text = "", thread_ts: Ts | None = None, reply_broadcast: bool = False) -> dict[str, Any]:
        conv = self.channel(channel)
        self._writable(conv)
        body = self._checked_text(text)
        root, parent_user = None, None
        if thread_ts:
            parent = self._message(conv, thread_ts, code="thread_not_found")
            root = parent.thread_ts or parent.ts  # replying to a reply lands in the same thread
            if root != parent.ts:
                parent = self._message(conv, root, code="thread_not_found")
            parent.thread_ts, parent_user = parent.ts, parent.user_id
        message = Message(
            channel_id=conv.id, ts=self._tick_ts(), user_id=self.actor_id, text=body, thread_ts=root,
            subtype="thread_broadcast" if root and reply_broadcast else None,
        )
        self.db.add(message)
        self.db.flush()
        return {"channel": conv.id, "ts": message.ts, "message": shapes.fresh_message(message, parent_user)}

    def _checked_text(self, text: Any) -> str:
        if text is None or not str(text).strip():
            raise ChatError("no_text", "text is required and must not be empty")
        body = str(text)
        if len(body) > MAX_TEXT_CHARS:
            raise ChatError("msg_too_long", f"text is {len(body)} characters; Slack accepts at most {MAX_TEXT_CHARS}")
        return body

    @operation("chat.update", writes=True)
    def chat_update(self, channel: ChannelRef, ts: Ts, text: Text) -> dict[str, Any]:
        conv = self.channel(channel)
        self._writable(conv)
        message = self._message(conv, ts)
        if message.user_id != self.actor_id or message.subtype == "tombstone":
            raise ChatError("cant_update_message", "you can only edit your own messages")
        message.text = self._checked_text(text)
        message.edited_ts, message.edited_by = self._tick_ts(), self.actor_id
        self.db.flush()
        shaped = self._shape_messages(conv, [message])[0]
        return {"channel": conv.id, "ts": message.ts, "text": message.text, "message": shaped}

    @operation("chat.delete", writes=True)
    def chat_delete(self, channel: ChannelRef, ts: Ts) -> dict[str, Any]:
        conv = self.channel(channel)
        self._writable(conv)
        message = self._message(conv, ts)
        if message.user_id != self.actor_id or message.subtype == "tombstone":
            raise ChatError("cant_delete_message", "you can only delete your own messages")
        has_replies = self.db.scalar(
            select(func.count()).select_from(Message).where(
                Message.channel_id == conv.id, Message.thread_ts == message.ts, Message.ts != message.ts
            )
        )
        self.db.execute(delete(Reaction).where(Reaction.channel_id == conv.id, Reaction.ts == message.ts))
        self.db.execute(delete(Pin).where(Pin.channel_id == conv.id, Pin.ts == message.ts))
        if has_replies:  # Slack keeps the thread and leaves a tombstone where the parent was
            message.text, message.subtype, message.user_id = "This message was deleted.", "tombstone", "USLACKBOT"
        else:
            self.db.delete(message)
        clock.tick(self.db)
        return {"channel": conv.id, "ts": ts}

    @operation("chat.getPermalink")
    def chat_get_permalink(self, channel: ChannelRef, message_ts: Ts) -> dict[str, Any]:
        conv = self.channel(channel)
        message = self._message(conv, message_ts)
        return {"channel": conv.id, "permalink": shapes.message_permalink(self.workspace.domain, message)}

    # -- reactions ---------------------------------------------------------------------
    def _emoji(self, name: Any) -> str:
        clean = str(name or "").strip().strip(":")
        if not clean or not _EMOJI_NAME.match(clean):
            raise ChatError("invalid_name", f"reaction must be an emoji name without colons, like 'thumbsup' or 'white_check_mark'; got {name!r}")
        return clean

    @operation("reactions.add", writes=True)
    def reactions_add(self, channel: ChannelRef, timestamp: Ts, name: Emoji) -> dict[str, Any]:
        conv = self.channel(channel)
        self._writable(conv)
        message = self._message(conv, timestamp)
        emoji = self._emoji(name)
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
        emoji = self._emoji(name)
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

    # -- pins --------------------------------------------------------------------------
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

    # -- users -------------------------------------------------------------------------
    @operation("users.list")
    def users_list(self, limit: Limit | None = None, cursor: Cursor | None = None) -> dict[str, Any]:
        size = _page_size(limit, 100, 1000)
        query = select(User).order_by(User.id)
        if cursor:
            after = decode_cursor(cursor, "user")
            if after is None:
                raise ChatError("invalid_cursor", "cursor is not one this API returned; pass response_metadata.next_cursor as is")
            query = query.where(User.id > after)
        rows = list(self.db.scalars(query.limit(size + 1)))
        more = len(rows) > size
        rows = rows[:size]
        return {
            "members": [shapes.user(u, self.workspace.id) for u in rows],
            "cache_ts": self._now_seconds(),
            "response_metadata": {"next_cursor": encode_cursor("user", rows[-1].id) if more else ""},
        }

    @operation("users.info")
    def users_info(self, user: UserRef) -> dict[str, Any]:
        return {"user": shapes.user(self.user(user), self.workspace.id)}

    @operation("users.profile.get")
    def users_profile_get(self, user: UserRef | None = None) -> dict[str, Any]:
        return {"profile": shapes.profile(self.user(user) if user else self.actor())}

    @operation("users.lookupByEmail")
    def users_lookup_by_email(self, email: Email) -> dict[str, Any]:
        found = self.db.scalars(select(User).where(func.lower(User.email) == (email or "").strip().lower())).first()
        if found is None:
            raise ChatError("users_not_found", f"no user with email {email!r}")
        return {"user": shapes.user(found, self.workspace.id)}

    @operation("users.conversations")
    def users_conversations(self, user: UserRef | None = None, types: Types | None = None, exclude_archived: bool = False, limit: Limit | None = None, cursor: Cursor | None = None) -> dict[str, Any]:
        """The conversations a user belongs to (that the actor can also see)."""
        who = self.user(user).id if user else self.actor_id
        wanted = self._channel_types(types)
        size = _page_size(limit, 100, 1000)
        query = (
            select(Channel).join(Member, Member.channel_id == Channel.id)
            .where(Member.user_id == who, or_(*self._type_filters(wanted))).order_by(Channel.id)
        )
        if exclude_archived:
            query = query.where(Channel.is_archived.is_(False))
        if cursor:
            after = decode_cursor(cursor, "team")
            if after is None:
                raise ChatError("invalid_cursor", "cursor is not one this API returned; pass response_metadata.next_cursor as is")
            query = query.where(Channel.id > after)
        visible = [c for c in self.db.scalars(query) if self._can_see(c)]
        page = visible[:size]
        return {
            "channels": [self._shape_channel(c) for c in page],
            "response_metadata": {"next_cursor": encode_cursor("team", page[-1].id) if len(visible) > size else ""},
        }

    # -- search ------------------------------------------------------------------------
    @operation("search.messages")
    def search_messages(self, query: Query, count: Limit | None = None, page: Limit | None = None, sort: Literal["score", "timestamp"] = "score", sort_dir: Literal["asc", "desc"] = "desc") -> dict[str, Any]:
        if not (query or "").strip():
            raise ChatError("no_query", "query is required, e.g. 'renewal in:#sales from:@priya.sharma after:2026-01-31'")
        per_page = _page_size(count, 20, 100)
        page_no = _page_size(page, 1, 100)
        visible = [c.id for c in self.db.scalars(select(Channel)) if self._can_see(c)]
        return run_search(self, query.strip(), visible, per_page, page_no, sort, sort_dir)
