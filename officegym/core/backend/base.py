"""The backend seam: what the env store needs from a database engine.

A backend makes an env from a template, opens one transaction on it, freezes its start
state, diffs it against that start, dumps it and drops it. The env store above it owns ids,
locks, the registry and expiry; the faces and apps above that only ever see a SQLAlchemy
`Session`. Everything a backend hands out is backend-neutral: `RowChange`s with the values
SQLAlchemy's column types give (a Boolean is a bool on both), and a logical dump that is the
same text on every backend for the same state.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from officegym.core.backend.registry import Registry
from officegym.core.db import BACKEND_TABLES, Base


@dataclass(frozen=True, slots=True)
class RowChange:
    table: str
    key: str  # primary key values joined with "/", e.g. "C04ABC/1712345678.000100"
    change: str  # "insert" | "update" | "delete"
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @property
    def row(self) -> dict[str, Any]:
        """The row as it is now (or as it was, for a delete)."""
        return self.after if self.after is not None else self.before or {}

    @property
    def changed_columns(self) -> tuple[str, ...]:
        if self.before is None or self.after is None:
            return ()
        return tuple(c for c in self.after if self.after[c] != self.before.get(c))

    def describe(self) -> str:
        if self.change == "update":
            return f"update ({', '.join(self.changed_columns)})"
        return self.change


class Gone(LookupError):
    """The env's database no longer exists (another process deleted it)."""


@dataclass(frozen=True, slots=True)
class Created:
    """Where a new env lives: its database, its start state and its template, as the
    backend names them (a file name, a schema name); the registry stores these strings."""

    handle: str
    start: str
    template: str


class Backend(ABC):
    name: str  # "sqlite" | "postgresql"
    registry: Registry  # where env records live (a file next to the envs, or a table)

    @abstractmethod
    def create(self, template_file: Path, register: Callable[[Created, Any], None]) -> Created:
        """A new env copied from the template built at `template_file` (a SQLite template:
        other backends load it once into their own form). `register(created, conn)` records
        the env; a backend that can runs it in the same transaction as the copy."""

    @abstractmethod
    def session(self, handle: str) -> AbstractContextManager[Session]:
        """One transaction on the env (commit on success, rollback on error). The store
        calls it with the env's lock held, so one session per env exists at a time."""

    @abstractmethod
    def read_template(self, template: str) -> AbstractContextManager[Session]:
        """A read-only transaction on a template (to re-sample a task after a restart)."""

    @abstractmethod
    def snapshot(self, handle: str, start: str, template: str) -> str:
        """Freeze the env's current state as its start; returns the new start's name."""

    @abstractmethod
    def diff(self, db: Session, handle: str, start: str, template: str, exclude: frozenset[str]) -> list[RowChange]:
        """Row changes of the env against its start, read in the caller's transaction."""

    @abstractmethod
    def tables(self, db: Session) -> list[str]:
        """Names of the env's tables, read in the caller's transaction (for the dump)."""

    @abstractmethod
    def drop(self, handle: str, start: str, template: str) -> None:
        """Remove the env's database and its start snapshot (never the template)."""

    @abstractmethod
    def exists(self, handle: str) -> bool:
        """Whether the env's database is still there (another process may have dropped it)."""

    def bind(self, handle: str, start: str) -> None:
        """Learn an env's start state (an env loaded from the registry after a restart)."""

    def open_engines(self) -> int:
        """How many env databases hold an open connection right now (for the bench)."""
        return 0

    def reclaim(self, live_handles: set[str]) -> int:
        """Remove databases no registered env owns (left by a crash between copy and
        registration); returns how many. Backends that register atomically have none."""
        return 0

    def close(self) -> None:
        """Release connections and threads; envs stay (they are persisted)."""


# -- shared helpers --------------------------------------------------------------------------
def known_table(name: str) -> Table | None:
    return Base.metadata.tables.get(name)


def key_columns(columns: Sequence[str], table: Table | None) -> list[str]:
    """Primary key columns in declared order, or every column when there is no key."""
    if table is not None and len(table.primary_key.columns):
        return [c.name for c in table.primary_key.columns]
    return list(columns)


def changes_of(table: str, columns: Sequence[str], keys: Sequence[str], now: list[tuple], was: list[tuple]) -> list[RowChange]:
    """Row changes from the rows only the live side has (`now`) and only the start side has
    (`was`), matched by primary key; a row that merely moved (same values) is no change."""
    key_at = [columns.index(k) for k in keys]

    def keyed(rows: list[tuple]) -> dict[str, dict[str, Any]]:
        return {"/".join(str(r[i]) for i in key_at): dict(zip(columns, r, strict=True)) for r in rows}

    after, before = keyed(now), keyed(was)
    changes = []
    for key in sorted(after.keys() | before.keys()):
        old, new = before.get(key), after.get(key)
        if old is not None and old == new:
            continue
        kind = "update" if old and new else ("insert" if new else "delete")
        changes.append(RowChange(table, key, kind, old, new))
    return changes


def logical_dump(db: Session, tables: Sequence[str]) -> str:
    """Every row of every table, one JSON line each, tables by name and rows by primary key.

    Values go through SQLAlchemy's column types and rows are sorted in Python, so the text
    depends on the data alone: not on a file's page layout, a collation or insertion order,
    and it is the same on SQLite and PostgreSQL for the same state.
    """
    lines = []
    for name in sorted(set(tables) - BACKEND_TABLES):
        table = known_table(name)
        if table is None:
            raise LookupError(f"table {name!r} is in the env but not in the models: import its app first")
        columns = [c.name for c in table.columns]
        keys = key_columns(columns, table)
        rows = [dict(zip(columns, row, strict=True)) for row in db.execute(select(*table.columns))]
        rows.sort(key=lambda r: json.dumps([r[k] for k in keys], default=str))
        lines.extend(json.dumps({"table": name, "row": r}, sort_keys=True, ensure_ascii=False, default=str) for r in rows)
    return "\n".join(lines) + "\n"


def chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
