"""Shared fixtures: one `Gym` per test session (envs in a temp dir, templates from the default
cache, so the company is built at most once per machine), and a fresh bare env per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from officegym.core.env_store import Env
from officegym.core.errors import EnvNotFound
from officegym.gym import Gym


@pytest.fixture(scope="session")
def gym(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gym]:
    instance = Gym(envs_dir=tmp_path_factory.mktemp("envs"))
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
