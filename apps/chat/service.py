"""Domain operations of the chat app, one method per Slack Web API method.

Every face (REST, MCP, UI) is a thin wrapper over `ChatService`, so all three behave alike.
Methods return the body of Slack's response without `ok` (the faces add it) and raise
`ChatError(code, message)` with Slack's error codes; the message says what was wrong and what
is accepted. The service never commits: the caller's transaction makes each operation atomic.

Conversations and messages live here; reactions and pins (reactions.py), people (people.py),
canvases (canvases.py), scheduled messages (scheduled.py) and drafts (drafts.py) are declared
in their own modules and bound onto this class at its end, so they are its methods all the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from apps.chat import attachments as legacy
from apps.chat import blocks as block_kit
from apps.chat import canvases, drafts, people, queries, reactions, scheduled, shapes
from apps.chat.errors import ChatError
from apps.chat.ids import encode_cursor, is_ts, slack_id, ts_from_micros
from apps.chat.listing import cursor_value, matches_words, page_size
from apps.chat.models import Channel, Member, Message, Pin, Reaction, ReadCursor, User, Workspace
from apps.chat.params import (
    Attachments, Blocks, ChannelQuery, ChannelRef, Cursor, Limit, Name, Query, Text, Topic, Ts, Types, UserRef, UserRefs,
)
from apps.chat.search import run_search
from officegym.core import clock
from officegym.core.db import meta_cache
from officegym.core.operations import operation

MAX_TEXT_CHARS = 40_000  # Slack rejects longer messages with msg_too_long
MAX_NAME_CHARS = 80  # Slack's channel-name limit
MAX_TOPIC_CHARS = 250  # Slack's topic/purpose limit
_CHANNEL_NAME = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")
_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")
ACTOR_META_KEY = "chat.actor_user_id"
CHANNEL_TYPES = ("public_channel", "private_channel", "im", "mpim")


class ChatService:
    def __init__(self, db: Session, actor_id: str | None = None) -> None:
        self.db = db
        self._workspace: Workspace | None = None
        if actor_id:
            self.actor_id = actor_id
            soonest = queries.SOONEST_SCHEDULED.scalar(db)
        else:  # the env's actor, the soonest scheduled post and the clock in one statement (every call's first)
            actor, soonest, *clock_values = queries.ACTOR_SOONEST_AND_CLOCK.first(db, key=ACTOR_META_KEY)
            self.actor_id = actor or ""
            known = meta_cache(db)  # values written earlier in this transaction are never read over
            for key, value in zip(queries.CLOCK_META_KEYS, clock_values, strict=True):
                known.setdefault(key, value)
        # Scheduled messages whose time has come are posted before anything else reads or
        # writes, so every operation sees the channel as it is at the env's "now" (one indexed
        # lookup when nothing is due).
        if soonest is not None:
            scheduled.deliver_due(self, soonest)

    # -- lookups -----------------------------------------------------------------------
    @property
    def workspace(self) -> Workspace:
        if self._workspace is None:
            self._workspace = queries.WORKSPACE.first(self.db)
            if self._workspace is None:
                raise RuntimeError("this env has no chat workspace: the template was built without the chat app")
        return self._workspace

    def actor(self) -> User:
        return self.user(self.actor_id)

    def user(self, user_ref: str) -> User:
        """A user by id (`U…`), `@handle`, handle or email: a read-only row with the model's
        attribute names (queries.USER_BY_ID), as no operation changes a user."""
        ref = (user_ref or "").strip()
        if not ref:
            raise ChatError("user_not_found", "a user is required: pass a user id like 'U0123ABCDEF' (see users.list)")
        found = queries.USER_BY_ID.first(self.db, id=ref)
        if found is None:
            found = queries.USER_BY_HANDLE.first(self.db, handle=ref.removeprefix("@"))
        if found is None:
            raise ChatError("user_not_found", f"no user {ref!r}; pass a user id like 'U0123ABCDEF' from users.list")
        return found

    def _is_member(self, channel_id: str, user_id: str) -> bool:
        return queries.IS_MEMBER.first(self.db, channel_id=channel_id, user_id=user_id) is not None

    def _channel_for_update(self, channel_ref: str) -> Channel:
        """The channel as `channel` finds it, as an ORM object whose changes are saved."""
        found = self.db.get(Channel, self.channel(channel_ref).id)
        assert found is not None  # just resolved, in this transaction
        return found

    def channel(self, channel_ref: str) -> Channel:
        """A conversation the actor can see, by id (`C…`/`D…`), `#name`, name or `@user` (their DM)."""
        ref = (channel_ref or "").strip()
        if not ref:
            raise ChatError("channel_not_found", "a channel is required: pass a channel id like 'C0123ABCDEF' (see conversations.list)")
        found: Any = None
        if ref.startswith("@"):
            found = self._dm_with(self.user(ref).id, create=False)
        else:
            # Read-only rows (see core/sql.py): every tool call resolves a channel first.
            # Operations that change the channel itself reload it with `_channel_for_update`.
            if not ref.startswith("#"):
                found = queries.CHANNEL_BY_ID.first(self.db, id=ref)
            if found is None:
                found = queries.CHANNEL_BY_NAME.first(self.db, name=ref.removeprefix("#").lower())
        if found is None or not self._can_see(found):
            raise ChatError(
                "channel_not_found",
                f"no channel {ref!r} visible to you; pass a channel id like 'C0123ABCDEF' from conversations.list, or '#name'",
            )
        return found

    def destination(self, channel_ref: str, open_dm: bool = True) -> Channel:
        """Where a message goes: a conversation as `channel` finds it, or a person (a user id or
        '@handle'): your DM with them, opened if need be, as Slack posts to a user id's DM."""
        ref = (channel_ref or "").strip()
        if ref.startswith("@") or _USER_ID.match(ref):
            person = self.user(ref) if ref.startswith("@") else queries.USER_BY_ID.first(self.db, id=ref)
            dm = self._dm_with(person.id, create=open_dm) if person is not None else None
            if dm is not None:
                return dm
        return self.channel(ref)

    def _can_see(self, channel: Channel) -> bool:
        if not (channel.is_private or channel.is_im or channel.is_mpim):
            return True
        return self._is_member(channel.id, self.actor_id)

    def _visible(self) -> Any:
        """`_can_see` as one SQL condition, so listing and search filter in the database
        instead of one membership lookup per channel (a thousand in a large workspace)."""
        public = Channel.is_private.is_(False) & Channel.is_im.is_(False) & Channel.is_mpim.is_(False)
        return or_(public, Channel.id.in_(select(Member.channel_id).where(Member.user_id == self.actor_id)))

    def _message(self, channel: Channel, ts: str, code: str = "message_not_found") -> Message:
        """A message of the channel, as a read-only row (the model's attribute names):
        operations that change it load it with `_message_for_update`."""
        if not ts or not is_ts(str(ts)):
            raise ChatError(code, f"ts must look like '1712345678.000100' (a message ts from the history); got {ts!r}")
        found = queries.MESSAGE_BY_TS.first(self.db, channel_id=channel.id, ts=ts)
        if found is None:
            raise ChatError(code, f"no message with ts {ts!r} in channel {channel.id}")
        return found

    def _message_for_update(self, channel: Channel, ts: str) -> Message:
        """The message as `_message` finds it, as an ORM object whose changes are saved."""
        found = self.db.get(Message, (channel.id, self._message(channel, ts).ts))
        assert found is not None  # just found, in this transaction
        return found

    def _writable(self, channel: Channel) -> None:
        if channel.is_archived:
            raise ChatError("is_archived", f"channel {channel.id} is archived; unarchive it or pick another channel")

    def _tick_ts(self) -> str:
        return ts_from_micros(clock.tick(self.db))

    def _now_seconds(self) -> int:
        return clock.now_micros(self.db) // 1_000_000

    def members_of(self, channel_id: str) -> list[str]:
        return queries.MEMBERS_OF.scalars(self.db, channel_id=channel_id)

    def _shape_channel(self, channel: Channel) -> dict[str, Any]:
        count = queries.MEMBER_COUNT.scalar(self.db, channel_id=channel.id) or 0
        other = self._dm_user(channel.id, self.members_of(channel.id)) if channel.is_im else None
        return shapes.channel(channel, is_member=self._is_member(channel.id, self.actor_id), num_members=count, dm_user=other)

    def _shape_channels(self, channels: Sequence[Any]) -> list[dict[str, Any]]:
        """`_shape_channel` of a page of channels, in three reads whatever its length (a
        member count and a membership test per channel made a page of 100 cost ~9 ms)."""
        if not channels:
            return []
        ids = [c.id for c in channels]
        counted = select(Member.channel_id, func.count()).where(Member.channel_id.in_(ids)).group_by(Member.channel_id)
        counts: dict[str, int] = {channel_id: count for channel_id, count in self.db.execute(counted)}
        mine = set(queries.CHANNELS_OF.scalars(self.db, user_id=self.actor_id))
        dms = [c.id for c in channels if c.is_im]
        members: dict[str, list[str]] = {}
        if dms:
            query = select(Member.channel_id, Member.user_id).where(Member.channel_id.in_(dms)).order_by(Member.channel_id, Member.user_id)
            for channel_id, user_id in self.db.execute(query):
                members.setdefault(channel_id, []).append(user_id)
        return [
            shapes.channel(
                c, is_member=c.id in mine, num_members=counts.get(c.id, 0),
                dm_user=self._dm_user(c.id, members.get(c.id, [])) if c.is_im else None,
            )
            for c in channels
        ]

    def _dm_user(self, channel_id: str, members: list[str]) -> str:
        """The other person of a DM (its members by id): yourself in your DM with yourself."""
        return next((m for m in members if m != self.actor_id), self.actor_id)

    def _shape_messages(self, channel: Channel, messages: Sequence[Any]) -> list[dict[str, Any]]:
        """Messages as the API shows them, from plain rows (`_message`, queries.replies)."""
        return shapes.messages(self.db, channel.id, messages)

    # -- auth --------------------------------------------------------------------------
    @operation("auth.test")
    def auth_test(self) -> dict[str, Any]:
        ws, me = self.workspace, self.actor()
        return {"url": f"https://{ws.domain}.slack.com/", "team": ws.name, "user": me.name, "team_id": ws.id, "user_id": me.id}

    # -- conversations -----------------------------------------------------------------
    @operation("conversations.list")
    def conversations_list(self, types: Types | None = None, exclude_archived: bool = False, limit: Limit | None = None, cursor: Cursor | None = None, query: ChannelQuery | None = None) -> dict[str, Any]:
        """Conversations you can see; `query` (beyond Slack's method) keeps those whose name,
        topic or purpose holds every word of it: channel search."""
        wanted = self._channel_types(types)
        size = page_size(limit, 100, 1000)
        stmt = select(*Channel.__table__.c).order_by(Channel.id)  # plain rows: only shaped
        stmt = stmt.where(or_(*self._type_filters(wanted)))
        if exclude_archived:
            stmt = stmt.where(Channel.is_archived.is_(False))
        if query and query.strip():
            stmt = stmt.where(*matches_words(query, Channel.name, Channel.topic, Channel.purpose))
        if cursor:
            after = cursor_value(cursor, "team")
            stmt = stmt.where(Channel.id > after)
        page = queries.plain_rows(self.db, stmt.where(self._visible()).limit(size + 1))
        more = len(page) > size
        page = page[:size]
        return {
            "channels": self._shape_channels(page),
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
        size = page_size(limit, 100, 999)
        # Replies stay in their thread, except those also sent to the channel (thread_broadcast).
        # Plain tuples from prepared statements: this is the hottest read, nothing is modified.
        before = cursor_value(cursor, "next_ts") if cursor else None
        query = queries.history(
            before is not None,
            ("<=" if inclusive else "<") if latest else None,
            (">=" if inclusive else ">") if oldest else None,
        )
        rows = query.tuples(self.db, channel_id=conv.id, before=before, latest=latest, oldest=oldest, size=size + 1)
        more = len(rows) > size
        rows = rows[:size]
        pinned = queries.PINS_OF_CHANNEL.scalars(self.db, channel_id=conv.id)
        return {
            "messages": shapes.messages(self.db, conv.id, rows, pinned=set(pinned)),
            "has_more": more,
            "pin_count": len(pinned),
            "response_metadata": {"next_cursor": encode_cursor("next_ts", rows[-1][queries.MESSAGE_TS]) if more else ""},
        }

    @operation("conversations.replies")
    def conversations_replies(self, channel: ChannelRef, ts: Ts, limit: Limit | None = None, cursor: Cursor | None = None) -> dict[str, Any]:
        """The parent message first, then its replies oldest first."""
        conv = self.channel(channel)
        parent = self._message(conv, ts, code="thread_not_found")
        root = parent.thread_ts or parent.ts
        if root != parent.ts:  # asked with a reply's ts: Slack answers with the whole thread
            parent = self._message(conv, root, code="thread_not_found")
        size = page_size(limit, 1000, 1000)
        after = cursor_value(cursor, "next_ts") if cursor else None
        replies = queries.replies(after is not None).rows(self.db, channel_id=conv.id, root=root, after=after, size=size + 1)
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
        size = page_size(limit, 100, 1000)
        members = self.members_of(conv.id)
        if cursor:
            after = cursor_value(cursor, "user")
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
        conv = queries.CHANNEL_BY_ID.first(self.db, id=dm_id)  # read-only, as `channel` reads
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
        conv = queries.CHANNEL_BY_ID.first(self.db, id=conv_id)  # read-only, as `channel` reads
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
        conv = self._channel_for_update(channel)
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
        conv = self._channel_for_update(channel)
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
        conv = self._channel_for_update(channel)
        self._writable(conv)
        if len(value or "") > MAX_TOPIC_CHARS:
            raise ChatError("too_long", f"{what} is {len(value)} characters; the limit is {MAX_TOPIC_CHARS}")
        return conv

    # -- messages ----------------------------------------------------------------------
    @operation("chat.postMessage", writes=True)
    def chat_post_message(self, channel: ChannelRef, text: Text = "", thread_ts: Ts | None = None, reply_broadcast: bool = False, blocks: Blocks | None = None,
                          attachments: Attachments | None = None) -> dict[str, Any]:
        conv = self.destination(channel)
        self._writable(conv)
        extra = legacy.parse(attachments)
        body, parsed = self.content(text, blocks, bool(extra))
        parent = self.thread_parent(conv, thread_ts) if thread_ts else None
        message = self.insert_message(conv, self._tick_ts(), self.actor_id, body, parsed, parent, reply_broadcast, legacy.dump(extra))
        self.db.flush()
        return {"channel": conv.id, "ts": message.ts, "message": shapes.fresh_message(message, parent.user_id if parent else None)}

    def thread_parent(self, conv: Channel, thread_ts: str) -> Message:
        """The root of the thread `thread_ts` belongs to (replying to a reply lands in the same thread)."""
        parent = self._message(conv, thread_ts, code="thread_not_found")
        root = parent.thread_ts or parent.ts
        return parent if root == parent.ts else self._message(conv, root, code="thread_not_found")

    def insert_message(
        self, conv: Channel, ts: str, user_id: str, text: str, parsed: list[dict[str, Any]] | None,
        parent: Message | None, broadcast: bool, attachments: str | None = None,
    ) -> queries.MessageRow:
        """Add a message (a reply when `parent` is given, which then becomes a thread parent).
        `parent` is a read-only row (`_message`): it is marked by a prepared UPDATE."""
        if parent is not None and parent.thread_ts != parent.ts:
            queries.MARK_THREAD_PARENT.run(self.db, cid=conv.id, parent_ts=parent.ts)
        # Written by a prepared statement, not the ORM's unit of work (every post comes here),
        # from a plain row, which also shapes the answer: an ORM object would cost more to
        # build than the insert.
        message = queries.MessageRow(
            channel_id=conv.id, ts=ts, user_id=user_id, text=text, thread_ts=parent.ts if parent else None,
            subtype="thread_broadcast" if parent and broadcast else None, edited_ts=None, edited_by=None,
            blocks=block_kit.dump(block_kit.with_block_ids(parsed, conv.id, ts)) if parsed else None, attachments=attachments,
        )
        queries.INSERT_MESSAGE.run(self.db, **message._asdict())
        return message

    def content(self, text: Any, blocks: Any, attached: bool = False) -> tuple[str, list[dict[str, Any]] | None]:
        """(text, checked blocks) of a message as Slack takes them: blocks are checked first; an
        empty text is rendered from the blocks; `no_text` only when neither carries words (nor
        `attached`: the message has attachments, which may stand alone under an empty text). The
        blocks are None when not given, [] when given empty."""
        parsed = block_kit.parse(blocks)
        if text is not None and str(text).strip():
            return self._checked_text(text), parsed
        rendered = block_kit.render_text(parsed)
        if not rendered.strip() and attached:
            return "", parsed
        if not rendered.strip():
            if parsed:
                raise ChatError("no_text", "these blocks have no words to show as the message text: send text, or a section, header, context, rich_text or markdown block")
            raise ChatError("no_text", "text is required and must not be empty (or send blocks)")
        return rendered[:MAX_TEXT_CHARS], parsed

    def _checked_text(self, text: Any) -> str:
        if text is None or not str(text).strip():
            raise ChatError("no_text", "text is required and must not be empty")
        body = str(text)
        if len(body) > MAX_TEXT_CHARS:
            raise ChatError("msg_too_long", f"text is {len(body)} characters; Slack accepts at most {MAX_TEXT_CHARS}")
        return body

    @operation("chat.update", writes=True)
    def chat_update(self, channel: ChannelRef, ts: Ts, text: Text | None = None, blocks: Blocks | None = None,
                    attachments: Attachments | None = None) -> dict[str, Any]:
        """Edit a message. As in Slack, blocks and attachments left out are kept, an empty array
        removes them, and with new blocks and no text the text is rendered from them."""
        conv = self.channel(channel)
        self._writable(conv)
        message = self._message_for_update(conv, ts)
        if message.user_id != self.actor_id or message.subtype == "tombstone":
            raise ChatError("cant_update_message", "you can only edit your own messages")
        extra = legacy.parse(attachments)
        kept = extra if extra is not None else legacy.load(message.attachments)
        message.text, parsed = self.content(text, blocks, bool(kept))
        if parsed is not None:
            message.blocks = block_kit.dump(block_kit.with_block_ids(parsed, conv.id, ts)) if parsed else None
        if extra is not None:
            message.attachments = legacy.dump(extra)
        message.edited_ts, message.edited_by = self._tick_ts(), self.actor_id
        self.db.flush()
        shaped = self._shape_messages(conv, [self._message(conv, message.ts)])[0]  # as saved, a plain row
        return {"channel": conv.id, "ts": message.ts, "text": message.text, "message": shaped}

    @operation("chat.delete", writes=True)
    def chat_delete(self, channel: ChannelRef, ts: Ts) -> dict[str, Any]:
        conv = self.channel(channel)
        self._writable(conv)
        message = self._message_for_update(conv, ts)
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

    # -- reactions and pins (apps/chat/reactions.py) -------------------------------------
    reactions_add = reactions.reactions_add
    reactions_remove = reactions.reactions_remove
    reactions_get = reactions.reactions_get
    pins_add = reactions.pins_add
    pins_remove = reactions.pins_remove
    pins_list = reactions.pins_list

    # -- people (apps/chat/people.py) ---------------------------------------------------
    users_list = people.users_list
    users_info = people.users_info
    users_profile_get = people.users_profile_get
    users_lookup_by_email = people.users_lookup_by_email
    users_conversations = people.users_conversations

    # -- search ------------------------------------------------------------------------
    @operation("search.messages")
    def search_messages(self, query: Query, count: Limit | None = None, page: Limit | None = None, sort: Literal["score", "timestamp"] = "score", sort_dir: Literal["asc", "desc"] = "desc", channel_types: Types | None = None) -> dict[str, Any]:
        """Search what you can see; `channel_types` (as Slack's real-time search API takes it)
        keeps to those kinds of conversation, e.g. 'public_channel' for public channels only."""
        if not (query or "").strip():
            raise ChatError("no_query", "query is required, e.g. 'renewal in:#sales from:@priya.sharma after:2026-01-31'")
        per_page = page_size(count, 20, 100)
        page_no = page_size(page, 1, 100)
        candidates = select(Channel.id).where(self._visible())
        if channel_types:
            candidates = candidates.where(or_(*self._type_filters(self._channel_types(channel_types))))
        visible = list(self.db.scalars(candidates))
        return run_search(self, query.strip(), visible, per_page, page_no, sort, sort_dir)

    # -- canvases, scheduled messages, drafts ------------------------------------------
    # Declared in their own modules (one idea each); bound here so they are ChatService's
    # operations like the rest (`collect` reads this class's attributes).
    canvases_create = canvases.canvases_create
    conversations_canvases_create = canvases.conversations_canvases_create
    canvases_edit = canvases.canvases_edit
    files_info = canvases.files_info
    chat_schedule_message = scheduled.chat_schedule_message
    chat_scheduled_messages_list = scheduled.chat_scheduled_messages_list
    chat_delete_scheduled_message = scheduled.chat_delete_scheduled_message
    drafts_create = drafts.drafts_create
    drafts_list = drafts.drafts_list
    drafts_delete = drafts.drafts_delete
