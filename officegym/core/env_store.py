"""The env store: isolated copies of a company template, one per rollout, on a backend.

Creating an env copies a cached template (the generator never runs here). An env id is an
unguessable capability: whoever holds it may act in that env, nobody else can find it.

What the store guarantees on top of its backend (core/backend/):
- one operation at a time per env: `session(env)` holds the env's lock for the whole
  transaction, whichever thread (the event loop's or a worker's) asks, so two faces writing
  to one env never interleave and a delete waits for the write in flight;
- env records are durable: each env has a registry row written before `create` returns, so
  a new store over the same envs dir or database (after a restart or a SIGKILL) serves and
  grades every live env;
- idle envs expire: an env unused for `ttl` seconds is deleted, lazily when it is looked up
  and by `expire_idle()`, which `create` runs at most once a minute.

Reads are logged late (`log_later`): the event row of a read (an MCP read is logged; its
row holds the answer, a few KB) waits in the env's record here and is written, in order,
at the start of the env's next transaction that is not a read: the next write, a grade, a
look at the events, a diff or a dump, a shutdown. A read then commits nothing: written in
its own transaction, its row made every read a write commit (~0.1 ms of a ~0.5 ms read).
A process killed outright loses the rows of the reads since the env's last write, never a
write; another process reading the same env's log does not see them until then.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from officegym.core import events
from officegym.core.backend import Backend, RowChange, open_backend
from officegym.core.backend.base import Created, Gone, logical_dump
from officegym.core.errors import EnvNotFound, storage_full

_ENV_ID = re.compile(r"[0-9a-f]{32}")
DEFAULT_TTL = 6 * 3600.0  # seconds an env may sit unused before it expires
LOCK_TIMEOUT = 60.0  # an operation waiting longer than this for its env fails instead of hanging
TOUCH_EVERY = 60.0  # seconds between registry writes of an env's last use (TTL is hours)
SWEEP_EVERY = 60.0
# Reads logged late, per env: beyond these, the next read writes them in its own transaction
# (a bound on the memory an env's waiting rows hold).
MAX_LATE_ROWS = 16
MAX_LATE_CHARS = 64_000


@dataclass(eq=False, slots=True)
class Env:
    id: str
    seed: int
    size: str
    handle: str  # the backend's name for this env's database (a file, a schema)
    start: str  # ... for its state at the start of the rollout (the template, or a snapshot)
    template: str  # ... for the template it was copied from
    task_id: str | None = None  # the task family, if the env was created for one
    variant: int = 0  # which of the family's instances on this company
    toolset: str | None = None  # the MCP toolset agents get (None: each app's default)
    created_at: float = 0.0  # wall clock, bookkeeping only
    last_used: float = 0.0
    task: Any = None  # the sampled task instance; lives only in server memory, never in the db
    flushed: float = 0.0  # when last_used was last written to the registry
    late_rows: list[dict[str, Any]] = field(default_factory=list)  # reads' log rows not yet written (`log_later`)
    late_chars: int = 0


class EnvStore:
    def __init__(
        self,
        root: Path | None = None,
        max_open_engines: int = 64,
        *,
        db_url: str | None = None,
        ttl: float | None = DEFAULT_TTL,
        backend: Backend | None = None,
    ) -> None:
        self.backend = backend or open_backend(db_url, root, max_open=max_open_engines)
        # The envs dir: SQLite's env files and registry; on PostgreSQL only scratch space.
        self.root = getattr(self.backend, "root", None) or (Path(root) if root is not None else None)
        if self.root is not None:
            self.root.mkdir(parents=True, exist_ok=True)
        self.max_open_engines = max_open_engines
        self.ttl = ttl or None  # 0 / None: envs never expire
        self._envs: dict[str, Env] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._holders: dict[str, int] = {}  # env id → thread holding its lock
        self._lock = threading.Lock()
        self._dropping: set[str] = set()  # ids being deleted: a racing lookup must not revive one
        # Envs that never expire here however long they sit idle: `serve`'s default env, the
        # company a user left running and comes back to (it may still be deleted).
        self._kept: set[str] = set()
        self._last_sweep = time.time()

    @property
    def backend_name(self) -> str:
        return self.backend.name

    # -- lifecycle ---------------------------------------------------------------------
    def create(
        self, template: Path, seed: int, size: str, *, task_id: str | None = None, variant: int = 0, toolset: str | None = None
    ) -> Env:
        now = time.time()
        env_id = secrets.token_hex(16)
        fields = {"id": env_id, "seed": seed, "size": size, "task_id": task_id, "variant": variant, "toolset": toolset,
                  "created_at": now, "last_used": now}

        def register(created: Created, conn: Any) -> None:
            self.backend.registry.add({**fields, "handle": created.handle, "start": created.start, "template": created.template}, conn)

        created = self.backend.create(Path(template), register)
        env = Env(handle=created.handle, start=created.start, template=created.template, flushed=now, **fields)
        with self._lock:
            self._envs[env_id] = env
            self._locks[env_id] = threading.Lock()
        if now - self._last_sweep > SWEEP_EVERY:
            self._last_sweep = now
            self.expire_idle(now)
        return env

    def get(self, env_id: str) -> Env:
        """The live env with this id; EnvNotFound for unknown, deleted, expired or malformed ids."""
        if not isinstance(env_id, str) or not _ENV_ID.fullmatch(env_id):
            raise EnvNotFound(str(env_id)[:64])
        env = self._envs.get(env_id) or self._load(env_id)
        if self.ttl and env_id not in self._kept and time.time() - env.last_used > self.ttl and self._idle_everywhere(env):
            self._drop(env)
            raise EnvNotFound(env_id)
        return env

    def list(self) -> list[Env]:
        """Every live env, including those another process created (read from the registry)."""
        found = []
        for record in self.backend.registry.all():
            try:
                found.append(self.get(record["id"]))
            except EnvNotFound:
                continue
        return found

    def delete(self, env_id: str) -> None:
        self._drop(self.get(env_id))

    def snapshot_start(self, env: Env) -> None:
        """Freeze the env's current state as its start state (after a task's setup)."""
        with self._hold(env):
            env.start = self.backend.snapshot(env.handle, env.start, env.template)
            self.backend.registry.set_start(env.id, env.start)

    def keep(self, env_id: str) -> None:
        """Never expire the env `env_id` in this store (it may not exist yet or any more)."""
        self._kept.add(env_id)

    def touch(self, env: Env) -> None:
        now = time.time()
        env.last_used = now
        if now - env.flushed >= TOUCH_EVERY:
            env.flushed = now
            self.backend.registry.touch(env.id, now)

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Delete every env unused for `ttl` seconds; returns their ids. Also removes env
        databases no record names (left by a crash between copying and registering)."""
        now = time.time() if now is None else now
        expired = []
        if self.ttl:
            for env_id in self.backend.registry.idle(now - self.ttl):
                if env_id in self._kept:
                    continue
                env = self._envs.get(env_id)
                if env is not None and now - env.last_used <= self.ttl:
                    env.flushed = 0.0
                    self.touch(env)  # in use here, only not yet written down
                    continue
                try:
                    self._drop(env or self._load(env_id))
                    expired.append(env_id)
                except EnvNotFound:
                    pass
        self.backend.reclaim(self.backend.registry.handles())
        return expired

    def close(self) -> None:
        """Write the reads' waiting log rows, release connections; the envs stay (a new store
        over the same place finds them)."""
        for env in list(self._envs.values()):
            if env.late_rows:
                try:
                    with self.session(env):
                        pass  # a session that is not a read writes the waiting rows as it opens
                except (EnvNotFound, TimeoutError):
                    continue
        self.backend.close()

    def log_later(self, env: Env, row: dict[str, Any]) -> None:
        """Keep a read's log row (`events.entry`) for the env's next transaction that is not
        a read. Called inside the read's session (the env's lock held), so rows keep the
        order of the calls."""
        env.late_rows.append(row)
        env.late_chars += len(row["result"]) + len(row["args"])

    def purge(self) -> None:
        """Delete every env (tests, throwaway runs)."""
        for env in self.list():
            try:
                self._drop(env)
            except EnvNotFound:
                pass

    # -- database access ---------------------------------------------------------------
    @contextmanager
    def session(self, env: Env, *, reading: bool = False) -> Iterator[Session]:
        """One transaction on the env's database (commit on success, rollback on error),
        with the env's lock held: one operation at a time per env, from any thread. It
        starts by writing the reads' waiting log rows (`log_later`), unless it is itself a
        read's (`reading`) and they are few."""
        # `_hold` spelt out (its acquire and release): this runs once per tool call, and a
        # nested generator context costs a few µs of each.
        lock = self._acquire(env)
        try:
            late = env.late_rows
            written = 0
            with self.backend.session(env.handle) as db:
                if late and (not reading or len(late) >= MAX_LATE_ROWS or env.late_chars >= MAX_LATE_CHARS):
                    written = self._write_late(db, late)
                yield db
            if written:  # committed: they are in the log (a rollback leaves them waiting)
                del late[:written]
                env.late_chars = sum(len(r["result"]) + len(r["args"]) for r in late)
        except Gone:
            self._forget(env)
            raise EnvNotFound(env.id) from None
        except DBAPIError:
            if not self.backend.exists(env.handle):  # another process deleted it
                self._forget(env)
                raise EnvNotFound(env.id) from None
            raise
        finally:
            self._holders.pop(env.id, None)
            lock.release()
        self.touch(env)

    @staticmethod
    def _write_late(db: Session, late: list[dict[str, Any]]) -> int:
        """Write the reads' waiting rows first in `db`'s transaction; how many were written.
        In an env that is full (OFFICEGYM_ENV_MAX_MB) they keep waiting, behind a savepoint,
        and the transaction goes on: a grade or a read of the log still runs."""
        try:
            with db.begin_nested():
                events.write_entries(db, late)
        except DBAPIError as error:
            if not storage_full(error):
                raise
            return 0
        return len(late)

    def diff(self, env: Env, exclude: frozenset[str] = frozenset(), *, db: Session | None = None) -> list[RowChange]:
        """Row changes since the start state. Pass `db` (a session of this env) to read them
        in the same transaction as the checks that grade them."""
        if db is not None:
            return self.backend.diff(db, env.handle, env.start, env.template, exclude)
        with self.session(env) as own:
            return self.backend.diff(own, env.handle, env.start, env.template, exclude)

    def dump(self, env: Env) -> str:
        """A logical dump: every row of every table as JSON lines, the same text on every
        backend for the same state (determinism and parity tests compare these)."""
        with self.session(env) as db:
            return logical_dump(db, self.backend.tables(db))

    def template_session(self, env: Env) -> Any:
        """A read-only transaction on the env's template (re-sampling a task after a restart)."""
        return self.backend.read_template(env.template)

    def open_engines(self) -> int:
        return self.backend.open_engines()

    # -- internals -----------------------------------------------------------------------
    def _load(self, env_id: str) -> Env:
        record = self.backend.registry.get(env_id)
        if record is None:
            raise EnvNotFound(env_id)
        env = Env(**record, flushed=record["last_used"])
        with self._lock:
            if env_id in self._envs:
                return self._envs[env_id]
            if env_id in self._dropping:  # read just before its delete removed the record:
                raise EnvNotFound(env_id)  # never a second Env (and lock) for a dying env
            self._envs[env_id] = env
            self._locks[env_id] = threading.Lock()
        self.backend.bind(env.handle, env.start)
        return env

    def _idle_everywhere(self, env: Env) -> bool:
        """Idle here; and in the registry too (another process may be using it)."""
        record = self.backend.registry.get(env.id)
        if record is None:
            return True
        env.last_used = max(env.last_used, record["last_used"])
        return time.time() - env.last_used > (self.ttl or float("inf"))

    @contextmanager
    def _hold(self, env: Env) -> Iterator[None]:
        lock = self._acquire(env)
        try:
            yield
        finally:
            self._holders.pop(env.id, None)
            lock.release()

    def _acquire(self, env: Env) -> threading.Lock:
        """Take the env's lock (its one-operation-at-a-time); the caller pops `_holders` and
        releases it."""
        me = threading.get_ident()
        with self._lock:
            lock = self._locks.get(env.id) if self._envs.get(env.id) is env else None
            nested = self._holders.get(env.id) == me
        if lock is None:
            raise EnvNotFound(env.id)
        if nested:
            raise RuntimeError(f"a second session of env {env.id} on the thread already holding one would deadlock")
        if not lock.acquire(timeout=LOCK_TIMEOUT):
            raise TimeoutError(f"env {env.id} stayed busy for {LOCK_TIMEOUT:.0f} s")
        if self._envs.get(env.id) is not env:  # deleted while this call waited
            lock.release()
            raise EnvNotFound(env.id)
        self._holders[env.id] = me
        return lock

    def _forget(self, env: Env) -> None:
        with self._lock:
            if self._envs.get(env.id) is env:
                self._envs.pop(env.id, None)
                self._locks.pop(env.id, None)

    def _drop(self, env: Env) -> None:
        with self._hold(env):
            with self._lock:
                self._dropping.add(env.id)
            try:
                self._forget(env)
                self.backend.registry.remove(env.id)
                self.backend.drop(env.handle, env.start, env.template)
            finally:  # from here a stale record read finds no database: its session says so
                with self._lock:
                    self._dropping.discard(env.id)
