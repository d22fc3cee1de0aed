"""Domain operations of the tickets app (a Jira clone): issues, their fields and workflow.

Every face (REST, MCP, UI) is a binding over `TicketsService`. Methods return Jira REST's
answer (`style="jira"`) or mcp-atlassian's simplified one (`style="simplified"`), raise
`TicketsError` with Jira's messages, and never commit: the caller's transaction makes each
operation atomic. Every field change goes to the changelog in the same transaction.

Comments, links, watchers and worklogs (collab.py), boards and sprints (agile.py), projects,
users and fields (directory.py) and search (search.py) are declared in their own modules and
bound onto this class at its end.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from apps.tickets import agile, catalog, collab, directory, edits, remotelinks, search, shapes, site, workflow
from apps.tickets import queries as Q
from apps.tickets import fields as F
from apps.tickets.drafts import Draft
from apps.tickets.edits import EDITABLE
from apps.tickets.errors import TicketsError, not_found
from apps.tickets.ids import jira_time, split_key
from apps.tickets.models import (
    ChangeItem, Comment, Issue, IssueComponent, IssueVersion, Label, Link, RemoteLink, SprintIssue, User, Watcher, Worklog,
)
from apps.tickets.params import (
    Body, CloudId, CommentLimit, DateText, IssueRef, JsonList, IssueTypeName, JsonObject, Names, ProjectRef, Style, Summary, UserRef, decode,
)
from officegym.core import clock
from officegym.core.db import Meta, get_meta, meta_cache
from officegym.core.operations import operation
from officegym.core.sql import Prepared

ACTOR_META_KEY = "tickets.actor_account_id"
SITE_META_KEY = "tickets.site"
CLOUD_META_KEY = "tickets.cloud_id"
# The meta rows a call that acts reads, in one statement (`TicketsService._meta`): the actor, the
# site its answer links to, and the env clock's two rows (core/clock.py), which a write's tick reads.
CALL_META_KEYS = (ACTOR_META_KEY, SITE_META_KEY, "clock_us", "clock_ticks")
CALL_META = Prepared(select(Meta.key, Meta.value).where(or_(*(Meta.key == key for key in CALL_META_KEYS))))
_ARI = re.compile(r"^ari:cloud:jira:[^:]*:issue/(\d{1,9})$")
MAX_BATCH = 50
# What points at an issue from elsewhere: none of it exists when the issue is created.
NOTHING_YET = frozenset({"subtasks", "issuelinks", "comment", "worklog", catalog.SPRINT_FIELD})


class TicketsService:
    def __init__(self, db: Session, actor_id: str | None = None) -> None:
        self.db = db
        self._actor = actor_id
        self._stamp: str | None = None

    @cached_property
    def actor_id(self) -> str:
        """The acting user's accountId, read when an operation needs it (most reads never do)."""
        return self._actor or self._meta(ACTOR_META_KEY) or ""

    @cached_property
    def base(self) -> str:
        """The site's URL, read when a shape needs it (on its own: most reads need nothing else)."""
        return get_meta(self.db, SITE_META_KEY) or "https://example.atlassian.net"

    @cached_property
    def cloud_id(self) -> str:
        return get_meta(self.db, CLOUD_META_KEY) or ""

    def _meta(self, key: str) -> str | None:
        """A meta value of this env, read with the others a call that acts is likely to need
        (CALL_META: the actor, the site, the clock a write ticks) in one statement, where each
        would be a statement of its own."""
        known = meta_cache(self.db)
        if key not in known:
            for name in CALL_META_KEYS:
                known.setdefault(name, None)
            known.update(CALL_META.tuples(self.db))
        return get_meta(self.db, key)

    def check_cloud(self, cloud_id: str | None) -> None:
        """The official server's `cloudId`: this site's id, URL or host name."""
        if cloud_id is None:
            return
        given = cloud_id.strip().rstrip("/").lower()
        host = self.base.lower().removeprefix("https://")
        if given not in (self.cloud_id.lower(), self.base.lower(), host):
            raise TicketsError("cloud_not_found", f"cloudId {cloud_id[:60]!r} is not a site you can access; use {self.cloud_id!r} "
                                                  "(from getAccessibleAtlassianResources) or the site URL", field="cloudId", status=404)

    # -- lookups -------------------------------------------------------------------------
    def stamp(self) -> str:
        """The time of this operation's writes: one tick of the env clock per operation."""
        if self._stamp is None:
            self._meta("clock_ticks")  # the clock's rows, read with the other meta values a call needs
            self._stamp = jira_time(clock.from_micros(clock.tick(self.db)))
        return self._stamp

    def now(self) -> Any:
        return clock.now(self.db)

    def issue(self, ref: str | None) -> Issue:
        """The issue a key, id or ARI names, as a model object (to change it)."""
        return self._find(ref, lambda project, number: self.db.scalar(select(Issue).where(Issue.project_key == project, Issue.number == number)),
                          lambda issue_id: self.db.get(Issue, issue_id))

    def issue_row(self, ref: str | None) -> Any:
        """The issue a key, id or ARI names, as a plain row (to read it, or to write it on the
        driver): no model object is loaded."""
        self.db.flush()  # read on the driver: the ORM's pending changes go first
        return self._find(ref, lambda project, number: Q.issue_by_key(self.db, project, number), lambda issue_id: Q.issue_by_id(self.db, issue_id))

    def issue_with_actor(self, ref: str | None) -> tuple[Any, Any]:
        """The issue a key, id or ARI names (a row with its `id` only), and the acting user's row
        (None when the actor is no user), read in one statement: what a comment needs."""
        self.db.flush()  # read on the driver: the ORM's pending changes go first
        actor = self.actor_id
        row = self._find(ref, lambda project, number: Q.ISSUE_ID_BY_KEY_WITH_ACTOR.first(self.db, project=project, number=number, actor=actor),
                         lambda issue_id: Q.ISSUE_ID_BY_ID_WITH_ACTOR.first(self.db, id=issue_id, actor=actor))
        return row, Q.acting_user(row)

    def draft(self, ref: str | None) -> Draft:
        """The issue a key, id or ARI names, to edit off the ORM (drafts.py): `save` it when done."""
        return Draft.of(self.issue_row(ref))

    def _find(self, ref: str | None, by_key: Any, by_id: Any) -> Any:
        text = (ref or "").strip()
        found = None
        ari = _ARI.match(text)
        if ari:
            text = ari[1]
        key = split_key(text)
        if key:
            found = by_key(*key)
        elif text.isdigit() and len(text) < 10:
            found = by_id(int(text))
        if found is None:
            if not text:
                raise TicketsError("invalid_arguments", "an issue is required: pass a key like 'SUP-12' or a numeric id like '10002'", field="issueIdOrKey")
            raise not_found("issue", f"Issue does not exist or you do not have permission to see it: {text[:64]!r}. Pass a key like 'SUP-12' (see jira_search).")
        return found

    def user(self, ref: str | None, field: str = "accountId") -> User:
        text = (ref or "").strip()
        if not text:
            raise TicketsError("invalid_arguments", f"a user is required for '{field}': an accountId, email or display name", field=field)
        found = Q.USER_BY_ID.first(self.db, id=text)
        if found is None:
            matches = Q.USER_IDS_NAMED.scalars(self.db, low=text.lower())
            if len(matches) > 1:
                raise TicketsError("ambiguous_user", f"{len(matches)} users match {text!r}; pass one of their accountIds: "
                                   + ", ".join(matches[:5]), field=field)
            found = Q.USER_BY_ID.first(self.db, id=matches[0]) if matches else None
        if found is None:
            raise TicketsError("user_not_found", f"User '{text[:80]}' does not exist. Pass an accountId, email or display name (see jira_get_user_profile).", field=field, status=404 if field == "accountId" else 400)
        return found

    def project(self, ref: str | None, field: str = "project") -> catalog.Project:
        found = catalog.project(ref)
        if found is None:
            known = ", ".join(p.key for p in catalog.PROJECTS)
            raise TicketsError("project_not_found", f"No project could be found with key '{(ref or '')[:64]}'. Projects: {known}.", field=field, status=404 if field == "projectIdOrKey" else 400)
        return found

    def shape(self, issues: list[Any], style: str, wanted: list[str] | None = None, v3: bool = True, comment_limit: int | None = None,
              new: bool = False) -> list[dict[str, Any]]:
        """Issues in Jira's shape (or the simplified one); `new` issues, created by this operation,
        have nothing that points at them yet, so what would (subtasks, links, comments, sprints) is not read."""
        if style != "simplified" and wanted == ["id"]:  # Jira's "id": ids only, no envelope (the enhanced search's default)
            return [{"id": str(i.id)} for i in issues]
        want, load, people = self.reads(style, wanted, comment_limit)
        if new:
            load = load - NOTHING_YET
        if style == "simplified":
            limit = 10 if comment_limit is None else comment_limit
            related = shapes.Related.load(self.db, issues, load, comment_limit=limit, people=people)
            keep = None if wanted is None else frozenset(wanted)
            base = self.base if shapes.simple_shows_url(keep) else ""  # only an issue's url names the site
            return shapes.simplified(issues, related, base, limit, keep)
        related = shapes.Related.load(self.db, issues, load, comment_limit=comment_limit, people=people)
        return shapes.issues(issues, related, self.base, want, v3, comment_limit)

    def reads(self, style: str, wanted: list[str] | None, comment_limit: int | None = None) -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]:
        """What shaping issues with these fields reads: the Jira fields shown, the related rows
        loaded, and the people (assignee, ...) whose users are shown."""
        return shapes.reads(style, tuple(wanted) if wanted is not None else None, comment_limit)

    def page_view(self, style: str, wanted: list[str] | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The columns and joined people a page of issues is read with to be shaped so (queries.issue_view)."""
        want, _, people = self.reads(style, wanted)
        if style == "simplified":
            return shapes.simple_columns(frozenset(wanted) if wanted is not None else None), people
        if wanted == ["id"]:
            return ("id",), ()
        return shapes.columns_for(want), people

    def one(self, issue: Any, style: str, **kw: Any) -> dict[str, Any]:
        return self.shape([issue], style, **kw)[0]

    # -- the changelog --------------------------------------------------------------------
    def record(self, issue: Issue, items: list[tuple[str, Any, Any, Any, Any]]) -> None:
        """One changelog history with these items (field, from, fromString, to, toString)."""
        items = [i for i in items if (i[1], i[2]) != (i[3], i[4])]
        if not items:
            return
        # Written on the driver (nothing in the session holds changelog rows).
        history, next_id = (Q.LAST_HISTORY_ID.scalar(self.db) or 0) + 1, (Q.LAST_CHANGE_ID.scalar(self.db) or 0) + 1
        Q.INSERT_CHANGE.run_many(self.db, [
            {"id": next_id + n, "history_id": history, "issue_id": issue.id, "author_id": self.actor_id or None, "created": self.stamp(),
             "field": name, "from_value": _text(from_value), "from_string": _text(from_string), "to_value": _text(to_value),
             "to_string": _text(to_string)}
            for n, (name, from_value, from_string, to_value, to_string) in enumerate(items)])
        issue.updated = self.stamp()

    # -- issues --------------------------------------------------------------------------
    @operation("tickets.getIssue")
    def get_issue(self, issue: IssueRef, fields: Names | None = None, expand: str | None = None, comment_limit: CommentLimit | None = None,
                  update_history: bool = True, api: str = "3", style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
        """One issue with its fields; `expand=changelog` adds its history. (`update_history`, the
        reference server's "add to recently viewed", changes nothing here.)"""
        self.check_cloud(cloud_id)
        found = self.issue_row(issue)
        wanted = F.string_list(fields, "fields") if fields else None
        shaped = self.one(found, style, wanted=wanted, v3=api != "2", comment_limit=comment_limit)
        if expand and "changelog" in expand.lower():
            histories = collab.histories(self, found)
            if style == "simplified":
                shaped["changelog"] = histories
            else:
                shaped["changelog"] = {"startAt": 0, "maxResults": len(histories), "total": len(histories), "histories": histories}
        return shaped

    @operation("tickets.createIssue", writes=True)
    def create_issue(self, project: ProjectRef | None = None, summary: Summary | None = None, issue_type: IssueTypeName | None = None,
                     description: Body | None = None, assignee: UserRef | None = None, priority: str | None = None,
                     labels: Names | None = None, components: Names | None = None, parent: IssueRef | None = None,
                     duedate: DateText | None = None, fields: JsonObject | None = None, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
        """Create an issue in a project; `fields` takes Jira's field JSON for anything else."""
        self.check_cloud(cloud_id)
        raw = dict(decode(fields, "fields", dict))
        sprint = _take_sprint(raw)
        given = F.normalize(raw, EDITABLE | {"project", "sprint"})
        flat = {"summary": summary, "description": description, "issuetype": issue_type, "assignee": assignee, "priority": priority,
                "labels": labels, "components": components, "parent": parent, "duedate": duedate}
        values = {**given, **{k: v for k, v in flat.items() if v is not None}}
        project_ref = project if project is not None else F.ref(given.get("project"), "key", "id")
        if not project_ref:
            raise TicketsError("invalid_arguments", "argument 'project' is required: specify a valid project ID or key (SUP, ENG, IT).", field="project")
        proj = self.project(project_ref)
        if not values.get("issuetype"):
            raise TicketsError("invalid_arguments", f"argument 'issue_type' is required: specify an issue type ({', '.join(proj.issue_types)}).", field="issuetype")
        if not values.get("summary"):
            raise TicketsError("invalid_arguments", "argument 'summary' is required: you must specify a summary of the issue.", field="summary")
        self.db.flush()  # the new issue is written on the driver: the ORM's pending changes go first
        number = (Q.LAST_NUMBER.scalar(self.db, project=proj.key) or 0) + 1
        Q.SET_LAST_NUMBER.run(self.db, project=proj.key, number=number)
        last_id, last_rank = Q.LAST_ISSUE_ID_AND_RANK.first(self.db)
        values_of_new = {name: None for name in Q.ISSUE_COLUMNS} | {
            "id": max(last_id or 0, 9999) + 1, "key": f"{proj.key}-{number}", "project_key": proj.key, "number": number, "issue_type": "Task",
            "summary": "", "description": "", "status": proj.workflow.statuses[0], "priority": catalog.DEFAULT_PRIORITY,
            "reporter_id": self.actor_id or None, "creator_id": self.actor_id or None, "created": self.stamp(), "updated": self.stamp(),
            "rank": (last_rank or 0) + 1}
        Q.INSERT_ISSUE.run(self.db, **values_of_new)
        issue = Draft(values_of_new)
        self.apply(issue, values, creating=True)
        issue.save(self.db)
        watchers = sorted({w for w in (issue.reporter_id, issue.assignee_id) if w})
        Q.INSERT_WATCHER.run_many(self.db, [{"issue_id": issue.id, "account_id": w} for w in watchers])
        if sprint is not None and sprint != (None,):
            agile.add_issues_to_sprint(self, sprint[0], issue.key)
        if style == "simplified":
            return {"message": "Issue created successfully", "issue": self.one(issue, style, new=True)}
        return {"id": str(issue.id), "key": issue.key, "self": f"{self.base}/rest/api/3/issue/{issue.id}"}

    @operation("tickets.batchCreateIssues", writes=True)
    def batch_create_issues(self, issues: JsonList, validate_only: bool = False, style: Style = "jira") -> dict[str, Any]:
        """Create several issues at once: a JSON array of {project_key, summary, issue_type, description?, assignee?,
        components?, additional_fields?} (or Jira's {"fields": {...}}). All or none are created."""
        items = decode(issues, "issues", list)
        if not items or len(items) > MAX_BATCH:
            raise TicketsError("invalid_arguments", f"issues must be a JSON array of 1 to {MAX_BATCH} issues")
        created: list[dict[str, Any]] = []
        # validate_only runs the same creations in a savepoint and rolls it back: the checks are the real ones.
        savepoint = self.db.begin_nested() if validate_only else None
        if savepoint is not None:
            self.db.connection()  # the SAVEPOINT is emitted now, not at the ORM's first statement: creations write on the driver
        try:
            self._create_each(items, created, style)
        finally:
            if savepoint is not None:
                savepoint.rollback()
                self._stamp = None
        if validate_only:
            return {"message": f"All {len(created)} issues are valid; nothing was created (validate_only)", "issues": created}
        if style == "simplified":
            return {"message": f"{len(created)} issues created successfully", "issues": created}
        return {"issues": created, "errors": []}

    def _create_each(self, items: list[Any], created: list[dict[str, Any]], style: str) -> None:
        for n, item in enumerate(items):
            if not isinstance(item, dict):
                raise TicketsError("invalid_arguments", f"issues[{n}] must be an object like {{\"project_key\": \"ENG\", \"summary\": \"…\", \"issue_type\": \"Task\"}}")
            flat = {k: v for k, v in item.items() if k != "fields"}
            known = {"project_key", "project", "summary", "issue_type", "description", "assignee", "components", "additional_fields", "priority", "labels", "parent", "duedate"}
            unknown = sorted(set(flat) - known)
            if unknown:
                raise TicketsError("invalid_arguments", f"issues[{n}]: unknown key {unknown[0][:40]!r}; accepted: {', '.join(sorted(known))} or 'fields'")
            extra = {**decode(item.get("fields"), f"issues[{n}].fields", dict), **decode(flat.get("additional_fields"), f"issues[{n}].additional_fields", dict)}
            try:
                result = self.create_issue(project=flat.get("project_key") or flat.get("project"), summary=flat.get("summary"),
                                           issue_type=flat.get("issue_type"), description=flat.get("description"), assignee=flat.get("assignee"),
                                           priority=flat.get("priority"), labels=flat.get("labels"), components=flat.get("components"),
                                           parent=flat.get("parent"), duedate=flat.get("duedate"), fields=extra or None, style=style)
            except TicketsError as error:
                raise TicketsError(error.code, f"issues[{n}]: {error.message}", field=error.field, status=error.status_code) from None
            created.append(result.get("issue", result))

    @operation("tickets.updateIssue", writes=True)
    def update_issue(self, issue: IssueRef, fields: JsonObject | None = None, additional_fields: JsonObject | None = None,
                     components: Names | None = None, update: JsonObject | None = None, transition: str | None = None,
                     comment: Body | None = None, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
        """Edit fields (Jira's `fields`, and `update` verbs like {"labels": [{"add": "x"}]}); optionally transition and comment."""
        self.check_cloud(cloud_id)
        found = self.draft(issue)
        given, extra = dict(decode(fields, "fields", dict)), dict(decode(additional_fields, "additional_fields", dict))
        sprint = _take_sprint(given) or _take_sprint(extra)
        values = F.normalize(given, EDITABLE | {"sprint"})  # (the Sprint field is taken out above; named among the settable ones)
        values.update(F.normalize(extra, EDITABLE | {"sprint"}))
        if components is not None:
            values["components"] = components
        verbs = dict(decode(update, "update", dict))
        links = edits.link_verbs(verbs.pop(next((k for k in verbs if str(k).lower() == "issuelinks"), "issuelinks"), []))
        notes = edits.comment_verbs(verbs.pop("comment")) if "comment" in verbs else []
        values.update(self.verbs(found, verbs))
        if not values and transition is None and comment is None and sprint is None and not links and not notes:
            raise TicketsError("invalid_arguments", "nothing to update: pass fields, e.g. {\"summary\": \"New title\"} or {\"priority\": {\"name\": \"High\"}}")
        self.record(found, self.apply(found, values))
        if transition:
            self._transition(found, transition, {}, None)
        for note in [*notes, *([comment] if comment else [])]:
            collab.add_comment_row(self, found, F.text(note, "comment"))
        if sprint == (None,):
            self._leave_open_sprints(found)
        found.save(self.db)
        for kind, inward, outward in links:
            self.create_issue_link(kind, inward or found.key, outward or found.key)
        if sprint is not None and sprint != (None,):
            agile.add_issues_to_sprint(self, sprint[0], found.key)
        if style == "simplified":
            return {"message": "Issue updated successfully", "issue": self.one(found, style)}
        return {}

    @operation("tickets.deleteIssue", writes=True)
    def delete_issue(self, issue: IssueRef, delete_subtasks: bool = False, style: Style = "jira") -> dict[str, Any]:
        """Delete an issue (and, with delete_subtasks, its subtasks)."""
        found = self.issue(issue)
        children = list(self.db.scalars(select(Issue).where(Issue.parent_id == found.id)))
        subtasks = [c for c in children if catalog.issue_type(c.issue_type).subtask]
        if subtasks and not delete_subtasks:
            raise TicketsError("has_subtasks", f"Issue {found.key} has {len(subtasks)} subtasks; pass deleteSubtasks=true to delete them too.")
        for child in children:
            if child in subtasks:
                self._erase(child)
            else:
                child.parent_id = None
        key = found.key
        self._erase(found)
        self.stamp()
        return {"message": f"Issue {key} has been deleted successfully."} if style == "simplified" else {}

    def _erase(self, issue: Issue) -> None:
        for table, column in ((Label, Label.issue_id), (IssueComponent, IssueComponent.issue_id), (IssueVersion, IssueVersion.issue_id),
                              (Comment, Comment.issue_id), (Watcher, Watcher.issue_id), (Worklog, Worklog.issue_id),
                              (SprintIssue, SprintIssue.issue_id), (RemoteLink, RemoteLink.issue_id), (ChangeItem, ChangeItem.issue_id)):
            self.db.execute(delete(table).where(column == issue.id))
        self.db.execute(delete(Link).where(or_(Link.source_id == issue.id, Link.target_id == issue.id)))
        self.db.delete(issue)
        self.db.flush()

    @operation("tickets.assignIssue", writes=True)
    def assign_issue(self, issue: IssueRef, assignee: UserRef | None = None, style: Style = "jira") -> dict[str, Any]:
        """Assign an issue to a user (accountId, email or display name); no assignee unassigns it."""
        found = self.draft(issue)
        self.record(found, self.apply(found, {"assignee": assignee}))
        if assignee and Q.IS_WATCHING.first(self.db, issue_id=found.id, account_id=found.assignee_id) is None:
            Q.INSERT_WATCHER.run(self.db, issue_id=found.id, account_id=found.assignee_id)
        found.save(self.db)
        if style == "simplified":
            return {"message": f"Issue {found.key} assigned successfully", "issue": self.one(found, style)}
        return {}

    # -- bound from their own modules ----------------------------------------------------
    apply = edits.apply
    set_parent = edits.set_parent
    set_labels = edits.set_labels
    set_components = edits.set_components
    set_versions = edits.set_versions
    verbs = edits.verbs
    available = workflow.available
    get_transitions = workflow.get_transitions
    transition_issue = workflow.transition_issue
    _transition = workflow.run_transition
    search_issues = search.search_issues
    get_project_issues = search.get_project_issues
    get_changelog = collab.get_changelog
    add_comment = collab.add_comment
    edit_comment = collab.edit_comment
    get_comments = collab.get_comments
    get_comment = collab.get_comment
    get_link_types = collab.get_link_types
    create_issue_link = collab.create_issue_link
    delete_issue_link = collab.delete_issue_link
    link_to_epic = collab.link_to_epic
    move_issues = collab.move_issues
    get_remote_links = remotelinks.get_remote_links
    get_remote_link = remotelinks.get_remote_link
    create_remote_link = remotelinks.create_remote_link
    update_remote_link = remotelinks.update_remote_link
    delete_remote_link = remotelinks.delete_remote_link
    delete_comment = collab.delete_comment
    update_worklog = collab.update_worklog
    delete_worklog = collab.delete_worklog
    get_watchers = collab.get_watchers
    add_watcher = collab.add_watcher
    remove_watcher = collab.remove_watcher
    add_worklog = collab.add_worklog
    get_worklogs = collab.get_worklogs
    get_worklog = collab.get_worklog
    get_boards = agile.get_boards
    get_sprints = agile.get_sprints
    get_sprint_issues = agile.get_sprint_issues
    get_sprint = agile.get_sprint
    get_board_issues = agile.get_board_issues
    add_issues_to_sprint = agile.add_issues_to_sprint
    create_sprint = agile.create_sprint
    update_sprint = agile.update_sprint
    get_projects = directory.get_projects
    get_project = directory.get_project
    get_issue_types = directory.get_issue_types
    get_components = directory.get_components
    get_versions = directory.get_versions
    search_users = directory.search_users
    get_user = directory.get_user
    myself = directory.myself
    search_fields = directory.search_fields
    accessible_resources = site.accessible_resources
    search_text = site.search_text
    get_create_meta = site.get_create_meta
    get_edit_meta = site.get_edit_meta
    _maybe_issue = site.maybe_issue

    def _leave_open_sprints(self, issue: Any) -> None:
        """The Sprint field cleared by an edit: the issue goes back to the backlog (out of its open sprints)."""
        before = Q.OPEN_SPRINT_NAMES.scalars(self.db, issue_id=issue.id)
        if before:
            Q.LEAVE_OTHER_OPEN_SPRINTS.run(self.db, issue_id=issue.id, sprint_id=0)
            self.record(issue, [("Sprint", None, ", ".join(before), None, None)])


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


_SPRINT_NAMES = (catalog.SPRINT_FIELD, "sprint")


def _take_sprint(fields: dict[str, Any]) -> tuple[int | None] | None:
    """The Sprint field of an edit or a creation, taken out of `fields`: Jira Cloud sets it with the
    sprint's id (37, "37", {"id": 37}, [37]), and null or [] sends the issue back to the backlog.
    None when the field is not given, (None,) when it is cleared, (id,) for a sprint."""
    name = next((k for k in fields if str(k).strip().lower() in _SPRINT_NAMES), None)
    if name is None:
        return None
    value = fields.pop(name)
    if isinstance(value, list):
        if len(value) > 1:
            raise TicketsError("invalid_field", "An issue is in one open sprint: give the Sprint field one sprint id.", field=catalog.SPRINT_FIELD)
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("id")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if value is None or value == "":
        return (None,)
    if isinstance(value, bool) or not str(value).strip().isdigit() or len(str(value).strip()) > 9:
        raise TicketsError("invalid_field", f"Number value expected as the Sprint id (the board's sprints list the ids), got {str(value)[:40]!r}.",
                           field=catalog.SPRINT_FIELD)
    return (int(str(value).strip()),)
