"""`officegym bench`: measure the performance targets of DESIGN.md ("Performance").

Everything runs against temporary directories (a fresh template cache, fresh env dirs) so
the bench never touches the user's cache and leaves nothing behind. Figures:

1. template build (first run only) and server start once the template is cached;
2. env create p50/p99 next to a raw copy of the same template file (ratio), and create
   with a task;
3. MCP tool calls over real streamable HTTP (uvicorn on loopback, the official SDK client,
   one session; only the call is timed), a read tool and a write tool separately;
4. grade p50 of an env whose task the oracle solved;
5. memory and disk per idle env with `envs` live envs in one Gym, and the time to delete them.

`run_bench` prints a table through `echo` and returns the figures as a flat dict
(`{key: number}`), so tests and CI can read them.
"""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import math
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_MS = 1e6  # ns per ms


@dataclass(slots=True)
class Row:
    key: str  # key in the returned dict
    label: str  # what the table shows
    value: float
    unit: str  # "ms", "s", "x", "MiB", "KiB", "" …
    target: float | None = None  # an upper bound, in the same unit
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.target is None or self.target == 0:
            return None
        return self.value / self.target


class _Results:
    def __init__(self, echo: Callable[[str], None]) -> None:
        self.rows: list[Row] = []
        self.echo = echo

    def add(self, key: str, label: str, value: float, unit: str, target: float | None = None, note: str = "") -> None:
        self.rows.append(Row(key, label, float(value), unit, target, note))

    def as_dict(self) -> dict[str, float]:
        return {row.key: row.value for row in self.rows}


# -- small helpers ----------------------------------------------------------------------


def percentile(samples_ns: list[int], q: float) -> float:
    """The q-th percentile (nearest rank) of samples in ns, in ms."""
    ordered = sorted(samples_ns)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1] / _MS


def p50(samples_ns: list[int]) -> float:
    return statistics.median(samples_ns) / _MS


def rss_kib() -> int:
    """Resident set size of this process (VmRSS), KiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _fmt(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}×"
    if unit == "":
        return f"{value:.0f}" if value == int(value) else f"{value:.2f}"
    digits = 3 if abs(value) < 10 else (2 if abs(value) < 100 else 1)
    return f"{value:.{digits}f} {unit}"


def _ok(row: Row) -> str:
    ratio = row.ratio
    if ratio is None:
        return ""
    return f"{ratio:.2f} {'ok' if ratio <= 1 else 'OVER'}"


def render(rows: list[Row]) -> str:
    """The table as text (rich, no colours, fixed width, so it survives being captured)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="officegym bench", title_justify="left")
    table.add_column("metric", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("target", justify="right", no_wrap=True)
    table.add_column("ratio/ok", justify="right", no_wrap=True)
    table.add_column("note", overflow="fold")
    for row in rows:
        target = f"≤ {_fmt(row.target, row.unit)}" if row.target is not None else ""
        table.add_row(row.label, _fmt(row.value, row.unit), target, _ok(row), row.note)
    buffer = io.StringIO()
    Console(file=buffer, width=140, no_color=True, force_terminal=False, highlight=False).print(table)
    return buffer.getvalue().rstrip("\n")


# -- the measurements -------------------------------------------------------------------


def _bench_template_build(res: _Results, cache_dir: Path, seed: int, size: str) -> None:
    from officegym.templates import ensure_template

    res.echo(f"building a fresh template (seed {seed}, {size}) …")
    started = time.perf_counter_ns()
    template = ensure_template(cache_dir, seed, size)
    elapsed = time.perf_counter_ns() - started
    res.add("template_build_s", "template build (first run)", elapsed / 1e9, "s", 15.0)
    res.add("template_file_mib", "template file size", template.path.stat().st_size / 2**20, "MiB")


def _bench_server_start(res: _Results, cache_dir: Path, work: Path, seed: int, size: str) -> None:
    """Launch `officegym serve` as a subprocess; time until the control plane answers."""
    import httpx

    port = free_port()
    envs_dir = work / "serve-envs"
    envs_dir.mkdir()
    environ = {**os.environ, "OFFICEGYM_CACHE_DIR": str(cache_dir), "OFFICEGYM_ENVS_DIR": str(envs_dir)}
    command = [sys.executable, "-m", "officegym.cli", "serve", "--port", str(port), "--seed", str(seed), "--size", size]
    res.echo("starting `officegym serve` …")
    url = f"http://127.0.0.1:{port}/v1/tasks"
    log_path = work / "serve.log"
    elapsed: int | None = None
    with open(log_path, "wb") as log:
        started = time.perf_counter_ns()
        proc = subprocess.Popen(command, env=environ, stdout=log, stderr=subprocess.STDOUT)
        try:
            token = os.environ.get("OFFICEGYM_CONTROL_TOKEN")
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            with httpx.Client(timeout=1.0, trust_env=False, headers=headers) as client:
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    if proc.poll() is not None:
                        output = log_path.read_text(errors="replace")[-2000:]
                        raise RuntimeError(f"`officegym serve` exited with {proc.returncode}: {output}")
                    try:
                        if client.get(url).status_code == 200:
                            elapsed = time.perf_counter_ns() - started
                            break
                    except httpx.TransportError:
                        pass
                    time.sleep(0.01)
            if elapsed is None:
                raise RuntimeError("`officegym serve` did not answer GET /v1/tasks within 60 s")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    note = "python -m officegym.cli serve → GET /v1/tasks 200"
    if not _bytecode_cached():
        note += "; no .pyc for the dependencies: every start compiles them (uv sync --compile-bytecode)"
    res.add("server_start_s", "server start (template cached)", elapsed / 1e9, "s", 3.0, note)


def _bytecode_cached() -> bool:
    """Whether the heavy dependencies have compiled bytecode to import from."""
    import importlib.util

    import fastapi

    return Path(importlib.util.cache_from_source(fastapi.__file__)).exists()


def _first_chat_task() -> str | None:
    try:
        from tasks import registry

        families = registry.all_families()
    except Exception:  # the registry is optional for the bench
        return None
    for family in families:
        if "chat" in family.apps:
            return family.id
    return None


def _bench_create(res: _Results, gym: Any, seed: int, size: str, n: int, task: str | None) -> None:
    template = gym.template(seed, size)
    res.echo(f"timing {n} env creates and {n} raw template copies …")
    copy_dir = gym.store.root
    create_ns: list[int] = []
    copy_ns: list[int] = []
    # Warm up (imports, page cache), then interleave the two so drift hits both alike.
    for _ in range(5):
        gym.delete(gym.create(seed=seed, size=size).id)
    for i in range(n):
        target = copy_dir / f"bench-copy-{i}.db"
        t0 = time.perf_counter_ns()
        shutil.copyfile(template.path, target)
        copy_ns.append(time.perf_counter_ns() - t0)
        target.unlink()
        t0 = time.perf_counter_ns()
        env = gym.create(seed=seed, size=size)
        create_ns.append(time.perf_counter_ns() - t0)
        gym.delete(env.id)
    create50, copy50 = p50(create_ns), p50(copy_ns)
    res.add("create_p50_ms", "env create p50 (bare)", create50, "ms", 5.0, f"n={n}")
    res.add("create_p99_ms", "env create p99 (bare)", percentile(create_ns, 99), "ms")
    res.add("copy_p50_ms", "raw template copy p50", copy50, "ms", None, "shutil.copyfile, same file, same dir")
    res.add("create_copy_ratio", "create / copy (p50)", create50 / copy50 if copy50 else float("inf"), "x", 3.0)
    if task is None:
        res.echo("no task family registered: skipping create with a task")
        return
    m = max(5, min(n, 100))
    task_ns: list[int] = []
    gym.delete(gym.create(task, seed=seed, size=size).id)  # warm-up
    for _ in range(m):
        t0 = time.perf_counter_ns()
        env = gym.create(task, seed=seed, size=size)
        task_ns.append(time.perf_counter_ns() - t0)
        gym.delete(env.id)
    res.add("create_task_p50_ms", "env create p50 (with task)", p50(task_ns), "ms", None, f"{task}, n={m}")


@contextmanager
def serving(gym: Any) -> Iterator[str]:
    """The real ASGI app under uvicorn on loopback, in a background thread; yields its base URL."""
    import uvicorn

    from officegym.server import create_app

    port = free_port()
    config = uvicorn.Config(create_app(gym, host="127.0.0.1"), host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="officegym-bench-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.005)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _general_channel(gym: Any, env: Any) -> str:
    from sqlalchemy import select

    from apps.chat.models import Channel

    with gym.store.session(env) as db:
        found = db.scalars(select(Channel.id).where(Channel.is_general.is_(True))).first()
        if found is None:
            found = db.scalars(select(Channel.id).where(Channel.name == "general")).first()
    if found is None:
        raise RuntimeError("the template has no #general channel")
    return found


@dataclass(slots=True)
class _Timed:
    wall_ns: list[int]
    client_cpu_ms: float  # CPU of this (the client's) thread per call
    server_cpu_ms: float  # CPU of every other thread of the process per call: uvicorn, tool workers


@contextmanager
def _quiet_loggers(*names: str) -> Iterator[None]:
    """Silence INFO logs for a while (restoring the levels afterwards).

    Building an MCPServer configures the root logger at INFO with a RichHandler, so in this
    process the client's httpx logs every request as a rendered table: a client-side cost a
    real agent (another process) does not pay, and noise in the bench output.
    """
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


async def _time_calls(url: str, channel: str, calls: int, warmup: int = 10) -> tuple[_Timed, _Timed]:
    from mcp import Client

    read_args = {"channel_id": channel, "limit": 10}

    async def timed(client: Any, name: str, arguments: Callable[[int], dict[str, Any]]) -> _Timed:
        process0, thread0 = time.process_time(), time.thread_time()
        samples = [await call(client, name, arguments(i)) for i in range(calls)]
        process, thread = time.process_time() - process0, time.thread_time() - thread0
        return _Timed(samples, thread / calls * 1e3, max(0.0, process - thread) / calls * 1e3)

    async def call(client: Any, name: str, args: dict[str, Any]) -> int:
        t0 = time.perf_counter_ns()
        result = await client.call_tool(name, args)
        elapsed = time.perf_counter_ns() - t0
        if result.is_error:
            text = "".join(getattr(item, "text", "") for item in result.content)
            raise RuntimeError(f"{name}({args}) returned an error: {text}")
        return elapsed

    async with Client(url) as client:
        for i in range(warmup):
            await call(client, "slack_get_channel_history", read_args)
            await call(client, "slack_post_message", {"channel_id": channel, "text": f"bench warm-up {i}"})
        reads = await timed(client, "slack_get_channel_history", lambda _: read_args)
        writes = await timed(client, "slack_post_message", lambda i: {"channel_id": channel, "text": f"bench message {i}"})
    return reads, writes


def _bench_mcp(res: _Results, gym: Any, seed: int, size: str, calls: int) -> None:
    env = gym.create(seed=seed, size=size)
    try:
        channel = _general_channel(gym, env)
        with _quiet_loggers("httpx", "httpx2", "httpcore", "httpcore2", "mcp"), serving(gym) as base:
            url = f"{base}/envs/{env.id}/mcp/chat"
            res.echo(f"timing {calls} read and {calls} write MCP tool calls over streamable HTTP …")
            reads, writes = asyncio.run(_time_calls(url, channel, calls))
    finally:
        gym.delete(env.id)
    note = f"n={calls}, one SDK session, uvicorn in a thread"
    for key, label, timed in (("read", "MCP read call", reads), ("write", "MCP write call", writes)):
        tool = "get_channel_history" if key == "read" else "post_message"
        res.add(f"mcp_{key}_p50_ms", f"{label} p50 ({tool})", p50(timed.wall_ns), "ms", 3.0, note)
        res.add(f"mcp_{key}_p99_ms", f"{label} p99", percentile(timed.wall_ns, 99), "ms")
        res.add(
            f"mcp_{key}_cpu_client_ms", f"  CPU per {key}: client", timed.client_cpu_ms, "ms", None,
            "SDK client + httpx (this thread)",
        )
        res.add(
            f"mcp_{key}_cpu_server_ms", f"  CPU per {key}: server", timed.server_cpu_ms, "ms", None,
            "uvicorn + MCP SDK + tool (other threads)",
        )


def _bench_grade(res: _Results, gym: Any, seed: int, size: str, n: int, task: str | None) -> None:
    from graders.diff import diff_databases
    from officegym.gym import NOT_COMPANY_STATE

    if task is not None:
        from officegym.validate import run_oracle

        env = gym.create(task, seed=seed, size=size)
        try:
            asyncio.run(run_oracle(gym, env.id))
            res.echo(f"timing {n} grades of a solved {task} env …")
            gym.grade(env.id)  # warm-up
            grade_ns, diff_ns = [], []
            for _ in range(n):
                t0 = time.perf_counter_ns()
                gym.grade(env.id)
                grade_ns.append(time.perf_counter_ns() - t0)
            for _ in range(n):
                t0 = time.perf_counter_ns()
                diff_databases(env.path, env.start_path, exclude=NOT_COMPANY_STATE)
                diff_ns.append(time.perf_counter_ns() - t0)
        finally:
            gym.delete(env.id)
        res.add("grade_p50_ms", "grade p50 (solved task)", p50(grade_ns), "ms", 20.0, f"{task}, n={n}")
        res.add("diff_p50_ms", "  of which: state diff p50", p50(diff_ns), "ms", None, "graders.diff.diff_databases")
        return
    # No task family yet: time the state diff, which is the bulk of a grade.
    env = gym.create(seed=seed, size=size)
    try:
        channel = _general_channel(gym, env)

        async def post() -> None:
            async with gym.mcp_client(env.id, "chat") as client:
                await client.call_tool("slack_post_message", {"channel_id": channel, "text": "bench"})

        asyncio.run(post())
        res.echo(f"no task family registered: timing {n} state diffs instead of grades …")
        diff_databases(env.path, env.start_path, exclude=NOT_COMPANY_STATE)
        diff_ns = []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            diff_databases(env.path, env.start_path, exclude=NOT_COMPANY_STATE)
            diff_ns.append(time.perf_counter_ns() - t0)
    finally:
        gym.delete(env.id)
    res.add("grade_p50_ms", "grade p50 (diff only: no task yet)", p50(diff_ns), "ms", 20.0, f"n={n}")


def _bench_memory(res: _Results, gym: Any, seed: int, size: str, envs: int) -> None:
    res.echo(f"creating {envs} live envs …")
    gym.template(seed, size)
    gc.collect()
    before = rss_kib()
    created = [gym.create(seed=seed, size=size) for _ in range(envs)]
    gc.collect()
    after = rss_kib()
    grown = max(0, after - before)
    disk = sum(env.path.stat().st_size for env in created)
    res.add("live_envs", "live envs", len(created), "")
    res.add("rss_total_mib", "RSS growth for the live envs", grown / 1024, "MiB", None, f"VmRSS {before / 1024:.0f} → {after / 1024:.0f} MiB")
    res.add("rss_per_env_kib", "memory per idle env", grown / max(1, envs), "KiB", 1024.0)
    res.add("disk_per_env_mib", "disk per env", disk / max(1, envs) / 2**20, "MiB", None, "env file size")
    res.add("open_engines", "open engines (idle)", gym.store.open_engines(), "", None, f"max_open_engines={gym.store.max_open_engines}")
    # The same envs after one read each: engines are opened, the LRU keeps the newest ones.
    from sqlalchemy import text

    for env in created:
        with gym.store.session(env) as db:
            db.execute(text("SELECT 1 FROM og_meta LIMIT 1"))
    gc.collect()
    touched = rss_kib()
    res.add("rss_per_env_used_kib", "memory per env after one read each", max(0, touched - before) / max(1, envs), "KiB", 1024.0)
    res.add("open_engines_used", "open engines (after reads)", gym.store.open_engines(), "")
    t0 = time.perf_counter_ns()
    for env in created:
        gym.delete(env.id)
    elapsed = time.perf_counter_ns() - t0
    res.add("delete_all_s", f"delete all {len(created)} envs", elapsed / 1e9, "s")
    res.add("delete_per_env_ms", "delete per env", elapsed / _MS / max(1, len(created)), "ms")
    # RSS misses memory that earlier phases freed and the allocator reuses; the Python heap
    # growth (tracemalloc) is the other view of what an idle env costs.
    import tracemalloc

    created.clear()
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        created = [gym.create(seed=seed, size=size) for _ in range(envs)]
        gc.collect()
        heap = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    for env in created:
        gym.delete(env.id)
    res.add("heap_per_env_kib", "Python heap per idle env", heap / 1024 / max(1, envs), "KiB", 1024.0, "tracemalloc")


# -- entry point ------------------------------------------------------------------------


def run_bench(
    envs: int = 1000,
    calls: int = 300,
    seed: int = 0,
    size: str = "small",
    echo: Callable[[str], None] = print,
    *,
    creates: int | None = None,
    grades: int | None = None,
) -> dict[str, float]:
    """Measure, print the table through `echo`, return the figures (`{key: value}`).

    `creates` (default 300) and `grades` (default 100) are the sample counts of env create and
    grade; by default they shrink with `calls` for quick runs (smoke tests).
    """
    from officegym.gym import Gym

    creates = creates if creates is not None else max(10, min(300, calls))
    grades = grades if grades is not None else max(10, min(100, calls))
    res = _Results(echo)
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    task = _first_chat_task()
    with tempfile.TemporaryDirectory(prefix="officegym-bench-") as tmp:
        work = Path(tmp)
        cache_dir = work / "cache"
        _bench_template_build(res, cache_dir, seed, size)
        _bench_server_start(res, cache_dir, work, seed, size)
        gym = Gym(envs_dir=work / "envs", cache_dir=cache_dir)
        try:
            _bench_create(res, gym, seed, size, creates, task)
            _bench_mcp(res, gym, seed, size, calls)
            _bench_grade(res, gym, seed, size, grades, task)
            _bench_memory(res, gym, seed, size, envs)
        finally:
            gym.close()
    res.add("bench_total_s", "bench wall time", time.perf_counter() - started, "s", 90.0)
    res.add(
        "load_avg_1m", "load average (1 min), start → end", os.getloadavg()[0], "", None,
        f"{load_before:.2f} → {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs: other work inflates the wall times",
    )
    echo(render(res.rows))
    return res.as_dict()
