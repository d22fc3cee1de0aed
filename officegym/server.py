"""The two ASGI apps: the agent-facing server and the control plane, on separate listeners.

The agent-facing app serves, per env, every registered app's UI, REST API and MCP servers —
and nothing else: no control plane, no API docs, no listing of envs. The env id in the path
is the capability. The control plane (`officegym.control`) is a second app on its own port
that demands a bearer token; an agent holding only its env's URLs cannot reach it.

MCP servers are built once per (app, toolset), plus `all` per toolset, and serve every env:
the dispatcher resolves the env named in the path, picks the server of the env's toolset,
puts the env in the ASGI scope and hands the request to that server's session manager. They
run stateless with JSON responses: each tool call is one self-contained POST, so a thousand
envs cost no MCP sessions.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.routing import Mount, Route
from starlette.types import Receive, Scope, Send

from officegym import apps
from officegym.core.errors import EnvNotFound, no_env
from officegym.faces import guard
from officegym.faces.mcp import SCOPE_ENV_KEY, SCOPE_STORE_KEY, build_server
from officegym.gym import Gym

LOOPBACK = ("127.0.0.1", "localhost", "::1")
ALL = "all"


def transport_security(host: str, public_host: str | None = None) -> TransportSecuritySettings:
    # On loopback, refuse foreign Host headers (DNS rebinding), except the public name the
    # server was given (a reverse proxy in front of it). Served wider (compose, a cluster),
    # the unguessable env id in the path is the capability; hosts vary by setup.
    if host in LOOPBACK:
        names = ["127.0.0.1", "localhost", "[::1]"]
        hosts = [f"{name}:*" for name in names] + ["testserver"]
        origins = [f"{scheme}://{name}:*" for scheme in ("http", "https") for name in names]
        if public_host and public_host not in LOOPBACK:
            public = f"[{public_host}]" if ":" in public_host else public_host
            hosts += [public, f"{public}:*"]  # behind a proxy on 80/443 the Host has no port
            origins += [f"{scheme}://{public}{port}" for scheme in ("http", "https") for port in ("", ":*")]
        return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)
    return TransportSecuritySettings(enable_dns_rebinding_protection=False)


def mcp_server_keys() -> list[tuple[str, str]]:
    """Every (app or "all", toolset name) that has a server: an app under each toolset it
    offers, `all` under every toolset name any app offers."""
    keys = []
    for toolset_name in apps.toolset_names():
        keys += [(app.name, toolset_name) for app in apps.APPS if app.toolset(toolset_name).name == toolset_name]
        keys.append((ALL, toolset_name))
    return keys


def build_mcp_server(app_name: str, toolset_name: str) -> Server:
    """One server: an app's toolset; `all`, the union of every app's tools in that toolset
    (or the app's default), with a name-collision check; or the union of some apps named
    "chat+crm" (what a task spanning those apps needs, for in-process clients)."""
    if app_name != ALL and "+" not in app_name:
        app = apps.get(app_name)
        toolset = app.toolset(toolset_name)
        return build_server(f"officegym-{app.name}", [(toolset, app.operations)], toolset.instructions)
    members = apps.APPS if app_name == ALL else [apps.get(name) for name in app_name.split("+")]
    chosen = [(app.toolset(toolset_name), app.operations) for app in members]
    everything = " ".join(f"{t.app}: {t.instructions}" for t, _ in chosen)
    return build_server(f"officegym-{app_name}", chosen, f"Every app of your company. {everything}" if app_name == ALL else everything)


def build_mcp_servers() -> dict[tuple[str, str], Server]:
    """(app or "all", toolset name) → server, for every key of `mcp_server_keys`."""
    return {key: build_mcp_server(*key) for key in mcp_server_keys()}


class McpDispatcher:
    """ASGI endpoint for `/envs/{env_id}/mcp/{app}` (and the same path ending in `/mcp`)."""

    def __init__(self, gym: Gym, servers: dict[tuple[str, str], Server]) -> None:
        self.gym, self.servers = gym, servers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        params = scope.get("path_params", {})
        app_name = params.get("app", "")
        server = None
        try:
            env = self.gym.get(params.get("env_id", ""))
        except EnvNotFound:
            env = None
        if env is not None:
            wanted = env.toolset or apps.DEFAULT_TOOLSET
            if app_name in apps.names():
                wanted = apps.get(app_name).toolset(env.toolset).name
            server = self.servers.get((app_name, wanted)) or self.servers.get((app_name, apps.DEFAULT_TOOLSET))
        if scope["method"] == "GET" and server is not None:
            # A stateless server sends nothing unprompted, so it offers no stream to GET (the
            # spec's 405): answered at once, where the SDK's GET held a curl "is it up?" open.
            hint = {"detail": "an MCP endpoint (streamable HTTP): POST JSON-RPC messages here, e.g. with the MCP SDK's Client(url)"}
            await JSONResponse(hint, status_code=405, headers={"Allow": "POST, DELETE"})(scope, receive, send)
            return
        if server is None:
            # A JSON-RPC error in the 404's body: MCP clients show its message (the SDK shows
            # a bare "Not Found" otherwise), so an agent learns which part of its URL is wrong.
            if env is None:
                problem = no_env(params.get("env_id", ""))
            else:
                problem = f"no MCP server {app_name!r}; this env serves: {', '.join(sorted({a for a, _ in self.servers if a in apps.names()}))}, all"
            body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": problem}, "detail": problem}
            await JSONResponse(body, status_code=404)(scope, receive, send)
            return
        scope = {**scope, SCOPE_ENV_KEY: env, SCOPE_STORE_KEY: self.gym.store}
        await server.session_manager.handle_request(scope, receive, send)


def create_agent_app(gym: Gym, host: str = "127.0.0.1", servers: dict[tuple[str, str], Server] | None = None,
                     public_host: str | None = None) -> FastAPI:
    """What agents reach: per env, every app's UI, REST API and MCP servers (`servers`, by
    default every app's toolsets; the bench passes them with a no-op server added)."""
    servers = servers if servers is not None else build_mcp_servers()
    for server in servers.values():
        server.streamable_http_app(stateless_http=True, json_response=True, transport_security=transport_security(host, public_host))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            for server in servers.values():
                await stack.enter_async_context(server.session_manager.run())
            yield

    # No docs, no schema: the agent origin describes nothing beyond an env's own faces.
    app = FastAPI(title="officegym", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.gym = gym
    app.state.store = gym.store
    # Each app's API is mounted under its prefix, not included route by route: Starlette
    # tries routes in order, and with every app's routes flattened into one table a sheets
    # call was matched against ~90 chat, crm and tickets routes first (~0.2 ms of every
    # call). A mount matches its prefix once, then tries only its own app's routes. The
    # APIs served at the origin's root come next (their routes carry the product's own
    # paths, /services/data/…, so they cannot be mounted under one prefix), then the pages,
    # which stay included (their links are built from the deployment's root path, which a
    # mount would extend): a call never tries a page route.
    # The base URL `serve` prints for each API answers what it speaks (ahead of the mounts,
    # which would answer it with a bare 404).
    app.router.routes.append(Route("/envs/{env_id}/api/{app}/", _api_index, methods=["GET"]))
    for registered in apps.APPS:
        app.router.routes.append(Mount(f"/envs/{{env_id}}/api/{registered.name}", app=registered.rest))
    for registered in apps.APPS:
        if registered.rest_root:
            app.include_router(registered.rest)
    for registered in apps.APPS:
        app.include_router(registered.ui, prefix=f"/envs/{{env_id}}/{registered.name}")
    dispatcher = McpDispatcher(gym, servers)
    # First in the route table: tool calls are most of the traffic, and Starlette tries routes
    # in order (every app's UI and REST routes come to about a hundred).
    mcp_routes = [Route(path, dispatcher, methods=["GET", "POST", "DELETE"])
                  for path in ("/envs/{env_id}/mcp/{app}", "/envs/{env_id}/mcp/{app}/", "/envs/{env_id}/mcp/{app}/mcp")]
    app.router.routes[:0] = mcp_routes
    # What a person who trims a printed URL reaches: the env's own URLs (the origin's root stays
    # a 404: the agent origin describes nothing beyond an env's own faces).
    app.router.routes.append(Route("/envs/{env_id}/", _env_index, methods=["GET"]))
    app.router.routes.append(Route("/envs/{env_id}", _env_index, methods=["GET"]))
    # Browsers ask every origin for a favicon: "no content" rather than a 404 each page load
    # (a computer-use agent's console would fill with failed requests).
    app.router.routes.append(Route("/favicon.ico", _no_favicon, methods=["GET"]))
    guard.install(app, apps.APPS)  # bounded bodies, Origin checks, security headers, last resort
    return app


async def _no_favicon(_request: Request) -> Response:
    return Response(status_code=204)


async def _env_index(request: Request) -> Response:
    """An env's own URLs (its UIs, MCP servers and APIs), from the origin the request came to."""
    from officegym.control import env_urls

    env_id = request.path_params["env_id"]
    try:
        request.app.state.gym.get(env_id)
    except EnvNotFound:
        return JSONResponse({"detail": no_env(env_id)}, status_code=404)
    return JSONResponse({"env_id": env_id, "urls": env_urls(str(request.base_url).rstrip("/"), env_id)})


async def _api_index(request: Request) -> Response:
    """What an app's REST face speaks and where to start (App.rest_index), at its base URL."""
    env_id, name = request.path_params["env_id"], request.path_params["app"]
    try:
        request.app.state.gym.get(env_id)
    except EnvNotFound:
        return JSONResponse({"detail": no_env(env_id)}, status_code=404)
    if name not in apps.names():
        return JSONResponse({"detail": f"no API {name[:64]!r}; this env serves: {', '.join(apps.names())}"}, status_code=404)
    base = f"{str(request.base_url).rstrip('/')}/envs/{env_id}/api/{name}/"
    index = apps.get(name).rest_index or {}
    return JSONResponse({"app": name, **index, "base_url": base, "examples": [base + example for example in index.get("examples", ())]})


def create_control_app(gym: Gym, token: str, agent_base_url: str, instance_url: str | None = None) -> FastAPI:
    """The control plane: create, grade, read and delete envs; bearer token required.
    `instance_url` is the agent-facing server's HTTPS origin, when it has one."""
    from officegym import control

    # The API docs page with Swagger UI's files served from here (fastapi-offline bundles them):
    # FastAPI's own page loads them from a CDN, and a cluster node or a lab box is often offline.
    app = FastAPIOffline(title="officegym control plane", docs_url="/v1/docs", openapi_url="/v1/openapi.json", redoc_url=None,
                         static_url="/v1/docs/static", swagger_ui_oauth2_redirect_url="/v1/docs/oauth2-redirect")
    app.state.gym = gym
    app.state.store = gym.store
    app.state.control_token = token
    app.state.agent_base_url = agent_base_url.rstrip("/")
    app.state.instance_url = instance_url.rstrip("/") if instance_url else None
    app.include_router(control.router)
    guard.install(app)
    return app
