"""The control plane (`/v1`): JSON over HTTP for trainers and harnesses.

Agents are handed only their env's URLs (`/envs/{env_id}/…`), which never lead here. Set
OFFICEGYM_CONTROL_TOKEN to require `Authorization: Bearer <token>` on every control call.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, Field

from officegym.core.env_store import Env
from officegym.core.errors import EnvNotFound
from officegym.gym import APPS, Gym
from tasks import registry
from tasks.base import describe


def require_token(request: Request) -> None:
    token = os.environ.get("OFFICEGYM_CONTROL_TOKEN")
    if token and not secrets.compare_digest(request.headers.get("authorization", ""), f"Bearer {token}"):
        raise HTTPException(status_code=401, detail="control plane needs Authorization: Bearer <OFFICEGYM_CONTROL_TOKEN>")


router = APIRouter(prefix="/v1", dependencies=[Depends(require_token)])


class CreateEnv(BaseModel):
    task: str | None = Field(default=None, description="task family id, or null for a bare company")
    seed: int = 0
    size: str = "small"


def gym_of(request: Request) -> Gym:
    return request.app.state.gym


def env_urls(base: str, env_id: str) -> dict[str, Any]:
    root = f"{base.rstrip('/')}/envs/{env_id}"
    return {
        "mcp": {**{app: f"{root}/mcp/{app}" for app in APPS}, "all": f"{root}/mcp/all"},
        "ui": {app: f"{root}/{app}/" for app in APPS},
        "api": {app: f"{root}/api/{app}/" for app in APPS},
    }


def env_json(request: Request, env: Env) -> dict[str, Any]:
    return {
        "env_id": env.id,
        "prompt": env.task.prompt if env.task is not None else None,
        "task": env.task_id,
        "seed": env.seed,
        "size": env.size,
        "urls": env_urls(str(request.base_url), env.id),
    }


def _env(request: Request, env_id: str) -> Env:
    try:
        return gym_of(request).get(env_id)
    except EnvNotFound:
        raise HTTPException(status_code=404, detail=f"no env {env_id!r}") from None


@router.post("/envs", status_code=201)
def create_env(body: CreateEnv, request: Request) -> dict[str, Any]:
    try:
        env = gym_of(request).create(body.task, seed=body.seed, size=body.size)
    except (KeyError, ValueError) as error:
        raise HTTPException(status_code=422, detail=str(error).strip('"')) from None
    return env_json(request, env)


@router.get("/envs")
def list_envs(request: Request) -> dict[str, Any]:
    return {"envs": [env_json(request, env) for env in gym_of(request).store.list()]}


@router.get("/envs/{env_id}")
def get_env(env_id: str, request: Request) -> dict[str, Any]:
    return env_json(request, _env(request, env_id))


@router.delete("/envs/{env_id}", status_code=204)
def delete_env(env_id: str, request: Request) -> None:
    _env(request, env_id)
    gym_of(request).delete(env_id)


@router.post("/envs/{env_id}/grade")
def grade_env(env_id: str, request: Request) -> dict[str, Any]:
    env = _env(request, env_id)
    if env.task is None:
        raise HTTPException(status_code=409, detail="this env was created without a task; there is nothing to grade")
    return gym_of(request).grade(env_id)


@router.get("/envs/{env_id}/events")
def env_events(env_id: str, request: Request, after: int = 0, limit: int = 1000) -> dict[str, Any]:
    _env(request, env_id)
    return {"events": gym_of(request).events(env_id, after=after, limit=min(max(limit, 1), 10_000))}


@router.get("/tasks")
def list_tasks() -> dict[str, Any]:
    return {"tasks": [describe(f) for f in registry.all_families()]}
