"""`officegym serve` comes back to the default env it left running, unless that env was copied
from an older build's template: this build would read columns its schema does not have."""

from __future__ import annotations

from typing import Any

import pytest

from officegym import remote
from officegym.gym import Gym
from officegym.serving import _default_env


def test_the_default_env_is_kept_only_while_its_template_is_this_builds(gym: Gym, monkeypatch: pytest.MonkeyPatch) -> None:
    left = gym.create(seed=0, size="small")
    made: list[Any] = []
    try:
        monkeypatch.setattr(remote, "read_state", lambda: {"default_env": left.id})
        assert _default_env(gym, 0, "small", None) is left, "the company a user left running is the one they come back to"
        current = left.template
        left.template = current.replace("company-", "company-older-build-")  # as a registry row of an older build names it
        try:
            made.append(_default_env(gym, 0, "small", None))
        finally:
            left.template = current
        assert made[0].id != left.id and made[0].template == current, "a new default env, from this build's template"
    finally:
        for env in (left, *made):
            gym.delete(env.id)


def test_the_default_env_never_expires_while_rollout_envs_do(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The idle time-out is for rollouts' envs: the company `serve` printed stays, however long
    it sits unused, and so does one a user comes back to after a night with serve stopped."""
    import time

    monkeypatch.setenv("OFFICEGYM_ENVS_DIR", str(tmp_path / "envs"))
    monkeypatch.setenv("OFFICEGYM_ENV_TTL", "3600")
    # Envs of its own on SQLite files whatever the pass's backend: a sweep for envs idle three
    # hours from now would take every env of the pass's shared PostgreSQL registry too.
    monkeypatch.delenv("OFFICEGYM_DB", raising=False)
    first = Gym()
    default = _default_env(first, 0, "small", None)
    rollout = first.create(seed=0, size="small")
    later = time.time() + 3 * 3600
    assert first.store.expire_idle(now=later) == [rollout.id]
    default.last_used = default.flushed = time.time() - 7200
    assert first.get(default.id) is default
    first.store.close()

    monkeypatch.setattr(remote, "read_state", lambda: {"default_env": default.id})
    again = Gym()  # the next serve, after the env sat idle past the time-out
    registry = again.store.backend.registry
    from sqlalchemy import update

    with registry.engine.begin() as conn:
        conn.execute(update(registry.table).where(registry.table.c.id == default.id).values(last_used=time.time() - 7200))
    try:
        assert _default_env(again, 0, "small", None).id == default.id
    finally:
        again.delete(default.id)
        again.store.close()
