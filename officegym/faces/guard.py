"""The guard in front of every request: bounded bodies, same-origin writes, readable text,
security headers, and a last-resort answer that keeps the connection.

One pure ASGI middleware (`install` puts it on an app; `officegym.server` does so for the
agent-facing app and the control plane):

- Bodies are counted as they stream in and refused with 413 past `OFFICEGYM_MAX_BODY_BYTES`
  (1 MiB by default; the biggest honest call, a 40,000-character message, is ~160 KB). A
  declared Content-Length over the cap is refused before a byte is read, so a 100 MiB post
  costs the server nothing but discarding it.
- Unsafe methods whose Origin (or, without one, Referer) names another host than the
  request's own Host are refused with 403: that is a browser posting from someone else's
  page (CSRF). Requests with neither header do not come from a web page (slack_sdk, curl)
  and pass. MCP paths keep the MCP SDK's own DNS-rebinding and Origin protection. (Behind a
  reverse proxy, pass the browser's Host through, or every UI write looks cross-origin.)
- Query strings and url-encoded forms must percent-decode to UTF-8 without NUL: such text
  can never be stored, and UI pages read query parameters without the operation parser.
- Every response gets nosniff, a same-origin referrer policy, no framing, COOP, CORP and a
  CSP; HTML gets one that runs exactly the app templates' inline scripts (by hash).
- An exception that escapes the app becomes an answer in the product's shape (Slack's error
  body on REST paths, JSON-RPC on MCP, a page on the UI) instead of Starlette's bare 500,
  after which uvicorn also drops the keep-alive connection. An env deleted while a request
  was in flight gets the 404 any unknown env gets.

The guard knows the agent-facing URL layout (`/envs/{id}/api/{app}/`, an app's root REST
prefix, `/envs/{id}/mcp/…`, UI elsewhere under the env) and takes the app registry to shape
REST errors (a refused API token among them); it never imports it (faces sit below the
registry).
"""

from __future__ import annotations

import base64
import hashlib
import html
import logging
import math
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from officegym.core.errors import EnvNotFound, no_env

MAX_BODY_ENV = "OFFICEGYM_MAX_BODY_BYTES"
DEFAULT_MAX_BODY_BYTES = 1 << 20
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The error codes the guard answers with (REST bodies carry them as the product's code).
BAD_TEXT, CROSS_ORIGIN, TOO_LARGE, INTERNAL = "invalid_arguments", "cross_origin_request", "request_too_large", "internal_error"
INVALID_AUTH = "invalid_auth"  # a root REST route without a valid API token (officegym.core.web)
CODES = (BAD_TEXT, CROSS_ORIGIN, TOO_LARGE, INTERNAL, INVALID_AUTH)

_REST = re.compile(r"^/envs/[^/]+/api/([^/]+)")
_MCP = re.compile(r"^/envs/[^/]+/mcp(/|$)")
_UI = re.compile(r"^/envs/[^/]+/")
_SCRIPT = re.compile(r"<script(\s[^>]*)?>(.*?)</script>", re.S | re.I)
_RAW_BYTE = re.compile(rb"[\x80-\xff]")
_SHOWN_CHARS = 200

_log = logging.getLogger("officegym.server")

SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
DATA_CSP = "default-src 'none'; frame-ancestors 'none'"


def max_body_bytes() -> int:
    value = os.environ.get(MAX_BODY_ENV, "").strip()
    if not value:
        return DEFAULT_MAX_BODY_BYTES
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{MAX_BODY_ENV} must be a positive number of bytes; got {value!r}")
    return int(value)


def inline_script_hashes(template_dirs: Iterable[Path]) -> list[str]:
    """The CSP hashes of the inline scripts in these Jinja templates. A script that templates
    values in (`{{ … }}`) cannot be hashed ahead of time and will be blocked: pass values
    through data- attributes instead."""
    found: set[str] = set()
    for folder in template_dirs:
        for path in sorted(Path(folder).glob("**/*.html")):
            for attributes, body in _SCRIPT.findall(path.read_text(encoding="utf-8")):
                if "src=" in attributes or "{{" in body or "{%" in body:
                    continue
                found.add("sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode())
    return sorted(found)


def html_csp(script_hashes: Iterable[str]) -> str:
    # Inline styles stay allowed: the UI colours avatars with style="--hue: …" attributes,
    # which no hash or nonce can cover, and CSS cannot run code.
    scripts = " ".join(f"'{h}'" for h in script_hashes) or "'none'"
    return (
        f"default-src 'self'; script-src {scripts}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


def install(app: FastAPI, apps: Iterable[Any] = (), max_body: int | None = None) -> None:
    """Guard `app`; `apps` is the app registry (`officegym.apps.APPS`), for REST error shapes
    and the UI templates' script hashes."""
    apps = tuple(apps)
    app.add_middleware(Guard, apps=apps, max_body=max_body)
    app.add_exception_handler(RequestValidationError, unprocessable)
    shapes = RestShapes(apps)

    async def refused_token(request: Request, error: StarletteHTTPException) -> Response:
        ops = shapes.of(request.url.path) if error.status_code == 401 else None
        if ops is None:
            return await http_exception_handler(request, error)
        return JSONResponse(ops.error_body(ops.error(INVALID_AUTH, str(error.detail))), status_code=401, headers=error.headers)

    app.add_exception_handler(StarletteHTTPException, refused_token)


class RestShapes:
    """Which app's REST face a path belongs to, for answering in that product's error shape:
    `/envs/{id}/api/{app}/…`, or a root prefix an app declares (`rest_root`)."""

    def __init__(self, apps: tuple[Any, ...]) -> None:
        self.by_name = {a.name: a.operations for a in apps}
        self.roots = tuple((a.rest_root.rstrip("/") + "/", a.operations) for a in apps if a.rest_root)

    def of(self, path: str) -> Any:
        rest = _REST.match(path)
        if rest is not None:
            return self.by_name.get(rest.group(1))
        return next((ops for root, ops in self.roots if path.startswith(root)), None)


class Guard:
    def __init__(self, app: ASGIApp, *, apps: tuple[Any, ...] = (), max_body: int | None = None) -> None:
        self.app = app
        self.max_body = max_body if max_body is not None else max_body_bytes()
        self.rest_shapes = RestShapes(apps)
        csp = html_csp(inline_script_hashes(a.source_dir / "templates" for a in apps))
        # Without the apps' templates, the pages' scripts are unknown (the control plane's API
        # docs load theirs from a CDN): HTML then gets every header but a CSP.
        self.html_headers = (*SECURITY_HEADERS, (b"content-security-policy", csp.encode())) if apps else SECURITY_HEADERS
        self.data_headers = (*SECURITY_HEADERS, (b"content-security-policy", DATA_CSP.encode()))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        exchange = _Exchange(self, scope, receive, send)
        # One pass over the raw headers (ASGI names are lowercase); latin-1 reads any byte.
        headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
        refusal = self._check_request(scope, headers)
        if refusal is not None:
            await exchange.refuse(*refusal)
            return
        app_receive = exchange.receive
        if not _MCP.match(scope["path"]) and _is_form(headers):
            body = await exchange.read_body()
            if body is None:  # refused as too large, or the client went away
                return
            body, problem = _readable_form(body)
            if problem is not None:
                await exchange.refuse(400, BAD_TEXT, problem)
                return
            app_receive = exchange.replay(body)
        try:
            await self.app(scope, app_receive, exchange.send)
        except Exception as error:  # the last resort: answer, and keep the connection
            await exchange.fail(error)

    def _check_request(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        declared = headers.get("content-length", "")
        if declared.isdigit() and (len(declared) > 18 or int(declared) > self.max_body):
            return 413, TOO_LARGE, f"the request body is {declared[:20]} bytes; at most {self.max_body} are accepted"
        if _MCP.match(scope["path"]):
            return None
        if scope["method"] in UNSAFE_METHODS:
            foreign = _foreign_origin(headers)
            if foreign is not None:
                return 403, CROSS_ORIGIN, f"refused a {scope['method']} from another origin ({foreign[:100]!r}); send it from this app's own pages"
        problem = _text_problem(scope.get("query_string", b"").decode("latin-1"), "query parameter")
        if problem is not None:
            return 400, BAD_TEXT, problem
        return None

    def secured(self, headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        present = {name.lower() for name, _ in headers}
        kind = next((value for name, value in headers if name.lower() == b"content-type"), b"")
        extra = self.html_headers if kind.startswith(b"text/html") else self.data_headers
        return headers + [(name, value) for name, value in extra if name not in present]

    def answer(self, path: str, status: int, code: str, message: str) -> Response:
        """The guard's own answer, in the shape the caller of this path reads."""
        if _MCP.match(path):
            rpc_code = -32603 if status >= 500 else -32600
            return JSONResponse({"jsonrpc": "2.0", "id": None, "error": {"code": rpc_code, "message": message}}, status_code=status)
        if status == 404:  # the env is gone: what every unknown env gets (officegym.core.web)
            return JSONResponse({"detail": message}, status_code=404)
        ops = self.rest_shapes.of(path)
        if ops is not None:
            return JSONResponse(ops.error_body(ops.error(code, message)), status_code=status)
        if _UI.match(path):
            heading = "Something went wrong" if status >= 500 else "Request refused"
            page = f"<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>{heading}</title><h1>{heading}</h1><p>{html.escape(message)}</p></html>"
            return HTMLResponse(page, status_code=status)
        return JSONResponse({"detail": message, "error": code}, status_code=status)


class _Exchange:
    """One request as the guard sees it: the bytes received, whether a response started, and
    whether the guard answered in the app's place (the app's own messages are then dropped
    and it reads a disconnect)."""

    def __init__(self, guard: Guard, scope: Scope, receive: Receive, send: Send) -> None:
        self.guard, self.scope, self._receive, self._send = guard, scope, receive, send
        self.received = 0
        self.started = False
        self.taken_over = False

    async def receive(self) -> Message:
        if self.taken_over:
            return {"type": "http.disconnect"}
        message = await self._receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.guard.max_body:
                await self.refuse(413, TOO_LARGE, f"the request body is over {self.guard.max_body} bytes")
                return {"type": "http.disconnect"}
        return message

    async def read_body(self) -> bytes | None:
        """The whole body, or None when it was too large (refused) or the client left."""
        chunks = []
        while True:
            message = await self.receive()
            if message["type"] != "http.request":
                return None
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return b"".join(chunks)

    def replay(self, body: bytes) -> Receive:
        sent = False

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await self.receive()

        return receive

    async def send(self, message: Message) -> None:
        if not self.taken_over:
            await self._send_secured(message)

    async def _send_secured(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
            message = {**message, "headers": self.guard.secured(list(message.get("headers", [])))}
        await self._send(message)

    async def refuse(self, status: int, code: str, message: str) -> None:
        if self.taken_over:
            return
        self.taken_over = True
        if self.started:  # the app is mid-answer: nothing clean is left to say
            return
        response = self.guard.answer(self.scope["path"], status, code, message)
        await response(self.scope, _no_body, self._send_secured)

    async def fail(self, error: Exception) -> None:
        if self.taken_over or _only(error, ClientDisconnect):  # the app read a disconnect: nobody to answer
            return
        if _only(error, EnvNotFound):
            env_id = self.scope["path"].split("/")[2] if self.scope["path"].startswith("/envs/") else ""
            await self.refuse(404, "env_not_found", no_env(env_id))
            return
        _log.error("unhandled %s on %s %s", type(error).__name__, self.scope["method"], self.scope["path"][:_SHOWN_CHARS], exc_info=error)
        await self.refuse(500, INTERNAL, "the server failed on this request (its log says why); retry it, or report it if it persists")


async def _no_body() -> Message:
    return {"type": "http.disconnect"}


def _only(error: BaseException, kind: type[BaseException]) -> bool:
    """Whether `error` is `kind`, or a group (anyio task groups) made only of `kind`."""
    if isinstance(error, BaseExceptionGroup):
        return all(_only(inner, kind) for inner in error.exceptions)
    return isinstance(error, kind)


def _is_form(headers: dict[str, str]) -> bool:
    return headers.get("content-type", "").split(";")[0].strip().lower() == "application/x-www-form-urlencoded"


def _readable_form(body: bytes) -> tuple[bytes, str | None]:
    """The body with raw UTF-8 bytes percent-encoded (curl sends `text=héllo` as is, and the
    form parser would read it as Latin-1), and why it cannot be read as text, or None."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        return body, f"the form body is not valid UTF-8 (byte {error.start})"
    body = _RAW_BYTE.sub(lambda byte: b"%%%02X" % byte[0][0], body)
    return body, _text_problem(body.decode("ascii"), "form field")


def _text_problem(encoded: str, what: str) -> str | None:
    """Why url-encoded pairs cannot be read as storable text, or None."""
    if "%" not in encoded and "\x00" not in encoded:  # the common case, and nothing to decode
        return None
    try:
        pairs = parse_qsl(encoded, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        return f"a {what} is not valid UTF-8 once percent-decoded"
    for name, value in pairs:
        if "\x00" in name or "\x00" in value:
            return f"{what} {name[:40]!r} contains a NUL character"
    return None


def _foreign_origin(headers: dict[str, str]) -> str | None:
    """The other origin a browser says this request comes from, or None when it is this
    server's own or the request does not come from a web page. Hosts (with port) are
    compared, not schemes: behind a TLS proxy this server sees http for an https page."""
    source = headers.get("origin") or headers.get("referer")
    if not source:
        return None
    try:
        parts = urlsplit(source)
    except ValueError:
        return source
    if not parts.netloc:  # "null" (sandboxed frames, file:, data:) or garbage
        return source
    if _host(parts.scheme, parts.netloc) != _host(parts.scheme, headers.get("host", "")):
        return f"{parts.scheme}://{parts.netloc}"
    return None


def _host(scheme: str, netloc: str) -> str:
    netloc = netloc.rsplit("@", 1)[-1].lower()
    default = {"http": ":80", "https": ":443"}.get(scheme.lower())
    return netloc[: -len(default)] if default and netloc.endswith(default) else netloc


async def unprocessable(_request: Request, error: RequestValidationError) -> JSONResponse:
    """FastAPI's 422, with inputs made writable: the default echoes each bad input as is, and
    NaN, Infinity or a lone surrogate in it cannot be written as JSON (a 500 instead)."""
    problems = [{k: _json_safe(v) for k, v in problem.items() if k not in ("ctx", "url")} for problem in error.errors()]
    return JSONResponse({"detail": problems}, status_code=422)


def _json_safe(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        shown = value if len(value) <= _SHOWN_CHARS else value[:_SHOWN_CHARS] + "…"
        return shown.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if abs(value) < 10**18 else _json_safe(repr(value))
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if depth < 4 and isinstance(value, (list, tuple)):
        return [_json_safe(v, depth + 1) for v in value[:20]]
    if depth < 4 and isinstance(value, dict):
        return {_json_safe(str(k)): _json_safe(v, depth + 1) for k, v in list(value.items())[:20]}
    return _json_safe(repr(value))
