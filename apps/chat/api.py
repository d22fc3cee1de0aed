"""The Slack Web API face: `GET|POST /envs/{env_id}/api/chat/{method}`.

Each chat operation is a Slack method of the same name. Arguments come as query parameters,
form fields or a JSON body, as Slack accepts them, so `slack_sdk.WebClient(base_url=
".../api/chat/")` works unchanged. Every answer is HTTP 200 with `ok` true or false, Slack's
quirk; the operation parses the arguments and writes are logged in the env's event log.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request

from apps.chat.errors import ChatError, error_body, ok_body
from apps.chat.operations import OPERATIONS
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.web import EnvRoute, current_env
from officegym.faces.rest import BadBody, JSONResponse, call, merged_arguments

ALIASES = {"api.test": "auth.test"}

router = APIRouter(route_class=EnvRoute)


@router.api_route("/{method}", methods=["GET", "POST"])
async def slack_method(request: Request, method: str, env: Env = Depends(current_env)) -> JSONResponse:
    op = OPERATIONS.get(ALIASES.get(method, method))
    if op is None:
        known = ", ".join(sorted([*(o.name for o in OPERATIONS), *ALIASES]))
        return JSONResponse(error_body(ChatError("unknown_method", f"unknown method {method[:100]!r}; supported: {known}")))
    try:
        raw = await merged_arguments(request)
        body = call(request, env, OPERATIONS, op, raw, route=method)
    except BadBody as bad:
        return JSONResponse(error_body(ChatError("invalid_arguments", str(bad))))
    except AppError as error:
        return JSONResponse(error_body(error))
    return JSONResponse(ok_body(body))


# What a GET on this API's base URL answers (officegym.apps.App.rest_index).
INDEX = {"api": "Slack Web API", "call": "POST (or GET) <base>/<method>, with form or JSON arguments and any bearer token, as https://slack.com/api/<method>",
         "examples": ["auth.test", "conversations.list", "conversations.history?channel=C…", "chat.postMessage"]}
