"""Working together on an issue: comments, links, epics, watchers, worklogs and the changelog.

The operations are bound into `TicketsService` (service.py); `self` is that service.
"""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import select

from apps.tickets import catalog, shapes
from apps.tickets import queries as Q
from apps.tickets import fields as F
from apps.tickets.drafts import Draft
from apps.tickets.errors import TicketsError, not_found
from apps.tickets.ids import format_duration, jira_time, parse_duration, parse_time
from apps.tickets.models import ChangeItem, Comment, Issue, Link, RemoteLink, User, Watcher, Worklog
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


@operation("tickets.getRemoteLinks")
def get_remote_links(self, issue: IssueRef, style: Style = "jira") -> dict[str, Any]:
    """An issue's links to pages outside Jira (a support ticket's Salesforce case)."""
    found = self.issue(issue)
    links = list(self.db.scalars(select(RemoteLink).where(RemoteLink.issue_id == found.id).order_by(RemoteLink.id)))
    if style == "simplified":
        return {"_list": [{"id": str(r.id), "url": r.url, "title": r.title} for r in links]}
    return {"_list": [{"id": r.id, "self": f"{self.base}/rest/api/3/issue/{found.key}/remotelink/{r.id}", "application": {},
                       "object": {"url": r.url, "title": r.title, "icon": {}, "status": {"icon": {}}}} for r in links]}


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
@operation("tickets.addWorklog", writes=True)
def add_worklog(self, issue: IssueRef, time_spent: Duration | None = None, comment: Body | None = None, started: DateText | None = None,
                time_spent_seconds: int | None = None, api: str = "3", style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """Log time on an issue ("1h 30m"; 1d = 8h, 1w = 5d)."""
    self.check_cloud(cloud_id)
    found = self.draft(issue)
    seconds = time_spent_seconds
    if time_spent is not None and str(time_spent).strip():
        seconds = parse_duration(str(time_spent))
        if seconds is None:
            raise TicketsError("invalid_field", f"Invalid time duration entered: {str(time_spent)[:40]!r}. Use e.g. '1h 30m', '2d', '45m'.", field="timeLogged")
    if seconds is None or seconds < 60 or seconds > MAX_WORK_SECONDS:
        raise TicketsError("invalid_field", "Time spent is required: at least 1m and at most 10w, e.g. '1h 30m'.", field="timeLogged")
    when = self.stamp()
    if started:
        try:
            moment = parse_time(started) if "T" in started else parse_time(f"{started[:10]}T09:00:00.000+0000")
        except ValueError:
            raise TicketsError("invalid_field", f"started must look like '2026-01-15T10:30:00.000+0000'; got {started[:40]!r}.", field="started") from None
        when = jira_time(moment)
    total = Q.TIME_SPENT.scalar(self.db, issue_id=found.id) or 0
    row = Q.WorklogRow(id=max(Q.MAX_WORKLOG_ID.scalar(self.db) or 0, 9999) + 1, issue_id=found.id, author_id=self.actor_id, seconds=seconds,
                       started=when, created=self.stamp(), comment=F.text(comment, "comment") if comment else "")
    Q.INSERT_WORKLOG.run(self.db, **row._asdict())
    self.record(found, [("timespent", str(total), str(total), str(total + seconds), str(total + seconds))])
    found.save(self.db)
    author = Q.USER_BY_ID.first(self.db, id=self.actor_id)
    if style == "simplified":
        return {"message": "Worklog added successfully", "worklog": {"id": str(row.id), "time_spent": format_duration(seconds),
                "time_spent_seconds": seconds, "started": row.started, "comment": row.comment, "author": author.display_name if author else None}}
    return shapes.worklog(row, author, self.base, v3=api != "2")


@operation("tickets.getWorklogs")
def get_worklogs(self, issue: IssueRef, api: str = "3", style: Style = "jira") -> dict[str, Any]:
    """Time logged on an issue, oldest first."""
    found = self.issue(issue)
    rows = list(self.db.scalars(select(Worklog).where(Worklog.issue_id == found.id).order_by(Worklog.started, Worklog.id)))
    users = {u.account_id: u for u in self.db.scalars(select(User).where(User.account_id.in_({r.author_id for r in rows})))}
    if style == "simplified":  # mcp-atlassian's entries: the comment as text, the author by name
        return {"worklogs": [{"id": str(r.id), "comment": r.comment or "", "created": r.created, "updated": r.created, "started": r.started,
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


