"""The Slack Web API face, driven by Slack's own client library (`slack_sdk.WebClient`) pointed
at an env: if the real client works unchanged, an agent's Slack code works unchanged."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError



@pytest.fixture
def slack(live_server: Any, env_id: str) -> WebClient:
    return WebClient(token="xoxb-test", base_url=f"{live_server.base_url}/envs/{env_id}/api/chat/", timeout=10)


def events(live_server: Any, env_id: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{live_server.control_url}/v1/envs/{env_id}/events", headers={"Authorization": f"Bearer {live_server.token}"}, timeout=10)
    assert response.status_code == 200
    return response.json()["events"]


def a_channel(slack: WebClient) -> dict[str, Any]:
    channels = slack.conversations_list(limit=100)["channels"]
    assert channels
    return next((c for c in channels if c["is_general"]), channels[0])


def test_auth_and_post_read_thread_react(slack: WebClient) -> None:
    me = slack.auth_test()
    assert me["ok"] is True and me["user_id"].startswith("U") and me["team_id"].startswith("T")

    channel = a_channel(slack)["id"]
    posted = slack.chat_postMessage(channel=channel, text="hello from slack_sdk")
    assert posted["ok"] is True and posted["channel"] == channel
    ts = posted["ts"]
    assert posted["message"]["text"] == "hello from slack_sdk" and posted["message"]["user"] == me["user_id"]

    history = slack.conversations_history(channel=channel, limit=5)
    assert history["messages"][0]["ts"] == ts
    assert "has_more" in history and "next_cursor" in history["response_metadata"]

    reply = slack.chat_postMessage(channel=channel, text="threaded", thread_ts=ts)
    assert reply["message"]["thread_ts"] == ts
    replies = slack.conversations_replies(channel=channel, ts=ts)
    assert [m["text"] for m in replies["messages"]] == ["hello from slack_sdk", "threaded"]

    assert slack.reactions_add(channel=channel, timestamp=ts, name="white_check_mark")["ok"] is True
    top = slack.conversations_history(channel=channel, limit=1)["messages"][0]
    assert top["reactions"] == [{"name": "white_check_mark", "users": [me["user_id"]], "count": 1}]
    assert top["reply_count"] == 1

    edited = slack.chat_update(channel=channel, ts=ts, text="hello, edited")
    assert edited["text"] == "hello, edited"
    link = slack.chat_getPermalink(channel=channel, message_ts=ts)["permalink"]
    assert link.startswith("https://") and link.endswith(f"/archives/{channel}/p{ts.replace('.', '')}")


def test_users_list_paginates_with_the_sdk(slack: WebClient) -> None:
    everyone = slack.users_list(limit=1000)["members"]
    assert len(everyone) > 6
    paged: list[str] = []
    pages = 0
    for page in slack.users_list(limit=5):  # the SDK follows response_metadata.next_cursor
        pages += 1
        assert len(page["members"]) <= 5
        paged += [u["id"] for u in page["members"]]
    assert paged == [u["id"] for u in everyone]
    assert pages == -(-len(everyone) // 5)

    person = next(u for u in everyone if u["profile"].get("email") and not u["is_bot"])
    found = slack.users_lookupByEmail(email=person["profile"]["email"])
    assert found["user"]["id"] == person["id"]
    info = slack.users_info(user=person["id"])["user"]
    assert info["real_name"] == person["real_name"] and info["team_id"].startswith("T")


def test_search_create_invite(slack: WebClient) -> None:
    me = slack.auth_test()["user_id"]
    channel = a_channel(slack)["id"]
    ts = slack.chat_postMessage(channel=channel, text="heliotrope budget draft")["ts"]
    found = slack.search_messages(query="heliotrope")
    assert found["messages"]["total"] == 1
    match = found["messages"]["matches"][0]
    assert match["ts"] == ts and match["channel"]["id"] == channel and match["user"] == me
    assert found["messages"]["paging"]["page"] == 1

    created = slack.conversations_create(name="sdk-made")["channel"]
    assert created["name"] == "sdk-made" and created["id"].startswith("C") and created["is_member"] is True
    colleague = next(u["id"] for u in slack.users_list(limit=50)["members"] if u["id"] != me and not u["is_bot"] and not u["deleted"])
    invited = slack.conversations_invite(channel=created["id"], users=[colleague])
    assert invited["channel"]["num_members"] == 2
    assert sorted(slack.conversations_members(channel=created["id"])["members"]) == sorted([me, colleague])
    assert created["id"] in [c["id"] for c in slack.conversations_list(limit=1000)["channels"]]


def test_errors_raise_slack_api_error_with_slack_codes(slack: WebClient) -> None:
    with pytest.raises(SlackApiError) as caught:
        slack.conversations_history(channel="C0000NOPE00")
    assert caught.value.response["error"] == "channel_not_found"
    assert caught.value.response.status_code == 200, "Slack answers errors with HTTP 200 and ok: false"

    channel = a_channel(slack)["id"]
    with pytest.raises(SlackApiError) as caught:
        slack.api_call("chat.postMessage", json={"channel": channel})
    assert caught.value.response["error"] == "no_text", "Slack's own code for a post without text"
    assert "text" in " ".join(caught.value.response["response_metadata"]["messages"])

    with pytest.raises(SlackApiError) as caught:
        slack.api_call("conversations.history", json={"channel": channel, "limit": "many"})
    assert caught.value.response["error"] == "invalid_arguments"
    assert "'limit'" in " ".join(caught.value.response["response_metadata"]["messages"])

    with pytest.raises(SlackApiError) as caught:
        slack.api_call("chat.noSuchMethod", json={})
    assert caught.value.response["error"] == "unknown_method"

    with pytest.raises(SlackApiError) as caught:
        slack.chat_postMessage(channel=channel, text="x" * 40_001)
    assert caught.value.response["error"] == "msg_too_long"

    with pytest.raises(SlackApiError) as caught:
        slack.conversations_create(name="Not Valid")
    assert caught.value.response["error"] == "invalid_name_specials"

    with pytest.raises(SlackApiError) as caught:
        slack.users_list(cursor="not-a-cursor")
    assert caught.value.response["error"] == "invalid_cursor"


def test_form_and_query_arguments_work_like_slack(live_server: Any, env_id: str) -> None:
    base = f"{live_server.base_url}/envs/{env_id}/api/chat"
    channels = httpx.get(f"{base}/conversations.list", params={"limit": 3}, timeout=10).json()
    assert channels["ok"] is True and len(channels["channels"]) <= 3
    channel = channels["channels"][0]["id"]
    posted = httpx.post(f"{base}/chat.postMessage", data={"channel": channel, "text": "form encoded"}, timeout=10)
    assert posted.status_code == 200 and posted.json()["ok"] is True
    bad = httpx.post(f"{base}/chat.postMessage", content=b"{not json", headers={"content-type": "application/json"}, timeout=10)
    assert bad.status_code == 200 and bad.json()["ok"] is False


def test_writes_are_logged_as_rest_reads_are_not(live_server: Any, env_id: str, slack: WebClient) -> None:
    channel = a_channel(slack)["id"]
    slack.conversations_history(channel=channel, limit=2)
    ts = slack.chat_postMessage(channel=channel, text="log me")["ts"]
    slack.users_list(limit=3)
    slack.reactions_add(channel=channel, timestamp=ts, name="eyes")
    with pytest.raises(SlackApiError):
        slack.reactions_add(channel=channel, timestamp=ts, name="eyes")  # already_reacted: a failed write

    logged = events(live_server, env_id)
    assert [(e["face"], e["operation"], e["is_error"]) for e in logged] == [
        ("rest", "chat.postMessage", False),
        ("rest", "reactions.add", False),
        ("rest", "reactions.add", True),
    ]
    assert logged[0]["args"] == {"channel": channel, "text": "log me"}
    assert logged[0]["result"]["ts"] == ts
    assert logged[2]["result"]["error"] == "already_reacted"


def test_unknown_env_is_404(live_server: Any) -> None:
    response = httpx.post(f"{live_server.base_url}/envs/{'0' * 32}/api/chat/auth.test", timeout=10)
    assert response.status_code == 404
    response = httpx.get(f"{live_server.base_url}/envs/not-an-env/api/chat/auth.test", timeout=10)
    assert response.status_code == 404


def test_arguments_of_the_wrong_shape_are_invalid_arguments_never_a_500(live_server: Any, env_id: str) -> None:
    base = f"{live_server.base_url}/envs/{env_id}/api/chat"
    channel = httpx.get(f"{base}/conversations.list", timeout=10).json()["channels"][0]["id"]
    for method, args in (
        ("chat.postMessage", {"channel": [channel], "text": "x"}),
        ("conversations.create", {"name": ["a-list"]}),
        ("conversations.invite", {"channel": channel, "users": [1, 2]}),
    ):
        response = httpx.post(f"{base}/{method}", json=args, timeout=10)
        assert response.status_code == 200, (method, response.status_code)
        assert response.json()["error"] == "invalid_arguments", (method, response.json())
