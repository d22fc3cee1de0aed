"""Shared fixtures: one `Gym` per test session (envs in a temp dir, templates from the default
cache, so the company is built at most once per machine), a fresh bare env per test, and the
agent-facing server on a loopback port for tests that drive a product's own client over HTTP."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import nullcontext

import pytest
import uvicorn

from officegym.core.backend import backend_name
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


# -- The order and placement of tests across the xdist workers --------------------------------
#
# `make test` runs each pass on two workers (pytest-xdist, -n 2): a worker takes the next test
# when it is nearly idle, in the order below. So the longest tests start first and a pass does
# not end with one worker running a minutes-long test alone; then the Chromium tests (seconds
# each); then the rest (mostly well under a second), which even out the two workers at the end.

LONGEST_FIRST = (  # node-id prefixes, the longest first (a name no test has is harmless)
    "tests/test_bench_smoke.py",
    "tests/tasks/test_chat_tasks.py::test_tasks_validate_cli_passes_on_every_family",
    "tests/e2e/test_compose.py",
    "tests/e2e/test_serve_restart.py",
    "tests/e2e/test_soak.py",
    "tests/tasks/test_chat_tasks.py::test_tasks_list_names_every_family",
    "tests/core/test_concurrency.py",
    "tests/core/test_determinism_isolation.py",
)

# A module-scoped fixture that is costly to start (a docker compose deployment, a served company
# with writers) is started once only if all its module's tests go to one worker.
ONE_WORKER_MODULES = ("tests/e2e/test_compose.py", "tests/e2e/test_soak.py")


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist: unknown when it is not loaded)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """xdist's default `load` scheduling, but each of ONE_WORKER_MODULES is one unit of work.
    (`--dist loadgroup` would do it with xdist_group marks, but xdist sets the group by
    rewriting `item._nodeid`, which this pytest no longer reads.) These modules are handed out
    first (xdist's scope order: the larger units first), then single tests in collection order.
    Another --dist is left as is."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class LoadWithOneWorkerModules(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::")[0]
            return path if path in ONE_WORKER_MODULES else nodeid

    return LoadWithOneWorkerModules(config, log)


# -- Tests whose result cannot depend on the pass's backend: run once, in the SQLite pass ----------
#
# The two passes differ in one thing only: OFFICEGYM_DB, the backend the session's Gym (and every
# fixture built on it: env, rollout, live_server, agent_url, …) and the store tests' `backend_url`
# put envs on. A test that asks for none of PASS_BACKEND_FIXTURES, directly or through another
# fixture, and does not reach that backend by itself, gets the same result on both passes: pure
# functions (formula engine, A1 notation, JQL and SOQL parsing, answer reading, rubric arithmetic),
# the company generator and template files, and tests that name their backends themselves (the
# parity tests make their own SQLite gym and PostgreSQL database, whatever the pass). The SQLite
# pass runs them, the PostgreSQL pass skips them.
#
# A test that reaches the pass's backend without such a fixture (a Gym made without a db_url, a CLI
# or a server started in a subprocess: each reads OFFICEGYM_DB) carries the mark `pass_backend`,
# and runs on both passes. The rule checks itself: in the SQLite pass, a test judged the same on
# both runs with OFFICEGYM_DB naming no backend (PASS_BACKEND_UNREACHABLE), so one that reaches the
# pass's backend unmarked fails there ("unsupported database URL …") instead of silently losing its
# PostgreSQL run.
PASS_BACKEND_FIXTURES = {"gym", "backend_url"}  # store → backend_url; env, rollout, live_server … → gym
PASS_BACKEND_UNREACHABLE = "not-the-pass-backend:ask-for-the-gym-fixture-or-mark-the-test-pass_backend"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "pass_backend: the test reaches the pass's backend (OFFICEGYM_DB) without the gym or backend_url "
        "fixture, e.g. through a subprocess: it runs on both passes (tests/conftest.py)",
    )


def follows_pass_backend(item: pytest.Item) -> bool:
    return bool(PASS_BACKEND_FIXTURES & set(getattr(item, "fixturenames", ()))) or item.get_closest_marker("pass_backend") is not None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """A test judged the same on both passes runs (set-up, call, teardown) without a pass backend
    to reach: the check above."""
    if not getattr(item, "_officegym_same_on_both_passes", False):
        return (yield)
    before = os.environ.get("OFFICEGYM_DB")
    os.environ["OFFICEGYM_DB"] = PASS_BACKEND_UNREACHABLE
    try:
        return (yield)
    finally:
        if before is None:
            os.environ.pop("OFFICEGYM_DB", None)
        else:
            os.environ["OFFICEGYM_DB"] = before


def _rank(item: pytest.Item) -> int:
    for i, prefix in enumerate(LONGEST_FIRST):
        if item.nodeid.startswith(prefix):
            return i
    fixtures = getattr(item, "fixturenames", ())
    return len(LONGEST_FIRST) + (0 if "browser" in fixtures or "page" in fixtures else 1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: within a rank, the collection order
    postgres_pass = backend_name(os.environ.get("OFFICEGYM_DB")) == "postgresql"
    skip = pytest.mark.skip(reason="the same on both passes (tests/conftest.py PASS_BACKEND_FIXTURES): run once, in the SQLite pass")
    for item in items:
        if follows_pass_backend(item):
            continue
        if postgres_pass:
            item.add_marker(skip)
        else:
            item._officegym_same_on_both_passes = True  # type: ignore[attr-defined]
