"""Setting an issue's fields from Jira's values: summary, type, priority, people, labels,
components, versions, dates, points, case and parent (with Jira's hierarchy rules), and Jira's
`update` verbs ({"labels": [{"add": "x"}]}). Each setter returns changelog items; the caller
records them. Bound into `TicketsService` (service.py); `self` is that service.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from sqlalchemy import delete, func, or_, select

from apps.tickets import catalog
from apps.tickets import fields as F
from apps.tickets import queries as Q
from apps.tickets.errors import TicketsError
from apps.tickets.ids import parse_duration
from apps.tickets.models import Component, Issue, IssueComponent, IssueVersion, Label, Version

MAX_SUMMARY = 255
MAX_TEXT = 32_767  # Jira's limit for a text field
_LABEL = re.compile(r"^\S{1,255}$")
EDITABLE = {"summary", "description", "issuetype", "priority", "assignee", "reporter", "labels", "components", "fixVersions", "duedate",
            "parent", "story_points", "case_number", "timetracking"}


def _num(value: float | None) -> str | None:
    if value is None:
        return None
    return str(int(value)) if float(value).is_integer() else str(value)


# -- fields --------------------------------------------------------------------------
def apply(self, issue: Issue, values: dict[str, Any], creating: bool = False) -> list[tuple[str, Any, Any, Any, Any]]:
    """Set fields from normalized values; returns the changelog items (none when creating)."""
    changes: list[tuple[str, Any, Any, Any, Any]] = []
    project = catalog.PROJECT_BY_KEY[issue.project_key]
    if "summary" in values:
        summary = F.text(values["summary"], "summary").strip()
        if not summary:
            raise TicketsError("invalid_field", "You must specify a summary of the issue.", field="summary")
        if len(summary) > MAX_SUMMARY or "\n" in summary:
            raise TicketsError("invalid_field", "Summary must be one line of at most 255 characters.", field="summary")
        changes.append(("summary", None, issue.summary, None, summary))
        issue.summary = summary
    if "description" in values:
        description = F.text(values["description"], "description")
        if len(description) > MAX_TEXT:
            raise TicketsError("invalid_field", f"Description is too long: at most {MAX_TEXT} characters.", field="description")
        changes.append(("description", None, issue.description or None, None, description or None))
        issue.description = description
    if "issuetype" in values:
        kind = catalog.issue_type(F.ref(values["issuetype"], "name", "id"))
        if kind is None or kind.name not in project.issue_types:
            raise TicketsError("invalid_field", f"Specify a valid issue type. {project.key} takes: {', '.join(project.issue_types)}.", field="issuetype")
        if not creating and kind.subtask != catalog.issue_type(issue.issue_type).subtask:
            raise TicketsError("invalid_field", "An issue cannot change between a subtask and a standard issue type by editing.", field="issuetype")
        changes.append(("issuetype", None, issue.issue_type, catalog.issue_type(kind.name).id, kind.name))
        issue.issue_type = kind.name
    if "priority" in values:
        chosen = catalog.priority(F.ref(values["priority"], "name", "id"))
        if chosen is None:
            raise TicketsError("invalid_field", f"Specify a valid priority: {', '.join(p.name for p in catalog.PRIORITIES)}.", field="priority")
        changes.append(("priority", catalog.priority(issue.priority).id if issue.priority else None, issue.priority, chosen.id, chosen.name))
        issue.priority = chosen.name
    for role in ("assignee", "reporter"):
        if role in values:
            raw = F.ref(values[role], "accountId", "id", "emailAddress", "name", "displayName")
            person = None if raw in (None, "", "-1", "null") else self.user(raw, role)
            column = f"{role}_id"
            old = getattr(issue, column)
            old_user = Q.USER_BY_ID.first(self.db, id=old) if old else None
            old_name = old_user.display_name if old_user else None
            changes.append((role, old, old_name, person.account_id if person else None, person.display_name if person else None))
            setattr(issue, column, person.account_id if person else None)
    if "labels" in values:
        labels = F.string_list(values["labels"], "labels")
        bad = [label for label in labels if not _LABEL.match(label)]
        if bad:
            raise TicketsError("invalid_field", f"Labels cannot contain spaces: {bad[0][:60]!r}. Use e.g. 'customer-reported'.", field="labels")
        self.set_labels(issue, labels, changes)
    if "components" in values:
        self.set_components(issue, F.string_list(values["components"], "components"), changes)
    if "fixVersions" in values:
        self.set_versions(issue, F.string_list(values["fixVersions"], "fixVersions"), changes)
    if "duedate" in values:
        due = F.ref(values["duedate"], "value")
        due = (due or "").strip()[:10] or None
        if due is not None:
            try:
                date.fromisoformat(due)
            except ValueError:
                raise TicketsError("invalid_field", f"Due date must be 'YYYY-MM-DD'; got {due!r}.", field="duedate") from None
        changes.append(("duedate", issue.duedate, issue.duedate, due, due))
        issue.duedate = due
    if "story_points" in values:
        points = F.number(values["story_points"], catalog.STORY_POINTS)
        changes.append(("Story Points", None, _num(issue.story_points), None, _num(points)))
        issue.story_points = points
    if "case_number" in values:
        case = (F.ref(values["case_number"], "value") or "").strip()[:32] or None
        changes.append(("Salesforce Case", None, issue.case_number, None, case))
        issue.case_number = case
    if "timetracking" in values:
        set_estimates(issue, values["timetracking"], changes)
    if "parent" in values or creating:
        self.set_parent(issue, F.ref(values.get("parent"), "key", "id"), changes, creating)
    return changes

def estimate(value: Any, name: str) -> int | None:
    """An estimate in Jira's duration text ("2d 4h", "90m"; a bare number is minutes), or None to clear it."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).strip()
    seconds = parse_duration(f"{text}m" if text.isdigit() else text)
    if seconds is None or seconds > MAX_ESTIMATE:
        raise TicketsError("invalid_field", f"Invalid time duration entered for {name}: {text[:40]!r}. Use e.g. '2d', '4h 30m', '45m'.",
                           field="timetracking")
    return seconds


def set_estimates(issue: Any, value: Any, changes: list) -> None:
    """Jira's time tracking field: {"originalEstimate": "2d", "remainingEstimate": "1d 4h"}. An
    original estimate set while no remaining estimate is, sets that too (Jira's default)."""
    if not isinstance(value, dict) or not set(value) & {"originalEstimate", "remainingEstimate"}:
        raise TicketsError("invalid_field", "timetracking takes {\"originalEstimate\": \"2d\", \"remainingEstimate\": \"1d 4h\"}.", field="timetracking")
    given = {key: estimate(value[key], key) for key in ("originalEstimate", "remainingEstimate") if key in value}
    if "originalEstimate" in given:
        changes.append(("timeoriginalestimate", _seconds(issue.original_estimate), _seconds(issue.original_estimate),
                        _seconds(given["originalEstimate"]), _seconds(given["originalEstimate"])))
        issue.original_estimate = given["originalEstimate"]
        if "remainingEstimate" not in given and issue.remaining_estimate is None:
            given["remainingEstimate"] = given["originalEstimate"]
    if "remainingEstimate" in given:
        set_remaining(issue, given["remainingEstimate"], changes)


def set_remaining(issue: Any, seconds: int | None, changes: list) -> None:
    changes.append(("timeestimate", _seconds(issue.remaining_estimate), _seconds(issue.remaining_estimate), _seconds(seconds), _seconds(seconds)))
    issue.remaining_estimate = seconds


def _seconds(value: int | None) -> str | None:
    return None if value is None else str(value)


MAX_ESTIMATE = 100 * 5 * 8 * 3600  # a hundred working weeks


def set_parent(self, issue: Issue, ref: str | None, changes: list, creating: bool) -> None:
    kind = catalog.issue_type(issue.issue_type)
    parent = self.issue_row(ref) if ref else None
    if kind.subtask and parent is None:
        raise TicketsError("invalid_field", "A subtask needs a parent: set 'parent' to the key of its standard issue.", field="parent")
    if parent is not None:
        parent_kind = catalog.issue_type(parent.issue_type)
        if parent.id == issue.id:
            raise TicketsError("invalid_field", "An issue cannot be its own parent.", field="parent")
        if kind.hierarchy == 1:
            raise TicketsError("invalid_field", "An epic cannot have a parent.", field="parent")
        if kind.subtask and (parent_kind.subtask or parent_kind.hierarchy == 1 or parent.project_key != issue.project_key):
            raise TicketsError("invalid_field", f"A subtask's parent must be a standard issue of {issue.project_key}; {parent.key} is a {parent.issue_type}.", field="parent")
        if not kind.subtask and parent_kind.hierarchy != 1:
            raise TicketsError("invalid_field", f"The parent of a {issue.issue_type} must be an Epic; {parent.key} is a {parent.issue_type}.", field="parent")
    if not creating or parent is not None:
        old = Q.issue_by_id(self.db, issue.parent_id) if issue.parent_id else None
        changes.append(("IssueParentAssociation", str(old.id) if old else None, old.key if old else None,
                        str(parent.id) if parent else None, parent.key if parent else None))
    issue.parent_id = parent.id if parent else None

def set_labels(self, issue: Issue, labels: list[str], changes: list) -> None:
    # On the driver, as the row-level edits are: no ORM object holds an issue's labels.
    self.db.flush()
    old = sorted(Q.LABELS_OF.scalars(self.db, issue_id=issue.id))
    Q.DELETE_LABELS.run(self.db, issue_id=issue.id)
    Q.INSERT_LABEL.run_many(self.db, [{"issue_id": issue.id, "label": label} for label in labels])
    changes.append(("labels", None, " ".join(old) or None, None, " ".join(sorted(labels)) or None))

def set_components(self, issue: Issue, names: list[str], changes: list) -> None:
    self.db.flush()  # on the driver, as set_labels
    found = []
    for name in names:
        component = Q.COMPONENT_NAMED.first(self.db, project=issue.project_key, low=name.lower(),
                                            component_id=int(name) if name.isdigit() and len(name) < 10 else -1)
        if component is None:
            known = ", ".join(self.db.scalars(select(Component.name).where(Component.project_key == issue.project_key).order_by(Component.name)))
            raise TicketsError("invalid_field", f"Component '{name[:60]}' is not valid for project {issue.project_key}. Components: {known}.", field="components")
        found.append(component)
    old = sorted(Q.COMPONENT_NAMES_OF.scalars(self.db, issue_id=issue.id))
    Q.DELETE_ISSUE_COMPONENTS.run(self.db, issue_id=issue.id)
    Q.INSERT_ISSUE_COMPONENT.run_many(self.db, [{"issue_id": issue.id, "component_id": c.id} for c in {c.id: c for c in found}.values()])
    changes.append(("Component", None, ", ".join(old) or None, None, ", ".join(sorted(c.name for c in found)) or None))

def set_versions(self, issue: Issue, names: list[str], changes: list) -> None:
    found = []
    for name in names:
        version = self.db.scalar(select(Version).where(Version.project_key == issue.project_key, or_(
            func.lower(Version.name) == name.lower(), Version.id == (int(name) if name.isdigit() and len(name) < 10 else -1))))
        if version is None:
            raise TicketsError("invalid_field", f"Version '{name[:60]}' is not valid for project {issue.project_key} (see jira_get_project_versions).", field="fixVersions")
        found.append(version)
    old = sorted(self.db.scalars(select(Version.name).join(IssueVersion, IssueVersion.version_id == Version.id).where(IssueVersion.issue_id == issue.id)))
    self.db.execute(delete(IssueVersion).where(IssueVersion.issue_id == issue.id))
    for version in {v.id: v for v in found}.values():
        self.db.add(IssueVersion(issue_id=issue.id, version_id=version.id))
    self.db.flush()
    changes.append(("Fix Version", None, ", ".join(old) or None, None, ", ".join(sorted(v.name for v in found)) or None))


def _ref(value: Any) -> str | None:
    found = (value.get("key") or value.get("id")) if isinstance(value, dict) else value
    return str(found).strip() if isinstance(found, str | int) and not isinstance(found, bool) and str(found).strip() else None


def link_verbs(ops: Any) -> list[tuple[str, str | None, str | None]]:
    """Jira's `update.issuelinks` ([{"add": {"type": {"name": "Blocks"}, "outwardIssue": {"key": "ENG-2"}}}])
    as (link type, inward issue, outward issue), None standing for the issue being edited:
    with outwardIssue this issue is the inward end ("this issue blocks ENG-2"), with
    inwardIssue the outward one ("ENG-2 blocks this issue"). Jira offers only "add" here
    (a link is removed with DELETE /issueLink/{id})."""
    if not isinstance(ops, list):
        ops = [ops]
    links = []
    for op in ops:
        if not isinstance(op, dict) or set(op) != {"add"} or not isinstance(op["add"], dict):
            raise TicketsError("invalid_field", "update.issuelinks: each operation is {\"add\": {\"type\": {\"name\": \"Blocks\"}, "
                                                "\"outwardIssue\": {\"key\": \"ENG-2\"}}} (or inwardIssue); links are removed with "
                                                "DELETE /rest/api/3/issueLink/{id}.", field="issuelinks")
        body = op["add"]
        kind = body.get("type")
        kind = (kind.get("name") or kind.get("id")) if isinstance(kind, dict) else kind
        inward, outward = _ref(body.get("inwardIssue")), _ref(body.get("outwardIssue"))
        if not isinstance(kind, str | int) or isinstance(kind, bool) or not str(kind).strip():
            raise TicketsError("invalid_field", "update.issuelinks: add needs the link type, e.g. {\"type\": {\"name\": \"Blocks\"}}.", field="issuelinks")
        if (inward is None) == (outward is None):
            raise TicketsError("invalid_field", "update.issuelinks: add needs exactly one of outwardIssue (this issue <outward verb> it) "
                                                "or inwardIssue (it <outward verb> this issue), e.g. {\"outwardIssue\": {\"key\": \"ENG-2\"}}.",
                               field="issuelinks")
        links.append((str(kind), inward, outward))
    return links


def comment_verbs(ops: Any) -> list[Any]:
    """Jira's `update.comment` ([{"add": {"body": …}}]) as the comment bodies to add."""
    if not isinstance(ops, list) or not all(isinstance(o, dict) and set(o) == {"add"} and isinstance(o["add"], dict) and o["add"].get("body")
                                            for o in ops):
        raise TicketsError("invalid_field", "update.comment: each operation is {\"add\": {\"body\": \"text or an ADF document\"}}.", field="comment")
    return [o["add"]["body"] for o in ops]


def verbs(self, issue: Issue, update: dict[str, Any]) -> dict[str, Any]:
    """Jira's `update` operations ({"labels": [{"add": "a"}, {"remove": "b"}]}, "set") as field values."""
    values: dict[str, Any] = {}
    for name, ops in update.items():
        canonical = F.ALIASES.get(str(name).lower())
        if canonical not in ("labels", "components", "fixVersions") and not (isinstance(ops, list) and all(isinstance(o, dict) and set(o) == {"set"} for o in ops)):
            raise TicketsError("invalid_field", f"Field '{name}' cannot be updated with add/remove; use 'fields' to set it.", field=str(name)[:64])
        if not isinstance(ops, list):
            raise TicketsError("invalid_field", f"update.{name} must be a list of operations like [{{\"add\": \"x\"}}].", field=str(name)[:64])
        if canonical not in ("labels", "components", "fixVersions"):
            values[canonical] = ops[-1]["set"]
            continue
        current = {"labels": lambda: list(self.db.scalars(select(Label.label).where(Label.issue_id == issue.id).order_by(Label.label))),
                   "components": lambda: list(self.db.scalars(select(Component.name).join(IssueComponent, IssueComponent.component_id == Component.id).where(IssueComponent.issue_id == issue.id))),
                   "fixVersions": lambda: list(self.db.scalars(select(Version.name).join(IssueVersion, IssueVersion.version_id == Version.id).where(IssueVersion.issue_id == issue.id)))}[canonical]()
        for op in ops:
            if not isinstance(op, dict) or len(op) != 1 or next(iter(op)) not in ("add", "remove", "set"):
                raise TicketsError("invalid_field", f"update.{name}: each operation is {{\"add\": …}}, {{\"remove\": …}} or {{\"set\": […]}}.", field=str(name)[:64])
            verb, value = next(iter(op.items()))
            items = F.string_list(value if isinstance(value, list) else [value], str(name))
            if verb == "set":
                current = items
            elif verb == "add":
                current += [i for i in items if i not in current]
            else:
                current = [c for c in current if c.lower() not in {i.lower() for i in items}]
        values[canonical] = current
    return values
