"""The chat tool server over real streamable HTTP, driven by the official MCP SDK client, as
an agent harness would: tool listing faithful to the Slack reference server, every reference
tool working, clear errors that leave state untouched, 404 for unknown envs, and every call
in the env's trajectory."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp_types import CallToolResult


# The Slack reference server (modelcontextprotocol/servers, src/slack): name → (required, all params)
REFERENCE_TOOLS: dict[str, tuple[set[str], set[str]]] = {
    "slack_list_channels": (set(), {"limit", "cursor"}),
    "slack_post_message": ({"channel_id", "text"}, {"channel_id", "text"}),
    "slack_reply_to_thread": ({"channel_id", "thread_ts", "text"}, {"channel_id", "thread_ts", "text"}),
    "slack_add_reaction": ({"channel_id", "timestamp", "reaction"}, {"channel_id", "timestamp", "reaction"}),
    "slack_get_channel_history": ({"channel_id"}, {"channel_id", "limit"}),
    "slack_get_thread_replies": ({"channel_id", "thread_ts"}, {"channel_id", "thread_ts"}),
    "slack_get_users": (set(), {"cursor", "limit"}),
    "slack_get_user_profile": ({"user_id"}, {"user_id"}),
}
READ_TOOLS = {"slack_list_channels", "slack_get_channel_history", "slack_get_thread_replies", "slack_get_users", "slack_get_user_profile"}


def mcp_url(live_server: Any, env_id: str, app: str = "chat") -> str:
    return f"{live_server.base_url}/envs/{env_id}/mcp/{app}"


def body(result: CallToolResult) -> dict[str, Any]:
    """The Slack JSON in a tool result, which must be exactly one text item."""
    assert len(result.content) == 1, result.content
    item = result.content[0]
    assert item.type == "text"
    return json.loads(item.text)


def ok(result: CallToolResult) -> dict[str, Any]:
    data = body(result)
    assert result.is_error is False, data
    assert data["ok"] is True, data
    return data


def error_text(result: CallToolResult) -> str:
    assert result.is_error is True, result
    return " ".join(getattr(item, "text", "") for item in result.content)


async def first_channel(client: Client) -> str:
    channels = ok(await client.call_tool("slack_list_channels", {"limit": 50}))["channels"]
    assert channels, "the seeded workspace has public channels"
    return channels[0]["id"]


# -- listing -------------------------------------------------------------------------------
async def test_list_tools_matches_the_reference_server(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}

    assert set(REFERENCE_TOOLS) <= set(tools), sorted(set(REFERENCE_TOOLS) - set(tools))
    for name, (required, params) in REFERENCE_TOOLS.items():
        schema = tools[name].input_schema
        assert schema["type"] == "object"
        assert set(schema.get("required", [])) == required, name
        assert set(schema["properties"]) == params, f"{name}: the agent sees exactly the reference arguments"
        for param in params & {"channel_id", "text", "thread_ts", "timestamp", "reaction", "user_id"}:
            assert schema["properties"][param].get("type") == "string", (name, param)
        if "limit" in params:
            assert schema["properties"]["limit"].get("type") in ("integer", "number")
        assert tools[name].description, name
    for name, tool in tools.items():
        assert name.startswith("slack_"), name
        assert tool.annotations is not None and tool.annotations.read_only_hint is not None, name
        assert "ctx" not in tool.input_schema.get("properties", {}), name
    for name in REFERENCE_TOOLS:
        assert tools[name].annotations.read_only_hint is (name in READ_TOOLS), name
    for extra in ("slack_search_messages", "slack_create_channel", "slack_invite_to_channel", "slack_open_dm",
                  "slack_update_message", "slack_delete_message", "slack_remove_reaction", "slack_pin_message"):
        assert extra in tools, extra


# -- every reference tool ------------------------------------------------------------------
async def test_every_reference_tool_over_http(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        listed = ok(await client.call_tool("slack_list_channels", {"limit": 2}))
        assert len(listed["channels"]) <= 2
        assert set(listed["response_metadata"]) == {"next_cursor"}
        channel = listed["channels"][0]
        assert {"id", "name", "is_channel", "is_private", "is_archived", "is_member", "num_members"} <= set(channel)
        assert channel["id"].startswith("C") and channel["is_private"] is False
        if listed["response_metadata"]["next_cursor"]:
            more = ok(await client.call_tool("slack_list_channels", {"limit": 2, "cursor": listed["response_metadata"]["next_cursor"]}))
            assert not {c["id"] for c in more["channels"]} & {c["id"] for c in listed["channels"]}

        posted = ok(await client.call_tool("slack_post_message", {"channel_id": channel["id"], "text": "hello over MCP"}))
        assert posted["channel"] == channel["id"]
        ts = posted["ts"]
        assert len(ts) == 17 and ts[10] == "."
        assert posted["message"]["text"] == "hello over MCP" and posted["message"]["ts"] == ts

        reply = ok(await client.call_tool("slack_reply_to_thread", {"channel_id": channel["id"], "thread_ts": ts, "text": "a reply"}))
        assert reply["message"]["thread_ts"] == ts

        assert ok(await client.call_tool("slack_add_reaction", {"channel_id": channel["id"], "timestamp": ts, "reaction": "thumbsup"})) == {"ok": True}

        history = ok(await client.call_tool("slack_get_channel_history", {"channel_id": channel["id"], "limit": 3}))
        assert len(history["messages"]) <= 3
        top = history["messages"][0]
        assert top["ts"] == ts and top["text"] == "hello over MCP" and top["type"] == "message"
        assert top["reply_count"] == 1 and top["reactions"][0]["name"] == "thumbsup"
        assert history["messages"][0]["user"] == posted["message"]["user"]

        thread = ok(await client.call_tool("slack_get_thread_replies", {"channel_id": channel["id"], "thread_ts": ts}))
        assert [m["text"] for m in thread["messages"]] == ["hello over MCP", "a reply"]

        users = ok(await client.call_tool("slack_get_users", {"limit": 5}))
        assert 0 < len(users["members"]) <= 5 and "next_cursor" in users["response_metadata"]
        member = users["members"][0]
        assert member["id"].startswith("U") and {"name", "real_name", "profile", "is_bot", "deleted"} <= set(member)
        cursor = users["response_metadata"]["next_cursor"]
        assert cursor, "a small company has more than 5 users"
        page2 = ok(await client.call_tool("slack_get_users", {"limit": 5, "cursor": cursor}))
        assert not {u["id"] for u in page2["members"]} & {u["id"] for u in users["members"]}

        profile = ok(await client.call_tool("slack_get_user_profile", {"user_id": member["id"]}))
        assert profile["profile"]["real_name"] == member["real_name"]
        assert {"display_name", "email", "title", "status_text"} <= set(profile["profile"])


async def test_all_endpoint_serves_chat_tools_on_the_same_env(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id, "all")) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert set(REFERENCE_TOOLS) <= names
        channel = await first_channel(client)
        ts = ok(await client.call_tool("slack_post_message", {"channel_id": channel, "text": "via all"}))["ts"]
    async with Client(mcp_url(live_server, env_id)) as client:
        top = ok(await client.call_tool("slack_get_channel_history", {"channel_id": channel, "limit": 1}))["messages"][0]
    assert (top["ts"], top["text"]) == (ts, "via all")


async def test_extra_tools_search_and_dm(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        channel = await first_channel(client)
        ts = ok(await client.call_tool("slack_post_message", {"channel_id": channel, "text": "plumbago quarterly numbers"}))["ts"]
        found = ok(await client.call_tool("slack_search_messages", {"query": "plumbago"}))
        assert [m["ts"] for m in found["messages"]["matches"]] == [ts]
        users = ok(await client.call_tool("slack_get_users", {"limit": 20}))["members"]
        someone = next(u for u in users if not u["is_bot"] and not u["deleted"] and u["id"] != found["messages"]["matches"][0]["user"])
        dm = ok(await client.call_tool("slack_open_dm", {"users": someone["id"]}))["channel"]["id"]
        assert dm.startswith("D")
        assert ok(await client.call_tool("slack_open_dm", {"users": someone["id"]}))["channel"]["id"] == dm
        ok(await client.call_tool("slack_post_message", {"channel_id": dm, "text": "hi there"}))
        created = ok(await client.call_tool("slack_create_channel", {"name": "mcp-made"}))["channel"]
        invited = ok(await client.call_tool("slack_invite_to_channel", {"channel_id": created["id"], "users": someone["id"]}))
        assert invited["channel"]["num_members"] == 2


# -- errors --------------------------------------------------------------------------------
async def test_errors_are_clear_and_change_nothing(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        channel = await first_channel(client)
        ok(await client.call_tool("slack_post_message", {"channel_id": channel, "text": "before the errors"}))

        async def snapshot() -> dict[str, Any]:
            return ok(await client.call_tool("slack_get_channel_history", {"channel_id": channel, "limit": 20}))

        before = await snapshot()

        unknown = await client.call_tool("slack_post_message", {"channel_id": "C0000NOPE00", "text": "hi"})
        data = body(unknown)
        assert unknown.is_error is True
        assert data["ok"] is False and data["error"] == "channel_not_found"
        message = " ".join(data["response_metadata"]["messages"])
        assert "C0000NOPE00" in message and "conversations.list" in message, "says what was wrong and what is accepted"
        assert await snapshot() == before

        missing = await client.call_tool("slack_post_message", {"channel_id": channel})
        assert "text" in error_text(missing)
        assert await snapshot() == before

        wrong_type = await client.call_tool("slack_get_channel_history", {"channel_id": channel, "limit": "lots"})
        assert "limit" in error_text(wrong_type)

        huge = await client.call_tool("slack_post_message", {"channel_id": channel, "text": "x" * 40_001})
        assert huge.is_error is True and body(huge)["error"] == "msg_too_long"
        assert await snapshot() == before

        bad_ts = await client.call_tool("slack_add_reaction", {"channel_id": channel, "timestamp": "yesterday", "reaction": "eyes"})
        assert bad_ts.is_error is True and body(bad_ts)["error"] == "message_not_found"
        assert "1712345678.000100" in " ".join(body(bad_ts)["response_metadata"]["messages"])

        no_user = await client.call_tool("slack_get_user_profile", {"user_id": "U0000NOPE00"})
        assert no_user.is_error is True and body(no_user)["error"] == "user_not_found"

        no_tool = await client.call_tool("slack_no_such_tool", {})
        assert no_tool.is_error is True and "slack_no_such_tool" in error_text(no_tool)

        # The server still answers normally after every kind of error.
        assert await snapshot() == before
        ok(await client.call_tool("slack_post_message", {"channel_id": channel, "text": "after the errors"}))


async def test_unknown_env_is_404_and_the_client_fails_cleanly(live_server: Any, env_id: str) -> None:
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    async with httpx.AsyncClient(base_url=live_server.base_url, timeout=10) as http:
        good = await http.post(f"/envs/{env_id}/mcp/chat", json=initialize, headers=headers)
        assert good.status_code == 200, good.text
        for path in (
            f"/envs/{'0' * 32}/mcp/chat",
            "/envs/not-an-env/mcp/chat",
            f"/envs/{env_id.upper()}/mcp/chat",
            f"/envs/{env_id}/mcp/nosuchapp",
        ):
            response = await http.post(path, json=initialize, headers=headers)
            assert response.status_code == 404, (path, response.status_code, response.text)

    # The client fails cleanly (never a hang), and its error says which part of the URL is wrong.
    for env, app, says in (("0" * 32, "chat", f"no env '{'0' * 32}' on this server"), (env_id, "jira", "no MCP server 'jira'; this env serves: chat, crm")):
        with anyio.fail_after(20):
            with pytest.raises(Exception) as caught:  # noqa: PT011  (the SDK raises it inside task groups)
                async with Client(mcp_url(live_server, env, app)) as client:
                    await client.list_tools()
        error = caught.value
        while isinstance(error, BaseExceptionGroup):
            error = error.exceptions[0]
        assert says in str(error), repr(error)


# -- the trajectory ------------------------------------------------------------------------
async def test_every_call_is_in_the_event_log(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        channel = await first_channel(client)
        posted = ok(await client.call_tool("slack_post_message", {"channel_id": channel, "text": "logged"}))
        await client.call_tool("slack_add_reaction", {"channel_id": channel, "timestamp": posted["ts"], "reaction": "eyes"})
        await client.call_tool("slack_get_channel_history", {"channel_id": "C0000NOPE00"})

    async with httpx.AsyncClient(base_url=live_server.control_url, headers={"Authorization": f"Bearer {live_server.token}"}, timeout=10) as http:
        response = await http.get(f"/v1/envs/{env_id}/events")
    assert response.status_code == 200
    events = response.json()["events"]
    assert [e["tool"] for e in events] == [
        "slack_list_channels", "slack_post_message", "slack_add_reaction", "slack_get_channel_history"
    ]
    assert all(e["face"] == "mcp" and e["app"] == "chat" for e in events)
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)

    post = events[1]
    assert post["args"] == {"channel_id": channel, "text": "logged"}
    assert post["result"]["ts"] == posted["ts"] and post["result"]["message"]["text"] == "logged"
    assert post["is_error"] is False
    # The event is stamped with the env clock: the moment the message was posted.
    at = datetime.fromisoformat(post["at"])
    assert f"{int(at.timestamp()):010d}.{at.microsecond:06d}" == posted["ts"]
    assert events[2]["args"] == {"channel_id": channel, "timestamp": posted["ts"], "reaction": "eyes"}
    failed = events[3]
    assert failed["is_error"] is True and failed["result"]["error"] == "channel_not_found"
    assert [e["at"] for e in events] == sorted(e["at"] for e in events)


async def test_calls_with_invalid_arguments_are_in_the_event_log_too(live_server: Any, env_id: str) -> None:
    async with Client(mcp_url(live_server, env_id)) as client:
        missing = await client.call_tool("slack_post_message", {"channel_id": "#general"})
        assert missing.is_error is True
    async with httpx.AsyncClient(base_url=live_server.control_url, headers={"Authorization": f"Bearer {live_server.token}"}, timeout=10) as http:
        logged = (await http.get(f"/v1/envs/{env_id}/events")).json()["events"]
    assert [(e["tool"], e["is_error"]) for e in logged] == [("slack_post_message", True)]


async def test_a_plain_get_on_an_mcp_url_answers_at_once(live_server: Any, env_id: str) -> None:
    """A stateless server offers no stream to GET: 405 with what the endpoint is, at once (it
    held a curl "is it up?" open, an endless event stream)."""
    async with httpx.AsyncClient(timeout=5) as http:
        for accept in ("*/*", "text/event-stream"):
            answer = await http.get(mcp_url(live_server, env_id), headers={"Accept": accept})
            assert answer.status_code == 405 and "POST JSON-RPC" in answer.json()["detail"], answer.text
            assert answer.headers["allow"] == "POST, DELETE"


async def test_an_env_url_lists_its_apps(live_server: Any, env_id: str) -> None:
    """The env's root (a printed URL trimmed to it) gives its own URLs; an unknown env says so."""
    async with httpx.AsyncClient(base_url=live_server.base_url, timeout=5) as http:
        index = (await http.get(f"/envs/{env_id}/")).json()
        assert index["urls"]["mcp"]["chat"] == mcp_url(live_server, env_id)
        assert index["urls"]["ui"]["sheets"].endswith(f"/envs/{env_id}/sheets/")
        assert (await http.get(index["urls"]["ui"]["crm"])).status_code == 200
        gone = await http.get(f"/envs/{'0' * 32}/")
        assert gone.status_code == 404 and "never created" in gone.json()["detail"]
