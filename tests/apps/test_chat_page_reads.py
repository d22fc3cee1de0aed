"""What a history page reads as plain rows from prepared statements (apps/chat/queries.py),
in process: pin marks and the pin count from one read of the channel's pins, reactions and
thread summaries from the page's ts window (nothing from outside the page leaks in), thread
parents marked by a prepared UPDATE, people and messages looked up as read-only rows, and the
actor and the next scheduled post read in the service's first statement."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import event, select

from apps.chat.models import Message, Reaction, User
from apps.chat.service import ChatService
from officegym.core import clock
from officegym.core.env_store import Env
from officegym.gym import Gym

Run = Callable[..., Any]


@pytest.fixture
def people(gym: Gym, env: Env, run: Run) -> list[User]:
    """The acting user, then two active human colleagues with an email."""
    me = run(lambda chat: chat.actor_id)
    with gym.store.session(env) as db:
        others = db.scalars(
            select(User).where(User.id != me, User.is_bot.is_(False), User.deleted.is_(False), User.email.is_not(None)).order_by(User.id).limit(2)
        ).all()
        actor = db.get(User, me)
        db.expunge_all()
    assert actor is not None and len(others) == 2
    return [actor, *others]


def channel_with(run: Run, name: str, members: list[User]) -> str:
    channel = run(lambda chat: chat.conversations_create(name))["channel"]["id"]
    run(lambda chat: chat.conversations_invite(channel, ",".join(u.id for u in members[1:])))
    return channel


def post(run: Run, channel: str, text: str, as_user: str | None = None, thread_ts: str | None = None) -> str:
    return run(lambda chat: chat.chat_post_message(channel, text, thread_ts=thread_ts), as_user)["ts"]


def page(run: Run, channel: str, **kwargs: Any) -> dict[str, Any]:
    return run(lambda chat: chat.conversations_history(channel, **kwargs))


def test_pin_count_counts_pins_off_the_page_and_marks_only_the_page(run: Run) -> None:
    channel = run(lambda chat: chat.conversations_create("og-page-pins"))["channel"]["id"]
    old = post(run, channel, "old, pinned")
    stamps = [post(run, channel, f"newer {i}") for i in range(3)]
    run(lambda chat: chat.pins_add(channel, old))
    run(lambda chat: chat.pins_add(channel, stamps[-1]))

    first = page(run, channel, limit=2)
    assert first["pin_count"] == 2, "pin_count is the channel's, not the page's"
    assert [m.get("pinned_to") for m in first["messages"]] == [[channel], None]
    rest = page(run, channel, cursor=first["response_metadata"]["next_cursor"])
    assert [(m["ts"], m.get("pinned_to")) for m in rest["messages"]] == [(stamps[0], None), (old, [channel])]


def test_reactions_keep_each_messages_order_and_stay_on_their_message(run: Run, people: list[User]) -> None:
    me, one, two = people
    channel = channel_with(run, "og-page-reactions", people)
    first = post(run, channel, "first")
    reply = post(run, channel, "a reply, inside the page's ts window", thread_ts=first)
    second = post(run, channel, "second")
    # Added interleaved across messages: each message lists its own in the order added.
    run(lambda chat: chat.reactions_add(channel, second, "tada"), two.id)
    run(lambda chat: chat.reactions_add(channel, first, "eyes"), one.id)
    run(lambda chat: chat.reactions_add(channel, reply, "fire"))
    run(lambda chat: chat.reactions_add(channel, second, "eyes"))
    run(lambda chat: chat.reactions_add(channel, first, "+1"))
    run(lambda chat: chat.reactions_add(channel, first, "eyes"), two.id)
    run(lambda chat: chat.reactions_add(channel, second, "tada"), one.id)

    shaped = {m["ts"]: m for m in page(run, channel)["messages"]}
    assert list(shaped) == [second, first]
    assert shaped[second]["reactions"] == [
        {"name": "tada", "users": [two.id, one.id], "count": 2},
        {"name": "eyes", "users": [me.id], "count": 1},
    ]
    assert shaped[first]["reactions"] == [
        {"name": "eyes", "users": [one.id, two.id], "count": 2},
        {"name": "+1", "users": [me.id], "count": 1},
    ]
    thread = run(lambda chat: chat.conversations_replies(channel, first))["messages"]
    assert [m.get("reactions") for m in thread[1:]] == [[{"name": "fire", "users": [me.id], "count": 1}]]


def test_interleaved_threads_each_summarise_their_own_replies(gym: Gym, env: Env, run: Run, people: list[User]) -> None:
    me, one, two = people
    channel = channel_with(run, "og-page-threads", people)
    a = post(run, channel, "thread a")
    b = post(run, channel, "thread b")
    replies = [
        post(run, channel, "b1", one.id, thread_ts=b),
        post(run, channel, "a1", two.id, thread_ts=a),
        post(run, channel, "b2", two.id, thread_ts=b),
        post(run, channel, "a2", two.id, thread_ts=a),
        post(run, channel, "b3", one.id, thread_ts=b),
    ]
    plain = post(run, channel, "no thread")
    top = page(run, channel)["messages"]
    assert [m["ts"] for m in top] == [plain, b, a]
    assert "thread_ts" not in top[0] and "reply_count" not in top[0]
    assert {k: top[1][k] for k in ("reply_count", "reply_users", "reply_users_count", "latest_reply")} == {
        "reply_count": 3, "reply_users": [one.id, two.id], "reply_users_count": 2, "latest_reply": replies[4],
    }
    assert {k: top[2][k] for k in ("reply_count", "reply_users", "reply_users_count", "latest_reply")} == {
        "reply_count": 2, "reply_users": [two.id], "reply_users_count": 1, "latest_reply": replies[3],
    }
    # The parents are marked in the rows graders read, once, by the first reply.
    with gym.store.session(env) as db:
        stored = {m.ts: m.thread_ts for m in db.scalars(select(Message).where(Message.channel_id == channel))}
    assert stored[a] == a and stored[b] == b and stored[plain] is None
    assert all(stored[r] in (a, b) for r in replies)


def test_replies_pages_walk_a_thread_once_with_the_parent_on_each(run: Run) -> None:
    channel = run(lambda chat: chat.conversations_create("og-page-replies"))["channel"]["id"]
    parent = post(run, channel, "parent")
    replies = [post(run, channel, f"reply {i}", thread_ts=parent) for i in range(5)]
    seen: list[str] = []
    cursor = None
    for _ in range(5):
        got = run(lambda chat: chat.conversations_replies(channel, parent, limit=2, cursor=cursor))
        assert got["messages"][0]["ts"] == parent and got["messages"][0]["reply_count"] == 5
        seen += [m["ts"] for m in got["messages"][1:]]
        cursor = got["response_metadata"]["next_cursor"]
        assert got["has_more"] == bool(cursor)
        if not cursor:
            break
    assert seen == replies


@pytest.mark.parametrize("form", ["id", "@handle", "handle", "email"])
def test_a_person_is_found_by_every_form_of_reference(run: Run, people: list[User], form: str) -> None:
    colleague = people[1]
    ref = {"id": colleague.id, "@handle": f"@{colleague.name}", "handle": colleague.name, "email": colleague.email}[form]
    found = run(lambda chat: chat.users_info(ref))["user"]
    assert (found["id"], found["name"], found["profile"]["email"]) == (colleague.id, colleague.name, colleague.email)
    assert isinstance(found["deleted"], bool) and isinstance(found["is_bot"], bool), "flags stay booleans, as Slack sends them"
    if form in ("id", "@handle"):  # the forms a message can be sent to: your DM with them
        dm = run(lambda chat: chat.chat_post_message(ref, "hello"))
        assert dm["channel"] == run(lambda chat: chat.dm_id(chat.actor_id, colleague.id))


def test_lookups_are_read_only_rows_and_hold_nothing_in_the_session(gym: Gym, env: Env, people: list[User]) -> None:
    """A lookup every operation makes loads no ORM object the session would track (and flush)."""
    me, colleague = people[0], people[1]
    channel = None
    with gym.store.session(env) as db:
        chat = ChatService(db)
        channel = chat.conversations_create("og-page-rows")["channel"]["id"]
    with gym.store.session(env) as db:
        tracked: list[Any] = []
        event.listen(db, "loaded_as_persistent", lambda _session, instance: tracked.append(instance))
        event.listen(db, "transient_to_pending", lambda _session, instance: tracked.append(instance))
        chat = ChatService(db)
        ts = chat.chat_post_message(channel, "a message")["ts"]
        assert chat.actor().id == me.id and chat.user(f"@{colleague.name}").id == colleague.id
        assert chat.channel(channel).id == channel
        reply = chat.chat_post_message(channel, "a reply", thread_ts=ts)
        chat.reactions_add(channel, ts, "eyes")
        chat.pins_add(channel, ts)
        assert chat.conversations_history(channel)["messages"][0]["reactions"][0]["name"] == "eyes"
        assert tracked == [], "no ORM object was loaded or added"
        assert reply["message"]["thread_ts"] == ts
    with gym.store.session(env) as db:
        assert db.get(Reaction, (channel, ts, "eyes", me.id)) is not None


def test_a_due_scheduled_reply_is_posted_before_the_operation_reads(run: Run, people: list[User]) -> None:
    """The first statement of every operation reads the actor and the soonest scheduled post:
    a due one is delivered whether the service acts as the env's actor or as someone named."""
    me, colleague = people[0], people[1]
    channel = channel_with(run, "og-page-scheduled", people)
    parent = post(run, channel, "root, no replies yet")

    def schedule_reply(text: str) -> None:
        now = run(lambda chat: clock.now_micros(chat.db)) // 1_000_000
        # Due a second from now: scheduling ticks the clock 2-11 s, so the next operation delivers it.
        run(lambda chat: chat.chat_schedule_message(channel, now + 1, text=text, thread_ts=parent))

    schedule_reply("first scheduled reply")
    top = run(lambda chat: chat.conversations_history(channel), colleague.id)["messages"]
    assert [(m["ts"], m.get("reply_count")) for m in top] == [(parent, 1)]
    schedule_reply("second scheduled reply")
    top = page(run, channel)["messages"]
    assert [(m["ts"], m.get("reply_count")) for m in top] == [(parent, 2)]
    thread = run(lambda chat: chat.conversations_replies(channel, parent))["messages"]
    assert [(m["text"], m["user"]) for m in thread] == [
        ("root, no replies yet", me.id), ("first scheduled reply", me.id), ("second scheduled reply", me.id),
    ]
    assert run(lambda chat: chat.chat_scheduled_messages_list())["scheduled_messages"] == []


def test_a_listed_channel_is_shaped_as_its_info_shapes_it(run: Run, people: list[User]) -> None:
    """conversations.list and users.conversations shape a page in a few reads; each entry is
    what conversations.info says of that channel (members, membership, a DM's other person)."""
    me, colleague = people[0], people[1]
    run(lambda chat: chat.conversations_open(colleague.id))
    run(lambda chat: chat.conversations_open(me.id))  # your DM with yourself
    run(lambda chat: chat.conversations_create("og-page-private", is_private=True))
    every = "public_channel,private_channel,im,mpim"
    listed = run(lambda chat: chat.conversations_list(types=every, limit=1000))["channels"]
    mine = run(lambda chat: chat.users_conversations(types=every, limit=1000))["channels"]
    assert {c["is_im"] for c in listed} == {True, False} and any(not c["is_member"] for c in listed)
    for shaped in listed + mine:
        assert shaped == run(lambda chat: chat.conversations_info(shaped["id"]))["channel"], shaped["id"]
    dms = {c["user"] for c in listed if c["is_im"]}
    assert {colleague.id, me.id} <= dms
    assert [c["id"] for c in mine] == [c["id"] for c in listed if c["is_member"]]
