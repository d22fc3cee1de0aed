"""Meta values carried from one transaction of an env to the next (backend/held.py): a
transaction starts knowing what the last commit on its connection knew, only while nothing
else has written the database since. A stale value here would be a wrong actor, a clock
that runs backwards or a counter that hands out an id twice."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from officegym.core import clock
from officegym.core.db import get_meta, set_meta
from officegym.core.env_store import EnvStore


def started(store: EnvStore, tiny_template: Path):
    """An env of the tiny template (no company) with its clock started."""
    env = store.create(tiny_template, seed=0, size="small")
    with store.session(env) as db:
        clock.start_clock(db, datetime(2026, 1, 5, 9, 0, tzinfo=UTC))
    return env


def read(store: EnvStore, env, key: str = "marker") -> str | None:
    with store.session(env) as db:
        return get_meta(db, key)


def test_a_write_from_another_connection_is_seen(tmp_path: Path, backend_url: str | None, tiny_template: Path) -> None:
    here = EnvStore(tmp_path / "envs", db_url=backend_url)
    there = EnvStore(tmp_path / "envs", db_url=backend_url)  # another process, in effect
    try:
        env = started(here, tiny_template)
        assert read(here, env) == "template"  # now known to `here`'s connection
        with there.session(there.get(env.id)) as db:
            set_meta(db, "marker", "written elsewhere")
            ticked_there = clock.tick(db)
        assert read(here, env) == "written elsewhere"
        with here.session(env) as db:
            assert clock.tick(db) > ticked_there, "the clock goes on from the other process's tick"
    finally:
        here.close()
        there.close()


def test_a_rolled_back_value_is_not_carried(store: EnvStore, tiny_template: Path) -> None:
    env = started(store, tiny_template)
    assert read(store, env) == "template"
    with pytest.raises(RuntimeError):
        with store.session(env) as db:
            set_meta(db, "marker", "rolled back")
            clock.tick(db)
            raise RuntimeError("the operation failed")
    assert read(store, env) == "template"
    with store.session(env) as db:
        first = clock.tick(db)
    with store.session(env) as db:
        assert clock.now_micros(db) == first, "the committed tick is what the next transaction sees"


def test_values_carry_over_between_transactions_of_one_connection(store: EnvStore, tiny_template: Path) -> None:
    """The point of carrying: a transaction after a commit on the same connection reads no
    meta row it already knows (SQLite; PostgreSQL has no cheap way to tell, so it reads)."""
    env = store.create(tiny_template, seed=0, size="small")
    with store.session(env) as db:
        set_meta(db, "marker", "committed")
    with store.session(env) as db:
        conn = db.connection().connection.driver_connection
        statements: list[str] = []
        if store.backend_name == "sqlite":
            conn.set_trace_callback(statements.append)
        try:
            assert get_meta(db, "marker") == "committed"
        finally:
            if store.backend_name == "sqlite":
                conn.set_trace_callback(None)
    if store.backend_name == "sqlite":
        assert not any("og_meta" in s for s in statements), statements
