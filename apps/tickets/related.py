"""What a page of issues refers to — labels, components, versions, subtasks, links, comments,
sprints, watchers, worklogs and the people they name — loaded for a whole page at once, one
statement per table (queries.py), to be shaped by shapes.py."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy.orm import Session

from apps.tickets import catalog
from apps.tickets import queries as Q

_WHOLE = frozenset(Q.ISSUE_COLUMNS)
# Fields whose related rows are kept per issue as read: (the field, the kind of row, which is
# also the `Related` attribute holding them).
_BY_ISSUE = (("components", "components"), ("fixVersions", "versions"), (catalog.SPRINT_FIELD, "sprints"), ("worklog", "worklogs"))


@lru_cache(maxsize=256)  # bounded: the column lists come from callers' field lists
def _whole(read: tuple[str, ...]) -> bool:
    """Whether a page read with these columns read whole issue rows."""
    return _WHOLE.issubset(read)


@lru_cache(maxsize=256)  # bounded: the column lists come from callers' field lists
def _joined(read: tuple[str, ...], people: tuple[str, ...]) -> tuple[str, ...]:
    """The roles among `people` whose users a page read joined (queries.issue_view)."""
    return tuple(role for role in people if f"{role}__account_id" in read)


class Related:
    """Everything a page of issues refers to, loaded in one statement per table (queries.py):
    plain rows, read by attribute as the models are. Each table's rows by issue id (a kind
    not loaded stays empty); `shaped` holds the statuses, types, people, ... as shaped once
    for this answer. Plain attributes set in one `__init__`: a page is shaped in a few tens of
    microseconds, and a dataclass's twelve default factories were a tenth of that."""

    __slots__ = ("users", "labels", "components", "versions", "issues", "subtasks", "links", "comments", "comment_totals", "sprints",
                 "watchers", "worklogs", "shaped")

    def __init__(self) -> None:
        self.users: dict[str, Any] = {}
        self.labels: dict[int, list[str]] = {}
        self.components: dict[int, list[Any]] = {}
        self.versions: dict[int, list[Any]] = {}
        self.issues: dict[int, Any] = {}  # parents, subtasks and linked issues by id
        self.subtasks: dict[int, list[Any]] = {}
        self.links: dict[int, list[Any]] = {}
        self.comments: dict[int, list[Any]] = {}
        self.comment_totals: dict[int, int] = {}  # when only the newest comments were loaded
        self.sprints: dict[int, list[Any]] = {}
        self.watchers: dict[int, list[str]] = {}
        self.worklogs: dict[int, list[Any]] = {}
        self.shaped: dict[Any, Any] = {}

    @classmethod
    def load(cls, db: Session, issues: Sequence[Any], wanted: set[str], comment_limit: int | None = None,
             people: Sequence[str] = Q.PEOPLE) -> Related:
        """What `issues` refer to, for the `wanted` fields; for one issue with `comment_limit`,
        only its newest comments (and their count). `people` are the roles (assignee, ...) whose
        users the shape shows; users a page read joined (queries.issue_view) are not read again."""
        r = cls()
        ids = [i.id for i in issues]
        if not ids:
            return r
        db.flush()  # the statements run on the driver: the ORM's pending changes must be in the database first
        page = {i.id: i for i in issues}
        read = getattr(issues[0], "_fields", None)
        if read is None or _whole(read):  # whole rows: a parent or linked issue on the page is not read again
            r.issues = dict(page)
        if "labels" in wanted:
            r.labels = labels = defaultdict(list)
            for issue_id, label in Q.related_pairs(db, "labels", ids):
                labels[issue_id].append(label)
        for shown, kind in _BY_ISSUE:  # rows kept per issue, as read
            if shown in wanted or (kind == "worklogs" and ("timetracking" in wanted or "timespent" in wanted)):
                by_issue: defaultdict[int, list[Any]] = defaultdict(list)
                setattr(r, kind, by_issue)
                for row in Q.related(db, kind, ids):
                    by_issue[row.issue_id].append(row)
        if "subtasks" in wanted:
            r.subtasks = defaultdict(list)
            for sub in Q.related(db, "subtasks", ids):
                r.issues.setdefault(sub.id, sub)
                if sub.issue_type == "Subtask" or page[sub.parent_id].issue_type != "Epic":
                    r.subtasks[sub.parent_id].append(sub)
        if "issuelinks" in wanted:
            r.links = defaultdict(list)
            seen: set[int] = set()
            for link in Q.related(db, "links", ids):
                if link.id in seen:  # a link between two chunks of ids comes back once per chunk
                    continue
                seen.add(link.id)
                for end in (link.source_id, link.target_id):
                    if end in page:
                        r.links[end].append(link)
        if "comment" in wanted and comment_limit and len(ids) == 1:
            newest = Q.NEWEST_COMMENTS.rows(db, issue_id=ids[0], size=comment_limit)
            r.comments[ids[0]] = newest[::-1]
            r.comment_totals[ids[0]] = newest[0].total if newest else 0
        elif "comment" in wanted:
            r.comments = defaultdict(list)
            for c in Q.related(db, "comments", ids):
                r.comments[c.issue_id].append(c)
        if "watches" in wanted:
            r.watchers = defaultdict(list)
            for issue_id, account_id in Q.related_pairs(db, "watchers", ids):
                r.watchers[issue_id].append(account_id)
        others = {e for ls in r.links.values() for l in ls for e in (l.source_id, l.target_id)}
        if "parent" in wanted:
            others |= {i.parent_id for i in issues if i.parent_id}
        missing = others - r.issues.keys() if others else None
        if missing:
            for other in Q.related(db, "issues", missing):
                r.issues[other.id] = other
        joined = _joined(read, tuple(people)) if read is not None else ()
        r.users = Q.joined_people(issues, joined) if joined else {}
        named = {p for role in people if role not in joined for i in issues if (p := getattr(i, f"{role}_id"))} if len(joined) < len(people) else set()
        if r.comments or r.worklogs:
            named |= {c.author_id for cs in r.comments.values() for c in cs} | {w.author_id for ws in r.worklogs.values() for w in ws}
        named -= r.users.keys()
        if named:
            r.users.update((u.account_id, u) for u in Q.related(db, "users", named))
        return r
