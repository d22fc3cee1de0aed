"""The control plane (`/v1`): JSON over HTTP for trainers and harnesses.

It is served on its own listener (see `officegym.server`) and every call needs
`Authorization: Bearer <token>`; `officegym serve` generates the token and hands it to the
CLI and the Python API through a private state file, never through agent URLs. Env URLs it
returns point at the agent-facing server.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Body, Depends, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from officegym import apps
from officegym.core.api_token import api_token
from officegym.core.env_store import Env
from officegym.core.errors import EnvNotFound, no_env
from officegym.gym import Gym, TaskUnavailableError
from tasks import registry
from tasks.base import describe


def require_token(request: Request) -> None:
    expected = request.app.state.control_token.encode()
    given = request.headers.get("authorization", "").encode("utf-8", "surrogateescape")
    # Bytes, not str: compare_digest refuses non-ASCII str, and a hostile header must be a 401.
    if not secrets.compare_digest(given, b"Bearer " + expected):
        raise HTTPException(status_code=401, detail="the control plane needs Authorization: Bearer <token> (officegym serve wrote it to its state file)")


router = APIRouter(prefix="/v1", dependencies=[Depends(require_token)])


class CreateEnv(BaseModel):
    model_config = ConfigDict(extra="forbid")
    task: str | None = Field(default=None, description="task family id, or null for a bare company")
    seed: int = Field(default=0, ge=0, le=2**31 - 1)
    size: str = "small"
    variant: int = Field(default=0, ge=0, le=2**31 - 1, description="which of the family's instances on this company")
    toolset: str | None = Field(default=None, description=(
        "MCP toolset: null for the default ('reference'), or a second toolset by name ('official': chat, crm, tickets; "
        "'excel': sheets); an app without that toolset serves its default (the env's `toolsets` says which each serves)"))


def gym_of(request: Request) -> Gym:
    return request.app.state.gym


def env_urls(base: str, env_id: str, instance_url: str | None = None) -> dict[str, Any]:
    root = f"{base.rstrip('/')}/envs/{env_id}"
    names = apps.names()
    urls: dict[str, Any] = {
        "mcp": {**{app: f"{root}/mcp/{app}" for app in names}, "all": f"{root}/mcp/all"},
        "ui": {app: f"{root}/{app}/" for app in names},
        "api": {app: f"{root}/api/{app}/" for app in names},
    }
    if instance_url:  # the HTTPS origin where root-path REST faces pick the env by API token
        urls["instance_url"] = instance_url
    return urls


def env_json(request: Request, env: Env) -> dict[str, Any]:
    task = gym_of(request).instance(env)
    return {
        "env_id": env.id,
        "prompt": task.prompt if task is not None else None,
        "task": env.task_id,
        "seed": env.seed,
        "size": env.size,
        "variant": env.variant,
        "toolset": env.toolset or apps.DEFAULT_TOOLSET,
        # What each app's tool server serves: an app without the toolset asked for serves its
        # default, which a harness asking for 'excel' or 'official' must be able to see.
        "toolsets": {app.name: app.toolset(env.toolset).name for app in apps.APPS},
        "urls": env_urls(request.app.state.agent_base_url, env.id, request.app.state.instance_url),
        # What a product client sends as its session (officegym.core.api_token).
        "api_token": api_token(env.id),
    }


def _env(request: Request, env_id: str) -> Env:
    try:
        return gym_of(request).get(env_id)
    except EnvNotFound:
        raise HTTPException(status_code=404, detail=no_env(env_id)) from None


@router.post("/envs", status_code=201)
def create_env(request: Request, body: CreateEnv | None = Body(default=None)) -> dict[str, Any]:
    spec = body or CreateEnv()
    try:
        env = gym_of(request).create(spec.task, seed=spec.seed, size=spec.size, variant=spec.variant, toolset=spec.toolset)
    except TaskUnavailableError as error:
        raise HTTPException(status_code=422, detail=str(error)) from None
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
    try:
        gym_of(request).delete(env_id)
    except EnvNotFound:  # deleted by a racing call: the outcome the caller asked for
        pass


@router.post("/envs/{env_id}/grade")
def grade_env(env_id: str, request: Request) -> dict[str, Any]:
    env = _env(request, env_id)
    if env.task_id is None:
        raise HTTPException(status_code=409, detail="this env was created without a task; there is nothing to grade")
    try:
        return gym_of(request).grade(env_id)
    except EnvNotFound:
        raise HTTPException(status_code=404, detail=no_env(env_id)) from None


class MoveClock(BaseModel):
    model_config = ConfigDict(extra="forbid")
    advance_seconds: float | None = Field(default=None, ge=0, le=100 * 366 * 86_400, description="move the clock forward this many seconds")
    to: datetime | None = Field(default=None, description="move the clock to this moment (ISO 8601; UTC when no offset is given)")


@router.get("/envs/{env_id}/clock")
def env_clock(env_id: str, request: Request) -> dict[str, Any]:
    _env(request, env_id)
    return {"env_id": env_id, "now": gym_of(request).clock(env_id)}


@router.post("/envs/{env_id}/clock")
def move_env_clock(env_id: str, body: MoveClock, request: Request) -> dict[str, Any]:
    """Time passes in the company: scheduled messages whose time comes are posted and due dates
    fall due on the next operation that looks. The clock never moves back."""
    _env(request, env_id)
    if (body.advance_seconds is None) == (body.to is None):
        raise HTTPException(status_code=422, detail='give exactly one of "advance_seconds" (seconds, 0 or more) and "to" (an ISO 8601 time)')
    try:
        return gym_of(request).advance_clock(env_id, seconds=body.advance_seconds, to=body.to)
    except ValueError as error:
        raise HTTPException(status_code=409, detail=str(error)) from None
    except EnvNotFound:
        raise HTTPException(status_code=404, detail=no_env(env_id)) from None


@router.get("/envs/{env_id}/events")
def env_events(env_id: str, request: Request, after: int = 0, limit: int = 1000) -> dict[str, Any]:
    _env(request, env_id)
    after = min(max(after, 0), 2**62)
    return {"events": gym_of(request).events(env_id, after=after, limit=min(max(limit, 1), 10_000))}


@router.get("/tasks")
def list_tasks(request: Request, counts: bool = False, seed: int = Query(0, ge=0, le=2**31 - 1), size: str = "small") -> dict[str, Any]:
    """The task families; with `counts`, how many distinct instances each has on the (seed,
    size) company, so a trainer samples variants below it (variants past it wrap around)."""
    listed = [describe(f) for f in registry.all_families()]
    if not counts:
        return {"tasks": listed}
    try:
        for task in listed:
            task["instances"] = gym_of(request).count_instances(task["id"], seed=seed, size=size)
    except ValueError as bad:
        raise HTTPException(status_code=422, detail=str(bad)) from None
    return {"tasks": listed, "seed": seed, "size": size}


@router.get("/apps")
def list_apps() -> dict[str, Any]:
    return {"apps": apps.describe()}
