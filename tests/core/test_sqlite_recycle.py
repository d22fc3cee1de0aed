"""SQLite env files recycled into new envs: a recycled env is the template again (row for
row), a stale record of the deleted env can never write into its successor, and files kept
for reuse are neither reclaimed nor leaked."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from officegym.core.backend import backend_name
from officegym.core.backend.sqlite_recycle import file_name, generation
from officegym.core.env_store import EnvStore
from officegym.core.errors import EnvNotFound
from officegym.gym import Gym
from officegym.validate import run_oracle
from tasks import registry

pytestmark = pytest.mark.skipif(backend_name(os.environ.get("OFFICEGYM_DB")) != "sqlite", reason="SQLite files only")


@pytest.fixture
def gym(tmp_path: Path):
    instance = Gym(envs_dir=tmp_path / "envs")
    yield instance
    instance.close()


def test_a_recycled_env_is_the_template_again(gym: Gym) -> None:
    fresh = gym.create()
    baseline = gym.store.dump(fresh)
    gym.delete(fresh.id)
    for family in registry.all_families():  # every app's writes, then deleted and reused
        env = gym.create(family.id)
        asyncio.run(run_oracle(gym, env.id))
        from_template = env.start == env.template  # (a setup snapshot makes the env's own start)
        gym.delete(env.id)
        reused = gym.create()
        assert (generation(reused.handle) > 0) == from_template, f"{family.id}: only an env that started at the template is reused"
        assert gym.store.dump(reused) == baseline, f"after {family.id}, the reused file differs from the template"
        assert gym.changes(reused.id) == [], "and reports no change"
        gym.delete(reused.id)


def test_a_stale_record_cannot_write_into_the_next_env(gym: Gym, tmp_path: Path) -> None:
    env = gym.create()
    with gym.store.session(env):
        pass  # opened: its connection can be recycled
    other_process = EnvStore(tmp_path / "envs")  # read the record before the delete
    stale = other_process.get(env.id)
    gym.delete(env.id)
    successor = gym.create()
    assert file_name(successor.handle) == file_name(env.handle), "same file, new generation"
    with pytest.raises(EnvNotFound):
        with other_process.session(stale):
            pass
    other_process.close()
    assert gym.store.dump(successor) == gym.store.dump(successor)  # still serves its own env


def test_files_kept_for_reuse_survive_reclaim_and_are_removed_on_close(gym: Gym, tmp_path: Path) -> None:
    env = gym.create()
    with gym.store.session(env):
        pass  # opened: its connection can be recycled
    gym.delete(env.id)
    kept = sorted(p.name for p in (tmp_path / "envs").glob("*.db") if p.name != "registry.db")
    assert len(kept) == 1
    old = time.time() - 3600
    os.utime(tmp_path / "envs" / kept[0], (old, old))
    assert gym.store.backend.reclaim(set(), min_age=60) == 0, "a file kept for reuse is not an orphan"
    gym.close()
    assert not [p for p in (tmp_path / "envs").glob("*.db") if p.name != "registry.db"]


def test_a_file_whose_schema_changed_is_dropped_not_reused(gym: Gym) -> None:
    env = gym.create()
    with gym.store.session(env) as db:
        db.connection().exec_driver_sql("CREATE TABLE scratch (n INTEGER)")  # as a test harness may
    gym.delete(env.id)
    successor = gym.create()
    assert file_name(successor.handle) != file_name(env.handle)
    with gym.store.session(successor) as db:
        assert db.connection().exec_driver_sql("SELECT count(*) FROM sqlite_master WHERE name = 'scratch'").scalar() == 0
