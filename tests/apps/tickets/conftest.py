"""Fixtures of the tickets tests: a module-wide env for reads, a fresh env per test for
writes, and `run(lambda jira: …)`: one operation in one transaction, as the acting user."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from apps.tickets.service import TicketsService
from officegym.core.env_store import Env
from officegym.gym import Gym

Run = Callable[..., Any]


@pytest.fixture(scope="module")
def shared_env(gym: Gym) -> Iterator[Env]:
    """An env the module's tests only read (never write to it)."""
    created = gym.create()
    yield created
    gym.delete(created.id)


def runner(gym: Gym, env: Env) -> Run:
    def run(operation: Callable[[TicketsService], Any], as_user: str | None = None) -> Any:
        with gym.store.session(env) as db:
            return operation(TicketsService(db, actor_id=as_user))

    return run


@pytest.fixture
def run(gym: Gym, env: Env) -> Run:
    return runner(gym, env)


@pytest.fixture(scope="module")
def read(gym: Gym, shared_env: Env) -> Run:
    return runner(gym, shared_env)
