"""Working together on an issue: comments, links, epics, watchers, worklogs and the changelog.

The operations are bound into `TicketsService` (service.py); `self` is that service.
"""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import select

from apps.tickets import catalog, edits, shapes
from apps.tickets import queries as Q
from apps.tickets import fields as F
from apps.tickets.drafts import Draft
from apps.tickets.errors import TicketsError, not_found
from apps.tickets.ids import format_duration, jira_time, parse_duration, parse_time
from apps.tickets.models import ChangeItem, Comment, Issue, Link, User, Watcher, Worklog
from apps.tickets.params import CloudId, Body, DateText, Duration, IssueRef, IssueRefs, Limit, Offset, Style, UserRef
from officegym.core.operations import operation

MAX_COMMENT = 32_767
MAX_WORK_SECONDS = 10 * 5 * 8 * 3600  # ten working weeks in one entry is a typo, not a day's work
_UNREAD = object()  # a user row not read yet


def add_comment_row(self, issue: Any, body: str) -> Any:
    """A new comment on `issue` (a model object or a plain row), written on the driver: nothing
    in the session holds the new row, and the issue's `updated` is set as the row is."""
    text = body.strip()
    if not text:
        raise TicketsError("invalid_field", "Comment body can not be empty!", field="comment")
    if len(text) > MAX_COMMENT:
        raise TicketsError("invalid_field", f"Comment is too long: at most {MAX_COMMENT} characters.", field="comment")
    values = {"issue_id": issue.id, "author_id": self.actor_id, "body": text, "created": self.stamp(), "updated": self.stamp()}
    row = Q.CommentRow(id=Q.ADD_COMMENT.scalar(self.db, **values), **values)
    if isinstance(issue, (Issue, Draft)):
        issue.updated = self.stamp()  # written with the rest of the operation's changes
    else:
        Q.TOUCH_ISSUE.run(self.db, id=issue.id, updated=self.stamp())
    return row


def _comment_out(self, row: Any, style: str, api: str = "3", author: Any = _UNREAD) -> dict[str, Any]:
    """The comment's shape; `author` is its author's user row when the caller has read it."""
    if author is _UNREAD:
        author = Q.USER_BY_ID.first(self.db, id=row.author_id)
    if style == "simplified":
        return {"id": str(row.id), "body": row.body, "created": row.created, "updated": row.updated,
                "author": author.display_name if author else "Unknown"}
    return shapes.comment(row, author, self.base, row.issue_id, v3=api != "2")


@operation("tickets.addComment", writes=True)
def add_comment(self, issue: IssueRef, body: Body, comment_id: str | None = None, api: str = "3", style: Style = "jira",
                cloud_id: CloudId | None = None) -> dict[str, Any]:
    """Add a comment to an issue (with `comment_id`: edit that comment instead)."""
    self.check_cloud(cloud_id)
    if comment_id:
        return edit_comment(self, issue=issue, comment_id=comment_id, body=body, api=api, style=style)
    found, me = self.issue_with_actor(issue)
    row = add_comment_row(self, found, F.text(body, "body"))
    return _comment_out(self, row, style, api, author=me)  # its author is the actor


def _comment_row(self, found: Issue, comment_id: str) -> Comment:
    row = self.db.get(Comment, int(comment_id)) if str(comment_id).strip().isdigit() and len(str(comment_id).strip()) < 10 else None
    if row is None or row.issue_id != found.id:
        raise not_found("comment", f"Comment {str(comment_id)[:20]!r} does not exist on {found.key} (see its comments).")
    return row


@operation("tickets.getComment")
def get_comment(self, issue: IssueRef, comment_id: str, api: str = "3", style: Style = "jira") -> dict[str, Any]:
    """One comment of an issue, by its id."""
    return _comment_out(self, _comment_row(self, self.issue(issue), comment_id), style, api)


@operation("tickets.editComment", writes=True)
def edit_comment(self, issue: IssueRef, comment_id: str, body: Body, api: str = "3", style: Style = "jira") -> dict[str, Any]:
    """Change the text of one of your comments."""
    found = self.issue(issue)
    row = _comment_row(self, found, comment_id)
    if row.author_id != self.actor_id:
        raise TicketsError("forbidden", "You can only edit your own comments.", status=403)
    text = F.text(body, "body").strip()
    if not text:
        raise TicketsError("invalid_field", "Comment body can not be empty!", field="comment")
    row.body, row.updated = text, self.stamp()
    found.updated = self.stamp()
    self.db.flush()
    return _comment_out(self, row, style, api)


@operation("tickets.deleteComment", writes=True)
def delete_comment(self, issue: IssueRef, comment_id: str) -> dict[str, Any]:
    """Delete one of your comments."""
    found = self.issue(issue)
    row = _comment_row(self, found, comment_id)
    if row.author_id != self.actor_id:
        raise TicketsError("forbidden", "You do not have the permission to delete this comment: only its author can.", status=403)
    self.db.delete(row)
    found.updated = self.stamp()
    self.db.flush()
    return {}


@operation("tickets.getComments")
def get_comments(self, issue: IssueRef, start_at: Offset | None = None, max_results: Limit | None = None, api: str = "3", style: Style = "jira") -> dict[str, Any]:
    """An issue's comments, oldest first."""
    found = self.issue(issue)
    rows = list(self.db.scalars(select(Comment).where(Comment.issue_id == found.id).order_by(Comment.created, Comment.id)))
    start, size = start_at or 0, min(max_results or 50, 5000)
    page = rows[start:start + size]
    shaped = [_comment_out(self, r, style, api) for r in page]
    if style == "simplified":
        return {"_list": shaped}
    return {"startAt": start, "maxResults": size, "total": len(rows), "comments": shaped}


def histories(self, issue: Issue) -> list[dict[str, Any]]:
    rows = list(self.db.scalars(select(ChangeItem).where(ChangeItem.issue_id == issue.id).order_by(ChangeItem.history_id, ChangeItem.id)))
    users = {u.account_id: u for u in self.db.scalars(select(User).where(User.account_id.in_({r.author_id for r in rows if r.author_id})))}
    out: list[dict[str, Any]] = []
    for row in rows:
        if not out or out[-1]["id"] != str(row.history_id):
            out.append({"id": str(row.history_id), "author": shapes.user(users.get(row.author_id or ""), self.base), "created": row.created, "items": []})
        out[-1]["items"].append({"field": row.field, "fieldtype": "custom" if row.field in ("Story Points", "Salesforce Case", "Sprint") else "jira",
                                 "from": row.from_value, "fromString": row.from_string, "to": row.to_value, "toString": row.to_string})
    return out


@operation("tickets.getChangelog")
def get_changelog(self, issue: IssueRef, start_at: Offset | None = None, max_results: Limit | None = None) -> dict[str, Any]:
    """Every change to an issue's fields, oldest first."""
    found = self.issue(issue)
    every = histories(self, found)
    start, size = start_at or 0, min(max_results or 100, 1000)
    page = every[start:start + size]
    return {"self": f"{self.base}/rest/api/3/issue/{found.key}/changelog", "startAt": start, "maxResults": size, "total": len(every),
            "isLast": start + len(page) >= len(every), "values": page}


# -- links ---------------------------------------------------------------------------------
@operation("tickets.getLinkTypes")
def get_link_types(self, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """The kinds of issue link: Blocks, Cloners, Duplicate, Relates."""
    self.check_cloud(cloud_id)
    types = [{"id": t.id, "name": t.name, "inward": t.inward, "outward": t.outward, "self": f"{self.base}/rest/api/3/issueLinkType/{t.id}"}
             for t in catalog.LINK_TYPES]
    return {"_list": types} if style == "simplified" else {"issueLinkTypes": types}


@operation("tickets.createIssueLink", writes=True)
def create_issue_link(self, link_type: str, inward_issue: IssueRef, outward_issue: IssueRef, comment: Body | None = None, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """Link two issues: the inward issue <outward verb> the outward issue ("ENG-5 blocks SUP-9")."""
    self.check_cloud(cloud_id)
    kind = catalog.link_type(link_type)
    if kind is None:
        raise TicketsError("invalid_field", f"No issue link type named '{str(link_type)[:60]}'. Types: " + ", ".join(
            f"{t.name} ({t.outward} / {t.inward})" for t in catalog.LINK_TYPES) + ".", field="type", status=404)
    source, target = self.draft(inward_issue), self.draft(outward_issue)
    if source.id == target.id:
        raise TicketsError("invalid_field", "An issue cannot be linked to itself.", field="outwardIssue")
    exists = Q.LINK_BETWEEN.first(self.db, type_name=kind.name, source_id=source.id, target_id=target.id)
    if exists is None:
        new_id = max(Q.MAX_LINK_ID.scalar(self.db) or 0, 9999) + 1
        Q.INSERT_LINK.run(self.db, id=new_id, type_name=kind.name, source_id=source.id, target_id=target.id)
        self.record(source, [("Link", None, None, target.key, f"This issue {kind.outward} {target.key}")])
        self.record(target, [("Link", None, None, source.key, f"This issue {kind.inward} {source.key}")])
    if comment:
        add_comment_row(self, source, F.text(comment, "comment"))
    source.save(self.db)
    target.save(self.db)
    if style == "simplified":
        return {"success": True, "message": f"Link created between {source.key} and {target.key}",
                "link_type": kind.name, "inward_issue": source.key, "outward_issue": target.key}
    return {}


@operation("tickets.deleteIssueLink", writes=True)
def delete_issue_link(self, link_id: str) -> dict[str, Any]:
    """Remove an issue link by its id (from the issue's issuelinks)."""
    row = self.db.get(Link, int(link_id)) if str(link_id).strip().isdigit() and len(str(link_id).strip()) < 10 else None
    if row is None:
        raise not_found("link", f"No issue link with id {str(link_id)[:20]!r}.")
    kind = catalog.link_type(row.type_name)
    source, target = self.db.get(Issue, row.source_id), self.db.get(Issue, row.target_id)
    self.db.delete(row)
    self.record(source, [("Link", target.key, f"This issue {kind.outward} {target.key}", None, None)])
    self.record(target, [("Link", source.key, f"This issue {kind.inward} {source.key}", None, None)])
    self.db.flush()
    return {}


@operation("tickets.linkToEpic", writes=True)
def link_to_epic(self, issue: IssueRef, epic: IssueRef, style: Style = "jira") -> dict[str, Any]:
    """Put an issue under an epic (the epic becomes its parent)."""
    found, parent = self.draft(issue), self.issue_row(epic)
    if parent.issue_type != "Epic":
        raise TicketsError("invalid_field", f"{parent.key} is a {parent.issue_type}, not an Epic.", field="epic")
    self.record(found, self.apply(found, {"parent": parent.key}))
    found.save(self.db)
    if style == "simplified":
        return {"message": f"Issue {found.key} has been linked to epic {parent.key}.", "issue": self.one(found, style)}
    return {}


@operation("tickets.moveIssues", writes=True)
def move_issues(self, issues: IssueRefs, to: Literal["epic", "no_epic", "backlog"], epic: IssueRef | None = None) -> dict[str, Any]:
    """Move issues all together or not at all (Jira Software's bulk moves): under an epic, out of
    their epic, or out of their open sprints to the backlog. One refused issue moves none."""
    if to == "epic" and not epic:
        raise TicketsError("invalid_field", "epic is required to move issues under an epic", field="epic")
    for ref in issues:
        if to == "epic":
            link_to_epic(self, ref, epic)
        else:
            self.update_issue(ref, fields={"parent": None} if to == "no_epic" else {catalog.SPRINT_FIELD: None})
    return {}


# -- watchers ------------------------------------------------------------------------------
@operation("tickets.getWatchers")
def get_watchers(self, issue: IssueRef, style: Style = "jira") -> dict[str, Any]:
    """Who watches an issue."""
    found = self.issue(issue)
    users = list(self.db.scalars(select(User).join(Watcher, Watcher.account_id == User.account_id).where(Watcher.issue_id == found.id).order_by(User.display_name)))
    if style == "simplified":
        return {"issue_key": found.key, "watcher_count": len(users), "watchers": [shapes.simple_user(u) for u in users]}
    return {"self": f"{self.base}/rest/api/3/issue/{found.key}/watchers", "isWatching": any(u.account_id == self.actor_id for u in users),
            "watchCount": len(users), "watchers": [shapes.user(u, self.base) for u in users]}


@operation("tickets.addWatcher", writes=True)
def add_watcher(self, issue: IssueRef, account: UserRef | None = None, style: Style = "jira") -> dict[str, Any]:
    """Add a watcher (you, when no one is named)."""
    found = self.issue(issue)
    person = self.user(account, "accountId") if account else self.user(self.actor_id)
    if self.db.get(Watcher, (found.id, person.account_id)) is None:
        self.db.add(Watcher(issue_id=found.id, account_id=person.account_id))
        self.stamp()
        self.db.flush()
    return {"success": True, "message": f"{person.display_name} is watching {found.key}"} if style == "simplified" else {}


@operation("tickets.removeWatcher", writes=True)
def remove_watcher(self, issue: IssueRef, account: UserRef | None = None, style: Style = "jira") -> dict[str, Any]:
    """Stop a user (you, when no one is named) watching an issue."""
    found = self.issue(issue)
    person = self.user(account, "accountId") if account else self.user(self.actor_id)
    row = self.db.get(Watcher, (found.id, person.account_id))
    if row is not None:
        self.db.delete(row)
        self.stamp()
        self.db.flush()
    return {"success": True, "message": f"{person.display_name} no longer watches {found.key}"} if style == "simplified" else {}


# -- worklogs ------------------------------------------------------------------------------
AdjustEstimate = Literal["auto", "leave", "new", "manual"]


def _work_seconds(time_spent: str | None, time_spent_seconds: int | None, required: bool = True) -> int | None:
    """The time a worklog records, from Jira's text ("1h 30m") or its seconds."""
    seconds = time_spent_seconds
    if time_spent is not None and str(time_spent).strip():
        seconds = parse_duration(str(time_spent))
        if seconds is None:
            raise TicketsError("invalid_field", f"Invalid time duration entered: {str(time_spent)[:40]!r}. Use e.g. '1h 30m', '2d', '45m'.", field="timeLogged")
    if seconds is None and not required:
        return None
    if seconds is None or seconds < 60 or seconds > MAX_WORK_SECONDS:
        raise TicketsError("invalid_field", "Time spent is required: at least 1m and at most 10w, e.g. '1h 30m'.", field="timeLogged")
    return seconds


def _started(started: str) -> str:
    try:
        moment = parse_time(started) if "T" in started else parse_time(f"{started[:10]}T09:00:00.000+0000")
    except ValueError:
        raise TicketsError("invalid_field", f"started must look like '2026-01-15T10:30:00.000+0000'; got {started[:40]!r}.", field="started") from None
    return jira_time(moment)


def _adjust(issue: Any, mode: str | None, worked: int, new_estimate: str | None, manual: str | None, manual_name: str,
            changes: list[tuple[str, Any, Any, Any, Any]]) -> None:
    """Jira's adjustEstimate: the issue's remaining estimate after `worked` seconds of logged work
    were added (negative: taken away). "auto" takes the work off the remaining estimate (never
    below 0; an issue with no estimate keeps none), "leave" keeps it, "new" sets it to
    `new_estimate`, "manual" moves it by `manual` (reduceBy when logging, increaseBy when deleting)."""
    mode = mode or "auto"
    if mode == "leave":
        return
    if mode == "new":
        if new_estimate is None or not str(new_estimate).strip():
            raise TicketsError("invalid_field", "newEstimate is required when adjustEstimate is 'new', e.g. '2d'.", field="newEstimate")
        edits.set_remaining(issue, edits.estimate(new_estimate, "newEstimate"), changes)
    elif mode == "manual":
        if manual is None or not str(manual).strip():
            raise TicketsError("invalid_field", f"{manual_name} is required when adjustEstimate is 'manual', e.g. '1h'.", field=manual_name)
        amount = edits.estimate(manual, manual_name) or 0
        now = issue.remaining_estimate or 0
        edits.set_remaining(issue, max(0, now - amount if worked >= 0 else now + amount), changes)
    elif issue.remaining_estimate is not None:
        edits.set_remaining(issue, max(0, issue.remaining_estimate - worked), changes)


@operation("tickets.addWorklog", writes=True)
def add_worklog(self, issue: IssueRef, time_spent: Duration | None = None, comment: Body | None = None, started: DateText | None = None,
                time_spent_seconds: int | None = None, adjust_estimate: AdjustEstimate | None = None, new_estimate: Duration | None = None,
                reduce_by: Duration | None = None, original_estimate: Duration | None = None, remaining_estimate: Duration | None = None,
                api: str = "3", style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """Log time on an issue ("1h 30m"; 1d = 8h, 1w = 5d). adjustEstimate: auto (default) takes the
    time off the remaining estimate, leave keeps it, new sets it to newEstimate, manual reduces it by reduceBy.
    original_estimate / remaining_estimate (mcp-atlassian's) set the issue's estimates as the time is logged."""
    self.check_cloud(cloud_id)
    found = self.draft(issue)
    seconds = _work_seconds(time_spent, time_spent_seconds)
    when = _started(started) if started else self.stamp()
    total = Q.TIME_SPENT.scalar(self.db, issue_id=found.id) or 0
    row = Q.WorklogRow(id=max(Q.MAX_WORKLOG_ID.scalar(self.db) or 0, 9999) + 1, issue_id=found.id, author_id=self.actor_id, seconds=seconds,
                       started=when, created=self.stamp(), comment=F.text(comment, "comment") if comment else "", updated=None)
    changes: list[tuple[str, Any, Any, Any, Any]] = []
    if original_estimate is not None and str(original_estimate).strip():
        edits.set_estimates(found, {"originalEstimate": original_estimate}, changes)
    if remaining_estimate is not None and str(remaining_estimate).strip():
        adjust_estimate, new_estimate = "new", remaining_estimate
    _adjust(found, adjust_estimate, seconds, new_estimate, reduce_by, "reduceBy", changes)
    Q.INSERT_WORKLOG.run(self.db, **row._asdict())
    self.record(found, [*changes, ("timespent", str(total), str(total), str(total + seconds), str(total + seconds)),
                        ("WorklogId", None, None, str(row.id), str(row.id))])
    found.save(self.db)
    author = Q.USER_BY_ID.first(self.db, id=self.actor_id)
    if style == "simplified":
        return {"message": "Worklog added successfully", "worklog": {"id": str(row.id), "time_spent": format_duration(seconds),
                "time_spent_seconds": seconds, "started": row.started, "comment": row.comment, "author": author.display_name if author else None,
                "original_estimate_updated": bool(original_estimate and str(original_estimate).strip()),
                "remaining_estimate_updated": bool(remaining_estimate and str(remaining_estimate).strip())}}
    return shapes.worklog(row, author, self.base, v3=api != "2")


def _own_worklog(self, found: Any, worklog_id: str, verb: str) -> Worklog:
    row = self.db.get(Worklog, int(worklog_id)) if str(worklog_id).strip().isdigit() and len(str(worklog_id).strip()) < 10 else None
    if row is None or row.issue_id != found.id:
        raise not_found("worklog", f"Worklog {str(worklog_id)[:20]!r} does not exist on {found.key} (see its worklogs).")
    if row.author_id != self.actor_id:
        raise TicketsError("forbidden", f"You do not have the permission to {verb} this worklog: only its author can.", status=403)
    return row


@operation("tickets.updateWorklog", writes=True)
def update_worklog(self, issue: IssueRef, worklog_id: str, time_spent: Duration | None = None, comment: Body | None = None,
                   started: DateText | None = None, time_spent_seconds: int | None = None, adjust_estimate: AdjustEstimate | None = None,
                   new_estimate: Duration | None = None, api: str = "3") -> dict[str, Any]:
    """Change one of your worklogs (its time, description or start). adjustEstimate: auto (default)
    moves the remaining estimate by the change in time spent, leave keeps it, new sets it to newEstimate."""
    if adjust_estimate == "manual":
        raise TicketsError("invalid_field", "adjustEstimate for an edited worklog is one of: auto, leave, new.", field="adjustEstimate")
    found = self.draft(issue)
    row = _own_worklog(self, found, worklog_id, "edit")
    seconds = _work_seconds(time_spent, time_spent_seconds, required=False)
    if seconds is None and comment is None and not started:
        raise TicketsError("invalid_arguments", "nothing to update: pass timeSpent (e.g. '2h'), comment or started.")
    before = row.seconds
    total = Q.TIME_SPENT.scalar(self.db, issue_id=found.id) or 0
    changes: list[tuple[str, Any, Any, Any, Any]] = []
    if seconds is not None:
        _adjust(found, adjust_estimate, seconds - before, new_estimate, None, "", changes)
        row.seconds = seconds
        changes.append(("timespent", str(total), str(total), str(total - before + seconds), str(total - before + seconds)))
    elif adjust_estimate == "new":
        _adjust(found, "new", 0, new_estimate, None, "", changes)
    if comment is not None:
        row.comment = F.text(comment, "comment")
    if started:
        row.started = _started(started)
    row.updated = self.stamp()
    self.db.flush()
    self.record(found, changes)
    found.updated = self.stamp()
    found.save(self.db)
    return shapes.worklog(row, Q.USER_BY_ID.first(self.db, id=row.author_id), self.base, v3=api != "2")


@operation("tickets.deleteWorklog", writes=True)
def delete_worklog(self, issue: IssueRef, worklog_id: str, adjust_estimate: AdjustEstimate | None = None, new_estimate: Duration | None = None,
                   increase_by: Duration | None = None) -> dict[str, Any]:
    """Delete one of your worklogs. adjustEstimate: auto (default) gives its time back to the
    remaining estimate, leave keeps it, new sets it to newEstimate, manual increases it by increaseBy."""
    found = self.draft(issue)
    row = _own_worklog(self, found, worklog_id, "delete")
    total = Q.TIME_SPENT.scalar(self.db, issue_id=found.id) or 0
    changes: list[tuple[str, Any, Any, Any, Any]] = []
    _adjust(found, adjust_estimate, -row.seconds, new_estimate, increase_by, "increaseBy", changes)
    changes += [("timespent", str(total), str(total), str(total - row.seconds), str(total - row.seconds)),
                ("WorklogId", str(row.id), str(row.id), None, None)]
    self.db.delete(row)
    self.db.flush()
    self.record(found, changes)
    found.save(self.db)
    return {}


@operation("tickets.getWorklogs")
def get_worklogs(self, issue: IssueRef, api: str = "3", style: Style = "jira") -> dict[str, Any]:
    """Time logged on an issue, oldest first."""
    found = self.issue(issue)
    rows = list(self.db.scalars(select(Worklog).where(Worklog.issue_id == found.id).order_by(Worklog.started, Worklog.id)))
    users = {u.account_id: u for u in self.db.scalars(select(User).where(User.account_id.in_({r.author_id for r in rows})))}
    if style == "simplified":  # mcp-atlassian's entries: the comment as text, the author by name
        return {"worklogs": [{"id": str(r.id), "comment": r.comment or "", "created": r.created, "updated": r.updated or r.created, "started": r.started,
                              "time_spent": format_duration(r.seconds), "time_spent_seconds": r.seconds,
                              "author": users[r.author_id].display_name if r.author_id in users else "Unknown"} for r in rows]}
    return {"startAt": 0, "maxResults": len(rows), "total": len(rows),
            "worklogs": [shapes.worklog(r, users.get(r.author_id), self.base, v3=api != "2") for r in rows]}


@operation("tickets.getWorklog")
def get_worklog(self, issue: IssueRef, worklog_id: str, api: str = "3") -> dict[str, Any]:
    """One worklog of an issue, by its id."""
    found = self.issue(issue)
    row = self.db.get(Worklog, int(worklog_id)) if str(worklog_id).strip().isdigit() and len(str(worklog_id).strip()) < 10 else None
    if row is None or row.issue_id != found.id:
        raise not_found("worklog", f"Worklog {str(worklog_id)[:20]!r} does not exist on {found.key} (see its worklogs).")
    return shapes.worklog(row, self.db.get(User, row.author_id), self.base, v3=api != "2")


