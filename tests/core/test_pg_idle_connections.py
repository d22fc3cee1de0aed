"""On PostgreSQL every env connection is a server process: the ones nobody calls any more
are closed by the backend's worker, and the env's next call opens a new one."""

from __future__ import annotations

import time
from pathlib import Path

from officegym.core.backend.pgtools import scratch_database
from officegym.core.db import get_meta
from officegym.core.env_store import EnvStore


def server_sessions(store: EnvStore, handles: set[str]) -> int:
    """Client connections to these env databases (the server's own workers, autovacuum's,
    come and go on their own)."""
    with store.backend.main.connect() as conn:
        return conn.exec_driver_sql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = ANY(%s) AND backend_type = 'client backend'", (sorted(handles),)
        ).scalar_one()


def test_idle_env_connections_close_and_the_env_goes_on(pg_server: str, tiny_template: Path, tmp_path: Path) -> None:
    with scratch_database(pg_server, prefix="og_test") as url:
        store = EnvStore(tmp_path / "envs", db_url=url)
        try:
            backend = store.backend
            backend.warm = 0
            backend.idle_connection_seconds = 3.0  # set before the first create starts the worker
            envs = [store.create(tiny_template, seed=0, size="small") for _ in range(3)]
            for env in envs:
                with store.session(env) as db:
                    assert get_meta(db, "marker") == "template"
            handles = {env.handle for env in envs}
            assert server_sessions(store, handles) == 3, "each env's connection is kept between its calls"

            busy = envs[0]
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and server_sessions(store, handles - {busy.handle}) > 0:
                with store.session(busy) as db:  # one env keeps being called
                    get_meta(db, "marker")
                time.sleep(0.2)
            assert server_sessions(store, handles - {busy.handle}) == 0, "idle envs' connections were closed"
            assert server_sessions(store, {busy.handle}) == 1, "a busy env keeps its connection"

            for env in envs[1:]:
                with store.session(env) as db:
                    assert get_meta(db, "marker") == "template", "an env whose connection closed goes on"
        finally:
            store.purge()
            store.close()
