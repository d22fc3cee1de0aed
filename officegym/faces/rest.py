"""What every REST face shares: reading a request's arguments, and running an operation.

Each app's `api.py` maps its product's routes onto operations and shapes answers the way the
product does; the parsing and the transaction are the operation's (`officegym.core.ops`).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse as _StarletteJSON
from starlette.exceptions import HTTPException

from officegym.core import jsontext
from officegym.core.env_store import Env
from officegym.core.operations import Operation, OperationSet
from officegym.core.ops import invoke
from officegym.core.web import env_store

MAX_JSON_DEPTH = 32  # deeper bodies are refused before parsing (Python's parser recurses)


class JSONResponse(_StarletteJSON):
    """A JSON answer encoded by orjson (core/jsontext.py): the same compact text as
    Starlette's, at a tenth of the cost for a page of records."""

    def render(self, content: Any) -> bytes:
        return jsontext.dump_bytes(content)


_PLAIN_PATH = re.compile(r"[^?#\\\t\r\n]*")  # a path the request's URL spells as it is


def url_path(request: Request) -> str:
    """The request's path as its URL spells it (`request.url.path`), without making the URL
    for a plain path (parsing the Host header and the whole URL cost ~10 µs, and routes name
    their call by it): the URL escapes ?, # and backslashes and drops tabs and line breaks."""
    path: str = request.scope["path"]
    return path if _PLAIN_PATH.fullmatch(path) else request.url.path


class BadBody(ValueError):
    """The request body cannot be read as arguments; the message says why."""


async def merged_arguments(request: Request) -> dict[str, Any]:
    """Arguments from the query string, then a form or JSON-object body over them (as Slack
    and most form-friendly APIs accept them)."""
    args: dict[str, Any] = dict(request.query_params)
    if request.method not in ("POST", "PUT", "PATCH"):
        return args
    kind = request.headers.get("content-type", "")
    if kind.startswith("application/json"):
        body = await json_body(request)
        if body is not None and not isinstance(body, dict):
            raise BadBody("the JSON body must be an object of arguments")
        args.update(body or {})
    elif kind.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        try:
            form = await request.form()
        except HTTPException as bad:  # Starlette's word on a malformed multipart body
            raise BadBody(f"the form body cannot be read: {bad.detail}") from None
        args.update({k: v for k, v in form.items() if isinstance(v, str)})
    return args


async def json_body(request: Request) -> Any:
    """The JSON body, or None when empty; BadBody for invalid UTF-8, invalid JSON, non-finite
    numbers (NaN/Infinity are not JSON) or absurd nesting."""
    raw = await request.body()
    if not raw.strip():
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadBody(f"the body is not valid UTF-8 (byte {error.start})") from None
    try:
        return jsontext.loads(text, MAX_JSON_DEPTH)
    except jsontext.JsonTextError as error:
        raise BadBody(f"the JSON body is {error}") from None


def call(request: Request, env: Env, ops: OperationSet, op: Operation, raw: dict[str, Any], *, route: str) -> dict[str, Any]:
    """Run `op` through the REST face; returns its body or raises the app's AppError."""
    return invoke(env_store(request), env, ops, op, raw, face="rest", tool=route)
