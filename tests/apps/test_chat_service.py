"""ChatService, in-process: the Slack Web API semantics every face (MCP, REST, UI) relies on.

Each test works in a fresh bare env and, where it can, in channels it creates itself, so it
depends on the seeded company only for its users (the acting user and one colleague).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from apps.chat.errors import ChatError
from apps.chat.ids import is_ts
from apps.chat.models import Message, User
from apps.chat.service import MAX_TEXT_CHARS, ChatService
from officegym.core import clock
from officegym.core.env_store import Env
from officegym.gym import Gym

Run = Callable[..., Any]


@pytest.fixture
def run(gym: Gym, env: Env) -> Run:
    """`run(lambda chat: chat.method(...), as_user=None)`: one operation, one transaction,
    as the env's acting user or as `as_user`; a ChatError rolls the transaction back."""

    def run(operation: Callable[[ChatService], Any], as_user: str | None = None) -> Any:
        with gym.store.session(env) as db:
            return operation(ChatService(db, actor_id=as_user))

    return run


@pytest.fixture
def me(run: Run) -> str:
    actor = run(lambda chat: chat.actor_id)
    assert actor.startswith("U"), f"the env has no acting chat user: {actor!r}"
    return actor


@pytest.fixture
def others(gym: Gym, env: Env, me: str) -> list[User]:
    """Active human colleagues of the acting user, by id."""
    with gym.store.session(env) as db:
        rows = db.scalars(
            select(User).where(User.id != me, User.is_bot.is_(False), User.deleted.is_(False)).order_by(User.id)
        ).all()
        db.expunge_all()
    assert len(rows) >= 2, "the seeded company should have at least two colleagues"
    return list(rows)


@pytest.fixture
def other(others: list[User]) -> str:
    return others[0].id


def new_channel(run: Run, name: str, as_user: str | None = None, private: bool = False) -> str:
    return run(lambda chat: chat.conversations_create(name, is_private=private), as_user)["channel"]["id"]


def post(run: Run, channel: str, text: str, as_user: str | None = None, thread_ts: str | None = None) -> str:
    return run(lambda chat: chat.chat_post_message(channel, text, thread_ts=thread_ts), as_user)["ts"]


def history(run: Run, channel: str, as_user: str | None = None, **kwargs: Any) -> dict[str, Any]:
    return run(lambda chat: chat.conversations_history(channel, **kwargs), as_user)


def error_code(run: Run, operation: Callable[[ChatService], Any], as_user: str | None = None) -> str:
    with pytest.raises(ChatError) as caught:
        run(operation, as_user)
    assert caught.value.message, "every error says what was wrong"
    return caught.value.code


# -- posting and history -------------------------------------------------------------------
def test_post_appears_at_top_of_history(run: Run, me: str) -> None:
    channel = new_channel(run, "og-test-post")
    first = run(lambda chat: chat.chat_post_message(channel, "first message"))
    second = run(lambda chat: chat.chat_post_message("#og-test-post", "second message"))

    assert first["channel"] == second["channel"] == channel
    assert second["message"] == {"type": "message", "user": me, "text": "second message", "ts": second["ts"]}
    page = history(run, channel)
    assert [m["text"] for m in page["messages"]] == ["second message", "first message"]
    assert [m["ts"] for m in page["messages"]] == [second["ts"], first["ts"]]
    assert page["messages"][0]["user"] == me
    assert page["has_more"] is False
    assert page["response_metadata"]["next_cursor"] == ""


def test_post_to_a_seeded_public_channel(run: Run, me: str) -> None:
    listed = run(lambda chat: chat.conversations_list(limit=1000))["channels"]
    assert listed, "the seeded workspace has public channels"
    general = next((c for c in listed if c["is_general"]), listed[0])
    ts = post(run, general["id"], "hello from the test")
    top = history(run, general["id"], limit=1)["messages"]
    assert top[0]["ts"] == ts and top[0]["text"] == "hello from the test" and top[0]["user"] == me


def test_empty_text_and_unknown_channel(run: Run) -> None:
    channel = new_channel(run, "og-test-empty")
    assert error_code(run, lambda chat: chat.chat_post_message(channel, "   ")) == "no_text"
    assert error_code(run, lambda chat: chat.chat_post_message("C0000NOPE00", "hi")) == "channel_not_found"
    assert error_code(run, lambda chat: chat.chat_post_message("#no-such-channel-here", "hi")) == "channel_not_found"
    assert history(run, channel)["messages"] == []


def test_msg_too_long_at_40001_chars_and_nothing_written(run: Run) -> None:
    channel = new_channel(run, "og-test-long")
    assert MAX_TEXT_CHARS == 40_000
    ts = post(run, channel, "x" * 40_000)  # exactly at the limit is fine
    before = history(run, channel)
    with pytest.raises(ChatError) as caught:
        run(lambda chat: chat.chat_post_message(channel, "y" * 40_001))
    assert caught.value.code == "msg_too_long"
    assert "40001" in caught.value.message and "40000" in caught.value.message
    assert history(run, channel) == before
    assert [m["ts"] for m in before["messages"]] == [ts]


# -- threads -------------------------------------------------------------------------------
def test_reply_makes_a_thread(run: Run, me: str, other: str) -> None:
    channel = new_channel(run, "og-test-thread")
    run(lambda chat: chat.conversations_invite(channel, other))
    parent = post(run, channel, "parent")
    reply = run(lambda chat: chat.chat_post_message(channel, "first reply", thread_ts=parent), other)

    assert reply["message"]["thread_ts"] == parent
    assert reply["message"]["parent_user_id"] == me
    top = history(run, channel)["messages"]
    assert [m["ts"] for m in top] == [parent], "replies stay out of the channel history"
    assert top[0]["thread_ts"] == parent
    assert top[0]["reply_count"] == 1
    assert top[0]["reply_users"] == [other]
    assert top[0]["latest_reply"] == reply["ts"]

    second = post(run, channel, "second reply", thread_ts=parent)
    thread = run(lambda chat: chat.conversations_replies(channel, parent))["messages"]
    assert [m["ts"] for m in thread] == [parent, reply["ts"], second]
    assert thread[0]["reply_count"] == 2 and thread[0]["reply_users"] == [other, me]
    assert all(m["thread_ts"] == parent for m in thread)


def test_reply_to_a_reply_lands_in_the_same_thread(run: Run) -> None:
    channel = new_channel(run, "og-test-nested")
    parent = post(run, channel, "parent")
    reply = post(run, channel, "reply", thread_ts=parent)
    nested = run(lambda chat: chat.chat_post_message(channel, "reply to the reply", thread_ts=reply))
    assert nested["message"]["thread_ts"] == parent
    thread = run(lambda chat: chat.conversations_replies(channel, parent))["messages"]
    assert [m["text"] for m in thread] == ["parent", "reply", "reply to the reply"]
    # Asking for the thread by a reply's ts answers with the whole thread, parent first.
    by_reply = run(lambda chat: chat.conversations_replies(channel, reply))["messages"]
    assert [m["ts"] for m in by_reply] == [m["ts"] for m in thread]


def test_reply_to_unknown_thread(run: Run) -> None:
    channel = new_channel(run, "og-test-nothread")
    assert error_code(run, lambda chat: chat.chat_post_message(channel, "hi", thread_ts="1234567890.123456")) == "thread_not_found"
    assert error_code(run, lambda chat: chat.chat_post_message(channel, "hi", thread_ts="not-a-ts")) == "thread_not_found"
    assert error_code(run, lambda chat: chat.conversations_replies(channel, "1234567890.123456")) == "thread_not_found"


# -- reactions -----------------------------------------------------------------------------
def test_reactions_add_remove_and_order(run: Run, me: str, other: str) -> None:
    channel = new_channel(run, "og-test-react")
    ts = post(run, channel, "react to me")
    run(lambda chat: chat.reactions_add(channel, ts, "thumbsup"))
    run(lambda chat: chat.reactions_add(channel, ts, ":eyes:"))  # colons are tolerated
    run(lambda chat: chat.reactions_add(channel, ts, "thumbsup"), other)

    message = history(run, channel)["messages"][0]
    assert message["reactions"] == [
        {"name": "thumbsup", "users": [me, other], "count": 2},
        {"name": "eyes", "users": [me], "count": 1},
    ]
    got = run(lambda chat: chat.reactions_get(channel, ts))
    assert got["message"]["reactions"] == message["reactions"]

    assert error_code(run, lambda chat: chat.reactions_add(channel, ts, "thumbsup")) == "already_reacted"
    run(lambda chat: chat.reactions_remove(channel, ts, "thumbsup"))
    left = history(run, channel)["messages"][0]["reactions"]
    assert sorted(left, key=lambda r: r["name"]) == [
        {"name": "eyes", "users": [me], "count": 1},
        {"name": "thumbsup", "users": [other], "count": 1},
    ]
    assert error_code(run, lambda chat: chat.reactions_remove(channel, ts, "thumbsup")) == "no_reaction"
    assert error_code(run, lambda chat: chat.reactions_remove(channel, ts, "tada")) == "no_reaction"
    assert error_code(run, lambda chat: chat.reactions_add(channel, ts, "not an emoji!")) == "invalid_name"
    assert error_code(run, lambda chat: chat.reactions_add(channel, "1234567890.123456", "tada")) == "message_not_found"


# -- edit and delete -----------------------------------------------------------------------
def test_update_own_message_only(run: Run, me: str, other: str) -> None:
    channel = new_channel(run, "og-test-update")
    run(lambda chat: chat.conversations_invite(channel, other))
    mine = post(run, channel, "tpyo")
    theirs = post(run, channel, "their words", as_user=other)

    updated = run(lambda chat: chat.chat_update(channel, mine, "typo fixed"))
    assert updated["ts"] == mine and updated["text"] == "typo fixed"
    assert updated["message"]["edited"]["user"] == me
    assert is_ts(updated["message"]["edited"]["ts"]) and updated["message"]["edited"]["ts"] > mine
    assert error_code(run, lambda chat: chat.chat_update(channel, theirs, "hijacked")) == "cant_update_message"
    assert error_code(run, lambda chat: chat.chat_delete(channel, theirs)) == "cant_delete_message"

    texts = {m["ts"]: m["text"] for m in history(run, channel)["messages"]}
    assert texts == {mine: "typo fixed", theirs: "their words"}


def test_delete_message_and_tombstone_for_a_parent_with_replies(run: Run, other: str) -> None:
    channel = new_channel(run, "og-test-delete")
    run(lambda chat: chat.conversations_invite(channel, other))
    lonely = post(run, channel, "delete me")
    parent = post(run, channel, "a thread starter")
    reply = post(run, channel, "a reply", as_user=other, thread_ts=parent)

    assert run(lambda chat: chat.chat_delete(channel, lonely)) == {"channel": channel, "ts": lonely}
    run(lambda chat: chat.chat_delete(channel, parent))

    top = history(run, channel)["messages"]
    assert [m["ts"] for m in top] == [parent], "a plain message is gone; the thread parent stays as a tombstone"
    assert top[0]["subtype"] == "tombstone"
    assert top[0]["text"] != "a thread starter"
    assert top[0]["reply_count"] == 1
    thread = run(lambda chat: chat.conversations_replies(channel, parent))["messages"]
    assert [m["ts"] for m in thread] == [parent, reply]
    assert error_code(run, lambda chat: chat.chat_delete(channel, lonely)) == "message_not_found"
    assert error_code(run, lambda chat: chat.chat_update(channel, parent, "resurrect")) == "cant_update_message"
    found = run(lambda chat: chat.search_messages("thread starter"))["messages"]["matches"]
    assert all(m["ts"] != parent for m in found), "a tombstone is not searchable"


# -- channels ------------------------------------------------------------------------------
def test_create_channel_name_rules(run: Run, me: str) -> None:
    created = run(lambda chat: chat.conversations_create("#og-test-ok_name-1"))["channel"]
    assert created["name"] == "og-test-ok_name-1"
    assert created["id"].startswith("C") and created["creator"] == me
    assert created["is_member"] is True and created["num_members"] == 1 and created["is_private"] is False

    assert error_code(run, lambda chat: chat.conversations_create("Has Spaces")) == "invalid_name_specials"
    assert error_code(run, lambda chat: chat.conversations_create("UPPER")) == "invalid_name_specials"
    assert error_code(run, lambda chat: chat.conversations_create("bang!")) == "invalid_name_specials"
    assert error_code(run, lambda chat: chat.conversations_create("og-test-ok_name-1")) == "name_taken"
    assert error_code(run, lambda chat: chat.conversations_create("a" * 81)) == "invalid_name_maxlength"
    assert error_code(run, lambda chat: chat.conversations_create("")) == "invalid_name_required"
    run(lambda chat: chat.conversations_create("b" * 80))  # the limit itself is fine

    names = [c["name"] for c in run(lambda chat: chat.conversations_list(limit=1000))["channels"]]
    assert names.count("og-test-ok_name-1") == 1


def test_invite(run: Run, me: str, others: list[User]) -> None:
    first, second = others[0].id, others[1].id
    channel = new_channel(run, "og-test-invite")
    shaped = run(lambda chat: chat.conversations_invite(channel, f"{first},{second}"))["channel"]
    assert shaped["num_members"] == 3
    assert run(lambda chat: chat.conversations_members(channel))["members"] == sorted([me, first, second])

    assert error_code(run, lambda chat: chat.conversations_invite(channel, first)) == "already_in_channel"
    assert error_code(run, lambda chat: chat.conversations_invite(channel, "U0000NOPE00")) == "user_not_found"
    # Someone else's channel that I am not in: I cannot invite people to it.
    theirs = new_channel(run, "og-test-theirs", as_user=first)
    assert error_code(run, lambda chat: chat.conversations_invite(theirs, second)) == "not_in_channel"
    assert run(lambda chat: chat.conversations_members(theirs))["members"] == [first]


def test_private_channel_invisible_to_non_members(run: Run, me: str, other: str) -> None:
    secret = new_channel(run, "og-test-secret", as_user=other, private=True)
    post(run, secret, "quokkasecret plans", as_user=other)

    assert error_code(run, lambda chat: chat.conversations_history(secret)) == "channel_not_found"
    assert error_code(run, lambda chat: chat.conversations_history("#og-test-secret")) == "channel_not_found"
    assert error_code(run, lambda chat: chat.chat_post_message(secret, "let me in")) == "channel_not_found"
    assert error_code(run, lambda chat: chat.conversations_info(secret)) == "channel_not_found"
    listed = run(lambda chat: chat.conversations_list(types="public_channel,private_channel", limit=1000))["channels"]
    assert secret not in [c["id"] for c in listed]
    assert run(lambda chat: chat.search_messages("quokkasecret"))["messages"]["total"] == 0

    run(lambda chat: chat.conversations_invite(secret, me), other)
    assert [m["text"] for m in history(run, secret)["messages"]] == ["quokkasecret plans"]
    listed = run(lambda chat: chat.conversations_list(types="private_channel", limit=1000))["channels"]
    assert secret in [c["id"] for c in listed]
    assert run(lambda chat: chat.search_messages("quokkasecret"))["messages"]["total"] == 1


def test_open_dm_is_idempotent(run: Run, me: str, other: str) -> None:
    first = run(lambda chat: chat.conversations_open(other))["channel"]["id"]
    again = run(lambda chat: chat.conversations_open(other))["channel"]["id"]
    from_their_side = run(lambda chat: chat.conversations_open(me), other)["channel"]["id"]
    assert first == again == from_their_side
    assert first.startswith("D")

    ts = post(run, first, "psst")
    assert [m["ts"] for m in history(run, first, as_user=other)["messages"]][0] == ts
    info = run(lambda chat: chat.conversations_info(first))["channel"]
    assert info["is_im"] is True and info["user"] == other


def test_archived_channel_is_read_only(run: Run) -> None:
    channel = new_channel(run, "og-test-archive")
    ts = post(run, channel, "before archiving")
    run(lambda chat: chat.conversations_archive(channel))
    assert error_code(run, lambda chat: chat.chat_post_message(channel, "after")) == "is_archived"
    assert [m["ts"] for m in history(run, channel)["messages"]] == [ts]
    listed = run(lambda chat: chat.conversations_list(exclude_archived=True, limit=1000))["channels"]
    assert channel not in [c["id"] for c in listed]


# -- pins ----------------------------------------------------------------------------------
def test_pins(run: Run, me: str) -> None:
    channel = new_channel(run, "og-test-pins")
    ts = post(run, channel, "pin me")
    post(run, channel, "not me")
    run(lambda chat: chat.pins_add(channel, ts))

    items = run(lambda chat: chat.pins_list(channel))["items"]
    assert [(i["message"]["ts"], i["created_by"]) for i in items] == [(ts, me)]
    page = history(run, channel)
    assert page["pin_count"] == 1
    assert [m.get("pinned_to") for m in page["messages"]] == [None, [channel]]
    assert error_code(run, lambda chat: chat.pins_add(channel, ts)) == "already_pinned"

    run(lambda chat: chat.pins_remove(channel, ts))
    assert run(lambda chat: chat.pins_list(channel))["items"] == []
    assert error_code(run, lambda chat: chat.pins_remove(channel, ts)) == "no_pin"


# -- search --------------------------------------------------------------------------------
def _day(ts: str) -> datetime:
    moment = datetime.fromtimestamp(int(ts.split(".")[0]), tz=UTC)
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def test_search_modifiers(run: Run, me: str, others: list[User]) -> None:
    colleague = others[0]
    alpha = new_channel(run, "og-search-alpha")
    beta = new_channel(run, "og-search-beta")
    run(lambda chat: chat.conversations_invite(alpha, colleague.id))
    a1 = post(run, alpha, "zebrafrost alpha launch plan")
    b1 = post(run, beta, "zebrafrost beta launch")
    a2 = post(run, alpha, "Zebrafrost gamma notes", as_user=colleague.id)
    reply = post(run, alpha, "zebrafrost thread answer", thread_ts=a1)

    def found(query: str) -> set[str]:
        result = run(lambda chat: chat.search_messages(query, count=100))
        matches = result["messages"]["matches"]
        assert result["messages"]["total"] == len(matches)
        return {m["ts"] for m in matches}

    assert found("zebrafrost") == {a1, b1, a2, reply}
    assert found("ZEBRAFROST") == {a1, b1, a2, reply}, "words match case-insensitively"
    assert found("zebrafrost launch") == {a1, b1}, "every word must match"
    assert found("zebrafrost in:#og-search-alpha") == {a1, a2, reply}
    assert found(f"zebrafrost in:{beta}") == {b1}
    assert found(f"zebrafrost in:<#{beta}|og-search-beta>") == {b1}
    assert found(f"zebrafrost from:@{colleague.name}") == {a2}
    assert found(f"zebrafrost from:<@{colleague.id}>") == {a2}
    assert found("zebrafrost from:me") == {a1, b1, reply}
    assert found('zebrafrost "alpha launch"') == {a1}
    assert found('zebrafrost "launch alpha"') == set(), "a phrase matches in order"
    assert found("zebrafrost -beta") == {a1, a2, reply}
    assert found("zebrafrost -beta -gamma") == {a1, reply}
    assert found("zebrafrost is:thread") == {a1, reply}

    stamps = {a1: _day(a1), b1: _day(b1), a2: _day(a2), reply: _day(reply)}
    days = sorted(set(stamps.values()))
    first_day, last_day = days[0], days[-1]
    fmt = lambda d: d.strftime("%Y-%m-%d")  # noqa: E731
    assert found(f"zebrafrost before:{fmt(first_day)}") == set()
    assert found(f"zebrafrost before:{fmt(last_day + timedelta(days=1))}") == set(stamps)
    assert found(f"zebrafrost after:{fmt(first_day - timedelta(days=1))}") == set(stamps)
    assert found(f"zebrafrost after:{fmt(last_day)}") == set()
    assert found(f"zebrafrost on:{fmt(first_day)}") == {t for t, d in stamps.items() if d == first_day}

    result = run(lambda chat: chat.search_messages("zebrafrost in:#og-search-beta"))
    match = result["messages"]["matches"][0]
    assert match["channel"] == {"id": beta, "name": "og-search-beta", "is_private": False, "is_im": False}
    assert match["user"] == me and match["text"] == "zebrafrost beta launch"
    assert match["permalink"].endswith(f"/archives/{beta}/p{b1.replace('.', '')}")

    assert error_code(run, lambda chat: chat.search_messages("zebrafrost in:#no-such-channel")) == "channel_not_found"
    assert error_code(run, lambda chat: chat.search_messages("zebrafrost before:yesterday")) == "invalid_query"
    assert error_code(run, lambda chat: chat.search_messages("  ")) == "no_query"


def test_search_paging(run: Run) -> None:
    channel = new_channel(run, "og-search-paging")
    posted = [post(run, channel, f"pagingword number {i}") for i in range(5)]
    seen: list[str] = []
    for page in (1, 2, 3):
        result = run(lambda chat: chat.search_messages("pagingword", count=2, page=page, sort="timestamp", sort_dir="asc"))
        assert result["messages"]["paging"] == {"count": 2, "total": 5, "page": page, "pages": 3}
        seen += [m["ts"] for m in result["messages"]["matches"]]
    assert seen == posted


# -- pagination ----------------------------------------------------------------------------
def test_history_cursor_walks_every_message_once(run: Run) -> None:
    channel = new_channel(run, "og-test-paging")
    posted = [post(run, channel, f"message {i}") for i in range(7)]
    post(run, channel, "a reply, not in history", thread_ts=posted[0])

    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = history(run, channel, limit=3, cursor=cursor)
        pages += 1
        seen += [m["ts"] for m in page["messages"]]
        cursor = page["response_metadata"]["next_cursor"]
        assert page["has_more"] is bool(cursor)
        if not cursor:
            break
        assert pages < 10, "the cursor must make progress"
    assert pages == 3
    assert seen == list(reversed(posted)), "newest first, every message exactly once"

    assert error_code(run, lambda chat: chat.conversations_history(channel, cursor="garbage")) == "invalid_cursor"
    from apps.chat.errors import ChatError
    from apps.chat.operations import OPERATIONS

    with pytest.raises(ChatError) as refused:  # limits are the operation's: every face parses through it
        OPERATIONS["conversations.history"].parse({"channel": channel, "limit": 0})
    assert refused.value.code == "invalid_arguments" and "'limit'" in refused.value.message


def test_history_oldest_latest_window(run: Run) -> None:
    channel = new_channel(run, "og-test-window")
    stamps = [post(run, channel, f"m{i}") for i in range(5)]
    inside = history(run, channel, oldest=stamps[1], latest=stamps[3])["messages"]
    assert [m["ts"] for m in inside] == [stamps[2]]
    inclusive = history(run, channel, oldest=stamps[1], latest=stamps[3], inclusive=True)["messages"]
    assert [m["ts"] for m in inclusive] == [stamps[3], stamps[2], stamps[1]]


def test_users_and_channels_cursors_walk_everything_once(gym: Gym, env: Env, run: Run) -> None:
    with gym.store.session(env) as db:
        total_users = len(db.scalars(select(User.id)).all())
    seen: list[str] = []
    cursor = None
    while True:
        page = run(lambda chat: chat.users_list(limit=7, cursor=cursor))
        assert len(page["members"]) <= 7
        seen += [u["id"] for u in page["members"]]
        cursor = page["response_metadata"]["next_cursor"]
        if not cursor:
            break
    assert len(seen) == len(set(seen)) == total_users
    assert error_code(run, lambda chat: chat.users_list(cursor="bm9wZTpub3Bl")) == "invalid_cursor"

    everything = [c["id"] for c in run(lambda chat: chat.conversations_list(limit=1000))["channels"]]
    walked: list[str] = []
    cursor = None
    while True:
        page = run(lambda chat: chat.conversations_list(limit=2, cursor=cursor))
        walked += [c["id"] for c in page["channels"]]
        cursor = page["response_metadata"]["next_cursor"]
        if not cursor:
            break
    assert walked == everything and len(set(walked)) == len(walked)


# -- users ---------------------------------------------------------------------------------
def test_user_lookups(run: Run, others: list[User]) -> None:
    colleague = next(u for u in others if u.email)
    by_id = run(lambda chat: chat.users_info(colleague.id))["user"]
    assert by_id["id"] == colleague.id and by_id["name"] == colleague.name
    assert by_id["profile"]["email"] == colleague.email
    by_email = run(lambda chat: chat.users_lookup_by_email(colleague.email.upper()))["user"]
    assert by_email["id"] == colleague.id
    profile = run(lambda chat: chat.users_profile_get(colleague.id))["profile"]
    assert profile["real_name"] == colleague.real_name
    assert error_code(run, lambda chat: chat.users_info("U0000NOPE00")) == "user_not_found"
    assert error_code(run, lambda chat: chat.users_lookup_by_email("nobody@example.invalid")) == "users_not_found"


# -- the clock -----------------------------------------------------------------------------
def test_clock_advances_only_on_writes_and_ts_increase(gym: Gym, env: Env, run: Run) -> None:
    def now() -> int:
        with gym.store.session(env) as db:
            return clock.now_micros(db)

    start = now()
    channel = new_channel(run, "og-test-clock")
    stamps = [post(run, channel, f"tick {i}") for i in range(6)]
    assert all(is_ts(ts) and len(ts) == 17 for ts in stamps)
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    as_micros = [int(ts.replace(".", "")) for ts in stamps]
    assert as_micros[0] > start
    assert now() == as_micros[-1], "a message's ts is the env clock at the time it was posted"
    steps = [b - a for a, b in zip(as_micros, as_micros[1:])]
    assert all(2_000_000 <= step <= 11_000_000 for step in steps), steps

    before_reads = now()
    history(run, channel)
    run(lambda chat: chat.search_messages("tick"))
    run(lambda chat: chat.users_list())
    assert now() == before_reads, "reads do not move the clock"

    with pytest.raises(ChatError):
        run(lambda chat: chat.chat_post_message(channel, "z" * 40_001))
    assert now() == before_reads, "a failed write rolls back its clock tick too"


def test_messages_rows_match_shapes(gym: Gym, env: Env, run: Run, me: str) -> None:
    """The stored row is what the API reported (graders read rows, agents read shapes)."""
    channel = new_channel(run, "og-test-rows")
    ts = post(run, channel, "stored as sent")
    with gym.store.session(env) as db:
        row = db.get(Message, (channel, ts))
        assert row is not None
        assert (row.user_id, row.text, row.thread_ts, row.subtype) == (me, "stored as sent", None, None)
