"""How a search reads its page: only the columns the asked-for fields show, the people they name
joined, the count only when the page does not end the matches, and each status, type and
person shaped once per answer. None of it may change an answer: a search shows each issue
exactly as the issue itself shows it, pages add up to the whole, and a write is seen by the
next search in its env and in no other."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from apps.tickets.errors import TicketsError
from apps.tickets.models import Comment, Issue
from officegym.core import clock
from officegym.gym import Gym
from tests.apps.tickets.conftest import Run, runner

OPEN_SUPPORT = "project = SUP AND status != Done ORDER BY created DESC"
FIELD_LISTS = ["summary,status,assignee", "summary,description,status,assignee,reporter,labels,priority,created,updated,issuetype",
               "creator,project,resolution,resolutiondate,duedate,parent,subtasks,issuelinks,customfield_10016,customfield_10050",
               "statuscategorychangedate,fixVersions,components,watches,customfield_10020", "*all"]


@pytest.mark.parametrize("fields", FIELD_LISTS)
@pytest.mark.parametrize("style", ["jira", "simplified"])
def test_a_search_shows_each_issue_as_the_issue_shows_itself(read: Run, fields: str, style: str) -> None:
    for jql in (OPEN_SUPPORT, "parent IS NOT EMPTY ORDER BY key", "issuetype = Epic ORDER BY key"):
        found = read(lambda jira: jira.search_issues(jql=jql, fields=fields, max_results=20, style=style))["issues"]
        assert found, jql
        for shown in found:
            alone = read(lambda jira: jira.get_issue(issue=shown["key"], fields=fields, style=style, comment_limit=None if style == "jira" else 10))
            assert shown == alone, (jql, shown["key"])


def test_people_shown_in_one_answer_are_the_same_people(read: Run) -> None:
    issues = read(lambda jira: jira.search_issues(jql="assignee IS NOT EMPTY ORDER BY assignee", fields="assignee,status", max_results=50))["issues"]
    by_person: dict[str, list[dict[str, Any]]] = {}
    for issue in issues:
        by_person.setdefault(issue["fields"]["assignee"]["accountId"], []).append(issue["fields"]["assignee"])
    assert any(len(shown) > 1 for shown in by_person.values()), "some people are assigned several issues"
    for account, shown in by_person.items():
        assert all(s == shown[0] for s in shown) and shown[0]["self"].endswith(f"accountId={account}")
    issues[0]["fields"]["status"]["name"] = "Tampered"  # an answer is the caller's to keep: the next one is built afresh
    again = read(lambda jira: jira.search_issues(jql="assignee IS NOT EMPTY ORDER BY assignee", fields="assignee,status", max_results=50))["issues"]
    assert again[0]["fields"]["status"]["name"] != "Tampered"


@pytest.mark.parametrize("style", ["jira", "simplified"])
def test_pages_add_up_to_every_match_and_each_tells_the_total(read: Run, style: str) -> None:
    every = read(lambda jira: jira.search_issues(jql=OPEN_SUPPORT, fields="summary", max_results=50, style=style))
    keys = [i["key"] for i in every["issues"]]
    total = read(lambda jira: jira.db.scalar(select(func.count()).select_from(Issue).where(Issue.project_key == "SUP", Issue.status != "Done")))
    assert every["total"] == total == len(keys) > 10
    for size in (1, 4, total, total + 3):
        seen: list[str] = []
        for start in range(0, total + size, size):
            page = read(lambda jira: jira.search_issues(jql=OPEN_SUPPORT, fields="summary", max_results=size, start_at=start, style=style))
            assert page["total"] == total, (size, start)
            seen += [i["key"] for i in page["issues"]]
            if style == "jira":
                assert page["isLast"] == (start + len(page["issues"]) >= total)
                assert ("nextPageToken" in page) == (not page["isLast"])
        assert seen == keys, size
    beyond = read(lambda jira: jira.search_issues(jql=OPEN_SUPPORT, fields="summary", max_results=5, start_at=total + 7, style=style))
    assert beyond["issues"] == [] and beyond["total"] == total
    nothing = read(lambda jira: jira.search_issues(jql='summary ~ "zzqx"', fields="summary", style=style))
    assert nothing["issues"] == [] and nothing["total"] == 0


def test_an_uncounted_search_tells_the_last_page_as_a_counted_one_does(read: Run) -> None:
    """Jira's enhanced search (/search/jql) answers isLast and a nextPageToken, not a total:
    read so, it looks one issue past its page instead of counting every match."""
    total = read(lambda jira: jira.search_issues(jql=OPEN_SUPPORT, fields="summary", max_results=1))["total"]
    for size in (1, 3, total - 1, total, total + 1):
        token, keys = None, []
        while True:
            page = read(lambda jira: jira.search_issues(jql=OPEN_SUPPORT, fields="summary", max_results=size, next_page_token=token, count=False))
            counted = read(lambda jira: jira.search_issues(jql=OPEN_SUPPORT, fields="summary", max_results=size, next_page_token=token))
            assert "total" not in page and page == {k: v for k, v in counted.items() if k != "total"}, (size, token)
            keys += [i["key"] for i in page["issues"]]
            if page["isLast"]:
                break
            token = page["nextPageToken"]
        assert len(keys) == len(set(keys)) == total, size
    nothing = read(lambda jira: jira.search_issues(jql='summary ~ "zzqx"', fields="summary", count=False))
    assert nothing["issues"] == [] and nothing["isLast"] is True and "nextPageToken" not in nothing


def test_a_write_is_seen_by_the_next_search_in_its_env_only(gym: Gym, run: Run) -> None:
    def first(on: Run) -> dict[str, Any]:
        return on(lambda jira: jira.search_issues(jql=OPEN_SUPPORT, fields="summary,assignee,updated", max_results=3))["issues"][0]

    other_env = gym.create()
    try:
        other = runner(gym, other_env)
        before = first(run)
        assert first(other) == before
        someone = run(lambda jira: jira.db.scalar(select(Issue.assignee_id).where(Issue.assignee_id.is_not(None),
                                                                                  Issue.assignee_id != before["fields"]["assignee"]["accountId"])))
        run(lambda jira: jira.assign_issue(issue=before["key"], assignee=someone, style="simplified"))
        after = first(run)
        assert after["key"] == before["key"] and after["fields"]["assignee"]["accountId"] == someone
        assert after["fields"]["assignee"] == run(lambda jira: jira.get_user(account=someone))
        run(lambda jira: jira.add_comment(issue=before["key"], body="Seen by the next search"))
        stamped = first(run)
        newest = run(lambda jira: jira.get_comments(issue=before["key"]))["comments"][-1]
        assert stamped["fields"]["updated"] == newest["created"] > after["fields"]["updated"]
        assert first(other) == before, "the other env's issues did not change"
    finally:
        gym.delete(other_env.id)


def test_a_comment_on_a_missing_issue_writes_nothing(run: Run) -> None:
    def state(jira: Any) -> tuple[int, int, str | None]:
        return (jira.db.scalar(select(func.count()).select_from(Comment)), clock.now_micros(jira.db),
                jira.db.scalar(select(func.max(Issue.updated))))

    before = run(state)
    for missing in ("SUP-9999", "99999", "ari:cloud:jira:x:issue/99999"):
        with pytest.raises(TicketsError, match="Issue does not exist"):
            run(lambda jira: jira.add_comment(issue=missing, body="lost"))
    with pytest.raises(TicketsError, match="can not be empty"):
        run(lambda jira: jira.add_comment(issue="SUP-1", body="   "))
    assert run(state) == before


@pytest.mark.parametrize("fields", [
    {"project": "ENG", "summary": "Retry the export worker", "issue_type": "Task", "parent": "ENG-42", "labels": "exports,retry",
     "components": "Auth", "assignee": "Brett Gilmore"},
    {"project": "ENG", "summary": "Write the retry test", "issue_type": "Subtask", "parent": "ENG-2",
     "fields": {"priority": {"name": "High"}, "customfield_10016": 3, "fixVersions": [{"name": "2026.05"}]}},
    {"project": "SUP", "summary": "Customer cannot export invoices", "issue_type": "Bug", "description": "Steps:\n\n1. export"},
])
def test_a_new_issue_answers_as_it_reads_back(run: Run, fields: dict[str, Any]) -> None:
    """A created issue is shaped without reading what cannot point at it yet (subtasks, links,
    comments, sprints): the answer must still be the issue as a read finds it."""
    made = run(lambda jira: jira.create_issue(**fields, style="simplified"))["issue"]
    assert made == run(lambda jira: jira.get_issue(issue=made["key"], style="simplified"))
    assert made.get("parent", {}).get("key") == fields.get("parent")
