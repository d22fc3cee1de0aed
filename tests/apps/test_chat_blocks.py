"""Block Kit in chat.postMessage and chat.update, as Slack honours it: blocks are checked and
stored with the text; a missing text is rendered from the blocks; every read (history,
replies, search) gives the blocks back; bad blocks get Slack's error naming the place.

Driven in process (the service), through Slack's own client over real HTTP (`slack_sdk`,
which sends blocks in a JSON body) and a form post (blocks as a JSON string, as Slack's
form-encoded API takes them), and through MCP.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from apps.chat.blocks import MAX_BLOCKS, render_text
from apps.chat.errors import ChatError
from apps.chat.service import ChatService
from apps.chat.ui_format import shown_text
from officegym.core.env_store import Env
from officegym.gym import Gym

Run = Callable[..., Any]

HEADER = {"type": "header", "text": {"type": "plain_text", "text": "Q3 pipeline review"}}
SECTION = {"type": "section", "text": {"type": "mrkdwn", "text": "*Renewals* are on track"},
           "fields": [{"type": "mrkdwn", "text": "*Owner:* Priya"}, {"type": "plain_text", "text": "Due: Friday"}]}
DIVIDER = {"type": "divider"}
CONTEXT = {"type": "context", "elements": [{"type": "mrkdwn", "text": "Posted by the bot"},
                                           {"type": "image", "image_url": "https://example.com/a.png", "alt_text": "logo"},
                                           {"type": "plain_text", "text": "today"}]}
RICH = {"type": "rich_text", "elements": [
    {"type": "rich_text_section", "elements": [
        {"type": "text", "text": "Hi "}, {"type": "user", "user_id": "U0123ABCDEF"},
        {"type": "text", "text": ", see ", "style": {}}, {"type": "text", "text": "this", "style": {"bold": True}},
        {"type": "text", "text": " & that\n"}]},
    {"type": "rich_text_list", "style": "ordered", "elements": [
        {"type": "rich_text_section", "elements": [{"type": "text", "text": "first"}]},
        {"type": "rich_text_section", "elements": [{"type": "link", "url": "https://example.com", "text": "second"}]}]},
    {"type": "rich_text_quote", "elements": [{"type": "text", "text": "a quote"}]},
]}
MARKDOWN = {"type": "markdown", "text": "**Standard** markdown"}
RENDERED = "\n".join([
    "Q3 pipeline review",
    "*Renewals* are on track\n*Owner:* Priya\nDue: Friday",
    "Posted by the bot today",
    "Hi <@U0123ABCDEF>, see *this* &amp; that\n1. first\n2. <https://example.com|second>\n> a quote",
    "**Standard** markdown",
])


def error_of(run: Run, operation: Callable[[ChatService], Any]) -> ChatError:
    with pytest.raises(ChatError) as caught:
        run(operation)
    return caught.value


def a_channel(run: Run) -> str:
    return run(lambda chat: chat.conversations_create("blocks-lab"))["channel"]["id"]


# -- rendering and storing ------------------------------------------------------------------
def test_text_is_rendered_from_blocks_when_missing(run: Run) -> None:
    channel = a_channel(run)
    blocks = [HEADER, SECTION, DIVIDER, CONTEXT, RICH, MARKDOWN]
    posted = run(lambda chat: chat.chat_post_message(channel, blocks=blocks))
    assert posted["message"]["text"] == RENDERED
    stored = posted["message"]["blocks"]
    assert [b["type"] for b in stored] == [b["type"] for b in blocks]
    assert all(b["block_id"] for b in stored), "Slack gives every block a block_id"
    assert [{k: v for k, v in b.items() if k != "block_id"} for b in stored] == blocks

    history = run(lambda chat: chat.conversations_history(channel, limit=1))["messages"][0]
    assert history["text"] == RENDERED and history["blocks"] == stored


def test_given_text_is_kept_as_the_fallback_and_blocks_stored(run: Run) -> None:
    channel = a_channel(run)
    posted = run(lambda chat: chat.chat_post_message(channel, text="fallback words", blocks=[SECTION]))
    assert posted["message"]["text"] == "fallback words"
    assert posted["message"]["blocks"][0]["text"] == SECTION["text"]


def test_block_ids_are_kept_and_derived_deterministically(gym: Gym, run: Run) -> None:
    channel = a_channel(run)
    mine = {**SECTION, "block_id": "my-block"}
    first = run(lambda chat: chat.chat_post_message(channel, blocks=[mine, HEADER]))["message"]["blocks"]
    assert first[0]["block_id"] == "my-block"
    other = gym.create()
    try:
        with gym.store.session(other) as db:
            chat = ChatService(db)
            again = chat.chat_post_message(chat.conversations_create("blocks-lab")["channel"]["id"], blocks=[mine, HEADER])
        assert again["message"]["blocks"] == first, "same calls, same ids"
    finally:
        gym.delete(other.id)


def test_blocks_as_a_json_string_are_read_as_slack_form_posts_send_them(run: Run) -> None:
    channel = a_channel(run)
    posted = run(lambda chat: chat.chat_post_message(channel, blocks=json.dumps([HEADER])))
    assert posted["message"]["text"] == "Q3 pipeline review"
    assert posted["message"]["blocks"][0]["type"] == "header"


def test_replies_and_search_carry_blocks(run: Run) -> None:
    channel = a_channel(run)
    parent = run(lambda chat: chat.chat_post_message(channel, text="thread root"))["ts"]
    reply = run(lambda chat: chat.chat_post_message(channel, thread_ts=parent, blocks=[{"type": "section", "text": {"type": "mrkdwn", "text": "zebracorn status"}}]))
    replies = run(lambda chat: chat.conversations_replies(channel, parent))["messages"]
    assert replies[1]["ts"] == reply["ts"] and replies[1]["blocks"][0]["type"] == "section"
    found = run(lambda chat: chat.search_messages("zebracorn"))["messages"]["matches"]
    assert [m["ts"] for m in found] == [reply["ts"]]
    assert found[0]["text"] == "zebracorn status" and found[0]["blocks"][0]["text"]["text"] == "zebracorn status"


def test_messages_without_blocks_have_no_blocks_key(run: Run) -> None:
    channel = a_channel(run)
    run(lambda chat: chat.chat_post_message(channel, text="plain"))
    assert "blocks" not in run(lambda chat: chat.conversations_history(channel, limit=1))["messages"][0]


def test_update_with_blocks_keeps_or_removes_them_as_slack_does(run: Run) -> None:
    channel = a_channel(run)
    ts = run(lambda chat: chat.chat_post_message(channel, text="v1"))["ts"]
    updated = run(lambda chat: chat.chat_update(channel, ts, blocks=[HEADER]))
    assert updated["text"] == "Q3 pipeline review" and updated["message"]["blocks"][0]["type"] == "header"
    kept = run(lambda chat: chat.chat_update(channel, ts, text="new fallback"))
    assert kept["message"]["blocks"][0]["type"] == "header", "blocks left out are kept"
    removed = run(lambda chat: chat.chat_update(channel, ts, text="plain again", blocks=[]))
    assert "blocks" not in removed["message"] and removed["text"] == "plain again"
    assert error_of(run, lambda chat: chat.chat_update(channel, ts)).code == "no_text"


# -- errors ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("blocks", "code", "says"), [
    ("not json", "invalid_blocks_format", "not valid JSON"),
    ({"type": "section"}, "invalid_blocks_format", "JSON array"),
    (json.dumps({"type": "section"}), "invalid_blocks_format", "JSON array"),
    (["a string"], "invalid_blocks", "[json-pointer:/blocks/0]"),
    ([{"text": {"type": "mrkdwn", "text": "x"}}], "invalid_blocks", "missing required field: type [json-pointer:/blocks/0]"),
    ([HEADER, {"type": "carousel"}], "invalid_blocks", "unsupported type: carousel"),
    ([{"type": "section"}], "invalid_blocks", "needs text or fields"),
    ([{"type": "section", "text": {"type": "html", "text": "x"}}], "invalid_blocks", "/blocks/0/text/type"),
    ([{"type": "section", "text": {"type": "mrkdwn", "text": ""}}], "invalid_blocks", "more than 0 characters"),
    ([{"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}], "invalid_blocks", "less than 151 characters"),
    ([{"type": "header", "text": {"type": "mrkdwn", "text": "x"}}], "invalid_blocks", "plain_text"),
    ([{"type": "context", "elements": []}], "invalid_blocks", "non-empty array"),
    ([{"type": "image", "image_url": "https://x.y/z.png"}], "invalid_blocks", "missing required field: alt_text"),
    ([{**HEADER, "block_id": "a"}, {**SECTION, "block_id": "a"}], "invalid_blocks", "duplicate block_id"),
    ([DIVIDER] * (MAX_BLOCKS + 1), "invalid_blocks", "no more than 50 items"),
    ([{"type": "section", "text": {"type": "mrkdwn", "text": "x"}, "accessory": {"n": [[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}}], "invalid_blocks_format", "nested deeper"),
    ("[" * 5000 + "]" * 5000, "invalid_blocks_format", "nested deeper"),
    ([{"type": "markdown", "text": "x" * 11_000}] * 10, "msg_blocks_too_long", "at most"),
    ([DIVIDER], "no_text", "no words"),
])
def test_bad_blocks_get_slacks_error_naming_the_problem(run: Run, blocks: Any, code: str, says: str) -> None:
    channel = a_channel(run)
    error = error_of(run, lambda chat: chat.chat_post_message(channel, blocks=blocks))
    assert error.code == code, error.message
    assert says in error.message
    assert run(lambda chat: chat.conversations_history(channel, limit=5))["messages"] == [], "nothing was posted"


def test_no_text_only_when_neither_text_nor_blocks(run: Run) -> None:
    channel = a_channel(run)
    assert error_of(run, lambda chat: chat.chat_post_message(channel)).code == "no_text"
    assert error_of(run, lambda chat: chat.chat_post_message(channel, text="  ", blocks=[])).code == "no_text"
    assert run(lambda chat: chat.chat_post_message(channel, text=" ", blocks=[HEADER]))["message"]["text"] == "Q3 pipeline review"


def test_render_text_skips_blocks_without_words() -> None:
    assert render_text([DIVIDER, {"type": "image", "image_url": "https://x.y/z.png", "alt_text": "z"}]) == ""
    assert render_text(None) == ""


def test_the_ui_shows_what_the_blocks_say() -> None:
    assert shown_text({"text": "fallback", "blocks": [HEADER]}) == "Q3 pipeline review"
    assert shown_text({"text": "plain"}) == "plain"


# -- over HTTP: Slack's own client, a form post, the UI ---------------------------------------
@pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing")  # leaving it out is the point
def test_slack_sdk_posts_blocks_and_reads_them_back(agent_url: str, env: Env) -> None:
    slack = WebClient(token="xoxb-test", base_url=f"{agent_url}/envs/{env.id}/api/chat/", timeout=10)
    channel = slack.conversations_create(name="sdk-blocks")["channel"]["id"]
    posted = slack.chat_postMessage(channel=channel, blocks=[HEADER, SECTION])
    assert posted["message"]["text"] == "Q3 pipeline review\n*Renewals* are on track\n*Owner:* Priya\nDue: Friday"
    history = slack.conversations_history(channel=channel, limit=1)["messages"][0]
    assert history["ts"] == posted["ts"] and [b["type"] for b in history["blocks"]] == ["header", "section"]

    with pytest.raises(SlackApiError) as caught:
        slack.chat_postMessage(channel=channel, blocks=[{"type": "carousel"}])
    assert caught.value.response["error"] == "invalid_blocks"
    assert "[json-pointer:/blocks/0/type]" in caught.value.response["response_metadata"]["messages"][0]

    updated = slack.chat_update(channel=channel, ts=posted["ts"], blocks=[MARKDOWN])
    assert updated["text"] == "**Standard** markdown" and updated["message"]["blocks"][0]["type"] == "markdown"


def test_form_posts_send_blocks_as_a_json_string_and_the_ui_shows_them(agent_url: str, env: Env) -> None:
    api = f"{agent_url}/envs/{env.id}/api/chat"
    channel = httpx.post(f"{api}/conversations.create", data={"name": "form-blocks"}).json()["channel"]["id"]
    body = httpx.post(f"{api}/chat.postMessage", data={"channel": channel, "text": "fallback only", "blocks": json.dumps([HEADER])}).json()
    assert body["ok"] and body["message"]["text"] == "fallback only" and body["message"]["blocks"][0]["type"] == "header"
    bad = httpx.post(f"{api}/chat.postMessage", data={"channel": channel, "blocks": "[{"}).json()
    assert bad == {"ok": False, "error": "invalid_blocks_format", "response_metadata": bad["response_metadata"]}

    page = httpx.get(f"{agent_url}/envs/{env.id}/chat/c/{channel}").text
    assert "Q3 pipeline review" in page, "the UI draws the blocks"


async def test_mcp_tools_send_blocks_and_read_them_back(gym: Gym) -> None:
    official = gym.create(toolset="official")
    try:
        async with gym.mcp_client(official.id, "chat") as client:
            channels = json.loads((await client.call_tool("slack_search_channels", {"query": "general"})).content[0].text)["channels"]
            general = next(c["id"] for c in channels if c["is_general"])
            sent = await client.call_tool("slack_send_message", {"channel_id": general, "blocks": [HEADER, SECTION]})
            assert sent.is_error is False, sent.content
            ts = json.loads(sent.content[0].text)["ts"]
            read = json.loads((await client.call_tool("slack_read_channel", {"channel_id": general, "limit": 1})).content[0].text)
            assert read["messages"][0]["ts"] == ts and read["messages"][0]["text"].startswith("Q3 pipeline review")
            assert [b["type"] for b in read["messages"][0]["blocks"]] == ["header", "section"]
            bad = await client.call_tool("slack_send_message", {"channel_id": general, "blocks": [{"type": "carousel"}]})
            assert bad.is_error is True and json.loads(bad.content[0].text)["error"] == "invalid_blocks"
    finally:
        gym.delete(official.id)


async def test_reference_post_message_stays_exact_and_reads_show_blocks(gym: Gym, env: Env, run: Run) -> None:
    channel = run(lambda chat: chat.conversations_create("ref-blocks"))["channel"]["id"]
    run(lambda chat: chat.chat_post_message(channel, blocks=[HEADER]))
    async with gym.mcp_client(env.id, "chat") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools["slack_post_message"].input_schema["properties"]) == {"channel_id", "text"}
        read = json.loads((await client.call_tool("slack_get_channel_history", {"channel_id": channel, "limit": 1})).content[0].text)
    assert read["messages"][0]["blocks"][0]["type"] == "header"
