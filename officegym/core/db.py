"""The database of one env: SQLAlchemy base, transactions and the core tables.

Every env is one database (a SQLite file, or a PostgreSQL schema: see core/backend/) holding
the tables of every app plus three core tables: `og_meta` (seed, size, actor, the env clock),
`og_events` (the rollout's trajectory) and `og_changed` (which tables were written since the
start state, kept by the backend so a diff reads only those).

Nothing here speaks one backend's SQL: the statements below are standard SQL that SQLite
(≥ 3.24) and PostgreSQL (≥ 9.5) both accept, upsert included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Boolean, Engine, Integer, String, Text, bindparam, event, select, text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from officegym.core.sql import Prepared


# A column every write of its row moves (a last-modified time, who last modified it, a
# revision digest): marked `info=STAMP` on the model, so grading can tell a row saved with
# nothing changed, or a blank filled in, from data overwritten (graders/rubric.py).
STAMP = {"stamp": True}


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


class Changed(Base):
    """Names of the tables written since the start state. Filled by triggers the backend puts
    on every table (a write marks its table in the same transaction, so a rollback unmarks
    it); read and cleared only by the backend's diff and snapshot."""

    __tablename__ = "og_changed"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)


# Tables that are bookkeeping, not company state: never collateral.
CORE_TABLES = frozenset({"og_meta", "og_events", "og_changed"})
# The backend's own bookkeeping: never diffed, never dumped (its content depends on how a
# backend fires triggers, not on what happened in the company). og_changed_rows and
# og_setup_rows exist only in SQLite files (see core/backend/sqlite_files.py).
BACKEND_TABLES = frozenset({"og_changed", "og_changed_rows", "og_setup_rows"})


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One operation = one transaction: commit on success, roll back everything on error."""
    with Session(engine, expire_on_commit=False, autoflush=True) as session:
        with session.begin():
            yield session


# Meta is read and written on every operation (the actor, the clock): prepared once and run
# on the driver (core/sql.py) — ~10 µs, where an ORM round trip costs ~0.5 ms.
_GET_META = Prepared(select(Meta.value).where(Meta.key == bindparam("key")))
_SET_META = Prepared(text("INSERT INTO og_meta (key, value) VALUES (:key, :value) ON CONFLICT (key) DO UPDATE SET value = excluded.value"))
_SET_TWO_METAS = Prepared(text(
    "INSERT INTO og_meta (key, value) VALUES (:key, :value), (:key2, :value2) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
))


# A write reads the clock three or four times (tick, the rows it stamps, the event row) and
# a service its actor: values are kept per transaction, where nobody else can change them (the
# env's lock is held), and forgotten when any transaction or savepoint ends, so a rolled-back
# savepoint never leaves its values behind.
_META_CACHE = "officegym.meta"


@event.listens_for(Session, "after_transaction_end")
def _forget_meta(session: Session, _transaction: object) -> None:
    session.info.pop(_META_CACHE, None)


def meta_cache(session: Session) -> dict[str, str | None]:
    """The meta values this transaction has read or written (see above)."""
    known = session.info.get(_META_CACHE)
    if known is None:
        known = session.info[_META_CACHE] = {}
    return known


def meta_value(key: Any) -> Any:
    """A meta value as a scalar subquery: apps read several, with rows of their own, in the one
    statement that starts their calls."""
    return select(Meta.value).where(Meta.key == key).scalar_subquery()


def known_metas(session: Session) -> dict[str, str | None] | None:
    """The meta values this transaction knows (read or written), or None; read by the backend
    just before it commits, to carry them to the env's next transaction (held.py)."""
    return session.info.get(_META_CACHE)


def assume_metas(session: Session, values: dict[str, str | None]) -> None:
    """Start this transaction knowing `values` (the last commit's, when the backend can tell
    that nothing else wrote the database since: held.py)."""
    session.info[_META_CACHE] = dict(values)


def get_meta(session: Session, key: str, default: str | None = None) -> str | None:
    known = meta_cache(session)
    if key in known:
        value = known[key]
    else:
        value = known[key] = _GET_META.scalar(session, key=key)
    return value if value is not None else default


_GET_METAS: dict[tuple[str, ...], Prepared] = {}  # by the keys read


def get_metas(session: Session, keys: tuple[str, ...]) -> dict[str, str | None]:
    """`get_meta` of each of `keys`, those not known in this transaction read in one
    statement (a write's tick reads the clock and its tick count together)."""
    known = meta_cache(session)
    missing = tuple(key for key in keys if key not in known)
    if missing:
        prepared = _GET_METAS.get(missing)
        if prepared is None:
            prepared = _GET_METAS[missing] = Prepared(select(Meta.key, Meta.value).where(Meta.key.in_(missing)))
        for key in missing:
            known[key] = None
        known.update(prepared.tuples(session))
    return {key: known[key] for key in keys}


def set_meta(session: Session, key: str, value: str) -> None:
    _SET_META.run(session, key=key, value=value)
    session.info.setdefault(_META_CACHE, {})[key] = value


_SET_METAS: dict[int, Prepared] = {}  # by how many rows


def set_metas(session: Session, values: dict[str, str]) -> None:
    """`set_meta` of each of `values`, in one statement (a write's clock tick and an app's
    id counter that moves with it)."""
    prepared = _SET_METAS.get(len(values))
    if prepared is None:
        rows = ", ".join(f"(:key{i}, :value{i})" for i in range(len(values)))
        prepared = _SET_METAS[len(values)] = Prepared(text(
            f"INSERT INTO og_meta (key, value) VALUES {rows} ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        ))
    params: dict[str, str] = {}
    for i, (key, value) in enumerate(values.items()):
        params[f"key{i}"], params[f"value{i}"] = key, value
    prepared.run(session, **params)
    meta_cache(session).update(values)


def set_two_metas(session: Session, key: str, value: str, key2: str, value2: str) -> None:
    """Two `set_meta`s in one statement (every write's clock tick sets two)."""
    _SET_TWO_METAS.run(session, key=key, value=value, key2=key2, value2=value2)
    known = session.info.setdefault(_META_CACHE, {})
    known[key], known[key2] = value, value2
