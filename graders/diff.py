"""Row-level diff of an env's database against its start state.

SQLite compares the two files itself (`ATTACH` + `EXCEPT` per table), so a diff costs a few
milliseconds however much history the company has; Python only sees the changed rows.
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


def _tables(conn: sqlite3.Connection, schema: str) -> list[str]:
    rows = conn.execute(f"SELECT name FROM {schema}.sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")
    return sorted(r[0] for r in rows)


def _columns(conn: sqlite3.Connection, table: str) -> tuple[list[str], list[str]]:
    info = conn.execute(f'PRAGMA main.table_info("{table}")').fetchall()
    columns = [row[1] for row in info]
    keys = [row[1] for row in sorted((r for r in info if r[5]), key=lambda r: r[5])] or columns
    return columns, keys


def diff_databases(live: Path, start: Path, exclude: frozenset[str] = frozenset()) -> list[RowChange]:
    conn = sqlite3.connect(f"file:{live}?mode=ro", uri=True)
    try:
        conn.execute("ATTACH DATABASE ? AS start", (f"file:{start}?mode=ro",))
        changes: list[RowChange] = []
        common = set(_tables(conn, "start"))
        for table in _tables(conn, "main"):
            if table in exclude or table not in common:
                continue
            columns, keys = _columns(conn, table)
            names = ", ".join(f'"{c}"' for c in columns)
            now = conn.execute(f'SELECT {names} FROM main."{table}" EXCEPT SELECT {names} FROM start."{table}"').fetchall()
            was = conn.execute(f'SELECT {names} FROM start."{table}" EXCEPT SELECT {names} FROM main."{table}"').fetchall()
            if not now and not was:
                continue
            key_at = [columns.index(k) for k in keys]

            def keyed(rows: list[tuple]) -> dict[str, dict[str, Any]]:
                return {"/".join(str(r[i]) for i in key_at): dict(zip(columns, r, strict=True)) for r in rows}

            after, before = keyed(now), keyed(was)
            for key in sorted(after.keys() | before.keys()):
                old, new = before.get(key), after.get(key)
                kind = "update" if old and new else ("insert" if new else "delete")
                changes.append(RowChange(table, key, kind, old, new))
        return changes
    finally:
        conn.close()
