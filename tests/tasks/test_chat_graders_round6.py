"""The chat graders attacked a sixth time, each class named by its test:

- punished correct work: a time written 14h30; a meeting's slot ("2:30–3:30 PM") read as a
  second time; a follow-up reply in the thread of your own post (post-in-channel, the thread
  summary) costing a third of the reward as two stray rows.
- still gaming: a second time offered as an alternative, a wrong value in the follow-up reply.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from rollouts import Rollout

from tasks.common.answers import parse_time

POST, SUMMARY = "chat/post-in-channel-v1", "chat/summarise-thread-v1"


def _post(r: Rollout, text: str) -> str:
    f = r.facts
    r.call("slack_join_channel", channel_id=f["channel"])
    return r.call("slack_post_message", channel_id=f["channel"], text=f"{f['customer']}: moved to {text}")["ts"]


@pytest.mark.parametrize("form", ["{day} {h}h{m}", "{day} at {h}.{m}"])
def test_a_time_written_14h30_passes(rollout: Callable[..., Rollout], form: str) -> None:
    """Was 0.0 ("does not name the times"): 14h30, or at 14.30, is how much of Europe writes 2:30 PM."""
    r = rollout(POST, where=lambda f: f["time"].endswith("PM"))
    hour, minute = parse_time(r.facts["time"]).split(":")
    _post(r, form.format(day=r.facts["day"], h=hour, m=minute))
    assert r.passes(), json.dumps(r.grade())


def _hour_later(time: str) -> str:
    clock, half = time.split()
    hour, minute = clock.split(":")
    return f"{int(hour) % 12 + 1}:{minute} {'PM' if hour == '11' else half}"


def test_the_meetings_slot_passes(rollout: Callable[..., Rollout]) -> None:
    """Was 0.0 ("names times that are not the answer"): the end of the slot is when it ends, not another start."""
    r = rollout(POST)
    f = r.facts
    _post(r, f"{f['day']}, {f['time']} \u2013 {_hour_later(f['time'])}")
    assert r.passes(), json.dumps(r.grade())


def test_a_second_time_offered_as_an_alternative_still_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    _post(r, f"{f['day']}, {f['time']} or {_hour_later(f['time'])}")
    assert r.fails(), json.dumps(r.grade())


@pytest.mark.parametrize("task", [POST, SUMMARY])
def test_a_follow_up_reply_under_your_own_post_passes(rollout: Callable[..., Rollout], task: str) -> None:
    """Was 0.64: the reply and its parent becoming a thread were two stray rows."""
    r = rollout(task)
    r.run(r.task.oracle)
    channel = r.facts["channel"] if task == POST else r.facts["target"]
    mine = r.call("slack_get_channel_history", channel_id=channel, limit=1)["messages"][0]["ts"]
    r.call("slack_reply_to_thread", channel_id=channel, thread_ts=mine, text="Same room as usual, ping me with questions.")
    assert r.passes(), json.dumps(r.grade())


def test_a_wrong_day_in_the_follow_up_reply_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    mine = _post(r, f"{f['day']} at {f['time']}")
    other = "Monday" if f["day"] != "Monday" else "Tuesday"
    r.call("slack_reply_to_thread", channel_id=f["channel"], thread_ts=mine, text=f"or {other}, to be confirmed")
    assert r.fails(), json.dumps(r.grade())


def test_a_reply_under_someone_elses_post_is_still_not_the_answer(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    r.run(r.task.oracle)
    history = r.call("slack_get_channel_history", channel_id=f["channel"], limit=20)["messages"]
    theirs = next(m["ts"] for m in history if m.get("user") != history[0]["user"])
    r.call("slack_reply_to_thread", channel_id=f["channel"], thread_ts=theirs, text="Thanks!")
    assert not r.grade()["passed"]


# -- create-channel-and-invite: setting the new channel up ---------------------------------
CHANNEL = "chat/create-channel-and-invite-v1"


def _channel(r: Rollout) -> str:
    made = r.call("slack_list_conversations", types="private_channel", limit=200)["channels"]
    return next(c["id"] for c in made if c["name"] == r.facts["name"])


def test_pinning_the_welcome_in_the_new_channel_passes(rollout: Callable[..., Rollout]) -> None:
    """Was 0.8, not passed: the pin was a stray row, though it sets up the channel the task made."""
    r = rollout(CHANNEL)
    r.run(r.task.oracle)
    channel = _channel(r)
    welcome = r.call("slack_post_message", channel_id=channel, text="Welcome, this is the account channel.")["ts"]
    r.call("slack_pin_message", channel_id=channel, timestamp=welcome)
    assert r.passes(), json.dumps(r.grade())


def test_a_pin_elsewhere_is_still_collateral(rollout: Callable[..., Rollout]) -> None:
    r = rollout(CHANNEL)
    r.run(r.task.oracle)
    r.call("slack_join_channel", channel_id="#random")
    latest = r.call("slack_get_channel_history", channel_id="#random", limit=1)["messages"][0]["ts"]
    r.call("slack_pin_message", channel_id="#random", timestamp=latest)
    assert not r.grade()["passed"]


def test_the_answer_only_in_a_reply_under_your_own_post_fails(rollout: Callable[..., Rollout]) -> None:
    """The reply adds to the post: the post itself must still say what was asked (a normal post, not a thread reply)."""
    r = rollout(POST)
    f = r.facts
    r.call("slack_join_channel", channel_id=f["channel"])
    mine = r.call("slack_post_message", channel_id=f["channel"], text="Schedule change, details in the thread")["ts"]
    r.call("slack_reply_to_thread", channel_id=f["channel"], thread_ts=mine, text=f"{f['customer']}: {f['day']} at {f['time']}")
    assert r.fails(), json.dumps(r.grade())
