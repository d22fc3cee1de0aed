"""The chat graders attacked a seventh time: a time given in two zones.

- punished correct work: the meeting's slot in two zones ("2:30–3:30 PM ET (11:30 AM–12:30 PM
  PT)"), a conversion written without am/pm ("14:30 ET (11:30 PT)"), and zones written as words
  ("2:30 PM Eastern (11:30 AM Pacific)") each read as a second time.
- still gaming: a second zoned time that is not the same moment, offered beside the right one.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from rollouts import Rollout

from tasks.common.answers import parse_time, restated, times

POST = "chat/post-in-channel-v1"


def _post(r: Rollout, text: str) -> None:
    f = r.facts
    r.call("slack_join_channel", channel_id=f["channel"])
    r.call("slack_post_message", channel_id=f["channel"], text=f"{f['customer']}: moved to {f['day']}, {text}")


def _shifted(time: str, hours: int, *, twelve: bool = True) -> str:
    hour, minute = map(int, parse_time(time).split(":"))
    hour = (hour + hours) % 24
    if not twelve:
        return f"{hour:02d}:{minute:02d}"
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


@pytest.mark.parametrize("form", [
    "{t}\u2013{t1} ET ({p}\u2013{p1} PT)",
    "{t} - {t1} ET / {p} - {p1} PT",
    "{T} ET ({P} PT)",
    "{t} Eastern ({p} Pacific time)",
    "{t} ET, that is {c} CT",
])
def test_the_time_in_two_zones_passes(rollout: Callable[..., Rollout], form: str) -> None:
    """Was 0.0 ("names times that are not the answer"): a conversion, or the slot's end, is the same meeting."""
    r = rollout(POST)
    t = r.facts["time"]
    text = form.format(t=t, t1=_shifted(t, 1), p=_shifted(t, -3), p1=_shifted(t, -2), c=_shifted(t, -1),
                       T=_shifted(t, 0, twelve=False), P=_shifted(t, -3, twelve=False).lstrip("0"))
    _post(r, text)
    assert r.passes(), (text, json.dumps(r.grade()))


@pytest.mark.parametrize("form", [
    "{t} ET (or {p} PT)",  # three hours behind would be the same moment; this is two
    "{t} ET, or else {c} CT",  # central is one hour behind: this is an hour later
    "{t} Eastern, maybe {t1} Eastern",
])
def test_a_second_zoned_time_that_is_another_moment_still_fails(rollout: Callable[..., Rollout], form: str) -> None:
    r = rollout(POST)
    t = r.facts["time"]
    text = form.format(t=t, p=_shifted(t, -2), c=_shifted(t, 0), t1=_shifted(t, 1))
    _post(r, text)
    assert r.fails(), (text, json.dumps(r.grade()))


def test_a_range_carries_its_zone_to_its_start() -> None:
    found = times("2:30-3:30 PM ET")
    assert {t.zone for t in found} == {"ET"}
    assert {r for t in restated(found, "14:30") for r in t.readings} == {"14:30"}


def test_a_conversion_is_read_only_next_to_the_asked_time_in_its_own_zone() -> None:
    """Without the asked time written with a zone there is nothing to convert from: another
    zoned time is another time."""
    assert {r for t in restated(times("2:30 PM (11:30 AM PT)"), "14:30") for r in t.readings} == {"14:30", "11:30"}
