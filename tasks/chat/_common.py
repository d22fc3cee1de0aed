"""What chat task families share: reading the seeded workspace, and checks on final state.

Checks look only at what the agent's user did after the task started (`since`), so history
that was already there can never satisfy a check, and the do-nothing agent scores 0.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from apps.chat.ids import ts_from_micros
from apps.chat.models import Channel, Member, Message, User
from apps.chat.service import ChatService
from graders.checks import CheckResult, failed, passed
from graders.diff import RowChange
from graders.rubric import Expect
from officegym.core import clock


def start_ts(db: Session) -> str:
    """The env clock as a Slack ts: every message the agent writes will be later than this."""
    return ts_from_micros(clock.now_micros(db))


def user_for_person(db: Session, person_id: str) -> User:
    return db.scalars(select(User).where(User.person_id == person_id)).one()


def visible_channels(db: Session, actor_id: str) -> list[Channel]:
    """Public channels and the private ones the actor is in (no DMs), by name."""
    rows = db.scalars(select(Channel).where(Channel.is_im.is_(False), Channel.is_mpim.is_(False), Channel.is_archived.is_(False)))
    return sorted(
        (c for c in rows if not c.is_private or db.get(Member, (c.id, actor_id)) is not None), key=lambda c: c.name
    )


def thread_replies(db: Session, parent: Message) -> list[Message]:
    return list(
        db.scalars(
            select(Message)
            .where(Message.channel_id == parent.channel_id, Message.thread_ts == parent.ts, Message.ts != parent.ts)
            .order_by(Message.ts)
        )
    )


def new_messages(db: Session, actor_id: str, since: str, channel_id: str | None = None) -> list[Message]:
    query = select(Message).where(Message.user_id == actor_id, Message.ts > since).order_by(Message.ts)
    if channel_id is not None:
        query = query.where(Message.channel_id == channel_id)
    return list(db.scalars(query))


def normalized(text: str) -> str:
    return " ".join(text.lower().split())


def contains(text: str, needle: str) -> bool:
    return normalized(needle) in normalized(text)


def mentions(text: str, user: User) -> bool:
    """Whether `text` names `user`: a <@U…> mention, their full name, or @handle."""
    return f"<@{user.id}>" in text or contains(text, user.real_name) or f"@{user.name}".lower() in text.lower()


def first_match(
    messages: Iterable[Message], predicate: Callable[[Message], bool], what: str, none_detail: str
) -> CheckResult:
    candidates = list(messages)
    for message in candidates:
        if predicate(message):
            return passed(f"{what}: message {message.ts}")
    if not candidates:
        return failed(none_detail)
    return failed(f"{len(candidates)} candidate message(s), none {what}: last was {candidates[-1].text[:200]!r}")


# -- the changes a chat task may make ------------------------------------------------------
def allow_messages_in(channel_id: str, actor_id: str) -> Expect:
    return Expect("chat_messages", "insert", lambda c: c.row["channel_id"] == channel_id and c.row["user_id"] == actor_id)


def allow_thread_start(channel_id: str, parent_ts: str) -> Expect:
    """Replying to a message that had no replies marks it as a thread parent."""
    def covers(change: RowChange) -> bool:
        return change.row["channel_id"] == channel_id and change.row["ts"] == parent_ts and change.changed_columns == ("thread_ts",)

    return Expect("chat_messages", "update", covers)


def allow_join(channel_id: str, actor_id: str) -> Expect:
    return Expect("chat_members", "insert", lambda c: c.row["channel_id"] == channel_id and c.row["user_id"] == actor_id)


def service_as(db: Session, user_id: str) -> ChatService:
    return ChatService(db, actor_id=user_id)


TICKET_KEY = re.compile(r"\b([A-Z][A-Z0-9]+-\d+)\b")
