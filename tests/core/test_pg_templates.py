"""PostgreSQL template databases nobody uses any more are dropped with their pooled copies;
templates a live env came from, or that a process used within the day, stay; a process
whose template was dropped while it sat idle builds it again on its next create."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from officegym.core.backend.pg_schema import SHARED
from officegym.core.backend.pgtools import scratch_database
from officegym.core.backend.postgres import PostgresBackend
from officegym.core.env_store import EnvStore

DAY = 24 * 3600.0


def databases(backend: PostgresBackend) -> set[str]:
    with backend.main.connect() as conn:
        return {r[0] for r in conn.exec_driver_sql("SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{backend.prefix}\\_%",))}


def age(backend: PostgresBackend, name: str, seconds: float) -> None:
    with backend.main.begin() as conn:
        conn.exec_driver_sql(f"UPDATE {SHARED}.og_templates SET used_at = %s WHERE name = %s", (time.time() - seconds, name))


def test_stale_templates_and_their_pooled_copies_are_dropped_and_rebuilt_when_needed(pg_server: str, tiny_template: Path, tmp_path: Path) -> None:
    files = {}
    for label in ("live", "stale", "recent"):
        files[label] = tmp_path / f"template-{label}.db"
        shutil.copyfile(tiny_template, files[label])
    with scratch_database(pg_server, prefix="og_test") as url:
        store = EnvStore(tmp_path / "envs", db_url=url)
        other = None
        try:
            backend = store.backend
            backend.warm = 0  # pooled copies made here, by hand
            live = store.create(files["live"], seed=0, size="small")
            names = {label: backend.template_database(file)[0] for label, file in files.items()}
            backend.fill_pool(files["stale"], 2)
            with backend.main.connect() as conn:
                copies = {r[0] for r in conn.exec_driver_sql(f"SELECT handle FROM {SHARED}.og_pool WHERE template = %s", (names["stale"],))}
            assert len(copies) == 2 and copies <= databases(backend)
            age(backend, names["live"], 2 * DAY)
            age(backend, names["stale"], 2 * DAY)

            # Another process, holding none of these templates, prunes.
            other = PostgresBackend(url, warm=0)
            assert other.prune_templates() == [names["stale"]]
            left = databases(backend)
            assert names["stale"] not in left and not copies & left, "the stale template and its pooled copies are gone"
            assert {names["live"], names["recent"], live.handle} <= left, "a live env's template and a recent one stay"
            assert other.prune_templates() == [], "nothing else is stale"

            # This process still holds the dropped template: after an idle hour its next create
            # finds it gone and builds it again.
            backend._noted[names["stale"]] = 0.0
            revived = store.create(files["stale"], seed=0, size="small")
            assert names["stale"] in databases(backend)
            with store.session(revived) as db:
                assert db.connection().exec_driver_sql("SELECT value FROM og_meta WHERE key = 'marker'").scalar() == "template"
        finally:
            if other is not None:
                other.close()
            store.close()
