"""Template databases that nobody uses any more, and their pooled copies, dropped.

Every change to the schema or a seeder makes a new template (its name carries a fingerprint),
and each template database comes with a warm pool of ready copies. Without pruning, a
developer's server collects them by the hundred: one machine had 670 databases (9.3 GB), and
PostgreSQL's crash recovery then spent over 12 minutes fsyncing them.

Each process notes when it uses a template (`og_templates.used_at`, written when it first
resolves it and then at most hourly while it creates envs). A template database nobody noted
for a day, and whose template no live env came from, is dropped with its pooled copies, in
the backend's background worker, after a newer template was built. A process that still
holds such a template builds it again on its next create (`PostgresBackend.create`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from officegym.core.backend.pg_schema import SHARED

STALE_AFTER = 24 * 3600.0  # seconds a template may go unused before it is dropped
NOTE_EVERY = 3600.0  # seconds between a process's notes that it still uses a template

TABLE_DDL = f"CREATE TABLE IF NOT EXISTS {SHARED}.og_templates (name TEXT PRIMARY KEY, used_at DOUBLE PRECISION NOT NULL)"


def note_use(conn: Any, name: str, now: float) -> None:
    conn.exec_driver_sql(
        f"INSERT INTO {SHARED}.og_templates (name, used_at) VALUES (%s, %s) "
        "ON CONFLICT (name) DO UPDATE SET used_at = GREATEST(og_templates.used_at, excluded.used_at)",
        (name, now),
    )


def stale_templates(main: Any, prefix: str, in_use: set[str], now: float, stale_after: float = STALE_AFTER) -> list[str]:
    """Template databases of this main database unused for `stale_after` seconds, minus
    `in_use`. A template database with no note yet (built before notes were kept, or by a
    process that died before noting it) is noted now: it gets a day like any other."""
    with main.begin() as conn:
        found = [r[0] for r in conn.exec_driver_sql(
            "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname NOT LIKE %s",
            (f"{prefix}\\_t\\_%", "%\\_build"),
        )]
        for name in found:
            conn.exec_driver_sql(f"INSERT INTO {SHARED}.og_templates (name, used_at) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING", (name, now))
        noted = dict(conn.exec_driver_sql(f"SELECT name, used_at FROM {SHARED}.og_templates").fetchall())
        gone = [name for name in noted if name not in found]
        if gone:  # dropped by hand or by another process: forget them
            conn.exec_driver_sql(f"DELETE FROM {SHARED}.og_templates WHERE name = ANY(%s)", (gone,))
    return sorted(name for name in found if name not in in_use and now - noted.get(name, now) > stale_after)


def prune(main: Any, prefix: str, in_use: set[str], drop: Callable[[str], None], now: float | None = None,
          stale_after: float = STALE_AFTER) -> list[str]:
    """Drop stale template databases and their pooled copies; returns the templates dropped.
    A pooled copy leaves the pool in a committed transaction before it is dropped, so a
    create popping the pool at the same time gets it whole or not at all."""
    now = time.time() if now is None else now
    dropped = []
    for name in stale_templates(main, prefix, in_use, now, stale_after):
        with main.begin() as conn:
            still = conn.exec_driver_sql(f"SELECT used_at FROM {SHARED}.og_templates WHERE name = %s FOR UPDATE", (name,)).first()
            if still is None or now - still[0] <= stale_after:  # noted by a process meanwhile
                continue
            copies = [r[0] for r in conn.exec_driver_sql(f"DELETE FROM {SHARED}.og_pool WHERE template = %s RETURNING handle", (name,))]
            conn.exec_driver_sql(f"DELETE FROM {SHARED}.og_templates WHERE name = %s", (name,))
        for handle in copies:
            drop(handle)
        drop(name)
        dropped.append(name)
    return dropped
