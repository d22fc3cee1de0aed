"""Standard fields of Salesforce's activities and records that agents set and read: a Task's
Type (Call, Email, Meeting, Other) and its reminder (IsReminderSet, ReminderDateTime), an
Event's all-day flag, show-as and privacy, addresses and mobile phones. A POST of
{"Type": "Call"} on a Task was a 400 INVALID_FIELD, so correct work was refused."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from officegym.core.env_store import Env

V = "services/data/v62.0"


@pytest.fixture
def api(agent_url: str, env: Env) -> Any:
    with httpx.Client(base_url=f"{agent_url}/envs/{env.id}/api/crm/{V}/", timeout=30) as client:
        yield client


def test_a_task_takes_its_type_and_reminder_through_rest_and_soql(api: Any) -> None:
    created = api.post("sobjects/Task", json={"Subject": "Call about renewal", "Type": "Call", "IsReminderSet": True,
                                              "ReminderDateTime": "2026-09-01T09:00:00.000+0000"})
    assert created.status_code == 201, created.text
    task_id = created.json()["id"]
    record = api.get(f"sobjects/Task/{task_id}").json()
    assert record["Type"] == "Call" and record["IsReminderSet"] is True
    assert record["ReminderDateTime"].startswith("2026-09-01T09:00:00")
    assert api.patch(f"sobjects/Task/{task_id}", json={"Type": "Meeting", "IsReminderSet": False}).status_code == 204
    rows = api.get("query", params={"q": f"SELECT Type, IsReminderSet FROM Task WHERE Id = '{task_id}' AND Type = 'Meeting'"}).json()
    assert rows["totalSize"] == 1 and rows["records"][0]["IsReminderSet"] is False


def test_describe_lists_the_task_type_picklist_and_reminder_fields(api: Any) -> None:
    fields = {f["name"]: f for f in api.get("sobjects/Task/describe").json()["fields"]}
    assert [v["value"] for v in fields["Type"]["picklistValues"]] == ["Call", "Email", "Meeting", "Other"]
    assert fields["IsReminderSet"]["type"] == "boolean" and fields["ReminderDateTime"]["type"] == "datetime"
    assert fields["ReminderDateTime"]["createable"] and fields["ReminderDateTime"]["updateable"]


@pytest.mark.parametrize(("obj", "values"), [
    ("Event", {"Subject": "Offsite", "StartDateTime": "2026-09-02T00:00:00.000+0000", "DurationInMinutes": 1440,
               "IsAllDayEvent": True, "ShowAs": "OutOfOffice", "IsPrivate": True, "IsReminderSet": True,
               "ReminderDateTime": "2026-09-01T15:00:00.000+0000"}),
    ("Account", {"Name": "Addressed Co", "BillingStreet": "1 Main St", "BillingState": "CA", "BillingPostalCode": "94105",
                 "ShippingCity": "Oakland", "AccountNumber": "A-100"}),
    ("Contact", {"LastName": "Reach", "MobilePhone": "+1 555 0100", "MailingState": "NY", "Birthdate": "1990-04-01"}),
    ("Lead", {"LastName": "Prospect", "Company": "Lead Co", "MobilePhone": "+1 555 0101", "State": "TX", "Website": "https://lead.example"}),
])
def test_other_standard_fields_are_accepted(api: Any, obj: str, values: dict[str, Any]) -> None:
    created = api.post(f"sobjects/{obj}", json=values)
    assert created.status_code == 201, created.text
    record = api.get(f"sobjects/{obj}/{created.json()['id']}").json()
    for name, value in values.items():
        if name.endswith("DateTime"):
            assert record[name].startswith(value[:19])
        else:
            assert record[name] == value, name


def test_an_unknown_task_type_field_is_still_refused(api: Any) -> None:
    refused = api.post("sobjects/Task", json={"Subject": "x", "Kind": "Call"})
    assert refused.status_code == 400 and refused.json()[0]["errorCode"] == "INVALID_FIELD"
