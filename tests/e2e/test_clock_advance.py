"""Time passing in a long-running company: the control plane moves an env's clock forward
(`POST /v1/envs/{id}/clock`), and what waits for a time follows — a scheduled Slack message is
posted, a Jira issue falls due — while the clock never moves back."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from officegym.remote import ControlPlane


@pytest.fixture
def company(control: httpx.Client) -> Iterator[str]:
    created = control.post("/v1/envs", json={"task": None, "seed": 0, "size": "small"})
    assert created.status_code == 201, created.text
    env_id = created.json()["env_id"]
    yield env_id
    control.delete(f"/v1/envs/{env_id}")


def env_now(control: httpx.Client, env_id: str) -> datetime:
    response = control.get(f"/v1/envs/{env_id}/clock")
    assert response.status_code == 200, response.text
    return datetime.fromisoformat(response.json()["now"])


def slack(live_server: Any, env_id: str, method: str, **params: Any) -> dict[str, Any]:
    response = httpx.post(f"{live_server.base_url}/envs/{env_id}/api/chat/{method}", json=params, timeout=10)
    body = response.json()
    assert body["ok"] is True, body
    return body


def test_advance_by_seconds_and_to_a_moment(control: httpx.Client, company: str) -> None:
    start = env_now(control, company)
    moved = control.post(f"/v1/envs/{company}/clock", json={"advance_seconds": 3600})
    assert moved.status_code == 200, moved.text
    assert datetime.fromisoformat(moved.json()["before"]) == start
    assert datetime.fromisoformat(moved.json()["now"]) == start + timedelta(hours=1)
    assert moved.json()["advanced_seconds"] == 3600
    assert env_now(control, company) == start + timedelta(hours=1)

    monday = (start + timedelta(days=7)).replace(hour=9, minute=0, second=0, microsecond=0)
    jumped = control.post(f"/v1/envs/{company}/clock", json={"to": monday.isoformat()})
    assert jumped.status_code == 200, jumped.text
    assert env_now(control, company) == monday
    # A time without an offset is UTC.
    later = monday + timedelta(minutes=5)
    assert control.post(f"/v1/envs/{company}/clock", json={"to": later.replace(tzinfo=None).isoformat()}).status_code == 200
    assert env_now(control, company) == later


def test_a_scheduled_message_is_posted_when_its_time_comes(live_server: Any, control: httpx.Client, company: str) -> None:
    channel = next(c for c in slack(live_server, company, "conversations.list", limit=100)["channels"] if c["is_general"])["id"]
    post_at = int((env_now(control, company) + timedelta(hours=2)).timestamp())
    scheduled = slack(live_server, company, "chat.scheduleMessage", channel=channel, text="standup moved to 10:30", post_at=post_at)

    control.post(f"/v1/envs/{company}/clock", json={"advance_seconds": 3600})  # an hour: not yet
    history = slack(live_server, company, "conversations.history", channel=channel, limit=5)["messages"]
    assert "standup moved to 10:30" not in [m.get("text") for m in history]
    waiting = slack(live_server, company, "chat.scheduledMessages.list", channel=channel)["scheduled_messages"]
    assert [m["id"] for m in waiting] == [scheduled["scheduled_message_id"]]

    control.post(f"/v1/envs/{company}/clock", json={"advance_seconds": 2 * 3600})  # past post_at
    history = slack(live_server, company, "conversations.history", channel=channel, limit=5)["messages"]
    posted = [m for m in history if m.get("text") == "standup moved to 10:30"]
    assert len(posted) == 1 and int(float(posted[0]["ts"])) == post_at
    assert slack(live_server, company, "chat.scheduledMessages.list", channel=channel)["scheduled_messages"] == []


def test_an_issue_falls_due(live_server: Any, control: httpx.Client, company: str) -> None:
    base = f"{live_server.base_url}/envs/{company}/api/tickets/rest/api/3"
    due = (env_now(control, company) + timedelta(days=2)).date().isoformat()
    with httpx.Client(timeout=10) as http:
        assert http.put(f"{base}/issue/SUP-1", json={"fields": {"duedate": due}}).status_code == 204

        def overdue() -> list[str]:
            found = http.post(f"{base}/search/jql", json={"jql": "key = SUP-1 AND duedate < now()", "fields": ["duedate"]})
            assert found.status_code == 200, found.text
            return [issue["key"] for issue in found.json()["issues"]]

        assert overdue() == []
        control.post(f"/v1/envs/{company}/clock", json={"advance_seconds": 4 * 86_400})
        assert overdue() == ["SUP-1"]


def test_the_clock_never_moves_back_and_bad_requests_say_why(control: httpx.Client, company: str) -> None:
    start = env_now(control, company)
    back = control.post(f"/v1/envs/{company}/clock", json={"to": (start - timedelta(days=1)).isoformat()})
    assert back.status_code == 409 and "only moves forward" in back.json()["detail"]
    negative = control.post(f"/v1/envs/{company}/clock", json={"advance_seconds": -5})
    assert negative.status_code == 422 and "advance_seconds" in negative.text
    both = control.post(f"/v1/envs/{company}/clock", json={"advance_seconds": 5, "to": start.isoformat()})
    assert both.status_code == 422 and "exactly one" in both.json()["detail"]
    assert control.post(f"/v1/envs/{company}/clock", json={}).status_code == 422
    assert control.post(f"/v1/envs/{company}/clock", json={"to": "next tuesday"}).status_code == 422
    too_late = control.post(f"/v1/envs/{company}/clock", json={"to": "9999-12-31T00:00:00Z"})
    assert too_late.status_code == 409 and "cannot go past" in too_late.json()["detail"]
    assert control.post(f"/v1/envs/{'0' * 32}/clock", json={"advance_seconds": 5}).status_code == 404
    assert env_now(control, company) == start  # nothing moved


def test_the_clock_call_needs_the_token(live_server: Any, company: str) -> None:
    response = httpx.post(f"{live_server.control_url}/v1/envs/{company}/clock", json={"advance_seconds": 60}, timeout=10)
    assert response.status_code == 401


def test_the_python_client_moves_the_clock(live_server: Any, company: str) -> None:
    trainer = ControlPlane(live_server.control_url, live_server.token)
    try:
        start = datetime.fromisoformat(trainer.clock(company))
        trainer.advance_clock(company, seconds=86_400)
        assert datetime.fromisoformat(trainer.clock(company)) == start + timedelta(days=1)
        target = start + timedelta(days=30)
        assert datetime.fromisoformat(trainer.advance_clock(company, to=target.isoformat())["now"]) == target
    finally:
        trainer.close()
