"""Tables of the tickets app (a Jira clone). Times are Jira's format, "2026-01-15T10:30:00.000+0000"
(always UTC, so text order is time order); issue ids are Jira's numeric ids ("10002") kept as
integers; keys are "PROJ-123". Configuration (types, statuses, workflows) lives in catalog.py."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from officegym.core.db import STAMP, Base

TIME = String(28)  # "2026-01-15T10:30:00.000+0000"


class User(Base):
    __tablename__ = "tickets_users"
    account_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    display_name: Mapped[str] = mapped_column(String(128))
    email: Mapped[str] = mapped_column(String(254), index=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    person_id: Mapped[str | None] = mapped_column(String(16), nullable=True)


class ProjectRow(Base):
    """A project's numbering and lead; its configuration is catalog.PROJECTS."""

    __tablename__ = "tickets_projects"
    key: Mapped[str] = mapped_column(String(16), primary_key=True)
    id: Mapped[str] = mapped_column(String(16))
    lead_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    last_number: Mapped[int] = mapped_column(Integer, default=0)  # keys never reuse a deleted issue's number


class Component(Base):
    __tablename__ = "tickets_components"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    project_key: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(255))
    description: Mapped[str] = mapped_column(Text, default="")
    lead_id: Mapped[str | None] = mapped_column(String(64), nullable=True)


class Version(Base):
    __tablename__ = "tickets_versions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    project_key: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(255))
    released: Mapped[bool] = mapped_column(Boolean, default=False)
    release_date: Mapped[str | None] = mapped_column(String(10), nullable=True)


class Issue(Base):
    __tablename__ = "tickets_issues"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(32), unique=True)
    project_key: Mapped[str] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(Integer)
    issue_type: Mapped[str] = mapped_column(String(32))
    summary: Mapped[str] = mapped_column(String(255))
    description: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(32))
    priority: Mapped[str] = mapped_column(String(16))
    resolution: Mapped[str | None] = mapped_column(String(32), nullable=True)
    resolved: Mapped[str | None] = mapped_column(TIME, nullable=True)
    reporter_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    assignee_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    creator_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created: Mapped[str] = mapped_column(TIME)
    updated: Mapped[str] = mapped_column(TIME, info=STAMP)
    duedate: Mapped[str | None] = mapped_column(String(10), nullable=True)
    parent_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # subtask's parent, or a child's epic
    story_points: Mapped[float | None] = mapped_column(Float, nullable=True)
    case_number: Mapped[str | None] = mapped_column(String(32), nullable=True)  # customfield_10050
    rank: Mapped[int] = mapped_column(Integer, default=0)  # backlog order
    original_estimate: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)  # seconds (timeoriginalestimate)
    remaining_estimate: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)  # seconds (timeestimate)

    __table_args__ = (
        Index("ix_tickets_issues_project", "project_key", "number"),
        # A project's newest issues (JQL's most common ORDER BY, ties by id) read in order without sorting every
        # match; with the status, a project's issues in some statuses are counted from the index alone.
        Index("ix_tickets_issues_project_created", "project_key", "created", "id", "status"),
        Index("ix_tickets_issues_assignee", "assignee_id"),
        Index("ix_tickets_issues_parent", "parent_id"),
    )


class Label(Base):
    __tablename__ = "tickets_labels"
    issue_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), primary_key=True)
    label: Mapped[str] = mapped_column(String(255), primary_key=True)


class IssueComponent(Base):
    __tablename__ = "tickets_issue_components"
    issue_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), primary_key=True)
    component_id: Mapped[int] = mapped_column(ForeignKey("tickets_components.id"), primary_key=True)


class IssueVersion(Base):
    __tablename__ = "tickets_issue_versions"
    issue_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("tickets_versions.id"), primary_key=True)


class Link(Base):
    """`source` <type.outward> `target`: ENG-5 blocks SUP-9 is (Blocks, ENG-5, SUP-9)."""

    __tablename__ = "tickets_links"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    type_name: Mapped[str] = mapped_column(String(32))
    source_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), index=True)


class RemoteLink(Base):
    """A web link (Jira's remote issue link): the linked object's url and title, with what the
    linking application says about it. `global_id` names the object in its own system, so a
    second link with the same one updates the first."""

    __tablename__ = "tickets_remote_links"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    issue_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), index=True)
    url: Mapped[str] = mapped_column(Text)
    title: Mapped[str] = mapped_column(String(255))
    global_id: Mapped[str | None] = mapped_column(String(255), nullable=True, default=None)
    relationship: Mapped[str | None] = mapped_column(String(255), nullable=True, default=None)
    summary: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    icon_url: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    icon_title: Mapped[str | None] = mapped_column(String(255), nullable=True, default=None)
    application_type: Mapped[str | None] = mapped_column(String(255), nullable=True, default=None)
    application_name: Mapped[str | None] = mapped_column(String(255), nullable=True, default=None)
    resolved: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)


class Comment(Base):
    __tablename__ = "tickets_comments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    issue_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), index=True)
    author_id: Mapped[str] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[str] = mapped_column(TIME)
    updated: Mapped[str] = mapped_column(TIME, info=STAMP)


class Watcher(Base):
    __tablename__ = "tickets_watchers"
    issue_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(64), primary_key=True)


class Worklog(Base):
    __tablename__ = "tickets_worklogs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    issue_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), index=True)
    author_id: Mapped[str] = mapped_column(String(64))
    seconds: Mapped[int] = mapped_column(Integer)
    started: Mapped[str] = mapped_column(TIME)
    created: Mapped[str] = mapped_column(TIME)
    comment: Mapped[str] = mapped_column(Text, default="")
    updated: Mapped[str | None] = mapped_column(TIME, nullable=True, default=None)  # None: never edited (shown as created)


class ChangeItem(Base):
    """One field change; the items of one edit share `history_id` (Jira's changelog history)."""

    __tablename__ = "tickets_changelog"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    history_id: Mapped[int] = mapped_column(Integer, index=True)
    issue_id: Mapped[int] = mapped_column(Integer, index=True)  # no FK: history outlives nothing, but deletes clear it
    author_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created: Mapped[str] = mapped_column(TIME)
    field: Mapped[str] = mapped_column(String(64))
    from_value: Mapped[str | None] = mapped_column(Text, nullable=True)
    from_string: Mapped[str | None] = mapped_column(Text, nullable=True)
    to_value: Mapped[str | None] = mapped_column(Text, nullable=True)
    to_string: Mapped[str | None] = mapped_column(Text, nullable=True)


class Board(Base):
    __tablename__ = "tickets_boards"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(255))
    type: Mapped[str] = mapped_column(String(16))  # scrum | kanban
    project_key: Mapped[str] = mapped_column(String(16))


class Sprint(Base):
    __tablename__ = "tickets_sprints"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("tickets_boards.id"))
    name: Mapped[str] = mapped_column(String(255))
    state: Mapped[str] = mapped_column(String(16))  # future | active | closed
    goal: Mapped[str] = mapped_column(Text, default="")
    start_date: Mapped[str | None] = mapped_column(TIME, nullable=True)
    end_date: Mapped[str | None] = mapped_column(TIME, nullable=True)
    complete_date: Mapped[str | None] = mapped_column(TIME, nullable=True)


class SprintIssue(Base):
    """An issue's sprints: the open one it is in now, and the closed ones it was carried through."""

    __tablename__ = "tickets_sprint_issues"
    sprint_id: Mapped[int] = mapped_column(ForeignKey("tickets_sprints.id"), primary_key=True)
    issue_id: Mapped[int] = mapped_column(ForeignKey("tickets_issues.id"), primary_key=True)

    __table_args__ = (Index("ix_tickets_sprint_issues_issue", "issue_id"),)
