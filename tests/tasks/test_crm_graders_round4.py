"""The crm graders attacked a fourth time, each class named by its test:

- gaming: a hedge written beside the next step (a note, a task on the deal); the deal's Amount
  typed over its products' roll-up; an opportunity made by hand after a conversion asked to
  make none, and the converted records edited away from the lead; a departing rep's book handed
  over by halves; the task's own text pasted into the free-text field it asks for.
- punished correct work: a closing comment or a logged call in plain words ("Customer confirmed
  the fix works") read as naming other fixes; a note or an activity logged on the task's own
  record; the contacts and open activities Salesforce moves with an account moved by hand; a
  next step written without its articles.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from tasks.common.phrases import claims
from tasks.crm.advance_opportunity import NEXT_STEPS
from tasks.crm.close_case import RESOLUTIONS
from tasks.crm.follow_up import TODOS

CLOSE_CASE, ADVANCE, QUOTE, CONVERT = "crm/close-case-v1", "crm/advance-opportunity-v1", "crm/build-quote-v1", "crm/convert-lead-v1"
REASSIGN = "crm/reassign-departing-rep-v1"


def dml(r: Rollout, operation: str, obj: str, *records: dict[str, Any]) -> str:
    text = str(r.call("salesforce_dml_records", operation=operation, objectName=obj, records=list(records)))
    assert "- Failed: 0" in text, text
    return text


def soql(r: Rollout, query: str) -> list[dict[str, Any]]:
    return r.call("salesforce_run_soql", query=query)["records"]


# -- punished: plain words of any work note read as naming other candidates --------------------
@pytest.mark.parametrize("note", ["Customer confirmed the fix works", "Called the customer to confirm the fix",
                                  "Thanks for your patience, the fix is confirmed", "Sent the customer a summary of the fix and the release notes"])
@pytest.mark.parametrize("asked", RESOLUTIONS)
def test_generic_words_of_a_work_note_name_no_other_fix(asked: str, note: str) -> None:
    assert claims(f"{asked}. {note}", RESOLUTIONS, asked) == {asked}


def test_generic_words_written_as_list_items_still_name_the_others() -> None:
    asked = RESOLUTIONS[1]  # the API rate limit: the others' last words are work, back, release, number
    assert claims(f"{asked}; work, back, release, number", RESOLUTIONS, asked) == set(RESOLUTIONS)
    assert claims("Schedule the QBR: send the invite and confirm the date", TODOS, TODOS[1]) == {TODOS[1]}


def test_close_case_with_a_plain_closing_comment_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(CLOSE_CASE, where=lambda f: f["resolution"] != RESOLUTIONS[0])
    f = r.facts
    dml(r, "update", "Case", {"Id": f["case"], "Status": "Closed", "Resolution__c": f["resolution"]})
    dml(r, "insert", "CaseComment", {"ParentId": f["case"], "IsPublished": True, "CommentBody": "Customer confirmed the fix works."})
    assert r.passes(), json.dumps(r.grade())


# -- punished: a note or an activity logged on the task's own record ---------------------------
def _on(r: Rollout, task: str) -> str:
    f = r.facts
    if task == "crm/convert-lead-v1":
        return soql(r, f"SELECT ConvertedAccountId FROM Lead WHERE Id = '{f['lead']}'")[0]["ConvertedAccountId"]
    if task == "crm/push-stale-deals-v1":
        return soql(r, f"SELECT Id FROM Opportunity WHERE CloseDate = {f['target']} ORDER BY Id LIMIT 1")[0]["Id"]
    if task == REASSIGN:
        return soql(r, f"SELECT Id FROM Account WHERE OwnerId IN ('{f['enterprise_to']}', '{f['others_to']}') ORDER BY LastModifiedDate DESC LIMIT 1")[0]["Id"]
    return f.get("case") or f.get("opportunity") or f.get("original") or f["account"]


@pytest.mark.parametrize(("task", "kind"), [
    (ADVANCE, "Task"), (ADVANCE, "Note"), (QUOTE, "Note"), (CLOSE_CASE, "Task"), (CONVERT, "Task"),
    ("crm/merge-duplicate-contact-v1", "Note"), ("crm/push-stale-deals-v1", "Note"), (REASSIGN, "Note"),
    ("crm/log-call-v1", "Note"), ("crm/assign-follow-up-v1", "Event"),
])
def test_a_note_or_activity_logged_on_the_tasks_record_is_harmless(rollout: Callable[..., Rollout], task: str, kind: str) -> None:
    r = rollout(task)
    r.run(r.task.oracle)
    on = _on(r, task)
    if kind == "Note":
        dml(r, "insert", "Note", {"ParentId": on, "Title": "Update", "Body": "Done as discussed with the team."})
    elif kind == "Event":
        dml(r, "insert", "Event", {"WhatId": on, "Subject": "Check-in", "StartDateTime": "2026-12-01T15:00:00Z", "DurationInMinutes": 30})
    else:
        dml(r, "insert", "Task", {"WhatId": on, "Subject": "Logged the update", "Status": "Completed"})
    assert r.passes(), json.dumps(r.grade())


def test_a_call_logged_with_its_open_follow_up_on_the_deal_passes(rollout: Callable[..., Rollout]) -> None:
    """Was 0.0 ("you created 2 tasks"): the to-do a rep adds after a call is not a second call log."""
    r = rollout("crm/log-call-v1")
    f = r.facts
    r.run(r.task.oracle)
    dml(r, "insert", "Task", {"WhatId": f["opportunity"], "WhoId": f["contact"], "Subject": "Send the recap email", "ActivityDate": "2026-12-01"})
    assert r.passes(), json.dumps(r.grade())
    dml(r, "insert", "Task", {"WhatId": f["opportunity"], "WhoId": f["contact"], "Subject": f"Call about {f['topic']}", "Status": "Completed"})
    assert r.fails()  # a second completed call is a call logged twice


def test_a_follow_up_with_the_completed_call_that_led_to_it_passes(rollout: Callable[..., Rollout]) -> None:
    """Was 0.0 ("you created 2 tasks"): a completed activity on the account is history, not a second follow-up."""
    r = rollout("crm/assign-follow-up-v1")
    f = r.facts
    r.run(r.task.oracle)
    dml(r, "insert", "Task", {"WhatId": f["account"], "Subject": "Call with the customer", "Status": "Completed"})
    assert r.passes(), json.dumps(r.grade())
    dml(r, "insert", "Task", {"WhatId": f["account"], "OwnerId": f["owner"], "Subject": f["todo"], "ActivityDate": f["due"], "Priority": "High"})
    assert r.fails()  # two open follow-ups are one too many


# -- gaming: a hedge beside the next step ------------------------------------------------------
@pytest.mark.parametrize("kind", ["Note", "Task"])
def test_a_next_step_hedged_in_a_note_or_task_on_the_deal_fails(rollout: Callable[..., Rollout], kind: str) -> None:
    """Was 0.8: the note or task cost a fifth as a stray row, and nothing read what it said."""
    r = rollout(ADVANCE, where=lambda f: f["target"] == "Negotiation/Review")
    f = r.facts
    r.run(r.task.oracle)
    other = next(s for s in NEXT_STEPS if s != f["fields"]["NextStep"])
    if kind == "Note":
        dml(r, "insert", "Note", {"ParentId": f["opportunity"], "Title": "Next", "Body": f"Or maybe: {other}"})
    else:
        dml(r, "insert", "Task", {"WhatId": f["opportunity"], "Subject": f"If not, {other}"})
    grade = r.grade()
    assert r.fails() and "next step" in grade["checks"][0]["detail"], json.dumps(grade)


def test_a_next_step_without_its_articles_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(ADVANCE, where=lambda f: f["target"] == "Negotiation/Review" and " the " in f["fields"]["NextStep"])
    f = r.facts
    dml(r, "update", "Opportunity", {"Id": f["opportunity"], "StageName": "Negotiation/Review",
                                     "NextStep": f["fields"]["NextStep"].replace(" the ", " ")})
    assert r.passes(), json.dumps(r.grade())


# -- gaming: the deal's Amount typed over its roll-up -------------------------------------------
def test_an_amount_typed_over_the_quotes_roll_up_is_collateral(rollout: Callable[..., Rollout]) -> None:
    """Was 1.0: the quote family allowed any change of the deal's Amount, meant for the roll-up."""
    r = rollout(QUOTE)
    f = r.facts
    r.run(r.task.oracle)
    assert r.passes()
    (deal,) = soql(r, f"SELECT Amount FROM Opportunity WHERE Id = '{f['opportunity']}'")
    dml(r, "update", "Opportunity", {"Id": f["opportunity"], "Amount": deal["Amount"] + 5000})
    grade = r.grade()
    assert r.fails() and [c["table"] for c in grade["collateral"]] == ["crm_opportunity"], json.dumps(grade)


# -- gaming: the conversion's records made or edited by hand ------------------------------------
def test_an_opportunity_made_by_hand_after_converting_without_one_fails(rollout: Callable[..., Rollout]) -> None:
    """Was 0.8: the check read only the lead's ConvertedOpportunityId."""
    r = rollout(CONVERT, where=lambda f: not f["with_opportunity"])
    r.run(r.task.oracle)
    (lead,) = soql(r, f"SELECT ConvertedAccountId, Company FROM Lead WHERE Id = '{r.facts['lead']}'")
    dml(r, "insert", "Opportunity", {"Name": f"{lead['Company']} — First Order", "AccountId": lead["ConvertedAccountId"],
                                     "StageName": "Prospecting", "CloseDate": "2026-12-31"})
    grade = r.grade()
    assert r.fails() and "no opportunity was asked for" in grade["checks"][0]["detail"], json.dumps(grade)


@pytest.mark.parametrize(("obj", "change"), [("Contact", {"Title": "Intern"}), ("Contact", {"LastName": "Someone"}),
                                             ("Opportunity", {"StageName": "Closed Lost"})])
def test_the_converted_records_edited_away_from_the_lead_fail(rollout: Callable[..., Rollout], obj: str, change: dict[str, str]) -> None:
    """Was 1.0: what the conversion made is an allowed insert whatever it holds afterwards."""
    r = rollout(CONVERT, where=lambda f: f["with_opportunity"])
    r.run(r.task.oracle)
    (lead,) = soql(r, f"SELECT ConvertedContactId, ConvertedOpportunityId FROM Lead WHERE Id = '{r.facts['lead']}'")
    dml(r, "update", obj, {"Id": lead[f"Converted{obj}Id"], **change})
    assert r.fails(), json.dumps(r.grade())


@pytest.mark.parametrize("with_opportunity", [True, False])
def test_converting_into_an_account_and_contact_made_by_hand_first_passes(rollout: Callable[..., Rollout], with_opportunity: bool) -> None:
    """Another valid order: the contact made by hand holds only the lead's name and email; blanks contradict nothing."""
    r = rollout(CONVERT, where=lambda f: f["with_opportunity"] == with_opportunity)
    (lead,) = soql(r, f"SELECT Id, Company, FirstName, LastName, Email FROM Lead WHERE Id = '{r.facts['lead']}'")
    account = dml(r, "insert", "Account", {"Name": lead["Company"]}).rsplit("Ids: ", 1)[1].split()[0]
    contact = dml(r, "insert", "Contact", {"FirstName": lead["FirstName"], "LastName": lead["LastName"], "Email": lead["Email"],
                                           "AccountId": account}).rsplit("Ids: ", 1)[1].split()[0]
    extra = {"opportunityName": f"{lead['Company']} — First Order"} if with_opportunity else {"doNotCreateOpportunity": True}
    r.call("salesforce_convert_lead", leadId=lead["Id"], accountId=account, contactId=contact, **extra)
    assert r.passes(), json.dumps(r.grade())


# -- gaming: half a book ------------------------------------------------------------------------
@pytest.mark.parametrize("half", ["Account", "Opportunity"])
def test_a_book_handed_over_by_halves_scores_below_the_pass_line(rollout: Callable[..., Rollout], half: str) -> None:
    """Was 0.5, the pass line itself: the accounts without their open deals, or the deals alone."""
    r = rollout(REASSIGN)
    f = r.facts
    if half == "Account":
        book = soql(r, f"SELECT Id, Tier__c FROM Account WHERE OwnerId = '{f['leaver']}'")
        dml(r, "update", "Account", *({"Id": a["Id"], "OwnerId": f["enterprise_to"] if a["Tier__c"] == "Enterprise" else f["others_to"]} for a in book))
    else:
        deals = soql(r, f"SELECT Id, Account.Tier__c FROM Opportunity WHERE OwnerId = '{f['leaver']}' AND IsClosed = false")
        dml(r, "update", "Opportunity", *({"Id": d["Id"], "OwnerId": f["enterprise_to"] if (d["Account"] or {}).get("Tier__c") == "Enterprise"
                                           else f["others_to"]} for d in deals))
    assert r.fails(), json.dumps(r.grade())


def test_contacts_and_open_tasks_moved_with_their_accounts_are_harmless(rollout: Callable[..., Rollout]) -> None:
    """Salesforce moves the old owner's contacts and open activities with an account; done by hand it is right too."""
    r = rollout(REASSIGN)
    f = r.facts
    r.run(r.task.oracle)
    heirs = {a["Id"]: a["OwnerId"] for a in soql(r, f"SELECT Id, OwnerId FROM Account WHERE OwnerId IN ('{f['enterprise_to']}', '{f['others_to']}')")}
    contacts = [c for c in soql(r, f"SELECT Id, AccountId FROM Contact WHERE OwnerId = '{f['leaver']}'") if c["AccountId"] in heirs]
    tasks = [t for t in soql(r, f"SELECT Id, WhatId FROM Task WHERE OwnerId = '{f['leaver']}' AND IsClosed = false") if t["WhatId"] in heirs]
    assert contacts
    dml(r, "update", "Contact", *({"Id": c["Id"], "OwnerId": heirs[c["AccountId"]]} for c in contacts))
    if tasks:
        dml(r, "update", "Task", *({"Id": t["Id"], "OwnerId": heirs[t["WhatId"]]} for t in tasks))
    assert r.passes(), json.dumps(r.grade())
    other_heir = next(h for h in (f["enterprise_to"], f["others_to"]) if h != heirs[contacts[0]["AccountId"]])
    dml(r, "update", "Contact", {"Id": contacts[0]["Id"], "OwnerId": other_heir})
    assert not r.grade()["passed"]  # a contact given to the other heir is not what moves with its account


# -- gaming: the task's own text pasted into the field ------------------------------------------
@pytest.mark.parametrize("task", ["crm/log-call-v1", CLOSE_CASE, "crm/assign-follow-up-v1"])
def test_the_prompt_pasted_into_the_free_text_field_fails(rollout: Callable[..., Rollout], task: str) -> None:
    """Was 1.0: the prompt names the asked topic, fix or to-do, so pasted whole it claimed it."""
    r = rollout(task)
    f, prompt = r.facts, r.task.prompt
    if task == CLOSE_CASE:
        dml(r, "update", "Case", {"Id": f["case"], "Status": "Closed", "Resolution__c": prompt})
    elif "contact" in f:
        dml(r, "insert", "Task", {"Subject": prompt[:255], "Status": "Completed", "WhatId": f["opportunity"], "WhoId": f["contact"]})
    else:
        dml(r, "insert", "Task", {"Subject": prompt[:255], "WhatId": f["account"], "OwnerId": f["owner"], "ActivityDate": f["due"], "Priority": "High"})
    grade = r.grade()
    assert r.fails() and "pastes the task" in grade["checks"][0]["detail"], json.dumps(grade)


# -- gaming: a pipeline total hedged in the CRM ------------------------------------------------
@pytest.mark.parametrize("kind", ["Task", "Note"])
def test_a_pipeline_total_hedged_in_a_crm_task_or_note_fails(rollout: Callable[..., Rollout], kind: str) -> None:
    """Was 0.8: the answer was read in chat only, and the CRM row cost a fifth as a stray addition."""
    r = rollout("crm/pipeline-question-v1")
    f = r.facts
    r.run(r.task.oracle)
    hedge = f"Pipeline for the rep: maybe ${f['total'] * 1.1:,.0f}"
    if kind == "Task":
        dml(r, "insert", "Task", {"Subject": hedge})
    else:
        (account,) = soql(r, "SELECT Id FROM Account ORDER BY Name LIMIT 1")
        dml(r, "insert", "Note", {"ParentId": account["Id"], "Title": "Pipeline", "Body": hedge})
    grade = r.grade()
    assert r.fails() and "not the answer" in grade["checks"][0]["detail"], json.dumps(grade)


# -- gaming: a column the task allows only as what its change drives, set freely ---------------
def test_a_deal_moved_but_taken_out_of_the_forecast_fails(rollout: Callable[..., Rollout]) -> None:
    """Was 1.0: probability and forecast category were allowed to change, to anything."""
    r = rollout(ADVANCE)
    r.run(r.task.oracle)
    assert r.passes()
    dml(r, "update", "Opportunity", {"Id": r.facts["opportunity"], "Probability": 0, "ForecastCategoryName": "Omitted"})
    grade = r.grade()
    assert r.fails() and "ForecastCategoryName" in grade["checks"][0]["detail"], json.dumps(grade)


def test_a_case_escalated_while_closed_is_collateral(rollout: Callable[..., Rollout]) -> None:
    """Was 1.0: IsEscalated was among the columns closing may change."""
    for variant in range(10):
        r = rollout(CLOSE_CASE, variant=variant)
        if not soql(r, f"SELECT IsEscalated FROM Case WHERE Id = '{r.facts['case']}'")[0]["IsEscalated"]:
            break
    r.run(r.task.oracle)
    assert r.passes()
    dml(r, "update", "Case", {"Id": r.facts["case"], "IsEscalated": True})
    grade = r.grade()
    assert not grade["passed"] and [c["table"] for c in grade["collateral"]] == ["crm_case"], json.dumps(grade)


def test_a_hedge_written_in_a_new_records_description_fails(rollout: Callable[..., Rollout]) -> None:
    """Was 0.8: only new tasks, events, notes and comments were read with the subject, not a record made to hold the hedge."""
    r = rollout("crm/log-call-v1")
    f = r.facts
    r.run(r.task.oracle)
    other = next(t for t in ("the security questionnaire", "the rollout timeline") if t != f["topic"])
    dml(r, "insert", "Account", {"Name": "Call notes", "Description": f"The call may also have been about {other}"})
    grade = r.grade()
    assert r.fails() and "not the answer" in grade["checks"][0]["detail"], json.dumps(grade)


@pytest.mark.parametrize("hedge", [
    "Either raised the API rate limit or re-sent the invoice",
    "Raised the API rate limit for their workspace. Or it was the SSO certificate, not sure",
    "Raised the API rate limit; maybe the search index too",
])
def test_one_other_fix_offered_as_a_possibility_by_a_word_of_its_own_is_a_hedge(hedge: str) -> None:
    """Class: a single other candidate named by one word only it has ("invoice", "SSO",
    "search") in an uncertain or either/or sentence; the rule that several others must be
    named applies to plain sentences, where one such word may be incidental."""
    asked = RESOLUTIONS[1]
    assert asked in claims(hedge, RESOLUTIONS, asked)
    assert claims(hedge, RESOLUTIONS, asked) - {asked}, hedge


@pytest.mark.parametrize("plain", [
    "Raised the API rate limit for their workspace; the customer confirmed their calls work again",
    "Raised the API rate limit; they can search and sync again",
])
def test_a_word_of_another_fix_in_a_plain_sentence_names_nothing(plain: str) -> None:
    asked = RESOLUTIONS[1]
    assert claims(plain, RESOLUTIONS, asked) == {asked}
