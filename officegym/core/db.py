"""The database of one env: SQLAlchemy base, engine, transactions and the core tables.

Every env is one SQLite file holding the tables of all four apps plus two core tables:
`og_meta` (seed, size, actor, the env clock) and `og_events` (the rollout's trajectory).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Boolean, Engine, Integer, String, Text, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool


class Base(DeclarativeBase):
    """Declarative base of every table of every app (one metadata, one file per env)."""


class Meta(Base):
    """Key/value facts about the env: seed, size, actor ids, the clock."""

    __tablename__ = "og_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Event(Base):
    """One entry of the trajectory: an MCP tool call, or a write through REST or the UI."""

    __tablename__ = "og_events"
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[str] = mapped_column(String(32))  # env-clock time, ISO 8601 UTC
    source: Mapped[str] = mapped_column(String(8))  # the face: "mcp" | "rest" | "ui"
    app: Mapped[str] = mapped_column(String(16))
    operation: Mapped[str] = mapped_column(String(64))  # the domain operation, "chat.postMessage"
    action: Mapped[str] = mapped_column(String(64))  # what the face called: tool, API method or UI handler
    args: Mapped[str] = mapped_column(Text)  # JSON
    result: Mapped[str] = mapped_column(Text)  # JSON (possibly truncated)
    is_error: Mapped[bool] = mapped_column(Boolean, default=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "at": self.at,
            "face": self.source,
            "app": self.app,
            "operation": self.operation,
            "tool": self.action,
            "args": json.loads(self.args),
            "result": json.loads(self.result),
            "is_error": self.is_error,
        }


# Tables that are bookkeeping, not company state: never diffed, never collateral.
CORE_TABLES = frozenset({"og_meta", "og_events"})


def _tune_connection(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
    # Envs are disposable rollout state: durability across power loss buys nothing, and
    # skipping fsync and the on-disk journal makes every write a few hundred µs cheaper.
    dbapi_conn.execute("PRAGMA synchronous=OFF")
    dbapi_conn.execute("PRAGMA journal_mode=MEMORY")
    dbapi_conn.execute("PRAGMA foreign_keys=ON")
    dbapi_conn.execute("PRAGMA cache_size=-2000")  # ≤ 2 MiB page cache per open env


def open_engine(path: Path | str) -> Engine:
    """An engine on one SQLite file, holding a single connection shared by the process.

    One connection (StaticPool) because the server is one process and SQLite serialises
    writers anyway; it also means an idle env holds exactly one file handle until the env
    store evicts it.
    """
    engine = create_engine(
        f"sqlite:///{path}",
        poolclass=StaticPool,
        connect_args={"check_same_thread": False},
    )
    event.listen(engine, "connect", _tune_connection)
    return engine


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One operation = one transaction: commit on success, roll back everything on error."""
    with Session(engine, expire_on_commit=False, autoflush=True) as session:
        with session.begin():
            yield session


# Meta is read and written on every operation (the actor, the clock): plain SQL on the
# session's connection costs a few µs where an ORM round trip costs ~0.5 ms.
def get_meta(session: Session, key: str, default: str | None = None) -> str | None:
    row = session.connection().exec_driver_sql("SELECT value FROM og_meta WHERE key = ?", (key,)).first()
    return row[0] if row is not None else default


def set_meta(session: Session, key: str, value: str) -> None:
    session.connection().exec_driver_sql(
        "INSERT INTO og_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )
