"""The PostgreSQL backend's figures: env create p50/p99 with a warm pool and with a cold one,
the ratio to SQLite, and grade p50 — on a throwaway database of the server OFFICEGYM_TEST_PG
or OFFICEGYM_DB names (else the local one `make postgres` starts)."""

from __future__ import annotations

from pathlib import Path

from officegym.bench.rollouts import bench_grade
from officegym.bench.table import Results, p50, percentile

PG_CREATE_TARGET_MS = 10.0


def bench_postgres(res: Results, cache_dir: Path, seed: int, size: str, creates: int, grades: int, sqlite_create_ms: float | None) -> None:
    from officegym import settings
    from officegym.core.backend import backend_name
    from officegym.core.backend.measure import create_samples
    from officegym.core.backend.pgtools import scratch_database, server_url, unavailable
    from officegym.gym import Gym

    url = settings.db_url() if backend_name(settings.db_url()) == "postgresql" else server_url()
    why = unavailable(url)
    if why is not None:
        res.echo(f"no PostgreSQL server ({why}): skipping the PostgreSQL rows (run `make postgres`)")
        return
    res.echo(f"timing {creates} env creates and {grades} grades on PostgreSQL …")
    with scratch_database(url, prefix="og_bench") as db_url:
        gym = Gym(cache_dir=cache_dir, db_url=db_url)
        try:
            template = gym.template(seed, size).path
            warm = create_samples(gym.store, template, creates)
            cold = create_samples(gym.store, template, max(5, creates // 10), warm_pool=False)
            res.add("pg_create_p50_ms", "PostgreSQL env create p50 (warm pool)", p50(warm), "ms", PG_CREATE_TARGET_MS, f"n={len(warm)}")
            res.add("pg_create_p99_ms", "  p99 (warm pool)", percentile(warm, 99), "ms")
            res.add("pg_create_cold_p50_ms", "  p50 with an empty pool (a copy per create)", p50(cold), "ms", None, f"n={len(cold)}")
            if sqlite_create_ms:
                res.add("pg_sqlite_create_ratio", "  / SQLite env create p50", p50(warm) / sqlite_create_ms, "x")
            bench_grade(res, gym, seed, size, grades, label="postgresql")
        finally:
            gym.close()
