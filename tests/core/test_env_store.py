"""EnvStore on both backends: envs are isolated copies of a template, addressed by
unguessable ids, persisted in a registry, locked one operation at a time, and expired when
idle. These tests use a tiny template (the schema, one meta row), not a company."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import delete, update

from officegym.core.db import Meta, get_meta, set_meta
from officegym.core.env_store import Env, EnvStore
from officegym.core.errors import EnvNotFound


def marker(store: EnvStore, env: Env) -> str | None:
    with store.session(env) as db:
        return get_meta(db, "marker")


def write(store: EnvStore, env: Env, value: str, key: str = "marker") -> None:
    with store.session(env) as db:
        set_meta(db, key, value)


def test_create_get_list_delete(store: EnvStore, tiny_template: Path) -> None:
    a = store.create(tiny_template, seed=0, size="small")
    b = store.create(tiny_template, seed=3, size="small", task_id="chat/x-v1", variant=2, toolset="official")
    assert re.fullmatch(r"[0-9a-f]{32}", a.id) and re.fullmatch(r"[0-9a-f]{32}", b.id) and a.id != b.id
    assert a.id not in a.handle and a.id not in b.handle, "where an env lives says nothing of its id"
    assert store.get(a.id) is a and store.get(b.id) is b
    assert {e.id for e in store.list()} == {a.id, b.id}
    assert (b.seed, b.size, b.task_id, b.variant, b.toolset) == (3, "small", "chat/x-v1", 2, "official")

    write(store, a, "changed in a")
    assert marker(store, a) == "changed in a"
    assert marker(store, b) == "template", "envs never share state"
    assert marker(store, store.create(tiny_template, seed=0, size="small")) == "template", "the template is never written"

    store.delete(a.id)
    assert not store.backend.exists(a.handle)
    with pytest.raises(EnvNotFound):
        store.get(a.id)
    with pytest.raises(EnvNotFound):
        store.delete(a.id)
    with pytest.raises(EnvNotFound):
        marker(store, a)
    assert a.id not in {e.id for e in store.list()}
    assert marker(store, b) == "template"


@pytest.mark.parametrize(
    "bad_id",
    ["", "../x", "../../etc/passwd", "x", "0" * 31, "0" * 33, "A" * 32, "g" * 32, "0" * 32, "0" * 32 + "\n",
     "00000000-0000-0000-0000-000000000000", None, 12],
)
def test_unknown_and_malformed_ids_are_not_found(store: EnvStore, tiny_template: Path, bad_id: object) -> None:
    store.create(tiny_template, seed=0, size="small")
    with pytest.raises(EnvNotFound):
        store.get(bad_id)  # type: ignore[arg-type]
    with pytest.raises(EnvNotFound):
        store.delete(bad_id)  # type: ignore[arg-type]


def test_ids_are_case_sensitive_capabilities(store: EnvStore, tiny_template: Path) -> None:
    env = store.create(tiny_template, seed=0, size="small")
    for wrong in (env.id.upper(), env.id + "/", " " + env.id):
        if wrong != env.id:
            with pytest.raises(EnvNotFound):
                store.get(wrong)


def test_failed_operation_rolls_back(store: EnvStore, tiny_template: Path) -> None:
    env = store.create(tiny_template, seed=0, size="small")
    with pytest.raises(RuntimeError):
        with store.session(env) as db:
            set_meta(db, "marker", "half written")
            raise RuntimeError("boom")
    assert marker(store, env) == "template"


def test_snapshot_start_freezes_state_for_the_diff(store: EnvStore, tiny_template: Path) -> None:
    env = store.create(tiny_template, seed=0, size="small")
    write(store, env, "after setup")
    write(store, env, "also the setup's", key="deleted by the agent")
    store.snapshot_start(env)
    assert [(c.table, c.key) for c in store.diff(env)] == [], "the setup is the start"
    write(store, env, "after the agent")
    write(store, env, "written by the agent only", key="new")
    with store.session(env) as db:
        db.execute(delete(Meta).where(Meta.key == "deleted by the agent"))
    changes = {(c.table, c.key): c for c in store.diff(env)}
    assert {key: c.change for key, c in changes.items()} == {
        ("og_meta", "marker"): "update", ("og_meta", "new"): "insert", ("og_meta", "deleted by the agent"): "delete"}
    marker_change = changes[("og_meta", "marker")]
    assert (marker_change.before["value"], marker_change.after["value"]) == ("after setup", "after the agent")
    assert changes[("og_meta", "deleted by the agent")].before["value"] == "also the setup's"
    store.delete(env.id)
    assert not store.backend.exists(env.handle)


def test_an_env_after_a_setup_env_starts_clean(store: EnvStore, tiny_template: Path) -> None:
    """A setup's start state never outlives its env: the next env (on SQLite, often the same
    file, recycled) starts at the template and diffs against it."""
    for round_ in range(3):
        env = store.create(tiny_template, seed=0, size="small")
        assert marker(store, env) == "template", f"round {round_}: the previous env's setup leaked into a new env"
        assert store.diff(env) == []
        write(store, env, f"setup {round_}")
        store.snapshot_start(env)
        assert store.diff(env) == []
        store.delete(env.id)
    bare = store.create(tiny_template, seed=0, size="small")
    write(store, bare, "the agent's")
    (change,) = store.diff(bare)
    assert (change.key, change.change, change.before["value"], change.after["value"]) == ("marker", "update", "template", "the agent's")
    store.delete(bare.id)


def test_a_new_store_sees_every_env_and_its_writes(tmp_path: Path, backend_url: str | None, tiny_template: Path) -> None:
    first = EnvStore(tmp_path / "envs", db_url=backend_url)
    kept = first.create(tiny_template, seed=4, size="small", task_id="chat/t-v1", variant=7, toolset="official")
    gone = first.create(tiny_template, seed=0, size="small")
    write(first, kept, "before the restart")
    first.snapshot_start(kept)
    write(first, kept, "after the snapshot")
    first.delete(gone.id)
    first.close()  # closing keeps the envs

    second = EnvStore(tmp_path / "envs", db_url=backend_url)
    try:
        assert [e.id for e in second.list()] == [kept.id]
        again = second.get(kept.id)
        assert (again.seed, again.task_id, again.variant, again.toolset, again.start) == (4, "chat/t-v1", 7, "official", kept.start)
        assert again.task is None, "the task instance is never persisted: the Gym re-samples it"
        assert marker(second, again) == "after the snapshot"
        assert [(c.key, c.after["value"]) for c in second.diff(again)] == [("marker", "after the snapshot")]
        with pytest.raises(EnvNotFound):
            second.get(gone.id)
        second.purge()
        assert second.list() == []
    finally:
        second.close()


def test_idle_envs_expire(tmp_path: Path, backend_url: str | None, tiny_template: Path) -> None:
    store = EnvStore(tmp_path / "envs", db_url=backend_url, ttl=3600)
    try:
        idle, busy = store.create(tiny_template, 0, "small"), store.create(tiny_template, 0, "small")
        assert store.expire_idle() == []
        later = time.time() + 3 * 3600
        write(store, busy, "still working")
        busy.last_used = later  # used just before the sweep
        assert store.expire_idle(now=later + 1) == [idle.id]
        assert not store.backend.exists(idle.handle)
        with pytest.raises(EnvNotFound):
            store.get(idle.id)
        assert store.get(busy.id) is busy

        long_ago = time.time() - 7200  # lazily: looked up after the TTL, here and in the registry
        busy.last_used = busy.flushed = long_ago
        registry = store.backend.registry
        with registry.engine.begin() as conn:
            conn.execute(update(registry.table).where(registry.table.c.id == busy.id).values(last_used=long_ago))
        with pytest.raises(EnvNotFound):
            store.get(busy.id)
        assert store.list() == []
    finally:
        store.close()


def test_a_session_nested_in_the_same_env_fails_instead_of_deadlocking(store: EnvStore, tiny_template: Path) -> None:
    env = store.create(tiny_template, seed=0, size="small")
    other = store.create(tiny_template, seed=0, size="small")
    with store.session(env):
        with store.session(other) as db:  # another env is fine
            set_meta(db, "marker", "other")
        with pytest.raises(RuntimeError, match="deadlock"):
            with store.session(env):
                pass
    assert marker(store, other) == "other"


def test_a_delete_waits_for_the_write_in_flight(store: EnvStore, tiny_template: Path) -> None:
    env = store.create(tiny_template, seed=0, size="small")
    inside, outcome = threading.Event(), {}

    def slow_write() -> None:
        with store.session(env) as db:
            set_meta(db, "marker", "slow")
            inside.set()
            time.sleep(0.3)
        outcome["write"] = "committed"

    writer = threading.Thread(target=slow_write)
    writer.start()
    inside.wait(5)
    store.delete(env.id)  # blocks until the write commits, then deletes
    writer.join(5)
    assert outcome == {"write": "committed"}
    with pytest.raises(EnvNotFound):
        marker(store, env)


def test_open_connections_stay_bounded_while_every_env_stays_usable(store: EnvStore, tiny_template: Path) -> None:
    if store.backend_name != "sqlite":
        pytest.skip("PostgreSQL envs share one bounded pool of connections; nothing per env stays open")
    envs = [store.create(tiny_template, seed=0, size="small") for _ in range(12)]
    for i, env in enumerate(envs):
        write(store, env, f"env {i}")
        assert store.open_engines() <= 4
    for _ in range(2):  # every env, evicted or not, still reads back its own writes
        for i, env in enumerate(envs):
            assert marker(store, env) == f"env {i}"
            assert store.open_engines() <= 4


@pytest.mark.parametrize("recycled", [True, False], ids=["file-recycled", "file-unlinked"])
def test_an_env_another_process_deleted_is_not_found(
    tmp_path: Path, backend_url: str | None, tiny_template: Path, recycled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether the deleting process recycles the file for its next env or unlinks it (while
    `here` keeps it open), a session of the old env is refused."""
    if not recycled:
        monkeypatch.setattr("officegym.core.backend.sqlite.MAX_RECYCLED", 0)
    here, there = EnvStore(tmp_path / "envs", db_url=backend_url), EnvStore(tmp_path / "envs", db_url=backend_url)
    try:
        env = here.create(tiny_template, seed=0, size="small")
        write(here, env, "seen by both")  # `here` keeps a connection to it open
        assert marker(there, there.get(env.id)) == "seen by both"
        there.delete(env.id)
        with pytest.raises(EnvNotFound):
            write(here, env, "must not be acknowledged")
        with pytest.raises(EnvNotFound):
            here.get(env.id)
    finally:
        here.close()
        there.close()


def test_a_recycled_database_is_the_template_again(store: EnvStore, tiny_template: Path) -> None:
    """PostgreSQL recycles a deleted env's database into the pool: renamed, reset to the
    template (foreign-key neighbours and the setup snapshot included) and indistinguishable
    from a fresh copy."""
    if store.backend_name != "postgresql":
        pytest.skip("SQLite deletes a file; there is nothing to recycle")
    from apps.chat.models import Channel

    backend = store.backend
    backend.warm = 0  # the pool then only ever holds recycled databases
    reference = store.dump(store.create(tiny_template, seed=0, size="small"))
    env = store.create(tiny_template, seed=0, size="small")
    with store.session(env) as db:
        db.add(Channel(id="C1", name="setup-room", created=1, creator="U1"))
    store.snapshot_start(env)
    write(store, env, "after the setup")
    store.delete(env.id)
    deadline = time.monotonic() + 60
    while backend.pooled(tiny_template) < 1:
        assert time.monotonic() < deadline, "the deleted env was never recycled"
        time.sleep(0.05)
    again = store.create(tiny_template, seed=0, size="small")
    assert again.handle != env.handle, "renamed: a session of the deleted env can never reach it"
    assert store.dump(again) == reference
    assert store.diff(again) == []
    write(store, again, "new owner")
    assert [(c.key, c.after["value"]) for c in store.diff(again)] == [("marker", "new owner")]


def test_a_failed_operation_rolls_back_and_the_env_goes_on_on_its_kept_connection(store: EnvStore, tiny_template: Path) -> None:
    """Between transactions an env keeps its connection (backend/held.py): a transaction
    that fails rolls back everything it wrote, and the next one, on the same connection,
    sees none of it and commits normally; a deleted env keeps nothing open."""
    env = store.create(tiny_template, seed=0, size="small")
    write(store, env, "committed")
    opened = store.open_engines()
    with pytest.raises(ZeroDivisionError):
        with store.session(env) as db:
            set_meta(db, "marker", "rolled back")
            db.add(Meta(key="half-written", value="x"))
            db.flush()
            1 / 0
    assert marker(store, env) == "committed"
    with store.session(env) as db:
        assert get_meta(db, "half-written") is None
    write(store, env, "after the failure")
    assert marker(store, env) == "after the failure"
    assert store.open_engines() == opened, "the failure cost no connection and opened none"
    store.delete(env.id)
    assert env.handle not in store.backend.held.handles(), "a deleted env keeps no connection"
