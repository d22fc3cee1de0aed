"""What the web faces (REST routes, UI pages) of every app need from the platform.

The server puts its `EnvStore` on `app.state.store`; a face declares `env: Env =
Depends(current_env)` and gets the env named in the path, or a 404 for any id that is
unknown, deleted or malformed.
"""

from __future__ import annotations

from fastapi import HTTPException, Request

from officegym.core.env_store import Env, EnvStore
from officegym.core.errors import EnvNotFound


def env_store(request: Request) -> EnvStore:
    return request.app.state.store


def current_env(request: Request, env_id: str) -> Env:
    try:
        return env_store(request).get(env_id)
    except EnvNotFound:
        raise HTTPException(status_code=404, detail=f"no env {env_id!r}") from None
