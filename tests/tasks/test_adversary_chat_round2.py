"""The chat graders attacked again through the way an answer rules a value out: a negation in a
conditional clause ("SUP-14, if not SUP-15") names both as possible, so it is a hedge; a plain
"not SUP-15" still rules the value out and the answer passes."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from rollouts import Rollout

from tasks.common.answers import ticket_keys, without_retracted

ANSWER, POST = "chat/find-and-answer-v1", "chat/post-in-channel-v1"


def neighbour(key: str) -> str:
    project, number = key.rsplit("-", 1)
    return f"{project}-{int(number) + 1}"


@pytest.mark.parametrize(("text", "passes"), [
    ("It's {right}, if not {wrong}.", False),
    ("If it's not {wrong}, it's {right}.", False),
    ("{right}, perhaps not {wrong} after all", False),
    ("It's {right} (not {wrong}).", True),
    ("Not {wrong}: it's {right}.", True),
    ("If you asked me earlier, it is not {wrong} but {right}.", True),  # the "if" is another clause
])
def test_a_conditional_negation_rules_nothing_out(rollout: Callable[..., Rollout], text: str, passes: bool) -> None:
    r = rollout(ANSWER)
    f = r.facts
    r.call("slack_post_message", channel_id=f["dm"], text=text.format(right=f["ticket"], wrong=neighbour(f["ticket"])))
    assert (r.passes() if passes else r.fails()), json.dumps(r.grade())


def test_a_day_hedged_with_if_not_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    other = "Friday" if f["day"] != "Friday" else "Monday"
    r.call("slack_post_message", channel_id=f["channel"], text=f"{f['customer']} moved to {f['day']}, if not {other}, at {f['time']}")
    assert r.fails() and "days" in r.grade()["checks"][0]["detail"], json.dumps(r.grade())


@pytest.mark.parametrize(("text", "left"), [
    ("It's ENG-1, if not ENG-2", {"ENG-1", "ENG-2"}),  # a conditional negation: both are possible
    ("If it's not ENG-2, it's ENG-1", {"ENG-1", "ENG-2"}),
    ("ENG-1, maybe not ENG-2", {"ENG-1", "ENG-2"}),
    ("If you ask me, it is not ENG-2 but ENG-1", {"ENG-1"}),  # the "if" belongs to another clause
])
def test_a_negation_in_a_conditional_clause_rules_nothing_out(text: str, left: set[str]) -> None:
    assert ticket_keys(without_retracted(text), {"ENG"}) == left
