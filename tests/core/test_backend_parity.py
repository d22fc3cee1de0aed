"""SQLite and PostgreSQL hold the same company the same way: the same seed and the same calls
give the same logical dump on both, the grader's diff reports the same changes, every task
family grades the same, and a restart re-samples the same task and grades it the same."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apps.chat.operations import OPERATIONS
from officegym.apps import not_company_state
from officegym.core.backend.pgtools import scratch_database
from officegym.core.env_store import Env
from officegym.core.ops import invoke
from officegym.gym import Gym
from officegym.validate import run_oracle
from tasks import registry

NOT_COMPANY_STATE = not_company_state()


@pytest.fixture(scope="module")
def gyms(pg_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Gym]]:
    """One gym per backend, sharing the default template cache. Each on a place of its own:
    the teardown purges both, and on the PostgreSQL pass OFFICEGYM_DB names the registry
    every worker's servers share (a gym left to default to it once took another worker's
    env mid-test)."""
    with scratch_database(pg_server, prefix="og_parity") as url:
        sqlite = Gym(envs_dir=tmp_path_factory.mktemp("parity"), db_url="sqlite:")
        both = {"sqlite": sqlite, "postgresql": Gym(envs_dir=None, db_url=url)}
        assert [gym.store.backend_name for gym in both.values()] == ["sqlite", "postgresql"]
        yield both
        for gym in both.values():
            gym.store.purge()
            gym.close()


def scenario(gym: Gym, env: Env) -> list[Any]:
    """Writes, reads and errors through `invoke`, what every face calls; returns what came back."""
    outcomes: list[Any] = []

    def call(operation: str, **args: Any) -> Any:
        try:
            body = invoke(gym.store, env, OPERATIONS, OPERATIONS[operation], args, face="rest", tool=operation, log_reads=True)
        except Exception as error:  # noqa: BLE001  (errors are outcomes too; never a crash)
            assert hasattr(error, "message"), f"{operation} crashed: {error!r}"
            body = {"error": error.code}  # type: ignore[attr-defined]
        outcomes.append(body)
        return body

    channels = call("conversations.list", limit=5)["channels"]
    call("conversations.create", name="parity-room")
    posted = call("chat.postMessage", channel="#parity-room", text="hello ÄÖ 💥 <@U0>")
    call("chat.postMessage", channel=channels[0]["id"], text="top level", thread_ts=None)
    call("chat.postMessage", channel="#parity-room", text="a reply", thread_ts=posted["ts"])
    call("reactions.add", channel="#parity-room", timestamp=posted["ts"], name="tada")
    call("reactions.add", channel="#parity-room", timestamp=posted["ts"], name="tada")  # already_reacted
    call("pins.add", channel="#parity-room", timestamp=posted["ts"])
    call("chat.update", channel="#parity-room", ts=posted["ts"], text="hello, edited")
    call("conversations.history", channel=channels[0]["id"], limit=20)
    call("search.messages", query="hello")
    call("chat.delete", channel=channels[0]["id"], ts=call("conversations.history", channel=channels[0]["id"], limit=1)["messages"][0]["ts"])
    return outcomes


def test_same_calls_give_the_same_dump_diff_and_results_on_both(gyms: dict[str, Gym]) -> None:
    envs = {name: gym.create(seed=0) for name, gym in gyms.items()}
    before = {name: gyms[name].store.dump(env) for name, env in envs.items()}
    assert before["sqlite"] == before["postgresql"], "the same template, loaded into each backend"
    results = {name: scenario(gyms[name], env) for name, env in envs.items()}
    assert results["sqlite"] == results["postgresql"]
    dumps = {name: gyms[name].store.dump(env) for name, env in envs.items()}
    assert dumps["sqlite"] == dumps["postgresql"], "ids, ts, clock, rows and the event log, identical"
    assert dumps["sqlite"] != before["sqlite"]
    diffs = {name: gyms[name].store.diff(env, NOT_COMPANY_STATE) for name, env in envs.items()}
    assert diffs["sqlite"] == diffs["postgresql"]
    assert {(c.table, c.change) for c in diffs["sqlite"]} >= {("chat_messages", "insert"), ("chat_channels", "insert")}
    full = {name: gyms[name].store.diff(env) for name, env in envs.items()}
    assert full["sqlite"] == full["postgresql"], "the event log and the clock too"
    for name, env in envs.items():
        gyms[name].delete(env.id)


@pytest.mark.parametrize("family", [f.id for f in registry.all_families()])
async def test_every_family_grades_the_same_on_both(gyms: dict[str, Gym], family: str) -> None:
    grades, dumps = {}, {}
    for name, gym in gyms.items():
        env = gym.create(family, seed=0, variant=1)
        untouched = gym.grade(env.id)
        assert untouched["reward"] < 1.0
        await run_oracle(gym, env.id)
        grades[name] = gym.grade(env.id)
        dumps[name] = gym.store.dump(env)
        gym.delete(env.id)
    assert grades["sqlite"] == grades["postgresql"]
    assert grades["sqlite"]["reward"] == 1.0, grades["sqlite"]
    assert dumps["sqlite"] == dumps["postgresql"]


async def test_a_restarted_gym_resamples_and_grades_the_same(gyms: dict[str, Gym], tmp_path: Path) -> None:
    family = registry.all_families()[0].id
    for name, gym in gyms.items():
        env = gym.create(family, seed=0, variant=2)
        await run_oracle(gym, env.id)
        expected = gym.grade(env.id)
        url = getattr(gym.store.backend, "url", None) or "sqlite:"
        again = Gym(envs_dir=gym.store.root, db_url=url)  # a second process over the same state
        try:
            reloaded = again.get(env.id)
            assert reloaded is not env and reloaded.task is not None
            assert reloaded.task.prompt == env.task.prompt
            assert again.grade(env.id) == expected, name
        finally:
            again.close()
        gym.delete(env.id)
