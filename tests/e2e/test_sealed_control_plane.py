"""The control plane is sealed from agents: an agent holding only its env's URLs cannot list
envs, read another env, grade, read events or find API docs; the control plane itself wants
its bearer token on every call and refuses anything else with a 401, hostile headers too."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

CONTROL_CALLS = [
    ("GET", "/v1/envs"),
    ("POST", "/v1/envs"),
    ("GET", "/v1/envs/{env_id}"),
    ("DELETE", "/v1/envs/{env_id}"),
    ("POST", "/v1/envs/{env_id}/grade"),
    ("GET", "/v1/envs/{env_id}/events"),
    ("GET", "/v1/tasks"),
]


@pytest.fixture
def task_env(control: httpx.Client) -> Any:
    created = control.post("/v1/envs", json={"task": "chat/post-in-channel-v1"})
    assert created.status_code == 201, created.text
    yield created.json()
    control.delete(f"/v1/envs/{created.json()['env_id']}")


def test_an_agent_with_its_urls_cannot_reach_the_control_plane(live_server: Any, task_env: dict[str, Any]) -> None:
    env_id = task_env["env_id"]
    per_env = [url for kind in task_env["urls"].values() if isinstance(kind, dict) for url in kind.values()]
    agent_origins = {url.split("/envs/")[0] for url in per_env}
    assert agent_origins == {live_server.base_url}, "every URL an agent gets points at the agent server"
    assert task_env["urls"]["instance_url"] == live_server.instance_url  # ... or at it again, over HTTPS
    assert live_server.control_url not in str(task_env["urls"])
    with httpx.Client(base_url=live_server.base_url, timeout=10) as agent:
        for method, path in CONTROL_CALLS:
            response = agent.request(method, path.format(env_id=env_id), headers={"Authorization": "Bearer anything"})
            assert response.status_code in (404, 405), (method, path, response.status_code)
        for path in ("/docs", "/redoc", "/openapi.json", "/v1/docs", "/v1/openapi.json", "/"):
            assert agent.get(path).status_code == 404, f"{path} must not describe the server to agents"
        # Its own faces still work.
        assert agent.post(f"/envs/{env_id}/api/chat/auth.test").json()["ok"] is True


def test_the_control_plane_wants_its_token(live_server: Any, task_env: dict[str, Any]) -> None:
    env_id = task_env["env_id"]
    refusals = [
        {},
        {"Authorization": "Bearer wrong-token"},
        {"Authorization": f"bearer {live_server.token}x"},
        {"Authorization": live_server.token},
        {"Authorization": "Bearer " + "é" * 8},  # non-ASCII: a 401, never a 500
    ]
    with httpx.Client(base_url=live_server.control_url, timeout=10) as anonymous:
        for headers in refusals:
            encoded = {k: v.encode("utf-8") for k, v in headers.items()}
            for method, path in CONTROL_CALLS:
                response = anonymous.request(method, path.format(env_id=env_id), headers=encoded)
                assert response.status_code == 401, (headers, method, path, response.status_code)
    with httpx.Client(base_url=live_server.control_url, timeout=10, headers={"Authorization": f"Bearer {live_server.token}"}) as trainer:
        assert trainer.get(f"/v1/envs/{env_id}").status_code == 200, "the env survived every refused call"
        assert trainer.get("/v1/docs").status_code == 200, "docs live on the control plane"


def test_a_post_with_no_body_creates_a_bare_env(control: httpx.Client) -> None:
    response = control.post("/v1/envs")
    assert response.status_code == 201, response.text
    data = response.json()
    assert data["task"] is None and data["prompt"] is None and data["toolset"] == "reference"
    assert control.delete(f"/v1/envs/{data['env_id']}").status_code == 204


def test_a_family_that_cannot_be_sampled_is_a_clear_4xx(control: httpx.Client) -> None:
    for body, words in (
        ({"task": "chat/no-such-task-v1"}, "unknown task"),
        ({"toolset": "no-such-toolset"}, "unknown toolset"),
        ({"variant": -1}, "variant"),
        ({"seed": "zero"}, "seed"),
        ({"extra": 1}, "extra"),
    ):
        response = control.post("/v1/envs", json=body)
        assert 400 <= response.status_code < 500, (body, response.status_code)
        assert words in response.text, (body, response.text)
