"""The `rollout` fixture: envs with a task (the first variant whose instance fits a test),
deleted after the test."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from rollouts import Rollout

from officegym.gym import Gym


@pytest.fixture
def rollout(gym: Gym) -> Iterator[Callable[..., Rollout]]:
    made: list[Rollout] = []

    def make(task: str, seed: int = 1, variant: int = 0, where: Callable[[dict], bool] | None = None,
             toolset: str | None = None) -> Rollout:
        for v in range(variant, variant + 200):
            r = Rollout(gym, task, seed, v, toolset)
            made.append(r)
            if where is None or where(r.facts):
                return r
        raise LookupError(f"no variant of {task} fits")

    yield make
    for r in made:
        gym.delete(r.env.id)
