"""Shared fixtures: one `Gym` per test session (envs in a temp dir, templates from the default
cache, so the company is built at most once per machine), and a fresh bare env per test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import nullcontext

import pytest

from officegym.core.env_store import Env
from officegym.core.errors import EnvNotFound
from officegym.gym import Gym


@pytest.fixture(scope="session")
def gym(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gym]:
    """On the backend OFFICEGYM_DB names: SQLite files in a temp dir when unset; with a
    postgresql:// URL, a fresh database on that server for this session, dropped after."""
    from officegym import settings
    from officegym.core.backend import backend_name
    from officegym.core.backend.pgtools import scratch_database

    url = settings.db_url()
    with scratch_database(url, prefix="og_session") if backend_name(url) == "postgresql" else nullcontext(None) as db_url:
        instance = Gym(envs_dir=tmp_path_factory.mktemp("envs"), db_url=db_url)
        yield instance
        instance.close()


@pytest.fixture
def env(gym: Gym) -> Iterator[Env]:
    """A fresh bare env (seed 0, small, no task), deleted after the test."""
    created = gym.create()
    yield created
    try:
        gym.delete(created.id)
    except EnvNotFound:  # the test deleted it itself
        pass
