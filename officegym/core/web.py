"""What the web faces (REST routes, UI pages) of every app need from the platform.

The server puts its `EnvStore` on `app.state.store`; a face declares `env: Env =
Depends(current_env)` and gets the env named in the path, or a 404 for any id that is
unknown, deleted or malformed. Routes an app also serves at the root of the agent origin
(no env id in the path) get the env its API token names (`officegym.core.api_token`), or
a 401.
"""

from __future__ import annotations

from fastapi import HTTPException, Request

from officegym.core.api_token import bearer, env_id_of
from officegym.core.env_store import Env, EnvStore
from officegym.core.errors import EnvNotFound

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
        raise HTTPException(status_code=404, detail=f"no env {env_id[:64]!r}") from None
