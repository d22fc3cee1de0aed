"""JQL search over issues: `tickets.searchIssues` (Jira's /search/jql and mcp-atlassian's
jira_search) and a project's issues. The operations are bound into `TicketsService`."""

from __future__ import annotations

import base64
from typing import Any

from apps.tickets import fields as F
from apps.tickets.errors import TicketsError
from apps.tickets.jql import plan as jql_plan
from apps.tickets.jql.compiler import JqlContext
from apps.tickets.jql.parser import JqlError
from apps.tickets.params import CloudId, Counted, Jql, Limit, Names, Offset, ProjectRef, Style, Token
from officegym.core.operations import operation

MAX_PAGE = 100  # Jira Cloud's cap for a page of full issues
SIMPLE_MAX = 50  # mcp-atlassian's cap


def encode_token(offset: int) -> str:
    return base64.urlsafe_b64encode(f"offset:{offset}".encode()).decode()


def decode_token(token: str) -> int:
    try:
        kind, _, value = base64.urlsafe_b64decode(token.encode()).decode().partition(":")
        if kind == "offset" and value.isdigit() and len(value) < 10:
            return int(value)
    except (ValueError, UnicodeDecodeError):
        pass
    raise TicketsError("invalid_arguments", "nextPageToken is not one this search returned; pass the nextPageToken of the previous page", field="nextPageToken")


def run(self, jql: str, offset: int, size: int, projects: list[str] | None = None) -> tuple[list[Any], int]:
    """A page of issues (whole plain rows) matching `jql` (within `projects`, when given), and how many match in all."""
    return page_of(self, plan_of(self, jql, projects), offset, size)


def plan_of(self, jql: str, projects: list[str] | None = None) -> jql_plan.Plan:
    """The compiled query (within `projects`, when given); a bad query is Jira's invalid_jql."""
    try:
        return jql_plan.plan_for(JqlContext(self.db, lambda: self.actor_id, self.now), jql or "", tuple(projects or ()))
    except JqlError as bad:
        raise TicketsError("invalid_jql", bad.message, field=None) from None


def page_of(self, plan: jql_plan.Plan, offset: int, size: int, view: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> tuple[list[Any], int]:
    """A page of the plan's issues, and how many match in all; with `view` (columns, people),
    only those columns of each, and those people's users joined (queries.issue_view)."""
    self.db.flush()  # the plan runs on the driver: the ORM's pending changes go first
    page = plan.rows(self.db, offset=offset, size=size, columns=view[0], people=view[1]) if view else plan.rows(self.db, offset=offset, size=size)
    if size and (page and len(page) < size or not page and offset == 0):
        return page, offset + len(page)  # the last page: its end is the count
    return page, plan.total(self.db)


def page_and_more(self, plan: jql_plan.Plan, offset: int, size: int, view: tuple[tuple[str, ...], tuple[str, ...]]) -> tuple[list[Any], bool]:
    """A page of the plan's issues (as `page_of` reads them), and whether more match after it:
    one row past the page tells, where a count would read every match."""
    self.db.flush()  # the plan runs on the driver: the ORM's pending changes go first
    page = plan.rows(self.db, offset=offset, size=size + 1, columns=view[0], people=view[1])
    return page[:size], len(page) > size


@operation("tickets.searchIssues")
def search_issues(self, jql: Jql = "", fields: Names | None = None, max_results: Limit | None = None, start_at: Offset | None = None,
                  next_page_token: Token | None = None, projects_filter: Names | None = None, expand: str | None = None, api: str = "3",
                  style: Style = "jira", cloud_id: CloudId | None = None, count: Counted = True) -> dict[str, Any]:
    """Issues matching a JQL query, a page at a time."""
    self.check_cloud(cloud_id)
    text = jql or ""  # not stripped: error positions count from what the caller sent
    projects = [self.project(p).key for p in F.string_list(projects_filter, "projects_filter")] if projects_filter else None
    offset = decode_token(next_page_token) if next_page_token else (start_at or 0)
    cap = SIMPLE_MAX if style == "simplified" else MAX_PAGE
    size = min(max_results or (10 if style == "simplified" else 50), cap)
    plan = plan_of(self, text, projects)
    wanted = F.string_list(fields, "fields") if fields else None
    view = self.page_view(style, wanted)
    if not count and style != "simplified":
        page, more = page_and_more(self, plan, offset, size, view)
        body: dict[str, Any] = {"expand": "names,schema", "startAt": offset, "maxResults": size,
                                "issues": self.shape(page, style, wanted=wanted, v3=api != "2"), "isLast": not more}
    else:
        page, total = page_of(self, plan, offset, size, view)
        issues = self.shape(page, style, wanted=wanted, v3=api != "2")
        if style == "simplified":
            return {"total": total, "start_at": offset, "max_results": size, "issues": issues}
        body = {"expand": "names,schema", "startAt": offset, "maxResults": size, "total": total, "issues": issues,
                "isLast": offset + len(page) >= total}
    if not body["isLast"]:
        body["nextPageToken"] = encode_token(offset + len(page))
    return body


@operation("tickets.getProjectIssues")
def get_project_issues(self, project: ProjectRef, max_results: Limit | None = None, start_at: Offset | None = None, style: Style = "jira") -> dict[str, Any]:
    """The issues of one project, newest first."""
    key = self.project(project).key
    return search_issues(self, jql=f"project = {key} ORDER BY created DESC", max_results=max_results, start_at=start_at, style=style)
