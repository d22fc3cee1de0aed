"""A Salesforce Task's IsHighPriority (true when its Priority is High) and CompletedDateTime
(when it was saved closed, cleared when it is opened again), read-only as Salesforce has them:
in describe, SOQL and a record's GET, and a write to either is Salesforce's
INVALID_FIELD_FOR_INSERT_UPDATE. Before, both were unknown fields (INVALID_FIELD) to SOQL and
the REST API. Through simple_salesforce over HTTPS, as a Salesforce integration calls it."""

from __future__ import annotations

from typing import Any

import pytest

from officegym.core.api_token import api_token
from officegym.gym import Gym


@pytest.fixture
def sf(live_server: Any, env_id: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    import requests
    from simple_salesforce import Salesforce

    for variable in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(variable, raising=False)
    session = requests.Session()
    session.verify = live_server.ca_file
    return Salesforce(instance_url=live_server.instance_url, session_id=api_token(env_id), session=session)


def test_describe_shows_both_read_only(sf: Any) -> None:
    fields = {f["name"]: f for f in sf.Task.describe()["fields"]}
    high, done = fields["IsHighPriority"], fields["CompletedDateTime"]
    assert high["type"] == "boolean" and high["label"] == "High Priority"
    assert done["type"] == "datetime" and done["nillable"] is True
    assert not any(f[k] for f in (high, done) for k in ("createable", "updateable"))


def test_priority_and_completion_follow_the_task(sf: Any, gym: Gym, env_id: str) -> None:
    urgent = sf.Task.create({"Subject": "Call the CFO", "Priority": "High"})["id"]
    task = sf.Task.get(urgent)
    assert task["IsHighPriority"] is True and task["CompletedDateTime"] is None and task["IsClosed"] is False
    found = sf.query(f"SELECT Id, IsHighPriority FROM Task WHERE IsHighPriority = true AND Id = '{urgent}'")
    assert found["totalSize"] == 1 and found["records"][0]["IsHighPriority"] is True
    sf.Task.update(urgent, {"Priority": "Normal"})
    assert sf.Task.get(urgent)["IsHighPriority"] is False

    gym.advance_clock(env_id, seconds=3600)
    sf.Task.update(urgent, {"Status": "Completed"})
    closed = sf.Task.get(urgent)
    assert closed["IsClosed"] is True and closed["CompletedDateTime"] is not None
    assert closed["CompletedDateTime"] >= closed["CreatedDate"] and closed["CompletedDateTime"] != closed["CreatedDate"]
    gym.advance_clock(env_id, seconds=3600)
    sf.Task.update(urgent, {"Subject": "Called the CFO"})  # saved again while closed: still when it was closed
    assert sf.Task.get(urgent)["CompletedDateTime"] == closed["CompletedDateTime"]
    rows = sf.query(f"SELECT CompletedDateTime FROM Task WHERE CompletedDateTime != null AND Id = '{urgent}'")["records"]
    assert rows[0]["CompletedDateTime"] == closed["CompletedDateTime"]
    sf.Task.update(urgent, {"Status": "In Progress"})  # opened again: cleared
    assert sf.Task.get(urgent)["CompletedDateTime"] is None

    born_done = sf.Task.create({"Subject": "Logged call", "Status": "Completed"})["id"]
    assert sf.Task.get(born_done)["CompletedDateTime"] is not None, "created closed: completed when created"


@pytest.mark.parametrize("values", [{"IsHighPriority": True}, {"CompletedDateTime": "2026-01-01T00:00:00.000+0000"}])
def test_writing_either_is_salesforces_error(sf: Any, values: dict[str, Any]) -> None:
    from simple_salesforce.exceptions import SalesforceMalformedRequest

    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Task.create({"Subject": "Sneaky", **values})
    assert refused.value.content[0]["errorCode"] == "INVALID_FIELD_FOR_INSERT_UPDATE"
    assert refused.value.content[0]["fields"] == list(values)
    made = sf.Task.create({"Subject": "Plain"})["id"]
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Task.update(made, values)
    assert refused.value.content[0]["errorCode"] == "INVALID_FIELD_FOR_INSERT_UPDATE"
    assert sf.Task.get(made)["IsHighPriority"] is False and sf.Task.get(made)["CompletedDateTime"] is None
