"""Recycling a deleted env's SQLite file into a fresh env of the same template.

A new env costs a file copy (~2 ms for the four-app company), and its first connection
parses the whole schema (every app's tables, indexes and change-tracking triggers: ~3 ms);
a deleted env costs a close, which checkpoints the WAL (~1.5 ms), and an unlink. In a
create-rollout-delete loop most of that is spent twice per rollout for nothing: the deleted
env's file and its open connection are exactly what the next env needs, once the rows the
rollout wrote are put back. The change tracking already knows which rows those are
(`og_changed_rows`, `og_changed`), so resetting them from the template costs what the
rollout wrote, not what the company holds.

A recycled file keeps its name; its handle gets a generation (`name.db@3`), and the file
carries the same number in its header (`PRAGMA user_version`). A session whose handle's
generation differs from the file's is a stale record of the env that was deleted (read by
another process before the delete) and is refused as gone, as a session on an unlinked file
is: no write of an old env can land in a new one.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any

from officegym.core.backend.sqlite_files import ROWS, SETUP_ROWS, UNTRACKED

SEPARATOR = "@"


def file_name(handle: str) -> str:
    return handle.split(SEPARATOR, 1)[0]


def generation(handle: str) -> int:
    _, _, number = handle.partition(SEPARATOR)
    return int(number) if number else 0


def next_handle(handle: str) -> str:
    return f"{file_name(handle)}{SEPARATOR}{generation(handle) + 1}"


def file_generation(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def reset_to_template(conn: sqlite3.Connection, template: sqlite3.Connection, template_lock: threading.Lock, new_generation: int,
                      shape: dict[str, Any] | None = None) -> None:
    """Put every row the env's rollout wrote back as the template has it, forget the change
    notes and stamp the file with `new_generation`, in one transaction on the env's own
    connection (its schema already parsed). `template` is a read connection to the
    template, used under `template_lock`; `shape` keeps what the template's schema says
    (column lists, whether it has AUTOINCREMENT counters) from one reset of its files to
    the next: the env file's schema is checked to be the template's first, and reading
    sqlite_master and table_info again was ~0.15 ms of every reset. Raises (and rolls back)
    on any failure: the caller then drops the file instead."""
    shape = shape if shape is not None else {}
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Only rows are put back: a file whose schema changed since the copy (a table or
        # trigger added by hand) is not the template any more, and is dropped instead.
        with template_lock:
            expected = template.execute("PRAGMA schema_version").fetchone()[0]
        if conn.execute("PRAGMA schema_version").fetchone()[0] != expected:
            raise sqlite3.DatabaseError("the env file's schema changed since it was copied: not recyclable")
        # Rows go back table by table: a parent may be restored after its children.
        conn.execute("PRAGMA defer_foreign_keys=ON")
        whole = [r[0] for r in conn.execute("SELECT name FROM og_changed")]
        whole += [table for table in UNTRACKED if table not in whole]  # no notes: put back whole
        noted: dict[str, list[int]] = {}
        for name, rid in conn.execute(f"SELECT name, rid FROM {ROWS}"):
            noted.setdefault(name, []).append(rid)
        with template_lock:
            for table in whole:
                names = _columns(template, table, shape)
                rows = template.execute(f'SELECT {names} FROM "{table}"').fetchall()
                conn.execute(f'DELETE FROM "{table}"')
                _insert(conn, f'INSERT INTO "{table}" ({names})', rows)
            for table, rids in noted.items():
                names = _columns(template, table, shape)
                wanted = (json.dumps(rids),)
                rows = template.execute(f'SELECT rowid, {names} FROM "{table}" WHERE rowid IN (SELECT value FROM json_each(?))', wanted).fetchall()
                conn.execute(f'DELETE FROM "{table}" WHERE rowid IN (SELECT value FROM json_each(?))', wanted)
                _insert(conn, f'INSERT INTO "{table}" (rowid, {names})', rows)
            if "sequence" not in shape:
                shape["sequence"] = template.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").fetchone() is not None
            if shape["sequence"]:
                # AUTOINCREMENT counters are not rows the triggers see: put them back whole.
                conn.execute("DELETE FROM sqlite_sequence")
                conn.executemany("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)",
                                 template.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
        conn.execute("DELETE FROM og_changed")
        conn.execute(f"DELETE FROM {ROWS}")
        conn.execute(f"DELETE FROM {SETUP_ROWS}")
        conn.execute(f"PRAGMA user_version = {int(new_generation)}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _columns(template: sqlite3.Connection, table: str, shape: dict[str, Any]) -> str:
    key = f"columns:{table}"
    if key not in shape:
        shape[key] = ", ".join(f'"{row[1]}"' for row in template.execute(f'PRAGMA table_info("{table}")'))
    return shape[key]


def _insert(conn: sqlite3.Connection, into: str, rows: list[tuple]) -> None:
    if rows:  # (rows the rollout inserted have nothing to come back to)
        conn.executemany(f"{into} VALUES ({', '.join('?' * len(rows[0]))})", rows)
