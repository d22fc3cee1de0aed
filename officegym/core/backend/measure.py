"""Timing env creates on a store, for `officegym bench` (any backend).

    from officegym.core.backend.measure import create_samples
    from officegym.core.backend.pgtools import scratch_database
    with scratch_database() as url:                      # a throwaway database
        pg = Gym(cache_dir=cache_dir, db_url=url)
        hits = create_samples(pg.store, pg.template(seed, size).path, 200)            # warm pool
        copies = create_samples(pg.store, pg.template(seed, size).path, 20, warm_pool=False)
        bench_grade(res, pg, seed, size, grades, label="postgresql")
        pg.close()
"""

from __future__ import annotations

import time
from pathlib import Path

from officegym.core.env_store import EnvStore


def create_samples(store: EnvStore, template: Path, n: int, *, warm_pool: bool = True) -> list[int]:
    """Nanoseconds per `store.create` (each env deleted right after, untimed).

    On PostgreSQL, `warm_pool` first fills the pool with `n` ready copies, so every create is
    what a server with a warm pool sees; `warm_pool=False` stops refills and empties the pool,
    (and recycling of deleted envs), so every create makes its copy: the price of a cold
    pool. SQLite has no pool.
    """
    backend = store.backend
    fill = getattr(backend, "fill_pool", None)
    saved = (getattr(backend, "warm", None), getattr(backend, "keep", None))
    if fill is not None:
        if warm_pool:
            fill(template, n + 4)  # + the warm-up creates
        else:
            backend.warm = backend.keep = 0  # type: ignore[attr-defined]
            while True:  # drain what is ready
                env = store.create(template, 0, "small")
                store.delete(env.id)
                if backend.pooled(template) == 0:  # type: ignore[attr-defined]
                    break
    for _ in range(3):  # warm-up: imports, caches, the template's first load
        store.delete(store.create(template, 0, "small").id)
    samples = []
    try:
        for _ in range(n):
            started = time.perf_counter_ns()
            env = store.create(template, 0, "small")
            samples.append(time.perf_counter_ns() - started)
            store.delete(env.id)
            getattr(backend, "settle", lambda: None)()  # its recycle or drop is not the next create's cost
    finally:
        if fill is not None:
            backend.warm, backend.keep = saved  # type: ignore[attr-defined]
    return samples
