"""The chat service's first statement also reads the env clock into the transaction's meta
cache (apps/chat/queries.py ACTOR_SOONEST_AND_CLOCK): a post's tick and the event log's stamp
then read no more. These prove the kept values are never stale: a clock moved earlier in the
same transaction, by another service or by the clock itself, is the one the next post ticks
from, and a transaction that rolls back leaves nothing behind for the next."""

from __future__ import annotations

import pytest

from apps.chat.ids import ts_from_micros
from apps.chat.service import ChatService
from officegym.core import clock
from officegym.core.db import meta_cache
from officegym.core.env_store import Env
from officegym.gym import Gym


def _now(gym: Gym, env: Env) -> int:
    with gym.store.session(env, reading=True) as db:
        return clock.now_micros(db)


def test_a_post_ticks_from_the_clock_as_moved_earlier_in_its_transaction(gym: Gym, env: Env) -> None:
    with gym.store.session(env) as db:
        first = ChatService(db).chat_post_message("#general", "first")["ts"]
        moved = clock.tick(db)  # the clock moves after the first service read it
        assert ts_from_micros(moved) > first
        second = ChatService(db).chat_post_message("#general", "second")["ts"]  # a new service reads the clock again
        assert second > ts_from_micros(moved), "the second post's ts comes after the tick its service did not see happen"
        after = clock.now_micros(db)
    assert ts_from_micros(after) == second
    assert _now(gym, env) == after, "what the transaction wrote is the env's clock"


def test_the_clock_moved_by_a_jump_is_the_one_a_post_ticks_from(gym: Gym, env: Env) -> None:
    """`clock.advance` (the control plane's clock call) moves time in its own transaction: the
    next service reads the new time, not one kept from before."""
    before = _now(gym, env)
    with gym.store.session(env) as db:
        clock.advance(db, seconds=86_400)
    with gym.store.session(env) as db:
        ts = ChatService(db).chat_post_message("#general", "a day later")["ts"]
    assert ts > ts_from_micros(before + 86_400 * 1_000_000)


def test_a_rolled_back_post_leaves_no_clock_behind(gym: Gym, env: Env) -> None:
    before = _now(gym, env)
    with pytest.raises(RuntimeError), gym.store.session(env) as db:
        ChatService(db).chat_post_message("#general", "never kept")
        assert meta_cache(db)["clock_us"] != str(before), "the post ticked the clock kept in the transaction"
        raise RuntimeError("the operation fails after posting")
    assert _now(gym, env) == before
    with gym.store.session(env) as db:
        chat = ChatService(db)
        assert meta_cache(db)["clock_us"] == str(before), "the next transaction reads the clock anew"
        kept = chat.chat_post_message("#general", "kept")["ts"]
    assert kept > ts_from_micros(before)
    with gym.store.session(env, reading=True) as db:
        texts = [m["text"] for m in ChatService(db).conversations_history("#general", limit=2)["messages"]]
    assert texts[0] == "kept" and "never kept" not in texts
