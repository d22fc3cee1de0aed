"""PostgreSQL schemas: an env's tables as PostgreSQL DDL, change tracking, the start copy,
and loading a template database from a SQLite template file.

The models are written for SQLite, whose INTEGER is 64-bit and whose TEXT has no length
limit. So that a model means the same on both backends, every integer column becomes
BIGINT (chat keeps microsecond timestamps in an Integer) and every string column TEXT (a
VARCHAR(16) that SQLite never enforced must not start failing here); the template
database is created with the "C" collation, so text sorts byte by byte as in SQLite,
whatever the cluster's locale. Validation of lengths and ranges belongs to the
operations, identically for both.
"""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path

from sqlalchemy import BigInteger, Integer, MetaData, String, Table, Text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.schema import CreateIndex, CreateTable

from officegym.core.backend.sqlite_files import ROWS, SETUP_ROWS, typed_rows
from officegym.core.db import BACKEND_TABLES, Base

SHARED = "og_shared"  # the main database's schema for the registry and the warm pool
START = "og_start"  # an env's pristine copy of the template, inside the env's database
SETUP = "og_setup"  # tables a task's setup wrote, as they were after it (the start, where present)
DIRTY = f"{START}.og_dirty"  # tables written before the last snapshot (og_changed: since it)
_DIALECT = postgresql.dialect()


# SQLAlchemy's psycopg dialect casts every bound value to its column's type
# (`%(seq)s::INTEGER`), so a model's Integer must mean BIGINT in statements too, not only in
# the tables made here, or a microsecond timestamp overflows int4. Only this dialect, only
# the plain Integer type (BigInteger and SmallInteger keep their own names).
@compiles(Integer, "postgresql")
def _integer_is_bigint(_type: Integer, _compiler: object, **_kw: object) -> str:
    return "BIGINT"


@cache
def _metadata(names: tuple[str, ...]) -> MetaData:
    """A copy of the models' tables `names`, with PostgreSQL column types (see above)."""
    metadata = MetaData()
    for name in names:
        table = Base.metadata.tables[name].to_metadata(metadata)
        for column in table.columns:
            if isinstance(column.type, Integer):
                column.type = BigInteger()
            elif isinstance(column.type, String):
                column.type = Text()
    return metadata


def tables_of(names: tuple[str, ...]) -> list[Table]:
    return list(_metadata(tuple(sorted(names))).sorted_tables)


def template_ddl(names: tuple[str, ...]) -> list[str]:
    """The tables and indexes, in `public` (the search_path's default)."""
    ddl = []
    for table in tables_of(names):
        ddl.append(str(CreateTable(table).compile(dialect=_DIALECT)))
        ddl.extend(str(CreateIndex(i).compile(dialect=_DIALECT)) for i in sorted(table.indexes, key=lambda i: i.name or ""))
    return ddl


def finish_ddl(names: tuple[str, ...]) -> list[str]:
    """After the rows are in: sequences moved past them, the start copy, change tracking."""
    statements = [
        f"SELECT setval(pg_get_serial_sequence('public.\"{t.name}\"', '{c.name}'), "
        f"COALESCE((SELECT MAX(\"{c.name}\") FROM public.\"{t.name}\"), 0) + 1, false)"
        for t in tables_of(names) if (c := t.autoincrement_column) is not None
    ]
    statements.append(f"CREATE SCHEMA {START}")
    statements += [f'CREATE TABLE {START}."{n}" AS TABLE public."{n}"' for n in sorted(set(names) - BACKEND_TABLES)]
    statements.append(f"CREATE TABLE {DIRTY} (name TEXT PRIMARY KEY)")
    # One statement-level trigger per table names it in og_changed (a no-op insert on the
    # second write to a table); the mark commits or rolls back with the write.
    statements.append(
        """CREATE FUNCTION public.og_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO public.og_changed (name) VALUES (TG_TABLE_NAME) ON CONFLICT DO NOTHING;
          RETURN NULL;
        END $$"""
    )
    statements += [
        f'CREATE TRIGGER og_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public."{n}" '
        "FOR EACH STATEMENT EXECUTE FUNCTION public.og_mark_changed()"
        for n in sorted(set(names) - BACKEND_TABLES)
    ]
    return statements


def reset_ddl(names: tuple[str, ...], written: set[str]) -> list[str]:
    """Statements that put an env database back to its template's state, given the tables
    written since it was copied: those and every table whose foreign keys lead to them are
    emptied in one TRUNCATE and refilled from `og_start`, parents first; sequences, the
    setup snapshot and the change marks are reset. No catalog work beyond the TRUNCATE."""
    tables = tables_of(names)
    reset = set(written) - BACKEND_TABLES
    while True:  # a table referencing a reset one must be reset too (TRUNCATE needs it)
        more = {t.name for t in tables if any(fk.column.table.name in reset for fk in t.foreign_keys)} - reset
        if not more:
            break
        reset |= more
    ordered = [t for t in tables if t.name in reset]
    statements = []
    if ordered:
        statements.append("TRUNCATE " + ", ".join(f'public."{t.name}"' for t in ordered))
        statements += [f'INSERT INTO public."{t.name}" SELECT * FROM {START}."{t.name}"' for t in ordered]
        statements += [
            f"SELECT setval(pg_get_serial_sequence('public.\"{t.name}\"', '{c.name}'), "
            f"COALESCE((SELECT MAX(\"{c.name}\") FROM public.\"{t.name}\"), 0) + 1, false)"
            for t in ordered if (c := t.autoincrement_column) is not None
        ]
    return statements + [f"DROP SCHEMA IF EXISTS {SETUP} CASCADE", "DELETE FROM public.og_changed", f"DELETE FROM {DIRTY}"]


def sqlite_tables(template_file: Path) -> tuple[str, ...]:
    conn = sqlite3.connect(f"file:{template_file}?immutable=1", uri=True)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    finally:
        conn.close()
    names = [n for n in names if n not in (ROWS, SETUP_ROWS)]  # SQLite's own row tracking
    unknown = sorted(set(names) - set(Base.metadata.tables))
    if unknown:
        raise LookupError(f"template {template_file.name} has tables the models do not: {unknown} (import their apps first)")
    return tuple(sorted(names))


def load_rows(pg_conn: object, template_file: Path, names: tuple[str, ...]) -> None:
    """COPY every row of the SQLite template into the tables of `public`, with values typed
    as the models say (SQLite's 0/1 become booleans)."""
    src = sqlite3.connect(f"file:{template_file}?immutable=1", uri=True)
    try:
        for table in tables_of(names):
            columns = tuple(c.name for c in table.columns)
            listed = ", ".join(f'"{c}"' for c in columns)
            rows = typed_rows(table.name, columns, src.execute(f'SELECT {listed} FROM "{table.name}"').fetchall())
            with pg_conn.cursor().copy(f'COPY public."{table.name}" ({listed}) FROM STDIN') as copy:  # type: ignore[attr-defined]
                for row in rows:
                    copy.write_row(row)
    finally:
        src.close()
