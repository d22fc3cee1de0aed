"""What the tickets REST routes share: the API version in the path, Jira's answers (with `self`
links pointing back at this API) and errors, reading bodies, and running one operation."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from fastapi.routing import APIRoute

from apps.tickets.errors import TicketsError, error_body
from apps.tickets.operations import OPERATIONS
from officegym.core import jsontext
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.faces.rest import BadBody, JSONResponse, call, json_body

API = "/rest/api/{version}"
AGILE = "/rest/agile/1.0"
_SITE = re.compile(rb"https://[a-z0-9-]+\.atlassian\.net/rest/")


class JiraRoute(APIRoute):
    """A route whose own checks (the API version in its path) may refuse a request with a
    TicketsError: the refusal is Jira's error answer, not a server failure."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def answered(request: Request) -> Response:
            try:
                return await handle(request)
            except TicketsError as error:
                return JSONResponse(error_body(error), status_code=error.status_code)

        return answered


def version_of(version: str) -> str:
    if version not in ("2", "3", "latest"):
        raise TicketsError("not_found", f"no REST API version {version[:10]!r}; use /rest/api/3 (or 2)", status=404)
    return "2" if version == "2" else "3"


def api_base(request: Request) -> str:
    return str(request.url).split("/rest/", 1)[0]


def answer(request: Request, body: Any, status: int = 200) -> Response:
    """Jira's answer: the body as compact JSON (orjson: a tenth of the standard library's cost
    for a page of issues), its links to the site's REST API pointing back at this one."""
    if status == 204:
        return Response(status_code=204)
    text = jsontext.dump_bytes(body)
    if b".atlassian.net/rest/" in text:  # a C-speed scan spares the regex answers with no links
        here = (api_base(request) + "/rest/").encode().replace(b"\\", b"\\\\")  # a replacement's backslashes are escapes
        text = _SITE.sub(here, text)
    return Response(text, status_code=status, media_type="application/json")


async def body_of(request: Request) -> dict[str, Any]:
    body = await json_body(request)
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise BadBody("the JSON body must be an object")
    return body


async def run(request: Request, env: Env, name: str, raw: dict[str, Any], *, status: int = 200, shape: Any = None) -> Response:
    try:
        body = call(request, env, OPERATIONS, OPERATIONS[name], {k: v for k, v in raw.items() if v is not None}, route=f"{request.method} {request.url.path.split('/rest/', 1)[-1]}")
    except AppError as error:
        return JSONResponse(error_body(error), status_code=getattr(error, "status_code", 400))
    if shape is not None:
        body = shape(body)
    elif isinstance(body, dict) and set(body) >= {"_list"}:
        body = body["_list"]
    return answer(request, body, status)


def fields_param(request: Request) -> str | None:
    values = request.query_params.getlist("fields")
    return ",".join(values) if values else None


def bad(error: Exception) -> JSONResponse:
    return JSONResponse(error_body(TicketsError("invalid_arguments", str(error))), status_code=400)


def key_of(value: Any) -> Any:
    return value.get("key") or value.get("id") if isinstance(value, dict) else value
