"""Row-level diff of an env's database against its start state.

Tables whose pages are byte-identical in both files are skipped outright; the others are
compared by SQLite itself (`ATTACH`, then a join on rowid), so Python only sees changed rows.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class RowChange:
    table: str
    key: str  # primary key values joined with "/", e.g. "C04ABC/1712345678.000100"
    change: str  # "insert" | "update" | "delete"
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @property
    def row(self) -> dict[str, Any]:
        """The row as it is now (or as it was, for a delete)."""
        return self.after if self.after is not None else self.before or {}

    @property
    def changed_columns(self) -> tuple[str, ...]:
        if self.before is None or self.after is None:
            return ()
        return tuple(c for c in self.after if self.after[c] != self.before.get(c))

    def describe(self) -> str:
        if self.change == "update":
            return f"update ({', '.join(self.changed_columns)})"
        return self.change


def _columns(conn: sqlite3.Connection, table: str) -> tuple[list[str], list[str]]:
    info = conn.execute(f'PRAGMA main.table_info("{table}")').fetchall()
    columns = [row[1] for row in info]
    keys = [row[1] for row in sorted((r for r in info if r[5]), key=lambda r: r[5])] or columns
    return columns, keys


def _table_pages(conn: sqlite3.Connection, schema: str) -> dict[str, list[int]] | None:
    """Each table's pages, from SQLite's dbstat table (None where SQLite is built without it)."""
    try:
        rows = conn.execute("SELECT name, pageno FROM dbstat(?) ORDER BY name, pageno", (schema,)).fetchall()
    except sqlite3.OperationalError:
        return None
    pages: dict[str, list[int]] = {}
    for name, pageno in rows:
        pages.setdefault(name, []).append(pageno)
    return pages


class _Pages:
    """Tells whether a table is byte-for-byte the same in both files, so most tables of a
    big company (untouched by the rollout) are skipped without reading a single row."""

    def __init__(self, conn: sqlite3.Connection, live: Path, start: Path) -> None:
        self.size = conn.execute("PRAGMA main.page_size").fetchone()[0]
        self.now, self.was = _table_pages(conn, "main"), _table_pages(conn, "start")
        self.live, self.start = (live.read_bytes(), start.read_bytes()) if self.now is not None and self.was is not None else (b"", b"")

    def same(self, table: str) -> bool:
        if self.now is None or self.was is None:
            return False
        pages = self.now.get(table, [])
        if pages != self.was.get(table, []):
            return False
        size = self.size
        return all(self.live[(p - 1) * size : p * size] == self.start[(p - 1) * size : p * size] for p in pages)


def diff_databases(live: Path, start: Path, exclude: frozenset[str] = frozenset()) -> list[RowChange]:
    live, start = Path(live), Path(start)
    conn = sqlite3.connect(f"file:{live}?mode=ro", uri=True)
    try:
        conn.execute("ATTACH DATABASE ? AS start", (f"file:{start}?mode=ro",))
        listed = conn.execute(
            "SELECT schema, name, wr FROM pragma_table_list WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
        without_rowid = {name for schema, name, wr in listed if schema == "main" and wr}
        common = {name for schema, name, _ in listed if schema == "start"}
        tables = sorted(name for schema, name, _ in listed if schema == "main" and name in common and name not in exclude)
        pages = _Pages(conn, live, start)
        changes: list[RowChange] = []
        for table in tables:
            if not pages.same(table):
                changes.extend(_diff_table(conn, table, table in without_rowid))
        return changes
    finally:
        conn.close()


def _diff_table(conn: sqlite3.Connection, table: str, without_rowid: bool) -> list[RowChange]:
    columns, keys = _columns(conn, table)
    names = ", ".join(f'"{c}"' for c in columns)
    if without_rowid:
        now = conn.execute(f'SELECT {names} FROM main."{table}" EXCEPT SELECT {names} FROM start."{table}"').fetchall()
        was = conn.execute(f'SELECT {names} FROM start."{table}" EXCEPT SELECT {names} FROM main."{table}"').fetchall()
    else:  # env files are never vacuumed, so a row keeps its rowid: join on it, compare columns
        same = " AND ".join(f'a."{c}" IS b."{c}"' for c in columns)
        pick = ", ".join(f'a."{c}"' for c in columns)
        query = 'SELECT {pick} FROM {a}."{t}" a LEFT JOIN {b}."{t}" b ON b.rowid = a.rowid WHERE b.rowid IS NULL OR NOT ({same})'
        now = conn.execute(query.format(pick=pick, a="main", b="start", t=table, same=same)).fetchall()
        was = conn.execute(query.format(pick=pick, a="start", b="main", t=table, same=same)).fetchall()
    key_at = [columns.index(k) for k in keys]

    def keyed(rows: list[tuple]) -> dict[str, dict[str, Any]]:
        return {"/".join(str(r[i]) for i in key_at): dict(zip(columns, r, strict=True)) for r in rows}

    after, before = keyed(now), keyed(was)
    changes = []
    for key in sorted(after.keys() | before.keys()):
        old, new = before.get(key), after.get(key)
        if old is not None and old == new:
            continue  # the same row under another rowid
        kind = "update" if old and new else ("insert" if new else "delete")
        changes.append(RowChange(table, key, kind, old, new))
    return changes
