"""SQLite, the embedded default: one file per env, copied from a template file.

Durability: env files run in WAL mode with synchronous=OFF. A commit appends to the WAL
and is safe from the moment it returns against a killed process (SIGKILL, OOM): the pages
are in the OS's cache, which outlives the process; a crash mid-transaction leaves the file
intact. Only an OS crash or power loss can lose or damage an env file, and an env is one
rollout's scratch state, which such a crash ends anyway. synchronous=NORMAL would add an
fsync to every WAL checkpoint (each ~1000 pages written: 10-50 ms stalls every few hundred
writes, ~60 µs of every write on average); the registry, which outlives rollouts, keeps it.
(journal_mode=MEMORY, used before, corrupts a file when the process dies between writing
pages and committing.)

Connections: one engine for every env file through the routing pool (routing.py): one
connection per open env, at most `max_open` of them, never one closed while in use. Between
its transactions an env keeps its SQLAlchemy connection checked out (held.py), so a
transaction is a begin, a Session bound to it and a commit.
Every transaction starts with BEGIN IMMEDIATE, so another process writing the same env
waits (busy timeout) instead of failing halfway through an operation.

Recycling: a deleted env whose start is the template has its written rows put back and its
file, connection open, kept for the next env of that template (sqlite_recycle.py), so a
create-rollout-delete loop copies no file and parses no schema in steady state.
"""

from __future__ import annotations

import logging
import secrets
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session
from sqlalchemy.pool import QueuePool, StaticPool

from officegym import settings
from officegym.core.backend.base import Backend, Created, Gone, RowChange
from officegym.core.backend.held import HeldConnections
from officegym.core.backend.registry import Registry
from officegym.core.backend.routing import SERVING, RoutingPool, serving
from officegym.core.backend.sqlite_files import ROWS, START, diff_attached, diff_tracked, layer_setup
from officegym.core.backend.sqlite_recycle import file_name, generation, next_handle, reset_to_template

REGISTRY_FILE = "registry.db"
MAX_RECYCLED = 8  # reset files kept ready per template (each holds an open connection)
_log = logging.getLogger("officegym.backend")


def _uri(path: Path | str, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{quote(str(path))}" + (f"?{query}" if query else "")


def connect(path: Path | str, start: Path | str | None = None) -> sqlite3.Connection:
    """A connection to an existing env file (never creates one: a missing file is an error,
    not a fresh empty env), tuned; with `start`, its start state attached read-only as
    `og_start` (a connection that will diff: see `attach_start`)."""
    conn = sqlite3.connect(_uri(path, mode="rw"), uri=True, isolation_level=None, check_same_thread=False, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")  # a no-op for files copied from a template
    conn.execute("PRAGMA synchronous=OFF")  # durable against a killed process: see above
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA recursive_triggers=ON")  # rows REPLACE deletes get noted for the diff too
    conn.execute("PRAGMA cache_size=-2000")  # ≤ 2 MiB page cache per open env
    bound = settings.env_max_bytes()
    if bound is not None:  # past it a write fails with SQLITE_FULL: officegym.core.errors.storage_full
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count={max(bound // page, 1)}")
    if start is not None:
        attach_start(conn, start)
    return conn


def attach_start(conn: sqlite3.Connection, start: Path | str) -> None:
    """Attach the env's start state as `og_start`, unless it already is (also inside a
    transaction, which SQLite allows). Done when a diff first needs it, not on connect:
    SQLite parses an attached file's whole schema (every app's tables and tracking
    triggers, ~4 ms), which a rollout that is never graded, or not graded yet, need not pay.
    immutable: start states (templates, snapshots) are never written again, so SQLite needs
    no lock or WAL for them, and the diff reads them inside the env's transaction."""
    attached = {row[1] for row in conn.execute("PRAGMA database_list")}
    if START not in attached:
        conn.execute("ATTACH DATABASE ? AS " + START, (_uri(start, immutable="1"),))


@contextmanager
def read_template_file(path: str | Path) -> Iterator[Session]:
    """A read-only session on a template file (never written: opened immutable)."""
    engine = create_engine(
        "sqlite://", poolclass=StaticPool, creator=lambda: sqlite3.connect(_uri(path, immutable="1"), uri=True, check_same_thread=False)
    )
    try:
        with Session(engine) as db:
            yield db
            db.rollback()
    finally:
        engine.dispose()


_STAMP = "SELECT data_version, user_version FROM pragma_data_version, pragma_user_version"
_SEEN = "officegym.stamp_seen"  # in the DBAPI connection's info: (handle, data version, generation) last read
DELETED = -1  # the generation a deleted env's file is stamped with before it is unlinked


def _begin_immediate(engine: Engine) -> None:
    # Take the write lock when the transaction starts, not at its first write: a read-then-
    # write operation can then never fail halfway with SQLITE_BUSY against another process.
    # Sent on the driver's connection: through `exec_driver_sql` it cost ~50 µs of SQLAlchemy
    # per transaction, a tenth of a simple tool call. An env's sessions begin on the driver
    # themselves (`_check`, held.py): a Session that then begins SQLAlchemy's transaction on
    # the same connection finds the driver's open and joins it.
    event.listen(engine, "begin", _begin_on_driver)


def _begin_on_driver(conn: Any) -> None:
    driver = conn.connection.driver_connection
    if not driver.in_transaction:
        driver.execute("BEGIN IMMEDIATE")


class SQLiteBackend(Backend):
    name = "sqlite"

    def __init__(self, root: Path, max_open: int = 64) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._starts: dict[str, str] = {}  # handle → start file, attached when a diff needs it
        self._readers: dict[str, tuple[sqlite3.Connection, threading.Lock]] = {}  # template → reader
        self._shapes: dict[str, dict[str, Any]] = {}  # template → what resets learnt of its schema
        self._readers_lock = threading.Lock()  # (also guards _recycled)
        self._recycled: dict[str, list[str]] = {}  # template → handles of reset files, connection open
        self._generations: dict[str, int] = {}  # file → its generation, for recycled files
        self.pool = RoutingPool(self._connect, max_open=max_open)
        self.engine = create_engine("sqlite://", pool=self.pool)
        # One fewer kept than the pool may open: the pool then always has room for a new env's
        # connection without going over `max_open`.
        self.held = HeldConnections(max(1, max_open - 1))
        _begin_immediate(self.engine)
        self.registry_engine = create_engine(
            "sqlite://", creator=self._registry_connect, poolclass=QueuePool, pool_size=4, max_overflow=16, pool_timeout=60
        )
        _begin_immediate(self.registry_engine)
        self.registry = Registry(self.registry_engine, writer=self._registry_connect)
        with self.registry_engine.begin() as conn:  # BEGIN IMMEDIATE: one process creates it
            self.registry.create_table(conn)

    # -- connections ---------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        return connect(self._file(SERVING.get()))

    def _file(self, handle: str) -> Path:
        return self.root / file_name(handle)

    def _registry_connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.root / REGISTRY_FILE, isolation_level=None, check_same_thread=False, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def bind(self, handle: str, start: str) -> None:
        """Tell the backend an env's start file (after a restart, before its first session)."""
        self._starts[handle] = start

    def session(self, handle: str) -> AbstractContextManager[Session]:
        # On the env's kept connection (held.py), begun by `_check`.
        return self.held.session(handle, self.engine, self._check)

    def _check(self, handle: str, conn: Any) -> tuple[int, int]:
        # BEGIN IMMEDIATE; then, holding the write lock, the file must still be this env's:
        # not deleted by another process (a write would go to an unlinked file; a delete
        # stamps the file DELETED first) nor recycled for a new env (a new generation). The
        # stamp (held.py): the file's data version (it moves when another connection
        # commits) and its generation.
        # The generation is read again only when the data version moved: another connection's
        # stamp is a commit, which moves it; this connection's own stamp (a recycled file's new
        # generation) comes with a new handle. `PRAGMA data_version` alone is a third of the
        # cost of reading both, and every call runs it.
        driver = conn.connection.driver_connection
        driver.execute("BEGIN IMMEDIATE")
        version = driver.execute("PRAGMA data_version").fetchone()[0]
        seen = conn.info.get(_SEEN)
        if seen is not None and seen[0] == handle and seen[1] == version:
            stamp = seen[1:]
        else:
            stamp = driver.execute(_STAMP).fetchone()
            conn.info[_SEEN] = (handle, *stamp)
        if stamp[1] != generation(handle):
            raise Gone(handle)
        return stamp

    def read_template(self, template: str) -> Any:
        return read_template_file(template)

    # -- lifecycle -----------------------------------------------------------------------
    def create(self, template_file: Path, register: Callable[[Created, Any], None]) -> Created:
        template = str(Path(template_file).resolve())
        handle = self._pop_recycled(template)
        if handle is None:
            handle = f"{secrets.token_hex(12)}.db"  # not the env id: file names reveal nothing
            shutil.copyfile(template_file, self.root / handle)
        created = Created(handle=handle, start=template, template=template)
        self._starts[handle] = template
        try:
            register(created, None)
        except BaseException:
            self._starts.pop(handle, None)
            self.pool.evict(handle)
            self._unlink(handle)
            raise
        return created

    def _pop_recycled(self, template: str) -> str | None:
        with self._readers_lock:
            ready = self._recycled.get(template)
            return ready.pop() if ready else None

    def _recycle(self, record: Any, handle: str, template: str) -> bool:
        """Reset a deleted env's file (through its open connection) for the next env of the
        same template (sqlite_recycle.py); False when there is no room or it failed."""
        with self._readers_lock:
            if len(self._recycled.setdefault(template, [])) >= MAX_RECYCLED:
                return False
        fresh = next_handle(handle)
        reader, lock = self._template_reader(template)
        try:
            reset_to_template(record.dbapi_connection, reader, lock, generation(fresh), self._shapes.setdefault(template, {}))
        except (sqlite3.Error, OSError) as error:
            _log.info("not recycling env file %s (%s); dropping it", file_name(handle), error)
            return False
        self.pool.put(fresh, record)
        with self._readers_lock:
            self._recycled[template].append(fresh)
            self._generations[file_name(fresh)] = generation(fresh)
        return True

    def snapshot(self, handle: str, start: str, template: str) -> str:
        # Most setups become a layer over the template kept in the env file (sqlite_files.py):
        # no copy, and the file stays recyclable. A setup that wrote a WITHOUT ROWID table, or
        # an env that already has a start file of its own, gets a file snapshot.
        self.held.release(handle)  # (the store holds the env's lock: nobody is using it)
        if Path(start) == Path(template):
            with serving(handle):
                fairy = self.engine.raw_connection()
                try:
                    live = fairy.driver_connection
                    live.execute("BEGIN IMMEDIATE")
                    try:
                        layered = layer_setup(live)
                    except BaseException:
                        live.execute("ROLLBACK")
                        raise
                    live.execute("COMMIT")
                finally:
                    fairy.close()
            if layered:
                return start
        target = self.root / file_name(handle).replace(".db", ".start.db")
        target.unlink(missing_ok=True)
        with serving(handle):
            fairy = self.engine.raw_connection()
            try:
                live = fairy.driver_connection
                copy = sqlite3.connect(target)
                try:
                    live.backup(copy)  # page for page, so rows keep their rowids
                finally:
                    copy.close()
                live.execute("DELETE FROM og_changed")  # changes now count from here
                live.execute(f"DELETE FROM {ROWS}")
                if START in {row[1] for row in live.execute("PRAGMA database_list")}:
                    live.execute(f"DETACH DATABASE {START}")  # the next diff attaches the snapshot
            finally:
                fairy.close()
        self._starts[handle] = str(target)
        if start != template and Path(start).parent == self.root and Path(start) != target:
            Path(start).unlink(missing_ok=True)
        return str(target)

    def diff(self, db: Session, handle: str, start: str, template: str, exclude: frozenset[str]) -> list[RowChange]:
        conn = db.connection().connection.driver_connection
        start = self._starts.get(handle, start)
        if Path(start) == Path(template):  # most envs: the template is the start, read by a kept connection
            reader, lock = self._template_reader(template)
            with lock:
                return diff_tracked(conn, reader, exclude)
        attach_start(conn, start)  # a snapshot after a task's setup: one env's own start file
        return diff_attached(conn, exclude)

    def _template_reader(self, template: str) -> tuple[sqlite3.Connection, threading.Lock]:
        """One read-only connection per template for this backend (its schema parsed once),
        used by one diff at a time."""
        with self._readers_lock:
            found = self._readers.get(template)
            if found is None:
                conn = sqlite3.connect(_uri(template, immutable="1"), uri=True, check_same_thread=False)
                found = self._readers[template] = (conn, threading.Lock())
            return found

    def tables(self, db: Session) -> list[str]:
        sql = "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        return [r[0] for r in db.connection().exec_driver_sql(sql)]

    def drop(self, handle: str, start: str, template: str) -> None:
        # Unlinked under the file's write lock, so another process's session sees it gone.
        # The env's pooled connection does it when it has one: a new connection would parse
        # the whole schema first (~4 ms). That connection closes last, which checkpoints the
        # WAL (without an fsync: env connections run at synchronous=OFF).
        self.held.release(handle)
        record = self.pool.take(handle)  # the store holds the env's lock: nobody is using it
        self.pool.evict(handle)  # (a connection someone did hold closes when given back)
        self._starts.pop(handle, None)
        if record is not None and start == template and self._recycle(record, handle, template):
            return
        lock = record.dbapi_connection if record is not None else None
        try:
            if lock is None:  # never opened here: no WAL of ours to checkpoint, and no schema to parse
                lock = sqlite3.connect(_uri(self.root / handle, mode="rw"), uri=True, isolation_level=None, timeout=30)
                lock.execute("PRAGMA synchronous=OFF")
            # The file's generation becomes one no handle has: a session another process
            # opens on it, before or after the unlink (its connection keeps the unlinked
            # file open), is refused as gone by `_check`, which needs no stat for it.
            lock.execute("BEGIN EXCLUSIVE")
            lock.execute(f"PRAGMA user_version = {DELETED}")
            lock.execute("COMMIT")
            lock.execute("BEGIN EXCLUSIVE")
        except sqlite3.OperationalError:  # already gone
            lock = None
        try:
            self._unlink(handle)
        finally:
            if record is not None:
                record.close()
            elif lock is not None:
                lock.close()
        if start != template:
            Path(start).unlink(missing_ok=True)

    def _unlink(self, handle: str) -> None:
        with self._readers_lock:
            self._generations.pop(file_name(handle), None)
        for suffix in ("", "-wal", "-shm"):
            (self.root / f"{file_name(handle)}{suffix}").unlink(missing_ok=True)

    def exists(self, handle: str) -> bool:
        """The env's file is there and not recycled for another env since (as this process
        knows; a session checks the file's own generation)."""
        name = file_name(handle)
        return self._file(handle).exists() and self._generations.get(name, generation(handle)) == generation(handle)

    def open_engines(self) -> int:
        return self.pool.open_count()

    def reclaim(self, live_handles: set[str], min_age: float = 300.0) -> int:
        """Env files no registry row names, older than `min_age` seconds (younger ones may be
        mid-registration in another process)."""
        cutoff, removed = time.time() - min_age, 0
        with self._readers_lock:  # files reset for the next env are ours, though registered nowhere
            kept = {file_name(h) for h in live_handles} | {file_name(h) for ready in self._recycled.values() for h in ready}
        for path in self.root.glob("*.db"):
            if path.name == REGISTRY_FILE or path.name.endswith(".start.db"):
                continue
            if path.name not in kept and path.stat().st_mtime < cutoff:
                self._unlink(path.name)
                path.with_name(path.name.replace(".db", ".start.db")).unlink(missing_ok=True)
                removed += 1
        return removed

    def close(self) -> None:
        with self._readers_lock:
            readers, self._readers, self._shapes = list(self._readers.values()), {}, {}
            recycled, self._recycled = [h for ready in self._recycled.values() for h in ready], {}
        for conn, _ in readers:
            conn.close()
        self.held.release_all()
        self.pool.dispose()
        for handle in recycled:  # registered nowhere: nobody else would ever find them
            self._unlink(handle)
        self.registry.close()
        self.registry_engine.dispose()

