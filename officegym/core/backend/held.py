"""Each open env's SQLAlchemy connection, kept checked out between its transactions.

Opening a transaction the usual way (`Session(engine)` then `begin()`) checks a connection
out of the pool, wraps it in a new `Connection`, and gives it back at the end: ~90 µs of
SQLAlchemy per transaction, a sizeable part of a simple tool call. An env's
transactions always run on the same database connection anyway (routing.py), so its
`Connection` is kept here and a transaction costs a `begin`, a `Session` bound to it, and a
`commit`: an empty transaction went from ~150 to ~80 µs on a 2-core box.

Meta values carry over: a transaction starts knowing the meta values (the actor, the clock,
an app's counters: `db.meta_cache`) the env's last transaction on this connection committed,
when the backend's begin check can tell that nothing else wrote the database since (its
`stamp`: on SQLite, `PRAGMA data_version`, which moves when another connection commits, and
the file's generation). Every operation reads some of them: ~10-25 µs a call, for a ~4 µs
check. A rollback, a failed check or a backend without a stamp (None) carries nothing over.

A kept connection is either lent to the one transaction using it (taken out of this map) or
idle here; only idle ones are ever closed (given back to the pool), the least recently used
first when more than `max_held` are kept, so no thread's connection closes under it, and
(`close_idle`) those unused for a while: a PostgreSQL connection is a server process, which
an env nobody calls any more should not keep.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from officegym.core.backend.routing import SERVING
from officegym.core.db import assume_metas, known_metas
from officegym.core.sql import bind_driver

_CARRIED = "officegym.carried_metas"  # in the DBAPI connection's info: (stamp, meta values) of its last commit


class HeldConnections:
    def __init__(self, max_held: int) -> None:
        self.max_held = max_held
        self._idle: OrderedDict[str, Connection] = OrderedDict()
        self._kept_at: dict[str, float] = {}  # handle → when its connection was last given back
        self._lock = threading.Lock()

    @contextmanager
    def session(self, handle: str, engine: Engine, on_begin: Callable[[str, Connection], object]) -> Iterator[Session]:
        """One transaction on the env's kept connection (opened through `engine` when none is
        kept): `on_begin(handle, conn)` begins it on the driver connection (the backend's
        BEGIN, lock and checks: if it raises, the connection is not kept; it returns the
        database's stamp, or None), then a Session on the connection is yielded; commit on
        success, rollback on error. The connection is kept for the env's next transaction
        unless it broke.

        The transaction is the driver's: most operations run prepared statements only
        (`core/sql.py`), and SQLAlchemy's own transaction objects, begun and committed
        around each, were ~10 µs of every call. An operation that uses the ORM makes the
        Session begin SQLAlchemy's transaction on the connection (the backend's begin hook
        sees the driver's already open and adds nothing); it is then committed through the
        Session, which flushes first. Written flat (one generator, no nested context
        managers) and with the Session told its driver connection up front
        (`sql.bind_driver`): this runs once per tool call, and each layer it saves is a few µs
        of every call."""
        token = SERVING.set(handle)  # the pool's checkout (and any reconnect) is for this env
        conn = self.lend(handle)
        if conn is None or conn.closed or conn.invalidated:
            conn = engine.connect()
        driver = conn.connection.dbapi_connection
        began = broken = False
        db: Session | None = None
        try:
            try:
                stamp = on_begin(handle, conn)
                began = True
                db = Session(bind=conn, expire_on_commit=False, autoflush=True)
                bind_driver(db, conn)
                if stamp is not None:
                    carried = conn.info.pop(_CARRIED, None)
                    if carried is not None and carried[0] == stamp:
                        assume_metas(db, carried[1])
                yield db
                carry = (stamp, known_metas(db)) if stamp is not None else None  # (a Session's commit forgets them)
                broken = True  # until the commit returns: a commit that fails leaves the connection in doubt
                if db.new or db.in_transaction():
                    db.commit()  # (a Session transaction that never took the connection commits nothing)
                driver.commit()  # (a no-op when the Session's commit was the driver's)
                broken = False
                if carry is not None and carry[1]:  # committed: what it knew holds for the next one
                    conn.info[_CARRIED] = carry
            except BaseException as error:
                try:
                    if db is not None and db.in_transaction():
                        db.rollback()
                    driver.rollback()
                except Exception:
                    broken = True
                dbapi = conn.dialect.loaded_dbapi
                if isinstance(error, dbapi.Error):  # the driver's own (its BEGIN, lock, COMMIT): as SQLAlchemy raises them
                    broken = True
                    raise DBAPIError.instance(None, None, error, dbapi.Error, dialect=conn.dialect) from error
                raise
            finally:
                # A Session the operation never used (it ran prepared statements only) holds
                # nothing to let go: ~10 µs saved on such calls.
                if db is not None and (db.new or db.in_transaction()):
                    db.close()
        finally:
            SERVING.reset(token)
            if began and not broken and not conn.closed and not conn.invalidated:
                self.keep(handle, conn)
            else:
                conn.close()

    def lend(self, handle: str) -> Connection | None:
        """The env's kept connection, now the caller's alone; None when none is kept."""
        with self._lock:
            self._kept_at.pop(handle, None)
            return self._idle.pop(handle, None)

    def keep(self, handle: str, conn: Connection) -> None:
        """Take a lent (or new) connection back once its transaction has ended."""
        with self._lock:
            self._idle[handle] = conn
            self._kept_at[handle] = time.monotonic()
            victims = []
            while len(self._idle) > self.max_held:
                oldest, conn = self._idle.popitem(last=False)
                self._kept_at.pop(oldest, None)
                victims.append(conn)
        for victim in victims:
            victim.close()  # back to the pool, which keeps or closes the DBAPI connection

    def release(self, handle: str) -> None:
        """Give the env's idle connection back to the pool (before a drop or a snapshot
        works on the pool's connection directly)."""
        conn = self.lend(handle)
        if conn is not None:
            conn.close()

    def close_idle(self, idle_for: float) -> list[str]:
        """Give back to the pool every kept connection unused for `idle_for` seconds; returns
        the envs whose connection went."""
        cutoff = time.monotonic() - idle_for
        with self._lock:
            stale = [handle for handle, kept_at in self._kept_at.items() if kept_at < cutoff]
            conns = [self._idle.pop(handle) for handle in stale]
            for handle in stale:
                del self._kept_at[handle]
        for conn in conns:
            conn.close()
        return stale

    def handles(self) -> set[str]:
        """The envs whose connection is kept, idle, right now."""
        with self._lock:
            return set(self._idle)

    def release_all(self) -> None:
        with self._lock:
            conns, self._idle = list(self._idle.values()), OrderedDict()
            self._kept_at.clear()
        for conn in conns:
            conn.close()
