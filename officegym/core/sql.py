"""Prepared statements for the hot paths: built once with SQLAlchemy, run on the driver.

A statement built and executed through SQLAlchemy Core costs ~190 µs before the database
does anything (clause construction, cache-key generation, compiled-cache lookup, result
set-up); the same SQL on the DBAPI cursor costs ~5 µs. For the reads every tool call makes
(resolve a channel, page a history, count pins) and the event row every call writes, that
overhead was most of a call's server time. `Prepared` keeps the statement SQLAlchemy built —
so the SQL stays one dialect-neutral declaration, compiled once per dialect — and runs it
on the session's own DBAPI connection (same transaction), applying the column types' bind
and result conversions (SQLite's 0/1 come back as bools) so rows read as Core rows would.

Use it where a path is hot and the statement is fixed up to its parameters; build ad-hoc
queries (filters that vary by argument) with Core as usual. Writes through `Prepared` bypass
the ORM session: only use them for rows no ORM object in the same session holds.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable


def _picker(order: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The parameters in placeholder order, as a tuple: `itemgetter` does it in C (a tool
    call runs ten statements; a generator over the names cost ~1 µs each)."""
    if len(order) == 1:
        only = order[0]
        return lambda values: (values[only],)
    return itemgetter(*order) if order else (lambda values: ())


class _Compiled:
    __slots__ = ("sql", "order", "pick", "defaults", "bind", "types", "dialect", "result", "keys", "_row")

    def __init__(self, statement: Executable, dialect: Dialect) -> None:
        # IN lists with their values known at build time are spelt out: the SQL stays fixed.
        compiled = statement.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
        self.sql = compiled.string
        # qmark drivers (sqlite3) take a tuple in placeholder order; pyformat (psycopg) a dict.
        self.order: tuple[str, ...] | None = tuple(compiled.positiontup) if compiled.positiontup is not None else None
        self.pick = _picker(self.order) if self.order is not None else None
        self.defaults = compiled.construct_params(_check=False)  # literals SQLAlchemy turned into binds
        self.bind: dict[str, Callable[[Any], Any]] = {
            name: processor for name, processor in compiled._bind_processors.items() if processor is not None
        }
        columns = compiled._result_columns
        self.types = tuple(c.type for c in columns)
        self.dialect = dialect
        # Result conversions are chosen on the first run: some depend on the type the database
        # reports for the column (psycopg's numerics), which only a cursor knows.
        self.result: tuple[tuple[int, Callable[[Any], Any]], ...] | None = None
        self.keys = tuple(c.keyname for c in columns)
        self._row: Any = None  # the named row class (False: no columns), made on first use (`shape`)

    def choose_conversions(self, description: Any) -> None:
        coltypes = [d[1] for d in description] if description else [None] * len(self.types)
        processors = [t._cached_result_processor(self.dialect, c) for t, c in zip(self.types, coltypes, strict=False)]
        self.result = tuple((i, p) for i, p in enumerate(processors) if p is not None)

    def params(self, given: dict[str, Any]) -> Any:
        values = {**self.defaults, **given} if self.defaults else given
        for name, convert in self.bind.items():
            value = values.get(name)
            if value is not None:
                values[name] = convert(value)
        return self.pick(values) if self.pick is not None else values

    def convert(self, raw: tuple[Any, ...]) -> Any:
        if self.result:
            raw = list(raw)  # type: ignore[assignment]
            for i, convert in self.result:
                raw[i] = convert(raw[i])  # type: ignore[index]
        return raw

    def shape(self, raw: tuple[Any, ...]) -> Any:
        row = self._row
        if row is None:
            # The named-tuple class, made on first use: building it is ~10% of compiling a
            # new query, which may only ever be read as tuples or dicts.
            row = self._row = namedtuple("Row", self.keys, rename=True) if self.keys else False  # type: ignore[misc]
        raw = self.convert(raw)
        return row._make(raw) if row is not False else raw


class Prepared:
    """One statement (a Core `select`/`insert`/`update`/`delete` with `bindparam`s), runnable
    on any session's connection with keyword parameters."""

    __slots__ = ("statement", "_by_dialect")

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._by_dialect: dict[tuple[str, str], _Compiled] = {}

    def _run(self, db: Session, params: dict[str, Any]) -> tuple[Any, _Compiled]:
        dbapi, dialect = _driver(db)
        key = (dialect.name, dialect.driver)
        compiled = self._by_dialect.get(key)
        if compiled is None:
            compiled = self._by_dialect[key] = _Compiled(self.statement, dialect)
        cursor = dbapi.cursor()
        values = compiled.params(params)
        try:
            cursor.execute(compiled.sql, values)
        except dialect.loaded_dbapi.Error as error:  # as SQLAlchemy would raise it (OperationalError, IntegrityError, …)
            cursor.close()
            raise DBAPIError.instance(compiled.sql, values, error, dialect.loaded_dbapi.Error, dialect=dialect) from error
        if compiled.result is None:
            compiled.choose_conversions(cursor.description)
        return cursor, compiled

    def rows(self, db: Session, **params: Any) -> list[Any]:
        cursor, compiled = self._run(db, params)
        try:
            return [compiled.shape(r) for r in cursor.fetchall()]
        finally:
            cursor.close()

    def mappings(self, db: Session, **params: Any) -> list[dict[str, Any]]:
        """Rows as dicts by column key (labels that are not identifiers included)."""
        cursor, compiled = self._run(db, params)
        try:
            return [dict(zip(compiled.keys, compiled.convert(r), strict=True)) for r in cursor.fetchall()]
        finally:
            cursor.close()

    def tuples(self, db: Session, **params: Any) -> list[tuple[Any, ...]]:
        """Rows as plain tuples: for reads of thousands of rows whose columns need no result
        conversion (text and integers), where building a named row each costs more than the read."""
        cursor, compiled = self._run(db, params)
        try:
            rows = cursor.fetchall()
        finally:
            cursor.close()
        if compiled.result:
            return [tuple(compiled.shape(r)) for r in rows]
        return rows

    def first(self, db: Session, **params: Any) -> Any:
        cursor, compiled = self._run(db, params)
        try:
            raw = cursor.fetchone()
            return compiled.shape(raw) if raw is not None else None
        finally:
            cursor.close()

    def scalar(self, db: Session, **params: Any) -> Any:
        row = self.first(db, **params)
        return row[0] if row is not None else None

    def scalars(self, db: Session, **params: Any) -> list[Any]:
        return [r[0] for r in self.rows(db, **params)]

    def run(self, db: Session, **params: Any) -> int:
        """Execute a write; returns the rows it touched."""
        cursor, _ = self._run(db, params)
        try:
            return cursor.rowcount
        finally:
            cursor.close()

    def run_many(self, db: Session, rows: list[dict[str, Any]]) -> None:
        """Execute a write once per parameter set, in one driver `executemany`."""
        if not rows:
            return
        dbapi, dialect = _driver(db)
        key = (dialect.name, dialect.driver)
        compiled = self._by_dialect.get(key)
        if compiled is None:
            compiled = self._by_dialect[key] = _Compiled(self.statement, dialect)
        cursor = dbapi.cursor()
        values = [compiled.params(dict(row)) for row in rows]
        try:
            cursor.executemany(compiled.sql, values)
        except dialect.loaded_dbapi.Error as error:  # as SQLAlchemy would raise it
            raise DBAPIError.instance(compiled.sql, values[0], error, dialect.loaded_dbapi.Error, dialect=dialect) from error
        finally:
            cursor.close()


_DRIVER = "officegym.driver"
_WHOLE_SESSION = object()  # the kept driver serves the session for its whole life


def bind_driver(db: Session, conn: Connection) -> None:
    """Tell a session that lives exactly one transaction of `conn` (the env store's sessions:
    core/backend/held.py) its driver connection, so prepared statements never ask SQLAlchemy
    for it: a statement-only call then never builds the Session's own transaction state."""
    db.info[_DRIVER] = (_WHOLE_SESSION, conn.connection.dbapi_connection, conn.dialect)


def _driver(db: Session) -> tuple[Any, Dialect]:
    """The DBAPI connection and dialect of the session's current transaction. `db.connection()`
    costs ~15 µs of SQLAlchemy bookkeeping and a tool call runs a dozen statements, so the
    answer is kept in the session, tied to the transaction it belongs to: after a commit the
    next transaction may hold another pooled connection."""
    kept = db.info.get(_DRIVER)
    if kept is not None and (kept[0] is _WHOLE_SESSION or kept[0] is db.get_transaction()):
        return kept[1], kept[2]
    conn = db.connection()
    found = (conn.connection.dbapi_connection, conn.dialect)
    db.info[_DRIVER] = (db.get_transaction(), *found)
    return found  # type: ignore[return-value]
