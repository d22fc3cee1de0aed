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


# -- Tests the PostgreSQL pass skips -----------------------------------------------------------
#
# These modules never open an env database: they test pure functions (formula engine books in
# memory, A1 notation, Salesforce ids and date literals, JSON text, answer reading, URL and
# time rendering, TLS certificates, the state file's errors) or the company generator, or seed
# and grade their own in-memory SQLite (chat seeding, rubric collateral) whatever OFFICEGYM_DB
# says. Their result cannot depend on the pass's backend, so the SQLite pass runs them once. A
# test of these modules that asks for the session's Gym or an env store (so a database of the
# pass's backend) still runs in both passes.
BACKEND_FREE = (
    "tests/apps/crm/test_ids_dates.py",
    "tests/apps/sheets/test_a1.py",
    "tests/apps/sheets/test_bench_kernel.py",
    "tests/apps/sheets/test_formula_arrays.py",
    "tests/apps/sheets/test_formula_fuzz.py",
    "tests/apps/sheets/test_recalc_caches.py",
    "tests/apps/sheets/test_xlsx_formulas.py",
    "tests/apps/tickets/test_tickets_rest_links.py",
    "tests/core/test_jsontext.py",
    "tests/core/test_remote_errors.py",
    "tests/core/test_tls.py",
    "tests/graders/test_rubric_collateral.py",
    "tests/seed_data/test_chat_seed.py",
    "tests/seed_data/test_company.py",
    "tests/seed_data/test_sheets_seed.py",
    "tests/tasks/test_answers.py",
    "tests/tasks/test_answers_round3.py",
    "tests/tasks/test_answers_round6.py",
)
DATABASE_FIXTURES = {"gym", "store", "backend_url", "pg_server", "live_server"}


def _rank(item: pytest.Item) -> int:
    for i, prefix in enumerate(LONGEST_FIRST):
        if item.nodeid.startswith(prefix):
            return i
    fixtures = getattr(item, "fixturenames", ())
    return len(LONGEST_FIRST) + (0 if "browser" in fixtures or "page" in fixtures else 1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: within a rank, the collection order
    if backend_name(os.environ.get("OFFICEGYM_DB")) == "postgresql":
        skip = pytest.mark.skip(reason="backend-free (tests/conftest.py BACKEND_FREE): run once, in the SQLite pass")
        for item in items:
            if item.nodeid.split("::")[0] in BACKEND_FREE and not DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
                item.add_marker(skip)
