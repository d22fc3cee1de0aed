"""`EnvRoute` (officegym/core/web.py) calls an endpoint that takes only the request, the env and
parts of its path directly, without FastAPI's parameter solving; every other endpoint is
FastAPI's. These prove both halves answer as FastAPI would (the env named in the path, a 404 for
an unknown one, a 401 for a token naming another env; query parameters and an including
router's dependencies still honoured), and that the apps' routes take the direct path."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request
from fastapi import routing as fastapi_routing
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

import officegym.core.web as web
from officegym.core.api_token import api_token
from officegym.core.env_store import Env
from officegym.core.web import EnvRoute, current_env
from officegym.apps import APPS
from officegym.gym import Gym

router = APIRouter(route_class=EnvRoute)


@router.get("/things/{thing}")
async def direct(request: Request, thing: str, env: Env = Depends(current_env)) -> JSONResponse:
    return JSONResponse({"env": env.id, "thing": thing, "path": request.url.path})


@router.get("/search/{thing}")
async def with_query(request: Request, thing: str, limit: int = 5, env: Env = Depends(current_env)) -> JSONResponse:
    return JSONResponse({"env": env.id, "thing": thing, "limit": limit})


def _refuse(request: Request) -> None:
    if request.headers.get("x-let-in") != "yes":
        raise HTTPException(status_code=403, detail="the including router's dependency refused")


guarded = APIRouter(route_class=EnvRoute)


@guarded.get("/guarded/{thing}")
async def guarded_route(request: Request, thing: str, env: Env = Depends(current_env)) -> JSONResponse:
    return JSONResponse({"env": env.id, "thing": thing})


@pytest.fixture(scope="module")
def client(gym: Gym) -> Iterator[TestClient]:
    app = FastAPI()
    app.state.store = gym.store
    app.include_router(router, prefix="/envs/{env_id}/x")
    app.include_router(guarded, prefix="/envs/{env_id}/g", dependencies=[Depends(_refuse)])
    with TestClient(app) as client:
        yield client


def test_a_direct_route_gets_the_env_and_its_path_without_fastapi_solving(client: TestClient, env: Env,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    async def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("FastAPI solved the parameters of a route EnvRoute calls directly")

    monkeypatch.setattr(fastapi_routing, "solve_dependencies", never)
    answer = client.get(f"/envs/{env.id}/x/things/caf%C3%A9")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"env": env.id, "thing": "café", "path": f"/envs/{env.id}/x/things/café"}


def test_a_direct_route_refuses_an_unknown_env_and_a_token_for_another(client: TestClient, env: Env) -> None:
    unknown = client.get("/envs/nope/x/things/a")
    assert unknown.status_code == 404 and unknown.json()["detail"] == (
        "no env 'nope' on this server: it was deleted, expired (idle past OFFICEGYM_ENV_TTL), or never created")
    other = client.get(f"/envs/{env.id}/x/things/a", headers={"Authorization": f"Bearer {api_token('f' * 32)}"})
    assert other.status_code == 401 and "different env" in other.json()["detail"]
    own = client.get(f"/envs/{env.id}/x/things/a", headers={"Authorization": f"Bearer {api_token(env.id)}"})
    assert own.status_code == 200


def test_a_route_with_query_parameters_is_fastapis_and_validates_them(client: TestClient, env: Env) -> None:
    assert client.get(f"/envs/{env.id}/x/search/a?limit=7").json() == {"env": env.id, "thing": "a", "limit": 7}
    bad = client.get(f"/envs/{env.id}/x/search/a?limit=many")
    assert bad.status_code == 422, "FastAPI still checks a declared query parameter"


def test_an_including_routers_dependency_still_runs(client: TestClient, env: Env) -> None:
    assert client.get(f"/envs/{env.id}/g/guarded/a").status_code == 403
    assert client.get(f"/envs/{env.id}/g/guarded/a", headers={"x-let-in": "yes"}).json() == {"env": env.id, "thing": "a"}


def test_the_apps_rest_routes_that_can_be_called_directly_are() -> None:
    """Every app's REST route is an EnvRoute, and nearly all are planned direct: a route left
    to FastAPI by mistake (a stray query parameter, a plain `def`) costs every call to it."""
    for app in APPS:
        routes = [route for route in app.rest.routes if isinstance(route, APIRoute)]
        assert routes and all(isinstance(route, EnvRoute) for route in routes), app.name
        fastapis = [route.path for route in routes if web._direct_plan(route, route.dependant) is None]
        assert len(fastapis) <= len(routes) // 10, (app.name, fastapis)
