"""A bounded soak of a real `officegym serve` process: ≥ 100 envs written concurrently through
the UI (form posts), REST and MCP (the official SDK client) for ~20 s, then every env read
back. Required: the process never dies, no answer is a 5xx or a dropped connection, every
acknowledged write is in its env's final state, and no env ever shows another's writes. And
a DELETE racing writes to the same env is a 204 (or 404) while each write is a 200 or a 404,
never a 500, and a deleted env stays deleted.

The server runs in a child process, not in the test process: a crash (a segfault in a
database driver, say) must be a failed test with the server's log, not a dead test run.
Duration and size: OFFICEGYM_SOAK_SECONDS (default 20), OFFICEGYM_SOAK_ENVS (default 120).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from mcp import Client

SECONDS = float(os.environ.get("OFFICEGYM_SOAK_SECONDS", "20"))
ENVS = int(os.environ.get("OFFICEGYM_SOAK_ENVS", "120"))
pytestmark = pytest.mark.pass_backend  # `officegym serve` in a child process, on OFFICEGYM_DB's backend (tests/conftest.py)
UI_THREADS, REST_THREADS, MCP_TASKS = 4, 4, 8
HOT = 4  # half the writes go to the first few envs, so writers also collide inside one env


def pick(env_ids: list[str]) -> int:
    return random.randrange(HOT) if random.random() < 0.5 else random.randrange(len(env_ids))
START_TIMEOUT_S = 90


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    base: str
    control: httpx.Client
    log: Path

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_tail(self) -> str:
        exit = "" if self.alive() else f"exit status {self.process.returncode} (negative: killed by that signal)\n"
        return exit + self.log.read_text(errors="replace")[-4000:]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("soak")
    port, control_port, token = free_port(), free_port(), secrets.token_urlsafe(16)
    environment = {
        **os.environ, "OFFICEGYM_CONTROL_TOKEN": token, "OFFICEGYM_STATE_DIR": str(root / "state"),
        "OFFICEGYM_ENVS_DIR": str(root / "envs"), "OFFICEGYM_STATE_FILE": str(root / "serve.json"), "OFFICEGYM_ENV_TTL": "0",
        "PYTHONFAULTHANDLER": "1",  # a crash leaves every thread's stack in the log
    }
    log = root / "serve.log"
    command = [sys.executable, "-c", "from officegym.cli import app; app()", "serve", "--port", str(port), "--control-port", str(control_port)]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=environment, stdout=out, stderr=subprocess.STDOUT)
    control = httpx.Client(base_url=f"http://127.0.0.1:{control_port}", headers={"Authorization": f"Bearer {token}"}, timeout=60)
    server = Served(process, f"http://127.0.0.1:{port}", control, log)
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        assert server.alive(), f"officegym serve exited during start-up:\n{server.log_tail()}"
        try:
            if control.get("/v1/apps").status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"officegym serve did not start within {START_TIMEOUT_S} s:\n{server.log_tail()}"
        time.sleep(0.1)
    yield server
    control.close()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()


@dataclass
class Tally:
    """What the writers saw. `acked` is every acknowledged write: (env index, ts, text)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: list[tuple[int, str, str]] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def ack(self, face: str, env: int, ts: str, text: str) -> None:
        with self.lock:
            self.calls[face] += 1
            self.acked.append((env, ts, text))

    def fail(self, what: str) -> None:
        with self.lock:
            self.failures.append(what[:300])


def ui_writer(served: Served, env_ids: list[str], channel: str, tally: Tally, worker: int, stop: threading.Event) -> None:
    with httpx.Client(timeout=60, headers={"origin": served.base}) as client:  # as the browser sends it
        for n in range(10**9):
            if stop.is_set():
                return
            index = pick(env_ids)
            text = f"soak:{index}:ui:{worker}:{n}"
            try:
                response = client.post(f"{served.base}/envs/{env_ids[index]}/chat/c/{channel}/messages", data={"text": text})
            except httpx.TransportError as error:
                tally.fail(f"ui {text}: {error!r}")
                continue
            anchor = re.search(r"#p(\d{10})(\d{6})$", response.headers.get("location", ""))
            if response.status_code != 303 or anchor is None:
                tally.fail(f"ui {text}: {response.status_code} {response.text[:200]}")
                continue
            tally.ack("ui", index, f"{anchor[1]}.{anchor[2]}", text)


def rest_writer(served: Served, env_ids: list[str], channel: str, tally: Tally, worker: int, stop: threading.Event) -> None:
    with httpx.Client(timeout=60) as client:
        for n in range(10**9):
            if stop.is_set():
                return
            index = pick(env_ids)
            text = f"soak:{index}:rest:{worker}:{n}"
            api = f"{served.base}/envs/{env_ids[index]}/api/chat"
            try:
                response = client.post(f"{api}/chat.postMessage", json={"channel": channel, "text": text})
                if n % 4 == 0:  # readers too, on the same envs
                    read = client.get(f"{api}/conversations.history", params={"channel": channel, "limit": 5})
                    if read.status_code != 200 or not read.json()["ok"]:
                        tally.fail(f"rest read: {read.status_code} {read.text[:200]}")
            except httpx.TransportError as error:
                tally.fail(f"rest {text}: {error!r}")
                continue
            body = response.json() if response.status_code == 200 else {}
            if not body.get("ok"):
                tally.fail(f"rest {text}: {response.status_code} {response.text[:200]}")
                continue
            tally.ack("rest", index, body["ts"], text)


async def mcp_writer(served: Served, env_ids: list[str], channel: str, tally: Tally, worker: int, stop: threading.Event) -> None:
    n = 0
    while not stop.is_set():
        index = pick(env_ids)
        try:
            async with Client(f"{served.base}/envs/{env_ids[index]}/mcp/chat") as client:
                for _ in range(5):  # a few calls per session, as an agent makes them
                    n += 1
                    text = f"soak:{index}:mcp:{worker}:{n}"
                    result = await client.call_tool("slack_post_message", {"channel_id": channel, "text": text})
                    body = json.loads(result.content[0].text)
                    if result.is_error or not body.get("ok"):
                        tally.fail(f"mcp {text}: {body}")
                        continue
                    tally.ack("mcp", index, body["ts"], text)
        except Exception as error:  # transport errors, 5xx, protocol errors: all failures here
            tally.fail(f"mcp env {index}: {error!r}")


def mcp_writers(served: Served, env_ids: list[str], channel: str, tally: Tally, stop: threading.Event) -> None:
    async def all_of_them() -> None:
        await asyncio.gather(*(mcp_writer(served, env_ids, channel, tally, worker, stop) for worker in range(MCP_TASKS)))

    asyncio.run(all_of_them())


def general_channel(served: Served, env_id: str) -> str:
    channels = httpx.get(f"{served.base}/envs/{env_id}/api/chat/conversations.list", timeout=60).json()["channels"]
    return next(c["id"] for c in channels if c["is_general"])


def soak_messages(client: httpx.Client, served: Served, env_id: str, channel: str, after: str) -> dict[str, str]:
    """text → ts of every soak message in the env's final state."""
    found: dict[str, str] = {}
    cursor = ""
    while True:
        page = client.get(f"{served.base}/envs/{env_id}/api/chat/conversations.history",
                          params={"channel": channel, "oldest": after, "limit": 999, "cursor": cursor}).json()
        assert page["ok"], page
        found.update({m["text"]: m["ts"] for m in page["messages"] if m["text"].startswith("soak:")})
        cursor = page["response_metadata"]["next_cursor"]
        if not cursor:
            return found


def test_soak_concurrent_ui_rest_mcp_writers_across_envs(served: Served) -> None:
    env_ids = []
    for _ in range(ENVS):
        created = served.control.post("/v1/envs")
        assert created.status_code == 201, created.text
        env_ids.append(created.json()["env_id"])
    channel = general_channel(served, env_ids[0])  # the same in every env: one template
    history = httpx.get(f"{served.base}/envs/{env_ids[0]}/api/chat/conversations.history", params={"channel": channel, "limit": 1}, timeout=60)
    start = history.json()["messages"][0]["ts"]

    tally, stop = Tally(), threading.Event()
    threads = [threading.Thread(target=ui_writer, args=(served, env_ids, channel, tally, w, stop)) for w in range(UI_THREADS)]
    threads += [threading.Thread(target=rest_writer, args=(served, env_ids, channel, tally, w, stop)) for w in range(REST_THREADS)]
    threads.append(threading.Thread(target=mcp_writers, args=(served, env_ids, channel, tally, stop)))
    began = time.monotonic()
    for thread in threads:
        thread.start()
    stop.wait(SECONDS)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    elapsed = time.monotonic() - began

    assert served.alive(), f"the server died under load:\n{served.log_tail()}"
    assert not tally.failures, f"{len(tally.failures)} failed calls, e.g. {tally.failures[:5]}\n{served.log_tail()}"
    lost, leaks = [], []
    with httpx.Client(timeout=60) as client:
        for index, env_id in enumerate(env_ids):
            final = soak_messages(client, served, env_id, channel, start)
            leaks += [text for text in final if not text.startswith(f"soak:{index}:")]
            lost += [(index, ts, text) for i, ts, text in tally.acked if i == index and final.get(text) != ts]
    print(f"\nsoak: {len(env_ids)} envs, {elapsed:.0f} s, acknowledged writes {dict(tally.calls)} "
          f"({len(tally.acked) / elapsed:.0f}/s), lost {len(lost)}, cross-env leaks {len(leaks)}, 5xx/drops 0")
    assert not lost, f"{len(lost)} acknowledged writes are missing from their env, e.g. {lost[:5]}"
    assert not leaks, f"{len(leaks)} messages showed up in another env, e.g. {leaks[:5]}"
    assert min(tally.calls[face] for face in ("ui", "rest", "mcp")) >= 20, tally.calls
    for env_id in env_ids:
        served.control.delete(f"/v1/envs/{env_id}")


def test_a_delete_racing_writes_is_never_a_500(served: Served) -> None:
    outcomes: Counter[str] = Counter()
    problems: list[str] = []
    lock = threading.Lock()
    first = served.control.post("/v1/envs").json()["env_id"]
    channel = general_channel(served, first)
    served.control.delete(f"/v1/envs/{first}")

    racing = [served.control.post("/v1/envs").json()["env_id"] for _ in range(40)]

    def race(seed: int, env_id: str) -> None:
        try:
            one_race(random.Random(seed), env_id)
        except Exception as error:  # a dropped connection, a timeout: a failure, not a silent thread
            with lock:
                problems.append(f"race {seed}: {error!r}")

    def one_race(rng: random.Random, env_id: str) -> None:
        env = f"{served.base}/envs/{env_id}"
        seen: list[int] = []

        def write() -> None:
            with httpx.Client(timeout=60) as client:
                for n in range(12):
                    try:
                        if n % 2:
                            response = client.post(f"{env}/chat/c/{channel}/messages", data={"text": f"race {n}"})  # UI
                        else:
                            response = client.post(f"{env}/api/chat/chat.postMessage", json={"channel": channel, "text": f"race {n}"})
                        seen.append(response.status_code)
                    except httpx.TransportError as error:
                        with lock:
                            problems.append(f"write: {error!r}")

        writer = threading.Thread(target=write)
        writer.start()
        time.sleep(rng.uniform(0, 0.03))
        with httpx.Client(timeout=60, headers=served.control.headers) as control:
            deleted = control.delete(f"{served.control.base_url}/v1/envs/{env_id}").status_code
            writer.join()
            after = control.get(f"{served.control.base_url}/v1/envs/{env_id}").status_code
        with lock:
            outcomes[f"delete {deleted}"] += 1
            outcomes.update(f"write {s}" for s in seen)
            if deleted not in (204, 404) or after != 404:
                problems.append(f"delete {deleted}, then GET {after}")
            if any(s not in (200, 303, 404) for s in seen):
                problems.append(f"writes {seen}")
            if 404 in seen and any(s != 404 for s in seen[seen.index(404):]):
                problems.append(f"the env came back after a 404: {seen}")

    racers = [threading.Thread(target=race, args=(seed, env_id)) for seed, env_id in enumerate(racing)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(timeout=120)
    print(f"\ndelete racing writes: {dict(outcomes)}")
    assert served.alive(), f"the server died:\n{served.log_tail()}"
    assert not problems, f"{problems[:5]}\n{served.log_tail()}"
    assert sum(n for outcome, n in outcomes.items() if outcome.startswith("delete")) == len(racing), outcomes
