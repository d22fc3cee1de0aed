"""What the tickets REST routes share: the API version in the path, Jira's answers (with `self`
links pointing back at this API) and errors, reading bodies, and running one operation."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from apps.tickets.errors import TicketsError, error_body
from apps.tickets.operations import OPERATIONS
from officegym.core import jsontext
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.web import EnvRoute
from officegym.faces.rest import BadBody, JSONResponse, call, json_body, url_path

API = "/rest/api/{version}"
AGILE = "/rest/agile/1.0"
_SITE = re.compile(rb"https://[a-z0-9-]+\.atlassian\.net/rest/")


class JiraRoute(EnvRoute):
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


_BASES: dict[tuple[Any, ...], str] = {}  # api_base by what it is made of: a handful of envs and hosts per process
_MAX_BASES = 256  # bounded: the hosts come from callers


def api_base(request: Request) -> str:
    """This API's URL up to `/rest/`, as the request spelt it (`str(request.url)` cut there).
    Kept by what it is made of, the scheme, server, Host header and the path before `/rest/`:
    making a request's URL costs ~10 µs, and every answer with links needs its base."""
    scope = request.scope
    path = scope["path"]
    cut = path.find("/rest/")
    if cut < 0:
        return str(request.url).split("/rest/", 1)[0]
    host = next((value for name, value in scope["headers"] if name == b"host"), None)
    server = scope.get("server")  # a (host, port) pair, which ASGI lets a server pass as a list
    key = (scope.get("scheme"), tuple(server) if server is not None else None, host, path[:cut])
    base = _BASES.get(key)
    if base is None:
        if len(_BASES) >= _MAX_BASES:
            _BASES.clear()
        base = _BASES[key] = str(request.url).split("/rest/", 1)[0]
    return base


def answer(request: Request, body: Any, status: int = 200) -> Response:
    """Jira's answer: the body as compact JSON (orjson: a tenth of the standard library's cost
    for a page of issues), its links to the site's REST API pointing back at this one."""
    if status == 204:
        return Response(status_code=204)
    text = jsontext.dump_bytes(body)
    if _LINKED in text:  # a C-speed scan spares the regex answers with no links
        if request.path_params.get("version") == "2":  # a v2 answer links to v2, as Jira's do
            text = text.replace(_V3_LINK, _V2_LINK)
        text = _linked_here(text, (api_base(request) + "/rest/").encode())
    return Response(text, status_code=status, media_type="application/json")


_LINKED = b".atlassian.net/rest/"
_V3_LINK, _V2_LINK = b".atlassian.net/rest/api/3/", b".atlassian.net/rest/api/2/"


def _linked_here(text: bytes, here: bytes) -> bytes:
    """`text` with every link to a site's REST API (`_SITE`) pointing at `here` instead. An
    answer's links name one site, the env's, many times over: its first link's site is
    replaced as plain bytes (~8 µs for a page of issues, where the regex's pass cost ~14), and
    the regex only runs when some other site's link is left (in text an agent wrote, say). A
    match is `https://<label>.atlassian.net/rest/` and no two can overlap, so replacing one
    site's matches first changes nothing the regex would do, as long as `here` holds no such
    link itself."""
    if _LINKED in here:
        return _SITE.sub(here.replace(b"\\", b"\\\\"), text)  # a replacement's backslashes are escapes
    first = _SITE.search(text)
    if first is None:
        return text
    text = here.join(text.split(first.group()))  # as `replace`, in two thirds of its time
    if _LINKED in text:
        text = _SITE.sub(here.replace(b"\\", b"\\\\"), text)
    return text


async def body_of(request: Request) -> dict[str, Any]:
    body = await json_body(request)
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise BadBody("the JSON body must be an object")
    return body


async def run(request: Request, env: Env, name: str, raw: dict[str, Any], *, status: int = 200, shape: Any = None) -> Response:
    try:
        body = call(request, env, OPERATIONS, OPERATIONS[name], {k: v for k, v in raw.items() if v is not None}, route=f"{request.method} {url_path(request).split('/rest/', 1)[-1]}")
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
    """A reference's key or id (`{"key": "SUP-1"}`, `{"id": "61"}`, or the bare value). An id
    sent as a JSON number is read as Jira reads it, as that id: the jira client sends a
    transition's id as it was given, `{"transition": {"id": 61}}`."""
    found = value.get("key") or value.get("id") if isinstance(value, dict) else value
    return str(found) if isinstance(found, int) and not isinstance(found, bool) else found
