"""Projects, issue types, components, versions, users and fields: what an agent looks up
before it writes. Bound into `TicketsService`; `self` is that service."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_, select

from apps.tickets import catalog, shapes
from apps.tickets.models import Component, ProjectRow, User, Version
from apps.tickets.params import CloudId, Keyword, Limit, Offset, ProjectRef, Style, UserRef
from officegym.core.operations import operation

MAX_USERS = 1000


def _project_json(self, p: catalog.Project, full: bool = False) -> dict[str, Any]:
    shaped = shapes.project(p.key, self.base)
    if full:
        row = self.db.get(ProjectRow, p.key)
        shaped.update({
            "description": p.description, "lead": shapes.user(self.db.get(User, row.lead_id) if row and row.lead_id else None, self.base),
            "issueTypes": [shapes.issue_type(t, self.base) for t in p.issue_types],
            "components": components_of(self, p.key), "versions": versions_of(self, p.key), "style": "classic",
        })
    return shaped


def components_of(self, key: str) -> list[dict[str, Any]]:
    rows = self.db.scalars(select(Component).where(Component.project_key == key).order_by(Component.name))
    return [{"self": f"{self.base}/rest/api/3/component/{c.id}", "id": str(c.id), "name": c.name, "description": c.description,
             "project": key, "projectId": int(catalog.PROJECT_BY_KEY[key].id)} for c in rows]


def versions_of(self, key: str) -> list[dict[str, Any]]:
    rows = self.db.scalars(select(Version).where(Version.project_key == key).order_by(Version.name))
    return [{"self": f"{self.base}/rest/api/3/version/{v.id}", "id": str(v.id), "name": v.name, "archived": False, "released": v.released,
             "releaseDate": v.release_date, "projectId": int(catalog.PROJECT_BY_KEY[key].id)} for v in rows]


@operation("tickets.getProjects")
def get_projects(self, include_archived: bool = False, query: Keyword | None = None, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """Every project: SUP (support desk), ENG (engineering), IT (helpdesk)."""
    self.check_cloud(cloud_id)
    wanted = (query or "").strip().lower()
    found = [p for p in catalog.PROJECTS if not wanted or wanted in p.key.lower() or wanted in p.name.lower()]
    if style == "simplified":
        return {"_list": [{"id": p.id, "key": p.key, "name": p.name, "project_type": p.kind, "description": p.description} for p in found]}
    values = [_project_json(self, p) for p in found]
    return {"_list": values, "values": values, "total": len(values), "isLast": True, "startAt": 0, "maxResults": 50}


@operation("tickets.getProject")
def get_project(self, project: ProjectRef, style: Style = "jira") -> dict[str, Any]:
    """One project with its issue types, components, versions and lead."""
    return _project_json(self, self.project(project, "projectIdOrKey"), full=True)


@operation("tickets.getIssueTypes")
def get_issue_types(self, project: ProjectRef | None = None, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """The issue types of a project (or of the site)."""
    self.check_cloud(cloud_id)
    names = self.project(project, "projectIdOrKey").issue_types if project else tuple(t.name for t in catalog.ISSUE_TYPES)
    if style == "simplified":
        return {"_list": [{"id": catalog.issue_type(n).id, "name": n, "subtask": catalog.issue_type(n).subtask,
                           "description": catalog.issue_type(n).description} for n in names]}
    return {"_list": [shapes.issue_type(n, self.base) for n in names]}


@operation("tickets.getComponents")
def get_components(self, project: ProjectRef, style: Style = "jira") -> dict[str, Any]:
    """A project's components."""
    rows = components_of(self, self.project(project, "projectIdOrKey").key)
    if style == "simplified":
        return {"_list": [{"id": c["id"], "name": c["name"], "description": c["description"]} for c in rows]}
    return {"_list": rows}


@operation("tickets.getVersions")
def get_versions(self, project: ProjectRef, style: Style = "jira") -> dict[str, Any]:
    """A project's versions (fix versions), released or not."""
    rows = versions_of(self, self.project(project, "projectIdOrKey").key)
    if style == "simplified":
        return {"_list": [{"id": v["id"], "name": v["name"], "released": v["released"], "release_date": v["releaseDate"]} for v in rows]}
    return {"_list": rows}


def _profile(self, u: User, style: str) -> dict[str, Any]:
    if style == "simplified":
        return {"account_id": u.account_id, "display_name": u.display_name, "email": u.email, "active": u.active, "time_zone": u.timezone}
    return shapes.user(u, self.base)


@operation("tickets.searchUsers")
def search_users(self, query: Keyword | None = None, max_results: Limit | None = None, start_at: Offset | None = None, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """Users whose name or email contains the query."""
    self.check_cloud(cloud_id)
    stmt = select(User).order_by(User.display_name, User.account_id)
    text = (query or "").strip().lower()
    if text:
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        stmt = stmt.where(or_(func.lower(User.display_name).like(pattern, escape="\\"), func.lower(User.email).like(pattern, escape="\\"),
                              User.account_id == (query or "").strip()))
    rows = list(self.db.scalars(stmt.offset(max(start_at or 0, 0)).limit(min(max_results or 50, MAX_USERS))))
    return {"_list": [_profile(self, u, style) for u in rows]}


@operation("tickets.getUser")
def get_user(self, account: UserRef, style: Style = "jira") -> dict[str, Any]:
    """A user by accountId, email or display name."""
    return _profile(self, self.user(account), style)


@operation("tickets.myself")
def myself(self, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """You: the user this env acts as."""
    self.check_cloud(cloud_id)
    return _profile(self, self.user(self.actor_id), style)


@operation("tickets.searchFields")
def search_fields(self, keyword: Keyword | None = None, limit: Limit | None = None, style: Style = "jira") -> dict[str, Any]:
    """Fields (system and custom) whose id or name contains the keyword."""
    text = (keyword or "").strip().lower()
    found = []
    for field_id, name, kind, clauses in catalog.FIELDS:
        if text and text not in field_id.lower() and text not in name.lower():
            continue
        custom = field_id.startswith("customfield_")
        found.append({"id": field_id, "key": field_id, "name": name, "custom": custom, "orderable": True, "navigable": True,
                      "searchable": bool(clauses), "clauseNames": list(clauses), "schema": {"type": kind, "system" if not custom else "custom": field_id}})
    if limit:
        found = found[:limit]
    return {"_list": found}
