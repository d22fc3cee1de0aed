"""Slack's legacy secondary attachments on chat.postMessage, chat.update and
chat.scheduleMessage, through Slack's own client over HTTP: kept and returned (numbered by
`id`) in history, replies and search, shown under the message in the UI, bounded and checked
as Slack checks them; and an answer given in an attachment is read by the grader as the same
answer given in text. Before, the attachments were answered ok and dropped, so an agent that
answered in an attachment scored 0."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from slack_sdk import WebClient

from officegym.core.api_token import api_token
from officegym.core.env_store import Env
from officegym.gym import Gym

pytestmark = [pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing"),  # leaving it out is the point
              pytest.mark.filterwarnings("ignore:Additionally, the attachment-level `fallback`")]

CARD = {"fallback": "Deal ENG-7 closed", "color": "#36a64f", "pretext": "Weekly wins", "title": "ENG-7",
        "text": "Closed *won* today", "fields": [{"title": "Owner", "value": "Priya", "short": True}]}


def slack_for(agent_url: str, env: Env) -> WebClient:
    return WebClient(token=api_token(env.id), base_url=f"{agent_url}/envs/{env.id}/api/chat/", timeout=10)


def test_attachments_are_kept_and_returned_as_slack_returns_them(agent_url: str, env: Env) -> None:
    slack = slack_for(agent_url, env)
    channel = slack.conversations_create(name="sdk-attachments")["channel"]["id"]
    posted = slack.chat_postMessage(channel=channel, text="See below", attachments=[CARD])
    assert posted["message"]["attachments"] == [{**CARD, "id": 1}]
    history = slack.conversations_history(channel=channel, limit=1)["messages"][0]
    assert history["ts"] == posted["ts"] and history["attachments"] == [{**CARD, "id": 1}]
    reply = slack.chat_postMessage(channel=channel, thread_ts=posted["ts"], attachments=[{"text": "only an attachment"}])
    assert reply["message"]["text"] == ""
    replies = slack.conversations_replies(channel=channel, ts=posted["ts"])["messages"]
    assert replies[1]["attachments"] == [{"text": "only an attachment", "id": 1}]
    found = slack.search_messages(query="See below")["messages"]["matches"]
    assert found and found[0]["attachments"][0]["title"] == "ENG-7"

    slack.chat_update(channel=channel, ts=posted["ts"], text="Edited")  # attachments left out are kept
    assert slack.conversations_history(channel=channel, limit=1)["messages"][0]["attachments"][0]["title"] == "ENG-7"
    slack.chat_update(channel=channel, ts=posted["ts"], text="Edited", attachments=[])  # an empty array removes them
    assert "attachments" not in slack.conversations_history(channel=channel, limit=1)["messages"][0]

    page = httpx.get(f"{agent_url}/envs/{env.id}/chat/c/{channel}/t/{posted['ts']}").text
    assert "only an attachment" in page, "the UI shows an attachment under its message"


@pytest.mark.parametrize(("attachments", "error"), [
    ("[{", "invalid_attachments"),
    ({"text": "not an array"}, "invalid_attachments"),
    ([{"text": 5}], "invalid_attachments"),
    ([{"color": "#fff"}], "invalid_attachments"),
    ([{"text": "x", "fields": [{"title": "a", "value": ["b"]}]}], "invalid_attachments"),
    ([{"text": "x"}] * 101, "too_many_attachments"),
    ([{"text": "x" * 100_001}], "invalid_attachments"),
])
def test_bad_attachments_are_refused_and_nothing_is_posted(agent_url: str, env: Env, gym: Gym, attachments: Any, error: str) -> None:
    api = f"{agent_url}/envs/{env.id}/api/chat"
    channel = httpx.post(f"{api}/conversations.create", data={"name": "bad-attachments"}).json()["channel"]["id"]
    before = gym.changes(env.id)
    raw = attachments if isinstance(attachments, str) else json.dumps(attachments)
    answer = httpx.post(f"{api}/chat.postMessage", data={"channel": channel, "text": "hi", "attachments": raw}).json()
    assert answer["ok"] is False and answer["error"] == error
    assert gym.changes(env.id) == before


def test_a_scheduled_message_posts_its_attachments(agent_url: str, env: Env, gym: Gym) -> None:
    slack = slack_for(agent_url, env)
    channel = slack.conversations_create(name="later")["channel"]["id"]
    now = int(float(slack.chat_postMessage(channel=channel, text="now")["ts"]))
    scheduled = slack.chat_scheduleMessage(channel=channel, post_at=now + 60, text="Later", attachments=[{"text": "Attached later"}])
    assert scheduled["message"]["attachments"] == [{"text": "Attached later", "id": 1}]
    gym.advance_clock(env.id, seconds=120)
    assert slack.conversations_history(channel=channel, limit=1)["messages"][0]["attachments"][0]["text"] == "Attached later"


def answer_face(gym: Gym, agent_url: str) -> tuple[Env, WebClient, dict[str, Any], str]:
    env = gym.create("chat/find-and-answer-v1", seed=0, variant=0)
    slack = slack_for(agent_url, env)
    facts = env.task.facts
    question = slack.conversations_history(channel=facts["dm"], limit=10)["messages"][0]
    return env, slack, facts, question["ts"]


@pytest.mark.parametrize("where", ["text", "fallback", "title", "pretext", "field"])
def test_an_answer_given_in_an_attachment_scores_as_in_text(gym: Gym, agent_url: str, where: str) -> None:
    env, slack, facts, asked = answer_face(gym, agent_url)
    try:
        said = f"That's {facts['ticket']}."
        attachment = {"field": {"fallback": "answer", "fields": [{"title": "Ticket", "value": said}]}}.get(where, {where: said})
        slack.chat_postMessage(channel=facts["dm"], thread_ts=asked, attachments=[attachment])
        grade = gym.grade(env.id)
        assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade, indent=1)
    finally:
        gym.delete(env.id)


def test_a_wrong_answer_in_an_attachment_is_said_too(gym: Gym, agent_url: str) -> None:
    env, slack, facts, asked = answer_face(gym, agent_url)
    try:
        project = facts["ticket"].split("-")[0]
        wrong = f"{project}-{int(facts['ticket'].split('-')[1]) + 1}"
        slack.chat_postMessage(channel=facts["dm"], thread_ts=asked, text=f"That's {facts['ticket']}.",
                               attachments=[{"text": f"or maybe {wrong}"}])
        assert not gym.grade(env.id)["passed"]
    finally:
        gym.delete(env.id)
