"""Fixtures the app tests share: the chat service runner, and the agent-facing server on a
loopback port for tests that drive a product's own client library over real HTTP."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import uvicorn

from apps.chat.service import ChatService
from officegym.core.env_store import Env
from officegym.gym import Gym


@pytest.fixture
def run(gym: Gym, env: Env) -> Callable[..., Any]:
    """`run(lambda chat: ..., as_user=None)`: one chat operation in one transaction of the test's env."""

    def run(operation: Callable[[ChatService], Any], as_user: str | None = None) -> Any:
        with gym.store.session(env) as db:
            return operation(ChatService(db, actor_id=as_user))

    return run


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
