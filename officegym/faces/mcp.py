"""The MCP face: toolsets are tables of tool → operation bindings, served by the SDK's
low-level server.

A `Tool` names the operation it runs and how the product's MCP server spells its arguments
(renames, arguments the tool fixes, its own defaults and caps). The input schema an agent
sees is cut from the operation's declared argument model, so the schema, the parser and the
errors are the operation's own: there is no second validation layer to disagree with REST
or the UI. Results are one text item holding the product's response JSON, as the reference
servers return them; domain errors come back as `is_error` results in the product's shape.

One server per (app, toolset) serves every env: the env comes from the ASGI scope that the
dispatcher fills (`/envs/{env_id}/mcp/{app}`), or from `IN_PROCESS_ENV` for in-process
clients (the Python API, `tasks validate`).
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from officegym.core import jsontext
from officegym.core.env_store import Env, EnvStore
from officegym.core.errors import AppError, EnvNotFound
from officegym.core.operations import Operation, OperationSet
from officegym.core.ops import invoke, log_failure

SCOPE_ENV_KEY = "officegym.env"
SCOPE_STORE_KEY = "officegym.store"
IN_PROCESS_ENV: ContextVar[tuple[EnvStore, Env] | None] = ContextVar("officegym_in_process_env", default=None)

HINTS = ("additive", "idempotent", "destructive")
_log = logging.getLogger("officegym.server")
_NAMED_ARGUMENT = re.compile(r"argument '([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class Tool:
    """One tool of a toolset, bound to one operation."""

    name: str
    operation: str
    description: str
    args: Mapping[str, str] | None = None  # tool argument → operation parameter; None: the operation's own names
    docs: Mapping[str, str] = field(default_factory=dict)  # argument descriptions as the product's server words them
    fixed: Mapping[str, Any] = field(default_factory=dict)  # operation parameters the tool always sets
    defaults: Mapping[str, Any] = field(default_factory=dict)  # tool argument → its default, where it differs
    caps: Mapping[str, int] = field(default_factory=dict)  # tool argument → the server's silent maximum
    required: tuple[str, ...] | None = None  # tool arguments the product requires (default: the operation's)
    hint: str = "additive"  # for a write: additive, idempotent or destructive

    def arg_names(self, op: Operation) -> dict[str, str]:
        if self.args is not None:
            return dict(self.args)
        return {name: name for name in op.params if name not in self.fixed}

    def to_operation(self, op: Operation, given: Mapping[str, Any]) -> dict[str, Any]:
        raw: dict[str, Any] = {}
        for tool_arg, param in self.arg_names(op).items():
            value = given.get(tool_arg, self.defaults.get(tool_arg))
            cap = self.caps.get(tool_arg)
            if cap is not None and isinstance(value, int) and not isinstance(value, bool) and value > cap:
                value = cap
            if value is not None:
                raw[param] = value
        raw.update(self.fixed)
        return raw

    def in_own_words(self, op: Operation, error: AppError) -> AppError:
        """The error naming this tool's arguments where the operation's parser named its own
        (an agent that sent `channel_id` is told about `channel_id`, not `channel`)."""
        renames = {param: arg for arg, param in self.arg_names(op).items() if arg != param}
        if error.code != "invalid_arguments" or not renames:
            return error
        message = _NAMED_ARGUMENT.sub(lambda m: f"argument '{renames.get(m[1], m[1])}", error.message)
        return type(error)(error.code, message)

    def annotations(self, op: Operation) -> types.ToolAnnotations:
        if not op.writes:
            return types.ToolAnnotations(read_only_hint=True, open_world_hint=False)
        if self.hint not in HINTS:
            raise ValueError(f"tool {self.name}: hint must be one of {HINTS}")
        return types.ToolAnnotations(
            read_only_hint=False, destructive_hint=self.hint == "destructive",
            idempotent_hint=self.hint == "idempotent", open_world_hint=False,
        )

    def input_schema(self, op: Operation) -> dict[str, Any]:
        source = op.json_schema()
        properties: dict[str, Any] = {}
        required = []
        for tool_arg, param in self.arg_names(op).items():
            prop = _plain(copy.deepcopy(source["properties"][param]))
            if tool_arg in self.docs:
                prop["description"] = self.docs[tool_arg]
            if tool_arg in self.defaults:
                prop["default"] = self.defaults[tool_arg]
            properties[tool_arg] = prop
            if (self.required is None and op.params[param].required) or (self.required and tool_arg in self.required):
                required.append(tool_arg)
        schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
        if "$defs" in source:
            schema["$defs"] = source["$defs"]
        return schema


def _plain(prop: dict[str, Any]) -> dict[str, Any]:
    """A property as the products' servers publish it: `{"type": "integer", …}` rather than
    pydantic's `anyOf [integer, null]` for an optional argument (leaving it out is the null)."""
    prop.pop("title", None)
    options = prop.get("anyOf")
    if options:
        kept = [o for o in options if o.get("type") != "null"]
        if len(kept) == 1:
            del prop["anyOf"]
            prop = {**kept[0], **prop}
        else:
            prop["anyOf"] = kept
    if prop.get("default", 0) is None:
        del prop["default"]
    return prop


@dataclass(frozen=True)
class Toolset:
    """The MCP tools of one app in one product's style ("reference", "official", …)."""

    name: str
    app: str
    tools: tuple[Tool, ...]
    instructions: str = ""


def tool(name: str, operation: str, description: str, **binding: Any) -> Tool:
    return Tool(name=name, operation=operation, description=description, **binding)


def text_result(payload: Any, is_error: bool = False) -> types.CallToolResult:
    """One text item holding the JSON of the product's response, as the reference servers do
    (or the text itself, for servers that answer in formatted text)."""
    text = payload if isinstance(payload, str) else jsontext.dumps(payload)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)


@dataclass(frozen=True)
class _Bound:
    tool: Tool
    op: Operation
    ops: OperationSet
    listing: types.Tool


def locate(request: Any) -> tuple[EnvStore, Env]:
    scope = getattr(request, "scope", None)
    if scope and SCOPE_ENV_KEY in scope:
        return scope[SCOPE_STORE_KEY], scope[SCOPE_ENV_KEY]
    bound = IN_PROCESS_ENV.get()
    if bound is None:
        raise RuntimeError("tool called outside an env: mount the server under /envs/{env_id}/mcp/ or set IN_PROCESS_ENV")
    return bound


def build_server(name: str, toolsets: Sequence[tuple[Toolset, OperationSet]], instructions: str = "") -> Server:
    """One MCP server over the given toolsets; tool names must not collide across them."""
    bound: dict[str, _Bound] = {}
    for toolset, ops in toolsets:
        for entry in toolset.tools:
            if entry.name in bound:
                raise ValueError(f"tool name {entry.name!r} is offered by two toolsets ({bound[entry.name].ops.app}, {toolset.app})")
            op = ops[entry.operation]
            listing = types.Tool(
                name=entry.name, description=entry.description, input_schema=entry.input_schema(op),
                annotations=entry.annotations(op),
            )
            bound[entry.name] = _Bound(entry, op, ops, listing)
    # The listing in its wire form, made once: the SDK dumps a returned model to a dict before
    # checking it against the protocol version's schema (a second dump), and every client
    # session lists the tools (~0.4 ms for chat's two dozen schemas per dump).
    listed = types.ListToolsResult(tools=[b.listing for b in bound.values()]).model_dump(by_alias=True, mode="json", exclude_none=True)

    async def list_tools(_ctx: Any, _params: Any) -> dict[str, Any]:
        return listed  # (the SDK copies it before it adds to it)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        store, env = locate(ctx.request)
        given = params.arguments or {}
        found = bound.get(params.name)
        if found is None:
            message = f"unknown tool {params.name!r}; this server offers: {', '.join(sorted(bound))}"
            error = AppError("unknown_tool", message)
            log_failure(store, env, face="mcp", app=name, operation="", tool=params.name, args=dict(given), error=error)
            return text_result({"ok": False, "error": "unknown_tool", "message": message}, is_error=True)
        raw = found.tool.to_operation(found.op, given)
        try:
            body = invoke(store, env, found.ops, found.op, raw, face="mcp", tool=params.name, log_reads=True, sent=given)
        except AppError as error:
            return text_result(found.ops.error_body(found.tool.in_own_words(found.op, error)), is_error=True)
        except EnvNotFound:  # deleted while the call was on its way: nothing ran
            return text_result(found.ops.error_body(AppError("env_not_found", "this env no longer exists (it was deleted)")), is_error=True)
        except Exception:  # a bug: still a tool result in the product's shape, not a protocol error
            _log.exception("unhandled error in MCP tool %s", params.name)
            return text_result(found.ops.error_body(AppError("internal_error", "the server failed on this call; nothing was changed")), is_error=True)
        return text_result(found.ops.ok_body(body))

    def input_schema(tool_name: str) -> dict[str, Any] | None:
        found = bound.get(tool_name)
        return found.listing.input_schema if found is not None else None

    # `input_schema`: the SDK checks a call's Mcp-Param-* headers against the tool's schema;
    # without a lookup it runs a whole tools/list through the server per call to find it
    # (~0.6 ms for chat's listing, a third of a simple call over HTTP).
    return Server(name, on_list_tools=list_tools, on_call_tool=call_tool, instructions=instructions or None,
                  get_tool_input_schema=input_schema)
