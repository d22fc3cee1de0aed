"""tickets/plan-sprint-by-capacity-v1: plan the next sprint from the backlog by a capacity rule.

The rule is greedy and unambiguous: take the unresolved ENG backlog issues that have story
points and are in no sprint, most urgent priority first, then by key (lowest number first);
add each one whose points still fit within the capacity; skip those that do not. Passes when
the issues added to the sprint since the task began are exactly those (an issue from outside the
backlog put in beside them is one too many). A goal written for the sprint, where it had none,
is part of planning it; its dates, its state or its name changed are not. Only capacities at
which the rule skips an issue and still takes a later one are asked (the groomed backlog,
12 to 15 issues on a small company, offers dozens): taking the first few in order never passes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sqlalchemy import select

from apps.tickets import catalog
from apps.tickets.models import Issue, Sprint, SprintIssue
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import allow_issue, bumped, comment, search_all, site, wreck

_CAPACITIES = (8, 13, 20, 26, 34)
BACKLOG_JQL = 'project = ENG AND resolution = EMPTY AND sprint IS EMPTY AND issuetype NOT IN (Epic, Subtask) AND "Story Points" IS NOT EMPTY'


def ranked(backlog: list[tuple[str, str, float]]) -> list[tuple[str, str, float]]:
    """(key, priority, points) in the prompt's order: most urgent priority first, then lowest key number."""
    rank = {p.name: p.rank for p in catalog.PRIORITIES}
    return sorted(backlog, key=lambda b: (rank[b[1]], int(b[0].split("-")[1])))


def greedy(backlog: list[tuple[str, str, float]], capacity: float) -> list[str]:
    """Keys picked from (key, priority, points) by the prompt's rule."""
    picked, used = [], 0.0
    for key, _priority, points in ranked(backlog):
        if used + points <= capacity:
            picked.append(key)
            used += points
    return picked


def chooses(backlog: list[tuple[str, str, float]], capacity: float) -> bool:
    """Whether the rule has a real choice at this capacity: it skips an issue that does not fit
    and still takes one ranked below it (not just the first few issues in order)."""
    picked = greedy(backlog, capacity)
    order = [b[0] for b in ranked(backlog)]
    return bool(picked) and picked != order[: len(picked)]


@dataclass(frozen=True, slots=True)
class _Plan:
    sprint_id: int  # the ENG board's next (future) sprint
    sprint_name: str
    backlog: tuple[tuple[str, str, float], ...]  # (key, priority, points) of the issues in no sprint
    capacity: int


class PlanSprintByCapacity:
    id = "tickets/plan-sprint-by-capacity-v1"
    apps = ("tickets",)
    difficulty = "hard"
    summary = "Fill the next sprint from the backlog by a priority-then-key rule up to a story-point capacity."

    def _pool(self, ctx: SampleContext) -> tuple[_Plan, ...]:
        def build() -> tuple[_Plan, ...]:
            sprint = ctx.db.scalar(select(Sprint).where(Sprint.state == "future").order_by(Sprint.id))
            if sprint is None:
                return ()
            planned = set(ctx.db.scalars(select(SprintIssue.issue_id)))
            backlog = tuple((i.key, i.priority, i.story_points) for i in ctx.db.scalars(select(Issue).where(
                Issue.project_key == "ENG", Issue.resolution.is_(None), Issue.issue_type.not_in(("Epic", "Subtask")),
                Issue.story_points.is_not(None))) if i.id not in planned)
            total = sum(b[2] for b in backlog)
            # Capacities below the backlog's total (so the rule has to choose): the usual sizes, fractions of the total, and
            # every whole number of points below it (a small backlog still offers several plans).
            sizes = (*_CAPACITIES, *(int(total * f) for f in (0.35, 0.5, 0.7)), *range(1, int(total) + 1))
            capacities = sorted({c for c in sizes if 1 <= c < total and chooses(list(backlog), c)})
            return shuffled(self.id, ctx, [_Plan(sprint.id, sprint.name, backlog, c) for c in capacities])

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        (plan,) = choose(self.id, ctx.variant, self._pool(ctx))
        sprint_id, sprint_name, backlog, capacity = plan.sprint_id, plan.sprint_name, plan.backlog, plan.capacity
        want = greedy(list(backlog), capacity)
        ids = {t.key: t.id for t in s.tickets}
        skipped = [b[0] for b in backlog if b[0] not in want]

        backlog_keys = [b[0] for b in backlog]

        there = cached(ctx, f"{self.id}|in-sprint|{sprint_id}",
                       lambda: frozenset(ctx.db.scalars(select(SprintIssue.issue_id).where(SprintIssue.sprint_id == sprint_id))))

        def planned(db) -> CheckResult:
            # What the sprint holds now that it did not hold when the task began is what the agent added: backlog issues, and
            # anything else put in beside them (an epic, an issue of another sprint, one without points) is over the plan.
            added = set(db.scalars(select(Issue.key).join(SprintIssue, SprintIssue.issue_id == Issue.id)
                                   .where(SprintIssue.sprint_id == sprint_id, SprintIssue.issue_id.not_in(there))))
            missing, extra = sorted(set(want) - added), sorted(added - set(want))
            if missing or extra:
                return failed(f"{sprint_name} lacks {', '.join(missing) or 'nothing'} and has extra {', '.join(extra) or 'nothing'}")
            return passed(f"{sprint_name} got {len(want)} issues within {capacity} points")

        def moved(change) -> bool:
            return change.row.get("sprint_id") == sprint_id and change.row.get("issue_id") in {ids[k] for k in want}

        async def oracle(tools: Tools) -> None:
            found = await search_all(tools, f"{BACKLOG_JQL} ORDER BY priority DESC, key ASC", "priority,summary,customfield_10016")
            keys = [i["key"] for i in found]
            points = {i["key"]: i["story_points"] for i in found}
            picked, used = [], 0.0
            for key in keys:
                if used + points[key] <= capacity:
                    picked.append(key)
                    used += points[key]
            for at in range(0, len(picked), 50):  # Jira moves at most 50 issues per call
                await tools.call("jira_add_issues_to_sprint", sprint_id=str(sprint_id), issue_keys=",".join(picked[at:at + 50]))

        async def one_by_one(tools: Tools) -> None:
            """Find the sprint on the board, rank the backlog in Python, add the issues one at a time."""
            boards = await tools.call("jira_get_agile_boards", project_key="ENG")
            future = await tools.call("jira_get_sprints_from_board", board_id=boards[0]["id"], state="future")
            target = next(sp for sp in future if sp["name"] == sprint_name)
            found = await search_all(tools, BACKLOG_JQL, "*all")
            rows = [(i["key"], i["priority"]["name"], i["story_points"]) for i in found]
            for key in greedy(rows, capacity):
                await tools.call("jira_add_issues_to_sprint", sprint_id=target["id"], issue_keys=key)

        async def add(tools: Tools, keys: list[str], sprint: int = sprint_id) -> None:
            for key in keys:
                try:
                    await tools.call("jira_add_issues_to_sprint", sprint_id=str(sprint), issue_keys=key)
                except ToolError:
                    pass

        wrong = [*want[:-1], *skipped[:1]] if skipped else want[:-1]
        return TaskInstance(
            prompt=(f"You are {s.me.name}. Plan {sprint_name} in Jira (the ENG board's next sprint) with a capacity of {capacity} story "
                    f"{'point' if capacity == 1 else 'points'}. From the ENG backlog — unresolved issues with story points that are in no sprint — take issues most urgent "
                    f"priority first, then lowest key number first; add each one whose points still fit within {capacity} in total, and "
                    f"skip those that do not fit."),
            checks=[Check(f"{sprint_name} planned to {capacity} points by the rule", planned)],
            expected=[Expect("tickets_sprint_issues", "insert", moved),
                      *[e for k in want for e in allow_issue(ids[k])], bumped(),
                      # a goal written for the sprint being planned, where it had none, is part of planning it
                      Expect("tickets_sprints", "update", lambda c: c.row["id"] == sprint_id and set(c.changed_columns) <= {"goal"}
                             and not (c.before or {}).get("goal"))],
            oracle=oracle,
            alternatives=(one_by_one,),
            moves=Moves(
                say=lambda tools, text: comment(tools, want[0], text),
                wrong=lambda tools: add(tools, wrong),
                everything=lambda tools: add(tools, backlog_keys),
                wrong_record=lambda tools: add(tools, skipped[:len(want)] or want[:1], sprint_id - 1),
                shotgun=lambda tools: add(tools, backlog_keys[: len(want) + 3]),
                wreck=wreck,
            ),
            facts={"issue": want[0], "sprint": sprint_id, "capacity": capacity, "picked": want},
        )
