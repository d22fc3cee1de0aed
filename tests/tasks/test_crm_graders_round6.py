"""The crm graders attacked a sixth time, each class named by its test:

- punished correct work: a pipeline total written the European way ("1.348.600,00 €"),
  broken down into its deals, or said with a wrong figure ruled out ("not $X"); a note or an
  activity logged on the account of the task's record (a stray row: 0.8, not passed).
- still gaming: a breakdown beside a second total offered as a possibility; figures that add
  up to the total offered as alternatives; a note on an unrelated account stays collateral.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

PIPELINE = "crm/pipeline-question-v1"


def dml(r: Rollout, operation: str, obj: str, *records: dict[str, Any]) -> str:
    text = str(r.call("salesforce_dml_records", operation=operation, objectName=obj, records=list(records)))
    assert "- Failed: 0" in text, text
    return text


def soql(r: Rollout, query: str) -> list[dict[str, Any]]:
    return r.call("salesforce_run_soql", query=query)["records"]


def answer(r: Rollout, text: str) -> None:
    dm = r.call("slack_open_dm", users=r.facts["asker"])["channel"]["id"]
    r.call("slack_post_message", channel_id=dm, text=text)


def european(value: float, cents: bool) -> str:
    return f"{value:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")[: None if cents else -3]


@pytest.mark.parametrize(("form", "size"), [("{dots} €", 1_000_000), ("{dots_cents} EUR", 1_000_000), ("{spaces_cents} $", 1_000_000),
                                            ("{dots} USD", 1_000)])
def test_a_total_written_the_european_way_passes(rollout: Callable[..., Rollout], form: str, size: int) -> None:
    """Was 0.0: "1.348.600" read as 1.348, "267.100 USD" as 267.1, and "1 348 600,00" as three numbers."""
    r = rollout(PIPELINE, where=lambda f: size <= f["total"] < size * 1000 and f["total"] == int(f["total"]))
    total = r.facts["total"]
    answer(r, form.format(dots=european(total, False), dots_cents=european(total, True),
                          spaces_cents=f"{total:,.2f}".replace(",", " ").replace(".", ",")))
    assert r.passes(), json.dumps(r.grade())


def _parts(total: float) -> list[float]:
    first = round(total * 0.4, -3)
    return [first, total - first]


def test_a_total_broken_down_into_its_parts_passes(rollout: Callable[..., Rollout]) -> None:
    """Was 0.0: each part read as a second figure, a hedge. The parts are the rep's own deals:
    the largest, and the rest together."""
    r = rollout(PIPELINE, where=lambda f: f["kind"] == "open")
    f = r.facts
    deals = sorted((d["Amount"] for d in soql(r, f"SELECT Amount FROM Opportunity WHERE OwnerId = '{f['rep']}' AND IsClosed = false "
                                                 "AND Amount != null")), reverse=True)
    if len(deals) < 2:
        pytest.skip("the rep has one open deal")
    a, b = deals[0], sum(deals[1:])
    answer(r, f"${f['total']:,.0f} in total: ${a:,.0f} from the largest deal and ${b:,.0f} from the others.")
    assert r.passes(), json.dumps(r.grade())


def test_parts_that_are_not_its_deals_fail(rollout: Callable[..., Rollout]) -> None:
    """Two figures that add up to the total but are no deals of the rep (nor sums of them) are
    other figures, not a breakdown: the answer names three amounts."""
    r = rollout(PIPELINE)
    total = r.facts["total"]
    a, b = _parts(total)
    answer(r, f"${total:,.0f} in total, from two deals: ${a + 1:,.0f} and ${b - 1:,.0f}.")
    assert r.fails(), json.dumps(r.grade())


@pytest.mark.parametrize("form", ["${total:,.0f} (${a:,.0f} + ${b:,.0f}), or maybe ${more:,.0f}",
                                  "${total:,.0f} or ${a:,.0f} or ${b:,.0f}"])
def test_parts_offered_as_alternatives_or_beside_another_total_fail(rollout: Callable[..., Rollout], form: str) -> None:
    r = rollout(PIPELINE)
    total = r.facts["total"]
    a, b = _parts(total)
    answer(r, form.format(total=total, a=a, b=b, more=total * 1.2))
    assert r.fails(), json.dumps(r.grade())


def test_one_deals_amount_named_beside_the_total_passes(rollout: Callable[..., Rollout]) -> None:
    """Was 0.0: the deal's amount was read as a second figure."""
    r = rollout(PIPELINE, where=lambda f: f["kind"] == "open")
    f = r.facts
    (biggest,) = soql(r, f"SELECT Name, Amount FROM Opportunity WHERE OwnerId = '{f['rep']}' AND IsClosed = false ORDER BY Amount DESC LIMIT 1")
    if biggest["Amount"] == f["total"]:
        pytest.skip("one deal makes the whole total")
    answer(r, f"${f['total']:,.0f}; the largest is {biggest['Name']} at ${biggest['Amount']:,.0f}.")
    assert r.passes(), json.dumps(r.grade())
    answer(r, f"Could be ${f['total'] * 0.9:,.0f} if one slips.")
    assert r.fails(), json.dumps(r.grade())


def test_a_wrong_total_ruled_out_passes(rollout: Callable[..., Rollout]) -> None:
    """Was 0.0: "not $1,483,460" was read as naming $1,483,460 (the ruling-out skipped amounts)."""
    r = rollout(PIPELINE)
    total = r.facts["total"]
    answer(r, f"${total:,.0f}, not ${total * 1.1:,.0f} as the dashboard says.")
    assert r.passes(), json.dumps(r.grade())


# -- a note on the account of the task's record --------------------------------------------
def _account(r: Rollout, task: str) -> str:
    f = r.facts
    if "case" in f:
        return soql(r, f"SELECT AccountId FROM Case WHERE Id = '{f['case']}'")[0]["AccountId"]
    if task == "crm/push-stale-deals-v1":
        return soql(r, f"SELECT AccountId FROM Opportunity WHERE CloseDate = {f['target']} ORDER BY Id LIMIT 1")[0]["AccountId"]
    if "opportunity" in f:
        return soql(r, f"SELECT AccountId FROM Opportunity WHERE Id = '{f['opportunity']}'")[0]["AccountId"]
    return f["account"]


@pytest.mark.parametrize("task", ["crm/advance-opportunity-v1", "crm/build-quote-v1", "crm/close-case-v1", "crm/log-call-v1",
                                  "crm/merge-duplicate-contact-v1", "crm/push-stale-deals-v1"])
def test_a_note_on_the_records_account_is_harmless(rollout: Callable[..., Rollout], task: str) -> None:
    """Was 0.8, not passed: a stray row, where a rep files the same note on the deal, case or contact itself."""
    r = rollout(task)
    r.run(r.task.oracle)
    dml(r, "insert", "Note", {"ParentId": _account(r, task), "Title": "Update", "Body": "Updated the records as discussed."})
    assert r.passes(), json.dumps(r.grade())


def test_a_note_on_an_unrelated_account_is_still_collateral(rollout: Callable[..., Rollout]) -> None:
    r = rollout("crm/close-case-v1")
    r.run(r.task.oracle)
    mine = _account(r, "crm/close-case-v1")
    (other,) = soql(r, f"SELECT Id FROM Account WHERE Id != '{mine}' ORDER BY Name LIMIT 1")
    dml(r, "insert", "Note", {"ParentId": other["Id"], "Title": "Update", "Body": "Updated the records as discussed."})
    grade = r.grade()
    assert not grade["passed"] and [c["table"] for c in grade["collateral"]] == ["crm_note"], json.dumps(grade)


def test_a_hedge_in_a_note_on_the_account_still_fails(rollout: Callable[..., Rollout]) -> None:
    from tasks.crm.close_case import RESOLUTIONS

    r = rollout("crm/close-case-v1")
    r.run(r.task.oracle)
    other = next(x for x in RESOLUTIONS if x != r.facts["resolution"])
    dml(r, "insert", "Note", {"ParentId": _account(r, "crm/close-case-v1"), "Title": "Fix", "Body": f"Or maybe: {other}"})
    assert r.fails(), json.dumps(r.grade())


# -- a record saved with nothing of it changed ----------------------------------------------
def _put_back(r: Rollout, task: str) -> None:
    """A slip on a look-alike record, put back exactly as it was: only its audit stamps moved."""
    if task == "crm/close-case-v1":
        (other,) = soql(r, f"SELECT Id, Status FROM Case WHERE IsClosed = false AND Id != '{r.facts['case']}' LIMIT 1")
        dml(r, "update", "Case", {"Id": other["Id"], "Status": "Closed", "Resolution__c": r.facts["resolution"]})
        dml(r, "update", "Case", {"Id": other["Id"], "Status": other["Status"], "Resolution__c": None})
    else:
        (other,) = soql(r, f"SELECT Id, StageName FROM Opportunity WHERE IsClosed = false AND Id != '{r.facts['opportunity']}' "
                           "AND StageName != 'Negotiation/Review' LIMIT 1")
        dml(r, "update", "Opportunity", {"Id": other["Id"], "StageName": "Negotiation/Review"})
        dml(r, "update", "Opportunity", {"Id": other["Id"], "StageName": other["StageName"]})


@pytest.mark.parametrize("task", ["crm/close-case-v1", "crm/advance-opportunity-v1"])
def test_a_slip_on_another_record_put_back_exactly_passes(rollout: Callable[..., Rollout], task: str) -> None:
    """Was 0.4: the record's content was as it had been, but its audit stamps moved, read as an overwrite."""
    r = rollout(task)
    _put_back(r, task)
    r.run(r.task.oracle)
    assert r.passes(), json.dumps(r.grade())


def test_a_slip_left_half_undone_still_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout("crm/close-case-v1")
    (other,) = soql(r, f"SELECT Id, Status FROM Case WHERE IsClosed = false AND Id != '{r.facts['case']}' LIMIT 1")
    dml(r, "update", "Case", {"Id": other["Id"], "Status": "Closed", "Resolution__c": r.facts["resolution"]})
    dml(r, "update", "Case", {"Id": other["Id"], "Status": other["Status"]})  # the resolution stays written on it
    r.run(r.task.oracle)
    grade = r.grade()
    assert not grade["passed"] and [c["table"] for c in grade["collateral"]] == ["crm_case"], json.dumps(grade)


@pytest.mark.parametrize("task", ["crm/log-call-v1", "crm/assign-follow-up-v1", "crm/reassign-departing-rep-v1", PIPELINE])
def test_a_record_saved_as_it_was_is_harmless(rollout: Callable[..., Rollout], task: str) -> None:
    """Was 0.4: an account saved with its own name (an edit form saved without changes) moved only its stamps."""
    r = rollout(task)
    r.run(r.task.oracle)
    (account,) = soql(r, "SELECT Id, Name FROM Account ORDER BY Name LIMIT 1")
    dml(r, "update", "Account", {"Id": account["Id"], "Name": account["Name"]})
    assert r.passes(), json.dumps(r.grade())
