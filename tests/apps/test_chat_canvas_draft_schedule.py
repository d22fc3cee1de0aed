"""The operations behind chat's second toolset, in process: canvases, drafts, scheduled
messages (and their delivery on the env clock), search kept to public channels, channel and
people search, posting to a person by user id."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from apps.chat.errors import ChatError
from apps.chat.models import User
from apps.chat.service import ChatService
from officegym.core import clock
from officegym.core.env_store import Env
from officegym.gym import Gym

Run = Callable[..., Any]


@pytest.fixture
def me(run: Run) -> str:
    return run(lambda chat: chat.actor_id)


@pytest.fixture
def colleague(gym: Gym, env: Env, me: str) -> User:
    with gym.store.session(env) as db:
        found = db.scalars(select(User).where(User.id != me, User.is_bot.is_(False), User.deleted.is_(False)).order_by(User.id)).first()
        db.expunge_all()
    assert found is not None
    return found


def code_of(run: Run, operation: Callable[[ChatService], Any], as_user: str | None = None) -> str:
    with pytest.raises(ChatError) as caught:
        run(operation, as_user)
    return caught.value.code


def now_s(run: Run) -> int:
    return run(lambda chat: clock.now_micros(chat.db)) // 1_000_000


def history(run: Run, channel: str, limit: int = 20) -> list[dict[str, Any]]:
    return run(lambda chat: chat.conversations_history(channel, limit=limit))["messages"]


# -- canvases -------------------------------------------------------------------------------
def test_canvas_create_read_edit(run: Run) -> None:
    made = run(lambda chat: chat.canvases_create(title="Launch plan", document_content={"type": "markdown", "markdown": "# Plan\n- ship"}))
    canvas = made["canvas_id"]
    assert canvas.startswith("F")
    read = run(lambda chat: chat.files_info(canvas))
    assert read["content"] == "# Plan\n- ship"
    assert read["file"]["title"] == "Launch plan" and read["file"]["pretty_type"] == "Canvas" and read["file"]["channels"] == []

    run(lambda chat: chat.canvases_edit(canvas, changes=json.dumps([{"operation": "insert_at_end", "document_content": {"type": "markdown", "markdown": "- celebrate"}}])))
    run(lambda chat: chat.canvases_edit(canvas, operation="insert_at_start", document_content="Draft v2"))
    run(lambda chat: chat.canvases_edit(canvas, title_content="Launch plan v2"))
    read = run(lambda chat: chat.files_info(canvas))
    assert read["content"] == "Draft v2\n# Plan\n- ship\n- celebrate"
    assert read["file"]["title"] == "Launch plan v2"

    run(lambda chat: chat.canvases_edit(canvas, document_content="Replaced", title_content="Final"))
    read = run(lambda chat: chat.files_info(canvas))
    assert (read["content"], read["file"]["title"]) == ("Replaced", "Final")


@pytest.mark.parametrize(("kwargs", "code"), [
    ({"changes": [{"operation": "delete", "section_id": "temp:C:abc"}]}, "canvas_editing_failed"),
    ({"changes": [{"operation": "explode"}]}, "invalid_arguments"),
    ({"changes": "not json"}, "invalid_arguments"),
    ({}, "invalid_arguments"),
    ({"changes": [{"operation": "replace"}]}, "invalid_arguments"),
    ({"document_content": {"type": "html", "html": "<p>"}}, "invalid_arguments"),
])
def test_canvas_edit_errors(run: Run, kwargs: dict[str, Any], code: str) -> None:
    canvas = run(lambda chat: chat.canvases_create(title="T", document_content="body"))["canvas_id"]
    assert code_of(run, lambda chat: chat.canvases_edit(canvas, **kwargs)) == code
    assert run(lambda chat: chat.files_info(canvas))["content"] == "body", "a failed edit changes nothing"


def test_canvas_visibility_follows_its_channel(run: Run, colleague: User) -> None:
    alone = run(lambda chat: chat.canvases_create(title="Mine", document_content="secret"))["canvas_id"]
    assert code_of(run, lambda chat: chat.files_info(alone), colleague.id) == "file_not_found"
    assert code_of(run, lambda chat: chat.canvases_edit(alone, document_content="x"), colleague.id) == "canvas_not_found"

    public = run(lambda chat: chat.conversations_create("canvas-public"))["channel"]["id"]
    shared = run(lambda chat: chat.conversations_canvases_create(public, document_content="hello team", title="Team"))["canvas_id"]
    assert run(lambda chat: chat.files_info(shared), colleague.id)["file"]["linked_channel_id"] == public
    assert code_of(run, lambda chat: chat.conversations_canvases_create(public)) == "channel_canvas_already_exists"

    private = run(lambda chat: chat.conversations_create("canvas-private", is_private=True))["channel"]["id"]
    hidden = run(lambda chat: chat.canvases_create(title="Hidden", document_content="x", channel_id=private))["canvas_id"]
    assert code_of(run, lambda chat: chat.files_info(hidden), colleague.id) == "file_not_found"
    assert code_of(run, lambda chat: chat.files_info("F0000NOPE00")) == "file_not_found"


# -- drafts ---------------------------------------------------------------------------------
def test_drafts_are_private_and_never_in_history(gym: Gym, env: Env, run: Run, colleague: User) -> None:
    channel = run(lambda chat: chat.conversations_create("drafts-lab"))["channel"]["id"]
    run(lambda chat: chat.conversations_invite(channel, colleague.id))
    gym.store.snapshot_start(env)
    draft = run(lambda chat: chat.drafts_create(channel, text="quasarwhale not sent yet"))["draft"]
    assert draft["id"].startswith("Dr") and draft["destinations"] == [{"channel_id": channel}]
    assert history(run, channel) == []
    assert run(lambda chat: chat.search_messages("quasarwhale"))["messages"]["total"] == 0
    assert [d["id"] for d in run(lambda chat: chat.drafts_list())["drafts"]] == [draft["id"]]
    assert run(lambda chat: chat.drafts_list(), colleague.id)["drafts"] == [], "only its author sees a draft"
    assert [c.table for c in gym.changes(env.id)] == [], "drafts are not company state"

    assert code_of(run, lambda chat: chat.drafts_create(channel, text="again")) == "draft_already_exists"
    parent = run(lambda chat: chat.chat_post_message(channel, text="root"))["ts"]
    in_thread = run(lambda chat: chat.drafts_create(channel, text="reply later", thread_ts=parent))["draft"]
    assert in_thread["destinations"] == [{"channel_id": channel, "thread_ts": parent, "broadcast": False}]

    assert code_of(run, lambda chat: chat.drafts_delete(draft["id"]), colleague.id) == "draft_not_found"
    run(lambda chat: chat.drafts_delete(draft["id"]))
    assert run(lambda chat: chat.drafts_create(channel, text="second try"))["draft"]["text"] == "second try"
    assert code_of(run, lambda chat: chat.drafts_create(channel)) == "no_text"


# -- scheduled messages -----------------------------------------------------------------------
def advance_past(run: Run, channel: str, moment: int) -> None:
    """Write until the env clock has passed `moment` (each write ticks it 2–11 s)."""
    for i in range(100):
        if now_s(run) > moment:
            return
        run(lambda chat: chat.conversations_set_topic(channel, f"tick {i}"))
    raise AssertionError("the clock did not move")


def test_scheduled_messages_are_posted_when_the_clock_reaches_them(run: Run, me: str) -> None:
    channel = run(lambda chat: chat.conversations_create("schedule-lab"))["channel"]["id"]
    start = now_s(run)
    later = run(lambda chat: chat.chat_schedule_message(channel, start + 40, text="second, scheduled first"))
    sooner = run(lambda chat: chat.chat_schedule_message(channel, start + 20, blocks=[{"type": "header", "text": {"type": "plain_text", "text": "first"}}]))
    assert later["post_at"] == str(start + 40) and later["scheduled_message_id"].startswith("Q")
    assert later["message"]["type"] == "delayed_message"
    listed = run(lambda chat: chat.chat_scheduled_messages_list(channel))["scheduled_messages"]
    assert [s["id"] for s in listed] == [sooner["scheduled_message_id"], later["scheduled_message_id"]]
    assert history(run, channel) == []

    advance_past(run, channel, start + 20)
    posted = history(run, channel)
    assert [(m["ts"], m["text"], m["user"]) for m in posted] == [(f"{start + 20:010d}.000000", "first", me)]
    assert posted[0]["blocks"][0]["type"] == "header"

    advance_past(run, channel, start + 40)
    assert [m["text"] for m in history(run, channel)] == ["second, scheduled first", "first"]
    assert run(lambda chat: chat.chat_scheduled_messages_list())["scheduled_messages"] == []


def test_a_scheduled_reply_lands_in_its_thread_and_a_cancelled_one_never_does(run: Run) -> None:
    channel = run(lambda chat: chat.conversations_create("schedule-thread"))["channel"]["id"]
    parent = run(lambda chat: chat.chat_post_message(channel, text="root"))["ts"]
    start = now_s(run)
    run(lambda chat: chat.chat_schedule_message(channel, start + 15, text="scheduled reply", thread_ts=parent))
    cancelled = run(lambda chat: chat.chat_schedule_message(channel, start + 16, text="never"))["scheduled_message_id"]
    assert run(lambda chat: chat.chat_delete_scheduled_message(channel, cancelled)) == {}
    assert code_of(run, lambda chat: chat.chat_delete_scheduled_message(channel, cancelled)) == "invalid_scheduled_message_id"
    advance_past(run, channel, start + 16)
    replies = run(lambda chat: chat.conversations_replies(channel, parent))["messages"]
    assert [m["text"] for m in replies] == ["root", "scheduled reply"]
    assert [m["text"] for m in history(run, channel)] == ["root"]


def test_messages_scheduled_for_an_archived_channel_are_dropped(run: Run) -> None:
    channel = run(lambda chat: chat.conversations_create("schedule-archive"))["channel"]["id"]
    start = now_s(run)
    run(lambda chat: chat.chat_schedule_message(channel, start + 12, text="too late"))
    run(lambda chat: chat.conversations_archive(channel))
    other = run(lambda chat: chat.conversations_create("schedule-other"))["channel"]["id"]
    advance_past(run, other, start + 12)
    assert history(run, channel) == []
    assert run(lambda chat: chat.chat_scheduled_messages_list())["scheduled_messages"] == []


@pytest.mark.parametrize(("offset", "code"), [(0, "time_in_past"), (-3600, "time_in_past"), (121 * 86_400, "time_too_far")])
def test_schedule_times_are_checked(run: Run, offset: int, code: str) -> None:
    channel = run(lambda chat: chat.conversations_create("schedule-times"))["channel"]["id"]
    moment = now_s(run) + offset
    assert code_of(run, lambda chat: chat.chat_schedule_message(channel, moment, text="x")) == code


def test_scheduled_messages_are_company_state(gym: Gym, env: Env, run: Run) -> None:
    channel = run(lambda chat: chat.conversations_create("schedule-state"))["channel"]["id"]
    gym.store.snapshot_start(env)
    moment = now_s(run) + 60
    run(lambda chat: chat.chat_schedule_message(channel, moment, text="later"))
    assert [c.table for c in gym.changes(env.id)] == ["chat_scheduled_messages"]


# -- search and finding things ------------------------------------------------------------------
def test_search_kept_to_public_channels(run: Run, colleague: User) -> None:
    public = run(lambda chat: chat.conversations_create("search-public"))["channel"]["id"]
    private = run(lambda chat: chat.conversations_create("search-private", is_private=True))["channel"]["id"]
    run(lambda chat: chat.chat_post_message(public, text="marmoset report public"))
    run(lambda chat: chat.chat_post_message(private, text="marmoset report private"))
    run(lambda chat: chat.chat_post_message(colleague.id, text="marmoset report dm"))

    def found(types: str | None) -> set[str]:
        matches = run(lambda chat: chat.search_messages("marmoset", channel_types=types))["messages"]["matches"]
        return {m["text"].rsplit(" ", 1)[1] for m in matches}

    assert found("public_channel") == {"public"}
    assert found("public_channel,private_channel,mpim,im") == {"public", "private", "dm"}
    assert found(None) == {"public", "private", "dm"}
    assert code_of(run, lambda chat: chat.search_messages("marmoset", channel_types="galaxy")) == "invalid_types"


def test_channel_and_people_search(run: Run, colleague: User) -> None:
    channel = run(lambda chat: chat.conversations_create("zeta-renewals"))["channel"]["id"]
    run(lambda chat: chat.conversations_set_topic(channel, "Quarterly numbers for Zeta"))

    def channels(query: str) -> list[str]:
        return [c["id"] for c in run(lambda chat: chat.conversations_list(query=query, limit=1000))["channels"]]

    assert channel in channels("renewals") and channel in channels("QUARTERLY zeta")
    assert channels("zeta nothing-like-this") == []
    assert channels("100%_") == [], "LIKE wildcards are taken literally"

    first_name = colleague.real_name.split()[0]
    people = run(lambda chat: chat.users_list(query=first_name.lower(), limit=1000))["members"]
    assert colleague.id in [p["id"] for p in people]
    assert all(first_name.lower() in json.dumps(p).lower() for p in people)
    assert run(lambda chat: chat.users_list(query="no-such-person-zz"))["members"] == []


def test_users_info_without_a_user_is_you(run: Run, me: str) -> None:
    assert run(lambda chat: chat.users_info())["user"]["id"] == me


def test_posting_to_a_user_id_opens_your_dm_with_them(run: Run, colleague: User) -> None:
    posted = run(lambda chat: chat.chat_post_message(colleague.id, text="hello directly"))
    dm = run(lambda chat: chat.conversations_open(colleague.id))["channel"]["id"]
    assert posted["channel"] == dm and dm.startswith("D")
    assert history(run, dm)[0]["text"] == "hello directly"
    assert code_of(run, lambda chat: chat.chat_post_message("U0000NOPE00", text="x")) == "channel_not_found"
