"""PostgreSQL, the real shared backend: one database per env, copied from a template
database, with a warm pool of ready copies.

Why database-per-env, not schema-per-env. Measured on this 2-core box (PostgreSQL 15, the
small company, ~4,600 rows in 14 tables; the box also running other work):
- a schema copied from a template schema (CREATE TABLE … + INSERT … SELECT): p50 66–80 ms
  with 8 tables, 215–300 ms with 14. PostgreSQL's catalog work is ~1–9 ms per table and
  index, so the cost grows with every table an app adds (four apps: most of a second).
  DROP SCHEMA … CASCADE: 8 ms (8 tables) to 75 ms (14).
- CREATE DATABASE … TEMPLATE (STRATEGY WAL_LOG, PG 15's default): p50 29–34 ms quiet,
  ~95 ms under load, growing with bytes, not tables; FILE_COPY forces a checkpoint (p99
  0.7–5.9 s), so it is not used. DROP DATABASE: 53–75 ms. Connecting to an env's database
  costs 3–9 ms, paid once per env while its connection stays open.
Both are far over "create ≤ 10 ms", so creating an env pops a ready copy from a warm pool
(one row lock, two row writes) and a background thread refills it; the copy's cost then
sets the refill rate, i.e. how many envs per second the server can make, where the database
copy is 3–10× ahead and does not degrade as apps grow. Through this backend, quiet box:
create p50 2.3–3.2 ms / p99 4–12 ms with a warm pool (SQLite: 1.0–1.3 ms), 42–55 ms
cold (~330 ms while drops' checkpoints run).
A database per env also keeps its start state beside it (schema `og_start`, copied with
the template), so the diff stays one SQL statement per changed table; it isolates envs
completely (no search_path to get wrong); and it can be recycled: a delete shuts the
database at once, then in the background renames it (no old session can reach it again),
resets the tables the rollout wrote from og_start and returns it to the pool, so in steady
state neither CREATE nor DROP DATABASE runs (a drop waits for a checkpoint: 50 ms quiet,
seconds under write load). The price, one connection per
active env, is bounded by the routing pool (at most `max_open` open, idle ones closed
least-recently-used first; reopening one costs 3–9 ms).

Env and template databases are named after the main database (`og_<hash>_e_…`, `…_t_…`),
so several main databases can share a server and each one only ever touches its own.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from officegym.core.backend import pg_schema, pg_templates
from officegym.core.backend.base import Backend, Created, RowChange, changes_of, key_columns, known_table
from officegym.core.backend.held import HeldConnections
from officegym.core.backend.pg_pool import WarmPool
from officegym.core.backend.pg_schema import DIRTY, SETUP, SHARED, START
from officegym.core.backend.pgtools import drop_database
from officegym.core.backend.registry import Registry
from officegym.core.backend.routing import SERVING, RoutingPool
from officegym.core.db import BACKEND_TABLES

LOCK_SPACE = 0x0FF1CE  # first key of every advisory lock this backend takes
_INIT, _TEMPLATE, _ENV = 1, 2, 3
DEFAULT_WARM = 4  # ready copies kept per template (OFFICEGYM_PG_WARM)
UNDEFINED_DATABASE = "3D000"  # PostgreSQL's SQLSTATE for "database … does not exist"
RECLAIM_AFTER = 300.0  # seconds before an unregistered env database counts as left by a crash


def engine_url(url: str) -> str:
    """Any postgres URL as SQLAlchemy's psycopg (v3) URL."""
    return make_url(url).set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


def database_prefix(main_database: str) -> str:
    return "og_" + hashlib.sha1(main_database.encode()).hexdigest()[:6]


def _lock_env(_handle: str, conn: Any) -> None:
    # Advisory locks belong to their database: one key serialises the env's operations
    # across processes (the store's lock covers this one's threads). Sent on the driver:
    # through SQLAlchemy it cost ~50 µs per transaction.
    conn.connection.driver_connection.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_SPACE, _ENV))


class PostgresBackend(WarmPool, Backend):
    name = "postgresql"

    def __init__(self, url: str, warm: int | None = None, max_open: int = 24) -> None:
        self.url = url
        main = make_url(engine_url(url))
        self.prefix = database_prefix(main.database or "postgres")
        self.warm = int(os.environ.get("OFFICEGYM_PG_WARM", DEFAULT_WARM)) if warm is None else warm
        self.main = create_engine(main, pool_size=4, max_overflow=12, pool_timeout=60, pool_pre_ping=True)
        self.registry = Registry(self.main, schema=SHARED)
        with self.main.begin() as conn:  # once per database, whichever process comes first
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_SPACE, _INIT))
            conn.exec_driver_sql(f"CREATE SCHEMA IF NOT EXISTS {SHARED}")
            conn.exec_driver_sql(
                f"CREATE TABLE IF NOT EXISTS {SHARED}.og_pool (handle TEXT PRIMARY KEY, template TEXT NOT NULL, made_at DOUBLE PRECISION NOT NULL)"
            )
            self.registry.create_table(conn)
            conn.exec_driver_sql(pg_templates.TABLE_DDL)
        self._connect_args = main.set(database="postgres")
        # No pre-ping (a round trip per operation): a connection the server dropped fails its
        # operation once and is replaced on the next.
        self.pool = RoutingPool(self._connect, max_open=max_open)
        self.engine = create_engine(main, pool=self.pool)  # every env database, one dialect and cache
        self.held = HeldConnections(max(1, max_open - 1))  # (see sqlite.py)
        self._templates: dict[str, tuple[str, tuple[str, ...]]] = {}  # SQLite file → (database, tables)
        self._noted: dict[str, float] = {}  # template database → when this process last noted using it
        self._init_pool()

    def _connect(self) -> Any:
        cargs, cparams = self.main.dialect.create_connect_args(self._connect_args.set(database=SERVING.get()))
        # Env writes commit without waiting for the WAL flush: a commit is safe once it
        # returns against any crash of ours (the server has it); a crash of the server or
        # its machine may lose the last ~0.5 s of env writes but never tears one, as SQLite's
        # synchronous=NORMAL. Saves ~1 ms of fsync per write. (Registry writes still flush.)
        options = " ".join(filter(None, [cparams.pop("options", ""), "-c synchronous_commit=off"]))
        return self.main.dialect.loaded_dbapi.connect(*cargs, options=options, **cparams)

    @contextmanager
    def _admin(self) -> Iterator[Any]:
        """A main-database connection outside any transaction (CREATE/DROP DATABASE)."""
        with self.main.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            yield conn

    # -- sessions ------------------------------------------------------------------------
    def session(self, handle: str) -> AbstractContextManager[Session]:
        # On the env's kept connection (held.py), holding the env's advisory lock.
        return self.held.session(handle, self.engine, _lock_env)

    def close_idle_connections(self, idle_for: float) -> list[str]:
        """Close the connections of envs nobody called for `idle_for` seconds (the worker
        does, now and then); their next call opens a new one. Returns their handles."""
        stale = self.held.close_idle(idle_for)
        for handle in stale:
            self.pool.evict(handle)  # the pool keeps what it is given back: close it for real
        return stale

    def read_template(self, template: str) -> Any:
        # The template file itself (PostgreSQL's template database must stay free of sessions,
        # or CREATE DATABASE … TEMPLATE fails): the same rows, as the parity tests prove.
        from officegym.core.backend.sqlite import read_template_file

        return read_template_file(template)

    # -- templates -----------------------------------------------------------------------
    def template_database(self, template_file: Path) -> tuple[str, tuple[str, ...]]:
        """The database holding this SQLite template's rows, built on first use (other
        processes wait on an advisory lock and find it made)."""
        key = str(Path(template_file).resolve())
        if key in self._templates:
            return self._templates[key]
        name = self._template_name(template_file)
        names = pg_schema.sqlite_tables(Path(template_file))
        built = False
        with self.main.connect() as lock:
            lock.exec_driver_sql("SELECT pg_advisory_lock(%s, %s)", (LOCK_SPACE, _TEMPLATE))
            try:
                if not self._database_exists(name):
                    self._build_template(name, Path(template_file), names)
                    built = True
                self._note_use(name)  # under the lock: a prune never drops it in between
            finally:
                lock.exec_driver_sql("SELECT pg_advisory_unlock(%s, %s)", (LOCK_SPACE, _TEMPLATE))
        self._templates[key] = (name, names)
        if built:  # a new template: older ones may have gone stale
            self._want_prune()
        return name, names

    def _template_name(self, template_file: str | Path) -> str:
        return f"{self.prefix}_t_" + hashlib.sha1(Path(template_file).name.encode()).hexdigest()[:16]

    def _note_use(self, name: str) -> None:
        now = time.time()
        with self.main.begin() as conn:
            pg_templates.note_use(conn, name, now)
        self._noted[name] = now

    def prune_templates(self, now: float | None = None, stale_after: float = pg_templates.STALE_AFTER) -> list[str]:
        """Drop template databases (and their pooled copies) nobody used for `stale_after`
        seconds and no live env came from (pg_templates.py); returns their names."""
        in_use = {self._template_name(file) for file in {r["template"] for r in self.registry.all()}}
        in_use |= {name for name, _ in self._templates.values()}
        with self.main.connect() as lock:  # not while a process builds or notes a template
            lock.exec_driver_sql("SELECT pg_advisory_lock(%s, %s)", (LOCK_SPACE, _TEMPLATE))
            try:
                return pg_templates.prune(self.main, self.prefix, in_use, self._drop_database, now, stale_after)
            finally:
                lock.exec_driver_sql("SELECT pg_advisory_unlock(%s, %s)", (LOCK_SPACE, _TEMPLATE))

    def _build_template(self, name: str, template_file: Path, names: tuple[str, ...]) -> None:
        building = f"{name}_build"
        with self._admin() as admin:
            admin.exec_driver_sql(f"DROP DATABASE IF EXISTS {building} WITH (FORCE)")
            admin.exec_driver_sql(f"CREATE DATABASE {building} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
        try:
            cargs, cparams = self.main.dialect.create_connect_args(self._connect_args.set(database=building))
            with self.main.dialect.loaded_dbapi.connect(*cargs, **cparams) as conn:
                for statement in pg_schema.template_ddl(names):
                    conn.execute(statement)
                pg_schema.load_rows(conn, template_file, names)
                for statement in pg_schema.finish_ddl(names):
                    conn.execute(statement)
            with self._admin() as admin:  # published whole, under its final name
                admin.exec_driver_sql(f"ALTER DATABASE {building} RENAME TO {name}")
        except BaseException:
            with self._admin() as admin:
                admin.exec_driver_sql(f"DROP DATABASE IF EXISTS {building} WITH (FORCE)")
            raise

    def _database_exists(self, name: str) -> bool:
        with self.main.connect() as conn:
            return conn.exec_driver_sql("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).first() is not None

    def _copy(self, template: str) -> str:
        handle = self._name()
        with self._admin() as admin:
            admin.exec_driver_sql(f"CREATE DATABASE {handle} TEMPLATE {template}")
        return handle

    # -- lifecycle -----------------------------------------------------------------------
    def create(self, template_file: Path, register: Callable[[Created, Any], None]) -> Created:
        template, _ = self.template_database(template_file)
        file = str(Path(template_file).resolve())
        if time.time() - self._noted.get(template, 0.0) > pg_templates.NOTE_EVERY:
            if not self._database_exists(template):  # pruned while this process sat idle for a day
                self._templates.pop(file, None)
                template, _ = self.template_database(template_file)
            else:
                self._note_use(template)
        popped = self._pop(template, file, register)
        if popped is None and self._recycling_soon():  # a delete's database is ~20 ms from ready
            popped = self._pop(template, file, register)
        if popped is not None:
            created = popped
        else:  # CREATE DATABASE cannot run in a transaction: copy, then record
            created = Created(handle=self._copy(template), start=file, template=file)
            try:
                with self.main.begin() as conn:
                    register(created, conn)
            except BaseException:
                self._drop_database(created.handle)
                raise
        self._want(file)
        return created

    def snapshot(self, handle: str, start: str, template: str) -> str:
        # The setup's tables go to og_setup, not over og_start: og_start stays the template,
        # which is what recycling the database restores.
        with self.session(handle) as db:
            conn = db.connection()
            conn.exec_driver_sql(f"CREATE SCHEMA IF NOT EXISTS {SETUP}")
            for (name,) in conn.exec_driver_sql("SELECT name FROM og_changed ORDER BY name").fetchall():
                conn.exec_driver_sql(f'DROP TABLE IF EXISTS {SETUP}."{name}"')
                conn.exec_driver_sql(f'CREATE TABLE {SETUP}."{name}" AS TABLE public."{name}"')
                conn.exec_driver_sql(f"INSERT INTO {DIRTY} (name) VALUES (%s) ON CONFLICT DO NOTHING", (name,))
            conn.exec_driver_sql("DELETE FROM og_changed")
        return f"{handle}/{SETUP}"

    def diff(self, db: Session, handle: str, start: str, template: str, exclude: frozenset[str]) -> list[RowChange]:
        conn = db.connection()
        changed = {r[0] for r in conn.exec_driver_sql("SELECT name FROM public.og_changed")}
        setup = set()
        if start != template:
            setup = {r[0] for r in conn.exec_driver_sql("SELECT tablename FROM pg_tables WHERE schemaname = %s", (SETUP,))}
        changes: list[RowChange] = []
        for name in sorted(changed - exclude - BACKEND_TABLES):
            table = known_table(name)
            if table is None:
                continue
            columns = [c.name for c in table.columns]
            listed = ", ".join(f'"{c}"' for c in columns)
            base = SETUP if name in setup else START
            now = conn.exec_driver_sql(f'SELECT {listed} FROM public."{name}" EXCEPT SELECT {listed} FROM {base}."{name}"').fetchall()
            was = conn.exec_driver_sql(f'SELECT {listed} FROM {base}."{name}" EXCEPT SELECT {listed} FROM public."{name}"').fetchall()
            changes.extend(changes_of(name, columns, key_columns(columns, table), [tuple(r) for r in now], [tuple(r) for r in was]))
        return changes

    def tables(self, db: Session) -> list[str]:
        return [r[0] for r in db.connection().exec_driver_sql("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]

    def drop(self, handle: str, start: str, template: str) -> None:
        """Shut the env's database now; in the background, recycle it into the warm pool (or
        drop it). A DROP DATABASE waits for a checkpoint (50 ms quiet, seconds under write
        load): neither a delete nor the next create should pay for that."""
        self.held.release(handle)
        self.pool.evict(handle)
        with self._admin() as admin:
            try:
                admin.exec_driver_sql(f"ALTER DATABASE {handle} ALLOW_CONNECTIONS false")
            except DBAPIError as error:
                if getattr(error.orig, "sqlstate", None) == UNDEFINED_DATABASE:  # already gone: the delete is done
                    return
                raise
            # Other processes' sessions on it end here: an open transaction rolls back (never
            # acknowledged), and their next one cannot connect and finds the env gone.
            # Our own client sessions only: an autovacuum worker on it is the server's, and a
            # session still starting up has no role yet; PostgreSQL lets only a superuser end
            # either, and the DROP that follows stops them anyway.
            admin.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend' AND usename = current_user", (handle,)
            )
        self._doom(handle, template)

    def _name(self) -> str:
        return f"{self.prefix}_e_{int(time.time()):x}_{secrets.token_hex(6)}"

    def _drop_database(self, handle: str) -> None:
        # FORCE ends other processes' sessions on it: their open transaction rolls back (it was
        # never acknowledged) and their next one finds the env gone.
        with self._admin() as admin:
            drop_database(admin.exec_driver_sql, handle)

    def exists(self, handle: str) -> bool:
        with self.main.connect() as conn:
            row = conn.exec_driver_sql("SELECT datallowconn FROM pg_database WHERE datname = %s", (handle,)).first()
        return bool(row and row[0])

    def open_engines(self) -> int:
        return self.pool.open_count()

    def reclaim(self, live_handles: set[str]) -> int:
        """Env databases no record and no pool entry names, made over RECLAIM_AFTER seconds
        ago (a crash between CREATE DATABASE and its registration leaves one)."""
        with self.main.connect() as conn:
            pooled = {r[0] for r in conn.exec_driver_sql(f"SELECT handle FROM {SHARED}.og_pool")}
            found = [r[0] for r in conn.exec_driver_sql("SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{self.prefix}\\_e\\_%",))]
        orphans = []
        for name in found:
            made = name.removeprefix(f"{self.prefix}_e_").split("_")[0]
            if name not in live_handles | pooled and time.time() - int(made, 16) > RECLAIM_AFTER and self._unclaimed(name):
                orphans.append(name)
                self._drop_database(name)
        return len(orphans)

    def _unclaimed(self, handle: str) -> bool:
        """No env record and no pool entry names `handle`, read now: `live_handles` was read
        before the pool, so a create that popped this database in between is in neither.
        Once out of both it stays out (only the pool hands databases to envs)."""
        with self.main.connect() as conn:
            return conn.exec_driver_sql(
                f"SELECT 1 FROM {SHARED}.og_pool WHERE handle = %s UNION ALL SELECT 1 FROM {self.registry.table.fullname} WHERE handle = %s",
                (handle, handle),
            ).first() is None

    def close(self) -> None:
        self._stop_worker()
        self.held.release_all()
        self.pool.dispose()
        self.main.dispose()

    def purge_databases(self) -> None:
        """Drop every env, pool and template database of this main database (tests)."""
        with self.main.connect() as conn:
            names = [r[0] for r in conn.exec_driver_sql("SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{self.prefix}\\_%",))]
        self.held.release_all()
        self.pool.dispose()
        for name in names:
            self._drop_database(name)
