"""Slack's search finds a message by the words of its legacy attachments (their text,
pretext, title, fields, footer and fallback), as Slack's search index holds them: a CI or
alert bot's message whose words live only in its attachment is found. Before, search.messages
and the MCP search tools matched the message's top-level text alone."""

from __future__ import annotations

import pytest
from slack_sdk import WebClient

from officegym.core.api_token import api_token
from officegym.core.env_store import Env

pytestmark = [pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing"),
              pytest.mark.filterwarnings("ignore:Additionally, the attachment-level `fallback`")]

ALERT = {"fallback": "Build 812 failed on main", "color": "#e01e5a", "pretext": "Nightly pipeline", "title": "Zanzibar deploy",
         "text": "Step *integration-tests* exited 2", "fields": [{"title": "Runner", "value": "quokka-7", "short": True}],
         "footer": "buildbot"}


def slack_for(agent_url: str, env: Env) -> WebClient:
    return WebClient(token=api_token(env.id), base_url=f"{agent_url}/envs/{env.id}/api/chat/", timeout=10)


def found(slack: WebClient, query: str) -> list[str]:
    return [m["ts"] for m in slack.search_messages(query=query)["messages"]["matches"]]


def test_search_matches_the_words_of_a_messages_attachments(agent_url: str, env: Env) -> None:
    slack = slack_for(agent_url, env)
    channel = slack.conversations_create(name="ci-alerts")["channel"]["id"]
    alert = slack.chat_postMessage(channel=channel, text="Heads up", attachments=[ALERT])["ts"]
    plain = slack.chat_postMessage(channel=channel, text="Zanzibar deploy went fine")["ts"]
    for words in ("integration-tests", "quokka-7", "Runner", "Nightly pipeline", "buildbot", "Build 812", '"zanzibar deploy"'):
        assert alert in found(slack, words), words
    assert sorted(found(slack, "zanzibar deploy")) == sorted([alert, plain])
    assert found(slack, "heads quokka-7 in:#ci-alerts") == [alert], "words from the text and the attachment together"
    assert found(slack, "zanzibar -quokka-7") == [plain], "an excluded word in an attachment excludes the message"
    assert alert not in found(slack, "e01e5a"), "the attachment's colour is not a word of it"
    assert found(slack, "quokka-7 -heads") == []
    match = slack.search_messages(query="quokka-7")["messages"]["matches"][0]
    assert match["attachments"][0]["fields"] == ALERT["fields"]
