"""Rollouts per second of the compose deployment with 1, 2 and 4 workers on one PostgreSQL.

    uv run python compose/bench.py --workers 1 2 4 --seconds 30

A rollout is what a trainer does, over real HTTP: create an env with a task through a
worker's control plane, let an agent solve it through the env's MCP endpoint (the task's
oracle, sampled here from (task, seed, size, variant) as the server samples it), grade it,
delete it. Rollouts go round-robin over the running workers. The deployment is a compose
project of its own (`officegym-bench`, free ports, its own volumes, removed afterwards), so a
company left running with `make docker` is not touched. Needs the image (`make compose-build`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
COMPOSE_FILE = ROOT / "compose" / "docker-compose.yml"
PROJECT = "officegym-bench"


def free_port(avoid: set[int], span: int = 3) -> int:
    """Free ports below the ephemeral range (no client connection takes one meanwhile)."""
    while True:
        base = random.randrange(20_000, 32_000)
        if not avoid & set(range(base, base + span)):
            try:
                for port in range(base, base + span):
                    with socket.socket() as check:
                        check.bind(("127.0.0.1", port))
                return base
            except OSError:
                continue


class Deployment:
    def __init__(self, workdir: Path) -> None:
        secret_dir = workdir / "secrets"
        secret_dir.mkdir(mode=0o700)
        self.token = secrets.token_urlsafe(32)
        for name, value in {"db_password": secrets.token_urlsafe(24), "control_token": self.token}.items():
            (secret_dir / name).write_text(value + "\n")
            (secret_dir / name).chmod(0o644)
        taken: set[int] = set()
        self.ports: dict[str, int] = {}
        for name in ("worker1", "worker2", "worker3", "worker4", "db"):
            self.ports[name] = free_port(taken)
            taken |= set(range(self.ports[name], self.ports[name] + 3))
        self.env_file = workdir / "bench.env"
        # This run's image by id: a rebuild of officegym:latest meanwhile does not swap it mid-run.
        image = subprocess.run(["docker", "image", "inspect", "-f", "{{.Id}}", "officegym:latest"], capture_output=True, text=True, check=True).stdout.strip()
        self.env_file.write_text("".join(f"{k}={v}\n" for k, v in {
            "OFFICEGYM_IMAGE": image, "SEED": 0, "SIZE": "small", "OFFICEGYM_SECRETS": secret_dir, "PG_PORT": self.ports["db"],
            **{f"WORKER{i}_PORT": self.ports[f"worker{i}"] for i in range(1, 5)}}.items()))

    def compose(self, *args: str) -> str:
        command = ["docker-compose", "--env-file", str(self.env_file), "-p", PROJECT, "-f", str(COMPOSE_FILE), "--profile", "scale", *args]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"docker-compose {' '.join(args)}: {done.stderr[-2000:]}")
        if "Recreating" in done.stderr:  # a measurement on a restarted db is not comparable
            print(done.stderr.strip(), file=sys.stderr, flush=True)
        return done.stdout

    def run(self, workers: int) -> None:
        wanted = [f"worker{i}" for i in range(1, workers + 1)]
        self.compose("up", "-d", "db", *wanted)
        extra = [f"worker{i}" for i in range(workers + 1, 5)]
        if extra:  # (`stop` with no service stops them all)
            self.compose("stop", *extra)
        deadline = time.monotonic() + 300
        for service in ["db", *wanted]:
            while subprocess.run(["docker", "inspect", "-f", "{{.State.Health.Status}}", self.compose("ps", "-q", service).strip() or "none"],
                                 capture_output=True, text=True).stdout.strip() != "healthy":
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{service} is not healthy: {self.compose('ps')}\n{self.compose('logs', '--tail=30', service)}")
                time.sleep(0.5)


def sample_oracles(variants: int) -> list[tuple[str, int, Any]]:
    """(task, variant, oracle) for every family, sampled in-process as the server samples them."""
    from officegym.gym import Gym
    from tasks import registry

    with tempfile.TemporaryDirectory(prefix="officegym-bench-") as tmp:
        gym = Gym(envs_dir=Path(tmp), db_url="sqlite:")
        found = []
        for variant in range(variants):
            for family in registry.all_families():
                try:
                    env = gym.create(family.id, seed=0, size="small", variant=variant)
                except LookupError:
                    continue
                found.append((family.id, variant, env.task.oracle))
                gym.delete(env.id)
        gym.close()
    return found


def client_process(controls: list[str], token: str, seconds: float, concurrency: int, start_at: float, variants: int) -> tuple[int, list[str]]:
    import httpx
    from mcp import Client

    from officegym.validate import McpTools, server_for

    oracles = sample_oracles(variants)
    errors: list[str] = []

    async def main() -> int:
        done = 0
        async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
            await asyncio.sleep(max(0.0, start_at - time.time()))
            deadline = time.monotonic() + seconds

            async def loop(index: int) -> None:
                nonlocal done
                turn = index
                while time.monotonic() < deadline:
                    control = controls[turn % len(controls)]
                    task, variant, oracle = oracles[turn % len(oracles)]
                    turn += concurrency
                    created = await http.post(f"{control}/v1/envs", json={"task": task, "seed": 0, "size": "small", "variant": variant})
                    if created.status_code != 201:
                        errors.append(f"create {task}: {created.status_code} {created.text[:200]}")
                        continue
                    env = created.json()
                    try:
                        server = server_for(task)  # over HTTP a task spanning apps uses `all`
                        async with Client(env["urls"]["mcp"][server if "+" not in server else "all"]) as client:
                            await oracle(McpTools(client))
                        graded = (await http.post(f"{control}/v1/envs/{env['env_id']}/grade")).json()
                        if graded.get("reward") != 1.0:
                            errors.append(f"{task} v{variant}: reward {graded.get('reward')}")
                        elif time.monotonic() <= deadline:
                            done += 1
                    finally:
                        await http.delete(f"{control}/v1/envs/{env['env_id']}")

            await asyncio.gather(*(loop(i) for i in range(concurrency)))
        return done

    return asyncio.run(main()), errors[:5]


def measure(deployment: Deployment, workers: int, seconds: float, clients: int, concurrency: int, variants: int) -> dict[str, Any]:
    controls = [f"http://127.0.0.1:{deployment.ports[f'worker{i}'] + 1}" for i in range(1, workers + 1)]
    start_at = time.time() + 20  # every client samples its oracles first, then all start together
    with multiprocessing.get_context("spawn").Pool(clients) as pool:
        results = pool.starmap(client_process, [(controls, deployment.token, seconds, concurrency, start_at, variants)] * clients)
    done = sum(count for count, _ in results)
    errors = [error for _, found in results for error in found]
    return {"workers": workers, "rollouts": done, "seconds": seconds, "rollouts_per_s": round(done / seconds, 2), "errors": errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4], choices=[1, 2, 3, 4])
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per worker count")
    parser.add_argument("--clients", type=int, default=2, help="client processes driving rollouts")
    parser.add_argument("--concurrency", type=int, default=4, help="rollouts in flight per client process")
    parser.add_argument("--variants", type=int, default=2, help="instances per task family to cycle through")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="officegym-bench-"))
    deployment = Deployment(workdir)
    rows = []
    try:
        for workers in args.workers:
            deployment.run(workers)
            row = measure(deployment, workers, args.seconds, args.clients, args.concurrency, args.variants)
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        try:
            deployment.compose("down", "-v", "--remove-orphans")
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    base = rows[0]["rollouts_per_s"] or 1.0
    print("workers  rollouts/s  vs first")
    for row in rows:
        print(f"{row['workers']:>7}  {row['rollouts_per_s']:>10.2f}  {row['rollouts_per_s'] / base:>7.2f}x")


if __name__ == "__main__":
    main()
