"""The crm graders attacked as a careful adversary would, each attack named by what it tries:
stuffing a free-text field with every likely value, hedging with a second figure, creating
extra records the task's allowances were too wide for, faking a merge's history; and correct
work in other words, through the other toolset, passing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from tasks.crm.close_case import RESOLUTIONS
from tasks.crm.follow_up import TODOS
from tasks.crm.log_call import TOPICS

LOG_CALL, FOLLOW_UP, CLOSE_CASE = "crm/log-call-v1", "crm/assign-follow-up-v1", "crm/close-case-v1"


def dml(r: Rollout, operation: str, obj: str, *records: dict[str, Any]) -> str:
    text = str(r.call("salesforce_dml_records", operation=operation, objectName=obj, records=list(records)))
    assert "- Failed: 0" in text, text
    return text


def without_articles(phrase: str) -> str:
    return " ".join(w for w in phrase.split() if w.lower() not in ("the", "for"))


# -- stuffing a free-text field with every candidate ---------------------------------------
@pytest.mark.parametrize(("subject", "passes"), [
    ("Call about " + ", ".join(TOPICS), False),  # every likely topic: a hedge
    ("Call re {short}", True),  # the topic in other words
    ("{Short} — call with the customer", True),
])
def test_log_call_subject_is_read_as_the_topics_it_claims(rollout: Callable[..., Rollout], subject: str, passes: bool) -> None:
    r = rollout(LOG_CALL)
    f = r.facts
    short = without_articles(f["topic"])
    text = subject.format(short=short, Short=short[0].upper() + short[1:])
    dml(r, "insert", "Task", {"Subject": text, "Status": "Completed", "WhatId": f["opportunity"], "WhoId": f["contact"]})
    assert (r.passes() if passes else r.fails()), json.dumps(r.grade())


@pytest.mark.parametrize(("subject", "passes"), [("; ".join(TODOS), False), ("{short}", True)])
def test_follow_up_subject_is_read_as_the_to_dos_it_claims(rollout: Callable[..., Rollout], subject: str, passes: bool) -> None:
    r = rollout(FOLLOW_UP)
    f = r.facts
    dml(r, "insert", "Task", {"Subject": subject.format(short=without_articles(f["todo"]).capitalize()), "WhatId": f["account"],
                              "OwnerId": f["owner"], "ActivityDate": f["due"], "Priority": "High"})
    assert (r.passes() if passes else r.fails()), json.dumps(r.grade())


def test_close_case_resolution_in_other_words_passes_and_a_stuffed_one_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(CLOSE_CASE, where=lambda f: f["resolution"] == RESOLUTIONS[0])
    case = r.facts["case"]
    dml(r, "update", "Case", {"Id": case, "Status": "Closed", "Resolution__c": "SSO cert reset; confirmed logins working again"})
    assert r.passes(), json.dumps(r.grade())
    dml(r, "update", "Case", {"Id": case, "Resolution__c": "SSO cert reset; confirmed logins working. Also raised the API rate limit for them."})
    assert r.fails() and "not the answer" in r.grade()["checks"][0]["detail"]


# -- a second figure beside the right one ---------------------------------------------------
def test_pipeline_total_hedged_with_bare_numbers_fails_and_a_rounding_beside_it_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout("crm/pipeline-question-v1", where=lambda f: f["total"] >= 1_000_000)  # "$1.35M" is a rounding of it
    total, asker = r.facts["total"], r.facts["asker"]
    r.call("slack_post_message", channel_id=asker, text=f"${total:,.0f}, or possibly {total * 1.1:.0f} or {total * 0.9:.0f}")
    assert r.fails() and "not the answer" in r.grade()["checks"][0]["detail"]

    clean = rollout("crm/pipeline-question-v1", where=lambda f: f["total"] == total)
    clean.call("slack_post_message", channel_id=asker, text=f"About ${total / 1e6:.2f}M — ${total:,.2f} exactly, across 3 deals (Q3 2026).")
    assert clean.passes(), json.dumps(clean.grade())


# -- allowances wider than the task ---------------------------------------------------------
def test_convert_lead_extra_records_named_like_the_lead_are_collateral(rollout: Callable[..., Rollout]) -> None:
    r = rollout("crm/convert-lead-v1", where=lambda f: f["with_opportunity"])
    r.run(r.task.oracle)
    assert r.passes()
    (lead,) = r.call("salesforce_run_soql", query=f"SELECT Company, Email FROM Lead WHERE Id = '{r.facts['lead']}'")["records"]
    dml(r, "insert", "Account", {"Name": lead["Company"]})
    dml(r, "insert", "Contact", {"LastName": "Again", "Email": lead["Email"]})
    grade = r.grade()
    assert not grade["passed"] and {c["table"] for c in grade["collateral"]} == {"crm_account", "crm_contact"}, json.dumps(grade)


# -- faking a merge's history ---------------------------------------------------------------
def test_merge_that_leaves_a_task_behind_and_copies_it_fails(rollout: Callable[..., Rollout]) -> None:
    """One task moved, the other left to go with the duplicate and re-created on the original:
    the copy is not the history."""
    r = rollout("crm/merge-duplicate-contact-v1")
    original, account = r.facts["original"], r.facts["account"]
    query = f"SELECT Id FROM Contact WHERE AccountId = '{account}' AND Id != '{original}' AND Phone = '+1 555 0100'"
    (dup,) = r.call("salesforce_run_soql", query=query)["records"]
    tasks = r.call("salesforce_run_soql", query=f"SELECT Id, Subject FROM Task WHERE WhoId = '{dup['Id']}'")["records"]
    cases = r.call("salesforce_run_soql", query=f"SELECT Id FROM Case WHERE ContactId = '{dup['Id']}'")["records"]
    dml(r, "update", "Task", {"Id": tasks[0]["Id"], "WhoId": original})
    dml(r, "update", "Case", *({"Id": c["Id"], "ContactId": original} for c in cases))
    dml(r, "delete", "Contact", {"Id": dup["Id"]})
    dml(r, "insert", "Task", {"Subject": tasks[1]["Subject"], "WhoId": original, "Status": "Completed"})
    grade = r.grade()
    assert r.fails() and "did not move" in grade["checks"][0]["detail"], json.dumps(grade)


# -- correct work in another form -----------------------------------------------------------
def test_advance_next_step_in_quotes_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout("crm/advance-opportunity-v1", where=lambda f: f["target"] == "Negotiation/Review")
    fields = r.facts["fields"]
    dml(r, "update", "Opportunity", {"Id": r.facts["opportunity"], "StageName": fields["StageName"], "NextStep": f"\"{fields['NextStep']}.\""})
    assert r.passes(), json.dumps(r.grade())


def test_log_call_through_the_official_toolset_passes(rollout: Callable[..., Rollout]) -> None:
    """The Salesforce CLI's MCP server: raw SOQL with run_soql_query, 15-character ids, the DML tool."""
    r = rollout(LOG_CALL, toolset="official")
    f = r.facts
    (opp,) = r.call("run_soql_query", query=f"SELECT Id, Name FROM Opportunity WHERE Id = '{f['opportunity']}'")["records"]
    (who,) = r.call("run_soql_query", query=f"SELECT Id FROM Contact WHERE Id = '{f['contact']}'")["records"]
    dml(r, "insert", "Task", {"Subject": f"Call — {f['topic']}", "Status": "Completed", "TaskSubtype": "Call",
                              "WhatId": opp["Id"][:15], "WhoId": who["Id"][:15]})
    assert r.passes(), json.dumps(r.grade())


@pytest.mark.parametrize(("name", "passes"), [("{company} - First Order", True), ("{company} - Second Order", False)])
def test_convert_lead_opportunity_name_typed_with_a_hyphen_is_the_same_name(rollout: Callable[..., Rollout], name: str, passes: bool) -> None:
    r = rollout("crm/convert-lead-v1", where=lambda f: f["with_opportunity"])
    (lead,) = r.call("salesforce_run_soql", query=f"SELECT Id, Company FROM Lead WHERE Id = '{r.facts['lead']}'")["records"]
    r.call("salesforce_convert_lead", leadId=lead["Id"], opportunityName=name.format(company=lead["Company"]))
    assert (r.passes() if passes else r.fails()), json.dumps(r.grade())


def test_pipeline_question_through_the_official_toolsets_passes(rollout: Callable[..., Rollout]) -> None:
    """Both official servers: the Salesforce CLI's raw SOQL for the total, Slack's own server to
    answer the person by user id, the amount written in thousands."""
    r = rollout("crm/pipeline-question-v1", toolset="official", where=lambda f: f["rep"] is not None)
    (user,) = r.call("run_soql_query", query=f"SELECT Id FROM User WHERE Id = '{r.facts['rep']}'")["records"]
    condition = r.facts["condition"]
    (total,) = r.call("run_soql_query", query=f"SELECT SUM(Amount) total FROM Opportunity WHERE OwnerId = '{user['Id']}' AND {condition}")["records"]
    r.call("slack_send_message", channel_id=r.facts["asker"], text=f"{total['total'] / 1000:g}k in total")
    assert r.passes(), json.dumps(r.grade())
