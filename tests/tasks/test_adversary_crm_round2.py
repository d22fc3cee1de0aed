"""The crm free-text graders attacked again: a subject that names one word of every other
likely topic is a list of them; a hedge moved into a task's description, a note on the deal,
an event with the contact or a comment on the case is still a hedge. And natural correct
wording passes: the customer's or contact's name, a verb like "discussed", a word that happens
to belong to one other topic, a closing comment that repeats the resolution."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rollouts import Rollout

from graders.rubric import PASS_LINE
from officegym.gym import Gym
from tasks.common.phrases import claims, content_words
from tasks.crm.close_case import RESOLUTIONS
from tasks.crm.follow_up import TODOS
from tasks.crm.log_call import TOPICS

LOG_CALL, FOLLOW_UP, CLOSE_CASE = "crm/log-call-v1", "crm/assign-follow-up-v1", "crm/close-case-v1"


def dml(r: Rollout, operation: str, obj: str, *records: dict[str, Any]) -> str:
    text = str(r.call("salesforce_dml_records", operation=operation, objectName=obj, records=list(records)))
    assert "- Failed: 0" in text, text
    return text


def short(phrase: str) -> str:
    return " ".join(w for w in phrase.split() if w.lower() not in ("the", "for"))


def one_word_of_each_other(candidates: tuple[str, ...], asked: str, last: bool = False) -> list[str]:
    """The stuffer's words: the first (or last) word of every other candidate that the asked one lacks."""
    mine = content_words(asked)
    picked = []
    for candidate in candidates:
        if candidate != asked:
            written = [w.strip(";,") for w in candidate.split() if content_words(w) and not content_words(w) & mine]
            picked.append(written[-1] if last else written[0])
    return picked


# -- the rule itself --------------------------------------------------------------------------
@pytest.mark.parametrize("asked", TOPICS)
@pytest.mark.parametrize("last", [False, True])
def test_one_word_of_every_other_topic_claims_them_all(asked: str, last: bool) -> None:
    stuffed = f"Call about {short(asked)}, " + ", ".join(one_word_of_each_other(TOPICS, asked, last))
    assert claims(stuffed, TOPICS, asked) == set(TOPICS)


@pytest.mark.parametrize(("text", "asked"), [
    ("Discussed rollout timeline ahead of the renewal", TOPICS[2]),  # one word of one other topic
    ("Seat expansion call with Dana Reed, CTO", TOPICS[3]),
    ("Send Acme the renewal quote and set up a review", TODOS[0]),
    ("Raised the API rate limit for their workspace; customer confirmed", RESOLUTIONS[1]),
])
def test_one_stray_word_of_one_other_candidate_claims_nothing_more(text: str, asked: str) -> None:
    candidates = next(c for c in (TOPICS, TODOS, RESOLUTIONS) if asked in c)
    assert claims(text, candidates, asked) == {asked}


def test_words_the_task_itself_names_never_count_for_another_candidate() -> None:
    """A deal called "Security & Compliance Add-on" with a renewal: its words are the task's, not a hedge."""
    subject = "Seat expansion call — Security & Compliance Add-on renewal"
    assert claims(subject, TOPICS, TOPICS[3]) == {TOPICS[0], TOPICS[1], TOPICS[3]}  # read bare, it names two others
    assert claims(subject, TOPICS, TOPICS[3], given="Houston-Hurst — Security & Compliance Add-on Renewal") == {TOPICS[3]}
    # with "security" the task's own word, "questionnaire" alone is what is left of that topic: it names it
    assert TOPICS[1] in claims("Seat expansion; questionnaire", TOPICS, TOPICS[3], given="Security & Compliance Add-on")


# -- graded for real, small and large companies -----------------------------------------------
@pytest.fixture
def sized(gym: Gym) -> Iterator[Callable[[str, str, int], Rollout]]:
    made: list[Rollout] = []

    def make(task: str, size: str, seed: int) -> Rollout:
        r = Rollout.__new__(Rollout)
        r.gym, r.env = gym, gym.create(task, seed=seed, size=size)
        r.task, r.facts = r.env.task, r.env.task.facts
        made.append(r)
        return r

    yield make
    for r in made:
        gym.delete(r.env.id)


def soql(r: Rollout, query: str) -> list[dict[str, Any]]:
    return r.call("salesforce_run_soql", query=query)["records"]


def judged(r: Rollout, subject: str, description: str | None = None) -> dict[str, Any]:
    """Grade one free-text answer in this env, then take it back (a row added and deleted leaves no trace)."""
    f = r.facts
    if r.task is not None and "case" in f:
        dml(r, "update", "Case", {"Id": f["case"], "Status": "Closed", "Resolution__c": subject})
        if description:
            dml(r, "insert", "CaseComment", {"ParentId": f["case"], "CommentBody": description})
        grade = r.grade()
        made = soql(r, f"SELECT Id FROM CaseComment WHERE ParentId = '{f['case']}'") if description else []
        if made:
            dml(r, "delete", "CaseComment", *({"Id": c["Id"]} for c in made))
        return grade
    if "contact" in f:
        record = {"Subject": subject, "Status": "Completed", "WhatId": f["opportunity"], "WhoId": f["contact"], "Description": description}
    else:
        record = {"Subject": subject, "WhatId": f["account"], "OwnerId": f["owner"], "ActivityDate": f["due"], "Priority": "High",
                  "Description": description}
    text = dml(r, "insert", "Task", record)
    grade = r.grade()
    dml(r, "delete", "Task", {"Id": text.split("Id: ", 1)[1].split()[0]} if "Id: " in text else
        soql(r, "SELECT Id FROM Task ORDER BY CreatedDate DESC LIMIT 1")[0])
    return grade


def phrasings(task: str, r: Rollout) -> tuple[list[tuple[str, str | None]], list[tuple[str, str | None]]]:
    """Natural correct wordings, and stuffed ones, for this instance."""
    f = r.facts
    if task == LOG_CALL:
        (c,) = soql(r, f"SELECT Name, Title FROM Contact WHERE Id = '{f['contact']}'")
        (o,) = soql(r, f"SELECT Name FROM Opportunity WHERE Id = '{f['opportunity']}'")
        asked, candidates, s = f["topic"], TOPICS, short(f["topic"])
        good = [f"Call re {s}", f"Discussed {s} with {c['Name']}", f"{o['Name']}: call on {s}",
                f"Spoke with {c['Name']} ({c['Title']}) on {s}; next steps agreed"]
    elif task == FOLLOW_UP:
        (a,) = soql(r, f"SELECT Name FROM Account WHERE Id = '{f['account']}'")
        asked, candidates, s = f["todo"], TODOS, short(f["todo"])
        good = [f"Follow-up: {asked}", f"Reminder — {s} ({a['Name']})", f"{s.capitalize()} by {f['due']}"]
    else:
        (k,) = soql(r, f"SELECT Subject FROM Case WHERE Id = '{f['case']}'")
        asked, candidates = f["resolution"], RESOLUTIONS
        good = [f"{asked}.", f"{k['Subject']}: {asked}", f"Resolved — {asked}. Customer confirmed."]
    others = [c for c in candidates if c != asked]
    good_pairs = [(g, None) for g in good] + [(good[0], f"Notes: {asked}.")]
    bad = [(f"{asked}; " + ", ".join(one_word_of_each_other(candidates, asked, last)), None) for last in (False, True)]
    bad += [(good[0], "Also possibly: " + "; ".join(others)), (good[0], ", ".join(one_word_of_each_other(candidates, asked, True)))]
    return good_pairs, bad


@pytest.mark.parametrize(("size", "seed"), [("small", 0), ("large", 3)])
@pytest.mark.parametrize("task", [LOG_CALL, FOLLOW_UP, CLOSE_CASE])
def test_stuffed_fields_fail_and_natural_wording_passes(sized: Callable[[str, str, int], Rollout], task: str, size: str, seed: int) -> None:
    r = sized(task, size, seed)
    good, bad = phrasings(task, r)
    for subject, description in good:
        grade = judged(r, subject, description)
        assert grade["passed"] and grade["reward"] == 1.0, json.dumps([subject, description, grade])
    for subject, description in bad:
        grade = judged(r, subject, description)
        assert not grade["passed"] and grade["reward"] < PASS_LINE, json.dumps([subject, description, grade])


# -- hedges written one record over ------------------------------------------------------------
@pytest.mark.parametrize(("task", "where"), [(LOG_CALL, "Note"), (LOG_CALL, "Event"), (LOG_CALL, "elsewhere"), (FOLLOW_UP, "Note"),
                                           (FOLLOW_UP, "Event"), (CLOSE_CASE, "Task"), (CLOSE_CASE, "Note"), (CLOSE_CASE, "elsewhere")])
def test_a_hedge_written_on_a_record_next_to_the_answer_fails(rollout: Callable[..., Rollout], task: str, where: str) -> None:
    """The right answer, then the other candidates in a note, an event or a task on the same records
    or on an unrelated account: without reading them this scored 0.8 (one stray addition), above
    the pass line."""
    r = rollout(task)
    f = r.facts
    r.run(r.task.oracle)
    assert r.passes()
    asked = f.get("topic") or f.get("todo") or f["resolution"]
    others = "; ".join(c for c in (TOPICS if task == LOG_CALL else TODOS if task == FOLLOW_UP else RESOLUTIONS) if c != asked)
    on = f.get("opportunity") or f.get("account") or f["case"]
    if where == "elsewhere":
        on = soql(r, "SELECT Id FROM Account ORDER BY Name LIMIT 1")[0]["Id"]
    if where in ("Note", "elsewhere"):
        dml(r, "insert", "Note", {"ParentId": on, "Title": "Notes", "Body": f"We may also have to look at {others}"})
    elif where == "Event":
        dml(r, "insert", "Event", {"WhoId": f.get("contact"), "WhatId": on, "Subject": f"Also: {others}",
                                   "StartDateTime": "2026-08-01T10:00:00Z", "DurationInMinutes": 30})
    else:
        dml(r, "insert", "Task", {"WhatId": on, "Subject": f"If that does not hold: {others}"})
    grade = r.grade()
    assert r.fails() and "not the answer" in grade["checks"][0]["detail"], json.dumps(grade)


def test_close_case_with_a_closing_comment_passes_and_a_hedging_comment_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(CLOSE_CASE)
    f = r.facts
    dml(r, "update", "Case", {"Id": f["case"], "Status": "Closed", "Resolution__c": f["resolution"]})
    dml(r, "insert", "CaseComment", {"ParentId": f["case"], "IsPublished": True, "CommentBody": f"Closing: {f['resolution']}."})
    assert r.passes(), json.dumps(r.grade())
    other = next(x for x in RESOLUTIONS if x != f["resolution"])
    dml(r, "insert", "CaseComment", {"ParentId": f["case"], "CommentBody": f"If that does not hold: {other}"})
    grade = r.grade()
    assert r.fails() and "comments, notes and activities" in grade["checks"][0]["detail"], json.dumps(grade)


# -- allowances wider than the task --------------------------------------------------------------
@pytest.mark.parametrize(("kind", "change"), [("Case", {"Priority": "Low"}), ("Task", {"Description": "merged"}),
                                             ("Task", {"Status": "Not Started"})])
def test_merge_that_also_edits_the_moved_history_is_collateral(rollout: Callable[..., Rollout], kind: str, change: dict[str, str]) -> None:
    r = rollout("crm/merge-duplicate-contact-v1")
    r.run(r.task.oracle)
    assert r.passes()
    field = "WhoId" if kind == "Task" else "ContactId"
    (moved, *_) = soql(r, f"SELECT Id FROM {kind} WHERE {field} = '{r.facts['original']}' ORDER BY CreatedDate DESC, Id DESC")
    dml(r, "update", kind, {"Id": moved["Id"], **change})
    grade = r.grade()
    assert not grade["passed"] and [c["table"] for c in grade["collateral"]] == [f"crm_{kind.lower()}"], json.dumps(grade)
