"""The `rollout` fixture: envs with a task (the first variant whose instance fits a test),
deleted after the test."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from rollouts import Rollout, facts_of

from officegym.gym import Gym


@pytest.fixture(scope="session")
def sampler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gym]:
    """A gym on SQLite files, for finding the variant whose instance fits a test. An instance
    depends on (task, seed, size, variant) and the company template only, the same on every
    backend (the parity tests prove it); a probe env here is a file copy, where on the
    PostgreSQL pass each would be a database made and dropped (a test looking through 50
    variants spent a minute on it)."""
    gym = Gym(envs_dir=tmp_path_factory.mktemp("sampler"), db_url="sqlite:")
    yield gym
    gym.close()


@pytest.fixture
def rollout(gym: Gym, sampler: Gym) -> Iterator[Callable[..., Rollout]]:
    made: list[Rollout] = []

    def make(task: str, seed: int = 1, variant: int = 0, where: Callable[[dict], bool] | None = None,
             toolset: str | None = None) -> Rollout:
        if where is not None:
            variant = next((v for v in range(variant, variant + 200) if where(facts_of(sampler, task, seed, v))), -1)
            if variant < 0:
                raise LookupError(f"no variant of {task} fits")
        r = Rollout(gym, task, seed, variant, toolset)
        made.append(r)
        return r

    yield make
    for r in made:
        gym.delete(r.env.id)
