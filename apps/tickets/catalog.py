"""Jira's configuration as this company has it: issue types, priorities, resolutions, statuses,
workflows, link types and fields.

Configuration is code, not rows: it is the same in every env and no operation changes it (a
Jira admin's screens are out of scope), so keeping it here keeps every lookup a dict read and
every env's database free of copies of it. Ids are Jira Cloud's usual ones.
"""

from __future__ import annotations

from dataclasses import dataclass

SITE = "https://{slug}.atlassian.net"  # the Jira site of the company, for `self` and browse URLs


@dataclass(frozen=True, slots=True)
class IssueType:
    id: str
    name: str
    subtask: bool
    hierarchy: int  # 1 epic, 0 standard, -1 subtask
    description: str


ISSUE_TYPES = (
    IssueType("10000", "Epic", False, 1, "A big user story that needs to be broken down."),
    IssueType("10001", "Story", False, 0, "Functionality or a feature expressed as a user goal."),
    IssueType("10002", "Task", False, 0, "A small, distinct piece of work."),
    IssueType("10003", "Bug", False, 0, "A problem or error."),
    IssueType("10004", "Subtask", True, -1, "A small piece of work that's part of a larger task."),
    IssueType("10005", "Incident", False, 0, "A problem that disrupts a customer's use of the service."),
)
ISSUE_TYPE_ALIASES = {"sub-task": "Subtask", "sub task": "Subtask"}


@dataclass(frozen=True, slots=True)
class Priority:
    id: str
    name: str
    rank: int  # 1 = most urgent


PRIORITIES = tuple(Priority(str(n), name, n) for n, name in enumerate(("Highest", "High", "Medium", "Low", "Lowest"), start=1))
DEFAULT_PRIORITY = "Medium"

RESOLUTIONS = ("Done", "Fixed", "Won't Do", "Won't Fix", "Duplicate", "Cannot Reproduce", "Incomplete")
RESOLUTION_IDS = {name: str(10000 + n) for n, name in enumerate(RESOLUTIONS)}

# status category key → (id, Jira's name for it, colour)
CATEGORIES = {"new": ("2", "To Do", "blue-gray"), "indeterminate": ("4", "In Progress", "yellow"), "done": ("3", "Done", "green")}


@dataclass(frozen=True, slots=True)
class Status:
    id: str
    name: str
    category: str  # new | indeterminate | done


STATUSES = (
    Status("10000", "To Do", "new"),
    Status("3", "In Progress", "indeterminate"),
    Status("10001", "In Review", "indeterminate"),
    Status("10002", "Done", "done"),
    Status("6", "Closed", "done"),
)


@dataclass(frozen=True, slots=True)
class Transition:
    id: str
    name: str
    sources: tuple[str, ...]  # statuses it is available from
    to: str
    requires: tuple[str, ...] = ()  # fields the transition screen makes mandatory
    resolution: str | None = None  # set when not given (Jira's post function); None: keep/require
    clears_resolution: bool = False


@dataclass(frozen=True, slots=True)
class Workflow:
    name: str
    statuses: tuple[str, ...]
    transitions: tuple[Transition, ...]


OPEN = ("To Do", "In Progress", "In Review")
# Support desks resolve on purpose: the agent picks the resolution the customer is told.
SUPPORT = Workflow("Support Workflow", ("To Do", "In Progress", "In Review", "Done", "Closed"), (
    Transition("11", "Start Progress", ("To Do",), "In Progress"),
    Transition("21", "Request Review", ("In Progress",), "In Review"),
    Transition("31", "Stop Progress", ("In Progress", "In Review"), "To Do"),
    Transition("41", "Resolve Issue", OPEN, "Done", requires=("resolution",)),
    Transition("51", "Close Issue", (*OPEN, "Done"), "Closed", requires=("resolution",)),
    Transition("61", "Reopen Issue", ("Done", "Closed"), "To Do", clears_resolution=True),
))
# Software teams move cards: "Done" sets resolution Done unless another is given.
SOFTWARE = Workflow("Software Workflow", ("To Do", "In Progress", "In Review", "Done"), (
    Transition("11", "Start Progress", ("To Do",), "In Progress"),
    Transition("21", "Request Review", ("In Progress",), "In Review"),
    Transition("31", "Stop Progress", ("In Progress", "In Review"), "To Do"),
    Transition("41", "Back to In Progress", ("In Review",), "In Progress"),
    Transition("51", "Done", OPEN, "Done", resolution="Done"),
    Transition("61", "Reopen Issue", ("Done",), "To Do", clears_resolution=True),
))


@dataclass(frozen=True, slots=True)
class Project:
    id: str
    key: str
    name: str
    kind: str  # Jira's projectTypeKey
    workflow: Workflow
    issue_types: tuple[str, ...]
    lead_team: str  # the company team whose lead leads the project
    description: str


PROJECTS = (
    Project("10000", "SUP", "Customer Support", "service_desk", SUPPORT, ("Incident", "Bug", "Task", "Subtask"), "support",
            "Requests, defects and incidents raised by customers."),
    Project("10001", "ENG", "Engineering", "software", SOFTWARE, ("Epic", "Story", "Task", "Bug", "Subtask"), "engineering",
            "Product engineering: features, defects and platform work."),
    Project("10002", "IT", "IT Helpdesk", "service_desk", SUPPORT, ("Task", "Bug", "Subtask"), "people-ops",
            "Laptops, accounts, access and office IT for employees."),
)


@dataclass(frozen=True, slots=True)
class LinkType:
    id: str
    name: str
    inward: str  # how the target sees the source: "is blocked by"
    outward: str  # how the source sees the target: "blocks"


LINK_TYPES = (
    LinkType("10000", "Blocks", "is blocked by", "blocks"),
    LinkType("10001", "Cloners", "is cloned by", "clones"),
    LinkType("10002", "Duplicate", "is duplicated by", "duplicates"),
    LinkType("10003", "Relates", "relates to", "relates to"),
)
LINK_ALIASES = {"clones": "Cloners", "clone": "Cloners", "duplicates": "Duplicate", "relates to": "Relates", "relate": "Relates",
                "blocks": "Blocks", "is blocked by": "Blocks", "duplicate of": "Duplicate", "is duplicated by": "Duplicate",
                "is cloned by": "Cloners", "relates": "Relates", "duplicate": "Duplicate", "cloners": "Cloners", "block": "Blocks"}

STORY_POINTS = "customfield_10016"
SPRINT_FIELD = "customfield_10020"
CASE_FIELD = "customfield_10050"  # where the Salesforce-Jira connector writes the case number

# (id, name, schema type, searchable JQL names) as /rest/api/3/field lists them
FIELDS = (
    ("summary", "Summary", "string", ("summary",)),
    ("description", "Description", "string", ("description",)),
    ("status", "Status", "status", ("status",)),
    ("issuetype", "Issue Type", "issuetype", ("issuetype", "type")),
    ("priority", "Priority", "priority", ("priority",)),
    ("assignee", "Assignee", "user", ("assignee",)),
    ("reporter", "Reporter", "user", ("reporter",)),
    ("project", "Project", "project", ("project",)),
    ("labels", "Labels", "array", ("labels",)),
    ("components", "Components", "array", ("component",)),
    ("fixVersions", "Fix versions", "array", ("fixVersion",)),
    ("duedate", "Due date", "date", ("due", "duedate")),
    ("created", "Created", "datetime", ("created", "createdDate")),
    ("updated", "Updated", "datetime", ("updated", "updatedDate")),
    ("resolution", "Resolution", "resolution", ("resolution",)),
    ("resolutiondate", "Resolved", "datetime", ("resolved", "resolutiondate")),
    ("parent", "Parent", "issuelink", ("parent",)),
    ("subtasks", "Sub-tasks", "array", ()),
    ("issuelinks", "Linked Issues", "array", ("issueLink",)),
    ("comment", "Comment", "comments-page", ("comment",)),
    ("worklog", "Log Work", "array", ()),
    ("timetracking", "Time tracking", "timetracking", ()),
    ("timespent", "Time Spent", "number", ()),
    ("timeoriginalestimate", "Original Estimate", "number", ()),
    ("timeestimate", "Remaining Estimate", "number", ()),
    ("watches", "Watchers", "watches", ("watcher",)),
    (SPRINT_FIELD, "Sprint", "array", ("sprint", "cf[10020]")),
    (STORY_POINTS, "Story Points", "number", ("\"Story Points\"", "cf[10016]")),
    (CASE_FIELD, "Salesforce Case", "string", ("\"Salesforce Case\"", "cf[10050]")),
)


def by_name(items, name: str | None, attr: str = "name"):
    """The item whose `attr` equals `name` case-insensitively, or None."""
    wanted = (name or "").strip().lower()
    return next((item for item in items if getattr(item, attr).lower() == wanted), None)


def issue_type(name: str | None) -> IssueType | None:
    wanted = (name or "").strip()
    wanted = ISSUE_TYPE_ALIASES.get(wanted.lower(), wanted)
    return by_name(ISSUE_TYPES, wanted) or next((t for t in ISSUE_TYPES if t.id == wanted), None)


def priority(name: str | None) -> Priority | None:
    return by_name(PRIORITIES, name) or next((p for p in PRIORITIES if p.id == (name or "").strip()), None)


def status(name: str | None) -> Status | None:
    return by_name(STATUSES, name) or next((s for s in STATUSES if s.id == (name or "").strip()), None)


def project(key_or_id: str | None) -> Project | None:
    wanted = (key_or_id or "").strip()
    return (next((p for p in PROJECTS if p.key.lower() == wanted.lower() or p.id == wanted), None)
            or by_name(PROJECTS, wanted))


def resolution(name: str | None) -> str | None:
    wanted = (name or "").strip().lower()
    return next((r for r in RESOLUTIONS if r.lower() == wanted or RESOLUTION_IDS[r] == wanted), None)


def link_type(name: str | None) -> LinkType | None:
    wanted = (name or "").strip()
    wanted = LINK_ALIASES.get(wanted.lower(), wanted)
    return by_name(LINK_TYPES, wanted) or next((t for t in LINK_TYPES if t.id == wanted), None)


STATUS_BY_NAME = {s.name: s for s in STATUSES}
PROJECT_BY_KEY = {p.key: p for p in PROJECTS}
