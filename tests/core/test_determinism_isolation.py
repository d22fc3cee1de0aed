"""Determinism and isolation, the two promises every rollout relies on.

Deterministic: the same (seed, size) and the same sequence of calls give the same database,
row for row, including the event log and the env clock. Isolated: nothing one env does is
visible in another env or in the template it was copied from. Envs are compared by their
logical dump (`store.dump`), so these tests hold on whichever backend the suite runs on.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apps.chat.service import ChatService
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from officegym.core.backend.base import logical_dump
from officegym.core.env_store import Env
from officegym.core.errors import EnvNotFound
from apps.chat.operations import OPERATIONS
from officegym.core.ops import invoke
from officegym.gym import Gym


def dump(path: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def template_dump(path: Path) -> str:
    """The logical dump of a template file (comparable with any env's, on any backend)."""
    engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(f"file:{path}?immutable=1", uri=True))
    try:
        with Session(engine) as db:
            tables = [r[0] for r in db.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'"))]
            return logical_dump(db, tables)
    finally:
        engine.dispose()


def count(gym: Gym, env: Env, sql: str) -> int:
    with gym.store.session(env) as db:
        return db.execute(text(sql)).scalar_one()


@pytest.fixture
def two_envs(gym: Gym) -> Iterator[tuple[Env, Env]]:
    a, b = gym.create(seed=0), gym.create(seed=0)
    yield a, b
    for env in (a, b):
        try:
            gym.delete(env.id)
        except EnvNotFound:
            pass


def first_public_channel(gym: Gym, env: Env) -> str:
    with gym.store.session(env) as db:
        return ChatService(db).conversations_list(limit=1)["channels"][0]["id"]


# -- determinism ---------------------------------------------------------------------------
def test_two_envs_from_the_same_seed_are_identical(gym: Gym, two_envs: tuple[Env, Env]) -> None:
    a, b = two_envs
    dumped = gym.store.dump(a)
    assert dumped.count("\n") > 100, "the template holds a seeded company"
    assert dumped == gym.store.dump(b)
    assert dumped == template_dump(gym.template(0).path)


def _scenario(gym: Gym, env: Env, face: str) -> None:
    """A little rollout through `invoke` (what every face calls): writes, reads, an error."""

    def call(operation: str, **args: Any) -> None:
        try:
            invoke(gym.store, env, OPERATIONS, OPERATIONS[operation], args, face=face, tool=operation, log_reads=True)
        except Exception as error:  # noqa: BLE001  (errors are part of the trajectory)
            assert getattr(error, "code", None), f"unexpected crash: {error!r}"

    channel = first_public_channel(gym, env)
    call("conversations.create", name="det-room")
    call("chat.postMessage", channel="#det-room", text="hello")
    call("chat.postMessage", channel=channel, text="top level")
    call("conversations.history", channel=channel, limit=3)
    with gym.store.session(env) as db:
        parent = ChatService(db).conversations_history("#det-room")["messages"][0]["ts"]
    call("chat.postMessage", channel="#det-room", text="in thread", thread_ts=parent)
    call("reactions.add", channel="#det-room", timestamp=parent, name="tada")
    call("reactions.add", channel="#det-room", timestamp=parent, name="tada")  # already_reacted
    call("pins.add", channel="#det-room", timestamp=parent)
    call("chat.update", channel="#det-room", ts=parent, text="hello, edited")
    call("search.messages", query="hello")


def test_same_calls_in_two_envs_give_identical_databases(gym: Gym, two_envs: tuple[Env, Env]) -> None:
    a, b = two_envs
    _scenario(gym, a, "mcp")
    _scenario(gym, b, "mcp")
    dumped = gym.store.dump(a)
    assert dumped == gym.store.dump(b), "ids, ts, clock and event log must all be the same"
    assert dumped != template_dump(gym.template(0).path)
    events_a, events_b = gym.events(a.id), gym.events(b.id)
    assert events_a == events_b
    assert [e["operation"] for e in events_a] == [
        "conversations.create", "chat.postMessage", "chat.postMessage", "conversations.history", "chat.postMessage",
        "reactions.add", "reactions.add", "pins.add", "chat.update", "search.messages",
    ]
    assert [e["is_error"] for e in events_a].count(True) == 1
    times = [e["at"] for e in events_a]
    assert times == sorted(times)


async def test_same_mcp_calls_in_two_envs_give_identical_databases(gym: Gym, two_envs: tuple[Env, Env]) -> None:
    for env in two_envs:
        async with gym.mcp_client(env.id, "chat") as client:
            listed = json.loads((await client.call_tool("slack_list_channels", {"limit": 5})).content[0].text)
            channel = listed["channels"][0]["id"]
            posted = json.loads((await client.call_tool("slack_post_message", {"channel_id": channel, "text": "same"})).content[0].text)
            await client.call_tool("slack_reply_to_thread", {"channel_id": channel, "thread_ts": posted["ts"], "text": "same reply"})
            await client.call_tool("slack_add_reaction", {"channel_id": channel, "timestamp": posted["ts"], "reaction": "eyes"})
            await client.call_tool("slack_get_channel_history", {"channel_id": "C0000NOPE00"})  # an error, logged too
    a, b = two_envs
    assert gym.store.dump(a) == gym.store.dump(b)
    assert len(gym.events(a.id)) == 5


@pytest.fixture(scope="module")
def fresh_cache_gym(gym: Gym, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gym]:
    """A gym with an empty template cache (templates are built from scratch here), on the
    session gym's backend."""
    instance = Gym(
        envs_dir=tmp_path_factory.mktemp("envs-fresh"), cache_dir=tmp_path_factory.mktemp("cache-fresh"),
        db_url=getattr(gym.store.backend, "url", None),
    )
    yield instance
    instance.close()


def content(path: Path) -> tuple[list[str], list[str]]:
    """(schema statements, sorted; every row, in order). The order of CREATE INDEX statements
    is left out on purpose: SQLAlchemy emits a table's indexes in set order, which varies
    from process to process (reported; the rows must match exactly regardless)."""
    lines = dump(path)
    rows = [line for line in lines if line.startswith("INSERT")]
    schema = sorted(line for line in lines if not line.startswith("INSERT"))
    return schema, rows


def test_a_template_rebuilt_from_scratch_is_identical(gym: Gym, fresh_cache_gym: Gym) -> None:
    rebuilt = fresh_cache_gym.template(0)
    cached = gym.template(0)
    assert rebuilt.path != cached.path
    schema, rows = content(rebuilt.path)
    assert len(rows) > 100
    assert (schema, rows) == content(cached.path), (
        "same (generator version, seed, size), different company: a generator change without a version bump, "
        "or randomness that is not seeded"
    )
    assert rebuilt.company == cached.company


def test_another_seed_is_another_company(gym: Gym, fresh_cache_gym: Gym) -> None:
    one, zero = fresh_cache_gym.template(1), gym.template(0)
    assert dump(one.path) != dump(zero.path)
    names = "SELECT group_concat(real_name, '|') FROM (SELECT real_name FROM chat_users ORDER BY real_name)"
    conn0, conn1 = (sqlite3.connect(p) for p in (zero.path, one.path))
    try:
        assert conn0.execute(names).fetchone() != conn1.execute(names).fetchone(), "different people"
    finally:
        conn0.close()
        conn1.close()
    env = fresh_cache_gym.create(seed=1)
    assert (env.seed, env.size) == (1, "small")
    assert fresh_cache_gym.store.dump(env) == template_dump(one.path)


# -- isolation -----------------------------------------------------------------------------
def test_a_post_in_one_env_is_invisible_elsewhere(gym: Gym, two_envs: tuple[Env, Env]) -> None:
    a, b = two_envs
    channel = first_public_channel(gym, a)
    with gym.store.session(a) as db:
        ChatService(db).chat_post_message(channel, "only in env A: xyzzy-isolation")
    find = "SELECT count(*) FROM chat_messages WHERE text LIKE '%xyzzy-isolation%'"
    assert count(gym, a, find) == 1
    assert count(gym, b, find) == 0
    assert "xyzzy-isolation" not in template_dump(gym.template(0).path)
    with gym.store.session(b) as db:
        assert ChatService(db).search_messages("xyzzy-isolation")["messages"]["total"] == 0
    assert gym.events(b.id) == []


def test_deleting_one_env_leaves_the_other_working(gym: Gym, two_envs: tuple[Env, Env]) -> None:
    a, b = two_envs
    gym.delete(a.id)
    assert not gym.store.backend.exists(a.handle)
    with pytest.raises(EnvNotFound):
        gym.get(a.id)
    channel = first_public_channel(gym, b)
    with gym.store.session(b) as db:
        ts = ChatService(db).chat_post_message(channel, "still here")["ts"]
    with gym.store.session(b) as db:
        assert ChatService(db).conversations_history(channel, limit=1)["messages"][0]["ts"] == ts
    assert gym.template(0).path.exists()


def test_env_ids_are_unguessable(gym: Gym) -> None:
    envs = [gym.create() for _ in range(20)]
    try:
        ids = [e.id for e in envs]
        assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
        assert len(set(ids)) == len(ids)
        assert len({i[:8] for i in ids}) == len(ids), "no shared prefix or counter"
    finally:
        for env in envs:
            gym.delete(env.id)


def test_templates_built_in_separate_processes_are_byte_identical(tmp_path) -> None:
    """Same seed → the same file, byte for byte, whatever the process's hash seed (set and
    dict orders differ between processes; nothing in a template may depend on them)."""
    import hashlib
    import os
    import subprocess
    import sys

    digests = []
    for hash_seed in ("1", "2"):
        cache = tmp_path / f"cache{hash_seed}"
        script = (
            "import sys; from pathlib import Path; from officegym.templates import ensure_template; "
            "print(ensure_template(Path(sys.argv[1]), 0, 'small').path)"
        )
        done = subprocess.run(
            [sys.executable, "-c", script, str(cache)], capture_output=True, text=True, timeout=120,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert done.returncode == 0, done.stderr
        digests.append(hashlib.sha256(open(done.stdout.strip(), "rb").read()).hexdigest())
    assert digests[0] == digests[1]
