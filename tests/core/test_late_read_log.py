"""Reads are logged late: an MCP read's event row waits in the env's record and is written at
the start of the env's next transaction that is not a read. The log must read exactly as if
every row had been written at once: in call order, whoever looks and whenever, surviving a
failed write's rollback and a clean shutdown, and bounded in what it keeps waiting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from officegym import apps
from officegym.core.env_store import MAX_LATE_ROWS, Env
from officegym.core.errors import AppError
from officegym.core.ops import invoke
from officegym.gym import Gym

CHAT = apps.get("chat").operations


def read(gym: Gym, env: Env, limit: int = 3) -> None:
    op = CHAT["conversations.history"]
    invoke(gym.store, env, CHAT, op, {"channel": "#general", "limit": limit}, face="mcp", tool="slack_get_channel_history", log_reads=True)


def post(gym: Gym, env: Env, text: str, channel: str = "#general") -> None:
    invoke(gym.store, env, CHAT, CHAT["chat.postMessage"], {"channel": channel, "text": text}, face="mcp", tool="slack_post_message")


def logged(gym: Gym, env: Env) -> list[tuple[str, Any]]:
    return [(e["operation"], e["args"].get("limit") or e["args"].get("text")) for e in gym.events(env.id)]


def test_reads_and_writes_are_logged_in_call_order(gym: Gym, env: Env) -> None:
    read(gym, env, 1)
    read(gym, env, 2)
    post(gym, env, "first")
    read(gym, env, 3)
    assert logged(gym, env) == [("conversations.history", 1), ("conversations.history", 2), ("chat.postMessage", "first"),
                                ("conversations.history", 3)]
    read(gym, env, 4)  # asked again: what came after the last look is there too, once
    assert logged(gym, env)[-2:] == [("conversations.history", 3), ("conversations.history", 4)]
    stamps = [e["at"] for e in gym.events(env.id)]
    assert stamps == sorted(stamps), "each row keeps the env clock of its own call"


def test_a_failed_write_keeps_the_reads_before_it(gym: Gym, env: Env) -> None:
    read(gym, env, 1)
    with pytest.raises(AppError):
        post(gym, env, "nowhere", channel="#no-such-channel")  # rolls back its transaction, rows written at its start included
    assert logged(gym, env) == [("conversations.history", 1), ("chat.postMessage", "nowhere")]
    assert gym.events(env.id)[-1]["is_error"] is True


def test_a_grade_diff_and_dump_see_the_reads(gym: Gym, env: Env) -> None:
    read(gym, env, 5)
    assert any(change.table == "og_events" for change in gym.store.diff(env))
    before = gym.store.dump(env)
    read(gym, env, 6)
    after = gym.store.dump(env)
    assert after.count("slack_get_channel_history") == before.count("slack_get_channel_history") + 1
    assert [limit for _, limit in logged(gym, env)] == [5, 6]


def test_nothing_waits_across_envs(gym: Gym, env: Env) -> None:
    other = gym.create()
    try:
        read(gym, env, 7)
        post(gym, other, "elsewhere")
        assert logged(gym, other) == [("chat.postMessage", "elsewhere")]
        assert logged(gym, env) == [("conversations.history", 7)]
    finally:
        gym.delete(other.id)


def test_waiting_rows_are_bounded_and_written_at_shutdown(tmp_path: Path) -> None:
    # Another store over the same envs (a second process) sees only what was written.
    first = Gym(envs_dir=tmp_path, db_url=f"sqlite:///{tmp_path}")
    env = first.create()
    read(first, env, 1)
    second = Gym(envs_dir=tmp_path, db_url=f"sqlite:///{tmp_path}")
    try:
        assert second.events(env.id) == [], "one read waits"
        for limit in range(2, MAX_LATE_ROWS + 2):
            read(first, env, limit)
        seen = len(second.events(env.id))
        assert MAX_LATE_ROWS <= seen <= MAX_LATE_ROWS + 1, "past the bound, a read writes the waiting rows itself"
        read(first, env, 99)
        first.close()  # a clean shutdown writes what still waits
        assert [limit for _, limit in logged(second, env)] == [*range(1, MAX_LATE_ROWS + 2), 99]
    finally:
        second.close()
