"""The browser face of the tickets app: a server-rendered, Jira-like UI.

Pages: the board (columns by status; a card moves by its transition buttons or by drag and drop), the backlog
(sprints and the issues outside them), the issue list with a JQL box and saved filters, the
issue view (fields, transitions, comments, links, subtasks, history) and a create-issue
dialog (a native popover: no script needed). Writes are form posts answered with a 303
(Post/Redirect/Get) and run through `invoke` with face "ui", so they land in the trajectory as
MCP and REST calls do; a refused write re-renders the page with an alert (400) and writes
nothing. Templates autoescape everything an agent or a user typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

import jinja2
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy import select

from apps.tickets import catalog
from apps.tickets.adf import to_text
from apps.tickets.errors import TicketsError
from apps.tickets.models import Board, Component, Sprint, SprintIssue, User, Version
from apps.tickets.operations import OPERATIONS
from apps.tickets.service import TicketsService
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.ops import invoke
from officegym.core.web import EnvRoute, current_env, env_store

T = TypeVar("T")
router = APIRouter(route_class=EnvRoute)
_jinja = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True,
                            trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
templates = Jinja2Templates(env=_jinja)
LIST_PAGE = 50
FILTERS = (  # saved filters: (name, JQL)
    ("My open issues", "assignee = currentUser() AND resolution = EMPTY ORDER BY priority DESC, updated DESC"),
    ("Reported by me", "reporter = currentUser() ORDER BY created DESC"),
    ("Open support tickets", "project = SUP AND statusCategory != Done ORDER BY priority DESC, created ASC"),
    ("Current sprint", "sprint in openSprints() ORDER BY rank"),
    ("Updated this week", "updated >= startOfWeek() ORDER BY updated DESC"),
)


def _base(request: Request, env: Env) -> str:
    return f"{request.scope.get('root_path', '')}/envs/{env.id}/tickets"


def _read(request: Request, env: Env, build: Callable[[TicketsService], T]) -> T:
    """Build a page in one read transaction (page views are not actions: never logged)."""
    with env_store(request).session(env) as db:
        return build(TicketsService(db))


def _write(request: Request, env: Env, operation: str, raw: dict[str, Any]) -> dict[str, Any]:
    route = getattr(request.scope.get("route"), "path", request.url.path)
    return invoke(env_store(request), env, OPERATIONS, OPERATIONS[operation], raw, face="ui", tool=f"POST {route}")


def _page(request: Request, env: Env, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    def common(svc: TicketsService) -> dict[str, Any]:
        me = svc.db.get(User, svc.actor_id)
        people = list(svc.db.scalars(select(User).where(User.active.is_(True)).order_by(User.display_name)))
        return {"me": me, "people": people, "component_names": _by_project(svc, Component), "version_names": _by_project(svc, Version)}

    shared = _read(request, env, common)
    return templates.TemplateResponse(request, name, {
        "base": _base(request, env), "projects": catalog.PROJECTS, "priorities": catalog.PRIORITIES, "resolutions": catalog.RESOLUTIONS,
        "issue_types": catalog.ISSUE_TYPES, "link_types": catalog.LINK_TYPES, "error": None, **shared, **context}, status_code=status)


def _by_project(svc: TicketsService, table: type[Component] | type[Version]) -> dict[str, list[str]]:
    """The names of a project's components (or versions), by project key: what the pickers offer."""
    names: dict[str, list[str]] = {}
    for project, name in svc.db.execute(select(table.project_key, table.name).order_by(table.project_key, table.name)):
        names.setdefault(project, []).append(name)
    return names


def _see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _text(value: str) -> str:
    return value.replace("\r\n", "\n").replace("\r", "\n")


def _message(error: AppError) -> str:
    return error.message


# -- pages -----------------------------------------------------------------------------------
@router.get("/", include_in_schema=False)
def home(request: Request, env: Env = Depends(current_env)) -> Response:
    return _see_other(f"{_base(request, env)}/board?project=ENG")


def _board_context(svc: TicketsService, project_key: str) -> dict[str, Any]:
    project = svc.project(project_key)
    board = svc.db.scalar(select(Board).where(Board.project_key == project.key))
    sprint = svc.db.scalar(select(Sprint).where(Sprint.board_id == board.id, Sprint.state == "active")) if board.type == "scrum" else None
    if sprint is not None:
        jql = f"sprint = {sprint.id} ORDER BY rank"
    else:
        jql = f"project = {project.key} AND (statusCategory != Done OR resolved >= -14d) ORDER BY rank"
    issues = svc.search_issues(jql=jql, max_results=100, style="simplified")["issues"]
    moves = {i["key"]: svc.get_transitions(issue=i["key"], style="simplified")["_list"] for i in issues}
    requires = {t.id for t in project.workflow.transitions if t.requires}
    columns = [{"status": status, "issues": [i for i in issues if i["status"]["name"] == status]} for status in project.workflow.statuses]
    return {"project": project, "board": board, "sprint": sprint, "columns": columns, "moves": moves, "requires": requires,
            "title": f"{board.name}"}


@router.get("/board", response_class=HTMLResponse)
def board(request: Request, project: str = "ENG", env: Env = Depends(current_env)) -> Response:
    try:
        context = _read(request, env, lambda svc: _board_context(svc, project))
    except TicketsError as error:
        return _page(request, env, "message.html", {"title": "Not found", "message": _message(error)}, 404)
    return _page(request, env, "board.html", {**context, "back": f"board?project={context['project'].key}"})


def _backlog_context(svc: TicketsService, project_key: str) -> dict[str, Any]:
    project = svc.project(project_key)
    board = svc.db.scalar(select(Board).where(Board.project_key == project.key))
    sprints = list(svc.db.scalars(select(Sprint).where(Sprint.board_id == board.id, Sprint.state.in_(("active", "future"))).order_by(Sprint.id)))
    groups = []
    for sprint in sprints:
        issues = svc.search_issues(jql=f"sprint = {sprint.id} ORDER BY rank", max_results=100, style="simplified")["issues"]
        groups.append({"sprint": sprint, "issues": issues, "points": sum(i.get("story_points") or 0 for i in issues)})
    open_ids = [s.id for s in sprints]
    planned = set(svc.db.scalars(select(SprintIssue.issue_id).where(SprintIssue.sprint_id.in_(open_ids)))) if open_ids else set()
    backlog = [i for i in svc.search_issues(jql=f"project = {project.key} AND statusCategory != Done AND issuetype not in (Epic, Subtask) ORDER BY rank",
                                            max_results=100, style="simplified")["issues"] if int(i["id"]) not in planned]
    return {"project": project, "board": board, "groups": groups, "backlog": backlog, "sprints": sprints, "title": f"{project.name} backlog"}


@router.get("/backlog", response_class=HTMLResponse)
def backlog(request: Request, project: str = "ENG", env: Env = Depends(current_env)) -> Response:
    try:
        context = _read(request, env, lambda svc: _backlog_context(svc, project))
    except TicketsError as error:
        return _page(request, env, "message.html", {"title": "Not found", "message": _message(error)}, 404)
    return _page(request, env, "backlog.html", {**context, "back": f"backlog?project={context['project'].key}"})


@router.get("/issues", response_class=HTMLResponse)
def issue_list(request: Request, jql: str = "", start: int = 0, env: Env = Depends(current_env)) -> Response:
    query = jql if jql.strip() else FILTERS[0][1]
    start = max(0, min(start, 1_000_000))
    try:
        found = _read(request, env, lambda svc: svc.search_issues(jql=query, max_results=LIST_PAGE, start_at=start, style="simplified"))
        error, status = None, 200
    except TicketsError as failure:
        found, error, status = {"issues": [], "total": 0, "start_at": 0}, _message(failure), 400
    return _page(request, env, "issues.html", {"title": "Issues", "jql": query, "found": found, "error": error, "filters": FILTERS,
                                              "page": LIST_PAGE, "quote": quote, "back": "issues?" + urlencode({"jql": query})}, status)


def _issue_context(svc: TicketsService, key: str) -> dict[str, Any]:
    issue = svc.get_issue(issue=key, style="simplified", comment_limit=1000)
    full = svc.get_issue(issue=key, expand="changelog")
    moves = svc.get_transitions(issue=key)["transitions"]
    sprints = list(svc.db.scalars(select(Sprint).where(Sprint.state.in_(("active", "future"))).order_by(Sprint.id)))
    worklogs = [{**w, "comment": to_text(w["comment"])} for w in svc.get_worklogs(issue=key)["worklogs"]]
    comments = svc.get_comments(issue=key, max_results=5000, api="2")["comments"]  # with each author's account id: yours can be edited
    remote_links = svc.get_remote_links(issue=key)["_list"]
    return {"issue": issue, "fields": full["fields"], "history": full["changelog"]["histories"], "moves": moves, "sprints": sprints,
            "worklogs": worklogs, "comments": comments, "remote_links": remote_links, "title": f"[{issue['key']}] {issue['summary']}"}


@router.get("/browse/{key}", response_class=HTMLResponse)
def issue_view(request: Request, key: str, edit_comment: str = "", env: Env = Depends(current_env)) -> Response:
    """The issue; with `edit_comment`, that comment of yours open in its editor (Jira's Edit)."""
    return _issue_page(request, env, key, editing=edit_comment[:20])


def _issue_page(request: Request, env: Env, key: str, error: str | None = None, status: int = 200, editing: str = "") -> Response:
    try:
        context = _read(request, env, lambda svc: _issue_context(svc, key))
    except TicketsError as failure:
        return _page(request, env, "message.html", {"title": "Issue not found", "message": _message(failure)}, 404)
    return _page(request, env, "issue.html", {**context, "error": error, "editing": editing, "back": f"browse/{context['issue']['key']}"}, status)


# -- writes ----------------------------------------------------------------------------------
def _back(request: Request, env: Env, back: str) -> str:
    safe = back if back and not back.startswith(("/", "\\")) and "://" not in back and "\n" not in back else "issues"
    return f"{_base(request, env)}/{safe}"


def _after(request: Request, env: Env, key: str, back: str, run: Callable[[], Any]) -> Response:
    """Run a write; on success go back where the form came from, on failure show the issue
    with the error (status 400)."""
    try:
        run()
    except AppError as error:
        return _issue_page(request, env, key, error=_message(error), status=400)
    return _see_other(_back(request, env, back))


@router.post("/create")
def create(request: Request, project: str = Form(...), issue_type: str = Form(...), summary: str = Form(""), description: str = Form(""),
           priority: str = Form(""), assignee: str = Form(""), parent: str = Form(""), components: list[str] = Form([]),
           labels: str = Form(""), back: str = Form(""), env: Env = Depends(current_env)) -> Response:
    """Create an issue (the Create dialog, or a subtask added from its parent's view, which `back` returns to)."""
    raw = {"project": project, "issue_type": issue_type, "summary": summary, "description": _text(description), "priority": priority or None,
           "assignee": assignee or None, "parent": parent.strip() or None, "components": _names(components) or None,
           "labels": _labels(labels) or None}
    try:
        created = _write(request, env, "tickets.createIssue", raw)
    except AppError as error:
        return _page(request, env, "message.html", {"title": "Issue not created", "message": _message(error), "alert": True}, 400)
    return _see_other(_back(request, env, back) if back else f"{_base(request, env)}/browse/{created['key']}")


@router.post("/browse/{key}/transition")
def transition(request: Request, key: str, transition: str = Form(...), resolution: str = Form(""), back: str = Form(""),
               env: Env = Depends(current_env)) -> Response:
    fields = {"resolution": {"name": resolution}} if resolution else None
    return _after(request, env, key, back or f"browse/{key}",
                  lambda: _write(request, env, "tickets.transitionIssue", {"issue": key, "transition": transition, "fields": fields}))


@router.post("/browse/{key}/comment")
def comment(request: Request, key: str, body: str = Form(""), env: Env = Depends(current_env)) -> Response:
    return _after(request, env, key, f"browse/{key}", lambda: _write(request, env, "tickets.addComment", {"issue": key, "body": _text(body)}))


@router.post("/browse/{key}/comment/{comment_id}/edit")
def edit_comment(request: Request, key: str, comment_id: str, body: str = Form(""), env: Env = Depends(current_env)) -> Response:
    return _after(request, env, key, f"browse/{key}",
                  lambda: _write(request, env, "tickets.editComment", {"issue": key, "comment_id": comment_id, "body": _text(body)}))


@router.post("/browse/{key}/comment/{comment_id}/delete")
def delete_comment(request: Request, key: str, comment_id: str, env: Env = Depends(current_env)) -> Response:
    return _after(request, env, key, f"browse/{key}", lambda: _write(request, env, "tickets.deleteComment", {"issue": key, "comment_id": comment_id}))


@router.post("/browse/{key}/remotelink")
def add_web_link(request: Request, key: str, url: str = Form(""), title: str = Form(""), env: Env = Depends(current_env)) -> Response:
    """Jira's "Web link": a URL and the text the link shows (the URL itself when none is typed)."""
    return _after(request, env, key, f"browse/{key}",
                  lambda: _write(request, env, "tickets.createRemoteLink", {"issue": key, "url": url.strip(), "title": title.strip() or url.strip()}))


@router.post("/browse/{key}/remotelink/{link_id}/delete")
def delete_web_link(request: Request, key: str, link_id: str, env: Env = Depends(current_env)) -> Response:
    return _after(request, env, key, f"browse/{key}", lambda: _write(request, env, "tickets.deleteRemoteLink", {"issue": key, "link_id": link_id}))


@router.post("/browse/{key}/worklog/{worklog_id}/edit")
def edit_worklog(request: Request, key: str, worklog_id: str, time_spent: str = Form(""), comment: str = Form(""),
                 env: Env = Depends(current_env)) -> Response:
    """Change your worklog's time and description; the remaining estimate moves by the change (Jira's "Adjust automatically")."""
    return _after(request, env, key, f"browse/{key}", lambda: _write(request, env, "tickets.updateWorklog", {
        "issue": key, "worklog_id": worklog_id, "time_spent": time_spent.strip() or None, "comment": _text(comment)}))


@router.post("/browse/{key}/worklog/{worklog_id}/delete")
def delete_worklog(request: Request, key: str, worklog_id: str, env: Env = Depends(current_env)) -> Response:
    return _after(request, env, key, f"browse/{key}", lambda: _write(request, env, "tickets.deleteWorklog", {"issue": key, "worklog_id": worklog_id}))


@router.post("/browse/{key}/assign")
def assign(request: Request, key: str, assignee: str = Form(""), env: Env = Depends(current_env)) -> Response:
    return _after(request, env, key, f"browse/{key}", lambda: _write(request, env, "tickets.assignIssue", {"issue": key, "assignee": assignee or None}))


def _labels(text: str) -> list[str]:
    """Labels typed in one box: separated by spaces or commas (a label holds no space)."""
    return _names(re.split(r"[\s,]+", text))


def _names(values: list[str]) -> list[str]:
    """Picked names, blanks (a picker's empty marker) and repeats left out, in order."""
    return list(dict.fromkeys(v.strip() for v in values if v.strip()))


def _edits(issue: dict[str, Any], summary: str | None, issue_type: str | None, priority: str | None, labels: str | None,
           components: list[str] | None, fix_versions: list[str] | None, parent: str | None, story_points: str | None,
           duedate: str | None) -> dict[str, Any]:
    """Jira's field values for what the edit form changed: a field the form did not send, or sent as it
    stands, is not set (so saving the form touches only what was edited, as Jira's inline edits do)."""
    fields: dict[str, Any] = {}
    if summary is not None and summary.strip() and summary != issue["summary"]:
        fields["summary"] = summary
    if issue_type and issue_type != issue["issue_type"]["name"]:
        fields["issuetype"] = {"name": issue_type}
    if priority and priority != issue["priority"]["name"]:
        fields["priority"] = {"name": priority}
    if labels is not None and sorted(set(_labels(labels))) != sorted(issue["labels"]):
        fields["labels"] = _labels(labels)
    for name, picked, now in (("components", components, issue["components"]), ("fixVersions", fix_versions, issue["fix_versions"])):
        if picked is not None and sorted(_names(picked)) != sorted(now):
            fields[name] = [{"name": n} for n in _names(picked)]
    if parent is not None and parent.strip().upper() != issue.get("parent", {}).get("key", ""):
        fields["parent"] = {"key": parent.strip().upper()} if parent.strip() else None
    if story_points is not None:
        now_points = issue.get("story_points")
        given = story_points.strip()
        try:
            same = (float(given) if given else None) == (float(now_points) if now_points is not None else None)
        except ValueError:
            same = False  # not a number: the operation says what it takes
        if not same:
            fields[catalog.STORY_POINTS] = given or None
    if duedate is not None and (duedate or None) != issue["duedate"]:
        fields["duedate"] = duedate or None
    return fields


def _estimates(tracking: dict[str, Any], original: str | None, remaining: str | None) -> dict[str, Any]:
    """The time tracking estimates the form changed ("2d 4h"; empty clears one), as Jira's timetracking value."""
    changed: dict[str, Any] = {}
    for name, given in (("originalEstimate", original), ("remainingEstimate", remaining)):
        if given is not None and " ".join(given.split()) != tracking.get(name, ""):
            changed[name] = given.strip() or None
    return changed


@router.post("/browse/{key}/edit")
def edit(request: Request, key: str, summary: str | None = Form(None), issue_type: str | None = Form(None), priority: str | None = Form(None),
         labels: str | None = Form(None), components: list[str] | None = Form(None), fix_versions: list[str] | None = Form(None),
         parent: str | None = Form(None), story_points: str | None = Form(None), duedate: str | None = Form(None),
         original_estimate: str | None = Form(None), remaining_estimate: str | None = Form(None),
         env: Env = Depends(current_env)) -> Response:
    try:
        issue, tracking = _read(request, env, lambda svc: (svc.get_issue(issue=key, style="simplified", comment_limit=0),
                                                           svc.get_issue(issue=key, fields="timetracking")["fields"]["timetracking"]))
    except TicketsError:
        return _issue_page(request, env, key)
    fields = _edits(issue, summary, issue_type, priority, labels, components, fix_versions, parent, story_points, duedate)
    estimates = _estimates(tracking, original_estimate, remaining_estimate)
    if estimates:
        fields["timetracking"] = estimates
    if not fields:
        return _see_other(_back(request, env, f"browse/{issue['key']}"))
    return _after(request, env, key, f"browse/{issue['key']}", lambda: _write(request, env, "tickets.updateIssue", {"issue": key, "fields": fields}))


@router.post("/browse/{key}/link")
def link(request: Request, key: str, relation: str = Form(""), link_type: str = Form(""), direction: str = Form("outward"), other: str = Form(""),
         env: Env = Depends(current_env)) -> Response:
    """Link this issue to another: `relation` is the phrase picked ("outward:Blocks" is "this issue blocks",
    "inward:Blocks" is "this issue is blocked by"), or `link_type` with a `direction`."""
    if relation:
        direction, _, link_type = relation.partition(":")
    inward, outward = (key, other.strip()) if direction != "inward" else (other.strip(), key)
    return _after(request, env, key, f"browse/{key}",
                  lambda: _write(request, env, "tickets.createIssueLink", {"link_type": link_type, "inward_issue": inward, "outward_issue": outward}))


@router.post("/browse/{key}/worklog")
def worklog(request: Request, key: str, time_spent: str = Form(""), comment: str = Form(""), env: Env = Depends(current_env)) -> Response:
    return _after(request, env, key, f"browse/{key}",
                  lambda: _write(request, env, "tickets.addWorklog", {"issue": key, "time_spent": time_spent, "comment": comment or None}))


@router.post("/browse/{key}/sprint")
def to_sprint(request: Request, key: str, sprint_id: str = Form(...), back: str = Form(""), env: Env = Depends(current_env)) -> Response:
    return _after(request, env, key, back or f"browse/{key}",
                  lambda: _write(request, env, "tickets.addIssuesToSprint", {"sprint_id": sprint_id, "issues": key}))
