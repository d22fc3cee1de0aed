"""Reading Jira's field values (`{"priority": {"name": "High"}}`, `"labels": ["a"]`, ADF text)
into plain values, and naming fields the way Jira's error messages do."""

from __future__ import annotations

from typing import Any

from apps.tickets import catalog
from apps.tickets.adf import to_text
from apps.tickets.errors import TicketsError

# Names a caller may use for a field → the field's canonical name.
ALIASES = {
    "summary": "summary", "description": "description", "issuetype": "issuetype", "issue_type": "issuetype", "type": "issuetype",
    "priority": "priority", "assignee": "assignee", "reporter": "reporter", "labels": "labels", "components": "components",
    "fixversions": "fixVersions", "fix_versions": "fixVersions", "duedate": "duedate", "due_date": "duedate", "due": "duedate",
    "parent": "parent", "project": "project", "resolution": "resolution",
    catalog.STORY_POINTS: "story_points", "story points": "story_points", "story_points": "story_points", "storypoints": "story_points",
    catalog.CASE_FIELD: "case_number", "salesforce case": "case_number", "salesforce_case": "case_number",
    "timetracking": "timetracking", "time_tracking": "timetracking",
    "epic link": "parent", "epic_link": "parent", "customfield_10014": "parent",
}
# A canonical name → the field id Jira's clients send it by (errors name fields this way).
JIRA_IDS = {"story_points": f"{catalog.STORY_POINTS} (Story Points)", "case_number": f"{catalog.CASE_FIELD} (Salesforce Case)",
            "sprint": f"{catalog.SPRINT_FIELD} (Sprint)"}
CHANGELOG_NAMES = {"issuetype": "issuetype", "components": "Component", "fixVersions": "Fix Version", "parent": "IssueParentAssociation",
                   "story_points": "Story Points", "case_number": "Salesforce Case"}


def normalize(fields: dict[str, Any], allowed: set[str]) -> dict[str, Any]:
    """Canonical name → raw value; unknown or not-allowed fields are Jira's field errors."""
    out: dict[str, Any] = {}
    for name, value in fields.items():
        canonical = ALIASES.get(str(name).strip().lower()) or ALIASES.get(str(name).strip())
        if canonical is None or canonical not in allowed:
            settable = sorted(JIRA_IDS.get(a, a) for a in allowed)
            raise TicketsError("invalid_field", f"Field '{name}' cannot be set. It is not on the appropriate screen, or unknown. "
                                                f"Settable here: {', '.join(settable)}.", field=str(name)[:64])
        out[canonical] = value
    return out


def ref(value: Any, *keys: str) -> str | None:
    """The identifying text of a reference: a string, or the first of `keys` in an object."""
    if value is None:
        return None
    if isinstance(value, dict):
        for key in keys:
            if value.get(key) not in (None, ""):
                return str(value[key])
        return ""
    if isinstance(value, (list, tuple)):
        raise TicketsError("invalid_field", f"expected one value, got a list: {str(value)[:80]}")
    return str(value)


def text(value: Any, name: str) -> str:
    if isinstance(value, (dict, str)) or value is None:
        return to_text(value)
    raise TicketsError("invalid_field", f"Field '{name}' must be text (or an Atlassian Document Format object).", field=name)


def string_list(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [v for v in value.split(",")]
    if not isinstance(value, list):
        raise TicketsError("invalid_field", f"Field '{name}' must be a list, e.g. [\"a\", \"b\"] or [{{\"name\": \"a\"}}].", field=name)
    out: list[str] = []
    for item in value:
        if isinstance(item, dict):
            item = item.get("name") or item.get("id") or item.get("key") or item.get("add") or ""
        item = str(item).strip()
        if item and item not in out:
            out.append(item)
    return out


def number(value: Any, name: str) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise TicketsError("invalid_field", f"Field '{name}' must be a number.", field=name)
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise TicketsError("invalid_field", f"Field '{name}' must be a number; got {str(value)[:40]!r}.", field=name) from None
    if result != result or result in (float("inf"), float("-inf")) or abs(result) > 1e9:
        raise TicketsError("invalid_field", f"Field '{name}' must be a finite number below a billion.", field=name)
    return result
