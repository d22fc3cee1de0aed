"""Jira's JSON shapes of rows: REST v3 (and v2) issues, users, statuses, comments, sprints; and
mcp-atlassian's simplified issue. Issues are shaped in batches (`Related.load`): one query per
related table for a whole page of results, not one per issue. A row is a model object or a
plain row with the same attribute names (queries.py); both shape alike."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from apps.tickets import catalog
from apps.tickets import queries as Q
from apps.tickets.adf import to_adf
from apps.tickets.ids import format_duration
from apps.tickets.models import Comment, Issue, Link, Sprint, User, Worklog

DEFAULT_FIELDS = ("summary", "status", "issuetype", "priority", "assignee", "reporter", "project", "labels", "components",
                  "fixVersions", "duedate", "created", "updated", "resolution", "resolutiondate", "parent", "subtasks",
                  "issuelinks", "description", "comment", "watches", "worklog", catalog.SPRINT_FIELD, catalog.STORY_POINTS,
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


def worklog(w: Worklog, author: User | None, base: str) -> dict[str, Any]:
    return {"self": f"{base}/rest/api/3/issue/{w.issue_id}/worklog/{w.id}", "id": str(w.id), "issueId": str(w.issue_id),
            "author": user(author, base), "updateAuthor": user(author, base), "comment": to_adf(w.comment) if w.comment else None,
            "started": w.started, "created": w.created, "updated": w.created, "timeSpent": format_duration(w.seconds),
            "timeSpentSeconds": w.seconds}


@dataclass
class Related:
    """Everything a page of issues refers to, loaded in one statement per table (queries.py):
    plain rows, read by attribute as the models are."""

    users: dict[str, Any] = field(default_factory=dict)
    labels: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    components: dict[int, list[Any]] = field(default_factory=lambda: defaultdict(list))
    versions: dict[int, list[Any]] = field(default_factory=lambda: defaultdict(list))
    issues: dict[int, Any] = field(default_factory=dict)  # parents, subtasks and linked issues by id
    subtasks: dict[int, list[Any]] = field(default_factory=lambda: defaultdict(list))
    links: dict[int, list[Any]] = field(default_factory=lambda: defaultdict(list))
    comments: dict[int, list[Any]] = field(default_factory=lambda: defaultdict(list))
    comment_totals: dict[int, int] = field(default_factory=dict)  # when only the newest comments were loaded
    sprints: dict[int, list[Any]] = field(default_factory=lambda: defaultdict(list))
    watchers: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    worklogs: dict[int, list[Any]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def load(cls, db: Session, issues: Sequence[Any], wanted: set[str], comment_limit: int | None = None) -> Related:
        """What `issues` refer to, for the `wanted` fields; for one issue with `comment_limit`,
        only its newest comments (and their count)."""
        r = cls()
        ids = [i.id for i in issues]
        if not ids:
            return r
        db.flush()  # the statements run on the driver: the ORM's pending changes must be in the database first
        r.issues = {i.id: i for i in issues}
        if "labels" in wanted:
            for row in Q.related(db, "labels", ids):
                r.labels[row.issue_id].append(row.label)
        if "components" in wanted:
            for row in Q.related(db, "components", ids):
                r.components[row.issue_id].append(row)
        if "fixVersions" in wanted:
            for row in Q.related(db, "versions", ids):
                r.versions[row.issue_id].append(row)
        if "subtasks" in wanted:
            for sub in Q.related(db, "subtasks", ids):
                r.issues.setdefault(sub.id, sub)
                if sub.issue_type == "Subtask" or r.issues[sub.parent_id].issue_type != "Epic":
                    r.subtasks[sub.parent_id].append(sub)
        if "issuelinks" in wanted:
            seen: set[int] = set()
            for link in Q.related(db, "links", ids):
                if link.id in seen:  # a link between two chunks of ids comes back once per chunk
                    continue
                seen.add(link.id)
                for end in (link.source_id, link.target_id):
                    if end in r.issues:
                        r.links[end].append(link)
        if "comment" in wanted and comment_limit and len(ids) == 1:
            r.comments[ids[0]] = Q.NEWEST_COMMENTS.rows(db, issue_id=ids[0], size=comment_limit)[::-1]
            r.comment_totals[ids[0]] = Q.COMMENT_COUNT.scalar(db, issue_id=ids[0])
        elif "comment" in wanted:
            for c in Q.related(db, "comments", ids):
                r.comments[c.issue_id].append(c)
        if catalog.SPRINT_FIELD in wanted:
            for s in Q.related(db, "sprints", ids):
                r.sprints[s.issue_id].append(s)
        if "watches" in wanted:
            for w in Q.related(db, "watchers", ids):
                r.watchers[w.issue_id].append(w.account_id)
        if "worklog" in wanted:
            for w in Q.related(db, "worklogs", ids):
                r.worklogs[w.issue_id].append(w)
        others = {i.parent_id for i in issues if i.parent_id} | {e for ls in r.links.values() for l in ls for e in (l.source_id, l.target_id)}
        missing = others - set(r.issues)
        if missing:
            for other in Q.related(db, "issues", missing):
                r.issues[other.id] = other
        people = {p for i in r.issues.values() for p in (i.assignee_id, i.reporter_id, i.creator_id) if p}
        people |= {c.author_id for cs in r.comments.values() for c in cs} | {w.author_id for ws in r.worklogs.values() for w in ws}
        if people:
            r.users = {u.account_id: u for u in Q.related(db, "users", people)}
        return r


def _brief(other: Issue, base: str) -> dict[str, Any]:
    return {"id": str(other.id), "key": other.key, "self": f"{base}/rest/api/3/issue/{other.id}",
            "fields": {"summary": other.summary, "status": status(other.status, base), "priority": priority(other.priority, base),
                       "issuetype": issue_type(other.issue_type, base)}}


def issue(i: Issue, r: Related, base: str, wanted: Sequence[str] = DEFAULT_FIELDS, v3: bool = True,
          comment_limit: int | None = None) -> dict[str, Any]:
    """Jira REST's issue: `{id, key, self, fields: {...}}` with the `wanted` fields."""
    f: dict[str, Any] = {}
    value = {
        "summary": lambda: i.summary,
        "description": lambda: to_adf(i.description) if v3 else (i.description or None),
        "status": lambda: status(i.status, base),
        "statuscategorychangedate": lambda: i.updated,
        "issuetype": lambda: issue_type(i.issue_type, base),
        "priority": lambda: priority(i.priority, base),
        "assignee": lambda: user(r.users.get(i.assignee_id or ""), base),
        "reporter": lambda: user(r.users.get(i.reporter_id or ""), base),
        "creator": lambda: user(r.users.get(i.creator_id or ""), base),
        "project": lambda: project(i.project_key, base),
        "labels": lambda: list(r.labels.get(i.id, [])),
        "components": lambda: [{"self": f"{base}/rest/api/3/component/{c.id}", "id": str(c.id), "name": c.name} for c in r.components.get(i.id, [])],
        "fixVersions": lambda: [{"self": f"{base}/rest/api/3/version/{v.id}", "id": str(v.id), "name": v.name, "released": v.released,
                                 "archived": False, "releaseDate": v.release_date} for v in r.versions.get(i.id, [])],
        "duedate": lambda: i.duedate,
        "created": lambda: i.created,
        "updated": lambda: i.updated,
        "resolution": lambda: resolution(i.resolution, base),
        "resolutiondate": lambda: i.resolved,
        "subtasks": lambda: [_brief(s, base) for s in r.subtasks.get(i.id, [])],
        "issuelinks": lambda: [_link(link, i, r, base) for link in r.links.get(i.id, []) if _other(link, i) in r.issues],
        "comment": lambda: _comments(i, r, base, v3, comment_limit),
        "watches": lambda: {"self": f"{base}/rest/api/3/issue/{i.key}/watchers", "watchCount": len(r.watchers.get(i.id, [])),
                            "isWatching": False},
        "worklog": lambda: {"startAt": 0, "maxResults": 20, "total": len(r.worklogs.get(i.id, [])),
                            "worklogs": [worklog(w, r.users.get(w.author_id), base) for w in r.worklogs.get(i.id, [])[:20]]},
        "timetracking": lambda: _timetracking(r.worklogs.get(i.id, [])),
        catalog.SPRINT_FIELD: lambda: [sprint(s, base) for s in r.sprints.get(i.id, [])] or None,
        catalog.STORY_POINTS: lambda: i.story_points,
        catalog.CASE_FIELD: lambda: i.case_number,
    }
    for name in wanted:
        if name == "parent":
            if i.parent_id and i.parent_id in r.issues:
                f["parent"] = _brief(r.issues[i.parent_id], base)
        elif name in value:
            f[name] = value[name]()
    return {"expand": "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations", "id": str(i.id),
            "self": f"{base}/rest/api/3/issue/{i.id}", "key": i.key, "fields": f}


def _timetracking(logs: list[Worklog]) -> dict[str, Any]:
    spent = sum(w.seconds for w in logs)
    return {"timeSpent": format_duration(spent), "timeSpentSeconds": spent} if spent else {}


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
        shaped["outwardIssue"] = _brief(r.issues[link.target_id], base)
    else:
        shaped["inwardIssue"] = _brief(r.issues[link.source_id], base)
    return shaped


# -- mcp-atlassian's simplified shapes ----------------------------------------------------
def simple_user(u: User | None) -> dict[str, Any]:
    if u is None:
        return {"display_name": "Unassigned"}
    return {"account_id": u.account_id, "display_name": u.display_name, "email": u.email, "active": u.active}


def simple_comment(c: Comment, r_users: dict[str, User]) -> dict[str, Any]:
    return {"id": str(c.id), "body": c.body, "created": c.created, "updated": c.updated,
            "author": simple_user(r_users.get(c.author_id)).get("display_name")}


def simplified(i: Issue, r: Related, base: str, comment_limit: int = 10, wanted: set[str] | None = None) -> dict[str, Any]:
    s = catalog.STATUS_BY_NAME[i.status]
    out: dict[str, Any] = {
        "id": str(i.id), "key": i.key, "summary": i.summary, "url": f"{base}/browse/{i.key}", "description": i.description,
        "status": {"name": i.status, "category": catalog.CATEGORIES[s.category][1], "color": catalog.CATEGORIES[s.category][2]},
        "issue_type": {"name": i.issue_type}, "priority": {"name": i.priority},
        "assignee": simple_user(r.users.get(i.assignee_id or "")), "reporter": simple_user(r.users.get(i.reporter_id or "")),
        "project": {"key": i.project_key, "name": catalog.PROJECT_BY_KEY[i.project_key].name},
        "labels": list(r.labels.get(i.id, [])), "components": [c.name for c in r.components.get(i.id, [])],
        "fix_versions": [v.name for v in r.versions.get(i.id, [])], "created": i.created, "updated": i.updated,
        "duedate": i.duedate, "resolution": {"name": i.resolution} if i.resolution else None, "resolutiondate": i.resolved,
    }
    if i.parent_id and i.parent_id in r.issues:
        parent = r.issues[i.parent_id]
        out["parent"] = {"key": parent.key, "summary": parent.summary, "issue_type": {"name": parent.issue_type}}
    out["subtasks"] = [{"key": sub.key, "summary": sub.summary, "status": {"name": sub.status}} for sub in r.subtasks.get(i.id, [])]
    out["issuelinks"] = []
    for link in r.links.get(i.id, []):
        other = r.issues.get(_other(link, i))
        if other is None:
            continue
        t = catalog.link_type(link.type_name)
        out["issuelinks"].append({"id": str(link.id), "type": t.name, "relationship": t.outward if link.source_id == i.id else t.inward,
                                  "issue": {"key": other.key, "summary": other.summary, "status": {"name": other.status}}})
    sprints = r.sprints.get(i.id, [])
    if sprints:
        out["sprints"] = [{"id": sp.id, "name": sp.name, "state": sp.state} for sp in sprints]
    if i.story_points is not None:
        out["story_points"] = i.story_points
    if i.case_number:
        out["salesforce_case"] = i.case_number
    if comment_limit:
        out["comments"] = [simple_comment(c, r.users) for c in r.comments.get(i.id, [])[-comment_limit:]]
    if wanted is not None and "*all" not in wanted:
        keep = _kept(frozenset(wanted))
        out = {k: v for k, v in out.items() if k in keep}
    return out


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
