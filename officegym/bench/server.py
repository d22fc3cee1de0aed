"""The server the bench times, in its own process (as an agent's server would be): the real
agent-facing app and control plane, plus two no-op endpoints that share the agent app's
path up to the point where an operation would run — an MCP server whose one tool answers at
once, and a REST route with the same env dependency that reads its arguments as every REST
face does — so a real call can be judged against the framework it rides on, sent the very
same request.

    python -m officegym.bench.server <agent port> <control port> <token>
"""

from __future__ import annotations

import sys
from typing import Any

import mcp_types as types
from fastapi import APIRouter, Depends, FastAPI, Request
from mcp.server.lowlevel import Server
from starlette.routing import Mount

from officegym.bench.calls import LOGGED_WRITE, NOOP_TOOL
from officegym.core import events
from officegym.core.env_store import Env
from officegym.core.web import EnvRoute, current_env, env_store
from officegym.faces.mcp import text_result
from officegym.faces.rest import JSONResponse, merged_arguments


def noop_mcp_server() -> Server:
    listing = [types.Tool(name=NOOP_TOOL, description="does nothing", input_schema={"type": "object", "properties": {}})]

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listing)

    async def call_tool(_ctx: Any, _params: Any) -> types.CallToolResult:
        return text_result({"ok": True})

    return Server("officegym-noop", on_list_tools=list_tools, on_call_tool=call_tool)


def add_noop_rest(app: FastAPI) -> None:
    """`/envs/{id}/api/noop/…` on the agent app: the env lookup and the arguments read (query
    string and body, `merged_arguments`), then nothing; and `…/noop/logged-write`, which then
    writes its event row in one env transaction."""
    router = APIRouter(route_class=EnvRoute)

    # The least any logged write does: one env transaction that writes its event row and
    # nothing else. Timed against the no-op, it shows how much of a REST write's ratio no
    # operation can avoid (the lock, BEGIN, the row, COMMIT).
    @router.post("/" + LOGGED_WRITE)
    async def rest_logged_write(request: Request, env: Env = Depends(current_env)) -> JSONResponse:
        args = await merged_arguments(request)
        with env_store(request).session(env) as db:
            events.record(db, face="rest", app="noop", operation=LOGGED_WRITE, tool=LOGGED_WRITE, args=args, result={"ok": True})
        return JSONResponse({"ok": True})

    # Declared as the apps' routes are (an EnvRoute with the env and a path part): a no-op
    # dearer than the real routes' framework work would flatter them in the comparison.
    @router.api_route("/{method}", methods=["GET", "POST"])
    async def rest_noop(request: Request, method: str, env: Env = Depends(current_env)) -> JSONResponse:
        await merged_arguments(request)
        return JSONResponse({"ok": True})

    # Mounted as the apps' REST routers are, and tried where they are (after the MCP routes,
    # ahead of the first app's API): routed first, or as a plain route, it would skip
    # routing work the real calls do and flatter them in the comparison.
    position = next(i for i, route in enumerate(app.router.routes) if "/mcp/" not in getattr(route, "path", ""))
    app.router.routes.insert(position, Mount("/envs/{env_id}/api/noop", app=router))


def main() -> None:
    import uvicorn

    from officegym.gym import Gym
    from officegym.server import build_mcp_servers, create_agent_app, create_control_app
    from officegym.serving import Listener, run_listeners

    agent_port, control_port, token = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    gym = Gym()
    mcp_servers = build_mcp_servers()
    mcp_servers[("noop", "reference")] = noop_mcp_server()  # served at /envs/{id}/mcp/noop
    agent = create_agent_app(gym, servers=mcp_servers)
    add_noop_rest(agent)
    control = create_control_app(gym, token, f"http://127.0.0.1:{agent_port}")
    servers = [
        Listener(uvicorn.Config(agent, host="127.0.0.1", port=agent_port, log_level="warning")),
        Listener(uvicorn.Config(control, host="127.0.0.1", port=control_port, log_level="warning")),
    ]

    run_listeners(servers)  # as `officegym serve` runs (the agent app's lifespan runs the no-op server's session manager too)


if __name__ == "__main__":
    main()
