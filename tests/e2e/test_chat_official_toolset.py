"""Chat's second toolset, shaped like Slack's official hosted MCP server, over real streamable
HTTP with the official MCP SDK client, on an env created through the control plane with
{"toolset": "official"}: exactly its 13 tools, each working, scheduled messages posted when the
env clock reaches them, drafts never in history; envs created without a toolset keep the
reference server's tools."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client
from mcp_types import CallToolResult

OFFICIAL_TOOLS = {
    "slack_search_public", "slack_search_public_and_private", "slack_search_channels", "slack_search_users",
    "slack_read_channel", "slack_read_thread", "slack_read_user_profile", "slack_read_canvas",
    "slack_create_canvas", "slack_update_canvas", "slack_send_message", "slack_send_message_draft", "slack_schedule_message",
}
READS = {name for name in OFFICIAL_TOOLS if name.startswith(("slack_search_", "slack_read_"))}
REFERENCE_TOOLS = {
    "slack_list_channels", "slack_post_message", "slack_reply_to_thread", "slack_add_reaction",
    "slack_get_channel_history", "slack_get_thread_replies", "slack_get_users", "slack_get_user_profile",
}


@pytest.fixture
def official(control: Any) -> Iterator[dict[str, Any]]:
    """An env created as a harness creates one, with Slack's official toolset."""
    response = control.post("/v1/envs", json={"toolset": "official"})
    assert response.status_code == 201, response.text
    created = response.json()
    yield created
    control.delete(f"/v1/envs/{created['env_id']}")


def ok(result: CallToolResult) -> dict[str, Any]:
    assert len(result.content) == 1 and result.content[0].type == "text"
    data = json.loads(result.content[0].text)
    assert result.is_error is False and data["ok"] is True, data
    return data


def failed(result: CallToolResult) -> str:
    assert result.is_error is True, result
    return json.loads(result.content[0].text)["error"]


async def test_the_official_toolset_lists_exactly_its_13_tools(official: dict[str, Any]) -> None:
    assert official["toolset"] == "official"
    for url in (official["urls"]["mcp"]["chat"], official["urls"]["mcp"]["all"]):
        async with Client(url) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
        if url == official["urls"]["mcp"]["chat"]:
            assert set(tools) == OFFICIAL_TOOLS, url
        else:  # `all` also carries the other apps' tools of that toolset, none named like Slack's
            assert {name for name in tools if name.startswith("slack_")} == OFFICIAL_TOOLS, url
            tools = {name: tools[name] for name in OFFICIAL_TOOLS}
        for name, listed in tools.items():
            assert listed.description and listed.input_schema["type"] == "object", name
            assert listed.annotations is not None and listed.annotations.read_only_hint is (name in READS), name
        assert tools["slack_update_canvas"].annotations.destructive_hint is True
        assert tools["slack_send_message"].annotations.destructive_hint is False
        assert set(tools["slack_schedule_message"].input_schema["required"]) == {"channel_id", "post_at"}
        assert {"channel_id", "thread_ts", "text"} <= set(tools["slack_send_message"].input_schema["properties"])
        assert tools["slack_search_users"].input_schema["required"] == ["query"]


async def test_default_envs_keep_the_reference_tools(control: Any) -> None:
    created = control.post("/v1/envs", json={}).json()
    try:
        assert created["toolset"] == "reference"
        async with Client(created["urls"]["mcp"]["chat"]) as client:
            names = {t.name for t in (await client.list_tools()).tools}
        assert REFERENCE_TOOLS <= names and not (names & (OFFICIAL_TOOLS - REFERENCE_TOOLS))
    finally:
        control.delete(f"/v1/envs/{created['env_id']}")


async def test_find_read_and_send(official: dict[str, Any]) -> None:
    async with Client(official["urls"]["mcp"]["chat"]) as client:
        me = ok(await client.call_tool("slack_read_user_profile", {}))["user"]
        assert me["id"].startswith("U") and me["profile"]["real_name"]
        people = ok(await client.call_tool("slack_search_users", {"query": me["real_name"]}))["members"]
        assert me["id"] in [p["id"] for p in people]
        someone = next(p for p in ok(await client.call_tool("slack_search_users", {"query": "a", "limit": 50}))["members"]
                       if p["id"] != me["id"] and not p["is_bot"])
        assert ok(await client.call_tool("slack_read_user_profile", {"user_id": someone["id"]}))["user"]["id"] == someone["id"]

        channels = ok(await client.call_tool("slack_search_channels", {"query": "general"}))["channels"]
        general = next(c["id"] for c in channels if c["is_general"])

        sent = ok(await client.call_tool("slack_send_message", {"channel_id": general, "text": "okapi status: green"}))
        reply = ok(await client.call_tool("slack_send_message", {"channel_id": general, "thread_ts": sent["ts"], "text": "okapi details"}))
        read = ok(await client.call_tool("slack_read_channel", {"channel_id": general, "limit": 5}))["messages"]
        assert read[0]["ts"] == sent["ts"] and read[0]["reply_count"] == 1
        thread = ok(await client.call_tool("slack_read_thread", {"channel_id": general, "thread_ts": sent["ts"]}))["messages"]
        assert [m["ts"] for m in thread] == [sent["ts"], reply["ts"]]

        dm = ok(await client.call_tool("slack_send_message", {"channel_id": someone["id"], "text": "okapi private note"}))
        assert dm["channel"].startswith("D"), "a user ID as channel_id is your DM with them"
        public = ok(await client.call_tool("slack_search_public", {"query": "okapi"}))["messages"]
        private = ok(await client.call_tool("slack_search_public_and_private", {"query": "okapi", "limit": 10}))["messages"]
        assert {m["text"] for m in public["matches"]} == {"okapi status: green", "okapi details"}
        assert {m["text"] for m in private["matches"]} == {"okapi status: green", "okapi details", "okapi private note"}


async def test_canvases(official: dict[str, Any]) -> None:
    async with Client(official["urls"]["mcp"]["chat"]) as client:
        general = next(c["id"] for c in ok(await client.call_tool("slack_search_channels", {"query": "general"}))["channels"] if c["is_general"])
        made = ok(await client.call_tool("slack_create_canvas", {"title": "Runbook", "content": "# Steps\n1. check", "channel_id": general}))
        canvas = made["canvas_id"]
        ok(await client.call_tool("slack_update_canvas", {"canvas_id": canvas, "content": "2. fix", "operation": "insert_at_end"}))
        ok(await client.call_tool("slack_update_canvas", {"canvas_id": canvas, "title": "Runbook v2"}))
        read = ok(await client.call_tool("slack_read_canvas", {"canvas_id": canvas}))
        assert read["content"] == "# Steps\n1. check\n2. fix"
        assert read["file"]["title"] == "Runbook v2" and read["file"]["channels"] == [general]
        assert failed(await client.call_tool("slack_read_canvas", {"canvas_id": "F0000NOPE00"})) == "file_not_found"


async def test_drafts_never_show_in_history(official: dict[str, Any]) -> None:
    async with Client(official["urls"]["mcp"]["chat"]) as client:
        general = next(c["id"] for c in ok(await client.call_tool("slack_search_channels", {"query": "general"}))["channels"] if c["is_general"])
        before = ok(await client.call_tool("slack_read_channel", {"channel_id": general, "limit": 5}))["messages"]
        draft = ok(await client.call_tool("slack_send_message_draft", {"channel_id": general, "text": "pangolin, to review"}))["draft"]
        assert draft["id"].startswith("Dr")
        after = ok(await client.call_tool("slack_read_channel", {"channel_id": general, "limit": 5}))["messages"]
        assert after == before
        assert ok(await client.call_tool("slack_search_public_and_private", {"query": "pangolin"}))["messages"]["total"] == 0
        again = await client.call_tool("slack_send_message_draft", {"channel_id": general, "text": "another"})
        assert failed(again) == "draft_already_exists"


async def test_a_scheduled_message_appears_once_the_clock_passes_post_at(official: dict[str, Any], control: Any) -> None:
    async with Client(official["urls"]["mcp"]["chat"]) as client:
        general = next(c["id"] for c in ok(await client.call_tool("slack_search_channels", {"query": "general"}))["channels"] if c["is_general"])
        sent = ok(await client.call_tool("slack_send_message", {"channel_id": general, "text": "clock check"}))
        now = int(sent["ts"].split(".")[0])  # a post's ts is the env clock when it was written
        assert failed(await client.call_tool("slack_schedule_message", {"channel_id": general, "post_at": now, "text": "x"})) == "time_in_past"
        post_at = now + 12  # beyond the clock step of the scheduling call itself (at most 11 s)
        scheduled = ok(await client.call_tool("slack_schedule_message", {"channel_id": general, "post_at": post_at, "text": "narwhal reminder"}))
        assert scheduled["post_at"] == str(post_at) and scheduled["scheduled_message_id"].startswith("Q")

        for i in range(10):  # each write moves the clock 2–11 s
            written = ok(await client.call_tool("slack_send_message", {"channel_id": general, "text": f"meanwhile {i}"}))
            messages = ok(await client.call_tool("slack_read_channel", {"channel_id": general, "limit": 20}))["messages"]
            due = int(written["ts"].split(".")[0]) >= post_at
            delivered = [m for m in messages if m["text"] == "narwhal reminder"]
            assert bool(delivered) == due, (i, written["ts"], post_at)
            if due:
                break
        else:
            raise AssertionError("the clock never reached post_at")
        assert [m["ts"] for m in delivered] == [f"{post_at:010d}.000000"]
        assert [m["ts"] for m in messages] == sorted((m["ts"] for m in messages), reverse=True), "posted at its time, in ts order"
        assert messages[0]["text"] == f"meanwhile {i}" and messages[1]["text"] == "narwhal reminder"

    logged = control.get(f"/v1/envs/{official['env_id']}/events").json()["events"]
    assert {"slack_schedule_message", "slack_send_message", "slack_read_channel"} <= {e["tool"] for e in logged}
