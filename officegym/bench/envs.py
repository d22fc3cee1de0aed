"""Templates and envs: build, server start, env create (bare and with each task), memory."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx

from officegym import apps
from officegym.bench.calls import free_port
from officegym.bench.table import NS_PER_MS, Results, p50, percentile
from officegym.core.ops import invoke
from tasks import registry

CREATE_WITH_TASK_TARGET_MS = 5.0


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def bench_template_build(res: Results, cache_dir: Path, seed: int, size: str) -> None:
    from officegym.templates import ensure_template

    res.echo(f"building a fresh template (seed {seed}, {size}) …")
    started = time.perf_counter_ns()
    template = ensure_template(cache_dir, seed, size)
    res.add("template_build_s", "template build (first run)", (time.perf_counter_ns() - started) / 1e9, "s", 15.0)
    res.add("template_file_mib", "template file size", template.path.stat().st_size / 2**20, "MiB")


def bench_server_start(res: Results, cache_dir: Path, work: Path, seed: int, size: str) -> None:
    """`officegym serve` as a subprocess; time until its control plane answers."""
    port, control_port = free_port(), free_port()
    token = "bench-token"
    environ = {**os.environ, "OFFICEGYM_CACHE_DIR": str(cache_dir), "OFFICEGYM_ENVS_DIR": str(work / "serve-envs"),
               "OFFICEGYM_CONTROL_TOKEN": token, "OFFICEGYM_STATE_FILE": str(work / "serve.json")}
    command = [sys.executable, "-m", "officegym.cli", "serve", "--port", str(port), "--control-port", str(control_port),
               "--seed", str(seed), "--size", size]
    res.echo("starting `officegym serve` …")
    elapsed = None
    started = time.perf_counter_ns()
    proc = subprocess.Popen(command, env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        with httpx.Client(timeout=1.0, trust_env=False, headers={"Authorization": f"Bearer {token}"}) as client:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and elapsed is None:
                if proc.poll() is not None:
                    raise RuntimeError(f"`officegym serve` exited: {proc.stderr.read().decode(errors='replace')[-2000:]}")
                try:
                    if client.get(f"http://127.0.0.1:{control_port}/v1/tasks").status_code == 200:
                        elapsed = time.perf_counter_ns() - started
                except httpx.TransportError:
                    time.sleep(0.01)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    if elapsed is None:
        raise RuntimeError("`officegym serve` did not answer within 60 s")
    res.add("server_start_s", "server start (template cached)", elapsed / 1e9, "s", 3.0, "officegym serve → control plane 200")


def bench_create(res: Results, gym: Any, seed: int, size: str, n: int) -> None:
    template = gym.template(seed, size)
    res.echo(f"timing {n} env creates and {n} raw template copies …")
    create_ns: list[int] = []
    copy_ns: list[int] = []
    for _ in range(5):  # warm up (imports, page cache), then interleave so drift hits both alike
        gym.delete(gym.create(seed=seed, size=size).id)
    scratch = gym.store.root / "bench-copy.db"
    for _ in range(n):
        t0 = time.perf_counter_ns()
        shutil.copyfile(template.path, scratch)
        copy_ns.append(time.perf_counter_ns() - t0)
        scratch.unlink()
        t0 = time.perf_counter_ns()
        env = gym.create(seed=seed, size=size)
        create_ns.append(time.perf_counter_ns() - t0)
        gym.delete(env.id)
    create50, copy50 = p50(create_ns), p50(copy_ns)
    res.add("create_p50_ms", "env create p50 (bare)", create50, "ms", None, f"n={n}")
    res.add("create_p99_ms", "env create p99 (bare)", percentile(create_ns, 99), "ms")
    res.add("copy_p50_ms", "raw template copy p50", copy50, "ms", None, "shutil.copyfile of the template")
    res.add("create_copy_ratio", "create / copy (p50)", create50 / copy50 if copy50 else float("inf"), "x", 3.0)


def bench_create_with_tasks(res: Results, gym: Any, seed: int, size: str, n: int) -> None:
    res.echo(f"timing {n} creates with a task, per family …")
    worst = 0.0
    for family in registry.all_families():
        gym.delete(gym.create(family.id, seed=seed, size=size).id)  # warm-up: builds the family's per-template cache
        samples = []
        for variant in range(n):
            t0 = time.perf_counter_ns()
            env = gym.create(family.id, seed=seed, size=size, variant=variant)
            samples.append(time.perf_counter_ns() - t0)
            gym.delete(env.id)
        worst = max(worst, p50(samples))
        res.add(f"create_task_p50_ms[{family.id}]", f"  create with {family.id} p50", p50(samples), "ms", CREATE_WITH_TASK_TARGET_MS, f"n={n}, variants 0..{n - 1}; create→delete loop: files recycled")
    res.add("create_task_p50_ms", "env create p50 with a task (worst family)", worst, "ms", CREATE_WITH_TASK_TARGET_MS)


def bench_queries(res: Results, gym: Any, seed: int, size: str, n: int) -> None:
    """Each app's query language by kind (`Probe.queries`), in process over seeded data: the
    operation's own cost, parse to shaped result, without a transport."""
    kinds = [(app, label, call) for app in apps.APPS for label, call in app.probe.queries]
    if not kinds:
        return
    res.echo(f"timing {n} queries per kind ({len(kinds)} kinds) …")
    env = gym.create(seed=seed, size=size)
    try:
        for app, label, call in kinds:
            op = app.operations[call.name]
            for _ in range(3):  # warm up: compiled-statement caches
                invoke(gym.store, env, app.operations, op, call.args, face="mcp", tool="bench", log_reads=True)
            samples = []
            for _ in range(n):
                t0 = time.perf_counter_ns()
                invoke(gym.store, env, app.operations, op, call.args, face="mcp", tool="bench", log_reads=True)
                samples.append(time.perf_counter_ns() - t0)
            res.add(f"{app.name}_query_p50_ms[{label}]", f"{app.name} {label} p50 (in process)", p50(samples), "ms", None, f"n={n}, {call.name}")
    finally:
        gym.delete(env.id)


def bench_kernels(res: Results, n: int) -> None:
    """Each app's engine kernels (`Probe.kernels`), in process: the step's p50, setup untimed."""
    kernels = [(app, label, setup) for app in apps.APPS for label, setup in app.probe.kernels]
    for app, label, setup in kernels:
        res.echo(f"timing {app.name} {label} ({n} runs) …")
        step = setup()
        step()  # warm up
        samples = []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            step()
            samples.append(time.perf_counter_ns() - t0)
        res.add(f"{app.name}_kernel_p50_ms[{label}]", f"{app.name} {label} p50 (in process)", p50(samples), "ms", None, f"n={n}")


def bench_memory(res: Results, gym: Any, seed: int, size: str, envs: int) -> None:
    """Memory per env after a real read in each (the app's probe read, through `invoke`)."""
    res.echo(f"creating {envs} live envs and reading seeded history in each …")
    gym.template(seed, size)
    gc.collect()
    before = rss_kib()
    tracemalloc.start()
    heap0 = tracemalloc.get_traced_memory()[0]
    created = [gym.create(seed=seed, size=size) for _ in range(envs)]
    for env in created:
        for app in apps.APPS:
            op = app.operations[_probe_operation(app)]
            invoke(gym.store, env, app.operations, op, app.probe.rest_read.args, face="rest", tool="bench")
    gc.collect()
    heap = tracemalloc.get_traced_memory()[0] - heap0
    tracemalloc.stop()
    grown = max(0, rss_kib() - before)
    disk = sum(_disk_size(gym, env) for env in created)
    res.add("live_envs", "live envs", len(created), "")
    res.add("rss_per_env_kib", "memory per env after a history read (RSS)", grown / max(1, envs), "KiB", 1024.0)
    res.add("heap_per_env_kib", "  Python heap per env (tracemalloc)", heap / 1024 / max(1, envs), "KiB", 1024.0)
    res.add("disk_per_env_mib", "disk per env", disk / max(1, envs) / 2**20, "MiB")
    t0 = time.perf_counter_ns()
    for env in created:
        gym.delete(env.id)
    res.add("delete_per_env_ms", "delete per env", (time.perf_counter_ns() - t0) / NS_PER_MS / max(1, envs), "ms")


def _probe_operation(app: Any) -> str:
    """The operation behind the app's REST read probe: the one it names, else its REST path."""
    return app.probe.rest_read.operation or app.probe.rest_read.name


def _disk_size(gym: Any, env: Any) -> int:
    """Bytes of the env's SQLite file and its WAL (0 on a backend without files)."""
    if gym.store.backend_name != "sqlite":
        return 0
    path = gym.store.root / env.handle
    return sum(f.stat().st_size for f in (path, path.with_name(path.name + "-wal")) if f.exists())
