"""Jira's JSON shapes of rows: REST v3 (and v2) issues, users, statuses, comments, sprints; and
mcp-atlassian's simplified issue. Issues are shaped in batches (related.py's `Related.load`): one
query per related table for a whole page of results, not one per issue. A row is a model object or a
plain row with the same attribute names (queries.py); both shape alike."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from apps.tickets import catalog
from apps.tickets import queries as Q
from apps.tickets.adf import to_adf
from apps.tickets.ids import format_duration
from apps.tickets.models import Comment, Issue, Link, Sprint, User, Worklog
from apps.tickets.related import Related

DEFAULT_FIELDS = ("summary", "status", "issuetype", "priority", "assignee", "reporter", "project", "labels", "components",
                  "fixVersions", "duedate", "created", "updated", "resolution", "resolutiondate", "parent", "subtasks",
                  "issuelinks", "description", "comment", "watches", "worklog", "timetracking", "timespent", "timeoriginalestimate",
                  "timeestimate", catalog.SPRINT_FIELD, catalog.STORY_POINTS,
                  catalog.CASE_FIELD)


def site(slug: str) -> str:
    return catalog.SITE.format(slug=slug)


def user(u: User | None, base: str) -> dict[str, Any] | None:
    if u is None:
        return None
    return {
        "self": f"{base}/rest/api/3/user?accountId={u.account_id}", "accountId": u.account_id, "accountType": "atlassian",
        "emailAddress": u.email, "displayName": u.display_name, "active": u.active, "timeZone": u.timezone,
        "avatarUrls": {"48x48": f"{base}/avatar/{u.account_id}.png"},
    }


def status(name: str, base: str) -> dict[str, Any]:
    s = catalog.STATUS_BY_NAME[name]
    cat_id, cat_name, color = catalog.CATEGORIES[s.category]
    return {"self": f"{base}/rest/api/3/status/{s.id}", "description": "", "iconUrl": f"{base}/images/icons/statuses/generic.png",
            "name": s.name, "id": s.id,
            "statusCategory": {"self": f"{base}/rest/api/3/statuscategory/{cat_id}", "id": int(cat_id), "key": s.category,
                               "colorName": color, "name": cat_name}}


def issue_type(name: str, base: str) -> dict[str, Any]:
    t = catalog.issue_type(name)
    return {"self": f"{base}/rest/api/3/issuetype/{t.id}", "id": t.id, "description": t.description, "name": t.name,
            "subtask": t.subtask, "hierarchyLevel": t.hierarchy, "iconUrl": f"{base}/images/icons/issuetypes/{t.name.lower()}.svg"}


def priority(name: str, base: str) -> dict[str, Any]:
    p = catalog.priority(name)
    return {"self": f"{base}/rest/api/3/priority/{p.id}", "id": p.id, "name": p.name,
            "iconUrl": f"{base}/images/icons/priorities/{p.name.lower()}.svg"}


def project(key: str, base: str) -> dict[str, Any]:
    p = catalog.PROJECT_BY_KEY[key]
    return {"self": f"{base}/rest/api/3/project/{p.id}", "id": p.id, "key": p.key, "name": p.name, "projectTypeKey": p.kind,
            "simplified": False, "avatarUrls": {"48x48": f"{base}/project/{p.key}.png"}}


def resolution(name: str | None, base: str) -> dict[str, Any] | None:
    if name is None:
        return None
    rid = catalog.RESOLUTION_IDS[name]
    return {"self": f"{base}/rest/api/3/resolution/{rid}", "id": rid, "name": name, "description": ""}


def sprint(s: Sprint, base: str) -> dict[str, Any]:
    shaped = {"id": s.id, "self": f"{base}/rest/agile/1.0/sprint/{s.id}", "state": s.state, "name": s.name,
              "originBoardId": s.board_id, "goal": s.goal}
    for key, value in (("startDate", s.start_date), ("endDate", s.end_date), ("completeDate", s.complete_date)):
        if value:
            shaped[key] = value.replace("+0000", "Z")
    return shaped


def comment(c: Comment, author: User | None, base: str, issue_id: int, v3: bool = True) -> dict[str, Any]:
    shaped_author = user(author, base)
    return {"self": f"{base}/rest/api/3/issue/{issue_id}/comment/{c.id}", "id": str(c.id), "author": shaped_author,
            "body": to_adf(c.body) if v3 else c.body, "updateAuthor": shaped_author, "created": c.created, "updated": c.updated,
            "jsdPublic": True}


def worklog(w: Worklog, author: User | None, base: str, v3: bool = True) -> dict[str, Any]:
    """A worklog as Jira REST answers it: its comment ADF in v3, the text itself in v2."""
    return {"self": f"{base}/rest/api/3/issue/{w.issue_id}/worklog/{w.id}", "id": str(w.id), "issueId": str(w.issue_id),
            "author": user(author, base), "updateAuthor": user(author, base),
            "comment": (to_adf(w.comment) if w.comment else None) if v3 else (w.comment or ""),
            "started": w.started, "created": w.created, "updated": getattr(w, "updated", None) or w.created, "timeSpent": format_duration(w.seconds),
            "timeSpentSeconds": w.seconds}


# The issue columns each field reads; a page always reads its issues' id, key, type and parent (the
# envelope, parents and subtasks need them).
BASE_COLUMNS = frozenset({"id", "key", "issue_type", "parent_id"})
FIELD_COLUMNS = {
    "summary": "summary", "description": "description", "status": "status", "statuscategorychangedate": "updated",
    "priority": "priority", "assignee": "assignee_id", "reporter": "reporter_id", "creator": "creator_id", "project": "project_key",
    "duedate": "duedate", "created": "created", "updated": "updated", "resolution": "resolution", "resolutiondate": "resolved",
    catalog.STORY_POINTS: "story_points", catalog.CASE_FIELD: "case_number",
    "timeoriginalestimate": "original_estimate", "timeestimate": "remaining_estimate",
    "timetracking": ("original_estimate", "remaining_estimate"),
}


@lru_cache(maxsize=256)  # bounded: the field lists come from callers
def columns_for(wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The issue columns Jira REST's shape of these fields reads, in the table's order."""
    needed = BASE_COLUMNS | {column for name in wanted if name in FIELD_COLUMNS
                             for column in ((FIELD_COLUMNS[name],) if isinstance(FIELD_COLUMNS[name], str) else FIELD_COLUMNS[name])}
    return tuple(name for name in Q.ISSUE_COLUMNS if name in needed)


def _brief(other: Issue, base: str, r: Related | None = None) -> dict[str, Any]:
    return {"id": str(other.id), "key": other.key, "self": f"{base}/rest/api/3/issue/{other.id}",
            "fields": {"summary": other.summary, "status": _kept_shape(r, status, other.status, base),
                       "priority": _kept_shape(r, priority, other.priority, base),
                       "issuetype": _kept_shape(r, issue_type, other.issue_type, base)}}


def _kept_shape(r: Related | None, build: Any, name: Any, base: str) -> Any:
    """`build(name, base)`, built once per answer: a page of issues names a handful of statuses,
    types, priorities and people many times over. (The answer shares the one dict among its
    issues; nothing edits an answer once it is shaped.)"""
    if r is None:
        return build(name, base)
    key = (build, name)
    found = r.shaped.get(key, _UNSEEN)
    if found is _UNSEEN:
        found = r.shaped[key] = build(name, base)
    return found


_UNSEEN = object()


def _person(r: Related, account_id: str | None, base: str) -> dict[str, Any] | None:
    """The user an issue names (or None), shaped once per answer."""
    key = (user, account_id or "")
    found = r.shaped.get(key, _UNSEEN)
    if found is _UNSEEN:
        found = r.shaped[key] = user(r.users.get(account_id or ""), base)
    return found


# The value of each field of Jira REST's issue: (issue, related, base, v3, comment_limit) → value.
_FIELD_VALUES: dict[str, Any] = {
    "summary": lambda i, r, base, v3, limit: i.summary,
    "description": lambda i, r, base, v3, limit: to_adf(i.description) if v3 else (i.description or None),
    "status": lambda i, r, base, v3, limit: _kept_shape(r, status, i.status, base),
    "statuscategorychangedate": lambda i, r, base, v3, limit: i.updated,
    "issuetype": lambda i, r, base, v3, limit: _kept_shape(r, issue_type, i.issue_type, base),
    "priority": lambda i, r, base, v3, limit: _kept_shape(r, priority, i.priority, base),
    "assignee": lambda i, r, base, v3, limit: _person(r, i.assignee_id, base),
    "reporter": lambda i, r, base, v3, limit: _person(r, i.reporter_id, base),
    "creator": lambda i, r, base, v3, limit: _person(r, i.creator_id, base),
    "project": lambda i, r, base, v3, limit: _kept_shape(r, project, i.project_key, base),
    "labels": lambda i, r, base, v3, limit: list(r.labels.get(i.id, [])),
    "components": lambda i, r, base, v3, limit: [{"self": f"{base}/rest/api/3/component/{c.id}", "id": str(c.id), "name": c.name}
                                                  for c in r.components.get(i.id, [])],
    "fixVersions": lambda i, r, base, v3, limit: [{"self": f"{base}/rest/api/3/version/{v.id}", "id": str(v.id), "name": v.name,
                                                   "released": v.released, "archived": False, "releaseDate": v.release_date}
                                                  for v in r.versions.get(i.id, [])],
    "duedate": lambda i, r, base, v3, limit: i.duedate,
    "created": lambda i, r, base, v3, limit: i.created,
    "updated": lambda i, r, base, v3, limit: i.updated,
    "resolution": lambda i, r, base, v3, limit: resolution(i.resolution, base),
    "resolutiondate": lambda i, r, base, v3, limit: i.resolved,
    "subtasks": lambda i, r, base, v3, limit: [_brief(s, base, r) for s in r.subtasks.get(i.id, [])],
    "issuelinks": lambda i, r, base, v3, limit: [_link(link, i, r, base) for link in r.links.get(i.id, []) if _other(link, i) in r.issues],
    "comment": lambda i, r, base, v3, limit: _comments(i, r, base, v3, limit),
    "watches": lambda i, r, base, v3, limit: {"self": f"{base}/rest/api/3/issue/{i.key}/watchers", "watchCount": len(r.watchers.get(i.id, [])),
                                              "isWatching": False},
    "worklog": lambda i, r, base, v3, limit: {"startAt": 0, "maxResults": 20, "total": len(r.worklogs.get(i.id, [])),
                                              "worklogs": [worklog(w, r.users.get(w.author_id), base, v3) for w in r.worklogs.get(i.id, [])[:20]]},
    "timetracking": lambda i, r, base, v3, limit: _timetracking(i, r.worklogs.get(i.id, [])),
    "timespent": lambda i, r, base, v3, limit: sum(w.seconds for w in r.worklogs.get(i.id, [])) or None,
    "timeoriginalestimate": lambda i, r, base, v3, limit: i.original_estimate,
    "timeestimate": lambda i, r, base, v3, limit: i.remaining_estimate,
    catalog.SPRINT_FIELD: lambda i, r, base, v3, limit: [sprint(s, base) for s in r.sprints.get(i.id, [])] or None,
    catalog.STORY_POINTS: lambda i, r, base, v3, limit: i.story_points,
    catalog.CASE_FIELD: lambda i, r, base, v3, limit: i.case_number,
}


def _parent(i: Issue, r: Related, base: str, v3: bool, limit: int | None) -> Any:
    return _brief(r.issues[i.parent_id], base, r) if i.parent_id and i.parent_id in r.issues else _ABSENT


_EXPAND = "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations"  # the same on every issue


def issues(page: Sequence[Issue], r: Related, base: str, wanted: Sequence[str] = DEFAULT_FIELDS, v3: bool = True,
           comment_limit: int | None = None) -> list[dict[str, Any]]:
    """Jira REST's issue `{id, key, self, fields: {...}}` with the `wanted` fields, for each of a page's issues."""
    makers = _field_values(tuple(wanted))
    shaped = []
    for i in page:
        f: dict[str, Any] = {}
        for name, value in makers:
            shown = value(i, r, base, v3, comment_limit)
            if shown is not _ABSENT:
                f[name] = shown
        shaped.append({"expand": _EXPAND, "id": str(i.id), "self": f"{base}/rest/api/3/issue/{i.id}", "key": i.key, "fields": f})
    return shaped


@lru_cache(maxsize=256)  # bounded: the field lists come from callers
def _field_values(wanted: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    """The fields of Jira REST's issue shown for these names, in their order, each with how its value is made
    (a page shapes each issue with the same list; unknown names show nothing)."""
    return tuple((name, _parent if name == "parent" else _FIELD_VALUES[name]) for name in wanted if name == "parent" or name in _FIELD_VALUES)


def _timetracking(i: Issue, logs: list[Worklog]) -> dict[str, Any]:
    """Jira's time tracking: the estimates set on the issue and the time its worklogs add up to,
    each shown only when there is one."""
    out: dict[str, Any] = {}
    original, remaining = getattr(i, "original_estimate", None), getattr(i, "remaining_estimate", None)
    spent = sum(w.seconds for w in logs)
    if original is not None:
        out["originalEstimate"] = format_duration(original)
    if remaining is not None:
        out["remainingEstimate"] = format_duration(remaining)
    if spent:
        out["timeSpent"] = format_duration(spent)
    if original is not None:
        out["originalEstimateSeconds"] = original
    if remaining is not None:
        out["remainingEstimateSeconds"] = remaining
    if spent:
        out["timeSpentSeconds"] = spent
    return out


def _comments(i: Issue, r: Related, base: str, v3: bool, limit: int | None) -> dict[str, Any]:
    every = r.comments.get(i.id, [])
    total = r.comment_totals.get(i.id, len(every))
    shown = every[-limit:] if limit is not None and limit >= 0 else every
    return {"comments": [comment(c, r.users.get(c.author_id), base, i.id, v3) for c in shown], "self": f"{base}/rest/api/3/issue/{i.id}/comment",
            "maxResults": len(shown), "total": total, "startAt": max(total - len(shown), 0)}


def _other(link: Link, i: Issue) -> int:
    return link.target_id if link.source_id == i.id else link.source_id


def _link(link: Link, i: Issue, r: Related, base: str) -> dict[str, Any]:
    t = catalog.link_type(link.type_name)
    shaped: dict[str, Any] = {"id": str(link.id), "self": f"{base}/rest/api/3/issueLink/{link.id}",
                              "type": {"id": t.id, "name": t.name, "inward": t.inward, "outward": t.outward,
                                       "self": f"{base}/rest/api/3/issueLinkType/{t.id}"}}
    if link.source_id == i.id:  # this issue <outward> the other: the other is the outward issue
        shaped["outwardIssue"] = _brief(r.issues[link.target_id], base, r)
    else:
        shaped["inwardIssue"] = _brief(r.issues[link.source_id], base, r)
    return shaped


# -- mcp-atlassian's simplified shapes ----------------------------------------------------
def simple_user(u: User | None) -> dict[str, Any]:
    if u is None:
        return {"display_name": "Unassigned"}
    return {"account_id": u.account_id, "display_name": u.display_name, "email": u.email, "active": u.active}


def simple_comment(c: Comment, r_users: dict[str, User]) -> dict[str, Any]:
    return {"id": str(c.id), "body": c.body, "created": c.created, "updated": c.updated,
            "author": simple_user(r_users.get(c.author_id)).get("display_name")}


_ABSENT = object()  # a key this issue does not show (no parent, no sprints, ...)


def _simple_status(name: str, base: str) -> dict[str, Any]:
    s = catalog.STATUS_BY_NAME[name]
    return {"name": name, "category": catalog.CATEGORIES[s.category][1], "color": catalog.CATEGORIES[s.category][2]}


def _simple_person(r: Related, account_id: str | None) -> dict[str, Any]:
    key = (simple_user, account_id or "")
    found = r.shaped.get(key)
    if found is None:
        found = r.shaped[key] = simple_user(r.users.get(account_id or ""))
    return found


def _simple_parent(i: Issue, r: Related, base: str, limit: int) -> Any:
    if not (i.parent_id and i.parent_id in r.issues):
        return _ABSENT
    parent = r.issues[i.parent_id]
    return {"key": parent.key, "summary": parent.summary, "issue_type": {"name": parent.issue_type}}


def _simple_links(i: Issue, r: Related) -> list[dict[str, Any]]:
    out = []
    for link in r.links.get(i.id, []):
        other = r.issues.get(_other(link, i))
        if other is None:
            continue
        t = catalog.link_type(link.type_name)
        out.append({"id": str(link.id), "type": t.name, "relationship": t.outward if link.source_id == i.id else t.inward,
                    "issue": {"key": other.key, "summary": other.summary, "status": {"name": other.status}}})
    return out


# mcp-atlassian's simplified issue, key by key in its order: (issue, related, base, comment limit) → value, or _ABSENT.
_SIMPLE_VALUES: tuple[tuple[str, Any], ...] = (
    ("id", lambda i, r, base, limit: str(i.id)),
    ("key", lambda i, r, base, limit: i.key),
    ("summary", lambda i, r, base, limit: i.summary),
    ("url", lambda i, r, base, limit: f"{base}/browse/{i.key}"),
    ("description", lambda i, r, base, limit: i.description),
    ("status", lambda i, r, base, limit: _kept_shape(r, _simple_status, i.status, base)),
    ("issue_type", lambda i, r, base, limit: {"name": i.issue_type}),
    ("priority", lambda i, r, base, limit: {"name": i.priority}),
    ("assignee", lambda i, r, base, limit: _simple_person(r, i.assignee_id)),
    ("reporter", lambda i, r, base, limit: _simple_person(r, i.reporter_id)),
    ("project", lambda i, r, base, limit: {"key": i.project_key, "name": catalog.PROJECT_BY_KEY[i.project_key].name}),
    ("labels", lambda i, r, base, limit: list(r.labels.get(i.id, []))),
    ("components", lambda i, r, base, limit: [c.name for c in r.components.get(i.id, [])]),
    ("fix_versions", lambda i, r, base, limit: [v.name for v in r.versions.get(i.id, [])]),
    ("created", lambda i, r, base, limit: i.created),
    ("updated", lambda i, r, base, limit: i.updated),
    ("duedate", lambda i, r, base, limit: i.duedate),
    ("resolution", lambda i, r, base, limit: {"name": i.resolution} if i.resolution else None),
    ("resolutiondate", lambda i, r, base, limit: i.resolved),
    ("parent", _simple_parent),
    ("subtasks", lambda i, r, base, limit: [{"key": sub.key, "summary": sub.summary, "status": {"name": sub.status}} for sub in r.subtasks.get(i.id, [])]),
    ("issuelinks", lambda i, r, base, limit: _simple_links(i, r)),
    ("sprints", lambda i, r, base, limit: [{"id": sp.id, "name": sp.name, "state": sp.state} for sp in r.sprints[i.id]] if r.sprints.get(i.id) else _ABSENT),
    ("story_points", lambda i, r, base, limit: i.story_points if i.story_points is not None else _ABSENT),
    ("salesforce_case", lambda i, r, base, limit: i.case_number or _ABSENT),
    ("comments", lambda i, r, base, limit: [simple_comment(c, r.users) for c in r.comments.get(i.id, [])[-limit:]] if limit else _ABSENT),
)
# The issue columns each simplified key reads (beyond BASE_COLUMNS).
SIMPLE_COLUMNS = {"summary": "summary", "description": "description", "status": "status", "priority": "priority",
                  "assignee": "assignee_id", "reporter": "reporter_id", "project": "project_key", "created": "created", "updated": "updated",
                  "duedate": "duedate", "resolution": "resolution", "resolutiondate": "resolved", "story_points": "story_points",
                  "salesforce_case": "case_number"}


def simplified(page: Sequence[Issue], r: Related, base: str, comment_limit: int = 10,
               wanted: set[str] | frozenset[str] | None = None) -> list[dict[str, Any]]:
    """mcp-atlassian's simplified issue, for each of a page's issues."""
    makers = _simple_values(frozenset(wanted) if wanted is not None else None)
    shaped = []
    for i in page:
        out: dict[str, Any] = {}
        for key, value in makers:
            shown = value(i, r, base, comment_limit)
            if shown is not _ABSENT:
                out[key] = shown
        shaped.append(out)
    return shaped


@lru_cache(maxsize=256)  # bounded: the sets come from callers
def _simple_values(wanted: frozenset[str] | None) -> tuple[tuple[str, Any], ...]:
    """The simplified keys shown for these Jira fields (every key for all fields), in their order."""
    if wanted is None or "*all" in wanted:
        return _SIMPLE_VALUES
    keep = _kept(wanted)
    return tuple((key, value) for key, value in _SIMPLE_VALUES if key in keep)


def simple_shows_url(wanted: frozenset[str] | None) -> bool:
    """Whether the simplified shape of these Jira fields shows an issue's url (the one key that needs the site)."""
    return wanted is None or "*all" in wanted or "url" in _kept(wanted)


@lru_cache(maxsize=256)  # bounded: the sets come from callers
def simple_columns(wanted: frozenset[str] | None) -> tuple[str, ...]:
    """The issue columns the simplified shape of these Jira fields reads (every column for all fields)."""
    if wanted is None or "*all" in wanted:
        return Q.ISSUE_COLUMNS
    keep = _kept(wanted)
    needed = BASE_COLUMNS | {SIMPLE_COLUMNS[key] for key in keep if key in SIMPLE_COLUMNS}
    return tuple(name for name in Q.ISSUE_COLUMNS if name in needed)


_SIMPLE_NAMES = {"issuetype": "issue_type", "fixVersions": "fix_versions", "comment": "comments", catalog.STORY_POINTS: "story_points",
                 catalog.CASE_FIELD: "salesforce_case", catalog.SPRINT_FIELD: "sprints", "issuelinks": "issuelinks"}


def count(db: Session, stmt: Any) -> int:
    return db.scalar(select(func.count()).select_from(stmt.order_by(None).subquery())) or 0


def simple_name(field: str) -> str:
    """The simplified shape's key for a Jira field name."""
    return _SIMPLE_NAMES.get(field, field)


@lru_cache(maxsize=256)  # bounded: the sets come from callers
def _kept(wanted: frozenset[str]) -> frozenset[str]:
    """The simplified shape's keys for the Jira fields asked for (id and key always)."""
    return frozenset({"id", "key"} | {simple_name(w) for w in wanted})


@lru_cache(maxsize=256)  # bounded: the field lists come from callers
def reads(style: str, wanted: tuple[str, ...] | None, comment_limit: int | None) -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]:
    """What shaping issues with these fields reads: the Jira fields shown, the related rows loaded,
    and the people (assignee, ...) whose users are shown."""
    want = list(wanted or DEFAULT_FIELDS)
    if "*all" in want or "*navigable" in want:
        want = list(DEFAULT_FIELDS)
    if style == "simplified":  # what the simplified shape shows, and nothing more (no watchers, no worklogs)
        load = {"labels", "components", "fixVersions", "subtasks", "issuelinks", "parent", catalog.SPRINT_FIELD} | ({"comment"} if comment_limit != 0 else set())
        people = ("assignee", "reporter")
        if wanted is not None and "*all" not in wanted:  # only the fields asked for: the rest would be dropped
            shown = {simple_name(w) for w in wanted}
            load = {kind for kind in load if simple_name(kind) in shown}
            people = tuple(role for role in people if role in shown)
        return tuple(want), frozenset(load), people
    return tuple(want), frozenset(want), tuple(role for role in Q.PEOPLE if role in want)
