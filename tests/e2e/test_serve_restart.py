"""`officegym serve` for real, as a user starts it: ports checked before URLs are printed, the
control token kept out of stdout, and a SIGKILL followed by a restart loses no env and no
acknowledged write — the restarted server serves and grades the envs it had."""

from __future__ import annotations

import json
import os
import signal
import socket
import ssl
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from officegym.remote import ControlPlane


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Serve:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port, self.control_port, self.tls_port = free_port(), free_port(), free_port()
        self.environ = {
            **os.environ,
            "OFFICEGYM_STATE_DIR": str(tmp / "state"),  # the TLS certificate authority lives here
            "OFFICEGYM_ENVS_DIR": str(tmp / "envs"),
            "OFFICEGYM_STATE_FILE": str(tmp / "serve.json"),
            "PYTHONUNBUFFERED": "1",
        }
        self.environ.pop("OFFICEGYM_CONTROL_TOKEN", None)
        self.proc: subprocess.Popen[str] | None = None
        self.output = ""

    def start(self, *extra: str) -> None:
        command = [sys.executable, "-m", "officegym.cli", "serve", "--port", str(self.port), "--control-port", str(self.control_port),
                   "--tls-port", str(self.tls_port), *extra]
        self.proc = subprocess.Popen(command, env=self.environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"serve exited: {''.join(lines)}")
            lines.append(line)
            if "control plane" in line:
                break
        self.output = "".join(lines)
        while time.monotonic() < deadline:  # the URLs are printed before uvicorn binds: wait for it
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("serve never answered")

    def state(self) -> dict[str, Any]:
        return json.loads((self.tmp / "serve.json").read_text())

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def serve(tmp_path: Path, gym: Any) -> Any:
    gym.template()  # the company template is built once per machine; serve finds it in the cache
    server = Serve(tmp_path)
    yield server
    server.stop()


def test_serve_keeps_its_token_private_and_survives_sigkill(serve: Serve) -> None:
    serve.start()
    state = serve.state()
    assert state["token"] not in serve.output, "the control token is never printed"
    assert stat.S_IMODE((serve.tmp / "serve.json").stat().st_mode) == 0o600
    default_env = state["default_env"]
    assert f"/envs/{default_env}/chat/" in serve.output
    ca_file = state["ca_file"]
    assert f"https://127.0.0.1:{serve.tls_port}" in serve.output and ca_file in serve.output

    cp = ControlPlane(state["control_url"], state["token"])
    env = cp.create("chat/post-in-channel-v1", variant=1)
    api = env["urls"]["api"]["chat"]
    posted = httpx.post(f"{api}chat.postMessage", data={"channel": "#general", "text": "written before the crash"}, timeout=10).json()
    assert posted["ok"], posted
    before = cp.grade(env["env_id"])
    cp.close()

    serve.kill()
    with pytest.raises(OSError):  # the port is free again only once the process is gone: check it is
        socket.create_connection(("127.0.0.1", serve.port), timeout=1).close()
    serve.start()

    state = serve.state()
    assert state["default_env"] == default_env, "the restarted serve kept its default env"
    cp = ControlPlane(state["control_url"], state["token"])
    try:
        # The HTTPS listener is back, with a certificate the same (kept) CA vouches for.
        assert state["instance_url"] == f"https://127.0.0.1:{serve.tls_port}"
        secure = httpx.post(f"{state['instance_url']}/envs/{env['env_id']}/api/chat/auth.test",
                            verify=ssl.create_default_context(cafile=state["ca_file"]), timeout=10)
        assert secure.json()["ok"] is True
        assert state["ca_file"] == ca_file
        got = cp.get(env["env_id"])
        assert got["task"] == "chat/post-in-channel-v1" and got["variant"] == 1
        assert got["prompt"] == env["prompt"], "the task instance is the same after the restart"
        history = httpx.get(f"{api}conversations.history", params={"channel": "#general", "limit": 5}, timeout=10).json()
        assert "written before the crash" in [m["text"] for m in history["messages"]], "the acknowledged write survived SIGKILL"
        after = cp.grade(env["env_id"])
        assert after == before, "grading after the restart gives the same result"
        assert any(e["operation"] == "chat.postMessage" for e in cp.events(env["env_id"]))
    finally:
        cp.close()


def test_serve_refuses_a_busy_port_before_printing_urls(serve: Serve) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", serve.port))
        busy.listen()
        done = subprocess.run(
            [sys.executable, "-m", "officegym.cli", "serve", "--port", str(serve.port), "--control-port", str(serve.control_port)],
            env=serve.environ, capture_output=True, text=True, timeout=60,
        )
    assert done.returncode != 0
    assert "/envs/" not in done.stdout, "no URL is printed for a server that cannot start"
    assert str(serve.port) in done.stderr + done.stdout


def test_a_public_url_is_what_agents_are_handed(serve: Serve) -> None:
    """Behind a proxy or bound to 0.0.0.0, the server hands out the address agents reach it by:
    in what it prints, in the control plane's env URLs; and that name passes its Host check
    while any other is still refused (DNS rebinding)."""
    public = f"http://gym.test:{serve.port}"
    serve.start("--public-url", public)
    assert f"{public}/envs/" in serve.output and "127.0.0.1:" not in serve.output.split("control plane")[0]
    state = serve.state()
    plane = ControlPlane(state["control_url"], state["token"])
    env = plane.create()
    assert all(url.startswith(f"{public}/envs/{env['env_id']}/") for kind in ("ui", "mcp", "api") for url in env["urls"][kind].values())
    assert env["urls"]["instance_url"] == f"https://gym.test:{serve.tls_port}"
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Accept": "application/json, text/event-stream"}
    mcp = f"http://127.0.0.1:{serve.port}/envs/{env['env_id']}/mcp/chat"
    ok = httpx.post(mcp, json=listing, headers={**headers, "Host": f"gym.test:{serve.port}"}, timeout=10)
    assert ok.status_code == 200 and "tools" in ok.json()["result"]
    refused = httpx.post(mcp, json=listing, headers={**headers, "Host": f"evil.test:{serve.port}"}, timeout=10)
    assert refused.status_code == 421


def test_a_malformed_public_url_is_refused_clearly(serve: Serve) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "officegym.cli", "serve", "--port", str(serve.port), "--public-url", "gym.test:8000"],
        env=serve.environ, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0
    assert "--public-url must be an http(s) URL" in done.stderr + done.stdout


def test_a_second_serve_on_the_same_state_file_is_refused(serve: Serve) -> None:
    """Two serves writing one state file would leave the CLI reaching only the last one started
    (and, once it stops, none): the second is refused, naming the first, and the file still
    names the serve that runs."""
    serve.start()
    before = serve.state()
    done = subprocess.run(
        [sys.executable, "-m", "officegym.cli", "serve", "--port", str(free_port()), "--control-port", str(free_port()),
         "--tls-port", str(free_port())],
        env=serve.environ, capture_output=True, text=True, timeout=60,
    )
    said = done.stderr + done.stdout
    assert done.returncode != 0 and "/envs/" not in done.stdout
    assert f"pid {serve.proc.pid}" in said and "OFFICEGYM_STATE_FILE" in said, said
    assert serve.state() == before
    serve.kill()  # gone: its state file no longer stands in the way (the restart above covers it)
