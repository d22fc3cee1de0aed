"""EnvStore: envs are isolated file copies of a template, addressed by unguessable ids, with
a bounded number of open engines however many envs are alive.

These tests use a tiny hand-made template (the schema, one meta row), not a company: the
store is generic and must not depend on what the template holds.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

import apps.chat.models  # noqa: F401  (registers the chat tables on Base.metadata)
from officegym.core.db import Base, get_meta, open_engine, set_meta, transaction
from officegym.core.env_store import EnvStore
from officegym.core.errors import EnvNotFound


@pytest.fixture
def template(tmp_path: Path) -> Path:
    path = tmp_path / "template.db"
    engine = open_engine(path)
    Base.metadata.create_all(engine)
    with transaction(engine) as db:
        set_meta(db, "marker", "template")
    engine.dispose()
    return path


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EnvStore]:
    store = EnvStore(tmp_path / "envs", max_open_engines=4)
    yield store
    store.close()


def read_marker(path: Path) -> str | None:
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT value FROM og_meta WHERE key='marker'").fetchone()
    finally:
        conn.close()
    return row[0] if row else None


def test_create_get_list_delete(store: EnvStore, template: Path) -> None:
    a = store.create(template, seed=0, size="small")
    b = store.create(template, seed=3, size="small")
    assert re.fullmatch(r"[0-9a-f]{32}", a.id) and re.fullmatch(r"[0-9a-f]{32}", b.id) and a.id != b.id
    assert store.get(a.id) is a and store.get(b.id) is b
    assert {e.id for e in store.list()} == {a.id, b.id}
    assert (b.seed, b.size) == (3, "small")
    assert a.path.parent == store.root and a.path.exists() and a.start_path == template
    assert read_marker(a.path) == "template"

    with store.session(a) as db:
        assert get_meta(db, "marker") == "template"
        set_meta(db, "marker", "changed in a")

    assert read_marker(a.path) == "changed in a"
    assert read_marker(b.path) == "template", "envs never share state"
    assert read_marker(template) == "template", "the template is never written"

    store.delete(a.id)
    assert not a.path.exists()
    assert template.exists()
    with pytest.raises(EnvNotFound):
        store.get(a.id)
    with pytest.raises(EnvNotFound):
        store.delete(a.id)
    assert [e.id for e in store.list()] == [b.id]
    with store.session(b) as db:
        assert get_meta(db, "marker") == "template"


@pytest.mark.parametrize(
    "bad_id",
    ["", "../x", "../../etc/passwd", "x", "0" * 31, "0" * 33, "A" * 32, "g" * 32, "0" * 32, "00000000-0000-0000-0000-000000000000"],
)
def test_unknown_and_malformed_ids_are_not_found(store: EnvStore, template: Path, bad_id: str) -> None:
    store.create(template, seed=0, size="small")
    with pytest.raises(EnvNotFound):
        store.get(bad_id)
    with pytest.raises(EnvNotFound):
        store.delete(bad_id)


def test_ids_are_case_sensitive_capabilities(store: EnvStore, template: Path) -> None:
    env = store.create(template, seed=0, size="small")
    if env.id.upper() != env.id:
        with pytest.raises(EnvNotFound):
            store.get(env.id.upper())
    with pytest.raises(EnvNotFound):
        store.get(env.id + "/")
    with pytest.raises(EnvNotFound):
        store.get(" " + env.id)


def test_lru_bounds_open_engines_while_every_env_stays_usable(store: EnvStore, template: Path) -> None:
    limit = 4
    assert store.max_open_engines == limit
    envs = [store.create(template, seed=0, size="small") for _ in range(3 * limit)]
    for i, env in enumerate(envs):
        with store.session(env) as db:
            set_meta(db, "marker", f"env {i}")
        assert store.open_engines() <= limit
    assert store.open_engines() == limit
    # Every env, evicted or not, still reads back its own writes (twice round: all evicted once).
    for _ in range(2):
        for i, env in enumerate(envs):
            with store.session(env) as db:
                assert get_meta(db, "marker") == f"env {i}"
            assert store.open_engines() <= limit
    for i, env in enumerate(envs):
        assert read_marker(env.path) == f"env {i}"


def test_failed_operation_rolls_back(store: EnvStore, template: Path) -> None:
    env = store.create(template, seed=0, size="small")
    with pytest.raises(RuntimeError):
        with store.session(env) as db:
            set_meta(db, "marker", "half written")
            raise RuntimeError("boom")
    with store.session(env) as db:
        assert get_meta(db, "marker") == "template"


def test_snapshot_start_freezes_state_and_delete_removes_both_files(store: EnvStore, template: Path) -> None:
    env = store.create(template, seed=0, size="small")
    with store.session(env) as db:
        set_meta(db, "marker", "after setup")
    store.snapshot_start(env)
    assert env.start_path != template and env.start_path.parent == store.root
    with store.session(env) as db:
        set_meta(db, "marker", "after the agent")
    assert read_marker(env.start_path) == "after setup"
    assert read_marker(env.path) == "after the agent"

    store.delete(env.id)
    assert not env.path.exists() and not env.start_path.exists()
    assert read_marker(template) == "template"
    assert list(store.root.iterdir()) == []


def test_close_deletes_every_env(tmp_path: Path, template: Path) -> None:
    store = EnvStore(tmp_path / "envs2", max_open_engines=2)
    envs = [store.create(template, seed=0, size="small") for _ in range(5)]
    for env in envs:
        with store.session(env) as db:
            set_meta(db, "touched", "yes")
    store.close()
    assert store.list() == [] and store.open_engines() == 0
    assert list(store.root.iterdir()) == []
