"""The control plane from Python, for a trainer talking to a running `officegym serve`.

    from officegym.remote import ControlPlane
    cp = ControlPlane()                      # finds the server and its token in the state file
    env = cp.create("chat/reply-in-thread-v1", seed=0, variant=2)
    ...                                      # the agent uses env["urls"]
    print(cp.grade(env["env_id"])["reward"])

`serve` writes its control URL and token to a private state file (mode 0600) so the CLI and
this client need no copy-paste; pass `url` and `token` to reach a server elsewhere.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from officegym import settings


def write_state(control_url: str, token: str, agent_url: str, default_env: str | None, *,
                instance_url: str | None = None, ca_file: str | None = None) -> Path:
    path = settings.state_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump({"control_url": control_url, "token": token, "agent_url": agent_url, "default_env": default_env,
                   "instance_url": instance_url, "ca_file": ca_file, "pid": os.getpid()}, out)
    os.replace(tmp, path)
    return path


def read_state() -> dict[str, Any]:
    path = settings.state_file()
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise RuntimeError(f"no running officegym found ({path} is missing): start `officegym serve`, or pass url and token") from None


def other_serve() -> dict[str, Any] | None:
    """The state of another `serve` that runs now with this state file (its process is alive
    and its control port takes connections), or None. Two serves sharing one state file would
    leave the CLI and this client reaching only the last one started."""
    try:
        state = read_state()
    except (RuntimeError, ValueError, OSError):
        return None
    pid = state.get("pid")
    if not isinstance(pid, int) or pid == os.getpid() or not _alive(pid):
        return None
    parts = urlsplit(str(state.get("control_url") or ""))
    try:  # a live pid alone may be a reused one: the serve that wrote the file answers on its port
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=1):
            return state
    except (OSError, ValueError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ControlPlane:
    def __init__(self, url: str | None = None, token: str | None = None, timeout: float = 60.0) -> None:
        # The CA file that vouches for the server's HTTPS listener, for product clients
        # that need HTTPS (None when serve runs without TLS, or is reached elsewhere).
        self.ca_file: str | None = None
        self._found_in = ""  # where the URL came from, for the error when nothing answers there
        if url is None or token is None:
            state = read_state()
            url, token = url or state["control_url"], token or state["token"]
            self.ca_file = state.get("ca_file")
            pid = state.get("pid")
            self._found_in = f" (read from {settings.state_file()}, written by serve pid {pid}" + \
                ("" if pid is None or _alive(int(pid)) else ", which is no longer running") + ")"
        self.url = url.rstrip("/")
        self.http = httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=timeout)

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.ConnectError:
            raise RuntimeError(f"nothing answers at {self.url}{self._found_in}: start `officegym serve`, "
                               "or pass the url and token of a running one") from None
        if response.status_code >= 400:
            raise RuntimeError(f"{method} {path}: HTTP {response.status_code}: {response.text[:500]}")
        return response.json() if response.content else None

    def create(self, task: str | None = None, seed: int = 0, size: str = "small", variant: int = 0, toolset: str | None = None) -> dict[str, Any]:
        body = {"task": task, "seed": seed, "size": size, "variant": variant, "toolset": toolset}
        return self._call("POST", "/v1/envs", json=body)

    def get(self, env_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/envs/{env_id}")

    def list(self) -> list[dict[str, Any]]:
        return self._call("GET", "/v1/envs")["envs"]

    def delete(self, env_id: str) -> None:
        self._call("DELETE", f"/v1/envs/{env_id}")

    def grade(self, env_id: str) -> dict[str, Any]:
        return self._call("POST", f"/v1/envs/{env_id}/grade")

    def events(self, env_id: str, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        return self._call("GET", f"/v1/envs/{env_id}/events", params={"after": after, "limit": limit})["events"]

    def clock(self, env_id: str) -> str:
        """The env's current time (ISO 8601)."""
        return self._call("GET", f"/v1/envs/{env_id}/clock")["now"]

    def advance_clock(self, env_id: str, seconds: float | None = None, to: str | None = None) -> dict[str, Any]:
        """Let time pass in the env: forward by `seconds`, or to the ISO time `to`."""
        body = {"advance_seconds": seconds} if to is None else {"to": to}
        return self._call("POST", f"/v1/envs/{env_id}/clock", json=body)

    def tasks(self, counts: bool = False, seed: int = 0, size: str = "small") -> list[dict[str, Any]]:
        """The task families; with `counts`, each with its number of distinct `instances` on the
        (seed, size) company (a variant past it wraps around)."""
        params = {"counts": "true", "seed": seed, "size": size} if counts else None
        return self._call("GET", "/v1/tasks", params=params)["tasks"]

    def close(self) -> None:
        self.http.close()
