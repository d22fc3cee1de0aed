"""The chat graders attacked where an answer can hide outside a posted message: a hedge written
into a canvas, a scheduled message or a channel topic is said all the same; a lowercase weekday
abbreviation is a day. And correct work in other forms passes: a thread reply also sent to the
channel, a question acknowledged with a reaction before the answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

import pytest
from rollouts import Rollout

ANSWER, POST, THREAD = "chat/find-and-answer-v1", "chat/post-in-channel-v1", "chat/reply-in-thread-v1"


def neighbour(key: str) -> str:
    project, number = key.rsplit("-", 1)
    return f"{project}-{int(number) + 1}"


def now_seconds(r: Rollout) -> int:
    return int(datetime.fromisoformat(r.gym.clock(r.env.id)).timestamp())


@pytest.mark.parametrize("where", ["canvas", "scheduled", "topic"])
def test_a_hedge_written_outside_the_messages_is_said(rollout: Callable[..., Rollout], where: str) -> None:
    r = rollout(ANSWER, toolset=None if where == "topic" else "official")  # Slack's own server has no topic tool
    f = r.facts
    r.call("slack_post_message" if where == "topic" else "slack_send_message", channel_id=f["dm"], text=f"It's {f['ticket']}.")
    assert r.passes()
    hedge = f"or maybe {neighbour(f['ticket'])}"
    if where == "canvas":
        r.call("slack_create_canvas", title="Ticket notes", content=hedge, channel_id=f["dm"])
    elif where == "scheduled":
        r.call("slack_schedule_message", channel_id=f["dm"], post_at=now_seconds(r) + 3 * 86_400, text=hedge)
    else:
        r.call("slack_set_channel_topic", channel_id=f["dm"], topic=hedge)
    grade = r.grade()
    assert r.fails() and "not the answer" in grade["checks"][0]["detail"], json.dumps(grade)


def test_a_lowercase_weekday_abbreviation_is_a_day_so_a_hedge_shows(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    other = "fri" if f["day"] != "Friday" else "mon"
    r.call("slack_post_message", channel_id=f["channel"], text=f"{f['customer']} moved to {f['day']} (or {other}?) at {f['time']}")
    assert r.fails() and "days" in r.grade()["checks"][0]["detail"]


def test_a_thread_reply_also_sent_to_the_channel_is_a_thread_reply(rollout: Callable[..., Rollout]) -> None:
    r = rollout(THREAD, toolset="official")
    f = r.facts
    r.call("slack_send_message", channel_id=f["channel"], thread_ts=f["thread_ts"], reply_broadcast=True, text=f"Main contact: {f['contact']}")
    assert r.passes(), json.dumps(r.grade())


def test_acknowledging_the_question_with_a_reaction_is_no_collateral(rollout: Callable[..., Rollout]) -> None:
    r = rollout(ANSWER)
    f = r.facts
    asked = r.call("slack_get_channel_history", channel_id=f["dm"], limit=1)["messages"][0]["ts"]
    r.call("slack_add_reaction", channel_id=f["dm"], timestamp=asked, reaction="eyes")
    r.run(r.task.oracle)
    assert r.passes(), json.dumps(r.grade())
