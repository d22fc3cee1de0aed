"""Fixtures for the env store tests.

Store tests run on the backend of the pass: SQLite when OFFICEGYM_DB is unset, PostgreSQL
when it names a postgresql:// server (`make test` runs the suite once each way); set
OFFICEGYM_TEST_BACKENDS=sqlite,postgresql to run both in one pass. The parity tests always
need both. `backend_url` is None for SQLite and the URL of a fresh database for PostgreSQL
(on the server OFFICEGYM_TEST_PG names, or the local one `make postgres` starts). Without a
server the PostgreSQL cases are skipped, unless OFFICEGYM_REQUIRE_PG=1 (the Makefile sets
it), which makes them fail instead: CI must never pass by skipping a backend.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from officegym.core.backend import backend_name, sqlite_files
from officegym.core.backend.pgtools import scratch_database, server_url, unavailable
from officegym.core.db import set_meta
from officegym.core.env_store import EnvStore

BACKENDS = tuple(
    os.environ.get("OFFICEGYM_TEST_BACKENDS", "").replace(" ", "").split(",") if os.environ.get("OFFICEGYM_TEST_BACKENDS")
    else [backend_name(os.environ.get("OFFICEGYM_DB"))]
)


def admin_url() -> str:
    """The server to make test databases on: OFFICEGYM_DB's in a PostgreSQL pass, else
    OFFICEGYM_TEST_PG's, else the local one."""
    url = os.environ.get("OFFICEGYM_DB")
    return url if backend_name(url) == "postgresql" else server_url()


def require_postgres() -> None:
    why = unavailable(admin_url())
    if why is None:
        return
    message = f"no PostgreSQL at {admin_url()} ({why}); run `make postgres` or set OFFICEGYM_TEST_PG"
    if os.environ.get("OFFICEGYM_REQUIRE_PG") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL server's admin URL (skips, or fails under OFFICEGYM_REQUIRE_PG=1)."""
    require_postgres()
    return admin_url()


@pytest.fixture(params=BACKENDS)
def backend_url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    if request.param == "sqlite":
        yield None
        return
    require_postgres()
    with scratch_database(admin_url(), prefix="og_test") as url:
        yield url


@pytest.fixture(scope="session")
def tiny_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A template with every table of the models and one meta row, no company: the store is
    generic and must not depend on what a template holds."""
    import officegym.apps  # noqa: F401  (registers every app's tables)

    path = tmp_path_factory.mktemp("tiny") / "template.db"
    sqlite_files.build_file(path, lambda db: set_meta(db, "marker", "template"))
    return path


@pytest.fixture
def store(tmp_path: Path, backend_url: str | None) -> Iterator[EnvStore]:
    made = EnvStore(tmp_path / "envs", max_open_engines=4, db_url=backend_url)
    yield made
    made.close()
