"""The warm pool of ready env databases, and the background worker that keeps it: it
refills the pool with copies of the template and recycles deleted envs' databases into it.

Creating an env pops a ready database (one row lock and two row writes in the main
database, committed with the env's record). Deleting one shuts its database at once; the
worker then renames it (no session of the deleted env can ever reach it again), resets the
tables the rollout wrote from the copy of the template it carries (`og_start`) and returns
it to the pool: ~10–30 ms, against 55 ms for a fresh copy and a checkpoint for a drop. So in
a create-rollout-delete loop neither CREATE nor DROP DATABASE runs.

A mixin of PostgresBackend (postgres.py), which provides the main engine, the template
databases, copying, naming and dropping.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError

from officegym.core.backend import pg_schema
from officegym.core.backend.base import Created
from officegym.core.backend.pg_schema import DIRTY, SHARED

KEEP_RECYCLED = 64  # a pool may grow to this with recycled envs (to the peak of live envs)
IDLE_CONNECTION_SECONDS = 60.0  # an env connection unused this long is closed (a server process each)


class WarmPool:
    main: Any
    warm: int
    _connect_args: Any
    template_database: Callable[[Path], tuple[str, tuple[str, ...]]]
    _copy: Callable[[str], str]
    _admin: Callable[[], Any]
    close_idle_connections: Callable[[float], list[str]]
    _drop_database: Callable[[str], None]
    _name: Callable[[], str]
    prune_templates: Callable[[], list[str]]

    def _init_pool(self) -> None:
        self.keep = KEEP_RECYCLED  # recycled copies kept per template beyond `warm`; more are dropped
        self._wanted: set[str] = set()  # template files whose pool the worker keeps warm
        self._doomed: list[tuple[str, str]] = []  # deleted envs' databases (and template files), shut
        self._wake = threading.Condition()
        self._recycling = 0  # deleted envs' databases being recycled now
        self._recycled = 0  # how many recycles have finished (creates wait for the next)
        self._closed = False
        self._prune = False  # drop stale templates (pg_templates.py) when the worker is free
        self.idle_connection_seconds = IDLE_CONNECTION_SECONDS  # the worker closes env connections idle this long
        self._worker: threading.Thread | None = None

    def _pop(self, template: str, file: str, register: Callable[[Created, Any], None]) -> Created | None:
        with self.main.begin() as conn:
            popped = conn.exec_driver_sql(
                f"DELETE FROM {SHARED}.og_pool WHERE handle = (SELECT handle FROM {SHARED}.og_pool WHERE template = %s "
                "ORDER BY made_at, handle LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING handle",
                (template,),
            ).first()
            if popped is None:
                return None
            created = Created(handle=popped[0], start=file, template=file)
            register(created, conn)  # the pop and the record commit together
        return created

    def _recycling_soon(self, wait: float = 0.25) -> bool:
        """Wait (briefly) for a recycle in progress here; True if one finished. A create right
        after a delete, the rhythm of a rollout loop, then reuses its database."""
        with self._wake:
            if not self._doomed and not self._recycling:
                return False
            seen = self._recycled
            return self._wake.wait_for(lambda: self._recycled != seen, timeout=wait)

    def settle(self, timeout: float = 60.0) -> None:
        """Wait until the worker has recycled or dropped every deleted env (bench, tests)."""
        with self._wake:
            self._wake.wait_for(lambda: not self._doomed and not self._recycling, timeout=timeout)

    def _doom(self, handle: str, template_file: str) -> None:
        with self._wake:
            self._doomed.append((handle, template_file))
            self._start_worker()
            self._wake.notify()

    def _recycle(self, handle: str, template_file: str) -> None:
        """A deleted env's database, renamed (so no old session can ever reach it again) and
        reset to its template from its own og_start copy, back into the pool: ~10–30 ms
        where a drop costs a checkpoint and a new copy 55 ms. Dropped instead when the
        pool is full or the database is not as the template made it."""
        template, names = self.template_database(Path(template_file))
        if self.pooled(Path(template_file)) >= max(self.warm, self.keep):
            raise LookupError("the pool is full")
        fresh = self._name()
        with self._admin() as admin:
            for attempt in range(20):  # terminated sessions take a moment to leave
                try:
                    admin.exec_driver_sql(f"ALTER DATABASE {handle} RENAME TO {fresh}")
                    break
                except DBAPIError:
                    if attempt == 19:
                        raise
                    time.sleep(0.05)
            admin.exec_driver_sql(f"ALTER DATABASE {fresh} ALLOW_CONNECTIONS true")
        try:
            cargs, cparams = self.main.dialect.create_connect_args(self._connect_args.set(database=fresh))
            with self.main.dialect.loaded_dbapi.connect(*cargs, **cparams) as conn:
                present = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
                if present != set(names):
                    raise LookupError(f"tables changed: {sorted(present ^ set(names))}")
                written = {r[0] for r in conn.execute(f"SELECT name FROM og_changed UNION SELECT name FROM {DIRTY}")}
                conn.execute("SET LOCAL synchronous_commit = off")  # a lost reset is only re-made
                for statement in pg_schema.reset_ddl(names, written):
                    conn.execute(statement)
            with self.main.begin() as main:
                main.exec_driver_sql(f"INSERT INTO {SHARED}.og_pool VALUES (%s, %s, %s)", (fresh, template, time.time()))
        except BaseException:
            self._drop_database(fresh)
            raise

    def _start_worker(self) -> None:  # with self._wake held
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="officegym-pg-worker", daemon=True)
            self._worker.start()

    def _want_prune(self) -> None:
        if self._closed:
            return
        with self._wake:
            self._prune = True
            self._start_worker()
            self._wake.notify()

    def _want(self, template_file: str) -> None:
        """A create happened: keep the template's pool warm, and have the worker running
        (it also closes env connections left idle)."""
        if self._closed:
            return
        with self._wake:
            self._start_worker()
            if self.warm > 0:
                self._wanted.add(template_file)
                self._wake.notify()

    def pooled(self, template_file: Path) -> int:
        """How many ready copies of this template wait in the pool."""
        template, _ = self.template_database(template_file)
        with self.main.connect() as conn:
            return conn.exec_driver_sql(f"SELECT count(*) FROM {SHARED}.og_pool WHERE template = %s", (template,)).scalar_one()

    def fill_pool(self, template_file: Path, count: int | None = None) -> int:
        """Make ready copies until the template's pool holds `count` (default: warm);
        returns how many it made. The worker calls this; so may a server at start."""
        template, _ = self.template_database(template_file)
        count = self.warm if count is None else count
        made = 0
        while not self._closed and self.pooled(template_file) < count:
            handle = self._copy(template)
            with self.main.begin() as conn:
                conn.exec_driver_sql(f"INSERT INTO {SHARED}.og_pool VALUES (%s, %s, %s)", (handle, template, time.time()))
            made += 1
        return made

    def _work(self) -> None:
        while True:
            with self._wake:
                while not self._wanted and not self._doomed and not self._prune and not self._closed:
                    if not self._wake.wait(timeout=self.idle_connection_seconds / 2):
                        break  # a quiet spell: time to close what went idle
                if self._closed:
                    return
                doomed, self._doomed = self._doomed, []
                wanted, self._wanted = self._wanted, set()
                prune, self._prune = self._prune, False
                self._recycling = len(doomed)  # counted down as each is done: creates wait for them
            # Deleted envs first: recycled, they are what the refill would otherwise copy. A
            # failed drop is reclaimed later (no record names it); a failed refill only makes
            # creates slower.
            for handle, template_file in doomed:
                if self._closed:  # shutting down: what is left is reclaimed later (no record names it)
                    break
                try:
                    self._recycle(handle, template_file)
                except Exception:  # noqa: BLE001  (full pool, altered env, a race: drop it)
                    self._try(self._drop_database, handle)
                finally:
                    with self._wake:
                        self._recycling -= 1
                        self._recycled += 1
                        self._wake.notify_all()
            for template_file in wanted:
                if not self._closed:
                    self._try(self.fill_pool, Path(template_file))
            self._try(self.close_idle_connections, self.idle_connection_seconds)
            if prune and not self._closed:  # last: what a rollout waits for comes first
                self._try(lambda _: self.prune_templates(), None)

    @staticmethod
    def _try(job: Callable[[Any], Any], arg: Any) -> None:
        try:
            job(arg)
        except Exception:  # noqa: BLE001
            time.sleep(0.5)

    def _stop_worker(self) -> None:
        """Stop after the job at hand. Deleted envs' databases not yet recycled stay shut
        (no connections, no record) until `reclaim` drops them: a shutdown does not wait
        for a checkpoint per database."""
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        if self._worker is not None:
            self._worker.join(timeout=60)
