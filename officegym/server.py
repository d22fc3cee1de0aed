"""The one ASGI app: control plane, and per env the MCP, REST and UI faces of every app.

MCP servers are mounted once per app and serve every env: the dispatcher resolves the env
named in the path, puts it in the ASGI scope and hands the request to that app's session
manager. They run stateless with JSON responses: each tool call is one self-contained POST,
so a thousand envs cost no MCP sessions, and a call is as cheap as the SDK makes it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import JSONResponse, RedirectResponse
from mcp.server import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from apps.chat import api as chat_api
from apps.chat import ui as chat_ui
from mcp_servers import SERVER_NAMES, build_server
from mcp_servers._base import SCOPE_ENV_KEY, SCOPE_STORE_KEY
from officegym import control
from officegym.core.errors import EnvNotFound
from officegym.gym import Gym

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _transport_security(host: str) -> TransportSecuritySettings:
    # On loopback, refuse foreign Host headers (DNS rebinding). Served wider (compose, a
    # cluster), the unguessable env id in the path is the capability; hosts vary by setup.
    if host in LOOPBACK:
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*", "testserver"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
    return TransportSecuritySettings(enable_dns_rebinding_protection=False)


class McpDispatcher:
    """ASGI endpoint for `/envs/{env_id}/mcp/{app}`."""

    def __init__(self, gym: Gym, servers: dict[str, MCPServer]) -> None:
        self.gym, self.servers = gym, servers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        params = scope.get("path_params", {})
        server = self.servers.get(params.get("app", ""))
        try:
            env = self.gym.get(params.get("env_id", ""))
        except EnvNotFound:
            server = None
        if server is None:
            await JSONResponse({"error": "not_found", "detail": "no such env or app"}, status_code=404)(scope, receive, send)
            return
        scope = {**scope, SCOPE_ENV_KEY: env, SCOPE_STORE_KEY: self.gym.store}
        await server.session_manager.handle_request(scope, receive, send)


def create_app(gym: Gym, host: str = "127.0.0.1") -> FastAPI:
    servers = {name: build_server(name) for name in SERVER_NAMES}
    for server in servers.values():
        server.streamable_http_app(stateless_http=True, json_response=True, transport_security=_transport_security(host))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            for server in servers.values():
                await stack.enter_async_context(server.session_manager.run())
            yield

    app = FastAPI(title="officegym", lifespan=lifespan)
    app.state.gym = gym
    app.state.store = gym.store
    app.include_router(control.router)
    app.include_router(chat_api.router, prefix="/envs/{env_id}/api/chat")
    app.include_router(chat_ui.router, prefix="/envs/{env_id}/chat")
    dispatcher = McpDispatcher(gym, servers)
    app.router.routes.append(Route("/envs/{env_id}/mcp/{app}", dispatcher, methods=["GET", "POST", "DELETE"]))
    app.router.routes.append(Route("/envs/{env_id}/mcp/{app}/", dispatcher, methods=["GET", "POST", "DELETE"]))

    @app.get("/", include_in_schema=False)
    def index() -> RedirectResponse:
        return RedirectResponse("/docs")

    return app
