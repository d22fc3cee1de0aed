"""The backends an env store can run on, chosen by a database URL.

None, `sqlite:` or `sqlite:///<dir>` → SQLite files (under the envs dir, or under <dir>);
`postgresql://…` → PostgreSQL (one schema per env in that database).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import make_url

from officegym.core.backend.base import Backend, Created, RowChange

POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")


def open_backend(db_url: str | None, envs_dir: Path | None, max_open: int = 64) -> Backend:
    if db_url and db_url.split(":", 1)[0] in POSTGRES_SCHEMES:
        from officegym.core.backend.postgres import PostgresBackend

        return PostgresBackend(db_url)
    if db_url and not db_url.startswith("sqlite:"):
        raise ValueError(f"unsupported database URL {db_url!r}: use sqlite:///<envs dir> or postgresql://user@host/db")
    from officegym.core.backend.sqlite import SQLiteBackend

    where = make_url(db_url).database if db_url and db_url.startswith("sqlite://") else None
    root = Path(where) if where else envs_dir
    if root is None:
        raise ValueError("the SQLite backend needs a directory for env files (envs_dir or sqlite:///<dir>)")
    return SQLiteBackend(root, max_open=max_open)


def backend_name(db_url: str | None) -> str:
    return "postgresql" if db_url and db_url.split(":", 1)[0] in POSTGRES_SCHEMES else "sqlite"


__all__ = ["Backend", "Created", "RowChange", "backend_name", "open_backend"]
