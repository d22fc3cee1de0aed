"""What tickets task families share: a snapshot of the site's issues (read once per template),
the changes a tickets task may make, and the moves the adversary suite uses.

Checks read final state only; comments and changes count when made after the task began
(`since`, the env clock at sampling), so seeded history can never satisfy a check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from apps.tickets import catalog
from apps.tickets import queries as Q
from apps.tickets.ids import jira_time
from apps.tickets.models import ChangeItem, Component, Issue, IssueComponent, Label, Link, User, Worklog
from apps.tickets.service import ACTOR_META_KEY
from graders.checks import CheckResult, failed, passed
from graders.diff import RowChange
from graders.rubric import Expect
from officegym.core import clock
from officegym.core.db import get_meta
from tasks.base import SampleContext, ToolError, Tools
from tasks.common.variants import cached


@dataclass(frozen=True, slots=True)
class Ticket:
    id: int
    key: str
    project: str
    type: str
    summary: str
    status: str
    priority: str
    resolution: str | None
    assignee: str | None
    case: str | None
    labels: tuple[str, ...]
    components: tuple[str, ...]
    parent: int | None = None  # the epic or story it sits under (issue id)


@dataclass(frozen=True, slots=True)
class Person:
    account_id: str
    name: str
    email: str
    team: str


@dataclass(frozen=True, slots=True)
class Site:
    me: Person
    tickets: tuple[Ticket, ...]
    people: dict[str, Person]  # by account id
    start: str  # the env clock when the task began (Jira time)

    def by_key(self, key: str) -> Ticket:
        return next(t for t in self.tickets if t.key == key)


def site(ctx: SampleContext) -> Site:
    def build() -> Site:
        db = ctx.db
        labels: dict[int, list[str]] = {}
        for row in db.scalars(select(Label).order_by(Label.label)):
            labels.setdefault(row.issue_id, []).append(row.label)
        components: dict[int, list[str]] = {}
        for link, comp in db.execute(select(IssueComponent, Component).join(Component, Component.id == IssueComponent.component_id)):
            components.setdefault(link.issue_id, []).append(comp.name)
        tickets = tuple(Ticket(i.id, i.key, i.project_key, i.issue_type, i.summary, i.status, i.priority, i.resolution, i.assignee_id,
                               i.case_number, tuple(labels.get(i.id, ())), tuple(sorted(components.get(i.id, ()))), i.parent_id)
                        for i in db.scalars(select(Issue).order_by(Issue.id)))
        teams = {p.email: p.team for p in ctx.company.people}
        people = {u.account_id: Person(u.account_id, u.display_name, u.email, teams.get(u.email, "")) for u in db.scalars(select(User))}
        me = people[get_meta(db, ACTOR_META_KEY) or ""]
        return Site(me, tickets, people, jira_time(clock.now(db)))

    return cached(ctx, "tickets/site", build)


def unique_names(people: Iterable[Person]) -> list[Person]:
    """People whose display name no one else shares (a prompt that names them is unambiguous)."""
    every = list(people)
    counts: dict[str, int] = {}
    for p in every:
        counts[p.name.lower()] = counts.get(p.name.lower(), 0) + 1
    return [p for p in every if counts[p.name.lower()] == 1]


def comments_since(db: Session, issue_id: int, author: str, since: str) -> list[str]:
    return Q.COMMENTS_SINCE.scalars(db, issue_id=issue_id, author=author, since=since)


def said_since(db: Session, issue_id: int, author: str, since: str) -> list[str]:
    """Everything the agent wrote on an issue since the task began: its comments and the notes on
    the time it logged. Both show on the issue to whoever reads it, so a hedge ("or Duplicate",
    another customer) written in a worklog's note is as much said as one in a comment."""
    notes = db.scalars(select(Worklog.comment).where(Worklog.issue_id == issue_id, Worklog.author_id == author,
                                                      Worklog.created > since).order_by(Worklog.id))
    return [*comments_since(db, issue_id, author, since), *(n for n in notes if n)]


def blocks_only(db: Session, bug: Any, ticket: Any, after_link: int) -> CheckResult:
    """`bug` blocks `ticket` through a link made after `after_link` (the last link id when the
    task began), and no other link was made to or from either of them since."""
    ends = (bug.id, ticket.id)
    new = [tuple(r) for r in db.execute(select(Link.type_name, Link.source_id, Link.target_id)
                                        .where(or_(Link.source_id.in_(ends), Link.target_id.in_(ends)), Link.id > after_link))]
    if ("Blocks", bug.id, ticket.id) not in new:
        reverse = ("Blocks", ticket.id, bug.id) in new
        return failed(f"no link '{bug.key} blocks {ticket.key}'" + (" (the link you made points the other way)" if reverse else ""))
    if len(new) > 1:
        return failed(f"{len(new) - 1} other links were made besides '{bug.key} blocks {ticket.key}'")
    return passed(f"{bug.key} blocks {ticket.key}")


def set_elsewhere(db: Session, issue_id: int, field: str, author: str, since: str) -> list[str]:
    """The other issues on which `author` changed `field` since the task began (keys, in order):
    the task's change made on look-alikes too."""
    keys = db.scalars(select(Issue.key).join(ChangeItem, ChangeItem.issue_id == Issue.id).where(
        ChangeItem.issue_id != issue_id, ChangeItem.field == field, ChangeItem.author_id == author, ChangeItem.created > since)
        .order_by(ChangeItem.id))
    return list(dict.fromkeys(keys))


def values_set(db: Session, issue_id: int, field: str, since: str) -> list[str | None]:
    """What a field was set to on an issue since the task began, in order (from its changelog)."""
    return Q.VALUES_SET_SINCE.scalars(db, issue_id=issue_id, field=field, since=since)


# -- the changes a tickets task may make --------------------------------------------------------
STAMP = frozenset({"updated"})  # what Jira bumps on every change to an issue, a comment or a worklog included
# Jira sets these with the status: a done status stamps `resolved`, reopening clears it and the resolution.
WORKFLOW = frozenset({"status", "resolution", "resolved"})


def allow_issue(issue_id: int, columns: Iterable[str] = (), *, labels: bool = False, components: bool = False) -> list[Expect]:
    """Editing one issue the task is about: only `columns` of its row change (with the stamp),
    labels and components only when the task sets them; everything else on it stays as the task
    found it, so a target closed, renamed or stripped of its labels on the way is collateral.
    Its changelog records those edits, and the harmless steps of `notes` are allowed on it."""
    allowed = STAMP | set(columns)

    def on(column: str):
        return lambda change: change.row.get(column) == issue_id

    return [
        Expect("tickets_issues", "update", lambda c: c.row.get("id") == issue_id and set(c.changed_columns) <= allowed),
        Expect("tickets_changelog", "insert", on("issue_id")),
        *([Expect("tickets_labels", "any", on("issue_id"))] if labels else []),
        *([Expect("tickets_issue_components", "any", on("issue_id"))] if components else []),
        *notes(lambda change: change.row.get("issue_id") == issue_id),
    ]


def notes(on: Callable[..., bool], given: Callable[[Session], Any] | None = None) -> list[Expect]:
    """What a careful person may add on an issue the task involves without changing it: a
    comment, time logged, a watch (each bumps the issue's `updated`, see `bumped`)."""
    return [Expect(table, "insert", on, given=given) for table in ("tickets_comments", "tickets_worklogs", "tickets_watchers")]


def bumped() -> Expect:
    """An issue whose only change is its `updated` stamp: what a comment, a worklog, a watch or
    a link written on it does. The step itself is in its own table, allowed or counted there;
    the stamp destroys nothing, so it is never collateral on its own."""
    return Expect("tickets_issues", "update", lambda c: bool(c.changed_columns) and set(c.changed_columns) <= STAMP)


def only(changes: list[RowChange], table: str, issue_id: int) -> list[RowChange]:
    return [c for c in changes if c.table == table and c.row.get("issue_id") == issue_id]


async def search_all(tools: Tools, jql: str, fields: str) -> list[dict]:
    """Every issue a JQL search finds, page by page (the search tool returns at most 50 at a time)."""
    issues: list[dict] = []
    while True:
        page = await tools.call("jira_search", jql=jql, limit=50, start_at=len(issues), fields=fields)
        issues.extend(page["issues"])
        if not page["issues"] or len(issues) >= page["total"]:
            return issues


def put_away(issue: Any) -> str:
    """Why an issue the task has the agent file is put away rather than filed ("" if it is not):
    resolved, or in a done status, as it was made (Won't Fix, Done). Work begun on it (In
    Progress) is still work filed. `issue` has a key, a status and a resolution."""
    state = catalog.status(issue.status)
    if issue.resolution or (state is not None and state.category == "done"):
        return f"{issue.key} is {issue.status} ({issue.resolution or 'done'}): the work is put away, not filed"
    return ""


# -- adversary moves -----------------------------------------------------------------------------
async def comment(tools: Tools, key: str, text: str) -> None:
    await tools.call("jira_add_comment", issue_key=key, body=text[:30_000])


async def transition(tools: Tools, key: str, name: str, resolution: str | None = None) -> None:
    """Run a transition by name, quietly skipping one the issue's status does not offer."""
    import json

    moves = await tools.call("jira_get_transitions", issue_key=key)
    move = next((m for m in moves if m["name"].lower() == name.lower()), None)
    if move is None:
        return
    fields = json.dumps({"resolution": {"name": resolution}}) if resolution else None
    args = {"issue_key": key, "transition_id": move["id"], **({"fields": fields} if fields else {})}
    try:
        await tools.call("jira_transition_issue", **args)
    except ToolError:
        pass


async def wreck(tools: Tools) -> None:
    """What a vandal does besides the task: delete an engineering task, rename another issue,
    unassign a third. Each step is tried; one the site refuses is skipped."""
    found = await tools.call("jira_search", jql="project = ENG AND issuetype = Task ORDER BY key ASC", limit=3, fields="summary")
    keys = [i["key"] for i in found["issues"]]
    steps = []
    if keys:
        steps.append(("jira_delete_issue", {"issue_key": keys[0]}))
    if len(keys) > 1:
        steps.append(("jira_update_issue", {"issue_key": keys[1], "fields": '{"summary": "(cleared)"}'}))
    if len(keys) > 2:
        steps.append(("jira_assign_issue", {"issue_key": keys[2]}))
    for tool, arguments in steps:
        try:
            await tools.call(tool, **arguments)
        except ToolError:
            pass
