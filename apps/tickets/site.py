"""The site as Atlassian's own MCP server sees it: which sites you can reach (the cloudId),
Rovo's search and fetch over Jira issues, and the fields an issue type takes when created.
Bound into `TicketsService`; `self` is that service."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from apps.tickets import catalog
from apps.tickets.errors import TicketsError
from apps.tickets.models import Issue
from apps.tickets.params import CloudId, IssueRef, IssueTypeName, Keyword, Limit, ProjectRef
from officegym.core.operations import operation

SCOPES = ("read:jira-work", "write:jira-work", "read:jira-user")


def ari(self, issue: Issue) -> str:
    return f"ari:cloud:jira:{self.cloud_id}:issue/{issue.id}"


@operation("tickets.accessibleResources")
def accessible_resources(self) -> dict[str, Any]:
    """The Atlassian sites you can reach: their cloudId, URL and scopes."""
    name = self.base.removeprefix("https://").split(".")[0]
    return {"_list": [{"id": self.cloud_id, "url": self.base, "name": name, "scopes": list(SCOPES),
                       "avatarUrl": f"{self.base}/avatar.png"}]}


@operation("tickets.searchText")
def search_text(self, query: Keyword, limit: Limit | None = None, cloud_id: CloudId | None = None) -> dict[str, Any]:
    """Rovo search over Jira: issues whose key, summary, description or comments hold the words."""
    self.check_cloud(cloud_id)
    text = (query or "").strip()
    if not text:
        raise TicketsError("invalid_arguments", "query is required: words to find, or an issue key", field="query")
    from apps.tickets.search import run

    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    jql = f'text ~ "{escaped}" ORDER BY updated DESC'
    page, total = run(self, jql, 0, min(limit or 10, 50))
    direct = [i for i in [self._maybe_issue(text)] if i is not None and i.id not in {p.id for p in page}]
    results = [{"id": ari(self, i), "title": f"{i.key}: {i.summary}", "url": f"{self.base}/browse/{i.key}", "type": "issue",
                "status": i.status, "lastModified": i.updated} for i in direct + page]
    return {"results": results, "total": total + len(direct)}


@operation("tickets.getCreateMeta")
def get_create_meta(self, project: ProjectRef, issue_type: IssueTypeName, cloud_id: CloudId | None = None) -> dict[str, Any]:
    """The fields an issue type takes when created in a project: which are required and their allowed values."""
    self.check_cloud(cloud_id)
    proj = self.project(project, "projectIdOrKey")
    kind = catalog.issue_type(issue_type)
    if kind is None or kind.name not in proj.issue_types:
        raise TicketsError("invalid_arguments", f"issue type {issue_type[:40]!r} is not used in {proj.key}; it takes {', '.join(proj.issue_types)}",
                           field="issueTypeId")
    fields = [
        _field("summary", "Summary", "string", True),
        _field("issuetype", "Issue Type", "issuetype", True, [{"id": kind.id, "name": kind.name}]),
        _field("project", "Project", "project", True, [{"id": proj.id, "key": proj.key, "name": proj.name}]),
        _field("description", "Description", "string", False),
        _field("priority", "Priority", "priority", False, [{"id": p.id, "name": p.name} for p in catalog.PRIORITIES], {"name": catalog.DEFAULT_PRIORITY}),
        _field("assignee", "Assignee", "user", False),
        _field("labels", "Labels", "array", False),
        _field("components", "Components", "array", False, [{"id": c["id"], "name": c["name"]} for c in self.get_components(project=proj.key)["_list"]]),
        _field("duedate", "Due date", "date", False),
        _field("parent", "Parent", "issuelink", kind.subtask),
        _field("timetracking", "Time tracking", "timetracking", False),  # {"originalEstimate": "2d", "remainingEstimate": "1d"}
    ]
    if proj.key == "ENG":
        fields.append(_field("fixVersions", "Fix versions", "array", False, [{"id": v["id"], "name": v["name"]} for v in self.get_versions(project="ENG")["_list"]]))
        fields.append(_field(catalog.STORY_POINTS, "Story Points", "number", False))
        fields.append(_field(catalog.SPRINT_FIELD, "Sprint", "array", False))  # set with a sprint's id
    if proj.key == "SUP":
        fields.append(_field(catalog.CASE_FIELD, "Salesforce Case", "string", False))
    return {"startAt": 0, "maxResults": len(fields), "total": len(fields), "fields": fields}


@operation("tickets.getEditMeta")
def get_edit_meta(self, issue: IssueRef) -> dict[str, Any]:
    """The fields an edit of this issue may set (Jira's editmeta): {fields: {id: {name, required, schema, operations, allowedValues}}}."""
    found = self.issue(issue)
    meta = get_create_meta(self, project=found.project_key, issue_type=found.issue_type)["fields"]
    fields: dict[str, Any] = {}
    for field in meta:
        if field["fieldId"] == "project":
            continue
        shaped = {k: v for k, v in field.items() if k not in ("fieldId", "hasDefaultValue", "defaultValue")}
        shaped["required"] = field["fieldId"] in ("summary", "issuetype") or (field["fieldId"] == "parent" and field["required"])
        if field["fieldId"] in ("labels", "components", "fixVersions"):
            shaped["operations"] = ["add", "set", "remove"]
        fields[field["fieldId"]] = shaped
    return {"fields": fields}


def _field(field_id: str, name: str, kind: str, required: bool, allowed: list[Any] | None = None, default: Any = None) -> dict[str, Any]:
    shaped: dict[str, Any] = {"fieldId": field_id, "key": field_id, "name": name, "required": required, "schema": {"type": kind},
                              "hasDefaultValue": default is not None, "operations": ["set"]}
    if allowed is not None:
        shaped["allowedValues"] = allowed
    if default is not None:
        shaped["defaultValue"] = default
    return shaped


def maybe_issue(self, text: str) -> Issue | None:
    from apps.tickets.ids import split_key

    key = split_key(text)
    if key is None:
        return None
    return self.db.scalar(select(Issue).where(Issue.project_key == key[0], Issue.number == key[1]))
