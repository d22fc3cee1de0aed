"""What every tool server shares: finding the env of a call, and running a tool in it.

The server mounts each tool server once and serves every env from it: the env named in the
request path (`/envs/{env_id}/mcp/{app}`) is put in the ASGI scope by the dispatcher, and
each tool reads it from there. In-process callers (the Python API, `tasks validate`) set
`IN_PROCESS_ENV` instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from sqlalchemy.orm import Session

from officegym.core import events
from officegym.core.env_store import Env, EnvStore
from officegym.core.errors import AppError
from officegym.core.ops import perform

SCOPE_ENV_KEY = "officegym.env"
SCOPE_STORE_KEY = "officegym.store"
IN_PROCESS_ENV: ContextVar[tuple[EnvStore, Env] | None] = ContextVar("officegym_in_process_env", default=None)

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
IDEMPOTENT = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False)


def env_of(ctx: Context) -> tuple[EnvStore, Env]:
    return env_of_request(ctx.request_context.request)


def env_of_request(request: Any) -> tuple[EnvStore, Env]:
    scope = getattr(request, "scope", None)
    if scope and SCOPE_ENV_KEY in scope:
        return scope[SCOPE_STORE_KEY], scope[SCOPE_ENV_KEY]
    bound = IN_PROCESS_ENV.get()
    if bound is None:
        raise RuntimeError("tool called outside an env: mount the server under /envs/{env_id}/mcp/ or set IN_PROCESS_ENV")
    return bound


def text_result(payload: Any, is_error: bool = False) -> CallToolResult:
    """One text item holding the JSON of the product's response, as the reference servers do."""
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(payload, ensure_ascii=False))], is_error=is_error)


def run_tool(
    ctx: Context,
    *,
    app: str,
    tool: str,
    args: dict[str, Any],
    operation: Callable[[Session], dict[str, Any]],
    error_body: Callable[[AppError], dict[str, Any]],
    ok_body: Callable[[dict[str, Any]], dict[str, Any]] = lambda body: body,
) -> CallToolResult:
    """Run one tool call as one logged transaction; domain errors become `is_error` results."""
    store, env = env_of(ctx)
    given = {k: v for k, v in args.items() if v is not None}
    try:
        body = perform(store, env, operation, source="mcp", app=app, action=tool, args=given)
    except AppError as error:
        return text_result(error_body(error), is_error=True)
    return text_result(ok_body(body))


class LogRejectedCalls:
    """Server middleware: calls the SDK rejects before the tool runs (a missing or mistyped
    argument) go into the env's trajectory too, like every other failed call."""

    def __init__(self, app: str) -> None:
        self.app = app

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        result = await call_next(ctx)
        if ctx.method != "tools/call":
            return result
        # The runner may hand back the result model or its wire dict (camelCase keys); look
        # only at the error flag first, this runs on every call.
        if isinstance(result, CallToolResult):
            if not result.is_error:
                return result
            text = "".join(getattr(item, "text", "") for item in result.content)
        elif isinstance(result, dict) and result.get("isError"):
            text = "".join(str(item.get("text", "")) for item in result.get("content", []) if isinstance(item, dict))
        else:
            return result
        if not text.startswith("Error executing tool"):  # run_tool already logged it
            return result
        params = ctx.params or {}
        try:
            store, env = env_of_request(ctx.request)
        except RuntimeError:
            return result
        with store.session(env) as db:
            events.record(
                db, source="mcp", app=self.app, action=str(params.get("name", "")),
                args=dict(params.get("arguments") or {}), result={"error": "invalid_arguments", "message": text},
                is_error=True,
            )
        return result
