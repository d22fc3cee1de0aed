"""Smoke test of `officegym bench`: every figure is measured and printed (targets are not asserted)."""

from __future__ import annotations

import math

from officegym.bench import run_bench

# key in the returned dict -> text of its row in the printed table
ROWS = {
    "template_build_s": "template build",
    "server_start_s": "server start",
    "create_p50_ms": "env create p50 (bare)",
    "create_p99_ms": "env create p99 (bare)",
    "copy_p50_ms": "raw template copy p50",
    "create_copy_ratio": "create / copy",
    "mcp_read_p50_ms": "MCP read call p50",
    "mcp_read_p99_ms": "MCP read call p99",
    "mcp_write_p50_ms": "MCP write call p50",
    "mcp_write_p99_ms": "MCP write call p99",
    "mcp_read_cpu_client_ms": "CPU per read: client",
    "mcp_read_cpu_server_ms": "CPU per read: server",
    "mcp_write_cpu_client_ms": "CPU per write: client",
    "mcp_write_cpu_server_ms": "CPU per write: server",
    "grade_p50_ms": "grade p50",
    "live_envs": "live envs",
    "rss_total_mib": "RSS growth",
    "rss_per_env_kib": "memory per idle env",
    "disk_per_env_mib": "disk per env",
    "open_engines": "open engines",
    "delete_all_s": "delete all",
    "heap_per_env_kib": "Python heap per idle env",
    "bench_total_s": "bench wall time",
    "load_avg_1m": "load average",
}
TIMINGS = [k for k in ROWS if k.endswith(("_s", "_ms", "_ratio")) and "_cpu_" not in k]


def test_bench_prints_and_returns_every_figure() -> None:
    lines: list[str] = []
    figures = run_bench(envs=20, calls=20, seed=0, size="small", echo=lines.append)
    output = "\n".join(lines)

    for key, label in ROWS.items():
        assert key in figures, f"missing figure {key}"
        assert label in output, f"missing table row {label!r}\n{output}"
    for key, value in figures.items():
        assert math.isfinite(value), f"{key} = {value}"
        assert value >= 0, f"{key} = {value}"
    for key in TIMINGS:
        assert figures[key] > 0, f"{key} = {figures[key]}"
    assert figures["live_envs"] == 20
    assert figures["disk_per_env_mib"] > 0
    if "create_task_p50_ms" in figures:  # once a chat task family is registered
        assert "env create p50 (with task)" in output
        assert "state diff p50" in output
