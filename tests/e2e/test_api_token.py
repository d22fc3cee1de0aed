"""Per-env API tokens and the HTTPS listener: what product clients that want a session and
HTTPS (simple_salesforce) rely on. The control plane hands out the token with the env's URLs;
REST faces accept it, refuse another env's token, and answer over TLS with a CA a client can
trust."""

from __future__ import annotations

import ssl
from types import SimpleNamespace

import httpx
import pytest
from fastapi import APIRouter, Depends, FastAPI
from fastapi.testclient import TestClient

from apps.chat.operations import OPERATIONS as CHAT_OPERATIONS
from officegym.core.api_token import api_token, bearer, env_id_of
from officegym.core.env_store import Env
from officegym.core.web import current_env
from officegym.faces import guard


def test_control_plane_hands_out_the_token_and_the_https_origin(control, live_server) -> None:
    created = control.post("/v1/envs", json={}).json()
    try:
        assert created["api_token"] == api_token(created["env_id"])
        assert created["urls"]["instance_url"] == live_server.instance_url
        assert created["urls"]["instance_url"].startswith("https://127.0.0.1:")
        assert control.get(f"/v1/envs/{created['env_id']}").json()["api_token"] == created["api_token"]
    finally:
        control.delete(f"/v1/envs/{created['env_id']}")


def test_rest_accepts_its_own_token_and_refuses_another_envs(live_server, gym) -> None:
    mine, other = gym.create(), gym.create()
    try:
        url = f"{live_server.base_url}/envs/{mine.id}/api/chat/auth.test"
        own = httpx.post(url, headers={"Authorization": f"Bearer {api_token(mine.id)}"})
        assert own.status_code == 200 and own.json()["ok"] is True
        # A product's own token format (slack_sdk's xoxb-…) is not ours to judge: the path decides.
        assert httpx.post(url, headers={"Authorization": "Bearer xoxb-anything"}).json()["ok"] is True
        crossed = httpx.post(url, headers={"Authorization": f"Bearer {api_token(other.id)}"})
        assert crossed.status_code == 401
        assert crossed.json()["ok"] is False and crossed.json()["error"] == "invalid_auth"  # Slack's shape
    finally:
        gym.delete(mine.id)
        gym.delete(other.id)


def test_https_listener_serves_the_same_envs_with_a_certificate_the_ca_vouches_for(live_server, gym) -> None:
    env = gym.create()
    try:
        url = f"{live_server.instance_url}/envs/{env.id}/api/chat/auth.test"
        trusted = httpx.post(url, verify=ssl.create_default_context(cafile=live_server.ca_file))
        assert trusted.status_code == 200 and trusted.json()["ok"] is True
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            httpx.post(url)  # the system's trust store does not know our CA
    finally:
        gym.delete(env.id)


def test_root_routes_pick_the_env_by_token_and_answer_401_in_the_products_shape(gym) -> None:
    """An app declaring `rest_root` serves its routes at the origin's root; the token names
    the env. Exercised on a probe router with chat's error shape."""
    router = APIRouter()

    @router.get("/probe/whoami")
    def whoami(env: Env = Depends(current_env)) -> dict[str, str]:
        return {"env": env.id}

    app = FastAPI()
    app.state.store = gym.store
    app.include_router(router)
    probe_app = SimpleNamespace(name="probe", operations=CHAT_OPERATIONS, rest_root="/probe", source_dir=guard.Path("/nonexistent"))
    guard.install(app, [probe_app])
    env = gym.create()
    try:
        client = TestClient(app)
        assert client.get("/probe/whoami", headers={"Authorization": f"Bearer {api_token(env.id)}"}).json() == {"env": env.id}
        assert client.get("/probe/whoami", headers={"Authorization": f"OAuth {api_token(env.id)}"}).json() == {"env": env.id}
        for headers in ({}, {"Authorization": "Bearer nonsense"}, {"Authorization": f"Bearer {api_token('0' * 32)}"}):
            refused = client.get("/probe/whoami", headers=headers)
            assert refused.status_code == 401, headers
            assert refused.json()["ok"] is False and refused.json()["error"] == "invalid_auth"
            assert refused.headers["www-authenticate"] == "Bearer"
    finally:
        gym.delete(env.id)


def test_token_text() -> None:
    env_id = "ab" * 16
    assert env_id_of(api_token(env_id)) == env_id
    assert env_id_of("og_" + "g" * 32) is None and env_id_of(env_id) is None
    assert bearer("Bearer  x ") == "x" and bearer("OAuth y") == "y" and bearer("Basic z") is None and bearer("") is None
