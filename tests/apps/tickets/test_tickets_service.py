"""TicketsService, in-process: the Jira semantics every face relies on — creating and editing
issues, workflow rules, comments, links, epics, watchers, worklogs, sprints — each change in
the changelog, and a failed operation leaving nothing behind."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from apps.tickets.errors import TicketsError
from apps.tickets.ids import format_duration, parse_duration
from apps.tickets.models import ChangeItem, Issue, Sprint
from tests.apps.tickets.conftest import Run


def changes(run: Run, key: str) -> list[tuple[str, str | None, str | None]]:
    histories = run(lambda jira: jira.get_changelog(issue=key))["values"]
    return [(item["field"], item["fromString"], item["toString"]) for h in histories for item in h["items"]]


def create(run: Run, **fields: Any) -> str:
    args = {"project": "ENG", "summary": "Add retry to the export worker", "issue_type": "Task", **fields}
    return run(lambda jira: jira.create_issue(**args))["key"]


def test_create_continues_the_project_numbering_and_fills_defaults(run: Run) -> None:
    last = run(lambda jira: max(i.number for i in jira.db.scalars(select(Issue).where(Issue.project_key == "SUP"))))
    created = run(lambda jira: jira.create_issue(project="SUP", summary="Customer cannot export invoices", issue_type="Bug",
                                                 description="Steps:\n\n1. Open billing", fields={"priority": {"name": "High"}, "labels": ["billing"]}))
    assert created["key"] == f"SUP-{last + 1}" and created["id"].isdigit()
    issue = run(lambda jira: jira.get_issue(issue=created["key"]))["fields"]
    me = run(lambda jira: jira.actor_id)
    assert issue["status"]["name"] == "To Do" and issue["status"]["statusCategory"]["key"] == "new"
    assert issue["priority"]["name"] == "High" and issue["labels"] == ["billing"] and issue["reporter"]["accountId"] == me
    assert issue["description"]["type"] == "doc", "REST v3 carries rich text as ADF"
    assert run(lambda jira: jira.get_issue(issue=created["key"], api="2"))["fields"]["description"] == "Steps:\n\n1. Open billing"
    assert issue["created"].endswith("+0000") and len(issue["created"]) == 28
    simple = run(lambda jira: jira.get_issue(issue=created["key"], style="simplified"))
    assert simple["status"] == {"name": "To Do", "category": "To Do", "color": "blue-gray"} and simple["assignee"] == {"display_name": "Unassigned"}


@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"project": "NOPE"}, "project", "No project could be found with key 'NOPE'"),
    ({"issue_type": "Incident"}, "issuetype", "ENG takes: Epic, Story, Task, Bug, Subtask"),
    ({"summary": "   "}, "summary", "You must specify a summary"),
    ({"issue_type": "Subtask"}, "parent", "A subtask needs a parent"),
    ({"parent": "ENG-1"}, "parent", "must be an Epic"),
    ({"fields": {"priority": {"name": "Urgent"}}}, "priority", "Highest, High, Medium, Low, Lowest"),
    ({"fields": {"labels": ["two words"]}}, "labels", "cannot contain spaces"),
    ({"fields": {"colour": "red"}}, "colour", "Field 'colour' cannot be set"),
    ({"fields": {"duedate": "tomorrow"}}, "duedate", "YYYY-MM-DD"),
    ({"components": "Warp Drive"}, "components", "not valid for project ENG"),
    ({"assignee": "nobody@nowhere.test"}, "assignee", "does not exist"),
])
def test_create_refuses_bad_fields_naming_the_field(run: Run, fields: dict[str, Any], field: str, words: str) -> None:
    before = run(lambda jira: jira.db.scalar(select(func.count()).select_from(Issue)))
    with pytest.raises(TicketsError) as raised:
        create(run, **fields)
    assert raised.value.field == field and words in raised.value.message, raised.value.message
    assert run(lambda jira: jira.db.scalar(select(func.count()).select_from(Issue))) == before, "nothing half-written"


def test_subtasks_and_epics_make_a_hierarchy(run: Run) -> None:
    epic = create(run, issue_type="Epic", summary="Exports at scale")
    story = create(run, issue_type="Story", summary="Stream CSV exports", parent=epic)
    sub = create(run, issue_type="Subtask", summary="Write the streaming writer", parent=story)
    shaped = run(lambda jira: jira.get_issue(issue=story))["fields"]
    assert shaped["parent"]["key"] == epic and [s["key"] for s in shaped["subtasks"]] == [sub]
    with pytest.raises(TicketsError, match="An epic cannot have a parent"):
        run(lambda jira: jira.update_issue(issue=epic, fields={"parent": {"key": story}}))
    task = create(run)
    run(lambda jira: jira.link_to_epic(issue=task, epic=epic))
    assert ("IssueParentAssociation", None, epic) in changes(run, task)
    with pytest.raises(TicketsError, match="not an Epic"):
        run(lambda jira: jira.link_to_epic(issue=task, epic=story))
    with pytest.raises(TicketsError, match="subtasks"):
        run(lambda jira: jira.delete_issue(issue=story))
    run(lambda jira: jira.delete_issue(issue=story, delete_subtasks=True))
    for gone in (story, sub):
        with pytest.raises(TicketsError) as missing:
            run(lambda jira: jira.get_issue(issue=gone))
        assert missing.value.status_code == 404


def test_edits_are_changelogged_field_by_field(run: Run) -> None:
    key = create(run, fields={"labels": ["exports"]})
    colleague = run(lambda jira: next(u for u in jira.search_users(query="")["_list"] if u["accountId"] != jira.actor_id))
    run(lambda jira: jira.update_issue(issue=key, fields={"summary": "Retry exports", "priority": {"name": "Highest"}, "customfield_10016": 5},
                                       update={"labels": [{"add": "reliability"}, {"remove": "exports"}]}))
    run(lambda jira: jira.assign_issue(issue=key, assignee=colleague["emailAddress"]))
    log = changes(run, key)
    assert ("summary", "Add retry to the export worker", "Retry exports") in log
    assert ("priority", "Medium", "Highest") in log and ("Story Points", None, "5") in log
    assert ("labels", "exports", "reliability") in log and ("assignee", None, colleague["displayName"]) in log
    issue = run(lambda jira: jira.get_issue(issue=key, style="simplified"))
    assert issue["labels"] == ["reliability"] and issue["assignee"]["email"] == colleague["emailAddress"] and issue["story_points"] == 5
    run(lambda jira: jira.assign_issue(issue=key, assignee=None))
    assert run(lambda jira: jira.get_issue(issue=key))["fields"]["assignee"] is None
    with pytest.raises(TicketsError, match="nothing to update"):
        run(lambda jira: jira.update_issue(issue=key))


def test_only_available_transitions_run_and_resolution_rules_hold(run: Run) -> None:
    key = create(run, project="SUP", issue_type="Task", summary="Restore a deleted dashboard")
    names = [t["name"] for t in run(lambda jira: jira.get_transitions(issue=key))["transitions"]]
    assert names == ["Start Progress", "Resolve Issue", "Close Issue"]
    with pytest.raises(TicketsError) as refused:
        run(lambda jira: jira.transition_issue(issue=key, transition="Reopen Issue"))
    assert "not valid for" in refused.value.message and "Start Progress" in refused.value.message
    run(lambda jira: jira.transition_issue(issue=key, transition="start progress"))
    with pytest.raises(TicketsError) as needs:
        run(lambda jira: jira.transition_issue(issue=key, transition="41"))
    assert needs.value.field == "resolution"
    assert run(lambda jira: jira.get_issue(issue=key))["fields"]["status"]["name"] == "In Progress", "a refused transition changes nothing"
    run(lambda jira: jira.transition_issue(issue=key, transition="Resolve Issue", fields={"resolution": {"name": "Won't Do"}}, comment="Restored from backup instead"))
    done = run(lambda jira: jira.get_issue(issue=key))["fields"]
    assert done["status"]["name"] == "Done" and done["resolution"]["name"] == "Won't Do" and done["resolutiondate"]
    assert done["comment"]["comments"][-1]["body"]["content"][0]["content"][0]["text"] == "Restored from backup instead"
    run(lambda jira: jira.transition_issue(issue=key, transition="Reopen Issue"))
    reopened = run(lambda jira: jira.get_issue(issue=key))["fields"]
    assert reopened["resolution"] is None and reopened["resolutiondate"] is None and reopened["status"]["name"] == "To Do"
    log = changes(run, key)
    assert [c for c in log if c[0] == "status"] == [("status", "To Do", "In Progress"), ("status", "In Progress", "Done"), ("status", "Done", "To Do")]
    assert ("resolution", None, "Won't Do") in log and ("resolution", "Won't Do", None) in log


def test_software_done_sets_resolution_done(run: Run) -> None:
    key = create(run)
    run(lambda jira: jira.transition_issue(issue=key, transition="Done"))
    assert run(lambda jira: jira.get_issue(issue=key))["fields"]["resolution"]["name"] == "Done"
    with pytest.raises(TicketsError, match="only when moving to a done status"):
        run(lambda jira: jira.transition_issue(issue=key, transition="Reopen Issue", fields={"resolution": "Fixed"}))


def test_comments_links_watchers_and_worklogs(run: Run) -> None:
    key = create(run)
    comment = run(lambda jira: jira.add_comment(issue=key, body="Looking into it", style="simplified"))
    assert comment["body"] == "Looking into it" and comment["id"].isdigit()
    run(lambda jira: jira.edit_comment(issue=key, comment_id=comment["id"], body="Fixed in staging"))
    assert run(lambda jira: jira.get_comments(issue=key, api="2"))["comments"][0]["body"] == "Fixed in staging"
    other = run(lambda jira: jira.db.scalar(select(Issue.reporter_id).where(Issue.key == "SUP-1")))
    with pytest.raises(TicketsError, match="your own comments"):
        run(lambda jira: jira.edit_comment(issue=key, comment_id=comment["id"], body="hijack"), as_user=other)
    run(lambda jira: jira.create_issue_link(link_type="blocks", inward_issue=key, outward_issue="SUP-1"))
    links = run(lambda jira: jira.get_issue(issue=key))["fields"]["issuelinks"]
    assert links[-1]["type"]["name"] == "Blocks" and links[-1]["outwardIssue"]["key"] == "SUP-1"
    seen_from_sup = run(lambda jira: jira.get_issue(issue="SUP-1", style="simplified"))["issuelinks"]
    mine = next(link for link in seen_from_sup if link["issue"]["key"] == key)
    assert (mine["type"], mine["relationship"]) == ("Blocks", "is blocked by")
    with pytest.raises(TicketsError, match="No issue link type"):
        run(lambda jira: jira.create_issue_link(link_type="Causes", inward_issue=key, outward_issue="SUP-1"))
    run(lambda jira: jira.add_watcher(issue=key, account=other))
    assert other in [w["accountId"] for w in run(lambda jira: jira.get_watchers(issue=key))["watchers"]]
    run(lambda jira: jira.add_worklog(issue=key, time_spent="1h 30m", comment="pairing"))
    logs = run(lambda jira: jira.get_worklogs(issue=key))["worklogs"]
    assert logs[0]["timeSpentSeconds"] == 5400 and logs[0]["timeSpent"] == "1h 30m"
    run(lambda jira: jira.add_worklog(issue=key, time_spent="30m"))
    spent = [(i["from"], i["to"]) for h in run(lambda jira: jira.get_changelog(issue=key))["values"] for i in h["items"] if i["field"] == "timespent"]
    assert spent == [("0", "5400"), ("5400", "7200")], "the changelog counts time spent from the total before each entry"
    with pytest.raises(TicketsError, match="Invalid time duration"):
        run(lambda jira: jira.add_worklog(issue=key, time_spent="ninety minutes"))


@pytest.mark.parametrize(("text", "seconds"), [("1h 30m", 5400), ("2d", 57600), ("1w", 144000), ("45m", 2700), ("1.5h", 5400), ("3h15m", 11700)])
def test_durations_parse_as_jira_counts_them(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds
    assert parse_duration(format_duration(seconds)) == seconds


@pytest.mark.parametrize("text", ["", "1x", "h", "1h 30", "soon", "-1h"])
def test_bad_durations_are_refused(text: str) -> None:
    assert parse_duration(text) is None


def test_sprints_move_issues_and_follow_their_lifecycle(run: Run) -> None:
    active = run(lambda jira: jira.get_sprints(board_id=2, state="active"))["values"][0]
    future = run(lambda jira: jira.get_sprints(board_id=2, state="future"))["values"][0]
    key = create(run)
    run(lambda jira: jira.add_issues_to_sprint(sprint_id=future["id"], issues=key))
    run(lambda jira: jira.add_issues_to_sprint(sprint_id=active["id"], issues=[key]))
    in_active = {i["key"] for i in run(lambda jira: jira.get_sprint_issues(sprint_id=active["id"], max_results=100))["issues"]}
    in_future = {i["key"] for i in run(lambda jira: jira.get_sprint_issues(sprint_id=future["id"], max_results=100))["issues"]}
    assert key in in_active and key not in in_future, "an issue is in one open sprint at a time"
    with pytest.raises(TicketsError, match="still active"):
        run(lambda jira: jira.update_sprint(sprint_id=future["id"], state="active"))
    with pytest.raises(TicketsError, match="not on board"):
        run(lambda jira: jira.add_issues_to_sprint(sprint_id=active["id"], issues="SUP-1"))
    run(lambda jira: jira.update_sprint(sprint_id=active["id"], state="closed"))
    assert key in {i["key"] for i in run(lambda jira: jira.get_sprint_issues(sprint_id=future["id"], max_results=100))["issues"]}, "unfinished work moves on"
    started = run(lambda jira: jira.update_sprint(sprint_id=future["id"], state="active"))
    assert started["state"] == "active" and started["startDate"]
    made = run(lambda jira: jira.create_sprint(board_id=2, name="ENG Sprint 99", goal="Ship exports"))
    assert made["state"] == "future"
    with pytest.raises(TicketsError, match="closed"):
        run(lambda jira: jira.add_issues_to_sprint(sprint_id=active["id"], issues=key))
    with pytest.raises(TicketsError, match="kanban"):
        run(lambda jira: jira.create_sprint(board_id=1, name="Nope"))
    assert run(lambda jira: jira.db.scalar(select(func.count()).select_from(Sprint).where(Sprint.state == "active"))) == 1


def test_batch_create_is_all_or_nothing_and_validate_only_keeps_nothing(run: Run) -> None:
    count = lambda: run(lambda jira: jira.db.scalar(select(func.count()).select_from(Issue)))  # noqa: E731
    before = count()
    good = [{"project_key": "ENG", "summary": f"Split task {n}", "issue_type": "Task"} for n in range(3)]
    checked = run(lambda jira: jira.batch_create_issues(issues=good, validate_only=True, style="simplified"))
    assert len(checked["issues"]) == 3 and count() == before
    with pytest.raises(TicketsError, match=r"issues\[1\]"):
        run(lambda jira: jira.batch_create_issues(issues=[good[0], {"project_key": "ENG", "summary": "x", "issue_type": "Nope"}]))
    assert count() == before
    made = run(lambda jira: jira.batch_create_issues(issues='[{"project_key": "IT", "summary": "New laptop", "issue_type": "Task"}]', style="simplified"))
    assert made["issues"][0]["key"].startswith("IT-") and count() == before + 1


def test_every_write_ticks_the_clock_and_history_is_ordered(run: Run) -> None:
    key = create(run)
    for n in range(3):
        run(lambda jira: jira.update_issue(issue=key, fields={"summary": f"Retry exports, take {n}"}))
    stamps = run(lambda jira: list(jira.db.scalars(select(ChangeItem.created).join(Issue, Issue.id == ChangeItem.issue_id)
                                                   .where(Issue.key == key).order_by(ChangeItem.id))))
    assert stamps == sorted(stamps) and len(set(stamps)) == 3


def test_cloud_id_and_aris_name_the_site(run: Run) -> None:
    site = run(lambda jira: jira.accessible_resources())["_list"][0]
    assert run(lambda jira: jira.get_issue(issue="SUP-1", cloud_id=site["id"]))["key"] == "SUP-1"
    assert run(lambda jira: jira.get_issue(issue="SUP-1", cloud_id=site["url"]))["key"] == "SUP-1"
    with pytest.raises(TicketsError, match="not a site you can access"):
        run(lambda jira: jira.get_issue(issue="SUP-1", cloud_id="someone-else"))
    found = run(lambda jira: jira.search_text(query="SUP-1"))["results"]
    assert found[0]["title"].startswith("SUP-1: ")
    assert run(lambda jira: jira.get_issue(issue=found[0]["id"]))["key"] == "SUP-1"
