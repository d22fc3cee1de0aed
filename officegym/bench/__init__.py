"""`officegym bench`: measure the performance targets (each row of the table states its own).

Everything runs in temporary directories (a fresh template cache, fresh env dirs), so the
bench never touches the user's cache. Each row carries the target it is judged by and the
ratio. `run_bench` prints the table through `echo` and returns `{key: value}`.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from officegym.bench.calls import bench_calls
from officegym.bench.envs import bench_create, bench_create_with_tasks, bench_kernels, bench_memory, bench_queries, bench_server_start, bench_template_build
from officegym.bench.postgres import bench_postgres
from officegym.bench.rollouts import bench_grade, bench_rollouts
from officegym.bench.table import Results, render


def run_bench(
    envs: int = 1000,
    calls: int = 300,
    seed: int = 0,
    size: str = "small",
    echo: Callable[[str], None] = print,
    *,
    creates: int | None = None,
    grades: int | None = None,
    rollout_seconds: float = 5.0,
) -> dict[str, float]:
    """Measure, print the table through `echo`, return the figures (`{key: value}`)."""
    from officegym.gym import Gym

    creates = creates if creates is not None else max(10, min(300, calls))
    grades = grades if grades is not None else max(10, min(100, calls))
    res = Results(echo)
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="officegym-bench-") as tmp:
        work = Path(tmp)
        cache_dir = work / "cache"
        bench_template_build(res, cache_dir, seed, size)
        bench_server_start(res, cache_dir, work, seed, size)
        gym = Gym(envs_dir=work / "envs", cache_dir=cache_dir)
        try:
            bench_create(res, gym, seed, size, creates)
            bench_create_with_tasks(res, gym, seed, size, max(5, creates // 10))
            bench_calls(res, cache_dir, work / "served-envs", seed, size, calls)
            bench_queries(res, gym, seed, size, calls)
            bench_kernels(res, max(10, calls // 10))
            bench_grade(res, gym, seed, size, grades)
            bench_memory(res, gym, seed, size, envs)
        finally:
            gym.close()
        bench_postgres(res, cache_dir, seed, size, creates, grades, res.as_dict().get("create_p50_ms"))
        bench_rollouts(res, seed, size, rollout_seconds, cache_dir)
    res.add("bench_total_s", "bench wall time", time.perf_counter() - started, "s")
    res.add("load_avg_1m", "load average (1 min), start → end", os.getloadavg()[0], "", None,
            f"{load_before:.2f} → {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs: other work inflates wall times")
    echo(render(res.rows))
    return res.as_dict()
