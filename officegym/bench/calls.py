"""Tool calls as an agent makes them: over real HTTP from another process, each app's typical
read (over seeded history) and write, through MCP (the official SDK client, streamable HTTP)
and REST (httpx), each judged against a no-op call through the same face (target ≤ 1.3×).

The no-op a call is judged against gets the very same request (the same arguments, in the
query string or the body) and does nothing with it, so the ratio weighs what the operation
costs (parsing its arguments into its model, its transaction, its answer) against the
framework that carried the request there. The bare no-op (no arguments) is reported too."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from officegym import apps
from officegym.bench.table import Results, p50, percentile
from officegym.faces.probe import Call

FACE_RATIO_TARGET = 1.3
NOOP_TOOL = "noop"  # the bench server's no-op tool (officegym.bench.server)
LOGGED_WRITE = "logged-write"  # the bench server's REST route that only logs itself


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def bench_server(cache_dir: Path, envs_dir: Path) -> Iterator[tuple[str, httpx.Client]]:
    """The bench server in a subprocess; yields its agent base URL and a control-plane client."""
    agent_port, control_port, token = free_port(), free_port(), secrets.token_urlsafe(16)
    environ = {**os.environ, "OFFICEGYM_CACHE_DIR": str(cache_dir), "OFFICEGYM_ENVS_DIR": str(envs_dir)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "officegym.bench.server", str(agent_port), str(control_port), token],
        env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    control = httpx.Client(base_url=f"http://127.0.0.1:{control_port}", headers={"Authorization": f"Bearer {token}"}, timeout=60, trust_env=False)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the bench server exited: {proc.stderr.read().decode(errors='replace')[-2000:]}")
            try:
                if control.get("/v1/tasks").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the bench server did not start within 60 s")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{agent_port}", control
    finally:
        control.close()
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


async def _mcp_samples(url: str, call: Call, n: int, warmup: int = 10, refs: dict[str, str] | None = None) -> list[int]:
    from mcp import Client

    async with Client(url) as client:
        samples = []
        for i in range(-warmup, n):
            args = call.numbered(i, refs)
            t0 = time.perf_counter_ns()
            result = await client.call_tool(call.name, args)
            elapsed = time.perf_counter_ns() - t0
            if result.is_error:
                raise RuntimeError(f"{call.name} failed: {result.content[0].text[:300]}")
            if i >= 0:
                samples.append(elapsed)
    return samples


def _rest_samples(http: httpx.Client, url: str, call: Call, n: int, warmup: int = 10, refs: dict[str, str] | None = None) -> list[int]:
    samples = []
    for i in range(-warmup, n):
        args = call.numbered(i, refs)
        t0 = time.perf_counter_ns()
        response = http.get(url, params=args) if call.method == "GET" else http.post(url, json=args)
        elapsed = time.perf_counter_ns() - t0
        if response.status_code >= 400:
            raise RuntimeError(f"{call.method} {url}: {response.status_code} {response.text[:300]}")
        if i >= 0:
            samples.append(elapsed)
    return samples


def bench_calls(res: Results, cache_dir: Path, envs_dir: Path, seed: int, size: str, calls: int) -> None:
    res.echo(f"timing {calls} MCP and REST calls per app over HTTP against no-op calls …")
    with bench_server(cache_dir, envs_dir) as (base, control):
        created = control.post("/v1/envs", json={"seed": seed, "size": size})
        created.raise_for_status()
        env_id = created.json()["env_id"]
        root = f"{base}/envs/{env_id}"
        noop_mcp = asyncio.run(_mcp_samples(f"{root}/mcp/noop", Call(NOOP_TOOL), calls))
        with httpx.Client(timeout=30, trust_env=False) as http:
            noop_rest = _rest_samples(http, f"{root}/api/noop/noop", Call("noop", method="GET"), calls)
            for app in apps.APPS:
                probe = app.probe
                refs = probe_refs(probe, cache_dir, seed, size)
                figures: dict[str, tuple[list[int], list[int]]] = {}  # key → (the call, its no-op)
                for key, call in (("mcp_read", probe.mcp_read), ("mcp_write", probe.mcp_write)):
                    figures[key] = (
                        asyncio.run(_mcp_samples(f"{root}/mcp/{app.name}", call, calls, refs=refs)),
                        asyncio.run(_mcp_samples(f"{root}/mcp/noop", Call(NOOP_TOOL, call.args), calls, refs=refs)),
                    )
                for key, call in (("rest_read", probe.rest_read), ("rest_write", probe.rest_write)):
                    figures[key] = (
                        _rest_samples(http, f"{root}/api/{app.name}/{call.path(refs)}", call, calls, refs=refs),
                        _rest_samples(http, f"{root}/api/noop/noop", Call("noop", call.args, method=call.method), calls, refs=refs),
                    )
                _report(res, app.name, probe, figures, calls)
            # The first app's write, sent to a route that only writes its event row: the part
            # of every REST write's ratio that no operation can avoid.
            write = apps.APPS[0].probe.rest_write
            floor = _rest_samples(http, f"{root}/api/noop/{LOGGED_WRITE}", Call(LOGGED_WRITE, write.args), calls)
            floor_noop = _rest_samples(http, f"{root}/api/noop/noop", Call("noop", write.args), calls)
        res.add("rest_logged_write_p50_ms", "REST logged write p50 (floor)", p50(floor), "ms", None,
                f"one env transaction writing its event row, nothing else; n={calls}")
        res.add("rest_logged_write_noop_p50_ms", "  the same request to a no-op, p50", p50(floor_noop), "ms")
        res.add("rest_logged_write_vs_noop", "  / no-op p50", p50(floor) / p50(floor_noop), "x", None,
                "what every REST write's ratio starts from")
        res.add("mcp_noop_p50_ms", "MCP bare no-op call p50", p50(noop_mcp), "ms", None, "same transport and dispatcher, no arguments, no operation")
        res.add("rest_noop_p50_ms", "REST bare no-op call p50", p50(noop_rest), "ms", None, "same router and env lookup, no arguments, no operation")


def probe_refs(probe: Any, cache_dir: Path, seed: int, size: str) -> dict[str, str]:
    """The ids a probe names as `{<ref>}`, read from the template the bench server copies."""
    if probe.refs is None:
        return {}
    from officegym.core.backend.sqlite import read_template_file
    from officegym.templates import ensure_template

    with read_template_file(ensure_template(cache_dir, seed, size).path) as db:
        return probe.refs(db)


def _report(res: Results, app: str, probe: Any, figures: dict[str, tuple[list[int], list[int]]], n: int) -> None:
    names = {"mcp_read": probe.mcp_read.name, "mcp_write": probe.mcp_write.name, "rest_read": probe.rest_read.name, "rest_write": probe.rest_write.name}
    for key, (samples, noop_samples) in figures.items():
        face = key.split("_")[0]
        noop = p50(noop_samples)
        value = p50(samples)
        res.add(f"{app}_{key}_p50_ms", f"{app} {face.upper()} {key.split('_')[1]} p50 ({names[key]})", value, "ms", None, f"n={n}")
        res.add(f"{app}_{key}_p99_ms", "  p99", percentile(samples, 99), "ms")
        res.add(f"{app}_{key}_noop_p50_ms", "  the same request to a no-op, p50", noop, "ms")
        res.add(f"{app}_{key}_vs_noop", "  / no-op p50", value / noop if noop else float("inf"), "x", FACE_RATIO_TARGET)
