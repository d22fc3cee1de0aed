"""The statements nearly every tickets call runs, prepared once (officegym.core.sql.Prepared).

Finding an issue by key and loading what a page of issues refers to (labels, components,
links, comments, people, ...) is most of what a read does; built per call through the ORM
these cost ~0.2 ms each before the database does any work, and loading ORM objects for rows
that are only shaped into JSON costs as much again. Here each is built once and runs on the
driver, returning plain rows whose attributes are the columns (so shapes.py reads a row as
it reads a model).

Lists of ids (a page's issues, the people they name) are bound one parameter per id; lists
are padded to a power of two so a handful of statements serve every page size.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from sqlalchemy import Float, bindparam, delete, func, insert, literal_column, or_, select, type_coerce, update
from sqlalchemy.types import NullType

from apps.tickets.models import (
    ChangeItem, Comment, Component, Issue, IssueComponent, IssueVersion, Label, Link, ProjectRow, Sprint, SprintIssue, User, Version,
    Watcher, Worklog,
)
from officegym.core.sql import Prepared


def _plain(column: Any) -> Any:
    """A Float column read as the driver gives it (a float on both backends): SQLAlchemy's
    PostgreSQL float conversion needs the cursor's type code, which a prepared statement's
    rows do not carry."""
    return type_coerce(column, NullType()).label(column.name) if isinstance(column.type, Float) else column


ISSUE = tuple(_plain(c) for c in Issue.__table__.c)
ISSUE_BY_KEY = Prepared(select(*ISSUE).where(Issue.project_key == bindparam("project"), Issue.number == bindparam("number")))
ISSUE_BY_ID = Prepared(select(*ISSUE).where(Issue.id == bindparam("id")))
USER_BY_ID = Prepared(select(*User.__table__.c).where(User.account_id == bindparam("id")))
USER_IDS_MATCHING = Prepared(select(User.account_id).where(or_(
    User.account_id == bindparam("text"), func.lower(User.email) == bindparam("low"), func.lower(User.display_name) == bindparam("low"),
)).order_by(User.account_id))

COMMENT_COLUMNS = tuple(c.name for c in Comment.__table__.c)
CommentRow = namedtuple("CommentRow", COMMENT_COLUMNS)
# A new comment numbered after the newest (ids start at 10000, as Jira's do), its id returned: one
# statement, whose one max() over the ids from 10000 up is read off the end of the primary key.
_LAST_COMMENT_ID = select(func.max(Comment.id)).where(Comment.id > literal_column("9999")).scalar_subquery()
ADD_COMMENT = Prepared(insert(Comment).values(
    {"id": func.coalesce(_LAST_COMMENT_ID, literal_column("9999")) + literal_column("1"),
     **{name: bindparam(name) for name in COMMENT_COLUMNS if name != "id"}}).returning(Comment.id))
TOUCH_ISSUE = Prepared(update(Issue).where(Issue.id == bindparam("id")).values(updated=bindparam("updated")))

# The changelog items of the fields JQL's WAS and CHANGED read, oldest first.
CHANGES_OF = Prepared(
    select(ChangeItem.issue_id, ChangeItem.created, ChangeItem.author_id, ChangeItem.from_value, ChangeItem.from_string,
           ChangeItem.to_value, ChangeItem.to_string)
    .where(ChangeItem.field == bindparam("field"))
    .order_by(ChangeItem.issue_id, ChangeItem.history_id, ChangeItem.id)
)

# One issue's newest comments and how many it has: an issue agents keep commenting on is read
# in constant time (a page of issues reads all their comments in one statement instead).
# Each row also carries the issue's count of comments (`total`): no rows, no comments.
_COMMENT_TOTAL = select(func.count()).select_from(Comment).where(Comment.issue_id == bindparam("issue_id")).scalar_subquery()
NEWEST_COMMENTS = Prepared(select(*Comment.__table__.c, _COMMENT_TOTAL.label("total")).where(Comment.issue_id == bindparam("issue_id"))
                           .order_by(Comment.created.desc(), Comment.id.desc()).limit(bindparam("size")))

CHUNK = 256  # ids bound per statement: well under every driver's parameter limit


def _size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def _ids(column: Any, size: int) -> Any:
    return column.in_([bindparam(f"i{k}", type_=column.type) for k in range(size)])


# What a page of issues refers to: (statement over `size` ids) by kind.
_RELATED = {
    # Each issue's labels in order: by issue first, so the table's key (issue, label) gives that order unsorted.
    "labels": lambda size: select(Label.issue_id, Label.label).where(_ids(Label.issue_id, size)).order_by(Label.issue_id, Label.label),
    "components": lambda size: (select(IssueComponent.issue_id, Component.id, Component.name)
                                .join(Component, Component.id == IssueComponent.component_id)
                                .where(_ids(IssueComponent.issue_id, size)).order_by(Component.name)),
    "versions": lambda size: (select(IssueVersion.issue_id, Version.id, Version.name, Version.released, Version.release_date)
                              .join(Version, Version.id == IssueVersion.version_id)
                              .where(_ids(IssueVersion.issue_id, size)).order_by(Version.name)),
    "subtasks": lambda size: select(*ISSUE).where(_ids(Issue.parent_id, size)).order_by(Issue.id),
    "links": lambda size: (select(*Link.__table__.c).where(or_(_ids(Link.source_id, size), _ids(Link.target_id, size)))
                           .order_by(Link.id)),
    "comments": lambda size: select(*Comment.__table__.c).where(_ids(Comment.issue_id, size)).order_by(Comment.created, Comment.id),
    "sprints": lambda size: (select(SprintIssue.issue_id, *Sprint.__table__.c).join(Sprint, Sprint.id == SprintIssue.sprint_id)
                             .where(_ids(SprintIssue.issue_id, size)).order_by(Sprint.id)),
    "watchers": lambda size: select(Watcher.issue_id, Watcher.account_id).where(_ids(Watcher.issue_id, size)).order_by(Watcher.account_id),
    "worklogs": lambda size: select(*Worklog.__table__.c).where(_ids(Worklog.issue_id, size)).order_by(Worklog.started, Worklog.id),
    "issues": lambda size: select(*ISSUE).where(_ids(Issue.id, size)),
    "users": lambda size: select(*User.__table__.c).where(_ids(User.account_id, size)),
}


@cache
def _related(kind: str, size: int) -> Prepared:
    return Prepared(_RELATED[kind](size))


@cache
def _names(size: int) -> tuple[str, ...]:
    return tuple(f"i{k}" for k in range(size))


def _chunks(ids: Iterable[Any]) -> Iterator[dict[str, Any]]:
    every = sorted(set(ids))  # sorted: the same ids give the same statement and the same parameters
    for start in range(0, len(every), CHUNK):
        part = every[start:start + CHUNK]
        size = _size(len(part))
        yield dict(zip(_names(size), part + [part[0]] * (size - len(part)), strict=True))


def related(db: Any, kind: str, ids: Iterable[Any], **extra: Any) -> list[Any]:
    """Rows of `kind` for these ids (issue ids; account ids for "users"), in the statement's
    order within each chunk of ids; `extra` are the statement's other parameters."""
    rows: list[Any] = []
    for params in _chunks(ids):
        rows += _related(kind, len(params)).rows(db, **params, **extra)
    return rows


def related_pairs(db: Any, kind: str, ids: Iterable[Any]) -> list[tuple[Any, ...]]:
    """`related` as plain tuples, for the two-column kinds read by position (labels, watchers):
    a page's few dozen rows without a named row each."""
    rows: list[tuple[Any, ...]] = []
    for params in _chunks(ids):
        rows += _related(kind, len(params)).tuples(db, **params)
    return rows


# -- a page of issues read for a shape: only the columns it shows, the people it names joined ------------
PEOPLE = ("assignee", "reporter", "creator")
USER_COLUMNS = tuple(c.name for c in User.__table__.c)
UserRow = namedtuple("UserRow", USER_COLUMNS)


@cache
def issue_view(columns: tuple[str, ...], people: tuple[str, ...]) -> tuple[tuple[Any, ...], Any]:
    """The select list and FROM of a page of issues that reads only `columns` of each, and the
    user each of `people` ("assignee", ...) names as `<role>__<user column>`: a page shaped with
    three fields reads a fifth of the issue row, and its people without a statement of their own."""
    selected: list[Any] = [_plain(Issue.__table__.c[name]) for name in columns]
    source: Any = Issue.__table__
    for role in people:
        person = User.__table__.alias(f"{role}_user")
        source = source.outerjoin(person, person.c.account_id == Issue.__table__.c[f"{role}_id"])
        selected += [person.c[name].label(f"{role}__{name}") for name in USER_COLUMNS]
    return tuple(selected), source


def joined_people(rows: list[Any], people: tuple[str, ...]) -> dict[str, Any]:
    """The users `issue_view` read with a page: accountId → user row."""
    found: dict[str, Any] = {}
    width = len(USER_COLUMNS)
    for role in people:
        start = rows[0]._fields.index(f"{role}__{USER_COLUMNS[0]}")  # a role's columns are side by side
        for row in rows:
            account = row[start]
            if account is not None and account not in found:  # a page names its few people many times over
                found[account] = UserRow._make(row[start:start + width])
    return found


# An issue's id with the acting user's row (`actor__<column>`, all None when the actor is no user):
# what a new comment needs, its issue and its author, in one statement.
_ACTING = User.__table__.alias("acting_user")
_ID_AND_ACTOR = select(Issue.id, *(_ACTING.c[name].label(f"actor__{name}") for name in USER_COLUMNS)).select_from(
    Issue.__table__.outerjoin(_ACTING, _ACTING.c.account_id == bindparam("actor")))
ISSUE_ID_BY_KEY_WITH_ACTOR = Prepared(_ID_AND_ACTOR.where(Issue.project_key == bindparam("project"), Issue.number == bindparam("number")))
ISSUE_ID_BY_ID_WITH_ACTOR = Prepared(_ID_AND_ACTOR.where(Issue.id == bindparam("id")))


def acting_user(row: Any) -> Any:
    """The acting user read with an issue (ISSUE_ID_BY_*_WITH_ACTOR), or None."""
    return UserRow._make(row[1:]) if row[1] is not None else None


def issue_by_key(db: Any, project: str, number: int) -> Any:
    return ISSUE_BY_KEY.first(db, project=project, number=number)


def issue_by_id(db: Any, issue_id: int) -> Any:
    return ISSUE_BY_ID.first(db, id=issue_id)


# -- writes on the driver: an edit's changelog, watchers, links, worklogs and new issues -------------
# One aggregate a statement: SQLite answers a lone max() of an indexed column from the index, two by a scan.
LAST_HISTORY_ID = Prepared(select(func.max(ChangeItem.history_id)))
LAST_CHANGE_ID = Prepared(select(func.max(ChangeItem.id)))
CHANGE_COLUMNS = tuple(c.name for c in ChangeItem.__table__.c)
INSERT_CHANGE = Prepared(insert(ChangeItem).values({name: bindparam(name) for name in CHANGE_COLUMNS}))
USER_IDS_NAMED = Prepared(select(User.account_id).where(or_(func.lower(User.email) == bindparam("low"), func.lower(User.display_name) == bindparam("low")))
                          .order_by(User.account_id))
IS_WATCHING = Prepared(select(Watcher.account_id).where(Watcher.issue_id == bindparam("issue_id"), Watcher.account_id == bindparam("account_id")))
INSERT_WATCHER = Prepared(insert(Watcher).values(issue_id=bindparam("issue_id"), account_id=bindparam("account_id")))
LINK_BETWEEN = Prepared(select(Link.id).where(Link.type_name == bindparam("type_name"), Link.source_id == bindparam("source_id"),
                                              Link.target_id == bindparam("target_id")))
MAX_LINK_ID = Prepared(select(func.max(Link.id)))
INSERT_LINK = Prepared(insert(Link).values(id=bindparam("id"), type_name=bindparam("type_name"), source_id=bindparam("source_id"),
                                           target_id=bindparam("target_id")))
MAX_WORKLOG_ID = Prepared(select(func.max(Worklog.id)))
WORKLOG_COLUMNS = tuple(c.name for c in Worklog.__table__.c)
WorklogRow = namedtuple("WorklogRow", WORKLOG_COLUMNS)
INSERT_WORKLOG = Prepared(insert(Worklog).values({name: bindparam(name) for name in WORKLOG_COLUMNS}))
TIME_SPENT = Prepared(select(func.sum(Worklog.seconds)).where(Worklog.issue_id == bindparam("issue_id")))
# Both in one statement: the rank is not indexed, so its max() scans the table either way.
LAST_ISSUE_ID_AND_RANK = Prepared(select(func.max(Issue.id), func.max(Issue.rank)))
ISSUE_COLUMNS = tuple(c.name for c in Issue.__table__.c)
INSERT_ISSUE = Prepared(insert(Issue).values({name: bindparam(name) for name in ISSUE_COLUMNS}))
LAST_NUMBER = Prepared(select(ProjectRow.last_number).where(ProjectRow.key == bindparam("project")))
SET_LAST_NUMBER = Prepared(update(ProjectRow).where(ProjectRow.key == bindparam("project")).values(last_number=bindparam("number")))


@cache
def issue_update(columns: tuple[str, ...]) -> Prepared:
    """UPDATE of these columns of one issue (parameters: the columns by name, and `issue_id`)."""
    return Prepared(update(Issue).where(Issue.id == bindparam("issue_id")).values({name: bindparam(name) for name in columns}))

# Moving issues into a sprint (agile.add_issues_to_sprint).
_OPEN = or_(Sprint.state == "future", Sprint.state == "active")  # not IN (…): a prepared statement's IN lists are bound one by one
SUBTASKS_OF = Prepared(select(*ISSUE).where(Issue.parent_id == bindparam("parent_id"), Issue.issue_type == "Subtask").order_by(Issue.id))
OPEN_SPRINT_NAMES = Prepared(select(Sprint.name).join(SprintIssue, SprintIssue.sprint_id == Sprint.id)
                             .where(SprintIssue.issue_id == bindparam("issue_id"), _OPEN).order_by(Sprint.id))
LEAVE_OTHER_OPEN_SPRINTS = Prepared(delete(SprintIssue).where(
    SprintIssue.issue_id == bindparam("issue_id"),
    SprintIssue.sprint_id.in_(select(Sprint.id).where(_OPEN, Sprint.id != bindparam("sprint_id")).scalar_subquery())))
IN_SPRINT = Prepared(select(SprintIssue.issue_id).where(SprintIssue.sprint_id == bindparam("sprint_id"), SprintIssue.issue_id == bindparam("issue_id")))
INSERT_SPRINT_ISSUE = Prepared(insert(SprintIssue).values(sprint_id=bindparam("sprint_id"), issue_id=bindparam("issue_id")))

# An issue's labels and components, replaced by an edit (edits.set_labels, edits.set_components).
LABELS_OF = Prepared(select(Label.label).where(Label.issue_id == bindparam("issue_id")))
DELETE_LABELS = Prepared(delete(Label).where(Label.issue_id == bindparam("issue_id")))
INSERT_LABEL = Prepared(insert(Label).values(issue_id=bindparam("issue_id"), label=bindparam("label")))
COMPONENT_NAMED = Prepared(select(Component.id, Component.name).where(
    Component.project_key == bindparam("project"), or_(func.lower(Component.name) == bindparam("low"), Component.id == bindparam("component_id")))
    .order_by(Component.id).limit(1))
COMPONENT_NAMES_OF = Prepared(select(Component.name).join(IssueComponent, IssueComponent.component_id == Component.id)
                              .where(IssueComponent.issue_id == bindparam("issue_id")))
DELETE_ISSUE_COMPONENTS = Prepared(delete(IssueComponent).where(IssueComponent.issue_id == bindparam("issue_id")))
INSERT_ISSUE_COMPONENT = Prepared(insert(IssueComponent).values(issue_id=bindparam("issue_id"), component_id=bindparam("component_id")))

# What graders read most: one author's comments on an issue since a time, and what a field was set to since a time.
COMMENTS_SINCE = Prepared(select(Comment.body).where(Comment.issue_id == bindparam("issue_id"), Comment.author_id == bindparam("author"),
                                                     Comment.created > bindparam("since")).order_by(Comment.id))
VALUES_SET_SINCE = Prepared(select(ChangeItem.to_string).where(ChangeItem.issue_id == bindparam("issue_id"), ChangeItem.field == bindparam("field"),
                                                               ChangeItem.created > bindparam("since")).order_by(ChangeItem.id))
