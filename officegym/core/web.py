"""What the web faces (REST routes, UI pages) of every app need from the platform.

The server puts its `EnvStore` on `app.state.store`; a face declares `env: Env =
Depends(current_env)` and gets the env named in the path, or a 404 for any id that is
unknown, deleted or malformed. Its routes are `EnvRoute`s (`APIRouter(route_class=EnvRoute)`),
which call plain endpoints without FastAPI's parameter solving. Routes an app also serves at the root of the agent origin
(no env id in the path) get the env its API token names (`officegym.core.api_token`), or
a 401.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request
from fastapi.dependencies.models import Dependant
from fastapi import routing as fastapi_routing
from fastapi.routing import APIRoute
from starlette.responses import Response

from officegym.core.api_token import bearer, env_id_of
from officegym.core.env_store import Env, EnvStore
from officegym.core.errors import EnvNotFound, no_env

UNAUTHENTICATED = "Session expired or invalid: send the env's API token as 'Authorization: Bearer <token>'"


def env_store(request: Request) -> EnvStore:
    return request.app.state.store


async def current_env(request: Request) -> Env:
    # async: a plain `def` dependency runs in FastAPI's thread pool, a hop that cost every
    # REST call and UI page ~0.2 ms for a lookup that never blocks (an env's record is read
    # from the registry at most once per process).
    env_id = request.path_params.get("env_id")
    token = bearer(request.headers.get("authorization", ""))
    named = env_id_of(token) if token else None
    if env_id is None:  # a root route: the token is the only way to name the env
        if named is None:
            raise HTTPException(status_code=401, detail=UNAUTHENTICATED, headers={"WWW-Authenticate": "Bearer"})
        try:
            return env_store(request).get(named)
        except EnvNotFound:
            raise HTTPException(status_code=401, detail=UNAUTHENTICATED, headers={"WWW-Authenticate": "Bearer"}) from None
    if named is not None and named != env_id:
        # A client holding one env's token and another env's URL is confused: refuse, never mix.
        raise HTTPException(status_code=401, detail="the API token names a different env than the URL", headers={"WWW-Authenticate": "Bearer"})
    try:
        return env_store(request).get(env_id)
    except EnvNotFound:
        raise HTTPException(status_code=404, detail=no_env(env_id)) from None


class EnvRoute(APIRoute):
    """An app's route. One whose endpoint is a coroutine taking only the request, the env
    (`env: Env = Depends(current_env)`) and parts of its path (as `str`), and answering a
    Response, is called directly: FastAPI's solving of declared parameters and dependencies
    cost such a route 25-100 µs a call, for a lookup and strings it cannot check. Any other
    endpoint (query, header, form or body parameters, other dependencies, a plain `def`) is
    FastAPI's as usual. The route's OpenAPI description is the same either way."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        plan = _direct_plan(self, _dependant_in_force(self))
        if plan is None:
            return super().get_route_handler()
        endpoint = self.endpoint
        request_name, env_name, path_names = plan

        async def handle(request: Request) -> Response:
            path = request.path_params
            kwargs: dict[str, Any] = {name: path[name] for name in path_names}
            kwargs[request_name] = request
            if env_name is not None:
                kwargs[env_name] = await current_env(request)
            return await endpoint(**kwargs)

        return handle


def _dependant_in_force(route: APIRoute) -> Dependant:
    """What FastAPI would solve for `route`: its own dependant, or, while a router that
    includes it builds its handler, the one with the including router's dependencies."""
    # FastAPI's own get_route_handler reads the same (private) context variable; a FastAPI
    # without it copies included routes, whose dependant is then the whole story.
    in_force = getattr(fastapi_routing, "_effective_route_context_var", None)
    context = in_force.get() if in_force is not None else None
    if context is not None and context.original_route is route:
        return context.dependant
    return route.dependant


def _direct_plan(route: APIRoute, dependant: Dependant) -> tuple[str, str | None, tuple[str, ...]] | None:
    """(the request's parameter, the env's, the path parts') when the endpoint can be called
    directly, else None: read from FastAPI's own account of what the endpoint needs."""
    if not inspect.iscoroutinefunction(route.endpoint) or dependant.request_param_name is None:
        return None
    if (dependant.query_params or dependant.header_params or dependant.cookie_params or dependant.body_params
            or dependant.websocket_param_name or dependant.http_connection_param_name or dependant.response_param_name
            or dependant.background_tasks_param_name or dependant.security_scopes_param_name):
        return None
    if any(field.field_info.annotation is not str for field in dependant.path_params):
        return None
    try:
        answer = typing.get_type_hints(route.endpoint).get("return")
    except Exception:  # an annotation that does not resolve: leave it to FastAPI
        return None
    if not (isinstance(answer, type) and issubclass(answer, Response)):
        return None
    env_name = None
    for needed in dependant.dependencies:
        if needed.call is not current_env or env_name is not None or needed.name is None:
            return None
        env_name = needed.name
    return dependant.request_param_name, env_name, tuple(field.name for field in dependant.path_params)
