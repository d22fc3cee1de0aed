"""Task variants: one template offers many instances, each fixed by (task, seed, size,
variant); sampling reuses the template's candidate pool instead of rescanning history; a
family with no instance says why (TaskUnavailable), never an IndexError."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy import event

from officegym.gym import Gym
from officegym.validate import run_oracle
from seed_data.actor import acting_person
from tasks import registry
from tasks.base import SampleContext, TaskUnavailable
from tasks.chat.post import _Pool
from tasks.common.variants import choose

FAMILIES = [f.id for f in registry.all_families()]


def context(gym: Gym, env: Any, db: Any, variant: int = 0, cache: dict | None = None) -> SampleContext:
    company = gym.template(env.seed, env.size).company
    return SampleContext(company=company, actor=acting_person(company), db=db, variant=variant,
                         cache={} if cache is None else cache)


@pytest.mark.parametrize("task", FAMILIES)
def test_variants_are_distinct_instances_and_each_is_reproducible(gym: Gym, task: str) -> None:
    seen = {}
    for variant in range(5):
        env = gym.create(task, seed=0, variant=variant)
        again = gym.create(task, seed=0, variant=variant)
        try:
            assert env.task.prompt == again.task.prompt and env.task.facts == again.task.facts
            seen[variant] = repr(sorted(env.task.facts.items()))
        finally:
            gym.delete(env.id)
            gym.delete(again.id)
    assert len(set(seen.values())) == 5, "five variants must be five different instances"


@pytest.mark.parametrize("task", FAMILIES)
def test_every_family_counts_its_instances_and_variants_wrap_around(gym: Gym, task: str) -> None:
    total = gym.count_instances(task, seed=0)
    assert total is not None and total >= 5
    first, wrapped = gym.create(task, seed=0, variant=0), gym.create(task, seed=0, variant=total)
    try:
        assert first.task.facts == wrapped.task.facts
    finally:
        gym.delete(first.id)
        gym.delete(wrapped.id)


@pytest.mark.parametrize("task", FAMILIES)
def test_sampling_with_a_warm_cache_reads_no_history(gym: Gym, task: str) -> None:
    family, env = registry.get(task), gym.create(None, seed=0)
    cache: dict = {}
    try:
        with gym.store.session(env) as db:
            family.sample(context(gym, env, db, cache=cache), random.Random(0))  # fills the template's cache
            statements: list[str] = []
            listener = lambda *args: statements.append(args[2])  # noqa: E731 (before_cursor_execute's statement)
            event.listen(db.get_bind(), "before_cursor_execute", listener)
            try:
                for variant in range(1, 4):
                    family.sample(context(gym, env, db, variant=variant, cache=cache), random.Random(variant))
            finally:
                event.remove(db.get_bind(), "before_cursor_execute", listener)
            assert statements == [], f"sampling rescanned the database: {statements[:3]}"
    finally:
        gym.delete(env.id)


@pytest.mark.parametrize("task", FAMILIES)
def test_a_family_with_no_candidates_raises_task_unavailable(gym: Gym, task: str) -> None:
    family, env = registry.get(task), gym.create(None, seed=0)
    empty = _Pool((), (), (), (), ()) if task == "chat/post-in-channel-v1" else ()
    try:
        with gym.store.session(env) as db:
            ctx = context(gym, env, db, cache={task: empty})
            with pytest.raises(TaskUnavailable, match="no instance"):
                family.sample(ctx, random.Random(0))
    finally:
        gym.delete(env.id)


def test_choose_walks_every_combination_once_before_wrapping() -> None:
    axes = (("a", "b", "c"), (1, 2))
    picks = [choose("x", v, *axes) for v in range(6)]
    assert len(set(picks)) == 6 and choose("x", 6, *axes) == picks[0]
    assert picks[0][0] != picks[1][0], "neighbouring variants differ in the main record"
    with pytest.raises(TaskUnavailable):
        choose("x", 0, (), (1,))


def test_a_setup_left_in_the_diff_is_allowed_when_the_family_says_so(gym: Gym) -> None:
    """find-and-answer's expected changes cover its own setup (the DM, the question), so a Gym
    may skip the start snapshot after that setup: the oracle still scores 1.0, idling 0.0."""
    task = "chat/find-and-answer-v1"
    for solve in (True, False):
        env = gym.create(None, seed=0)
        try:
            with gym.store.session(env) as db:
                instance = registry.get(task).sample(context(gym, env, db, variant=2), random.Random(0))
                assert instance.setup_in_expected and instance.setup is not None
                instance.setup(db)  # no snapshot after it: the question is part of the diff
            env.task, env.task_id = instance, task
            if solve:
                asyncio.run(run_oracle(gym, env.id))
            grade = gym.grade(env.id)
            assert grade["collateral"] == [], grade
            assert (grade["reward"], grade["passed"]) == ((1.0, True) if solve else (0.0, False))
        finally:
            gym.delete(env.id)
