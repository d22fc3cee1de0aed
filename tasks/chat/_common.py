"""What chat task families share: reading what the agent said, and the changes a task allows.

Checks look only at what the agent's user did after the task started (`since`), so history
that was already there can never satisfy a check, and the do-nothing agent scores 0. An
answer must be in the place it was asked for, and it is judged over everything the agent said
since the task began, anywhere (`said` without a channel), read as one text: a wrong guess
posted first, or posted somewhere else, is still said; so is one written into a canvas, a
scheduled message or a channel topic (`written`), or into another app the agent can write in
(a task or a note in the CRM: `Answer.beside`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from apps.chat.models import Canvas, Channel, Message, Reaction, ScheduledMessage
from apps.chat.service import ChatService
from graders.checks import CheckResult, failed, passed
from graders.diff import RowChange
from graders.rubric import Expect
from officegym.core.sql import Prepared
from tasks.base import Moves, ToolError, Tools
from tasks.common.answers import Verdict, echoes, emoji_name, without_retracted
from tasks.common.text import render


def said(db: Session, actor_id: str, since: str, channel_id: str | None = None) -> list[Message]:
    """The actor's messages since the task began, in one channel or anywhere (thread replies
    included), oldest first."""
    query = select(Message).where(Message.user_id == actor_id, Message.ts > since)
    if channel_id is not None:
        query = query.where(Message.channel_id == channel_id)
    return list(db.scalars(query.order_by(Message.ts)))


def written(db: Session, actor_id: str, since: str, everything: bool = False) -> str:
    """What the actor wrote since the task began that is not a posted message but still says
    something to colleagues: canvases they created or rewrote, messages they scheduled (which
    will be posted), channel topics and purposes they set, the names of channels they created
    (#sup-65-maybe). A hedge put there is said all the same."""
    found = {"actor": actor_id, "seconds": int(since.split(".")[0])}
    parts = [f"{title}\n{markdown}" for title, markdown in _CANVASES_WRITTEN.rows(db, **found)]
    parts += [render(text, blocks, attachments, everything) for text, blocks, attachments in _SCHEDULED_WRITTEN.rows(db, **found)]
    parts += [text for (text,) in (*_TOPICS_SET.rows(db, **found), *_PURPOSES_SET.rows(db, **found), *_CHANNELS_MADE.rows(db, **found)) if text]
    return "\n".join(parts)


# Every chat answer check reads these five: prepared once (officegym/core/sql.py), as Core
# statements they cost ~0.15 ms each, most of a grade.
_CANVASES_WRITTEN = Prepared(select(Canvas.title, Canvas.markdown).where(Canvas.updated_by == bindparam("actor"), Canvas.updated >= bindparam("seconds"))
                             .order_by(Canvas.id))
_SCHEDULED_WRITTEN = Prepared(select(ScheduledMessage.text, ScheduledMessage.blocks, ScheduledMessage.attachments)
                              .where(ScheduledMessage.user_id == bindparam("actor"), ScheduledMessage.date_created >= bindparam("seconds"))
                              .order_by(ScheduledMessage.id))
_TOPICS_SET = Prepared(select(Channel.topic).where(Channel.topic_creator == bindparam("actor"), Channel.topic_last_set >= bindparam("seconds"))
                       .order_by(Channel.id))
_CHANNELS_MADE = Prepared(select(Channel.name).where(Channel.creator == bindparam("actor"), Channel.created >= bindparam("seconds"),
                                                     Channel.is_im.is_(False), Channel.is_mpim.is_(False)).order_by(Channel.id))
_PURPOSES_SET = Prepared(select(Channel.purpose).where(Channel.purpose_creator == bindparam("actor"), Channel.purpose_last_set >= bindparam("seconds"))
                         .order_by(Channel.id))


def text_of(messages: list[Message], everything: bool = False) -> str:
    """These messages as one plain text, as they show, blocks and attachments included (where
    messages have them); with `everything`, what their notifications show too (`render`)."""
    return "\n".join(render(m.text, getattr(m, "blocks", None), getattr(m, "attachments", None), everything) for m in messages)


def is_top_level(message: Message) -> bool:
    return message.thread_ts in (None, message.ts)


@dataclass(frozen=True, slots=True)
class Answer:
    """How a family reads the agent's answer. `inside` says which messages are in the place the
    answer belongs (`place` names it); `judges` read the whole text of everything the agent said;
    `asserts` tells whether a text names anything of the asked kind at all (so the answer posted
    in a second place is seen as the shotgun it is). `beside` reads what the agent wrote in the
    other apps (the CRM's tasks and notes): judged with the answer, so a hedge written there is a
    hedge, but it is a record of the work, not a second place the answer was posted."""

    place: str
    inside: Callable[[Message], bool]
    prompt: str
    judges: Callable[[str], Iterable[Verdict]]
    asserts: Callable[[str], bool]
    beside: Callable[[Session], Iterable[str]] | None = None
    beneath: bool = False  # replies in the thread of your own post there are in the place too (a follow-up, not a second place)

    def check(self, actor_id: str, since: str) -> Callable[[Session], CheckResult]:
        def run(db: Session) -> CheckResult:
            mine = said(db, actor_id, since)
            here = [m for m in mine if self.inside(m)]
            if not here:
                return failed(f"nothing from you in {self.place}")
            if self.beneath:
                under = {(m.channel_id, m.ts) for m in here}
                here += [m for m in mine if m not in here and (m.channel_id, m.thread_ts) in under]
            other = written(db, actor_id, since)  # canvases, scheduled posts, topics: said, never in place
            apart = "\n".join(self.beside(db)) if self.beside is not None else ""  # other apps: read with the answer
            said_text = "\n".join(t for t in (text_of(mine), other, apart) if t)
            # what the messages show, and what their notifications show besides (the text beside
            # blocks, attachments' fallbacks): a hedge in either is said, the answer must show
            said_all = "\n".join(t for t in (text_of(mine, True), written(db, actor_id, since, True), apart) if t)
            if echoes(said_all, self.prompt):
                return failed("what you posted pastes the task instead of doing it")
            text = without_retracted(said_text)
            for verdict in (*self.judges(without_retracted(said_all)), *self.judges(text)):
                if not verdict.ok:
                    return failed(f"what you posted {verdict.detail}")
            if self.beneath:  # the follow-ups add to the post; the post itself still says everything asked
                for verdict in self.judges(without_retracted(text_of([m for m in here if self.inside(m)]))):
                    if not verdict.ok:
                        return failed(f"your post itself {verdict.detail}: a reply under it adds to it, it does not replace it")
            elsewhere = without_retracted("\n".join(t for t in (text_of([m for m in mine if m not in here]), other) if t))
            if elsewhere and self.asserts(elsewhere):
                return failed(f"you also posted the answer outside {self.place}: it belongs in one place")
            return passed(f"answered in {self.place}: {'; '.join(v.detail for v in self.judges(text))}")

        return run


def reactions_since(db: Session, actor_id: str, since_micros: int) -> list[Reaction]:
    """Reactions the actor added since the task began (a reaction's seq is the clock when it was added)."""
    query = select(Reaction).where(Reaction.user_id == actor_id, Reaction.seq > since_micros)
    return list(db.scalars(query))


def service_as(db: Session, user_id: str) -> ChatService:
    return ChatService(db, actor_id=user_id)


# -- the changes a chat task may make ------------------------------------------------------
def allow_posts(channel_id: str, actor_id: str, thread_ts: str | None | tuple[str | None, ...] = None) -> Expect:
    """The actor's messages in one channel: top-level (thread_ts None), or under the given thread(s)."""
    threads = thread_ts if isinstance(thread_ts, tuple) else (thread_ts,)

    def covers(change: RowChange) -> bool:
        row = change.row
        return row["channel_id"] == channel_id and row["user_id"] == actor_id and row["thread_ts"] in threads

    return Expect("chat_messages", "insert", covers)


def allow_follow_ups(channel_id: str, actor_id: str, since: str) -> list[Expect]:
    """Replies in the thread of a post the actor made in the channel during the task ("same room
    as usual", a correction of a typo): a follow-up to their own post, not a post elsewhere."""
    def own_posts(db: Session) -> frozenset[str]:
        query = select(Message.ts).where(Message.channel_id == channel_id, Message.user_id == actor_id, Message.ts > since)
        return frozenset(db.scalars(query))

    def in_own_thread(change: RowChange, own: frozenset[str]) -> bool:  # a reply, or the post itself once it has replies
        row = change.row
        return row["channel_id"] == channel_id and row["user_id"] == actor_id and row["thread_ts"] in own

    return [Expect("chat_messages", "insert", in_own_thread, given=own_posts)]


def allow_thread_start(channel_id: str, parent_ts: str) -> Expect:
    """Replying to a message that had no replies marks it as a thread parent."""

    def covers(change: RowChange) -> bool:
        return change.row["channel_id"] == channel_id and change.row["ts"] == parent_ts and change.changed_columns == ("thread_ts",)

    return Expect("chat_messages", "update", covers)


def allow_acknowledgement(channel_id: str, ts: str, actor_id: str) -> Expect:
    """The actor's reaction on the message a task answers (a :white_check_mark: or :eyes: on the
    thread's first message, as people acknowledge what they reply to): no change to anything
    anyone wrote, so not collateral, whichever emoji."""

    def covers(change: RowChange) -> bool:
        row = change.row
        return row["channel_id"] == channel_id and row["ts"] == ts and row["user_id"] == actor_id

    return Expect("chat_reactions", "insert", covers)


def allow_reaction(channel_id: str, ts: str, emoji: str, actor_id: str) -> Expect:
    """One reaction, under any of the emoji's names (`+1` is `thumbsup`, skin tones included)."""

    def covers(change: RowChange) -> bool:
        row = change.row
        return (row["channel_id"], row["ts"], row["user_id"]) == (channel_id, ts, actor_id) and emoji_name(row["name"]) == emoji

    return Expect("chat_reactions", "insert", covers)


def answered_in_dm(dm: str, actor_id: str, asker_id: str, question: str, public: frozenset[str]) -> list[Expect]:
    """What a task that asks its question in a DM allows: the setup's DM and question (kept in
    the diff when the setup is part of the expected changes), the answer there, a thread
    under the question, and the careful steps on the way."""
    return [
        Expect("chat_messages", "insert", lambda c: c.row["channel_id"] == dm and c.row["user_id"] == actor_id),
        Expect("chat_messages", "update", lambda c: c.row["channel_id"] == dm and c.changed_columns == ("thread_ts",)),
        Expect("chat_channels", "insert", lambda c: c.row["id"] == dm and bool(c.row["is_im"])),
        Expect("chat_messages", "insert", lambda c: c.row["channel_id"] == dm and c.row["user_id"] == asker_id
               and c.row["text"] == question and c.row["thread_ts"] in (None, c.row["ts"])),
        *careful_steps(actor_id, public),
    ]


def careful_steps(actor_id: str, public: frozenset[str]) -> list[Expect]:
    """What a careful person does on the way, in any task: joining a public channel to read it,
    opening a DM, acknowledging a question in a DM with a reaction (:eyes:, then the answer).
    None of them is collateral damage."""
    return [
        Expect("chat_members", "insert", lambda c: c.row["user_id"] == actor_id and c.row["channel_id"] in public),
        Expect("chat_channels", "insert", lambda c: bool(c.row["is_im"]) and c.row["creator"] == actor_id),
        Expect("chat_members", "insert", lambda c: str(c.row["channel_id"]).startswith("D")),
        Expect("chat_reactions", "insert", lambda c: c.row["user_id"] == actor_id and str(c.row["channel_id"]).startswith("D")),
    ]


# -- moves shared by the adversaries of text-answer families -------------------------------
async def post(tools: Tools, channel_id: str, text: str, thread_ts: str | None = None) -> None:
    """Post `text` (split over several messages when longer than one message may be)."""
    for chunk in _chunks(text):
        if thread_ts:
            await tools.call("slack_reply_to_thread", channel_id=channel_id, thread_ts=thread_ts, text=chunk)
        else:
            await tools.call("slack_post_message", channel_id=channel_id, text=chunk)


def _chunks(text: str, size: int = 4000) -> list[str]:
    parts, current = [], ""
    for piece in text.split(" "):
        if current and len(current) + 1 + len(piece) > size:
            parts.append(current)
            current = piece
        else:
            current = f"{current} {piece}" if current else piece
    return [*parts, current] if current else parts


async def post_everywhere(tools: Tools, channels: list[str], text: str) -> None:
    """Post the same text in each channel (what a shotgun agent does)."""
    for channel in channels:
        await post(tools, channel, text)


async def wreck(tools: Tools) -> None:
    """What a vandal does besides the task: archive a channel, delete one of the actor's old
    messages, rewrite another, overwrite a channel topic. Each step is tried; one that the
    workspace refuses is skipped."""
    steps = []
    channels = (await tools.call("slack_list_conversations", types="public_channel", limit=200))["channels"]
    spare = [c for c in channels if not c.get("is_general")]
    if spare:
        steps.append(("slack_archive_channel", {"channel_id": spare[-1]["id"]}))
        steps.append(("slack_set_channel_topic", {"channel_id": spare[0]["id"], "topic": "(cleared)"}))
    old = await tools.call("slack_search_messages", query="from:me", sort="timestamp", sort_dir="asc", count=5)
    matches = old["messages"]["matches"]
    if matches:
        steps.append(("slack_delete_message", {"channel_id": matches[0]["channel"]["id"], "ts": matches[0]["ts"]}))
    if len(matches) > 1:
        steps.append(("slack_update_message", {"channel_id": matches[1]["channel"]["id"], "ts": matches[1]["ts"], "text": "(edited)"}))
    for tool, arguments in steps:
        try:
            await tools.call(tool, **arguments)
        except ToolError:
            pass


def answer_moves(dm: str, elsewhere: Iterable[str], *, right: str, wrong: str, everything: str, wrong_record: str) -> Moves:
    """The adversary suite's moves for a question asked in a DM, as the texts each one posts
    there: a wrong answer, one listing every candidate, the answer about another record; the
    shotgun posts the right answer in the DM and in every channel of `elsewhere`; the vandal
    wrecks the workspace (`wreck`)."""
    rooms = [dm, *elsewhere]
    return Moves(
        say=lambda tools, text: post(tools, dm, text),
        wrong=lambda tools: post(tools, dm, wrong),
        everything=lambda tools: post(tools, dm, everything),
        wrong_record=lambda tools: post(tools, dm, wrong_record),
        shotgun=lambda tools: post_everywhere(tools, rooms, right),
        wreck=wreck,
    )
