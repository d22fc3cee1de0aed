"""Smoke test of `officegym bench`: every figure is measured, printed with the target it is
judged by, and finite (the targets themselves are not asserted: this machine is shared)."""

from __future__ import annotations

import math
import os

import pytest

from officegym import apps
from officegym.bench import run_bench
from officegym.core.backend import backend_name
from tasks import registry

ROWS = {
    "template_build_s": "template build",
    "server_start_s": "server start",
    "create_p50_ms": "env create p50 (bare)",
    "create_copy_ratio": "create / copy",
    "create_task_p50_ms": "env create p50 with a task (worst family)",
    "mcp_noop_p50_ms": "MCP bare no-op call p50",
    "rest_noop_p50_ms": "REST bare no-op call p50",
    "rest_logged_write_vs_noop": "REST logged write p50 (floor)",
    "grade_p50_ms": "grade p50 (solved envs)",
    "rss_per_env_kib": "memory per env after a history read",
    "heap_per_env_kib": "Python heap per env",
    "rollouts_per_s_1w": "full oracle rollouts/s, 1 worker",
    "rollouts_per_s_2w": "full oracle rollouts/s, 2 worker",
    "bench_total_s": "bench wall time",
}


@pytest.mark.skipif(
    backend_name(os.environ.get("OFFICEGYM_DB")) != "sqlite",
    reason="the bench times both backends itself (its own SQLite and PostgreSQL rows): once, in the SQLite pass",
)
@pytest.mark.pass_backend  # the bench's own Gym is on OFFICEGYM_DB's backend (tests/conftest.py)
def test_bench_prints_and_returns_every_figure() -> None:
    lines: list[str] = []
    figures = run_bench(envs=20, calls=20, seed=0, size="small", echo=lines.append, rollout_seconds=1.0)
    output = "\n".join(lines)
    for key, label in ROWS.items():
        assert key in figures, f"missing figure {key}"
        assert label in output, f"missing table row {label!r}\n{output}"
    for app in apps.APPS:
        for face in ("mcp_read", "mcp_write", "rest_read", "rest_write"):
            assert f"{app.name}_{face}_vs_noop" in figures, "every app's calls are judged against a no-op"
            assert figures[f"{app.name}_{face}_noop_p50_ms"] > 0, "… sent the same request"
        for label, _call in app.probe.queries:
            assert f"{app.name}_query_p50_ms[{label}]" in figures, "every query kind an app declares is timed"
    assert any(app.probe.queries for app in apps.APPS)
    for family in registry.all_families():
        assert f"create_task_p50_ms[{family.id}]" in figures, "every family's create-with-task is timed"
    for key, value in figures.items():
        assert math.isfinite(value) and value >= 0, f"{key} = {value}"
    assert figures["rollouts_per_s_1w"] > 0 and figures["live_envs"] == 20
