"""Web links: an issue's links to pages outside Jira (Jira's remote issue links), a support
ticket's Salesforce case or a runbook. Each has the linked object's url and title, and what the
linking application says about it (summary, icon, resolved, relationship); a `globalId` names
the object in its own system, so linking it again updates the link instead of adding another.

The operations are bound into `TicketsService` (service.py); `self` is that service.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field
from sqlalchemy import select

from apps.tickets.errors import TicketsError, not_found
from apps.tickets.models import RemoteLink
from apps.tickets.params import IssueRef, JsonObject, Style, decode
from officegym.core.operations import operation

MAX_URL = 2048
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.IGNORECASE)
_SCHEMES = ("http", "https", "ftp", "ftps", "mailto", "file", "sftp", "ssh", "git", "notes", "tel")
LinkUrl = Annotated[str, Field(max_length=MAX_URL, description="The linked page's URL, e.g. 'https://status.example.com/incidents/42'")]
LinkText = Annotated[str, Field(max_length=255, description="Text, at most 255 characters")]
LinkSummary = Annotated[str, Field(max_length=4000, description="A line about the linked object")]
LinkId = Annotated[str, Field(max_length=40, description="The web link's id (from the issue's remote links)")]
GlobalId = Annotated[str, Field(max_length=255, description="The linked object's id in its own system, e.g. 'system=https://status.example.com&id=42'")]


def _url(value: str | None, name: str, required: bool = True) -> str | None:
    text = (value or "").strip()
    if not text:
        if required:
            raise TicketsError("invalid_field", f"'{name}' is required: the linked page's address, e.g. 'https://example.com/page'.", field=name)
        return None
    scheme = _SCHEME.match(text)
    if scheme is None or scheme[1].lower() not in _SCHEMES or any(c.isspace() for c in text):
        raise TicketsError("invalid_field", f"'{name}' must be an absolute link (http, https, mailto, ...), got {text[:80]!r}.", field=name)
    return text


def _title(value: str | None) -> str:
    text = " ".join((value or "").split())
    if not text:
        raise TicketsError("invalid_field", "'title' is required: the text the link shows.", field="title")
    return text


def _row(self, found: Any, link_id: str) -> RemoteLink:
    text = str(link_id).strip()
    row = self.db.get(RemoteLink, int(text)) if text.isdigit() and len(text) < 10 else None
    if row is None or row.issue_id != found.id:
        raise not_found("remote_link", f"No remote link with id {text[:20]!r} on {found.key} (see its remote links).")
    return row


def _by_global_id(self, found: Any, global_id: str) -> RemoteLink | None:
    return self.db.scalar(select(RemoteLink).where(RemoteLink.issue_id == found.id, RemoteLink.global_id == global_id).order_by(RemoteLink.id))


def shape(row: RemoteLink, key: str, base: str) -> dict[str, Any]:
    """A remote link as Jira REST answers it."""
    out: dict[str, Any] = {"id": row.id, "self": f"{base}/rest/api/3/issue/{key}/remotelink/{row.id}"}
    if row.global_id:
        out["globalId"] = row.global_id
    out["application"] = {k: v for k, v in (("type", row.application_type), ("name", row.application_name)) if v}
    if row.relationship:
        out["relationship"] = row.relationship
    obj: dict[str, Any] = {"url": row.url, "title": row.title}
    if row.summary:
        obj["summary"] = row.summary
    obj["icon"] = {k: v for k, v in (("url16x16", row.icon_url), ("title", row.icon_title)) if v}
    obj["status"] = {"resolved": row.resolved, "icon": {}} if row.resolved is not None else {"icon": {}}
    out["object"] = obj
    return out


def _set(row: RemoteLink, url: str | None, title: str | None, summary: str | None, relationship: str | None, icon_url: str | None,
         icon_title: str | None, application: Any, resolved: bool | None) -> None:
    """A link's values as a create or a full update gives them (Jira's PUT replaces the link)."""
    app = decode(application, "application", dict) if application is not None else {}
    row.url = _url(url, "url")
    row.title = _title(title)
    row.summary = (summary or "").strip() or None
    row.relationship = " ".join((relationship or "").split())[:255] or None
    row.icon_url = _url(icon_url, "icon.url16x16", required=False)
    row.icon_title = " ".join((icon_title or "").split())[:255] or None
    row.application_type = str(app.get("type") or "").strip()[:255] or None
    row.application_name = str(app.get("name") or "").strip()[:255] or None
    row.resolved = bool(resolved) if resolved is not None else None


@operation("tickets.createRemoteLink", writes=True)
def create_remote_link(self, issue: IssueRef, url: LinkUrl | None = None, title: LinkText | None = None, summary: LinkSummary | None = None,
                       relationship: LinkText | None = None, icon_url: LinkUrl | None = None, icon_title: LinkText | None = None,
                       global_id: GlobalId | None = None, application: JsonObject | None = None, resolved: bool | None = None,
                       style: Style = "jira") -> dict[str, Any]:
    """Add a web link to an issue (its url and the title it shows); with a globalId that the
    issue already links, update that link instead."""
    found = self.issue(issue)
    gid = (global_id or "").strip() or None
    row = _by_global_id(self, found, gid) if gid else None
    updated = row is not None
    if row is None:
        row = RemoteLink(id=max(self.db.scalar(select(RemoteLink.id).order_by(RemoteLink.id.desc()).limit(1)) or 0, 9999) + 1,
                         issue_id=found.id, global_id=gid)
    _set(row, url, title, summary, relationship, icon_url, icon_title, application, resolved)
    if not updated:
        self.db.add(row)
        self.record(found, [("RemoteIssueLink", None, None, str(row.id), f'This issue links to "{row.title}"')])
    found.updated = self.stamp()
    self.db.flush()
    if style == "simplified":  # mcp-atlassian's jira_create_remote_issue_link
        return {"success": True, "message": f"Remote link created for issue {found.key}", "issue_key": found.key,
                "link_title": row.title, "link_url": row.url, "relationship": row.relationship or ""}
    out = {"id": row.id, "self": f"{self.base}/rest/api/3/issue/{found.key}/remotelink/{row.id}"}
    return {**out, "_updated": True} if updated else out


@operation("tickets.updateRemoteLink", writes=True)
def update_remote_link(self, issue: IssueRef, link_id: LinkId, url: LinkUrl | None = None, title: LinkText | None = None, summary: LinkSummary | None = None,
                       relationship: LinkText | None = None, icon_url: LinkUrl | None = None, icon_title: LinkText | None = None,
                       global_id: GlobalId | None = None, application: JsonObject | None = None, resolved: bool | None = None) -> dict[str, Any]:
    """Replace a web link's values (its url and title are required, as when it was added)."""
    found = self.issue(issue)
    row = _row(self, found, link_id)
    gid = (global_id or "").strip() or None
    if gid and gid != row.global_id and _by_global_id(self, found, gid) is not None:
        raise TicketsError("invalid_field", f"{found.key} already has a remote link with globalId {gid[:80]!r}.", field="globalId")
    _set(row, url, title, summary, relationship, icon_url, icon_title, application, resolved)
    if gid:
        row.global_id = gid
    found.updated = self.stamp()
    self.db.flush()
    return {}


@operation("tickets.deleteRemoteLink", writes=True)
def delete_remote_link(self, issue: IssueRef, link_id: LinkId | None = None, global_id: GlobalId | None = None) -> dict[str, Any]:
    """Remove a web link from an issue, by its id or by its globalId."""
    found = self.issue(issue)
    if link_id not in (None, ""):
        row = _row(self, found, link_id)
    elif global_id:
        row = _by_global_id(self, found, global_id.strip())
        if row is None:
            raise not_found("remote_link", f"No remote link with globalId {global_id[:80]!r} on {found.key}.")
    else:
        raise TicketsError("invalid_arguments", "Give the remote link's id, or its globalId.", field="globalId")
    self.record(found, [("RemoteIssueLink", str(row.id), f'This issue links to "{row.title}"', None, None)])
    self.db.delete(row)
    self.db.flush()
    return {}


@operation("tickets.getRemoteLink")
def get_remote_link(self, issue: IssueRef, link_id: LinkId) -> dict[str, Any]:
    """One web link of an issue, by its id."""
    found = self.issue(issue)
    return shape(_row(self, found, link_id), found.key, self.base)


@operation("tickets.getRemoteLinks")
def get_remote_links(self, issue: IssueRef, global_id: GlobalId | None = None, style: Style = "jira") -> dict[str, Any]:
    """An issue's web links (a support ticket's Salesforce case); with a globalId, that one link."""
    found = self.issue(issue)
    if global_id:
        row = _by_global_id(self, found, global_id.strip())
        if row is None:
            raise not_found("remote_link", f"No remote link with globalId {global_id[:80]!r} on {found.key}.")
        return shape(row, found.key, self.base)
    links = list(self.db.scalars(select(RemoteLink).where(RemoteLink.issue_id == found.id).order_by(RemoteLink.id)))
    if style == "simplified":
        return {"_list": [{"id": str(r.id), "url": r.url, "title": r.title, **({"relationship": r.relationship} if r.relationship else {})}
                          for r in links]}
    return {"_list": [shape(r, found.key, self.base) for r in links]}
