"""Fixtures of the crm tests: one seeded env shared by read-only tests (queries never
write), the org's rows as plain dicts (to compute expected results in Python), and a way
to run an operation as any face does."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import select

from apps.crm.models import TABLES
from apps.crm.operations import OPERATIONS
from officegym.core.env_store import Env
from officegym.core.ops import invoke
from officegym.gym import Gym

Run = Callable[..., Any]


@pytest.fixture(scope="session")
def shared_env(gym: Gym) -> Iterator[Env]:
    """A seeded env that read-only tests share (seed 0, small)."""
    created = gym.create()
    yield created
    gym.delete(created.id)


def runner(gym: Gym, env: Env) -> Run:
    def run(name: str, **raw: Any) -> Any:
        return invoke(gym.store, env, OPERATIONS, OPERATIONS[name], raw, face="rest", tool="test")

    return run


@pytest.fixture(scope="session")
def read(gym: Gym, shared_env: Env) -> Run:
    """Run an operation in the shared env (read-only operations only)."""
    return runner(gym, shared_env)


@pytest.fixture
def write(gym: Gym, env: Env) -> Run:
    """Run an operation in a fresh env of this test."""
    return runner(gym, env)


@pytest.fixture(scope="session")
def org(gym: Gym, shared_env: Env) -> dict[str, list[dict[str, Any]]]:
    """Every seeded row of every crm table, by object name."""
    with gym.store.session(shared_env) as db:
        return {name: [dict(r) for r in db.execute(select(table)).mappings()] for name, table in TABLES.items()}


@pytest.fixture(scope="session")
def today(gym: Gym, shared_env: Env) -> Any:
    from officegym.core import clock

    with gym.store.session(shared_env) as db:
        return clock.now(db).date()
