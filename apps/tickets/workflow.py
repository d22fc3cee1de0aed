"""The workflow: which transitions an issue's status offers, and running one — the fields its
screen requires (a resolution), the resolution it sets or clears, the changelog, and an
optional comment. Bound into `TicketsService` (service.py); `self` is that service.
"""

from __future__ import annotations

from typing import Any

from apps.tickets import catalog, collab, shapes
from apps.tickets import fields as F
from apps.tickets.edits import EDITABLE
from apps.tickets.errors import TicketsError
from apps.tickets.models import Issue
from apps.tickets.params import Body, CloudId, IssueRef, JsonObject, Style, decode
from officegym.core.operations import operation


def available(self, issue: Issue) -> list[catalog.Transition]:
    workflow = catalog.PROJECT_BY_KEY[issue.project_key].workflow
    return [t for t in workflow.transitions if issue.status in t.sources]

@operation("tickets.getTransitions")
def get_transitions(self, issue: IssueRef, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """The transitions available from the issue's current status."""
    self.check_cloud(cloud_id)
    found = self.issue_row(issue)
    moves = self.available(found)
    if style == "simplified":
        return {"_list": [{"id": t.id, "name": t.name, "to_status": t.to} for t in moves]}
    return {"expand": "transitions", "transitions": [
        {"id": t.id, "name": t.name, "to": shapes.status(t.to, self.base), "hasScreen": bool(t.requires), "isGlobal": False,
         "isInitial": False, "isAvailable": True, "isConditional": False, "isLooped": False,
         "fields": {f: {"required": True, "name": f.title(), "allowedValues": [{"name": r} for r in catalog.RESOLUTIONS]} for f in t.requires}}
        for t in moves]}

@operation("tickets.transitionIssue", writes=True)
def transition_issue(self, issue: IssueRef, transition: str, fields: JsonObject | None = None, comment: Body | None = None,
                     update: JsonObject | None = None, style: Style = "jira", cloud_id: CloudId | None = None) -> dict[str, Any]:
    """Move an issue through its workflow by transition id or name (see getTransitions)."""
    self.check_cloud(cloud_id)
    found = self.draft(issue)
    values = decode(fields, "fields", dict)
    verbs = decode(update, "update", dict)
    note = F.text(comment, "comment") if comment else None
    for entry in verbs.pop("comment", []) if isinstance(verbs.get("comment"), list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("add"), dict):
            note = F.text(entry["add"].get("body"), "comment")
    old = found.status
    self._transition(found, transition, values, note)
    found.save(self.db)
    if style == "simplified":
        return {"message": f"Issue {found.key} transitioned successfully from {old} to {found.status}", "issue": self.one(found, style)}
    return {}

def run_transition(self, issue: Issue, transition: str, raw_fields: dict[str, Any], comment: str | None) -> None:
    wanted = str(transition or "").strip()
    moves = self.available(issue)
    chosen = next((t for t in moves if t.id == wanted or t.name.lower() == wanted.lower()), None)
    if chosen is None:
        offered = "; ".join(f"{t.id} '{t.name}' → {t.to}" for t in moves) or "none"
        raise TicketsError("invalid_transition", f"Transition '{wanted[:60]}' is not valid for {issue.key} in status '{issue.status}'. "
                                                 f"Available transitions: {offered}.", field="transition")
    values = F.normalize(raw_fields, EDITABLE | {"resolution"})
    resolution = None
    if "resolution" in values:
        if catalog.STATUS_BY_NAME[chosen.to].category != "done":
            raise TicketsError("invalid_field", f"Field 'resolution' cannot be set on '{chosen.name}': only when moving to a done status.", field="resolution")
        resolution = catalog.resolution(F.ref(values.pop("resolution"), "name", "id"))
        if resolution is None:
            raise TicketsError("invalid_field", f"Specify a valid resolution: {', '.join(catalog.RESOLUTIONS)}.", field="resolution")
    if "resolution" in chosen.requires and resolution is None and not issue.resolution:
        raise TicketsError("invalid_field", f"Resolution is required for '{chosen.name}'. Pass fields {{\"resolution\": {{\"name\": \"Fixed\"}}}}; "
                                            f"accepted: {', '.join(catalog.RESOLUTIONS)}.", field="resolution")
    changes = self.apply(issue, values)
    before = catalog.STATUS_BY_NAME[issue.status]
    after = catalog.STATUS_BY_NAME[chosen.to]
    changes.append(("status", before.id, before.name, after.id, after.name))
    issue.status = after.name
    new_resolution = issue.resolution
    if chosen.clears_resolution:
        new_resolution = None
    elif after.category == "done":
        new_resolution = resolution or issue.resolution or chosen.resolution
    if new_resolution != issue.resolution:
        changes.append(("resolution", catalog.RESOLUTION_IDS.get(issue.resolution or ""), issue.resolution,
                        catalog.RESOLUTION_IDS.get(new_resolution or ""), new_resolution))
        issue.resolution = new_resolution
    issue.resolved = (issue.resolved if before.category == "done" else self.stamp()) if after.category == "done" else None
    self.record(issue, changes)
    if comment:
        collab.add_comment_row(self, issue, comment)
    self.db.flush()
