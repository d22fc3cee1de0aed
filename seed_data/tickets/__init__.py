"""Seeds the tickets app: the company's Jira site.

Every company ticket (SUP-n, ENG-n) is an issue with the same key, summary, description, type,
status, priority, people and dates, so what chat says about SUP-12 is true here. Support
issues a customer raised carry their CRM case number (customfield_10050, and a remote link, as
the Salesforce-Jira connector writes them); engineering work escalated for a customer blocks
that customer's support issue. On top of the company's tickets: epics grouping the
engineering work, subtasks of the stories in flight, an IT helpdesk, the engineering board's
sprints (closed ones, the active one, the next one), a groomed backlog of estimated ENG work in
no sprint (what sprint planning chooses from), and months of comments, worklogs and changelog
before `company.now`. New issues continue each project's numbering.

All randomness comes from one `random.Random` seeded with (seed, "tickets"), except the groomed
backlog's own stream (seed, "tickets", "backlog"), drawn so that every other row stays as it was.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from apps.tickets import catalog
from apps.tickets.ids import account_id, jira_time
from apps.tickets.models import (
    Board, ChangeItem, Comment, Component, Issue, IssueComponent, IssueVersion, Label, Link, ProjectRow, RemoteLink, Sprint,
    SprintIssue, User, Version, Watcher, Worklog,
)
from apps.tickets.service import ACTOR_META_KEY, CLOUD_META_KEY, SITE_META_KEY
from apps.tickets.shapes import site
from officegym.core.db import set_meta
from seed_data.actor import acting_person
from seed_data.company import Company, Person
from seed_data.tickets import lines as L

SPRINT_DAYS = 14
CLOSED_SPRINTS = 5
POINTS = (1, 2, 3, 5, 8)
WORK_CHUNKS = (1800, 3600, 5400, 7200, 10800, 14400, 28800)  # 30m .. 1d


@dataclass
class Draft:
    """An issue before ids are given (ids follow creation order across projects, as Jira's do)."""

    key: str
    project: str
    issue_type: str
    summary: str
    description: str
    status: str
    priority: str
    reporter: str | None
    assignee: str | None
    created: datetime
    updated: datetime
    customer: str | None = None
    parent: str | None = None  # key
    labels: set[str] = field(default_factory=set)
    points: float | None = None
    due: str | None = None
    id: int = 0
    groomed: bool = False  # in the groomed backlog: estimated, in no sprint


class TicketsSeeder:
    def __init__(self, company: Company) -> None:
        self.company = company
        self.rng = random.Random(f"{company.seed}|tickets")
        self.now = company.now
        self.uid = {p.id: account_id(company.seed, p.id) for p in company.people}
        self.rows: dict[type, list[dict[str, Any]]] = {}
        self.history_id = 0
        self.groomed_rng = random.Random(f"{company.seed}|tickets|backlog")  # the groomed backlog's own stream (see `backlog`)

    def add(self, model: type, **row: Any) -> None:
        self.rows.setdefault(model, []).append(row)

    def team(self, slug: str) -> list[Person]:
        return [p for p in self.company.people if p.team == slug]

    # -- issues ------------------------------------------------------------------------
    def drafts(self) -> list[Draft]:
        c, u = self.company, self.uid
        drafts = [Draft(t.key, t.project, t.issue_type, t.summary, t.description, t.status, t.priority, u[t.reporter_id],
                        u[t.assignee_id] if t.assignee_id else None, t.created, t.updated, t.customer_id)
                  for t in c.tickets]
        numbers = {p.key: max((int(t.key.split("-")[1]) for t in c.tickets if t.project == p.key), default=0)
                   for p in catalog.PROJECTS}

        def next_key(project: str) -> str:
            numbers[project] += 1
            return f"{project}-{numbers[project]}"

        engineers = [u[p.id] for p in self.team("engineering")]
        lead = u[c.team("engineering").lead_id]
        eng = [d for d in drafts if d.project == "ENG"]
        for summary, words in L.EPICS:
            children = [d for d in eng if d.parent is None and any(w in d.summary.lower() for w in words)]
            created = min([d.created for d in children] + [self.now - timedelta(days=120)]) - timedelta(days=3)
            open_children = any(d.status != "Done" for d in children)
            epic = Draft(next_key("ENG"), "ENG", "Epic", summary, f"Engineering work on {summary.lower()}.",
                         "In Progress" if open_children else "Done", "High", lead, lead, created,
                         max([d.updated for d in children] + [created + timedelta(days=1)]))
            for child in children:
                child.parent = epic.key
            drafts.append(epic)
        for story in [d for d in eng if d.issue_type == "Story" and d.status in ("In Progress", "In Review")]:
            for n, title in enumerate(self.rng.sample(L.SUBTASKS, self.rng.randint(2, 3))):
                created = story.created + timedelta(hours=2 + n)
                status = self.rng.choice(("Done", "In Progress", "To Do"))
                drafts.append(Draft(next_key("ENG"), "ENG", "Subtask", title, f"Part of {story.key}: {story.summary}.",
                                    status, story.priority, story.assignee or lead, story.assignee or self.rng.choice(engineers),
                                    created, min(self.now - timedelta(minutes=5), created + timedelta(days=self.rng.randint(1, 9))),
                                    parent=story.key))
        it_team = self.team("it") or self.team("people-ops")
        for summary, detail in self.rng.sample(L.IT_REQUESTS, len(L.IT_REQUESTS)):
            person = self.rng.choice(c.people)
            created = self.now - timedelta(days=self.rng.randint(1, 120), hours=self.rng.randint(0, 8))
            status = "Done" if (self.now - created).days > 20 and self.rng.random() < 0.8 else self.rng.choice(("To Do", "In Progress"))
            updated = min(self.now - timedelta(minutes=3), created + timedelta(hours=self.rng.randint(1, 200)))
            drafts.append(Draft(next_key("IT"), "IT", "Task", summary.format(name=person.name), detail.format(name=person.name),
                                status, self.rng.choice(("High", "Medium", "Medium", "Low")), u[person.id],
                                u[self.rng.choice(it_team).id] if status != "To Do" or self.rng.random() < 0.5 else None,
                                created, updated))
        drafts.extend(self.backlog(drafts, next_key))
        self.numbers = numbers
        drafts.sort(key=lambda d: (d.created, d.key))
        for n, draft in enumerate(drafts):
            draft.id = 10000 + n
            self.decorate(draft, self.groomed_rng if draft.groomed else self.rng)
        return drafts

    def backlog(self, drafts: list[Draft], next_key) -> list[Draft]:
        """The groomed ENG backlog: estimated work that no sprint holds yet, so sprint planning has
        real choices. Filed in the grooming session after every other issue (newest ids, last in
        the seeder's random stream), from its own generator: the rest of the site stays as it was."""
        rng = self.groomed_rng
        low, high = L.BACKLOG_SIZE.get(self.company.size, L.BACKLOG_SIZE["small"])
        picked = rng.sample(L.BACKLOG, rng.randint(low, high))
        lead = self.uid[self.company.team("engineering").lead_id]
        after = max(d.created for d in drafts)
        step = (self.now - timedelta(minutes=5) - after) / (len(picked) + 1)
        made = []
        for n, (kind, summary, description) in enumerate(picked, start=1):
            when = (after + step * n).replace(microsecond=0)
            made.append(Draft(next_key("ENG"), "ENG", kind, summary, description, "To Do", rng.choice(L.BACKLOG_PRIORITIES),
                              lead, None, when, when, groomed=True))
        return made

    def decorate(self, d: Draft, rng: random.Random) -> None:
        text = d.summary.lower()
        d.labels = {label for label, words in L.LABELS if any(w in text for w in words)}
        if d.customer:
            d.labels.add("customer")
            if d.project == "ENG":
                d.labels.add("escalated")
        if d.project == "ENG" and d.issue_type in ("Story", "Task", "Bug") or d.groomed:
            d.points = float(rng.choice(POINTS))
        if d.status != "Done" and rng.random() < 0.3:
            d.due = (d.created + timedelta(days=rng.randint(3, 30))).date().isoformat()

    # -- the rest ----------------------------------------------------------------------
    def build(self) -> None:
        c = self.company
        for p in c.people:
            self.add(User, account_id=self.uid[p.id], display_name=p.name, email=p.email, active=True, timezone=p.timezone, person_id=p.id)
        drafts = self.drafts()
        by_key = {d.key: d for d in drafts}
        for project in catalog.PROJECTS:
            team = project.lead_team if any(t.slug == project.lead_team for t in c.teams) else "people-ops"
            self.add(ProjectRow, key=project.key, id=project.id, lead_id=self.uid[c.team(team).lead_id], last_number=self.numbers[project.key])
        components = self.components()
        versions = self.versions()
        sprints = self.sprints()
        for rank, d in enumerate(drafts):
            case = c.case_number(d.key)
            self.add(Issue, id=d.id, key=d.key, project_key=d.project, number=int(d.key.split("-")[1]), issue_type=d.issue_type,
                     summary=d.summary, description=d.description, status=d.status, priority=d.priority,
                     resolution=self.resolution(d), resolved=jira_time(d.updated) if d.status == "Done" else None,
                     reporter_id=d.reporter, assignee_id=d.assignee, creator_id=d.reporter, created=jira_time(d.created),
                     updated=jira_time(d.updated), duedate=d.due, parent_id=by_key[d.parent].id if d.parent else None,
                     story_points=d.points, case_number=case, rank=rank + 1)
            if case:
                self.add(RemoteLink, id=len(self.rows.get(RemoteLink, [])) + 10000, issue_id=d.id,
                         url=f"https://{c.slug}.my.salesforce.com/lightning/r/Case/{case}/view", title=f"Salesforce Case {case}")
            for label in sorted(d.labels):
                self.add(Label, issue_id=d.id, label=label)
            component = components.get((d.project, self.component_name(d)))
            if component:
                self.add(IssueComponent, issue_id=d.id, component_id=component)
            if d.project == "ENG" and d.status == "Done":
                version = versions.get(d.updated.strftime("%Y.%m"))
                if version:
                    self.add(IssueVersion, issue_id=d.id, version_id=version)
            for watcher in sorted({w for w in (d.reporter, d.assignee) if w}):
                self.add(Watcher, issue_id=d.id, account_id=watcher)
            self.history(d)
            self.comments(d)
            self.worklogs(d)
            if d.project == "ENG" and d.issue_type != "Epic":
                self.place_in_sprint(d, sprints, by_key)
        self.links(drafts)

    def resolution(self, d: Draft) -> str | None:
        if d.status != "Done":
            return None
        if d.issue_type in ("Bug", "Incident"):
            return "Fixed" if self.rng.random() < 0.85 else self.rng.choice(("Cannot Reproduce", "Duplicate"))
        return "Done" if self.rng.random() < 0.9 else "Won't Do"

    def component_name(self, d: Draft) -> str | None:
        text = d.summary.lower()
        return next((name for name, words in L.COMPONENTS[d.project] if any(w in text for w in words)), None)

    def components(self) -> dict[tuple[str, str], int]:
        ids: dict[tuple[str, str], int] = {}
        for project, items in L.COMPONENTS.items():
            for name, _words in items:
                ids[(project, name)] = 10000 + len(ids)
                self.add(Component, id=ids[(project, name)], project_key=project, name=name, description=f"{name} ({project})", lead_id=None)
        return ids

    def versions(self) -> dict[str, int]:
        ids: dict[str, int] = {}
        first = (self.now.replace(day=1) - timedelta(days=95)).replace(day=1)
        month = first
        for n in range(5):
            name = month.strftime("%Y.%m")
            next_month = (month + timedelta(days=32)).replace(day=1)
            released = next_month <= self.now
            ids[name] = 10100 + n
            self.add(Version, id=ids[name], project_key="ENG", name=name, released=released,
                     release_date=(next_month - timedelta(days=1)).date().isoformat())
            month = next_month
        return ids

    def sprints(self) -> list[dict[str, Any]]:
        for n, project in enumerate(catalog.PROJECTS, start=1):
            kind = "scrum" if project.key == "ENG" else "kanban"
            self.add(Board, id=n, name=f"{project.key} board", type=kind, project_key=project.key)
        monday = (self.now - timedelta(days=self.now.weekday())).replace(hour=9, minute=0, second=0, microsecond=0)
        if monday + timedelta(days=SPRINT_DAYS // 2) > self.now and self.rng.random() < 0.5:
            monday -= timedelta(days=7)
        made = []
        first_number = 20
        for n in range(CLOSED_SPRINTS + 2):
            start = monday - timedelta(days=SPRINT_DAYS * (CLOSED_SPRINTS - n))
            state = "closed" if n < CLOSED_SPRINTS else "active" if n == CLOSED_SPRINTS else "future"
            sprint = dict(id=n + 1, board_id=2, name=f"ENG Sprint {first_number + n}", state=state,
                          goal="" if state == "closed" else ("Ship the in-flight escalations" if state == "active" else ""),
                          start_date=jira_time(start) if state != "future" else None,
                          end_date=jira_time(start + timedelta(days=SPRINT_DAYS)) if state != "future" else None,
                          complete_date=jira_time(start + timedelta(days=SPRINT_DAYS)) if state == "closed" else None)
            self.add(Sprint, **sprint)
            made.append({**sprint, "start": start, "end": start + timedelta(days=SPRINT_DAYS)})
        return made

    def place_in_sprint(self, d: Draft, sprints: list[dict[str, Any]], by_key: dict[str, Draft]) -> None:
        if d.issue_type == "Subtask" or d.groomed:
            return  # a subtask goes where its parent goes (added with the parent below); the groomed backlog waits for planning
        active, future = sprints[CLOSED_SPRINTS], sprints[CLOSED_SPRINTS + 1]
        chosen = None
        if d.status == "Done":
            chosen = next((s for s in sprints[: CLOSED_SPRINTS + 1] if s["start"] <= d.updated < s["end"]), None)
        elif d.status in ("In Progress", "In Review"):
            chosen = active
        else:
            roll = self.rng.random()
            chosen = active if roll < 0.4 else future if roll < 0.7 else None
        if chosen is None:
            return
        members = [d] + [s for s in by_key.values() if s.parent == d.key and s.issue_type == "Subtask"]
        for member in members:
            self.add(SprintIssue, sprint_id=chosen["id"], issue_id=member.id)

    def links(self, drafts: list[Draft]) -> None:
        sup = [d for d in drafts if d.project == "SUP" and d.customer]
        n = 0
        for d in drafts:
            if d.project != "ENG" or not d.customer:
                continue
            raised = [s for s in sup if s.customer == d.customer and s.created <= d.created]
            if raised:
                n += 1
                self.add(Link, id=10000 + n, type_name="Blocks", source_id=d.id, target_id=raised[-1].id)

    def change(self, d: Draft, when: datetime, author: str | None, items: list[tuple[str, str | None, str | None, str | None, str | None]]) -> None:
        self.history_id += 1
        for field_name, from_value, from_string, to_value, to_string in items:
            self.add(ChangeItem, id=len(self.rows.get(ChangeItem, [])) + 1, history_id=self.history_id, issue_id=d.id, author_id=author,
                     created=jira_time(when), field=field_name, from_value=from_value, from_string=from_string,
                     to_value=to_value, to_string=to_string)

    def history(self, d: Draft) -> None:
        """Changelog that walks the workflow to the issue's status, ending at `updated`."""
        path = {"To Do": [], "In Progress": ["In Progress"], "In Review": ["In Progress", "In Review"],
                "Done": ["In Progress", "In Review", "Done"] if d.project == "ENG" else ["In Progress", "Done"]}[d.status]
        span = (d.updated - d.created).total_seconds()
        steps = len(path) + (1 if d.assignee else 0)
        moments = sorted(d.created + timedelta(seconds=span * self.rng.uniform(0.05, 0.95)) for _ in range(max(steps - 1, 0)))
        moments.append(d.updated)
        moments = moments[-steps:] if steps else []
        names = {self.uid[p.id]: p.name for p in self.company.people}
        actor = d.assignee or d.reporter
        index = 0
        if d.assignee:
            self.change(d, moments[0], d.reporter, [("assignee", None, None, d.assignee, names.get(d.assignee))])
            index = 1
        previous = "To Do"
        for status in path:
            items = [("status", catalog.STATUS_BY_NAME[previous].id, previous, catalog.STATUS_BY_NAME[status].id, status)]
            if status == "Done":
                res = self.resolution_of(d)
                items.append(("resolution", None, None, catalog.RESOLUTION_IDS.get(res or "Done"), res))
            self.change(d, moments[index], actor, items)
            previous, index = status, index + 1

    def resolution_of(self, d: Draft) -> str | None:
        issue_rows = self.rows.get(Issue, [])
        return issue_rows[-1]["resolution"] if issue_rows and issue_rows[-1]["id"] == d.id else None

    def comments(self, d: Draft) -> None:
        count = {"Done": self.rng.randint(1, 4), "In Progress": self.rng.randint(1, 3), "In Review": self.rng.randint(1, 3)}.get(d.status, self.rng.randint(0, 1))
        if d.issue_type == "Subtask":
            count = min(count, 1)
        span = (d.updated - d.created).total_seconds()
        people = [p for p in (d.assignee, d.reporter) if p] or [self.uid[self.company.people[0].id]]
        names = {self.uid[p.id]: p.name for p in self.company.people}
        customer = self.company.customer(d.customer).name if d.customer else "the team"
        moments = sorted(d.created + timedelta(seconds=span * self.rng.uniform(0.02, 1.0)) for _ in range(count))
        for n, when in enumerate(moments):
            bank = L.COMMENTS_TRIAGE if n == 0 else L.COMMENTS_DONE if d.status == "Done" and n == count - 1 else L.COMMENTS_PROGRESS
            if d.project == "ENG" and self.rng.random() < 0.3:
                bank = L.COMMENTS_ENG
            author = self.rng.choice(people)
            other = names.get(self.rng.choice(people), "the team")
            body = self.rng.choice(bank).format(customer=customer, priority=d.priority, assignee=names.get(d.assignee or "", "the team"),
                                                other=other, points=int(d.points or 3))
            self.add(Comment, id=10000 + len(self.rows.get(Comment, [])), issue_id=d.id, author_id=author, body=body,
                     created=jira_time(when), updated=jira_time(when))

    def worklogs(self, d: Draft) -> None:
        if not d.assignee or d.status == "To Do" or d.issue_type == "Epic":
            return
        span = (d.updated - d.created).total_seconds()
        for _ in range(self.rng.randint(1, 3)):
            started = d.created + timedelta(seconds=span * self.rng.uniform(0.1, 0.9))
            self.add(Worklog, id=10000 + len(self.rows.get(Worklog, [])), issue_id=d.id, author_id=d.assignee,
                     seconds=self.rng.choice(WORK_CHUNKS), started=jira_time(started), created=jira_time(started), comment="")


def cloud_id(company: Company) -> str:
    """The site's cloud id, uuid-shaped as Atlassian's are, derived from the seed."""
    h = hashlib.sha256(f"officegym/{company.seed}/tickets/cloud".encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


# Insert order: referenced tables first.
ORDER = (User, ProjectRow, Component, Version, Board, Sprint, Issue, Label, IssueComponent, IssueVersion, Link, RemoteLink,
         Comment, Watcher, Worklog, ChangeItem, SprintIssue)


def seed_tickets(db: Session, company: Company) -> None:
    """Add the company's Jira site to `db` (the caller commits)."""
    seeder = TicketsSeeder(company)
    seeder.build()
    set_meta(db, ACTOR_META_KEY, seeder.uid[acting_person(company).id])
    set_meta(db, SITE_META_KEY, site(company.slug))
    set_meta(db, CLOUD_META_KEY, cloud_id(company))
    for model in ORDER:
        rows = seeder.rows.get(model)
        if rows:
            db.execute(insert(model), rows)
