"""People: users.list (with people search), users.info, users.profile.get,
users.lookupByEmail, users.conversations.

The operations are bound into `ChatService` (service.py); `self` is that service.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select

from apps.chat import queries, shapes
from apps.chat.errors import ChatError
from apps.chat.ids import encode_cursor
from apps.chat.listing import cursor_value, matches_words, page_size
from apps.chat.models import Channel, Member, User
from apps.chat.params import Cursor, Email, Limit, PeopleQuery, Types, UserRef
from officegym.core.operations import operation


@operation("users.list")
def users_list(self, limit: Limit | None = None, cursor: Cursor | None = None, query: PeopleQuery | None = None) -> dict[str, Any]:
    """Workspace members; `query` (beyond Slack's method) keeps those whose handle, names,
    email or title hold every word of it: people search."""
    size = page_size(limit, 100, 1000)
    stmt = select(*User.__table__.c).order_by(User.id)  # plain rows: only shaped
    if query and query.strip():
        stmt = stmt.where(*matches_words(query, User.name, User.real_name, User.display_name, User.email, User.title))
    if cursor:
        after = cursor_value(cursor, "user")
        stmt = stmt.where(User.id > after)
    rows = queries.plain_rows(self.db, stmt.limit(size + 1))
    more = len(rows) > size
    rows = rows[:size]
    team_id = self.workspace.id
    return {
        "members": [shapes.user(u, team_id) for u in rows],
        "cache_ts": self._now_seconds(),
        "response_metadata": {"next_cursor": encode_cursor("user", rows[-1].id) if more else ""},
    }


@operation("users.info")
def users_info(self, user: UserRef | None = None) -> dict[str, Any]:
    """A user; without `user`, you (so an agent can learn who it is)."""
    return {"user": shapes.user(self.user(user) if user else self.actor(), self.workspace.id)}


@operation("users.profile.get")
def users_profile_get(self, user: UserRef | None = None) -> dict[str, Any]:
    return {"profile": shapes.profile(self.user(user) if user else self.actor())}


@operation("users.lookupByEmail")
def users_lookup_by_email(self, email: Email) -> dict[str, Any]:
    found = queries.USER_BY_EMAIL.first(self.db, email=(email or "").strip().lower())
    if found is None:
        raise ChatError("users_not_found", f"no user with email {email!r}")
    return {"user": shapes.user(found, self.workspace.id)}


@operation("users.conversations")
def users_conversations(self, user: UserRef | None = None, types: Types | None = None, exclude_archived: bool = False, limit: Limit | None = None, cursor: Cursor | None = None) -> dict[str, Any]:
    """The conversations a user belongs to (that the actor can also see)."""
    who = self.user(user).id if user else self.actor_id
    wanted = self._channel_types(types)
    size = page_size(limit, 100, 1000)
    query = (
        select(*Channel.__table__.c).join(Member, Member.channel_id == Channel.id)  # plain rows: only shaped
        .where(Member.user_id == who, or_(*self._type_filters(wanted))).order_by(Channel.id)
    )
    if exclude_archived:
        query = query.where(Channel.is_archived.is_(False))
    if cursor:
        after = cursor_value(cursor, "team")
        query = query.where(Channel.id > after)
    visible = queries.plain_rows(self.db, query.where(self._visible()).limit(size + 1))
    page = visible[:size]
    return {
        "channels": self._shape_channels(page),
        "response_metadata": {"next_cursor": encode_cursor("team", page[-1].id) if len(visible) > size else ""},
    }
