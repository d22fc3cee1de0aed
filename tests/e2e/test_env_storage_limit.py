"""An env's database is bounded (OFFICEGYM_ENV_MAX_MB): an agent looping on big posts fills
its own env, never the server's disk. Past the bound a write is the product's error and
changes nothing; reads, grading and other envs go on. Through Slack's own client, and the
same refusal through MCP.

Before, nothing bounded an env: 40,000-character posts in a loop grew its file until the disk
was full, and every env on the server failed with it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from mcp import Client

from officegym.gym import Gym
from officegym.server import create_agent_app
from tests.e2e.conftest import start_uvicorn

BIG = "x" * 39_000  # under Slack's 40,000 characters a message


@dataclass
class Bounded:
    gym: Gym
    base_url: str
    env: Any


@pytest.fixture
def bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bounded]:
    """A server of its own on a gym of its own, started with the bound set, as `serve` would be:
    every connection it opens has it (the session's gym keeps connections made before)."""
    monkeypatch.setenv("OFFICEGYM_ENV_MAX_MB", "4")  # the small company's file is ~2.7 MB
    own = Gym(envs_dir=tmp_path / "envs", db_url="sqlite:")
    server, base_url = start_uvicorn(create_agent_app(own), "bounded agent app")
    try:
        yield Bounded(own, base_url, own.create(task="chat/post-in-channel-v1", seed=0, variant=0))
    finally:
        server.should_exit = True
        own.store.purge()


def test_a_full_env_refuses_writes_in_the_products_shape_and_stays_usable(bounded: Bounded) -> None:
    gym, env = bounded.gym, bounded.env
    slack = WebClient(token="xoxb-test", base_url=f"{bounded.base_url}/envs/{env.id}/api/chat/", timeout=10)
    general = next(c["id"] for c in slack.conversations_list(limit=200)["channels"] if c["is_general"])
    posted = []
    with pytest.raises(SlackApiError) as full:
        for _ in range(200):
            posted.append(slack.chat_postMessage(channel=general, text=BIG)["ts"])
    assert 5 < len(posted) < 200
    assert full.value.response["error"] == "storage_limit_exceeded"
    assert "4 MB" in str(full.value.response.data) and "nothing was changed" in str(full.value.response.data)
    assert len(gym.events(env.id)) == len(posted), "the refused post is not logged: each accepted one is"

    history = slack.conversations_history(channel=general, limit=5)["messages"]
    assert history[0]["ts"] == posted[-1], "the refused post is not there; the ones before are"
    for size in (2_000, 100, 1):  # to the last page: not even a small row fits now
        with pytest.raises(SlackApiError):
            for _ in range(10_000):
                slack.chat_postMessage(channel=general, text="y" * size)

    async def via_mcp() -> tuple[Any, Any]:
        async with Client(f"{bounded.base_url}/envs/{env.id}/mcp/chat") as client:
            read = await client.call_tool("slack_get_channel_history", {"channel_id": general, "limit": 2})
            return read, await client.call_tool("slack_post_message", {"channel_id": general, "text": BIG})
    read, refused = asyncio.run(via_mcp())
    assert not read.is_error, "reads go on in a full env"
    assert refused.is_error and "storage_limit_exceeded" in refused.content[0].text
    # The read's log row waits for room; grading and the log still answer meanwhile.
    assert gym.grade(env.id)["reward"] < 1.0, "a full env is still graded"
    assert gym.events(env.id)[-1]["tool"] != "slack_get_channel_history"

    other = gym.create()
    try:
        other_slack = WebClient(token="xoxb-test", base_url=f"{bounded.base_url}/envs/{other.id}/api/chat/", timeout=10)
        assert other_slack.chat_postMessage(channel=general, text="still fine")["ok"] is True
    finally:
        gym.delete(other.id)
