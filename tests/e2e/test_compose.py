"""The company simulation in Docker (compose/): really built and started with Debian's engine
and docker-compose, as a researcher runs it — PostgreSQL and two officegym workers, host
networking, secrets from files — then used over real HTTP: health, one MCP call and one UI page
per app, a write that survives a restart of its worker container and a full `down`/`up`, any
worker serving any env, the clock call, and a graded rollout.

It runs once, in the SQLite pass (the deployment brings its own PostgreSQL), and skips only
where no Docker engine can run. The images are built by the Makefile targets `make docker`
uses, so the layer cache (and the base image) carry over between runs.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "compose" / "docker-compose.yml"
HEALTHY_WITHIN_S = 300.0

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("OFFICEGYM_DB")),
    reason="the compose deployment brings its own PostgreSQL: it is tested once, in the SQLite pass",
)


def engine_available() -> str | None:
    """None when a Docker engine answers or can be started here; else why not."""
    if shutil.which("docker") is None or shutil.which("docker-compose") is None:
        if os.geteuid() != 0:
            return "no docker/docker-compose and not root to install them (`make docker-engine`)"
        return None  # the Makefile installs them
    if subprocess.run(["docker", "info"], capture_output=True).returncode == 0:
        return None
    if os.geteuid() != 0 and not os.access("/var/run/docker.sock", os.W_OK):
        return "no Docker engine runs and this user cannot start one (`sudo make docker-engine`)"
    return None


def free_block(count: int, avoid: set[int]) -> int:
    """A port p with p .. p+count-1 all free on loopback, below the ephemeral range (so no
    client connection takes one before the containers bind it)."""
    for _ in range(200):
        base = random.randrange(20_000, 32_000)
        if avoid & set(range(base, base + count)):
            continue
        try:
            for port in range(base, base + count):
                with socket.socket() as check:
                    check.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
    raise RuntimeError("no free block of ports on 127.0.0.1")


@dataclass
class Deployment:
    project: str
    env_file: Path
    ports: dict[str, int]
    token: str
    timings: dict[str, float]

    def compose(self, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        command = ["docker-compose", "--env-file", str(self.env_file), "-p", self.project, "-f", str(COMPOSE_FILE), "--profile", "scale", *args]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        if check and result.returncode != 0:
            raise AssertionError(f"{' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        return result

    def container(self, service: str) -> str:
        return self.compose("ps", "-q", service).stdout.strip()

    def wait_healthy(self, *services: str) -> float:
        started = time.monotonic()
        pending = set(services)
        while pending:
            for service in sorted(pending):
                cid = self.container(service)
                status = subprocess.run(["docker", "inspect", "-f", "{{.State.Health.Status}}", cid], capture_output=True, text=True).stdout.strip() if cid else ""
                if status == "healthy":
                    pending.discard(service)
            if pending and time.monotonic() - started > HEALTHY_WITHIN_S:
                logs = self.compose("logs", "--tail=40", *sorted(pending), check=False).stdout
                raise AssertionError(f"{sorted(pending)} not healthy within {HEALTHY_WITHIN_S:.0f} s:\n{logs}")
            time.sleep(0.5)
        return time.monotonic() - started

    def agent(self, worker: int) -> str:
        return f"http://127.0.0.1:{self.ports[f'worker{worker}']}"

    def control(self, worker: int) -> httpx.Client:
        return httpx.Client(base_url=f"http://127.0.0.1:{self.ports[f'worker{worker}'] + 1}",
                            headers={"Authorization": f"Bearer {self.token}"}, timeout=60)


@pytest.fixture(scope="module")
def deployment() -> Iterator[Deployment]:
    why_not = engine_available()
    if why_not:
        pytest.skip(f"no Docker engine can run here: {why_not}")
    timings: dict[str, float] = {}
    t0 = time.monotonic()
    # The same steps as `make docker`: engine, base image, image (cached layers when present).
    built = subprocess.run(["make", "-s", "docker-engine", "docker-base", "compose-build"], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, f"building the images failed:\n{built.stdout[-3000:]}\n{built.stderr[-3000:]}"
    timings["build_s"] = time.monotonic() - t0
    # This run's image by id: a rebuild of officegym:latest meanwhile does not swap it under the test.
    image = subprocess.run(["docker", "image", "inspect", "-f", "{{.Id}}", "officegym:latest"], capture_output=True, text=True, check=True).stdout.strip()

    workdir = Path(tempfile.mkdtemp(prefix="officegym-compose-"))
    secret_dir = workdir / "secrets"
    secret_dir.mkdir(mode=0o700)
    token = secrets.token_urlsafe(32)
    for name, value in {"db_password": secrets.token_urlsafe(24), "control_token": token}.items():
        (secret_dir / name).write_text(value + "\n")
        (secret_dir / name).chmod(0o644)
    ports: dict[str, int] = {}
    for name, count in (("worker1", 3), ("worker2", 3), ("db", 1)):
        ports[name] = free_block(count, {p + i for p in ports.values() for i in range(3)})
    env_file = workdir / "compose.env"
    env_file.write_text("\n".join([
        f"OFFICEGYM_IMAGE={image}", "SEED=0", "SIZE=small", "HOST=127.0.0.1", f"OFFICEGYM_SECRETS={secret_dir}", f"PG_PORT={ports['db']}",
        f"WORKER1_PORT={ports['worker1']}", f"WORKER2_PORT={ports['worker2']}",
    ]) + "\n")
    deployed = Deployment(project=f"officegym-test-{os.getpid()}", env_file=env_file, ports=ports, token=token, timings=timings)
    try:
        t0 = time.monotonic()
        deployed.compose("up", "-d", "db", "worker1", "worker2")
        deployed.wait_healthy("db", "worker1", "worker2")
        timings["first_start_s"] = time.monotonic() - t0
        yield deployed
    finally:
        deployed.compose("down", "-v", "--remove-orphans", check=False)
        shutil.rmtree(workdir, ignore_errors=True)
        print(f"\ncompose timings: {json.dumps({k: round(v, 1) for k, v in timings.items()})}")


@pytest.fixture(scope="module")
def company(deployment: Deployment) -> dict[str, Any]:
    """The company env every worker serves (seeded on the first start from SEED/SIZE)."""
    with deployment.control(1) as control:
        envs = control.get("/v1/envs").json()["envs"]
    bare = [env for env in envs if env["task"] is None and env["seed"] == 0 and env["size"] == "small"]
    assert len(bare) == 1, f"two workers starting together seed one company, found {len(bare)}"
    return bare[0]


# One read per app, as an agent's first call (seed 0, small: the company has these).
FIRST_READ: dict[str, tuple[str, dict[str, Any]]] = {
    "chat": ("slack_list_channels", {"limit": 5}),
    "crm": ("salesforce_query_records", {"objectName": "Account", "fields": ["Id", "Name"], "limit": 2}),
    "tickets": ("jira_search", {"jql": "project = SUP", "limit": 2}),
    "sheets": ("list_spreadsheets", {}),
}


def slack(url: str, method: str, **params: Any) -> dict[str, Any]:
    body = httpx.post(f"{url}/{method}", json=params, timeout=30).json()
    assert body["ok"] is True, body
    return body


def info_image(deployment: Deployment) -> str:
    return next(line.split("=", 1)[1] for line in deployment.env_file.read_text().splitlines() if line.startswith("OFFICEGYM_IMAGE="))


def test_health_non_root_and_no_secret_in_the_image(deployment: Deployment) -> None:
    for service in ("db", "worker1", "worker2"):
        cid = deployment.container(service)
        info = json.loads(subprocess.run(["docker", "inspect", cid], capture_output=True, text=True, check=True).stdout)[0]
        assert info["State"]["Health"]["Status"] == "healthy", service
        assert info["HostConfig"]["NetworkMode"] == "host"
        assert info["Config"]["User"] in ("officegym", "postgres"), f"{service} runs as {info['Config']['User']!r}"
        assert deployment.token not in json.dumps(info["Config"]), f"the control token is in {service}'s config"
    image = json.loads(subprocess.run(["docker", "image", "inspect", info_image(deployment)], capture_output=True, text=True, check=True).stdout)[0]
    assert image["Config"]["User"] == "officegym"
    assert "TOKEN" not in json.dumps(image["Config"]["Env"]) and "PASSWORD" not in json.dumps(image["Config"]["Env"])
    with httpx.Client(base_url=f"http://127.0.0.1:{deployment.ports['worker1'] + 1}", timeout=10) as anonymous:
        assert anonymous.get("/v1/envs").status_code == 401
    # The same apps over HTTPS, on the third port of the worker.
    with socket.create_connection(("127.0.0.1", deployment.ports["worker1"] + 2), timeout=5):
        pass


async def test_one_mcp_call_per_app(deployment: Deployment, company: dict[str, Any]) -> None:
    with deployment.control(1) as control:
        names = [app["name"] for app in control.get("/v1/apps").json()["apps"]]
    assert "chat" in names and names == list(company["urls"]["mcp"].keys())[: len(names)], names
    for app in names:
        async with Client(company["urls"]["mcp"][app]) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            if app in FIRST_READ:
                name, arguments = FIRST_READ[app]
            else:  # an app added later: its first read that needs no arguments
                name = next(n for n, t in tools.items() if not (t.input_schema or {}).get("required") and ("list" in n or "search" in n))
                arguments = {}
            assert name in tools, f"{app} has no tool {name}"
            result = await client.call_tool(name, arguments)
            assert not result.is_error, f"{app}: {name} failed: {result.content}"
            assert result.content and result.content[0].text.strip(), f"{app}: {name} answered nothing"


def test_one_ui_page_per_app(deployment: Deployment, company: dict[str, Any]) -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    # A Playwright of its own, closed here: the module's async tests need the loop free.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            for app, url in company["urls"]["ui"].items():
                response = page.goto(url)
                assert response is not None and response.status == 200, f"{app} UI at {url}"
                assert page.title(), f"{app} UI has a title"
                assert page.locator("body").inner_text().strip(), f"{app} UI shows something"
            assert errors == [], f"the UIs raised {errors}"
        finally:
            browser.close()


def test_any_worker_serves_any_env_and_the_clock_moves(deployment: Deployment, company: dict[str, Any]) -> None:
    with deployment.control(2) as control:
        seen = control.get(f"/v1/envs/{company['env_id']}")
        assert seen.status_code == 200
        assert seen.json()["urls"]["ui"]["chat"].startswith(deployment.agent(2))
        before = control.get(f"/v1/envs/{company['env_id']}/clock").json()["now"]
        moved = control.post(f"/v1/envs/{company['env_id']}/clock", json={"advance_seconds": 3600})
        assert moved.status_code == 200 and moved.json()["before"] == before
    with deployment.control(1) as control:  # the other worker sees the same time
        assert control.get(f"/v1/envs/{company['env_id']}/clock").json()["now"] == moved.json()["now"]


async def test_a_graded_rollout_through_the_deployment(deployment: Deployment, gym: Any) -> None:
    from officegym.validate import McpTools, server_for

    task = "chat/reply-in-thread-v1"
    with deployment.control(2) as control:
        created = control.post("/v1/envs", json={"task": task, "seed": 0, "size": "small", "variant": 1})
        assert created.status_code == 201, created.text
        env = created.json()
        try:
            assert control.post(f"/v1/envs/{env['env_id']}/grade").json()["reward"] == 0.0  # nothing done yet
            # The oracle is sampled here from (task, seed, size, variant), as the server did,
            # and acts through the worker's MCP endpoint over HTTP.
            local = gym.create(task, seed=0, size="small", variant=1)
            try:
                async with Client(env["urls"]["mcp"][server_for(task)]) as client:
                    await local.task.oracle(McpTools(client))
            finally:
                gym.delete(local.id)
            with deployment.control(1) as other:  # graded by the other worker
                graded = other.post(f"/v1/envs/{env['env_id']}/grade")
            assert graded.status_code == 200 and graded.json()["reward"] == 1.0, graded.text
        finally:
            control.delete(f"/v1/envs/{env['env_id']}")


def test_a_write_survives_a_restart_and_down_up(deployment: Deployment, company: dict[str, Any]) -> None:
    api = company["urls"]["api"]["chat"].rstrip("/")
    channel = next(c for c in slack(api, "conversations.list", limit=100)["channels"] if c["is_general"])["id"]
    text = f"kept across restarts {secrets.token_hex(4)}"
    posted = slack(api, "chat.postMessage", channel=channel, text=text)

    def still_there(url: str) -> None:
        history = slack(url, "conversations.history", channel=channel, limit=10)["messages"]
        assert [m["ts"] for m in history if m.get("text") == text] == [posted["ts"]]

    t0 = time.monotonic()
    deployment.compose("restart", "worker1")
    deployment.wait_healthy("worker1")
    deployment.timings["worker_restart_s"] = time.monotonic() - t0
    still_there(api)
    still_there(f"{deployment.agent(2)}/envs/{company['env_id']}/api/chat")

    t0 = time.monotonic()
    deployment.compose("down")  # containers gone, named volumes kept
    assert deployment.container("worker1") == ""
    deployment.compose("up", "-d", "db", "worker1", "worker2")
    deployment.wait_healthy("db", "worker1", "worker2")
    deployment.timings["down_up_s"] = time.monotonic() - t0
    still_there(api)
    with deployment.control(1) as control:
        assert [e["env_id"] for e in control.get("/v1/envs").json()["envs"] if e["task"] is None] == [company["env_id"]]
