"""JQL's history operators — WAS, WAS NOT, WAS IN, WAS NOT IN and CHANGED with AFTER, BEFORE, ON,
DURING, BY, FROM and TO — over the seeded changelog plus a few changes made here (issues
reprioritised, reassigned and moved on by different people, days apart). Hundreds of queries,
each checked against what a plain reading of the changelog expects (the value an issue had at a
moment, and the changes inside a window); and malformed ones, answered with Jira's messages."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from apps.tickets.errors import TicketsError
from apps.tickets.ids import jira_time
from apps.tickets.models import ChangeItem, Issue, User
from apps.tickets.service import TicketsService
from officegym.core import clock
from officegym.core.env_store import Env
from officegym.gym import Gym

FIELDS = {"status": ("status", False), "assignee": ("assignee_id", True), "reporter": ("reporter_id", True),
          "priority": ("priority", False), "resolution": ("resolution", False)}
Bound = tuple[str, bool]  # (time, included)


@dataclass
class Change:
    when: str
    by: str | None
    old: str | None
    new: str | None


@dataclass
class Timeline:
    """One issue's history of one field, read the plain way: what it held at a moment."""

    created: str
    creator: str | None
    current: str | None
    changes: list[Change] = field(default_factory=list)

    def at(self, moment: str) -> tuple[str | None, str | None]:
        """(value, who set it) at `moment`: the last change made by then, else the value it was created with."""
        made = [c for c in self.changes if c.when <= moment]
        if made:
            return made[-1].new, made[-1].by
        return (self.changes[0].old if self.changes else self.current), self.creator

    def held(self, lower: Bound | None, upper: Bound | None) -> set[tuple[str | None, str | None]]:
        """Every (value, setter) the issue had at some moment of the window."""
        start = self.created if lower is None or lower[0] < self.created else lower[0]
        if upper is not None and (start > upper[0] or (start == upper[0] and not upper[1])):
            return set()
        found = {self.at(start)}
        for c in self.changes:
            if c.when > start and (upper is None or c.when < upper[0] or (c.when == upper[0] and upper[1])):
                found.add((c.new, c.by))
        return found

    def changed(self, lower: Bound | None, upper: Bound | None) -> list[Change]:
        def inside(when: str) -> bool:
            return ((lower is None or when > lower[0] or (when == lower[0] and lower[1]))
                    and (upper is None or when < upper[0] or (when == upper[0] and upper[1])))
        return [c for c in self.changes if inside(c.when)]


@dataclass
class History:
    keys: dict[int, str]
    timelines: dict[str, dict[int, Timeline]]
    people: list[str]  # account ids that changed something here (for BY)
    names: dict[str, str]  # account id → display name
    actor: str
    now: datetime
    moments: list[str]  # change times spread over the history (for AFTER/BEFORE/ON/DURING)


def _read(db: Any, actor: str) -> History:
    issues = list(db.execute(select(Issue.id, Issue.key, Issue.created, Issue.creator_id, Issue.reporter_id, Issue.status,
                                    Issue.assignee_id, Issue.priority, Issue.resolution)).mappings())
    timelines: dict[str, dict[int, Timeline]] = {}
    for name, (column, _people) in FIELDS.items():
        timelines[name] = {i["id"]: Timeline(i["created"], i["creator_id"] or i["reporter_id"], i[column]) for i in issues}
    changes = db.scalars(select(ChangeItem).order_by(ChangeItem.issue_id, ChangeItem.history_id, ChangeItem.id)).all()
    for c in changes:
        if c.field in FIELDS:
            people = FIELDS[c.field][1]
            old, new = (c.from_value, c.to_value) if people else (c.from_string, c.to_string)
            timelines[c.field][c.issue_id].changes.append(Change(c.created, c.author_id, old or None, new or None))
    names = {u.account_id: u.display_name for u in db.scalars(select(User))}
    authors = [c.author_id for c in sorted(changes, key=lambda c: c.created, reverse=True) if c.field in FIELDS and c.author_id]
    people = list(dict.fromkeys(authors))[:4]  # who made the latest changes (here), then the seeded history's
    times = sorted({c.created for c in changes if c.field in FIELDS})
    moments = [times[int(len(times) * q)] for q in (0.1, 0.3, 0.5, 0.7, 0.9)] + [times[-1]]
    return History({i["id"]: i["key"] for i in issues}, timelines, people, names, actor, clock.now(db), moments)


@pytest.fixture(scope="module")
def history_env(gym: Gym) -> Iterator[Env]:
    """The seeded site, then (days apart, as three people) issues reprioritised, reassigned and moved on."""
    env = gym.create()
    with gym.store.session(env) as db:
        people = [row[0] for row in db.execute(select(Issue.assignee_id).where(Issue.assignee_id.is_not(None)).distinct()
                                               .order_by(Issue.assignee_id).limit(3))]
        targets = [row[0] for row in db.execute(select(Issue.key).where(Issue.project_key == "SUP", Issue.status != "Done")
                                                .order_by(Issue.id).limit(6))]
    steps = [
        (people[0], lambda jira, k=targets[0]: jira.update_issue(issue=k, fields={"priority": {"name": "Highest"}})),
        (people[1], lambda jira, k=targets[1]: jira.update_issue(issue=k, fields={"priority": {"name": "Low"}})),
        (people[1], lambda jira, k=targets[0]: jira.assign_issue(issue=k, assignee=people[2])),
        (people[2], lambda jira, k=targets[0]: jira.update_issue(issue=k, fields={"priority": {"name": "Medium"}})),
        (people[0], lambda jira, k=targets[2]: jira.assign_issue(issue=k, assignee=None)),
        (people[2], lambda jira, k=targets[3]: jira.update_issue(issue=k, fields={"priority": {"name": "High"}, "assignee": people[0]})),
        (people[0], lambda jira, k=targets[4]: _move_on(jira, k)),
        (people[1], lambda jira, k=targets[5]: _move_on(jira, k)),
        (people[2], lambda jira, k=targets[5]: _move_on(jira, k)),
    ]
    for who, step in steps:
        with gym.store.session(env) as db:
            clock.advance(db, seconds=26 * 3600)  # a day and a bit between steps: ON and DURING see them apart
        with gym.store.session(env) as db:
            step(TicketsService(db, actor_id=who))
    yield env
    gym.delete(env.id)


def _move_on(jira: TicketsService, key: str) -> None:
    """Take the issue's first transition (a done one takes a resolution)."""
    move = jira.get_transitions(issue=key)["transitions"][0]
    fields = {"resolution": {"name": "Fixed"}} if move["to"]["statusCategory"]["key"] == "done" else None
    jira.transition_issue(issue=key, transition=move["id"], fields=fields)


@pytest.fixture(scope="module")
def history(gym: Gym, history_env: Env) -> History:
    with gym.store.session(history_env) as db:
        actor = TicketsService(db).actor_id
        return _read(db, actor)


@pytest.fixture(scope="module")
def ask(gym: Gym, history_env: Env) -> Any:
    def search(jql: str, as_user: str | None = None) -> set[str]:
        found: set[str] = set()
        while True:
            with gym.store.session(history_env) as db:
                page = TicketsService(db, actor_id=as_user).search_issues(jql=jql, max_results=100, start_at=len(found), fields="summary")
            found |= {i["key"] for i in page["issues"]}
            if page["isLast"]:
                assert page["total"] == len(found), jql
                return found
    return search


def _windows(h: History) -> list[tuple[str, Bound | None, Bound | None]]:
    """(predicate text, lower, upper) for the time predicates, at moments across the history."""
    out: list[tuple[str, Bound | None, Bound | None]] = [("", None, None)]
    stamp = "%Y-%m-%d %H:%M"
    for t in h.moments:
        moment = datetime.strptime(t[:16], "%Y-%m-%dT%H:%M").replace(tzinfo=h.now.tzinfo)
        minute = jira_time(moment)
        day = moment.replace(hour=0, minute=0)
        out += [
            (f'AFTER "{moment.strftime(stamp)}"', (minute, False), None),
            (f'BEFORE "{moment.strftime(stamp)}"', None, (minute, False)),
            (f'ON "{moment.strftime("%Y/%m/%d")}"', (jira_time(day), True), (jira_time(day + timedelta(days=1)), False)),
            (f'DURING ("{(moment - timedelta(days=2)).strftime(stamp)}", "{moment.strftime(stamp)}")',
             (jira_time(moment - timedelta(days=2)), True), (minute, True)),
        ]
    for days in (3, 10, 30):
        cut = jira_time(h.now - timedelta(days=days))
        out += [(f"AFTER -{days}d", (cut, False), None), (f"BEFORE -{days}d", None, (cut, False))]
    week = h.now.replace(hour=0, minute=0, second=0, microsecond=0)
    week -= timedelta(days=(week.weekday() + 1) % 7)
    out.append(("AFTER startOfWeek(-1w) BEFORE now()", (jira_time(week - timedelta(weeks=1)), False), (jira_time(h.now), False)))
    out.append(('AFTER "2020/01/01" BEFORE "2019/01/01"', ("2020-01-01T00:00:00.000+0000", False), ("2019-01-01T00:00:00.000+0000", False)))
    return out


def _values(h: History, name: str) -> list[tuple[str, str | None]]:
    """(JQL value, canonical value) pairs seen in the field's history."""
    seen = sorted({v for t in h.timelines[name].values() for v in [t.current, *(c.old for c in t.changes), *(c.new for c in t.changes)]},
                  key=lambda v: (v is None, v or ""))
    out: list[tuple[str, str | None]] = []
    for v in seen:
        if v is None:
            out.append(("EMPTY", None))
        elif name in ("assignee", "reporter"):
            out.append((v, v))
        else:
            out.append((f'"{v}"', v))
    return out[:6]


def was_cases(h: History) -> list[tuple[str, set[str]]]:
    out: list[tuple[str, set[str]]] = []
    windows = _windows(h)
    for name in FIELDS:
        lines = h.timelines[name]
        values = _values(h, name)
        for (text, value), (window, lower, upper) in itertools.product(values[:4], windows[::4] if name == "status" else windows[1::7]):
            hit = {h.keys[i] for i, t in lines.items() if any(v == value for v, _ in t.held(lower, upper))}
            out.append((f"{name} WAS {text} {window}".strip(), hit))
            out.append((f"{name} WAS NOT {text} {window}".strip(), set(h.keys.values()) - hit))
        for (t1, v1), (t2, v2) in itertools.combinations(values[:4], 2):
            hit = {h.keys[i] for i, t in lines.items() if any(v in (v1, v2) for v, _ in t.held(None, None))}
            out.append((f"{name} WAS IN ({t1}, {t2})", hit))
            out.append((f"{name} WAS NOT IN ({t1}, {t2})", set(h.keys.values()) - hit))
        for (text, value), who in itertools.product(values[:3], h.people[:3]):
            hit = {h.keys[i] for i, t in lines.items() if (value, who) in t.held(None, None)}
            out.append((f"{name} WAS {text} BY {who}", hit))
            window, lower, upper = windows[-3]
            hit = {h.keys[i] for i, t in lines.items() if (value, who) in t.held(lower, upper)}
            out.append((f"{name} WAS {text} BY {who} {window}", hit))
    return out


def changed_cases(h: History) -> list[tuple[str, set[str]]]:
    out: list[tuple[str, set[str]]] = []
    windows = _windows(h)
    for name in FIELDS:
        lines = h.timelines[name]
        for window, lower, upper in windows:
            hit = {h.keys[i] for i, t in lines.items() if t.changed(lower, upper)}
            out.append((f"{name} CHANGED {window}".strip(), hit))
        for who in h.people:
            hit = {h.keys[i] for i, t in lines.items() if any(c.by == who for c in t.changed(None, None))}
            out.append((f"{name} CHANGED BY {who}", hit))
            out.append((f'{name} CHANGED BY "{h.names[who]}" AFTER -3d', {h.keys[i] for i, t in lines.items() if any(
                c.by == who for c in t.changed((jira_time(h.now - timedelta(days=3)), False), None))}))
        for text, value in _values(h, name):
            hit = {h.keys[i] for i, t in lines.items() if any(c.old == value for c in t.changes)}
            out.append((f"{name} CHANGED FROM {text}", hit))
            hit = {h.keys[i] for i, t in lines.items() if any(c.new == value for c in t.changes)}
            out.append((f"{name} CHANGED TO {text}", hit))
            for text2, value2 in _values(h, name)[:3]:
                hit = {h.keys[i] for i, t in lines.items() if any(c.old == value and c.new == value2 for c in t.changes)}
                out.append((f"{name} CHANGED FROM {text} TO {text2}", hit))
    return out


def test_was_queries_match_the_changelog(history: History, ask: Any) -> None:
    battery = was_cases(history)
    assert len(battery) >= 300, len(battery)
    assert any(expected and len(expected) < len(history.keys) for _, expected in battery), "the battery must tell issues apart"
    for jql, expected in battery:
        assert ask(jql) == expected, jql


def test_changed_queries_match_the_changelog(history: History, ask: Any) -> None:
    battery = changed_cases(history)
    assert len(battery) >= 100, len(battery)
    assert any(jql.startswith("priority CHANGED BY") and expected for jql, expected in battery), "changes made here are found by who made them"
    for jql, expected in battery:
        assert ask(jql) == expected, jql


def test_history_clauses_combine_with_the_rest_of_jql(history: History, ask: Any) -> None:
    status = history.timelines["status"]
    in_progress = {history.keys[i] for i, t in status.items() if any(v == "In Progress" for v, _ in t.held(None, None))}
    sup = {k for k in history.keys.values() if k.startswith("SUP-")}
    assert ask('status WAS "In Progress" AND project = SUP') == in_progress & sup
    assert ask('NOT status WAS "In Progress"') == set(history.keys.values()) - in_progress
    assert ask('status WAS "In Progress" OR project = SUP') == in_progress | sup
    reprioritised = {history.keys[i] for i, t in history.timelines["priority"].items() if t.changes}
    assert reprioritised and ask("priority CHANGED") == reprioritised


def test_was_takes_ids_names_and_current_user(history: History, ask: Any) -> None:
    assigned = {history.keys[i] for i, t in history.timelines["assignee"].items() if any(v == history.actor for v, _ in t.held(None, None))}
    assert ask("assignee WAS currentUser()") == assigned
    assert ask(f'assignee WAS "{history.names[history.actor]}"') == assigned
    done = {history.keys[i] for i, t in history.timelines["status"].items() if any(v == "Done" for v, _ in t.held(None, None))}
    assert ask("status WAS 10002") == done == ask("status was done")
    changed_by_me = {history.keys[i] for i, t in history.timelines["assignee"].items() if any(c.by == history.actor for c in t.changes)}
    assert ask("assignee CHANGED BY currentUser()") == changed_by_me


def test_history_answers_follow_new_changes(gym: Gym, env: Env) -> None:
    """A history query is never served from an earlier answer: a change made after it shows."""
    def ask(jql: str) -> set[str]:
        with gym.store.session(env) as db:
            return {i["key"] for i in TicketsService(db).search_issues(jql=jql, max_results=100, fields="summary")["issues"]}

    before = ask("priority CHANGED TO Lowest")
    with gym.store.session(env) as db:
        key = db.scalar(select(Issue.key).where(Issue.priority != "Lowest").order_by(Issue.id).limit(1))
        TicketsService(db).update_issue(issue=key, fields={"priority": {"name": "Lowest"}})
    assert ask("priority CHANGED TO Lowest") == before | {key}
    assert key in ask("priority WAS Lowest") and key not in ask("priority WAS NOT Lowest")


@pytest.mark.parametrize(("jql", "message"), [
    ("labels WAS urgent", "The 'was' operator is not supported by the 'labels' field."),
    ("summary CHANGED", "The 'changed' operator is not supported by the 'summary' field."),
    ("component WAS NOT IN (API)", "The 'was not in' operator is not supported by the 'component' field."),
    ("created WAS NOT -1d", "The 'was not' operator is not supported by the 'created' field."),
    ("colour WAS red", "Field 'colour' does not exist or you do not have permission to view it."),
    ("status WAS Frozen", "The value 'Frozen' does not exist for the field 'status'."),
    ("priority CHANGED FROM Urgent", "The value 'Urgent' does not exist for the field 'priority'."),
    ("assignee WAS nobody@nowhere.test", "The value 'nobody@nowhere.test' does not exist for the field 'assignee'."),
    ("status CHANGED BY nobody@nowhere.test", "The value 'nobody@nowhere.test' does not exist for the field 'status'."),
    ("status WAS Done FROM Open", "The 'FROM' predicate is not supported by the 'was' operator"),
    ("status WAS NOT Done TO Done", "The 'TO' predicate is not supported by the 'was not' operator"),
    ("status WAS Done AFTER yesterday", "Date value 'yesterday' for predicate 'AFTER' is invalid."),
    ("status CHANGED DURING (-1d, soon)", "Date value 'soon' for predicate 'DURING' is invalid."),
    ("status WAS Done BEFORE -999999999d", "Date value '-999999999d' for predicate 'BEFORE' is invalid."),
    ("status CHANGED ON (-1d, -2d)", "The 'ON' predicate takes one date; got 2."),
    ("status CHANGED BEFORE whenever()", "Unable to find JQL function 'whenever()'."),
    ("status WAS Done BY EMPTY", "The 'BY' predicate takes users, not EMPTY."),
    ("status WAS currentUser()", "Unable to find JQL function 'currentUser()' for the field 'status'."),
    ("status WAS", "Error in the JQL Query: Expecting either a value, list or function but got 'EOF'. (line 1, character 11)"),
    ("status WAS IN Done", "Error in the JQL Query: Expecting '(' but got 'EOF'. (line 1, character 19)"),
    ("status CHANGED DURING (-1d)", "Error in the JQL Query: Expecting ',' but got ')'. (line 1, character 27)"),
    ("status CHANGED DURING -1d", "Error in the JQL Query: Expecting '(' but got '-1d'. (line 1, character 23)"),
    ("status CHANGED AFTER", "Error in the JQL Query: Expecting either a value, list or function but got 'EOF'. (line 1, character 21)"),
    ("status WAS Done SINCE -1d", "Error in the JQL Query: Expecting either 'OR' or 'AND' but got 'SINCE'. (line 1, character 17)"),
])
def test_malformed_history_queries_say_what_and_where(read: Any, jql: str, message: str) -> None:
    with pytest.raises(TicketsError) as raised:
        read(lambda jira: jira.search_issues(jql=jql))
    assert raised.value.code == "invalid_jql"
    assert message in raised.value.message, raised.value.message
