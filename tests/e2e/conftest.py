"""Shared fixtures of the end-to-end tests: the real server on a loopback port, and a browser.

`live_server` runs the two listeners of `officegym serve` — the agent-facing app and the
control plane (bearer token) — under uvicorn in background threads for the whole session,
over the session's `gym` (envs in a temp dir, templates from the default cache,
so the company is built at most once per machine). Tests talk to it over real HTTP: MCP
clients, `slack_sdk`, httpx, and Chromium through Playwright.

`browser` is one headless Chromium per test process (the Debian package at /usr/bin/chromium;
Playwright never downloads a browser here), started when the first test needs it; `page` is a
fresh context (its own cookies, storage and cache) and page per test that fails the test if the
page raised a JavaScript error or opened a dialog. Tests share the browser, never a context.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn

from officegym.core.env_store import Env
from officegym.gym import Gym
from officegym.server import create_agent_app, create_control_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
STARTUP_TIMEOUT_S = 60.0


CONTROL_TOKEN = "test-control-token"


@dataclass
class LiveServer:
    gym: Gym
    base_url: str  # the agent-facing server, "http://127.0.0.1:<port>", no trailing slash
    control_url: str  # the control plane, on its own port
    token: str  # the control plane's bearer token
    servers: list[uvicorn.Server] = field(repr=False)
    instance_url: str = ""  # the agent-facing app again, over HTTPS (root REST faces, by API token)
    ca_file: str = ""  # the CA that vouches for it

    def env_url(self, env_id: str, face: str = "") -> str:
        return f"{self.base_url}/envs/{env_id}/{face}" if face else f"{self.base_url}/envs/{env_id}"


def start_uvicorn(app: Any, name: str, tls: Any = None) -> tuple[uvicorn.Server, str]:
    """`app` on a free loopback port, over HTTPS when `tls` (an officegym.tls.Certificate)."""
    ssl = {"ssl_certfile": str(tls.cert_file), "ssl_keyfile": str(tls.key_file)} if tls is not None else {}
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", **ssl))
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError(f"{name} exited during start-up (see the log above)")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"{name} did not start within {STARTUP_TIMEOUT_S:.0f} s")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, f"{'https' if tls is not None else 'http'}://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def live_server(gym: Gym, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from officegym.tls import server_certificate

    gym.template()  # build (or load) the default company before the first request needs it
    agent, base_url = start_uvicorn(create_agent_app(gym), "officegym-agent-server")
    certificate = server_certificate(tmp_path_factory.mktemp("tls"), ["127.0.0.1", "localhost"])
    secure, instance_url = start_uvicorn(create_agent_app(gym), "officegym-agent-server-tls", tls=certificate)
    control, control_url = start_uvicorn(create_control_app(gym, CONTROL_TOKEN, base_url, instance_url), "officegym-control-plane")
    servers = [agent, secure, control]
    yield LiveServer(gym=gym, base_url=base_url, control_url=control_url, token=CONTROL_TOKEN, servers=servers,
                     instance_url=instance_url, ca_file=str(certificate.ca_file))
    for server in servers:
        server.should_exit = True


@pytest.fixture
def control(live_server: LiveServer) -> Iterator[Any]:
    """An httpx client of the control plane, with its token (as a trainer's harness holds it)."""
    import httpx

    with httpx.Client(base_url=live_server.control_url, headers={"Authorization": f"Bearer {live_server.token}"}, timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    return live_server.base_url


class Chromium:
    """The worker's one Chromium, parked between the tests that use it.

    Playwright's sync API marks its own event loop as the thread's running loop after every
    call, for as long as it lives; `asyncio.run` and the async tests that may run next on the
    same worker refuse to start under it. So the browser's loop is marked running only while a
    test that uses the browser runs (as when each module had its own Playwright), and parked
    in between."""

    def __init__(self, browser: Any) -> None:
        self.browser, self.loop = browser, None

    def park(self) -> None:
        self.loop = asyncio._get_running_loop()
        asyncio._set_running_loop(None)

    def resume(self) -> None:
        if self.loop is not None:
            asyncio._set_running_loop(self.loop)
            self.loop = None


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    """One Chromium for the whole worker, launched when the first test needs it: a launch costs
    seconds on a loaded box, and each module used to pay it on each worker (again whenever a
    worker came back to a module). Isolation is per test, by its own context (`page`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        one = Chromium(playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True))
        one.park()
        yield one
        one.resume()
        one.browser.close()


@pytest.fixture
def browser(chromium: Chromium) -> Iterator[Any]:
    chromium.resume()
    yield chromium.browser
    chromium.park()


@dataclass
class PageWatch:
    """What a page did that a test should know about: dialogs opened, errors thrown."""

    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def page_watch() -> PageWatch:
    return PageWatch()


@pytest.fixture
def page(browser: Any, page_watch: PageWatch) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    tab = context.new_page()

    def on_dialog(dialog: Any) -> None:
        page_watch.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    tab.on("pageerror", lambda error: page_watch.errors.append(str(error)))
    yield tab
    context.close()
    assert not page_watch.errors, f"JavaScript errors on the page: {page_watch.errors}"


@pytest.fixture
def env_id(env: Env) -> str:
    """The id of a fresh bare env served by the live server (the root `env` fixture: both use
    the session's one Gym), deleted after the test."""
    return env.id
