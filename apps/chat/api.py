"""The Slack Web API face: `GET|POST /envs/{env_id}/api/chat/{method}`.

Arguments come as query parameters, form fields or a JSON body, as Slack accepts them, so
`slack_sdk.WebClient(base_url=".../api/chat/")` works unchanged. Every answer is HTTP 200 with
`ok` true or false, Slack's quirk; writes are logged in the env's event log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from apps.chat.errors import ChatError, error_body, ok_body
from apps.chat.service import ChatService
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.ops import perform
from officegym.core.web import current_env, env_store


@dataclass(frozen=True)
class Method:
    call: str  # ChatService method
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    bools: tuple[str, ...] = ()  # parameters Slack sends as "true"/"1"
    write: bool = False


METHODS: dict[str, Method] = {
    "auth.test": Method("auth_test"),
    "api.test": Method("auth_test"),
    "chat.postMessage": Method("chat_post_message", ("channel", "text"), ("thread_ts", "reply_broadcast"), ("reply_broadcast",), True),
    "chat.update": Method("chat_update", ("channel", "ts", "text"), write=True),
    "chat.delete": Method("chat_delete", ("channel", "ts"), write=True),
    "chat.getPermalink": Method("chat_get_permalink", ("channel", "message_ts")),
    "conversations.list": Method("conversations_list", (), ("types", "exclude_archived", "limit", "cursor"), ("exclude_archived",)),
    "conversations.info": Method("conversations_info", ("channel",)),
    "conversations.history": Method("conversations_history", ("channel",), ("limit", "cursor", "oldest", "latest", "inclusive"), ("inclusive",)),
    "conversations.replies": Method("conversations_replies", ("channel", "ts"), ("limit", "cursor")),
    "conversations.create": Method("conversations_create", ("name",), ("is_private",), ("is_private",), True),
    "conversations.join": Method("conversations_join", ("channel",), write=True),
    "conversations.leave": Method("conversations_leave", ("channel",), write=True),
    "conversations.invite": Method("conversations_invite", ("channel", "users"), write=True),
    "conversations.kick": Method("conversations_kick", ("channel", "user"), write=True),
    "conversations.members": Method("conversations_members", ("channel",), ("limit", "cursor")),
    "conversations.open": Method("conversations_open", ("users",), write=True),
    "conversations.mark": Method("conversations_mark", ("channel", "ts"), write=True),
    "conversations.archive": Method("conversations_archive", ("channel",), write=True),
    "conversations.unarchive": Method("conversations_unarchive", ("channel",), write=True),
    "conversations.setTopic": Method("conversations_set_topic", ("channel", "topic"), write=True),
    "conversations.setPurpose": Method("conversations_set_purpose", ("channel", "purpose"), write=True),
    "reactions.add": Method("reactions_add", ("channel", "timestamp", "name"), write=True),
    "reactions.remove": Method("reactions_remove", ("channel", "timestamp", "name"), write=True),
    "reactions.get": Method("reactions_get", ("channel", "timestamp")),
    "pins.add": Method("pins_add", ("channel", "timestamp"), write=True),
    "pins.remove": Method("pins_remove", ("channel", "timestamp"), write=True),
    "pins.list": Method("pins_list", ("channel",)),
    "users.list": Method("users_list", (), ("limit", "cursor")),
    "users.info": Method("users_info", ("user",)),
    "users.profile.get": Method("users_profile_get", (), ("user",)),
    "users.lookupByEmail": Method("users_lookup_by_email", ("email",)),
    "users.conversations": Method("users_conversations", (), ("user", "types", "exclude_archived", "limit", "cursor"), ("exclude_archived",)),
    "search.messages": Method("search_messages", ("query",), ("count", "page", "sort", "sort_dir")),
}


def _truthy(value: Any) -> bool:
    return value is True or str(value).lower() in ("1", "true", "yes")


async def _arguments(request: Request) -> dict[str, Any]:
    """Slack takes arguments from the query string, a form body or a JSON body, merged."""
    args: dict[str, Any] = dict(request.query_params)
    if request.method == "POST":
        kind = request.headers.get("content-type", "")
        if kind.startswith("application/json"):
            try:
                body = json.loads(await request.body() or b"{}")
            except json.JSONDecodeError:
                raise ChatError("invalid_json", "the request body is not valid JSON") from None
            if not isinstance(body, dict):
                raise ChatError("invalid_json", "the JSON body must be an object of arguments")
            args.update(body)
        elif kind.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
            args.update({k: v for k, v in (await request.form()).items() if isinstance(v, str)})
    return args


def _call_arguments(spec: Method, given: dict[str, Any]) -> dict[str, Any]:
    missing = [name for name in spec.required if given.get(name) in (None, "")]
    if missing:
        raise ChatError("invalid_arguments", f"missing required field: {', '.join(missing)}")
    names = spec.required + spec.optional
    picked = {name: given[name] for name in names if given.get(name) not in (None, "")}
    for name in spec.bools:
        if name in picked:
            picked[name] = _truthy(picked[name])
    for name, value in picked.items():
        if name == "users" and isinstance(value, list) and all(isinstance(u, str) for u in value):
            picked[name] = ",".join(value)  # a JSON list of ids means the same as Slack's comma list
        elif isinstance(value, bool) and name not in spec.bools or not isinstance(value, (str, int, float, bool)):
            raise ChatError("invalid_arguments", f"{name} must be a string; got {type(value).__name__}")
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and name not in ("limit", "count", "page"):
            picked[name] = str(value)
    return picked


router = APIRouter()


@router.api_route("/{method}", methods=["GET", "POST"])
async def slack_method(method: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    spec = METHODS.get(method)
    if spec is None:
        return JSONResponse({"ok": False, "error": "unknown_method", "response_metadata": {"messages": [f"[ERROR] unknown method {method!r}; supported: {', '.join(sorted(METHODS))}"]}})
    try:
        given = await _arguments(request)
        kwargs = _call_arguments(spec, given)
        body = perform(
            env_store(request), env,
            lambda db: getattr(ChatService(db), spec.call)(**kwargs),
            source="rest", app="chat", action=method, args=kwargs, log=spec.write,
        )
    except AppError as error:
        return JSONResponse(error_body(error))
    return JSONResponse(ok_body(body))
