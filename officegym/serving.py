"""`officegym serve`: the agent-facing server and the control plane, in one process.

Both listeners share one `Gym`. Ports are checked before anything is printed, so the URLs a
user copies are URLs that answer. The control token comes from OFFICEGYM_CONTROL_TOKEN or is
generated, and reaches `officegym.remote` through the private state file, never stdout.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import secrets
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import uvicorn
import uvloop

from officegym import apps


def check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise OSError(f"cannot listen on {host}:{port} ({error.strerror}); pick another port with --port/--control-port") from None


def run_listeners(listeners: list[uvicorn.Server], on_start: Callable[[asyncio.AbstractEventLoop], None] | None = None) -> None:
    """Serve every listener on one event loop (uvloop's), until they all stop.

    Before serving, what the process built to start (templates, MCP servers, the apps' route
    tables, SQLAlchemy's metadata: hundreds of thousands of objects that live as long as it
    does) is moved out of the garbage collector's sight: a full collection walking them
    cost ~140 ms, landing on whichever request was running.
    """
    async def serve_all() -> None:
        if on_start is not None:
            on_start(asyncio.get_running_loop())
        await asyncio.gather(*(listener.serve() for listener in listeners))

    gc.freeze()  # (no collection first: it would add ~0.1 s to start for a little start-up garbage)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(serve_all())


class Listener(uvicorn.Server):
    """A uvicorn server that leaves signals to `run_serve`: each server would otherwise
    install its own handlers and the last one installed would stop only itself."""

    @contextlib.contextmanager
    def capture_signals(self):  # type: ignore[override]
        yield


def _default_env(gym: Any, seed: int, size: str, task: str | None) -> Any:
    """The default env of the last `serve` with these settings if it is still alive (envs
    persist across restarts: the company a user left running is the one they come back to)
    and was copied from the template this code builds, else a new one. An env copied from an
    older build's template has that build's schema: this code would answer its pages with
    errors (a column it reads is not there). The default env never expires while serve runs,
    nor between two serves (the idle time-out is for rollouts' envs)."""
    from officegym.core.errors import EnvNotFound
    from officegym.remote import read_state

    try:
        previous = read_state().get("default_env")
        if previous:
            gym.store.keep(previous)
        env = gym.get(previous) if previous else None
    except (RuntimeError, ValueError, EnvNotFound):
        env = None
    current = str(Path(gym.template(seed, size).path).resolve())
    if env is not None and (env.seed, env.size, env.task_id, env.variant, env.template) == (seed, size, task, 0, current):
        return env
    env = gym.create(task, seed=seed, size=size)
    gym.store.keep(env.id)
    return env


def _certificate(host: str, public_host: str | None = None) -> Any:
    from officegym import settings
    from officegym.tls import server_certificate

    names = ["127.0.0.1", "localhost", "::1"]
    if host in ("0.0.0.0", "::"):
        names.append(socket.gethostname())
    elif host not in names:
        names.append(host)
    if public_host and public_host not in names:
        names.append(public_host)
    return server_certificate(settings.state_dir() / "tls", names)


def public_base(public_url: str) -> tuple[str, str]:
    """(base URL, host name) of `--public-url`: the address agents reach the server at when it
    is not the one it binds (0.0.0.0 on a cluster node, a container, a reverse proxy)."""
    parts = urlsplit(public_url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"--public-url must be an http(s) URL such as http://gym.example.com:8000 (got {public_url!r})")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}", parts.hostname


def run_serve(*, host: str, port: int, control_host: str, control_port: int, seed: int, size: str, task: str | None,
              echo: Callable[[str], None], db: str | None = None, tls_port: int | None = None, public_url: str | None = None) -> None:
    from officegym.control import env_urls
    from officegym.core.api_token import api_token
    from officegym.gym import Gym
    from officegym import settings
    from officegym.remote import other_serve, write_state
    from officegym.server import create_agent_app, create_control_app

    public = public_base(public_url) if public_url else None
    other = other_serve()
    if other is not None:
        raise OSError(f"another officegym serve (pid {other['pid']}, control plane {other['control_url']}) runs with the state file "
                      f"{settings.state_file()}, and the CLI and Python API would reach only one of them: stop it, or start this one "
                      "with its own OFFICEGYM_STATE_FILE (and OFFICEGYM_STATE_DIR, to keep its envs apart)")
    check_port(host, port)
    check_port(control_host, control_port)
    if tls_port:
        check_port(host, tls_port)
    gym = Gym(db_url=db)
    env = _default_env(gym, seed, size, task)
    token = os.environ.get("OFFICEGYM_CONTROL_TOKEN") or secrets.token_urlsafe(32)
    shown = public[1] if public else "localhost" if host in ("0.0.0.0", "::") else host
    base = public[0] if public else f"http://{shown}:{port}"
    control_shown = "localhost" if control_host in ("0.0.0.0", "::") else control_host
    control_url = f"http://{control_shown}:{control_port}"
    certificate = _certificate(host, public[1] if public else None) if tls_port else None
    instance_url = f"https://{_url_host(shown)}:{tls_port}" if tls_port else None
    state = write_state(control_url, token, base, env.id, instance_url=instance_url,
                        ca_file=str(certificate.ca_file) if certificate else None)

    company = gym.template(seed, size).company
    echo(f"officegym — {company.name} (seed {seed}, {size}); apps: {', '.join(apps.names())}; default env {env.id}")
    instance = gym.instance(env)
    if instance is not None:
        echo(f"task {task}: {instance.prompt}")
    urls = env_urls(base, env.id)
    for kind in ("ui", "mcp", "api"):
        for name, url in urls[kind].items():
            echo(f"  {kind:<4} {name:<8} {url}")
    if certificate is not None:
        echo(f"  https          {instance_url}  (the same apps over TLS; API token {api_token(env.id)}; CA {certificate.ca_file})")
    echo(f"  control plane  {control_url}/v1/envs  (bearer token in {state}; docs at {control_url}/v1/docs)")

    listeners = [
        Listener(uvicorn.Config(create_agent_app(gym, host=host, public_host=shown), host=host, port=port, log_level="warning")),
        Listener(uvicorn.Config(create_control_app(gym, token, base, instance_url=instance_url), host=control_host,
                                port=control_port, log_level="warning")),
    ]
    if certificate is not None:  # an app of its own: each MCP session manager runs in one lifespan only
        listeners.append(Listener(uvicorn.Config(create_agent_app(gym, host=host, public_host=shown), host=host, port=tls_port, log_level="warning",
                                                 ssl_certfile=str(certificate.cert_file), ssl_keyfile=str(certificate.key_file))))

    def stop() -> None:
        for listener in listeners:
            listener.should_exit = True

    def on_signals(loop: asyncio.AbstractEventLoop) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop)

    try:
        run_listeners(listeners, on_signals)
    finally:
        gym.close()


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
