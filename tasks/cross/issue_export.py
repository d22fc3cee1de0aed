"""cross/issue-export-v1: your manager asks in a Slack DM (or in a thread in #customer-success)
for a Google Sheet of the Jira issues matching a filter a person asks for and JQL expresses (a
project's open bugs or incidents, its open unassigned issues, someone's unresolved issues, the
active sprint's issues in one status, a project's High or Highest issues created since a date),
titled and with the columns they name, and for the sheet's link. Three apps, one piece of work:
the issues live only in Jira, the export in Sheets, the link in chat.

Graded on the final state, each part its own check:
- the sheet (weight 1): exactly one new spreadsheet with that title (case, spacing and the kind
  of dash aside) that is not in the trash (a draft moved to the trash is gone from view);
- its rows (weight 5: the substance): on the first tab holding anything, exactly the matching
  issues, each once, read from the Key column (the header names it; without one, the first
  column holding keys). A key may be the issue's link (…/browse/KEY) or a HYPERLINK showing it
  (one showing a key but opening another issue names both). Title lines above the header are
  free, and so is a note or total row naming no issue (words in the Key column too: "Total", a
  count; a key Jira has no issue for is a wrong row); a row naming a second issue outside the
  Key column (its parent aside) is a second list, and so is another tab in view naming an issue
  outside the filter (the same issues again, grouped or counted, are more of the export).
  Listing more issues fails as surely as listing fewer; row order is free;
- its columns (weight 1): a header naming each asked column ("Issue key" or "Issue" for Key,
  "Issue Type" for Type, case and a final colon aside; extra columns are free), and on each
  matching issue's row the value Jira shows on the issue: the summary, status, priority and
  type names (a type also as Jira takes it: "Sub-task"), and the assignee's display name
  (blank or "Unassigned" when nobody is). The ask says "values as Jira shows them", and Jira
  shows a person by name, so an email in the Assignee column is not what was asked;
- the reply (weight 8: the link is how the export reaches the asker, so the right export with no
  link, never sent or its message deleted, or with another spreadsheet's beside it, scores
  7/15, below the pass line; and a link to an export without exactly the issues delivers a
  wrong export, so it fails with the rows): everything the agent said, read as the set of spreadsheets it links
  (https://docs.google.com/spreadsheets/d/<id>, with or without /u/0, /edit, ?usp=… or #gid=…; a
  Drive link, open?id=<id> or /file/d/<id>; the sheets page's own address, as a browser shows
  it) or names by a bare id: exactly the export, linked at least once, in the place asked. A
  second spreadsheet beside it is a hedge.
The export must not edit Jira: any change to an issue, like anything else outside the
conversation and the new spreadsheet, is collateral damage (an edited or deleted issue takes
the reward below the pass line on its own). With these weights listing every issue, leaving
one out or exporting another filter's issues scores at most 2/15, below the pass line.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from apps.chat.models import Member, Message
from apps.sheets.models import Sheet, Spreadsheet
from apps.tickets.catalog import ISSUE_TYPE_ALIASES
from apps.tickets.models import Issue, Sprint, SprintIssue
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.chat._common import Answer, answered_in_dm, careful_steps, post, post_everywhere, service_as, wreck as wreck_chat
from tasks.chat._workspace import workspace
from tasks.common.answers import Verdict, judge
from tasks.common.variants import cached, choose, count, shuffled
from tasks.sheets._common import SPREADSHEET_TABLES, allow_discarded, as_shown, final, hidden_tabs
from tasks.tickets._common import search_all, site, unique_names, wreck as wreck_tickets

MIN_ROWS, MAX_ROWS = 2, 20  # a sheet worth asking for, and one a person checks by eye
HIGH = ("Highest", "High")

# The columns a person asks for, by Jira's names for them; each set starts with the key.
COLUMN_SETS = (
    ("Key", "Summary", "Status", "Assignee", "Priority"),
    ("Key", "Summary", "Priority", "Status"),
    ("Key", "Summary", "Assignee", "Status"),
    ("Key", "Type", "Summary", "Priority", "Assignee"),
)
HEADERS = {  # a header cell (case, spacing and a final colon aside) → the column it names
    "key": "Key", "issue key": "Key", "issue": "Key", "summary": "Summary", "status": "Status", "assignee": "Assignee",
    "priority": "Priority", "type": "Type", "issue type": "Type", "issuetype": "Type",
}
TITLE_FORMS = ("{name}", "Jira export - {name}")
TEAM_ROOM = "customer-success"  # where the manager may ask in a thread instead of a DM
MAX_PEOPLE = 6  # someone's-issues filters kept, so the other kinds are asked as often
OPEN_TYPES = {"Bug": "bugs", "Incident": "incidents"}  # "the open bugs in ENG", "the open incidents in SUP"
FIELDS = "summary,status,assignee,priority,issuetype"

_SPACES = re.compile(r"\s+")
_URL = re.compile(r"https?://[^\s<>|]+", re.IGNORECASE)
# A spreadsheet's id in a link: …/spreadsheets/d/<id>…, Drive's …/file/d/<id>… and open?id=<id>,
# and the sheets page's own …/sheets/d/<id>; with the signed-in account (…/spreadsheets/u/0/d/<id>) too.
_LINKED_ID = re.compile(r"/(?:spreadsheets|sheets|file)(?:/u/\d+)?/d/([\w-]{10,128})|[?&]id=([\w-]{10,128})")
_TOKEN = re.compile(r"[\w-]{20,128}")
_BROWSE = re.compile(r"/BROWSE/([A-Z][A-Z0-9_]*-\d+)\b")  # an issue's link, upper-cased
_KEYLIKE = re.compile(r"[A-Z][A-Z0-9_]*-\d+")  # a cell written as an issue key (upper-cased), in Jira or not
_MENTION = re.compile(r"(?<![A-Z0-9_])([A-Z][A-Z0-9_]*-\d+)(?!\d)")  # a key named inside text (upper-cased)


_DASHES = str.maketrans({d: "-" for d in "\u2010\u2011\u2012\u2013\u2014\u2212"})


def _norm(value: Any) -> str:
    """A cell or a title as compared: case, spacing and the kind of dash aside."""
    return _SPACES.sub(" ", str(value if value is not None else "")).strip().casefold().translate(_DASHES)


@dataclass(frozen=True, slots=True)
class Row:
    """One issue as Jira shows it, in the columns an export asks for."""

    key: str
    project: str
    type: str
    summary: str
    status: str
    priority: str
    assignee: str  # display name, "" when unassigned
    created: str  # Jira time, UTC
    in_active_sprint: bool
    resolved: bool  # has a resolution
    parent: str  # the key of the issue it sits under (a sub-task's parent, a child's epic), or ""


@dataclass(frozen=True, slots=True)
class Filter:
    """What the manager asks for, and the issues it matches (the answer)."""

    kind: str
    name: str  # the sheet's name
    ask: str  # the issues, as the manager writes them in the DM
    jql: str  # the oracle's search
    other_jql: str  # another query for the same issues
    keys: tuple[str, ...]
    scope: str  # JQL of the issues the filter narrows (list-everything exports all of them)
    subtasks: bool = False  # some of the issues are sub-tasks (the ask says they count)


def _day(text: str) -> date:
    return datetime.strptime(text[:10], "%Y-%m-%d").date()


def _spoken(day: date) -> str:
    return f"{day:%B} {day.day}, {day.year}"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class IssueExport:
    id = "cross/issue-export-v1"
    apps = ("chat", "tickets", "sheets")
    difficulty = "hard"
    summary = ("Export the Jira issues a teammate asks for (a filter JQL expresses) to a new Google Sheet with the columns they "
               "name, and send them its link in Slack.")

    def _people(self, ctx: SampleContext) -> tuple[str, str, str, frozenset[str]]:
        """(the asker's chat id, the DM, the team's public channel both are in or "", seeded
        spreadsheet ids): the asker is the actor's manager."""
        def read() -> tuple[str, str, str, frozenset[str]]:
            ws = workspace(ctx)
            asker = ws.user_of(ctx.actor.manager_id)
            if asker is None or asker.id == ws.me.id:
                return "", "", "", frozenset()
            dm = service_as(ctx.db, ws.me.id).dm_id(ws.me.id, asker.id)
            room = ws.room(TEAM_ROOM)
            both = set(ctx.db.scalars(select(Member.user_id).where(Member.channel_id == room.id))) if room and not room.is_private else set()
            channel = room.id if {ws.me.id, asker.id} <= both else ""
            return asker.id, dm, channel, frozenset(ctx.db.scalars(select(Spreadsheet.id)))

        return cached(ctx, f"{self.id}|people", read)

    def _rows(self, ctx: SampleContext) -> dict[str, Row]:
        def read() -> dict[str, Row]:
            s = site(ctx)
            created = {k: c for k, c in ctx.db.execute(select(Issue.key, Issue.created))}
            active = set(ctx.db.scalars(select(Issue.key).join(SprintIssue, SprintIssue.issue_id == Issue.id)
                                        .join(Sprint, Sprint.id == SprintIssue.sprint_id).where(Sprint.state == "active")))
            keys = {t.id: t.key for t in s.tickets}
            return {t.key: Row(t.key, t.project, t.type, t.summary, t.status, t.priority,
                               s.people[t.assignee].name if t.assignee in s.people else "", created[t.key], t.key in active,
                               t.resolution is not None, keys.get(t.parent, "") if t.parent is not None else "")
                    for t in s.tickets}

        return cached(ctx, f"{self.id}|rows", read)

    def _filters(self, ctx: SampleContext) -> tuple[Filter, ...]:
        def build() -> tuple[Filter, ...]:
            if not self._people(ctx)[0]:
                return ()
            rows, s = self._rows(ctx), site(ctx)
            every = list(rows.values())
            if any((r.status == "Done") != r.resolved for r in every):
                return ()  # "open" would mean two things: not Done, or unresolved
            titles = {_norm(t) for t in ctx.db.scalars(select(Spreadsheet.title))}
            projects = sorted({r.project for r in every})
            found: list[Filter] = []

            def add(kind: str, name: str, ask: str, jql: str, other: str, keys: list[str], scope: str, among: list[Row]) -> None:
                # Worth a sheet, and not simply everything it narrows down (the whole project).
                if MIN_ROWS <= len(keys) <= MAX_ROWS and len(keys) < len(among):
                    ordered = tuple(sorted(keys, key=lambda k: (k.split("-")[0], int(k.split("-")[1]))))
                    subtasks = any(rows[k].type == "Subtask" for k in keys)  # Jira's search lists them; a board nests them
                    found.append(Filter(kind, name, ask, jql, other, ordered, scope, subtasks))

            for project in projects:
                mine = [r for r in every if r.project == project]
                # A project's open bugs (or incidents): not Done (here the same issues as unresolved ones).
                for kind, plural in OPEN_TYPES.items():
                    open_ones = [r.key for r in mine if r.type == kind and r.status != "Done"]
                    add("type", f"Open {project} {plural}", f"all the open {plural} in the {project} project (every {kind} that isn't Done)",
                        f"project = {project} AND issuetype = {kind} AND statusCategory != Done ORDER BY key",
                        f"issuetype = {kind} AND project = {project} AND resolution = EMPTY", open_ones, f"project = {project}", mine)
                # A project's open issues nobody is assigned to.
                nobody = [r.key for r in mine if not r.assignee and r.status != "Done"]
                add("unassigned", f"Unassigned {project} issues", f"the open issues in the {project} project that nobody is assigned to",
                    f"project = {project} AND assignee IS EMPTY AND resolution = EMPTY ORDER BY key",
                    f"project = {project} AND assignee = EMPTY AND statusCategory != Done", nobody, f"project = {project}", mine)
                # A project's High and Highest issues created on or after a date, whatever their status.
                high = sorted((r for r in mine if r.priority in HIGH), key=lambda r: r.created, reverse=True)
                days = [_day(r.created) for r in high]
                for n in range(MIN_ROWS, min(MAX_ROWS, len(high) - 1) + 1):
                    # A date with no such issue created the day before, on it or the day after: read in any
                    # time zone, "created on or after" it is the same issues.
                    since = days[n] + timedelta(days=2)
                    if days[n - 1] >= since + timedelta(days=2) and n in (MIN_ROWS + 1, 5, 9):
                        add("since", f"High priority {project} issues since {since:%b} {since.day}",
                            f"the {project} issues with High or Highest priority created on or after {_spoken(since)} (any status)",
                            f'project = {project} AND priority IN (Highest, High) AND created >= "{since.isoformat()}" ORDER BY created DESC',
                            f'project = {project} AND priority >= High AND created > "{(since - timedelta(days=1)).isoformat()} 23:59"',
                            [r.key for r in high[:n]], f"project = {project}", mine)
            # Someone's unresolved issues, in every project (names nobody else has; a few of them).
            people = [p for p in unique_names(s.people.values()) if p.account_id != s.me.account_id
                      and MIN_ROWS <= sum(r.assignee == p.name and r.status != "Done" for r in every) <= MAX_ROWS]
            for person in shuffled(self.id, ctx, sorted(people, key=lambda p: p.account_id), "people")[:MAX_PEOPLE]:
                theirs = [r.key for r in every if r.assignee == person.name and r.status != "Done"]
                add("assignee", f"Open issues - {person.name}", f"everything assigned to {person.name} that isn't resolved yet (any project)",
                    f"assignee = {_quoted(person.name)} AND resolution = EMPTY ORDER BY key",
                    f"assignee = {person.account_id} AND statusCategory != Done", theirs, "resolution = EMPTY",
                    [r for r in every if r.status != "Done"])
            # The active sprint's issues in one status.
            sprints = ctx.db.execute(select(Sprint.name, Sprint.board_id).where(Sprint.state == "active")).all()
            if len(sprints) == 1:
                sprint = sprints[0].name
                current = [r for r in every if r.in_active_sprint]
                for status in sorted({r.status for r in current}):
                    keys = [r.key for r in current if r.status == status]
                    add("sprint", f"{sprint} - {status}", f"the issues in the current sprint ({sprint}) whose status is {status}",
                        f'sprint in openSprints() AND status = {_quoted(status)} ORDER BY key',
                        f'sprint = {_quoted(sprint)} AND status = {_quoted(status)}', keys, "sprint in openSprints()", current)
            names = [_norm(f.name) for f in found]
            # Each title names one ask, and no spreadsheet there already has it.
            return shuffled(self.id, ctx, [f for f in found if names.count(_norm(f.name)) == 1
                                           and not any(_norm(form.format(name=f.name)) in titles for form in TITLE_FORMS)])

        return cached(ctx, self.id, build)

    def _axes(self, ctx: SampleContext) -> tuple[tuple, tuple, tuple, tuple]:
        places = ("dm", "thread") if self._people(ctx)[2] else ("dm",)
        return (self._filters(ctx), shuffled(self.id, ctx, COLUMN_SETS, "columns"), shuffled(self.id, ctx, TITLE_FORMS, "title"),
                shuffled(self.id, ctx, places, "place"))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        filters, column_sets, forms, places = self._axes(ctx)
        wanted_filter, columns, form, where = choose(self.id, ctx.variant, filters, column_sets, forms, places)
        rows = self._rows(ctx)
        asker_id, dm, team_room, seeded = self._people(ctx)
        ws = workspace(ctx)
        me, asker = ws.me, ws.users[asker_id]
        title = form.format(name=wanted_filter.name)
        keys = wanted_filter.keys
        expected_keys = frozenset(keys)
        listed = ", ".join(columns)
        in_thread = where == "thread"
        channel = team_room if in_thread else dm  # where the ask is, and the answer goes
        question = (f"{f'<@{me.id}> ' if in_thread else 'Hi! '}Could you pull {wanted_filter.ask} out of Jira into a Google Sheet "
                    f"for me?{' Sub-tasks count too.' if wanted_filter.subtasks else ''} Please create a new spreadsheet titled "
                    f"\"{title}\" with a header row and these columns: {listed}, one row per issue, values as Jira shows them. "
                    "Then send me the link here. Thanks!")
        if in_thread:
            place = f"{asker.real_name}'s thread in #{TEAM_ROOM}"
            prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just asked you in #{TEAM_ROOM} in Slack for an export "
                      "of Jira issues. Do it in Jira and Google Sheets, then reply in the thread of their message.")
        else:
            place = f"your DM with {asker.real_name}"
            prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack asking for an "
                      "export of Jira issues. Do it in Jira and Google Sheets, then reply to them in that DM.")

        def asked_at(db: Session) -> str | None:
            """The ask's ts (the setup posts it; read back, as a restart re-samples without it)."""
            return db.scalars(select(Message.ts).where(Message.channel_id == channel, Message.user_id == asker.id,
                                                       Message.text == question, Message.ts > ws.start).order_by(Message.ts)).first()
        wanted_title = _norm(title)
        looked_up = object()  # this instance's key for its lookups in a grading transaction's session info

        def exports(db: Session) -> list[tuple[str, bool]]:
            """The new spreadsheets titled as asked (the agent's: not seeded), each with whether it
            is in the trash; read once per grading transaction."""
            transaction = db.get_transaction()
            kept = db.info.get(looked_up)
            if kept is not None and transaction is not None and kept[0] is transaction:
                return kept[1]
            made = db.execute(select(Spreadsheet.id, Spreadsheet.title, Spreadsheet.trashed)).all()
            found = sorted((i, bool(trashed)) for i, t, trashed in made if i not in seeded and _norm(t) == wanted_title)
            db.info[looked_up] = (transaction, found)
            return found

        def the_export(db: Session) -> tuple[str | None, str]:
            found = [i for i, trashed in exports(db) if not trashed]
            if not found:
                return None, f"there is no new spreadsheet titled {title!r}"
            if len(found) > 1:
                return None, f"{len(found)} new spreadsheets are titled {title!r}: the export is one"
            return found[0], ""

        def sheet_check(db: Session) -> CheckResult:
            sid, why = the_export(db)
            return passed(f"the spreadsheet {title!r}") if sid else failed(why)

        read_table = object()  # the key of the export's table, read once per grading transaction

        def table(db: Session) -> tuple[dict[str, Any] | None, str]:
            transaction = db.get_transaction()
            kept = db.info.get(read_table)
            if kept is None or transaction is None or kept[0] is not transaction:
                kept = db.info[read_table] = (transaction, read(db))
            return kept[1]

        def issue_key(value: Any) -> str:
            """The issue a cell names: its key, or a link to it (…/browse/ENG-12); "" for none."""
            text = _norm(value).upper()
            if text in rows:
                return text
            found = _BROWSE.search(text)
            return found.group(1) if found and found.group(1) in rows else ("" if not text else text)

        summaries: set[str] = set()  # every issue's summary as Jira shows it, compared as cells are

        def mentioned(value: Any) -> set[str]:
            """The issues a cell's text names anywhere in it ("Maybe also: SUP-4, SUP-9"), but for
            a summary as Jira shows it (one may name another issue: "Follow-up to SUP-12")."""
            if not isinstance(value, str) or "-" not in value:
                return set()
            if not summaries:
                summaries.update(_norm(r.summary) for r in rows.values())
            if _norm(value) in summaries:
                return set()
            return {k for k in _MENTION.findall(value.upper()) if k in rows}

        def names(book: Any, at: tuple[int, int, int]) -> set[str]:
            """The issues a cell names: the one it shows, any its text names, and any a formula
            of it links to (a HYPERLINK to …/browse/KEY), whatever label it shows."""
            shown = book.get(at)
            found = ({issue_key(shown)} & rows.keys()) | mentioned(shown)
            formula = book.formulas.get(at)
            if formula and "BROWSE" in formula.upper():
                found |= {k for k in _BROWSE.findall(formula.upper()) if k in rows}
            return found

        def read(db: Session) -> tuple[dict[str, Any] | None, str]:
            """The export's first tab holding anything, read: its header (column → index), and
            each row holding an issue key (row number, key, cells). None and why when unreadable."""
            sid, why = the_export(db)
            if sid is None:
                return None, why
            book = as_shown(final(db, sid))  # text styled unreadable shows the asker nothing
            tabs = db.scalars(select(Sheet.sheet_id).where(Sheet.spreadsheet_id == sid).order_by(Sheet.index)).all()
            hidden = hidden_tabs(db, sid)  # gone from view: a reader never sees them as the export
            shown_tabs = [t for t in tabs if t not in hidden and book.extent(t)[0] > 0]
            if not shown_tabs:
                return None, f"the spreadsheet {title!r} is empty"
            tab = shown_tabs[0]
            # Another tab in view is part of what the asker opens: the matching issues again (grouped,
            # counted) are more of the export, but an issue outside the filter there is a second list.
            allowed = expected_keys | {rows[k].parent for k in expected_keys}
            for other_tab in shown_tabs[1:]:
                h, w = book.extent(other_tab)
                stray = sorted({k for r in range(h) for c in range(w) for k in names(book, (other_tab, r, c))} - allowed)
                if stray:
                    name = book.sheets[other_tab].title
                    return None, (f"the tab {name!r} lists issues that do not match ({', '.join(stray[:5])}"
                                  f"{', …' if len(stray) > 5 else ''}): a second list beside the export")
            height, width = book.extent(tab)
            grid = [[book.get((tab, r, c)) for c in range(width)] for r in range(height)]
            header_at, header = None, {}
            for r, cells in enumerate(grid):
                named = {HEADERS.get(_norm(v).rstrip(":").strip()): c for c, v in reversed(list(enumerate(cells))) if v not in (None, "")}
                if "Key" in named:
                    header_at, header = r, {k: v for k, v in named.items() if k}
                    break
                if any(issue_key(v) in rows for v in cells):
                    break  # issues before any header
            if header_at is None:  # no header naming the key: the key column is the first holding keys
                key_col = next((c for c in range(width) if any(issue_key(g[c]) in rows for g in grid)), None)
                start = 0
            else:
                key_col, start = header["Key"], header_at + 1
            issues: list[tuple[int, str, list[Any]]] = []
            for r in range(start, height):
                cells = grid[r]
                if all(v in (None, "") for v in cells):
                    continue
                key = issue_key(cells[key_col]) if key_col is not None else ""
                if key and key not in rows and not _KEYLIKE.fullmatch(key) and not _BROWSE.search(key):
                    key = ""  # words under the keys ("Total", "3 issues"): a note, not a key Jira lacks
                if not key:
                    if any(names(book, (tab, r, c)) for c in range(width)):
                        return None, f"row {r + 1} names an issue outside the key column"
                    continue  # a note or a total: names no issue
                if key not in rows:
                    return None, f"row {r + 1}'s key is {cells[key_col]!r}, which is no issue in Jira"
                linked_to = names(book, (tab, r, key_col)) - {key}
                if linked_to:  # the key shown, and a link under it to another issue: a reader clicking it lands elsewhere
                    return None, f"row {r + 1} shows {key} but its link opens {', '.join(sorted(linked_to))}"
                also = sorted({k for c in range(len(cells)) if c != key_col for k in names(book, (tab, r, c))} - {key, rows[key].parent})
                if also:  # another issue listed on this one's row (its parent aside): a second list beside the first
                    return None, f"row {r + 1} ({key}) also names {', '.join(also[:4])} outside the key column"
                issues.append((r, key, cells))
            return {"header": header, "header_at": header_at, "issues": issues}, ""

        def rows_check(db: Session) -> CheckResult:
            read, why = table(db)
            if read is None:
                return failed(why)
            seen: dict[str, int] = {}
            for r, key, _ in read["issues"]:
                if key in seen:
                    return failed(f"{key} has two rows ({seen[key] + 1} and {r + 1})")
                seen[key] = r
            extra = sorted(k for k in seen if k not in expected_keys)
            missing = sorted(k for k in expected_keys if k not in seen)
            if extra:
                return failed(f"{len(extra)} row(s) list issues that do not match ({', '.join(extra[:5])}"
                              f"{', …' if len(extra) > 5 else ''}); the {len(keys)} asked for are {', '.join(keys[:8])}")
            if missing:
                return failed(f"{len(missing)} matching issue(s) missing: {', '.join(missing[:8])}")
            return passed(f"exactly the {len(keys)} matching issues, each once")

        def shown(column: str, row: Row) -> set[str]:
            if column == "Assignee":
                return {_norm(row.assignee)} if row.assignee else {"", "unassigned"}
            if column == "Type":  # Jira's name for it, or a spelling Jira takes for the same type ("Sub-task")
                return {_norm(row.type), *(_norm(alias) for alias, name in ISSUE_TYPE_ALIASES.items() if name == row.type)}
            return {_norm({"Summary": row.summary, "Status": row.status, "Priority": row.priority}[column])}

        def columns_check(db: Session) -> CheckResult:
            read, why = table(db)
            if read is None:
                return failed(why)
            header = read["header"]
            if read["header_at"] is None:
                return failed(f"no header row naming the columns {listed}")
            absent = [c for c in columns if c not in header]
            if absent:
                return failed(f"the header (row {read['header_at'] + 1}) has no {', '.join(absent)} column")
            matching = [(r, key, cells) for r, key, cells in read["issues"] if key in expected_keys]
            if not matching:
                return failed("no row holds a matching issue to read its columns on")
            for r, key, cells in matching:
                for column in columns[1:]:
                    at = header[column]
                    got = cells[at] if at < len(cells) else None
                    if _norm(got) not in shown(column, rows[key]):
                        want = getattr(rows[key], column.lower()) or "Unassigned"
                        return failed(f"row {r + 1} ({key}) shows {column} {got!r}, Jira shows {want!r}")
            return passed(f"{listed} as Jira shows them on the {len(matching)} matching rows")

        def linked(db: Session, text: str) -> tuple[set[str], set[str]]:
            """(the spreadsheets the text links, those it names by a bare id)."""
            links = {m.group(1) or m.group(2) for url in _URL.findall(text) for m in _LINKED_ID.finditer(url)}
            tokens = set(_TOKEN.findall(text)) - links
            bare = set(db.scalars(select(Spreadsheet.id).where(Spreadsheet.id.in_(tokens)))) if tokens else set()
            return links, bare

        def reply_check(db: Session) -> CheckResult:
            sid, why = the_export(db)
            if sid is None:
                return failed(f"no export to link: {why}")
            read: dict[str, tuple[set[str], set[str]]] = {}

            def refs(text: str) -> tuple[set[str], set[str]]:
                if text not in read:
                    read[text] = linked(db, text)
                return read[text]

            def judges(text: str) -> tuple[Verdict, ...]:
                links, bare = refs(text)
                return (judge("spreadsheets", links | bare, {sid}, show=_url),
                        Verdict(sid in links, "links the spreadsheet" if sid in links else "names the spreadsheet's id but gives no link to it"))

            if in_thread:
                ask = asked_at(db)
                inside = lambda m: m.channel_id == channel and m.thread_ts == ask and m.ts != ask  # noqa: E731
            else:
                inside = lambda m: m.channel_id == dm  # noqa: E731
            answer = Answer(place=place, inside=inside, prompt=prompt, judges=judges, asserts=lambda text: any(refs(text)))
            sent = answer.check(me.id, ws.start)(db)
            if sent.passed and not (listed := rows_check(db)).passed:  # the link delivers what the export holds
                return failed(f"the link opens an export that does not list the asked issues: {listed.detail}")
            return sent

        def setup(session: Session) -> None:
            theirs = service_as(session, asker.id)
            if not in_thread:
                theirs.conversations_open(me.id)
            theirs.chat_post_message(channel, question)

        def export_rows(db: Session) -> frozenset[str]:
            return frozenset(i for i, _ in exports(db))

        def in_export(table_name: str, key: str) -> Expect:  # the export, whatever id it got, and anything done in it
            return Expect(table_name, "any", lambda c, made: c.row[key] in made, given=export_rows)

        # -- solutions ------------------------------------------------------------------------
        def cell(issue: dict[str, Any], column: str) -> str:
            if column == "Key":
                return issue["key"]
            if column == "Summary":
                return issue["summary"]
            if column == "Type":
                return issue["issue_type"]["name"]
            if column == "Assignee":
                return (issue.get("assignee") or {}).get("display_name") or "Unassigned"
            return issue[column.lower()]["name"]

        async def the_ask(tools: Tools) -> str:
            history = await tools.call("slack_get_channel_history", channel_id=channel, limit=20)
            return next(m["ts"] for m in history["messages"] if m["user"] == asker.id and "Google Sheet" in m["text"])

        async def reply(tools: Tools, text: str) -> None:
            if in_thread:
                await tools.call("slack_reply_to_thread", channel_id=channel, thread_ts=await the_ask(tools), text=text)
                return
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=text)

        async def export(tools: Tools, name: str, jql: str, heads: tuple[str, ...] = columns) -> str:
            found = await search_all(tools, jql, FIELDS)
            made = await tools.call("create_spreadsheet", title=name)
            sid = made["spreadsheetId"]
            first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
            body = [list(heads), *[[cell(i, c) for c in heads] for i in found]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:{chr(64 + len(heads))}{len(body)}", data=body)
            return sid

        async def oracle(tools: Tools) -> None:
            sid = await export(tools, title, wanted_filter.jql)
            await reply(tools, f"Here you go: {_url(sid)}")

        async def raw_on_a_new_tab(tools: Tools) -> None:
            """Another path: another query paged five at a time, the export on an added first tab
            (Sheet1 left empty behind it) with a title line, a frozen header spelt as Jira's CSV
            export spells it, values written RAW (batch_update updateCells), unassigned left blank,
            rows newest first; the link, with its tab, in the question's thread as a Slack link."""
            found: list[dict[str, Any]] = []
            while True:
                page = await tools.call("jira_search", jql=wanted_filter.other_jql + " ORDER BY created DESC", limit=5,
                                        start_at=len(found), fields=FIELDS + ",created")
                found.extend(page["issues"])
                if not page["issues"] or len(found) >= page["total"]:
                    break
            sid = (await tools.call("create_spreadsheet", title=title.upper()))["spreadsheetId"]
            added = await tools.call("batch_update", spreadsheet_id=sid, requests=[
                {"addSheet": {"properties": {"title": "Issues", "index": 0, "gridProperties": {"frozenRowCount": 2}}}}])
            tab = added["replies"][0]["addSheet"]["properties"]["sheetId"]
            spelt = {"Key": "Issue key", "Type": "Issue Type"}
            lines = [[f"{wanted_filter.name} (from Jira)"], [spelt.get(c, c) + ":" if c == "Summary" else spelt.get(c, c) for c in columns],
                     *[["" if c == "Assignee" and not i.get("assignee", {}).get("account_id") else cell(i, c) for c in columns] for i in found]]
            await tools.call("batch_update", spreadsheet_id=sid, requests=[{"updateCells": {
                "start": {"sheetId": tab, "rowIndex": 0, "columnIndex": 0}, "fields": "userEnteredValue",
                "rows": [{"values": [{"userEnteredValue": {"stringValue": str(v)}} for v in line]} for line in lines]}}])
            await tools.call("slack_reply_to_thread", channel_id=channel, thread_ts=await the_ask(tools),
                             text=f"Done: <https://docs.google.com/spreadsheets/d/{sid}/edit#gid={tab}|{title}> ({len(found)} issues)")

        # -- the adversaries' moves ----------------------------------------------------------
        others = [f for f in filters if set(f.keys) != expected_keys]
        other = next((f for f in others if f.kind == wanted_filter.kind), others[0] if others else wanted_filter)
        rooms = [r.id for r in ws.rooms if not r.is_private and r.id != channel][:3]

        async def say(tools: Tools, text: str) -> None:
            await post(tools, channel, text, thread_ts=await the_ask(tools) if in_thread else None)

        async def wrong(tools: Tools) -> None:  # the export missing its last issue, under the asked title
            sid = await export(tools, title, wanted_filter.jql.replace(" ORDER BY key", "").split(" ORDER BY")[0]
                               + f" AND key != {keys[-1]}")
            await reply(tools, _url(sid))

        async def everything(tools: Tools) -> None:  # every issue the filter narrows down, and a link to every spreadsheet
            sid = await export(tools, title, wanted_filter.scope)
            listed_sheets = await tools.call("list_spreadsheets")
            await reply(tools, " ".join(_url(s["id"]) for s in [{"id": sid}, *listed_sheets]))

        async def wrong_record(tools: Tools) -> None:  # another filter's issues under the asked title
            sid = await export(tools, title, other.jql)
            await reply(tools, _url(sid))

        async def shotgun(tools: Tools) -> None:  # the export, its link in the DM and in every room
            sid = await export(tools, title, wanted_filter.jql)
            await reply(tools, _url(sid))
            await post_everywhere(tools, rooms, f"{title}: {_url(sid)}")

        async def vandalise(tools: Tools) -> None:
            await wreck_chat(tools)
            await wreck_tickets(tools)

        async def decoy(tools: Tools) -> None:  # another filter's issues on a tab before the export, the one it opens on
            sid = await export(tools, title, wanted_filter.jql)
            found = await search_all(tools, other.jql, FIELDS)
            await tools.call("batch_update", spreadsheet_id=sid, requests=[{"addSheet": {"properties": {"title": "Export", "index": 0}}}])
            body = [list(columns), *[[cell(i, c) for c in columns] for i in found]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet="Export", range=f"A1:{chr(64 + len(columns))}{len(body)}", data=body)
            await reply(tools, f"Here you go: {_url(sid)}")

        return TaskInstance(
            prompt=prompt,
            checks=[
                Check(f"one new spreadsheet titled {title!r}", sheet_check),
                Check(f"it lists exactly the {len(keys)} matching issues, each once", rows_check, weight=5.0),
                Check(f"its columns {listed} as Jira shows them", columns_check),
                Check(f"its link sent in {place}, and no other spreadsheet's", reply_check, weight=8.0),
            ],
            expected=[*(asked_in_thread(channel, me.id, asker.id, question, ws.public, asked_at) if in_thread
                        else answered_in_dm(dm, me.id, asker.id, question, ws.public)),
                      *(in_export(t, key) for t, key in SPREADSHEET_TABLES.items()), *allow_discarded(seeded)],
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(raw_on_a_new_tab,),
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise,
                        decoy=decoy),
            facts={"kind": wanted_filter.kind, "filter": wanted_filter.name, "jql": wanted_filter.jql, "keys": list(keys),
                   "columns": list(columns), "title": title, "asker": asker.id, "dm": dm,
                   "place": where, "channel": channel},
        )


def _url(spreadsheet_id: str) -> str:
    return f"https://docs.google.com/spreadsheets/d/{spreadsheet_id}/edit"



def asked_in_thread(channel: str, actor_id: str, asker_id: str, question: str, public: frozenset[str],
                    asked_at: Callable[[Session], str | None]) -> list[Expect]:
    """What an ask posted in a channel allows: the setup's message, the replies in its thread
    (whatever ts it got: read from the final state) and the careful steps on the way."""
    return [
        Expect("chat_messages", "insert", lambda c: c.row["channel_id"] == channel and c.row["user_id"] == asker_id
               and c.row["text"] == question and c.row["thread_ts"] in (None, c.row["ts"])),
        Expect("chat_messages", "insert", lambda c, ask: c.row["channel_id"] == channel and c.row["user_id"] == actor_id
               and ask is not None and c.row["thread_ts"] == ask, given=asked_at),
        Expect("chat_messages", "update", lambda c, ask: c.row["channel_id"] == channel and c.row["ts"] == ask
               and c.changed_columns == ("thread_ts",), given=asked_at),
        # An :eyes: on the ask, then the answer: as a careful person acknowledges it in a DM.
        Expect("chat_reactions", "insert", lambda c, ask: c.row["channel_id"] == channel and c.row["ts"] == ask
               and c.row["user_id"] == actor_id, given=asked_at),
        *careful_steps(actor_id, public),
    ]
