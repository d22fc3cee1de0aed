"""The groomed ENG backlog sprint planning chooses from: on every small company it holds 8 to 15
unresolved, estimated issues in no sprint, with a spread of priorities; they are the newest
issues (filed after everything else, before the company's now), unassigned and in To Do; an
env's database holds exactly that backlog; and the capacity rule has real choices on it (the
sprint-planning family asks dozens of plans)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from apps.tickets.ids import jira_time
from apps.tickets.models import Issue, SprintIssue
from officegym.core.env_store import Env
from officegym.gym import Gym
from seed_data.company import generate_company
from seed_data.tickets import TicketsSeeder, lines

SPRINT = "tickets/plan-sprint-by-capacity-v1"


def unplanned(issues: list[dict[str, Any]], planned: set[int]) -> list[dict[str, Any]]:
    """The unresolved, estimated ENG issues (no epics or subtasks) in no sprint."""
    return [i for i in issues if i["project_key"] == "ENG" and i["resolution"] is None and i["issue_type"] not in ("Epic", "Subtask")
            and i["story_points"] is not None and i["id"] not in planned]


def seeded(seed: int) -> tuple[list[dict[str, Any]], set[int], str]:
    """(the issues, the ids in a sprint, the company's now) as the seeder makes them, without a database."""
    company = generate_company(seed, "small")
    seeder = TicketsSeeder(company)
    seeder.build()
    return seeder.rows[Issue], {r["issue_id"] for r in seeder.rows[SprintIssue]}, jira_time(company.now)


def test_each_small_company_has_a_groomed_backlog_to_plan_from() -> None:
    for seed in (0, 1, 2, 3):
        issues, planned, now = seeded(seed)
        backlog = unplanned(issues, planned)
        assert 8 <= len(backlog) <= 15, (seed, [i["key"] for i in backlog])
        assert len({i["priority"] for i in backlog}) >= 3, "a spread of priorities, so the rule's order matters"
        groomed = [i for i in issues if i["summary"] in {s for _t, s, _d in lines.BACKLOG}]
        assert groomed and groomed == issues[-len(groomed):], "filed last: the newest ids"
        assert all(i["status"] == "To Do" and i["assignee_id"] is None and i["created"] < now for i in groomed)
        assert max(i["created"] for i in issues[: -len(groomed)]) < min(i["created"] for i in groomed), "ids follow creation order"


def test_an_env_holds_the_seeded_backlog(gym: Gym, env: Env) -> None:
    issues, planned, _now = seeded(0)
    with gym.store.session(env) as db:
        in_sprint = set(db.scalars(select(SprintIssue.issue_id)))
        stored = [{c: getattr(i, c) for c in ("id", "key", "project_key", "resolution", "issue_type", "story_points", "priority")}
                  for i in db.scalars(select(Issue).order_by(Issue.id))]
    want = [(i["key"], i["priority"], i["story_points"]) for i in unplanned(issues, planned)]
    assert [(i["key"], i["priority"], i["story_points"]) for i in unplanned(stored, in_sprint)] == want


def test_sprint_planning_has_many_plans_that_need_choices(gym: Gym) -> None:
    assert gym.count_instances(SPRINT, 0) >= 10
