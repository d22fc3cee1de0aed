"""The MCP tool servers, one per app, plus `all` (every app's tools on one server)."""

from __future__ import annotations

from mcp.server import MCPServer

from mcp_servers import chat
from mcp_servers._base import LogRejectedCalls

REGISTRARS = {"chat": chat.register}
SERVER_NAMES = (*REGISTRARS, "all")


def build_server(app: str) -> MCPServer:
    if app == "all":
        server = MCPServer("officegym-all", log_level="WARNING", instructions="Every app of your company: chat (slack_* tools).")
        for register in REGISTRARS.values():
            register(server)
        server.middleware.append(LogRejectedCalls("all"))
        return server
    if app not in REGISTRARS:
        raise KeyError(f"unknown app {app!r}; accepted: {', '.join(SERVER_NAMES)}")
    server = MCPServer(f"officegym-{app}", log_level="WARNING")
    REGISTRARS[app](server)
    server.middleware.append(LogRejectedCalls(app))
    return server
