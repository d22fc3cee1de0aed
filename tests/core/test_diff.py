"""The store's diff on both backends: it reports exactly the rows that differ from the start
state, whatever path the writes took (upserts, key changes, undone edits, rollbacks)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from officegym.core.db import set_meta
from officegym.core.env_store import Env, EnvStore


def run(store: EnvStore, env: Env, *statements: str) -> None:
    with store.session(env) as db:
        for statement in statements:
            db.execute(text(statement))


def summary(store: EnvStore, env: Env) -> list[tuple[str, str, str]]:
    return [(c.table, c.key, c.describe()) for c in store.diff(env)]


@pytest.fixture
def env(store: EnvStore, tiny_template: Path) -> Env:
    return store.create(tiny_template, seed=0, size="small")


def test_inserts_updates_deletes_and_key_changes(store: EnvStore, env: Env) -> None:
    run(store, env, "INSERT INTO og_meta (key, value) VALUES ('a', '1'), ('b', '2'), ('c', '3')")
    store.snapshot_start(env)  # a, b and c are now part of the start
    with store.session(env) as db:
        set_meta(db, "a", "1 changed")  # an upsert that updates
        set_meta(db, "d", "4")  # an upsert that inserts
    run(store, env, "DELETE FROM og_meta WHERE key = 'b'", "UPDATE og_meta SET key = 'c2' WHERE key = 'c'")
    assert summary(store, env) == [
        ("og_meta", "a", "update (value)"),
        ("og_meta", "b", "delete"),
        ("og_meta", "c", "delete"),
        ("og_meta", "c2", "insert"),
        ("og_meta", "d", "insert"),
    ]
    (update,) = [c for c in store.diff(env) if c.key == "a"]
    assert (update.before, update.after) == ({"key": "a", "value": "1"}, {"key": "a", "value": "1 changed"})


def test_undone_changes_and_rollbacks_are_no_change(store: EnvStore, env: Env) -> None:
    run(store, env, "INSERT INTO og_meta (key, value) VALUES ('keep', 'x')")
    store.snapshot_start(env)
    run(store, env, "UPDATE og_meta SET value = 'y' WHERE key = 'keep'", "UPDATE og_meta SET value = 'x' WHERE key = 'keep'")
    run(store, env, "DELETE FROM og_meta WHERE key = 'keep'", "INSERT INTO og_meta (key, value) VALUES ('keep', 'x')")
    run(store, env, "INSERT INTO og_meta (key, value) VALUES ('tmp', '1')", "DELETE FROM og_meta WHERE key = 'tmp'")
    with pytest.raises(RuntimeError):
        with store.session(env) as db:
            db.execute(text("UPDATE og_meta SET value = 'rolled back' WHERE key = 'keep'"))
            raise RuntimeError("the operation failed")
    assert summary(store, env) == []


def test_exclude_and_bookkeeping(store: EnvStore, env: Env) -> None:
    run(store, env, "INSERT INTO og_meta (key, value) VALUES ('k', 'v')")
    assert [c.table for c in store.diff(env)] == ["og_meta"]
    assert store.diff(env, frozenset({"og_meta"})) == []
    assert all(not c.table.startswith("og_changed") for c in store.diff(env)), "the tracking itself is never a change"
    assert "og_changed" not in store.dump(env)


def test_a_key_change_that_moves_a_rowid_is_a_delete_and_an_insert(store: EnvStore, env: Env) -> None:
    """An update that changes an integer primary key moves the row's rowid: both rowids are
    noted (the tracking trigger skips the new one only when it did not move)."""
    run(store, env, "INSERT INTO tickets_boards (id, name, type, project_key) VALUES (900001, 'Moving board', 'scrum', 'SUP')")
    store.snapshot_start(env)
    run(store, env, "UPDATE tickets_boards SET id = 900002 WHERE id = 900001")
    assert [(table, key, what) for table, key, what in summary(store, env) if table == "tickets_boards"] == [
        ("tickets_boards", "900001", "delete"),
        ("tickets_boards", "900002", "insert"),
    ]
