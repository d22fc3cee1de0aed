"""Fixtures the app tests share: the chat service runner (the agent-facing server on a loopback
port, `agent_url`, is in the root conftest: task tests use it too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

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
