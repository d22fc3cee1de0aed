"""SQLite files: the schema in a fixed order, change tracking, building a template file, and
the row diff of a file against its start state.

Change tracking: every table carries small triggers that note each row an insert, update or
delete touches (its rowid, in `og_changed_rows`; a WITHOUT ROWID table is noted whole in
`og_changed`), in the same transaction, so a rollback forgets them. A diff then compares
only those rows with the start state: its cost follows what the rollout did, not the size
of the company (a solved task's diff: ~8 ms → under 1 ms on the small company), and it
never reads file pages (which, in WAL mode, may not be in the file yet).

Two core tables carry no triggers (UNTRACKED): every write ticks the clock in `og_meta` and
appends its row to `og_events`, and their notes were ~20 µs of each write (an upsert fires
the update and insert triggers of both rows). Both are small beside the company (a few dozen
meta rows; the events are the rollout's own), so a diff that asks for them compares them
whole, and a recycled file gets them back whole from the template.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool
from sqlalchemy.schema import CreateIndex, CreateTable

from officegym.core.backend.base import RowChange, changes_of, known_table
from officegym.core.db import BACKEND_TABLES, Base

START = "og_start"  # the schema name a start state is attached under
ROWS = "og_changed_rows"  # rows written since the template: (table, rowid)
SETUP_ROWS = "og_setup_rows"  # the start state's own rows where a task's setup wrote (see below)
UNTRACKED = ("og_events", "og_meta")  # written by every write, compared and reset whole (above)
_DIALECT = sqlite_dialect.dialect()


def schema_ddl() -> tuple[str, ...]:
    """The whole schema of a template file, in a fixed order: tables and indexes, then change
    tracking (SQLAlchemy keeps a table's indexes in a set, so `create_all` would order them
    differently per process and the template files would differ byte for byte)."""
    return table_ddl() + tracking_ddl()


def table_ddl() -> tuple[str, ...]:
    ddl = []
    for table in Base.metadata.sorted_tables:
        ddl.append(str(CreateTable(table).compile(dialect=_DIALECT)))
        ddl.extend(str(CreateIndex(i).compile(dialect=_DIALECT)) for i in sorted(table.indexes, key=lambda i: i.name or ""))
    ddl.append(f"CREATE TABLE {ROWS} (name TEXT NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (name, rid)) WITHOUT ROWID")
    ddl.append(f"CREATE TABLE {SETUP_ROWS} (name TEXT NOT NULL, rid INTEGER NOT NULL, row TEXT, PRIMARY KEY (name, rid)) WITHOUT ROWID")
    return tuple(ddl)


def _note(table: str, rowid: str | None) -> str:
    # Not INSERT OR IGNORE: the firing statement's conflict policy (an upsert's) would
    # override the trigger's and fail on the second note of the same row.
    if rowid is None:
        return (f"INSERT INTO og_changed (name) SELECT '{table}' "
                f"WHERE NOT EXISTS (SELECT 1 FROM og_changed WHERE name = '{table}');")
    return (f"INSERT INTO {ROWS} (name, rid) SELECT '{table}', {rowid} "
            f"WHERE NOT EXISTS (SELECT 1 FROM {ROWS} WHERE name = '{table}' AND rid = {rowid});")


def tracking_ddl() -> tuple[str, ...]:
    statements = []
    for table in sorted(Base.metadata.sorted_tables, key=lambda t: t.name):
        if table.name in BACKEND_TABLES or table.name in UNTRACKED:
            continue
        name = table.name
        if table.dialect_options["sqlite"].get("with_rowid", True) is False:
            for op in ("INSERT", "UPDATE", "DELETE"):
                statements.append(f'CREATE TRIGGER "og_changed_{name}_{op[0].lower()}" AFTER {op} ON "{name}" BEGIN {_note(name, None)} END')
            continue
        statements.append(f'CREATE TRIGGER "og_changed_{name}_i" AFTER INSERT ON "{name}" BEGIN {_note(name, "NEW.rowid")} END')
        statements.append(f'CREATE TRIGGER "og_changed_{name}_d" AFTER DELETE ON "{name}" BEGIN {_note(name, "OLD.rowid")} END')
        # An update almost always keeps its row's rowid: one note, and a trigger whose WHEN
        # skips the rest (a body testing the rowids for a second note cost ~1.5 µs a row more).
        statements.append(f'CREATE TRIGGER "og_changed_{name}_u" AFTER UPDATE ON "{name}" WHEN NEW.rowid = OLD.rowid '
                          f'BEGIN {_note(name, "OLD.rowid")} END')
        statements.append(f'CREATE TRIGGER "og_changed_{name}_m" AFTER UPDATE ON "{name}" WHEN NEW.rowid <> OLD.rowid '
                          f'BEGIN {_note(name, "OLD.rowid")} {_note(name, "NEW.rowid")} END')
    return tuple(statements)


def build_file(path: Path, fill: Callable[[Session], None]) -> None:
    """A new template file: the schema, `fill` run in one transaction, the foreign keys
    checked once over the finished data, and the file compacted and left in WAL mode (so an
    env copied from it is in WAL mode from its first open)."""
    engine = create_engine("sqlite://", poolclass=StaticPool, creator=lambda: sqlite3.connect(path, check_same_thread=False))
    try:
        with engine.begin() as conn:
            for statement in table_ddl():
                conn.exec_driver_sql(statement)
        with Session(engine) as db, db.begin():
            # Seeders add whole object graphs in no particular table order: check foreign keys
            # once, over the finished company (below), instead of per insert.
            db.connection().exec_driver_sql("PRAGMA foreign_keys=OFF")
            fill(db)
            db.flush()
            broken = db.connection().exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"seeded company has dangling references: {broken[:5]}")
            for statement in tracking_ddl():  # after seeding: a template is a start, nothing changed yet
                db.connection().exec_driver_sql(statement)
    finally:
        engine.dispose()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("VACUUM")
        conn.execute("PRAGMA journal_mode=WAL")
    finally:
        conn.close()


# -- diff ------------------------------------------------------------------------------------
@cache
def _processors(table: str, columns: tuple[str, ...]) -> tuple[Any, ...] | None:
    """SQLAlchemy's result processors for a known table's columns (SQLite keeps a Boolean
    as 0/1, PostgreSQL as a bool: both become what the column type says)."""
    known = known_table(table)
    if known is None:
        return None
    found = [known.c[c].type.result_processor(_DIALECT, None) if c in known.c else None for c in columns]
    return tuple(found) if any(found) else None


def typed_rows(table: str, columns: tuple[str, ...], rows: list[tuple]) -> list[tuple]:
    processors = _processors(table, columns)
    if processors is None:
        return rows
    return [tuple(p(v) if p is not None else v for p, v in zip(processors, row, strict=True)) for row in rows]


def diff_attached(conn: sqlite3.Connection, exclude: frozenset[str] = frozenset()) -> list[RowChange]:
    """Row changes of `main` against the start state attached as `og_start`.

    Reads only tables `og_changed` names when the file tracks changes (every env copied from
    a template does); otherwise every table both sides have.
    """
    listed = conn.execute(
        "SELECT schema, name, wr FROM pragma_table_list WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    without_rowid = {name for schema, name, wr in listed if schema == "main" and wr}
    common = {name for schema, name, _ in listed if schema == START} & {name for schema, name, _ in listed if schema == "main"}
    tracked = ROWS in common and conn.execute(
        "SELECT count(*) FROM main.sqlite_master WHERE type = 'trigger' AND name LIKE 'og\\_changed\\_%' ESCAPE '\\'"
    ).fetchone()[0] > 0
    whole = {r[0] for r in conn.execute("SELECT name FROM main.og_changed")} | set(UNTRACKED) if tracked else common
    by_row = {r[0] for r in conn.execute(f"SELECT DISTINCT name FROM main.{ROWS}")} if tracked else set()
    changes: list[RowChange] = []
    for table in sorted((whole | by_row) & common - exclude - BACKEND_TABLES):
        only_noted = table in by_row and table not in whole and table not in without_rowid
        changes.extend(_diff_table(conn, table, table in without_rowid, only_noted))
    return changes


def _diff_table(conn: sqlite3.Connection, table: str, without_rowid: bool, only_noted: bool) -> list[RowChange]:
    info = conn.execute(f'PRAGMA main.table_info("{table}")').fetchall()
    columns = tuple(row[1] for row in info)
    keys = [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])] or list(columns)
    names = ", ".join(f'"{c}"' for c in columns)
    if without_rowid:
        now = conn.execute(f'SELECT {names} FROM main."{table}" EXCEPT SELECT {names} FROM {START}."{table}"').fetchall()
        was = conn.execute(f'SELECT {names} FROM {START}."{table}" EXCEPT SELECT {names} FROM main."{table}"').fetchall()
    else:  # env files are never vacuumed, so a row keeps its rowid: join on it, compare columns
        same = " AND ".join(f'a."{c}" IS b."{c}"' for c in columns)
        pick = ", ".join(f'a."{c}"' for c in columns)
        noted = f"a.rowid IN (SELECT rid FROM main.{ROWS} WHERE name = ?) AND " if only_noted else ""
        params = (table,) if only_noted else ()
        query = 'SELECT {pick} FROM {a}."{t}" a LEFT JOIN {b}."{t}" b ON b.rowid = a.rowid WHERE {noted}(b.rowid IS NULL OR NOT ({same}))'
        now = conn.execute(query.format(pick=pick, a="main", b=START, t=table, same=same, noted=noted), params).fetchall()
        was = conn.execute(query.format(pick=pick, a=START, b="main", t=table, same=same, noted=noted), params).fetchall()
    return changes_of(table, list(columns), keys, typed_rows(table, columns, now), typed_rows(table, columns, was))


# A task's setup layer. A setup writes a few rows into the fresh copy of the template, and
# the rollout is graded against the state after it. Copying the whole file as that start
# state cost 7–40 ms per create (and the copy could never be recycled); instead the setup's
# rows are kept, as they were after the setup, in the env file's own `og_setup_rows` (NULL:
# the setup deleted the row). The start state is then the template with that layer on top:
# a diff reads a noted row's start from the layer where the setup wrote it, from the
# template elsewhere. The change notes keep counting from the template, so recycling an env
# file still puts every row back. Setups that write a WITHOUT ROWID table (noted whole) keep
# the file snapshot.


def _encode(row: tuple[Any, ...]) -> str:
    return json.dumps([{"b": v.hex()} if isinstance(v, bytes) else v for v in row])


def _decode(text: str) -> tuple[Any, ...]:
    return tuple(bytes.fromhex(v["b"]) if isinstance(v, dict) else v for v in json.loads(text))


def layer_setup(conn: sqlite3.Connection) -> bool:
    """Keep the rows written so far (the setup's) as the start state's layer, in the caller's
    transaction. False, writing nothing, when a WITHOUT ROWID table was written: the caller
    snapshots the file instead."""
    if conn.execute("SELECT 1 FROM og_changed LIMIT 1").fetchone():
        return False
    noted: dict[str, list[int]] = {}
    for name, rid in conn.execute(f"SELECT name, rid FROM {ROWS} ORDER BY name, rid"):
        noted.setdefault(name, []).append(rid)
    layer = []
    for table, rids in noted.items():
        names = ", ".join(f'"{c[1]}"' for c in conn.execute(f'PRAGMA table_info("{table}")'))
        found = {r[0]: r[1:] for r in conn.execute(f'SELECT rowid, {names} FROM "{table}" WHERE rowid IN (SELECT value FROM json_each(?))', (json.dumps(rids),))}
        layer += [(table, rid, _encode(found[rid]) if rid in found else None) for rid in rids]
    for table in UNTRACKED:  # no notes say what the setup wrote there: kept whole (see diff_tracked)
        names = ", ".join(f'"{c[1]}"' for c in conn.execute(f'PRAGMA table_info("{table}")'))
        layer += [(table, row[0], _encode(row[1:])) for row in conn.execute(f'SELECT rowid, {names} FROM "{table}"')]
    conn.execute(f"DELETE FROM {SETUP_ROWS}")
    conn.executemany(f"INSERT INTO {SETUP_ROWS} (name, rid, row) VALUES (?, ?, ?)", layer)
    return True


def setup_layer(conn: sqlite3.Connection) -> dict[str, dict[int, tuple[Any, ...] | None]]:
    layer: dict[str, dict[int, tuple[Any, ...] | None]] = {}
    for name, rid, row in conn.execute(f"SELECT name, rid, row FROM {SETUP_ROWS}"):
        layer.setdefault(name, {})[rid] = _decode(row) if row is not None else None
    return layer


def diff_tracked(conn: sqlite3.Connection, start: sqlite3.Connection, exclude: frozenset[str] = frozenset()) -> list[RowChange]:
    """Row changes of an env file (`conn`, which tracks changes) against its start state read
    through its own connection (`start`), without attaching it.

    Attaching makes SQLite parse the start file's whole schema on the env's connection
    (~4 ms with every app's tables and triggers) on each env's first grade; a start
    connection (one per template, kept open by the backend) has parsed it once. The rows
    to compare are the noted ones, fetched from both sides by rowid; a table noted whole
    (WITHOUT ROWID) is compared whole.
    """
    whole = {r[0] for r in conn.execute("SELECT name FROM og_changed")}
    noted: dict[str, list[int]] = {}
    for name, rid in conn.execute(f"SELECT name, rid FROM {ROWS} ORDER BY name, rid"):
        noted.setdefault(name, []).append(rid)
    layer = setup_layer(conn)
    changes: list[RowChange] = []
    for table in sorted((whole | set(noted) | set(UNTRACKED)) - exclude - BACKEND_TABLES):
        info = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
        columns = tuple(row[1] for row in info)
        keys = [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])] or list(columns)
        names = ", ".join(f'"{c}"' for c in columns)
        if table in UNTRACKED and table not in whole:  # whole, by rowid; a setup layer holds all of its start
            query = f'SELECT rowid, {names} FROM "{table}"'
            now = {r[0]: r[1:] for r in conn.execute(query)}
            if table in layer:
                was = {rid: row for rid, row in layer[table].items() if row is not None}
            else:
                was = {r[0]: r[1:] for r in start.execute(query)}
            now_rows = [row for rid, row in now.items() if was.get(rid) != row]
            was_rows = [row for rid, row in was.items() if now.get(rid) != row]
        elif table in whole:
            query, params = f'SELECT {names} FROM "{table}"', ()
            now, was = set(conn.execute(query).fetchall()), set(start.execute(query).fetchall())
            now_rows, was_rows = sorted(now - was, key=repr), sorted(was - now, key=repr)
        else:  # env files are never vacuumed, so a row keeps its rowid: compare by it
            query = f'SELECT rowid, {names} FROM "{table}" WHERE rowid IN (SELECT value FROM json_each(?))'
            params = (json.dumps(noted[table]),)
            now = {r[0]: r[1:] for r in conn.execute(query, params)}
            was = {r[0]: r[1:] for r in start.execute(query, params)}
            for rid, row in layer.get(table, {}).items():  # the setup's rows start as it left them
                if row is None:
                    was.pop(rid, None)
                else:
                    was[rid] = row
            now_rows = [row for rid, row in now.items() if was.get(rid) != row]
            was_rows = [row for rid, row in was.items() if now.get(rid) != row]
        changes.extend(changes_of(table, list(columns), keys, typed_rows(table, columns, now_rows), typed_rows(table, columns, was_rows)))
    return changes


def diff_files(live: Path, start: Path, exclude: frozenset[str] = frozenset()) -> list[RowChange]:
    """The diff of two SQLite files, neither of them written (for tools and tests)."""
    conn = sqlite3.connect(f"file:{live}?mode=ro", uri=True)
    try:
        conn.execute(f"ATTACH DATABASE ? AS {START}", (f"file:{start}?mode=ro",))
        return diff_attached(conn, exclude)
    finally:
        conn.close()
