"""Shared fixtures: one `Gym` per test session (envs in a temp dir, templates from the default
cache, so the company is built at most once per machine), a fresh bare env per test, and the
agent-facing server on a loopback port for tests that drive a product's own client over HTTP."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import nullcontext

import pytest
import uvicorn

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


@pytest.fixture(scope="module")
def agent_url(gym: Gym) -> Iterator[str]:
    """The URL of the agent-facing app serving the test session's Gym (a module's envs)."""
    from officegym.server import create_agent_app

    server = uvicorn.Server(uvicorn.Config(create_agent_app(gym), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the agent server did not start"
        time.sleep(0.01)
    yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    server.should_exit = True
    thread.join(timeout=10)
