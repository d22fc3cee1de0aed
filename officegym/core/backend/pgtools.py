"""Finding a PostgreSQL server and making throwaway databases on it (tests, bench).

`make postgres` starts Debian's server and gives the current user a role; the tests then
find it through OFFICEGYM_TEST_PG (a URL naming a database to connect to for admin work) or,
unset, the local server's default socket.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy.engine import make_url

DEFAULT_URL = "postgresql:///postgres"  # the local server's socket, the current user's role


def server_url() -> str:
    return os.environ.get("OFFICEGYM_TEST_PG") or DEFAULT_URL


def _connect(url: str) -> object:
    import psycopg

    parsed = make_url(url)
    given = {"dbname": parsed.database or "postgres", "user": parsed.username, "password": parsed.password,
             "host": parsed.host, "port": parsed.port}
    options = {k: v for k, v in given.items() if v is not None} | dict(parsed.query)  # ?host=/socket/dir etc.
    return psycopg.connect(autocommit=True, connect_timeout=5, **options)


def unavailable(url: str | None = None) -> str | None:
    """Why the server cannot be used (None when it can)."""
    try:
        _connect(url or server_url()).close()  # type: ignore[attr-defined]
    except Exception as error:  # noqa: BLE001  (any failure means "not here")
        return f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
    return None


def drop_database(execute: Callable[[str], object], name: str, attempts: int = 100) -> None:
    """DROP DATABASE … WITH (FORCE), retried while PostgreSQL refuses to end a session on it
    that is still starting up: such a session has no role yet, and only a superuser or a
    member of pg_signal_backend may end it. It is through its start-up within milliseconds
    (and then ours, or refused: the database allows no new connections by then)."""
    import psycopg

    for attempt in range(attempts):
        try:
            execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except Exception as error:  # psycopg's own, or SQLAlchemy's wrapping it
            cause = getattr(error, "orig", error)
            if not isinstance(cause, psycopg.errors.InsufficientPrivilege) or attempt == attempts - 1:
                raise
            time.sleep(0.05)


def _drop_all(admin: object, url: str, names: list[str]) -> None:
    """Drop databases in parallel: each DROP DATABASE waits for a checkpoint."""
    from concurrent.futures import ThreadPoolExecutor

    def drop(name: str) -> None:
        with _connect(url) as conn:  # type: ignore[attr-defined]
            drop_database(conn.execute, name)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(drop, names))


def _made_for(admin: object, name: str) -> list[str]:
    """The env, pool and template databases the backend made for main database `name`."""
    from officegym.core.backend.postgres import database_prefix

    rows = admin.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{database_prefix(name)}\\_%",)).fetchall()  # type: ignore[attr-defined]
    return [row[0] for row in rows]


def reset_database(url: str) -> None:
    """Drop the database `url` names and everything the backend made for it, then create it
    empty again (a clean slate for a test run)."""
    name = make_url(url).database
    if not name or name == "postgres":
        raise ValueError(f"refusing to reset {name!r}: name a database of its own, e.g. postgresql:///officegym_test")
    admin_url = make_url(url).set(database="postgres").render_as_string(hide_password=False)
    admin = _connect(admin_url)
    try:
        _drop_all(admin, admin_url, [*_made_for(admin, name), name])
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")  # type: ignore[attr-defined]
    finally:
        admin.close()  # type: ignore[attr-defined]


@contextmanager
def scratch_database(url: str | None = None, prefix: str = "og_scratch") -> Iterator[str]:
    """A new, empty database on the server of `url` (byte-order collation, as SQLite sorts),
    dropped again on exit with every env database the backend made for it; yields its URL."""
    url = url or server_url()
    name = f"{prefix}_{secrets.token_hex(6)}"
    # A connection per step, none held while the caller works: a long-lived admin connection
    # dies with its database when another run resets that database, and cleanup then fails.
    with _connect(url) as admin:  # type: ignore[attr-defined]
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with _connect(url) as admin:  # type: ignore[attr-defined]
            _drop_all(admin, url, [*_made_for(admin, name), name])
