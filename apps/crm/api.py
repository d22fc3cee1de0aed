"""The Salesforce REST API face: `/services/data/vXX.X/…` under `/envs/{env_id}/api/crm/`, and
at the root of the agent origin (env picked by the API token), as Salesforce serves an org.

Routes parse and delegate to the operations: sobjects CRUD and describe, query (with
nextRecordsUrl batches), queryAll, search. Answers and errors are Salesforce's: 201 with
`{id, success, errors}` on create, 204 on update and delete, `[{message, errorCode,
fields}]` with 400/404 on errors. Every `url` and `nextRecordsUrl` in an answer is built
from the path the request came in on, so a client can follow it wherever the router is
mounted, and says the API version the client asked for.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import RedirectResponse

from apps.crm.errors import CrmError, error_body
from apps.crm.operations import OPERATIONS
from officegym.core import jsontext
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.web import EnvRoute, current_env
from officegym.faces.rest import BadBody, JSONResponse, call, json_body

API_VERSION = "62.0"
VERSION = re.compile(r"^v\d{2}\.\d$")

router = APIRouter(route_class=EnvRoute)


def _prefix(request: Request, version: str) -> str:
    """Where this request's /services/data/ begins (the mount prefix). Read from the scope:
    `request.url` builds a whole URL, and the part before /services/data/ is an env's path."""
    path = request.scope["path"]
    return path[: path.find("/services/data/")] if "/services/data/" in path else ""


# A link in an answer is one of these keys with a string value starting /services/data/. In
# JSON text a '"' inside a string is always escaped, so `":"/services/data/` never occurs
# inside a string: each occurrence ends a key and opens its value, and the key is a link's
# when the text before it ends with `{"url` or `,"url` (a '"' after '{' or ',' opens a key).
_MARK = '":"/services/data/'
_LINK_KEYS = tuple(f'{sep}"{key}' for key in ("url", "nextRecordsUrl", "sobject", "describe", "rowTemplate") for sep in "{,")
_MARK_BYTES, _LINK_KEYS_BYTES = _MARK.encode(), tuple(key.encode() for key in _LINK_KEYS)
_VALUE_REST = re.compile(rb'[^"\\]*(?:\\.[^"\\]*)*')  # a JSON string's characters up to its closing quote


@lru_cache(maxsize=256)
def _escaped(prefix: str) -> str:
    """A mount prefix as it reads inside a JSON string (one per env)."""
    return json.dumps(prefix, ensure_ascii=False)[1:-1]


def _located(body: Any, prefix: str, version: str) -> bytes:
    """The answer as JSON (as JSONResponse writes it), each link moved under the request's mount
    prefix and into the API version it asked for. Done on the encoded text: walking and copying
    a query's records to move their urls cost several times more than encoding them."""
    raw = jsontext.dump_bytes(body)
    if _MARK_BYTES not in raw or not prefix and version == f"v{API_VERSION}":
        return raw
    head = f'":"{_escaped(prefix)}'
    if version == f"v{API_VERSION}":  # what clients ask for: only the prefix goes in front of each link
        # On the UTF-8 bytes: the same steps on the decoded text cost several times more once
        # it holds one character past Latin-1 (a dash in a name), as a str then stores each
        # character in two bytes or four.
        linked = f"{head}/services/data/".encode()
        chunks = raw.split(_MARK_BYTES)
        out = [chunks[0]]
        for before, chunk in zip(chunks, chunks[1:], strict=False):
            out += (linked if before.endswith(_LINK_KEYS_BYTES) else _MARK_BYTES, chunk)
        return b"".join(out)
    chunks = raw.split(_MARK_BYTES)
    ours, theirs = f"/services/data/v{API_VERSION}/".encode(), f"/services/data/{version}/".encode()
    moved, data, own = head.encode(), b"/services/data/", f"v{API_VERSION}/".encode()
    out = [chunks[0]]
    for before, chunk in zip(chunks, chunks[1:], strict=False):
        if not before.endswith(_LINK_KEYS_BYTES):
            out += (_MARK_BYTES, chunk)
        elif chunk.startswith(own):  # every link the API writes: its version comes first
            out += (moved, theirs, chunk[len(own):])
        else:
            end = _VALUE_REST.match(chunk).end()  # type: ignore[union-attr]
            out += (moved, (data + chunk[:end]).replace(ours, theirs, 1), chunk[end:])
    return b"".join(out)


def _run(request: Request, env: Env, name: str, raw: dict[str, Any], version: str, status: int = 200) -> Response:
    if not VERSION.match(version):
        return _error(CrmError("NOT_FOUND", f"The requested resource does not exist: API version {version[:20]!r}; use v{API_VERSION}"))
    try:
        body = call(request, env, OPERATIONS, OPERATIONS[name], raw, route=f"{request.method} {name}")
    except AppError as error:
        return _error(error)
    if status == 204:
        return Response(status_code=204)
    return Response(_located(body, _prefix(request, version), version), status_code=status, media_type="application/json")


def _error(error: AppError) -> JSONResponse:
    return JSONResponse(error_body(error), status_code=getattr(error, "status_code", 400))


async def _record_body(request: Request) -> dict[str, Any]:
    body = await json_body(request)
    if not isinstance(body, dict):
        raise BadBody("the body must be a JSON object of field names to values")
    return body


# Routes are tried in order: queries and creates, most of what clients send, come first.
@router.get("/services/data/{version}/query")
async def query(version: str, request: Request, env: Env = Depends(current_env)) -> Response:
    return _run(request, env, "crm.query", {"q": request.query_params.get("q")}, version)


@router.post("/services/data/{version}/sobjects/{sobject}")
async def create(version: str, sobject: str, request: Request, env: Env = Depends(current_env)) -> Response:
    try:
        record = await _record_body(request)
    except BadBody as bad:
        return _error(CrmError("JSON_PARSER_ERROR", str(bad)))
    return _run(request, env, "crm.create", {"sobject": sobject, "record": record}, version, status=201)


@router.get("/services/data/{version}/queryAll")
async def query_all(version: str, request: Request, env: Env = Depends(current_env)) -> Response:
    return _run(request, env, "crm.queryAll", {"q": request.query_params.get("q")}, version)


@router.get("/services/data/{version}/query/{locator}")
@router.get("/services/data/{version}/queryAll/{locator}")
async def query_more(version: str, locator: str, request: Request, env: Env = Depends(current_env)) -> Response:
    return _run(request, env, "crm.queryMore", {"locator": locator}, version)


@router.get("/services/data/{version}/search")
async def search(version: str, request: Request, env: Env = Depends(current_env)) -> Response:
    return _run(request, env, "crm.search", {"q": request.query_params.get("q")}, version)


@router.get("/services/data")
@router.get("/services/data/")  # (as Salesforce answers both)
async def versions(request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    prefix = request.url.path[: request.url.path.find("/services/data")]
    return JSONResponse([{"label": "Winter '25", "url": f"{prefix}/services/data/v{API_VERSION}", "version": API_VERSION}])


@router.get("/services/data/{version}")
async def resources(version: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    base = f"{_prefix(request, version)}/services/data/{version}"
    return JSONResponse({name: f"{base}/{name}" for name in ("sobjects", "query", "queryAll", "search")})


@router.get("/services/data/{version}/sobjects")
async def describe_global(version: str, request: Request, env: Env = Depends(current_env)) -> Response:
    return _run(request, env, "crm.describeGlobal", {}, version)


@router.get("/services/data/{version}/sobjects/{sobject}/describe")
async def describe(version: str, sobject: str, request: Request, env: Env = Depends(current_env)) -> Response:
    return _run(request, env, "crm.describe", {"sobject": sobject}, version)


@router.get("/services/data/{version}/sobjects/{sobject}")
async def sobject_info(version: str, sobject: str, request: Request, env: Env = Depends(current_env)) -> Response:
    response = _run(request, env, "crm.describe", {"sobject": sobject}, version)
    if response.status_code != 200:
        return response
    from apps.crm.objects import sobject as find

    body = {"objectDescribe": find(sobject).summary(), "recentItems": []}
    return Response(_located(body, _prefix(request, version), version), media_type="application/json")


@router.get("/services/data/{version}/sobjects/{sobject}/{record_id}")
async def retrieve(version: str, sobject: str, record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    raw = {"sobject": sobject, "id": record_id, "fields": request.query_params.get("fields")}
    return _run(request, env, "crm.retrieve", raw, version)


@router.patch("/services/data/{version}/sobjects/{sobject}/{record_id}")
async def update(version: str, sobject: str, record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    try:
        record = await _record_body(request)
    except BadBody as bad:
        return _error(CrmError("JSON_PARSER_ERROR", str(bad)))
    return _run(request, env, "crm.update", {"sobject": sobject, "id": record_id, "record": record}, version, status=204)


@router.delete("/services/data/{version}/sobjects/{sobject}/{record_id}")
async def delete(version: str, sobject: str, record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    return _run(request, env, "crm.delete", {"sobject": sobject, "id": record_id}, version, status=204)


@router.api_route("/services/data/{rest:path}", methods=["GET", "POST", "PATCH", "PUT", "DELETE"])
async def unknown(rest: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """Anything else under the API answers as Salesforce does: NOT_FOUND in its error array.
    A path with a trailing slash (simple_salesforce writes `sobjects/Contact/`) is the same
    resource: redirected, method and body kept (307)."""
    if rest.endswith("/") and rest.strip("/"):
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(request.url.path.rstrip("/") + query, status_code=307)
    return _error(CrmError("NOT_FOUND", f"The requested resource does not exist: {request.method} /services/data/{rest[:200]} "
                                        f"(supported: sobjects, sobjects/<Object>[/<Id>|/describe], query, queryAll, search)"))


# What a GET on this API's base URL answers (officegym.apps.App.rest_index).
INDEX = {"api": "Salesforce REST API", "call": "<base>/services/data/v62.0/…, as https://<instance>.my.salesforce.com/services/data/v62.0/…",
         "examples": ["services/data/", "services/data/v62.0/sobjects/", "services/data/v62.0/query?q=SELECT+Id,Name+FROM+Account+LIMIT+5"]}
