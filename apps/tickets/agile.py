"""Boards and sprints (Jira Software's agile API). Bound into `TicketsService`; `self` is it.

An issue's sprints are the open one it is in and the closed ones it was carried through;
adding it to an open sprint takes it out of any other open sprint, as Jira does.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from apps.tickets import catalog, shapes
from apps.tickets import fields as F
from apps.tickets import queries as Q
from apps.tickets.drafts import Draft
from apps.tickets.errors import TicketsError, not_found
from apps.tickets.ids import jira_time, parse_time
from apps.tickets.models import Board, Issue, Sprint, SprintIssue
from apps.tickets.params import DateText, Limit, Names, Offset, ProjectRef, SprintState, Style
from officegym.core.operations import operation

STATES = ("future", "active", "closed")
MAX_ISSUES_PER_CALL = 50  # Jira's limit for moving issues to a sprint


def _board(self, board_id: int) -> Board:
    found = self.db.get(Board, board_id) if isinstance(board_id, int) and 0 < board_id < 2**31 else None
    if found is None:
        known = ", ".join(f"{b.id} ({b.name})" for b in self.db.scalars(select(Board).order_by(Board.id)))
        raise not_found("board", f"Board {board_id} does not exist or you do not have permission to see it. Boards: {known}.")
    return found


def _sprint(self, sprint_id: int) -> Sprint:
    found = self.db.get(Sprint, sprint_id) if isinstance(sprint_id, int) and 0 < sprint_id < 2**31 else None
    if found is None:
        raise not_found("sprint", f"Sprint {sprint_id} does not exist (see the board's sprints).")
    return found


def _board_json(self, b: Board) -> dict[str, Any]:
    p = catalog.PROJECT_BY_KEY[b.project_key]
    return {"id": b.id, "self": f"{self.base}/rest/agile/1.0/board/{b.id}", "name": b.name, "type": b.type,
            "location": {"projectId": int(p.id), "projectKey": p.key, "projectName": p.name, "displayName": f"{p.name} ({p.key})",
                         "projectTypeKey": p.kind}}


@operation("tickets.getBoards")
def get_boards(self, project: ProjectRef | None = None, board_type: str | None = None, name: str | None = None,
               start_at: Offset | None = None, max_results: Limit | None = None, style: Style = "jira") -> dict[str, Any]:
    """The agile boards, optionally of one project, type (scrum, kanban) or name."""
    stmt = select(Board).order_by(Board.id)
    if project:
        stmt = stmt.where(Board.project_key == self.project(project).key)
    if board_type:
        if board_type.lower() not in ("scrum", "kanban", "simple"):
            raise TicketsError("invalid_arguments", "type must be 'scrum', 'kanban' or 'simple'", field="type")
        stmt = stmt.where(Board.type == board_type.lower())
    boards = [b for b in self.db.scalars(stmt) if not name or name.lower() in b.name.lower()]
    start, size = start_at or 0, min(max_results or 50, 100)
    page = boards[start:start + size]
    if style == "simplified":
        return {"_list": [{"id": str(b.id), "name": b.name, "type": b.type, "project_key": b.project_key} for b in page]}
    return {"maxResults": size, "startAt": start, "total": len(boards), "isLast": start + len(page) >= len(boards),
            "values": [_board_json(self, b) for b in page]}


@operation("tickets.getSprints")
def get_sprints(self, board_id: int, state: SprintState | None = None, start_at: Offset | None = None, max_results: Limit | None = None,
                style: Style = "jira") -> dict[str, Any]:
    """A board's sprints, optionally only those in some states (future, active, closed)."""
    board = _board(self, board_id)
    states = [s.strip().lower() for s in (state or "").split(",") if s.strip()]
    bad = [s for s in states if s not in STATES]
    if bad:
        raise TicketsError("invalid_arguments", f"state must be one or more of future, active, closed; got {bad[0][:20]!r}", field="state")
    stmt = select(Sprint).where(Sprint.board_id == board.id).order_by(Sprint.id)
    if states:
        stmt = stmt.where(Sprint.state.in_(states))
    sprints = list(self.db.scalars(stmt))
    start, size = start_at or 0, min(max_results or 50, 50)
    page = sprints[start:start + size]
    if style == "simplified":
        return {"_list": [{"id": str(s.id), "name": s.name, "state": s.state, "start_date": s.start_date, "end_date": s.end_date,
                           "complete_date": s.complete_date, "goal": s.goal} for s in page]}
    return {"maxResults": size, "startAt": start, "isLast": start + len(page) >= len(sprints), "values": [shapes.sprint(s, self.base) for s in page]}


def _issue_page(self: Any, stmt: Any, fields: Names | None, start_at: Offset | None, max_results: Limit | None, style: Style) -> dict[str, Any]:
    """A page of the issues `stmt` selects, in rank order, as the agile API pages them."""
    total = shapes.count(self.db, stmt)
    start, size = start_at or 0, min(max_results or 50, 100)
    page = list(self.db.scalars(stmt.order_by(Issue.rank, Issue.id).offset(start).limit(size)))
    wanted = F.string_list(fields, "fields") if fields else None
    issues = self.shape(page, style, wanted=wanted)
    if style == "simplified":
        return {"total": total, "start_at": start, "max_results": size, "issues": issues}
    return {"expand": "schema,names", "startAt": start, "maxResults": size, "total": total, "issues": issues}


@operation("tickets.getSprintIssues")
def get_sprint_issues(self, sprint_id: int, fields: Names | None = None, start_at: Offset | None = None, max_results: Limit | None = None,
                      style: Style = "jira") -> dict[str, Any]:
    """The issues in a sprint."""
    sprint = _sprint(self, sprint_id)
    stmt = select(Issue).join(SprintIssue, SprintIssue.issue_id == Issue.id).where(SprintIssue.sprint_id == sprint.id)
    return _issue_page(self, stmt, fields, start_at, max_results, style)


@operation("tickets.getSprint")
def get_sprint(self, sprint_id: int, style: Style = "jira") -> dict[str, Any]:
    """One sprint: its name, state, dates, goal and board."""
    sprint = _sprint(self, sprint_id)
    if style == "simplified":
        return _sprint_out(self, sprint, style)
    return shapes.sprint(sprint, self.base)


_DONE_STATUSES = tuple(s.name for s in catalog.STATUSES if s.category == "done")


@operation("tickets.getBoardIssues")
def get_board_issues(self, board_id: int, backlog: bool = False, fields: Names | None = None, start_at: Offset | None = None,
                     max_results: Limit | None = None, style: Style = "jira") -> dict[str, Any]:
    """A board's issues in rank order; with backlog, only its backlog: the issues no future or
    active sprint holds that are not done (Jira Software's board backlog)."""
    board = _board(self, board_id)
    stmt = select(Issue).where(Issue.project_key == board.project_key)
    if backlog:
        in_open = select(SprintIssue.issue_id).join(Sprint, Sprint.id == SprintIssue.sprint_id).where(Sprint.state.in_(("future", "active")))
        stmt = stmt.where(Issue.id.not_in(in_open), Issue.status.not_in(_DONE_STATUSES))
    return _issue_page(self, stmt, fields, start_at, max_results, style)


@operation("tickets.addIssuesToSprint", writes=True)
def add_issues_to_sprint(self, sprint_id: int, issues: Names) -> dict[str, Any]:
    """Move issues into an open sprint (out of any other open sprint); their subtasks follow."""
    sprint = _sprint(self, sprint_id)
    if sprint.state == "closed":
        raise TicketsError("sprint_closed", f"Sprint {sprint.id} ({sprint.name}) is closed; issues can only be moved to a future or active sprint.")
    keys = F.string_list(issues, "issues")
    if not keys or len(keys) > MAX_ISSUES_PER_CALL:
        raise TicketsError("invalid_arguments", f"issues must name 1 to {MAX_ISSUES_PER_CALL} issue keys, e.g. 'ENG-12,ENG-13'", field="issues")
    board = self.db.get(Board, sprint.board_id)
    moving: dict[int, Any] = {}  # plain issue rows by id, in the order given (each issue's subtasks after it)
    for key in keys:
        issue = self.issue_row(key)
        if issue.project_key != board.project_key:
            raise TicketsError("invalid_arguments", f"{issue.key} is not on board {board.name} (project {board.project_key}).", field="issues")
        if catalog.issue_type(issue.issue_type).subtask:
            raise TicketsError("invalid_arguments", f"{issue.key} is a subtask: move its parent and the subtask goes with it.", field="issues")
        for row in (issue, *Q.SUBTASKS_OF.rows(self.db, parent_id=issue.id)):
            moving.setdefault(row.id, row)
    for row in moving.values():  # on the driver: sprint memberships and changelog rows are in no ORM object
        before = Q.OPEN_SPRINT_NAMES.scalars(self.db, issue_id=row.id)
        Q.LEAVE_OTHER_OPEN_SPRINTS.run(self.db, issue_id=row.id, sprint_id=sprint.id)
        if Q.IN_SPRINT.first(self.db, sprint_id=sprint.id, issue_id=row.id) is None:
            Q.INSERT_SPRINT_ISSUE.run(self.db, sprint_id=sprint.id, issue_id=row.id)
        issue = Draft.of(row)
        self.record(issue, [("Sprint", None, ", ".join(before) or None, str(sprint.id), sprint.name)])
        issue.save(self.db)
    return {}


def _open_sprint_names(self, issue_id: int) -> list[str]:
    return list(self.db.scalars(select(Sprint.name).join(SprintIssue, SprintIssue.sprint_id == Sprint.id)
                                .where(SprintIssue.issue_id == issue_id, Sprint.state.in_(("future", "active"))).order_by(Sprint.id)))


def _moment(text: str | None, field: str) -> str | None:
    if not text:
        return None
    value = text.strip()
    try:
        if "T" in value:
            return jira_time(parse_time(value.replace("Z", "+0000")))
        return jira_time(datetime.strptime(value[:10], "%Y-%m-%d").replace(hour=9, tzinfo=UTC))
    except ValueError:
        raise TicketsError("invalid_field", f"{field} must be a date '2026-01-15' or a time '2026-01-15T10:30:00.000+0000'.", field=field) from None


@operation("tickets.createSprint", writes=True)
def create_sprint(self, board_id: int, name: str, start_date: DateText | None = None, end_date: DateText | None = None,
                  goal: str | None = None, style: Style = "jira") -> dict[str, Any]:
    """Create a future sprint on a scrum board."""
    board = _board(self, board_id)
    if board.type != "scrum":
        raise TicketsError("invalid_arguments", f"Board {board.id} is a {board.type} board; sprints live on scrum boards.", field="originBoardId")
    title = (name or "").strip()
    if not title or len(title) > 30:
        raise TicketsError("invalid_field", "Sprint name is required and at most 30 characters.", field="name")
    new_id = (self.db.scalar(select(func.max(Sprint.id))) or 0) + 1
    sprint = Sprint(id=new_id, board_id=board.id, name=title, state="future", goal=(goal or "")[:1000],
                    start_date=_moment(start_date, "startDate"), end_date=_moment(end_date, "endDate"))
    self.db.add(sprint)
    self.stamp()
    self.db.flush()
    return _sprint_out(self, sprint, style)


def _sprint_out(self, s: Sprint, style: str) -> dict[str, Any]:
    if style == "simplified":
        return {"id": str(s.id), "name": s.name, "state": s.state, "start_date": s.start_date, "end_date": s.end_date, "goal": s.goal}
    return shapes.sprint(s, self.base)


@operation("tickets.updateSprint", writes=True)
def update_sprint(self, sprint_id: int, name: str | None = None, state: str | None = None, start_date: DateText | None = None,
                  end_date: DateText | None = None, goal: str | None = None, style: Style = "jira") -> dict[str, Any]:
    """Rename a sprint, set its dates or goal, start it (state=active) or complete it (state=closed)."""
    sprint = _sprint(self, sprint_id)
    if name is not None:
        if not name.strip() or len(name.strip()) > 30:
            raise TicketsError("invalid_field", "Sprint name is required and at most 30 characters.", field="name")
        sprint.name = name.strip()
    if goal is not None:
        sprint.goal = goal[:1000]
    if start_date:
        sprint.start_date = _moment(start_date, "startDate")
    if end_date:
        sprint.end_date = _moment(end_date, "endDate")
    wanted = (state or "").strip().lower()
    if wanted and wanted != sprint.state:
        if (sprint.state, wanted) == ("future", "active"):
            running = self.db.scalar(select(Sprint).where(Sprint.board_id == sprint.board_id, Sprint.state == "active"))
            if running is not None:
                raise TicketsError("sprint_active", f"{running.name} is still active on this board; complete it before starting another.")
            sprint.state = "active"
            sprint.start_date = sprint.start_date or self.stamp()
            if not sprint.end_date:
                sprint.end_date = jira_time(parse_time(sprint.start_date) + timedelta(days=14))
        elif (sprint.state, wanted) == ("active", "closed"):
            _complete(self, sprint)
        else:
            raise TicketsError("invalid_state", f"A {sprint.state} sprint cannot become {wanted[:20]}: future → active → closed.", field="state")
    self.stamp()
    self.db.flush()
    return _sprint_out(self, sprint, style)


def _complete(self, sprint: Sprint) -> None:
    """Close the sprint; unfinished issues move to the board's next future sprint (or the
    backlog) and keep the closed sprint in their history, as Jira does."""
    sprint.state, sprint.complete_date = "closed", self.stamp()
    following = self.db.scalar(select(Sprint).where(Sprint.board_id == sprint.board_id, Sprint.state == "future").order_by(Sprint.id))
    issues = list(self.db.scalars(select(Issue).join(SprintIssue, SprintIssue.issue_id == Issue.id).where(SprintIssue.sprint_id == sprint.id)))
    for issue in issues:
        if catalog.STATUS_BY_NAME[issue.status].category == "done" or following is None:
            continue
        if self.db.get(SprintIssue, (following.id, issue.id)) is None:
            self.db.add(SprintIssue(sprint_id=following.id, issue_id=issue.id))
            self.record(issue, [("Sprint", None, sprint.name, str(following.id), f"{sprint.name}, {following.name}")])
