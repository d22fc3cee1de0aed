"""Grading and whole rollouts: grade p50 of solved envs, and full oracle rollouts per second
(create with a task → the oracle through the MCP tools → grade → delete), in 1 and more
worker processes (each its own Gym over the same template cache)."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import tempfile
import time
from pathlib import Path
from typing import Any

from officegym.bench.table import Results, p50
from tasks import registry

GRADE_TARGET_MS = 20.0
ROLLOUTS_TARGET_PER_S = 100.0


def bench_grade(res: Results, gym: Any, seed: int, size: str, n: int, label: str = "") -> None:
    from officegym.validate import run_oracle

    grade_ns: list[int] = []
    diff_ns: list[int] = []
    families = registry.all_families()
    res.echo(f"timing grades of solved envs ({len(families)} families) …")
    for family in families:
        env = gym.create(family.id, seed=seed, size=size)
        try:
            asyncio.run(run_oracle(gym, env.id))
            gym.grade(env.id)
            for _ in range(max(1, n // len(families))):
                t0 = time.perf_counter_ns()
                gym.grade(env.id)
                grade_ns.append(time.perf_counter_ns() - t0)
                t0 = time.perf_counter_ns()
                gym.changes(env.id)
                diff_ns.append(time.perf_counter_ns() - t0)
        finally:
            gym.delete(env.id)
    suffix = f" ({label})" if label else ""
    key = f"_{label}" if label else ""
    res.add(f"grade_p50_ms{key}", f"grade p50 (solved envs){suffix}", p50(grade_ns), "ms", GRADE_TARGET_MS, f"n={len(grade_ns)}")
    res.add(f"diff_p50_ms{key}", f"  of which: state diff p50{suffix}", p50(diff_ns), "ms")


def _rollouts(seed: int, size: str, seconds: float, cache_dir: str | None, db_url: str | None) -> int:
    """Full oracle rollouts in this process for `seconds`; returns how many finished."""
    from officegym.gym import Gym
    from officegym.validate import run_oracle

    families = [f.id for f in registry.all_families()]
    with tempfile.TemporaryDirectory(prefix="officegym-rollouts-") as tmp:
        kwargs: dict[str, Any] = {"envs_dir": Path(tmp), "cache_dir": Path(cache_dir) if cache_dir else None}
        if db_url:
            kwargs["db_url"] = db_url
        gym = Gym(**kwargs)
        try:
            done = 0

            async def loop(seconds: float | None) -> int:
                nonlocal done
                deadline = time.monotonic() + (seconds or 0.0)
                while done < len(families) if seconds is None else time.monotonic() < deadline:
                    env = gym.create(families[done % len(families)], seed=seed, size=size, variant=done // len(families))
                    await run_oracle(gym, env.id)
                    result = gym.grade(env.id)
                    if result["reward"] != 1.0:
                        raise RuntimeError(f"oracle rollout of {env.task_id} scored {result['reward']}")
                    gym.delete(env.id)
                    done += 1
                return done

            # Warm-up, untimed: one rollout of every family builds what a process builds once
            # (its MCP servers, per-template sampling caches, imports), as a trainer's would.
            # The timed rollouts go on from variant 1: instances the warm-up did not see.
            warmed = asyncio.run(loop(None))
            # What the warm-up built lives as long as the process: out of the collector's sight,
            # as `officegym serve` does it (serving.run_listeners), and as a trainer can.
            gc.collect()
            gc.freeze()
            return asyncio.run(loop(seconds)) - warmed
        finally:
            gym.close()


def bench_rollouts(res: Results, seed: int, size: str, seconds: float, cache_dir: Path | None, workers: tuple[int, ...] = (1, 2)) -> None:
    rates = {}
    for count in workers:
        res.echo(f"running full oracle rollouts for {seconds:.0f} s in {count} worker process(es) …")
        context = multiprocessing.get_context("spawn")
        with context.Pool(count) as pool:
            started = time.perf_counter()
            finished = pool.starmap(_rollouts, [(seed, size, seconds, str(cache_dir) if cache_dir else None, None)] * count)
            elapsed = time.perf_counter() - started
        # Each worker ran `seconds` of rollouts after its own warm-up: rate is per worker-second.
        rates[count] = sum(finished) / seconds
        res.add(f"rollouts_per_s_{count}w", f"full oracle rollouts/s, {count} worker(s)", rates[count], "/s",
                ROLLOUTS_TARGET_PER_S if count == max(workers) else None, f"{sum(finished)} rollouts, wall {elapsed:.1f} s", at_least=True)
    if len(rates) > 1:
        base = rates[min(rates)]
        top = max(rates)
        res.add("rollouts_scaling", f"  scaling {min(rates)} → {top} workers", rates[top] / base if base else 0.0, "x", None,
                f"linear would be {top / min(rates):.1f}×")
