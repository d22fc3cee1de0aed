"""JQL against the seeded site: hundreds of queries, each checked against the issues a plain
Python reading of the same rows expects; ORDER BY; relative dates and functions on the env
clock; and malformed queries answered with Jira's messages and positions."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from apps.tickets import catalog
from apps.tickets.errors import TicketsError
from apps.tickets.ids import jira_time
from apps.tickets.models import Comment, Component, Issue, IssueComponent, Label, Sprint, SprintIssue, User, Watcher
from officegym.core import clock


@dataclass
class Row:
    key: str
    id: int
    project: str
    type: str
    status: str
    priority: str
    resolution: str | None
    assignee: str | None
    reporter: str | None
    created: str
    updated: str
    resolved: str | None
    due: str | None
    summary: str
    description: str
    parent: int | None
    points: float | None
    case: str | None
    labels: set[str] = field(default_factory=set)
    components: set[str] = field(default_factory=set)
    sprints: set[int] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)
    watchers: set[str] = field(default_factory=set)


@dataclass
class Site:
    rows: list[Row]
    users: dict[str, User]
    sprints: dict[int, Sprint]
    actor: str
    now: datetime

    def keys(self, predicate: Any) -> set[str]:
        return {r.key for r in self.rows if predicate(r)}


@pytest.fixture(scope="module")
def site(gym: Any, shared_env: Any, read: Any) -> Site:
    with gym.store.session(shared_env) as db:
        rows = {i.id: Row(i.key, i.id, i.project_key, i.issue_type, i.status, i.priority, i.resolution, i.assignee_id, i.reporter_id,
                          i.created, i.updated, i.resolved, i.duedate, i.summary, i.description or "", i.parent_id, i.story_points, i.case_number)
                for i in db.scalars(select(Issue))}
        for label in db.scalars(select(Label)):
            rows[label.issue_id].labels.add(label.label)
        for link, comp in db.execute(select(IssueComponent, Component).join(Component, Component.id == IssueComponent.component_id)):
            rows[link.issue_id].components.add(comp.name)
        for s in db.scalars(select(SprintIssue)):
            rows[s.issue_id].sprints.add(s.sprint_id)
        for c in db.scalars(select(Comment)):
            rows[c.issue_id].comments.append(c.body)
        for w in db.scalars(select(Watcher)):
            rows[w.issue_id].watchers.add(w.account_id)
        users = {u.account_id: u for u in db.scalars(select(User))}
        db.expunge_all()
        sprints = {s.id: s for s in db.scalars(select(Sprint))}
        db.expunge_all()
        now = clock.now(db)
    actor = read(lambda jira: jira.actor_id)
    return Site(list(rows.values()), users, sprints, actor, now)


def search(read: Any, jql: str) -> set[str]:
    found: set[str] = set()
    offset = 0
    while True:
        page = read(lambda jira: jira.search_issues(jql=jql, max_results=100, start_at=offset, fields="summary"))
        found |= {i["key"] for i in page["issues"]}
        offset += len(page["issues"])
        if page["isLast"]:
            assert page["total"] == len(found)
            return found


def cases(site: Site) -> list[tuple[str, Any]]:
    """(query, predicate) pairs spanning every field and operator."""
    out: list[tuple[str, Any]] = []
    statuses = [s.name for s in catalog.STATUSES]
    for project, status in itertools.product(("SUP", "ENG", "IT"), statuses):
        out.append((f'project = {project} AND status = "{status}"', lambda r, p=project, s=status: r.project == p and r.status == s))
        out.append((f'project = {project.lower()} AND status != "{status}"', lambda r, p=project, s=status: r.project == p and r.status != s))
    for p1, p2 in itertools.combinations([p.name for p in catalog.PRIORITIES], 2):
        out.append((f"priority IN ({p1}, {p2})", lambda r, a=p1, b=p2: r.priority in (a, b)))
        out.append((f"priority NOT IN ({p1}, {p2}) AND project = SUP", lambda r, a=p1, b=p2: r.priority not in (a, b) and r.project == "SUP"))
    for p in catalog.PRIORITIES:
        out.append((f"priority > {p.name}", lambda r, k=p.rank: catalog.priority(r.priority).rank < k))
        out.append((f"priority <= {p.name}", lambda r, k=p.rank: catalog.priority(r.priority).rank >= k))
    for t in ("Bug", "Story", "Task", "Epic", "Subtask", "Incident"):
        out.append((f"issuetype = {t}", lambda r, t=t: r.type == t))
        out.append((f"type != {t} AND project = ENG", lambda r, t=t: r.type != t and r.project == "ENG"))
    for cat, names in (("new", ("To Do",)), ('"In Progress"', ("In Progress", "In Review")), ("Done", ("Done", "Closed"))):
        out.append((f"statusCategory = {cat}", lambda r, n=names: r.status in n))
        out.append((f"statusCategory != {cat}", lambda r, n=names: r.status not in n))
    for res in catalog.RESOLUTIONS[:5]:
        out.append((f'resolution = "{res}"', lambda r, x=res: r.resolution == x))
    out += [
        ("resolution = EMPTY", lambda r: r.resolution is None), ("resolution IS EMPTY", lambda r: r.resolution is None),
        ("resolution = Unresolved", lambda r: r.resolution is None), ("resolution IS NOT EMPTY", lambda r: r.resolution is not None),
        ("assignee IS EMPTY", lambda r: r.assignee is None), ("assignee is not empty", lambda r: r.assignee is not None),
        ("assignee = currentUser()", lambda r: r.assignee == site.actor), ("reporter = currentUser()", lambda r: r.reporter == site.actor),
        ("assignee != currentUser()", lambda r: r.assignee is not None and r.assignee != site.actor),
        ("NOT assignee = currentUser()", lambda r: r.assignee != site.actor),
        ("watcher = currentUser()", lambda r: site.actor in r.watchers),
        ("due IS EMPTY", lambda r: r.due is None), ("duedate is not EMPTY", lambda r: r.due is not None),
        ("labels IS EMPTY", lambda r: not r.labels), ("labels IS NOT EMPTY", lambda r: bool(r.labels)),
        ("component IS EMPTY AND project = SUP", lambda r: not r.components and r.project == "SUP"),
        ("sprint IS EMPTY AND project = ENG", lambda r: not r.sprints and r.project == "ENG"),
        ("sprint IS NOT EMPTY", lambda r: bool(r.sprints)),
        ("parent IS EMPTY", lambda r: r.parent is None), ("parent IS NOT EMPTY", lambda r: r.parent is not None),
        ('"Salesforce Case" IS NOT EMPTY', lambda r: r.case is not None), ("cf[10050] IS EMPTY", lambda r: r.case is None),
        ('"Story Points" >= 5', lambda r: r.points is not None and r.points >= 5), ("cf[10016] = 3", lambda r: r.points == 3),
        ('"Story Points" < 3', lambda r: r.points is not None and r.points < 3), ('"Story Points" IS EMPTY', lambda r: r.points is None),
        ("", lambda r: True), ("ORDER BY created", lambda r: True),
    ]
    for label in sorted({label for r in site.rows for label in r.labels}):
        out.append((f"labels = {label}", lambda r, x=label: x in r.labels))
        out.append((f"labels != {label}", lambda r, x=label: bool(r.labels) and x not in r.labels))
        out.append((f"labels in ({label}, nosuchlabel)", lambda r, x=label: x in r.labels))
    for comp in sorted({c for r in site.rows for c in r.components}):
        out.append((f'component = "{comp}"', lambda r, x=comp: x in r.components))
    for sprint in site.sprints.values():
        out.append((f"sprint = {sprint.id}", lambda r, x=sprint.id: x in r.sprints))
        out.append((f'sprint = "{sprint.name}"', lambda r, x=sprint.id: x in r.sprints))
    active = {s.id for s in site.sprints.values() if s.state == "active"}
    future = {s.id for s in site.sprints.values() if s.state == "future"}
    closed = {s.id for s in site.sprints.values() if s.state == "closed"}
    out += [("sprint in openSprints()", lambda r: bool(r.sprints & active)), ("sprint in futureSprints()", lambda r: bool(r.sprints & future)),
            ("sprint in closedSprints()", lambda r: bool(r.sprints & closed)),
            ("sprint not in openSprints()", lambda r: bool(r.sprints) and not r.sprints & active)]
    people = sorted({r.assignee for r in site.rows if r.assignee})[:8]
    for who in people:
        user = site.users[who]
        out.append((f"assignee = {who}", lambda r, w=who: r.assignee == w))
        out.append((f'assignee = "{user.display_name}"', lambda r, w=who: r.assignee == w))
        out.append((f"assignee = {user.email.upper()}", lambda r, w=who: r.assignee == w))
        out.append((f"reporter in ({who}) OR assignee in ({who})", lambda r, w=who: w in (r.reporter, r.assignee)))
    for days in (1, 3, 7, 14, 30, 60, 90):
        cut = jira_time(site.now - timedelta(days=days))
        out.append((f"created >= -{days}d", lambda r, c=cut: r.created >= c))
        out.append((f'updated < "-{days}d"', lambda r, c=cut: r.updated < c))
        out.append((f"resolved >= -{days}d", lambda r, c=cut: r.resolved is not None and r.resolved >= c))
    for weeks in (1, 2, 4):
        cut = jira_time(site.now - timedelta(weeks=weeks))
        out.append((f"created > -{weeks}w", lambda r, c=cut: r.created > c))
    for hours in (24, 48, 72):
        cut = jira_time(site.now - timedelta(hours=hours))
        out.append((f"updated >= -{hours}h", lambda r, c=cut: r.updated >= c))
    day = site.now.replace(hour=0, minute=0, second=0, microsecond=0)
    week = day - timedelta(days=(day.weekday() + 1) % 7)
    month = day.replace(day=1)
    out += [
        ("created >= startOfDay()", lambda r: r.created >= jira_time(day)),
        ("created >= startOfDay(-7d)", lambda r: r.created >= jira_time(day - timedelta(days=7))),
        ("updated >= startOfWeek()", lambda r: r.updated >= jira_time(week)),
        ("updated >= startOfWeek(-1w) AND updated < startOfWeek()", lambda r: jira_time(week - timedelta(weeks=1)) <= r.updated < jira_time(week)),
        ("created >= startOfMonth()", lambda r: r.created >= jira_time(month)),
        ("created <= endOfDay(-30d)", lambda r: r.created <= jira_time(day - timedelta(days=29) - timedelta(milliseconds=1))),
        ("created < now()", lambda r: r.created < jira_time(site.now)),
        (f'created >= "{(day - timedelta(days=20)).strftime("%Y-%m-%d")}"', lambda r: r.created >= jira_time(day - timedelta(days=20))),
        (f'created < "{(day - timedelta(days=20)).strftime("%Y/%m/%d %H:%M")}"', lambda r: r.created < jira_time(day - timedelta(days=20))),
        (f'due <= "{(day + timedelta(days=5)).date().isoformat()}"', lambda r: r.due is not None and r.due <= (day + timedelta(days=5)).date().isoformat()),
        ("due < now()", lambda r: r.due is not None and r.due <= day.date().isoformat()),
        ("due < now() AND resolution = EMPTY", lambda r: r.due is not None and r.due <= day.date().isoformat() and r.resolution is None),
    ]
    for word in ("sso", "export", "webhook", "sync", "dashboard", "timeout", "api", "login fails", "customer"):
        w = word.lower()
        out.append((f'summary ~ "{word}"', lambda r, w=w: all(t in r.summary.lower() for t in w.split())))
        out.append((f'summary !~ "{word}" AND project = SUP', lambda r, w=w: not all(t in r.summary.lower() for t in w.split()) and r.project == "SUP"))
        out.append((f'description ~ "{word}"', lambda r, w=w: all(t in r.description.lower() for t in w.split())))
        out.append((f'comment ~ "{word}"', lambda r, w=w: any(all(t in c.lower() for t in w.split()) for c in r.comments)))
        out.append((f'text ~ "{word}"', lambda r, w=w: all(t in r.summary.lower() or t in r.description.lower() or any(t in c.lower() for c in r.comments)
                                                            or t in (r.case or "") for t in w.split())))
    out.append(('summary ~ "\\"login fails\\""', lambda r: "login fails" in r.summary.lower()))
    epics = [r for r in site.rows if r.type == "Epic"]
    for epic in epics:
        out.append((f"parent = {epic.key}", lambda r, e=epic.id: r.parent == e))
        out.append((f"parent = {epic.id}", lambda r, e=epic.id: r.parent == e))
    sample = sorted(site.rows, key=lambda r: r.id)[::17]
    for r0 in sample:
        out.append((f"key = {r0.key}", lambda r, k=r0.key: r.key == k))
        out.append((f"issuekey = {r0.id}", lambda r, k=r0.key: r.key == k))
        out.append((f'key in ({r0.key}, "SUP-1")', lambda r, k=r0.key: r.key in (k, "SUP-1")))
        num = int(r0.key.split("-")[1])
        out.append((f"key > {r0.key}", lambda r, p=r0.project, n=num: r.project == p and int(r.key.split("-")[1]) > n))
    out += [
        ("project = SUP AND (priority = Highest OR priority = High) AND status != Done",
         lambda r: r.project == "SUP" and r.priority in ("Highest", "High") and r.status != "Done"),
        ("project = ENG OR project = IT AND status = Done", lambda r: r.project == "ENG" or (r.project == "IT" and r.status == "Done")),
        ("(project = ENG OR project = IT) AND status = Done", lambda r: r.project in ("ENG", "IT") and r.status == "Done"),
        ("NOT (project = SUP OR priority = Low)", lambda r: not (r.project == "SUP" or r.priority == "Low")),
        ("NOT project = SUP AND NOT status = Done", lambda r: r.project != "SUP" and r.status != "Done"),
        ("project = SUP && status = Done || project = IT", lambda r: (r.project == "SUP" and r.status == "Done") or r.project == "IT"),
        ("project in (SUP, ENG) and resolution is empty and assignee is empty",
         lambda r: r.project in ("SUP", "ENG") and r.resolution is None and r.assignee is None),
        ('project = "Customer Support"', lambda r: r.project == "SUP"), ("project = 10001", lambda r: r.project == "ENG"),
        ("status = 10002", lambda r: r.status == "Done"), ("priority = 1", lambda r: r.priority == "Highest"),
        ("project = SUP AND issuetype = Incident AND statusCategory != Done", lambda r: r.project == "SUP" and r.type == "Incident" and r.status not in ("Done", "Closed")),
        ("issuetype in subTaskIssueTypes()", lambda r: r.type == "Subtask"),
        ("issuetype in standardIssueTypes() AND project = ENG", lambda r: r.type != "Subtask" and r.project == "ENG"),
    ]
    return out


def test_hundreds_of_queries_match_the_expected_issues(site: Site, read: Any) -> None:
    battery = cases(site)
    assert len(battery) >= 300, len(battery)
    for jql, predicate in battery:
        assert search(read, jql) == site.keys(predicate), jql


def test_order_by_sorts_like_jira(site: Site, read: Any) -> None:
    def keys(jql: str) -> list[str]:
        return [i["key"] for i in read(lambda jira: jira.search_issues(jql=jql, max_results=100, fields="summary"))["issues"]]

    sup = [r for r in site.rows if r.project == "SUP"]
    assert keys("project = SUP ORDER BY created DESC") == [r.key for r in sorted(sup, key=lambda r: (r.created, r.id), reverse=True)]
    assert keys("project = SUP order by key asc") == [r.key for r in sorted(sup, key=lambda r: int(r.key.split("-")[1]))]
    rank = {p.name: p.rank for p in catalog.PRIORITIES}
    got = keys("project = SUP ORDER BY priority DESC, created ASC")
    assert got == [r.key for r in sorted(sup, key=lambda r: (rank[r.priority], r.created, -r.id))]
    due = keys("project = SUP ORDER BY due ASC")
    with_due = [k for k in due if next(r for r in sup if r.key == k).due]
    assert due[: len(with_due)] == with_due, "issues with no due date come last in ascending order"
    names = keys("project = SUP AND assignee IS NOT EMPTY ORDER BY assignee ASC, key ASC")
    display = [site.users[next(r for r in sup if r.key == k).assignee].display_name for k in names]
    assert display == sorted(display)


def test_pages_follow_next_page_tokens(read: Any) -> None:
    first = read(lambda jira: jira.search_issues(jql="ORDER BY key ASC", max_results=40))
    assert not first["isLast"] and first["nextPageToken"]
    second = read(lambda jira: jira.search_issues(jql="ORDER BY key ASC", max_results=40, next_page_token=first["nextPageToken"]))
    assert {i["key"] for i in first["issues"]}.isdisjoint({i["key"] for i in second["issues"]})
    with pytest.raises(TicketsError, match="nextPageToken"):
        read(lambda jira: jira.search_issues(jql="", next_page_token="garbage!"))


@pytest.mark.parametrize(("jql", "message"), [
    ("project = SUP AND", "Error in the JQL Query: Expecting a field name but got 'EOF'. (line 1, character 18)"),
    ("project foo SUP", "Error in the JQL Query: Expecting operator but got 'foo'. The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'. (line 1, character 9)"),
    ("project = ", "Error in the JQL Query: Expecting either a value, list or function but got 'EOF'. (line 1, character 11)"),
    ("status = Done Done", "Error in the JQL Query: Expecting either 'OR' or 'AND' but got 'Done'. (line 1, character 15)"),
    ('summary ~ "abc', "Error in the JQL Query: The quoted string 'abc' has not been completed. (line 1, character 11)"),
    ("project = SUP %", "Error in the JQL Query: The character '%' is a reserved JQL character. You must enclose it in a string or use the escape '\\u0025' instead. (line 1, character 15)"),
    ("(project = SUP", "(line 1, character 15)"),
    ("project in (SUP, ", "Expecting either a value, list or function but got 'EOF'"),
    ("ORDER BY", "Expecting a field name but got 'EOF'"),
    ("colour = red", "Field 'colour' does not exist or you do not have permission to view it."),
    ("project = NOPE", "The value 'NOPE' does not exist for the field 'project'."),
    ("status = Frozen", "The value 'Frozen' does not exist for the field 'status'."),
    ("assignee = nobody@nowhere.test", "The value 'nobody@nowhere.test' does not exist for the field 'assignee'."),
    ("sprint = 'No such sprint'", "The value 'No such sprint' does not exist for the field 'Sprint'."),
    ("status ~ Done", "The operator '~' is not supported by the 'status' field."),
    ("summary = refund", "The operator '=' is not supported by the 'summary' field."),
    ("created > yesterday", "Date value 'yesterday' for field 'created' is invalid."),
    ("created > -99999y", "Date value '-99999y' for field 'created' is invalid."),
    ("assignee = whoAmI()", "Unable to find JQL function 'whoAmI()'."),
    ("created > startOfFortnight()", "Unable to find JQL function 'startOfFortnight()'."),
    ("key = NOPE-1", "An issue with key 'NOPE-1' does not exist for field 'key'."),
    ("ORDER BY text", "Field 'text' does not support sorting."),
    ('"Story Points" > many', "The value 'many' for field 'Story Points' is not a number."),
])
def test_malformed_queries_say_what_and_where(read: Any, jql: str, message: str) -> None:
    with pytest.raises(TicketsError) as raised:
        read(lambda jira: jira.search_issues(jql=jql))
    assert raised.value.code == "invalid_jql"
    assert message in raised.value.message, raised.value.message
