"""The control plane (`/v1`), as a trainer's harness uses it: create an env, hand its URLs to
an agent, read its trajectory, grade it, delete it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp import Client


@pytest.fixture
def http(control: httpx.Client) -> httpx.Client:
    return control


@pytest.fixture
def created(http: httpx.Client) -> Iterator[dict[str, Any]]:
    response = http.post("/v1/envs", json={"task": None, "seed": 0, "size": "small"})
    assert response.status_code == 201, response.text
    data = response.json()
    yield data
    http.delete(f"/v1/envs/{data['env_id']}")


async def test_create_returns_working_urls(live_server: Any, created: dict[str, Any]) -> None:
    env_id = created["env_id"]
    assert re.fullmatch(r"[0-9a-f]{32}", env_id)
    assert created["prompt"] is None and created["task"] is None
    urls = created["urls"]
    root = f"{live_server.base_url}/envs/{env_id}"
    assert urls["mcp"]["chat"] == f"{root}/mcp/chat"
    assert urls["mcp"]["all"] == f"{root}/mcp/all"
    assert urls["ui"]["chat"].startswith(f"{root}/chat")
    assert urls["api"]["chat"].startswith(f"{root}/api/chat")

    for app in ("chat", "all"):
        async with Client(urls["mcp"][app]) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert "slack_post_message" in names
    async with httpx.AsyncClient(timeout=10) as http:
        api = await http.post(urls["api"]["chat"].rstrip("/") + "/auth.test")
        assert api.status_code == 200 and api.json()["ok"] is True
        ui = await http.get(urls["ui"]["chat"], follow_redirects=True)
        assert ui.status_code == 200, f"the chat UI answers at {urls['ui']['chat']}"
        assert "text/html" in ui.headers["content-type"]


def test_each_api_base_url_says_what_it_speaks(created: dict[str, Any]) -> None:
    """The API URLs an env lists answer a GET with the product API they speak and calls to
    start from; the first of those answers (before, the base URL was a bare 404)."""
    for app, base in created["urls"]["api"].items():
        index = httpx.get(base, timeout=10)
        assert index.status_code == 200, (app, index.text)
        body = index.json()
        assert body["app"] == app and body["base_url"] == base and body["api"]
        first = httpx.get(body["examples"][0], timeout=10)
        assert first.status_code == 200, (app, body["examples"][0], first.text[:200])


def test_get_and_list_envs(http: httpx.Client, created: dict[str, Any]) -> None:
    env_id = created["env_id"]
    got = http.get(f"/v1/envs/{env_id}")
    assert got.status_code == 200
    assert got.json()["env_id"] == env_id and got.json()["urls"] == created["urls"]
    listed = http.get("/v1/envs").json()["envs"]
    assert env_id in [e["env_id"] for e in listed]


def test_an_env_says_which_toolset_each_app_serves(http: httpx.Client, created: dict[str, Any]) -> None:
    """A toolset one app lacks is not an error (the env's other apps have it), but the env
    says that this app serves its default instead."""
    response = http.post("/v1/envs", json={"toolset": "excel"})
    assert response.status_code == 201, response.text
    try:
        assert response.json()["toolsets"] == {"chat": "reference", "crm": "reference", "tickets": "reference", "sheets": "excel"}
    finally:
        http.delete(f"/v1/envs/{response.json()['env_id']}")
    assert set(created["toolsets"].values()) == {"reference"}
    official = http.post("/v1/envs", json={"toolset": "official"}).json()
    http.delete(f"/v1/envs/{official['env_id']}")
    assert official["toolsets"] == {"chat": "official", "crm": "official", "tickets": "official", "sheets": "reference"}


def test_two_creates_give_two_isolated_envs(http: httpx.Client, live_server: Any) -> None:
    ids = []
    agent = httpx.Client(base_url=live_server.base_url, timeout=30)
    try:
        for _ in range(2):
            response = http.post("/v1/envs", json={})
            assert response.status_code == 201, "every field has a default"
            ids.append(response.json()["env_id"])
        assert ids[0] != ids[1]
        first = f"/envs/{ids[0]}/api/chat"
        channel = agent.get(f"{first}/conversations.list").json()["channels"][0]["id"]
        assert agent.post(f"{first}/chat.postMessage", json={"channel": channel, "text": "only in the first"}).json()["ok"]
        second = agent.get(f"/envs/{ids[1]}/api/chat/conversations.history", params={"channel": channel, "limit": 1}).json()
        assert second["messages"][0]["text"] != "only in the first"
        assert [e["operation"] for e in http.get(f"/v1/envs/{ids[0]}/events").json()["events"]] == ["chat.postMessage"]
        assert http.get(f"/v1/envs/{ids[1]}/events").json()["events"] == []
    finally:
        agent.close()
        for env_id in ids:
            http.delete(f"/v1/envs/{env_id}")


def test_bad_create_requests_are_422_naming_what_is_accepted(http: httpx.Client) -> None:
    tasks = [t["id"] for t in http.get("/v1/tasks").json()["tasks"]]
    before = len(http.get("/v1/envs").json()["envs"])

    unknown = http.post("/v1/envs", json={"task": "chat/no-such-task-v9"})
    assert unknown.status_code == 422
    assert "chat/no-such-task-v9" in unknown.text and tasks[0] in unknown.text

    size = http.post("/v1/envs", json={"size": "galactic"})
    assert size.status_code == 422
    assert "galactic" in size.text and "small" in size.text

    seed = http.post("/v1/envs", json={"seed": "zero"})
    assert seed.status_code == 422 and "seed" in seed.text

    assert len(http.get("/v1/envs").json()["envs"]) == before, "a refused create leaves nothing behind"


def test_delete_makes_every_url_404(http: httpx.Client) -> None:
    data = http.post("/v1/envs", json={}).json()
    env_id, urls = data["env_id"], data["urls"]
    assert http.delete(f"/v1/envs/{env_id}").status_code == 204

    assert http.get(f"/v1/envs/{env_id}").status_code == 404
    assert http.delete(f"/v1/envs/{env_id}").status_code == 404
    assert http.get(f"/v1/envs/{env_id}/events").status_code == 404
    assert http.post(f"/v1/envs/{env_id}/grade").status_code == 404
    mcp = http.post(
        urls["mcp"]["chat"],
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
        headers={"accept": "application/json, text/event-stream"},
    )
    assert mcp.status_code == 404
    assert http.post(urls["mcp"]["all"], json={}).status_code == 404
    assert http.post(urls["api"]["chat"].rstrip("/") + "/auth.test").status_code == 404
    assert http.get(urls["ui"]["chat"]).status_code == 404
    assert env_id not in [e["env_id"] for e in http.get("/v1/envs").json()["envs"]]


def test_unknown_env_ids_are_404(http: httpx.Client) -> None:
    for env_id in ("0" * 32, "nope", "..%2F..%2Fetc"):
        assert http.get(f"/v1/envs/{env_id}").status_code == 404
        assert http.delete(f"/v1/envs/{env_id}").status_code == 404
        assert http.get(f"/v1/envs/{env_id}/events").status_code == 404


def test_task_catalogue(http: httpx.Client) -> None:
    response = http.get("/v1/tasks")
    assert response.status_code == 200
    tasks = response.json()["tasks"]
    assert tasks
    for task in tasks:
        assert set(task) >= {"id", "apps", "difficulty", "summary"}
        assert re.fullmatch(r"[a-z]+/[a-z0-9-]+-v\d+", task["id"]), task["id"]
        assert task["difficulty"] in ("easy", "medium", "hard")
    assert "chat/post-in-channel-v1" in [t["id"] for t in tasks]
    assert len({t["id"] for t in tasks}) == len(tasks)
    assert all("instances" not in t for t in tasks), "counting is asked for"


def test_task_catalogue_counts_each_familys_instances(http: httpx.Client) -> None:
    """A trainer can see how many distinct variants a family has on a company, so sampling
    below it never repeats an instance (variant N is instance N modulo the count)."""
    counted = http.get("/v1/tasks", params={"counts": "true", "seed": 0, "size": "small"}).json()
    assert counted["seed"] == 0 and counted["size"] == "small"
    sizes = {t["id"]: t["instances"] for t in counted["tasks"]}
    assert set(sizes) == {t["id"] for t in http.get("/v1/tasks").json()["tasks"]}
    assert all(isinstance(n, int) and n > 0 for n in sizes.values()), sizes
    n = sizes["chat/find-and-answer-v1"]
    first = http.post("/v1/envs", json={"task": "chat/find-and-answer-v1", "variant": 1}).json()
    wrapped = http.post("/v1/envs", json={"task": "chat/find-and-answer-v1", "variant": n + 1}).json()
    try:
        assert first["prompt"] == wrapped["prompt"]
    finally:
        for made in (first, wrapped):
            http.delete(f"/v1/envs/{made['env_id']}")
    assert http.get("/v1/tasks", params={"counts": "true", "size": "huge"}).status_code == 422


def test_grade_a_bare_env_is_409(http: httpx.Client, created: dict[str, Any]) -> None:
    response = http.post(f"/v1/envs/{created['env_id']}/grade")
    assert response.status_code == 409
    assert "task" in response.json()["detail"]


def test_a_task_env_has_a_prompt_and_doing_nothing_scores_zero(http: httpx.Client) -> None:
    response = http.post("/v1/envs", json={"task": "chat/post-in-channel-v1", "seed": 0})
    assert response.status_code == 201, response.text
    data = response.json()
    try:
        assert data["task"] == "chat/post-in-channel-v1"
        assert data["prompt"] and isinstance(data["prompt"], str)
        grade = http.post(f"/v1/envs/{data['env_id']}/grade")
        assert grade.status_code == 200
        result = grade.json()
        assert result["reward"] == 0.0 and result["passed"] is False
        assert result["checks"] and result["collateral"] == []
        assert set(result["checks"][0]) == {"name", "weight", "passed", "detail"}
        again = http.post("/v1/envs", json={"task": "chat/post-in-channel-v1", "seed": 0}).json()
        assert again["prompt"] == data["prompt"], "the same (task, seed) is the same task"
        http.delete(f"/v1/envs/{again['env_id']}")
    finally:
        http.delete(f"/v1/envs/{data['env_id']}")
