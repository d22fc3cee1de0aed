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
