"""The env registry: one durable row per live env, so a restarted process keeps every env.

A row holds what the store needs to serve and grade the env again (seed, size, task,
variant, toolset, where its database and start state live) and when it was created and last
used (for expiry). It is written with SQLAlchemy Core only, so the same code keeps it in a
SQLite file next to the env files or in a table of the PostgreSQL database.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import Column, Connection, Engine, Float, Integer, MetaData, String, Table, bindparam, delete, select, update
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.sql import Executable

FIELDS = ("id", "seed", "size", "task_id", "variant", "toolset", "handle", "start", "template", "created_at", "last_used")


def envs_table(schema: str | None = None) -> Table:
    return Table(
        "og_envs",
        MetaData(schema=schema),
        Column("id", String(32), primary_key=True),
        Column("seed", Integer, nullable=False),
        Column("size", String(16), nullable=False),
        Column("task_id", String(128)),
        Column("variant", Integer, nullable=False, default=0),
        Column("toolset", String(64)),
        Column("handle", String(1024), nullable=False),  # the backend's name for the env database
        Column("start", String(1024), nullable=False),  # ... for its start state
        Column("template", String(1024), nullable=False),  # ... for the template it came from
        Column("created_at", Float, nullable=False),  # wall clock (bookkeeping, not env data)
        Column("last_used", Float, nullable=False, index=True),
    )


class Registry:
    """`writer`, for a registry in a SQLite file: a connection of its own to that file, which
    the registry keeps and writes through on the driver (every create and delete writes a
    row: through SQLAlchemy's pool and transaction, ~160 µs each; on the driver, ~40 µs)."""

    def __init__(self, engine: Engine, schema: str | None = None, writer: Callable[[], sqlite3.Connection] | None = None) -> None:
        self.engine = engine
        self.table = envs_table(schema)
        self._writer = writer
        self._written: sqlite3.Connection | None = None
        self._write_lock = threading.Lock()
        self._sql: dict[int, tuple[str, tuple[str, ...]]] = {}
        # Every create and delete writes one row: statements built once (SQLAlchemy then
        # finds them compiled), not a `.values(**row)` per call (~0.3 ms of clause building).
        self._insert = self.table.insert()
        self._delete = delete(self.table).where(self.table.c.id == bindparam("env_id"))
        self._get = select(self.table).where(self.table.c.id == bindparam("env_id"))
        self._set_start = update(self.table).where(self.table.c.id == bindparam("env_id")).values(start=bindparam("new_start"))
        self._touch = (update(self.table).where(self.table.c.id == bindparam("env_id"), self.table.c.last_used < bindparam("at"))
                       .values(last_used=bindparam("at")))

    def create_table(self, conn: Connection) -> None:
        self.table.create(conn, checkfirst=True)

    def add(self, record: dict[str, Any], conn: Connection | None = None) -> None:
        row = {k: record[k] for k in FIELDS}
        if conn is not None:
            conn.execute(self._insert, row)
            return
        self._write(self._insert, row)

    def remove(self, env_id: str) -> bool:
        return self._write(self._delete, {"env_id": env_id}) > 0

    def close(self) -> None:
        with self._write_lock:
            if self._written is not None:
                self._written.close()
                self._written = None

    def _write(self, statement: Executable, params: dict[str, Any]) -> int:
        """Run one write in a transaction of its own; returns the rows it touched."""
        if self._writer is None:
            with self.engine.begin() as conn:
                return conn.execute(statement, params).rowcount
        sql, order = self._sql.get(id(statement)) or self._compile(statement)
        with self._write_lock:
            if self._written is None:
                self._written = self._writer()
            written = self._written
            written.execute("BEGIN IMMEDIATE")  # as every registry transaction (one process creates, …)
            try:
                count = written.execute(sql, tuple(params[name] for name in order)).rowcount
                written.execute("COMMIT")
            except BaseException:
                if written.in_transaction:
                    written.execute("ROLLBACK")
                raise
            return count

    def _compile(self, statement: Executable) -> tuple[str, tuple[str, ...]]:
        compiled = statement.compile(dialect=sqlite_dialect.dialect())
        found = self._sql[id(statement)] = (compiled.string, tuple(compiled.positiontup or ()))
        return found

    def get(self, env_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(self._get, {"env_id": env_id}).mappings().first()
        return dict(row) if row is not None else None

    def all(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(select(self.table).order_by(self.table.c.created_at, self.table.c.id)).mappings()]

    def set_start(self, env_id: str, start: str) -> None:
        self._write(self._set_start, {"env_id": env_id, "new_start": start})

    def touch(self, env_id: str, at: float) -> None:
        self._write(self._touch, {"env_id": env_id, "at": at})

    def idle(self, before: float) -> list[str]:
        """Ids of envs last used before `before` (wall-clock seconds)."""
        with self.engine.connect() as conn:
            return list(conn.scalars(select(self.table.c.id).where(self.table.c.last_used < before)))

    def handles(self) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.scalars(select(self.table.c.handle)))
