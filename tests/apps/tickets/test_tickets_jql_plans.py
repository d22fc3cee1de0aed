"""A JQL query is compiled once and reused while what it was compiled against still holds:
the same people, sprints and parents behind its values, the same acting user for
currentUser(), the same env time for relative dates. Each case here changes one of those and
checks the answer follows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from apps.tickets.errors import TicketsError
from apps.tickets.ids import jira_time
from apps.tickets.jql import plan
from apps.tickets.jql.compiler import JqlContext
from apps.tickets.models import Issue, Sprint, SprintIssue
from apps.tickets.service import TicketsService
from officegym.core import clock
from officegym.core.env_store import Env
from officegym.gym import Gym


def _keys(gym: Gym, env: Env, jql: str, as_user: str | None = None) -> set[str]:
    with gym.store.session(env) as db:
        return {i["key"] for i in TicketsService(db, actor_id=as_user).search_issues(jql=jql, max_results=100, fields="summary")["issues"]}


def test_a_repeated_query_reuses_its_plan(gym: Gym, env: Env) -> None:
    with gym.store.session(env) as db:
        jira = TicketsService(db)
        first = plan.plan_for(JqlContext(db, jira.actor_id, jira.now), "project = ENG AND assignee IS NOT EMPTY ORDER BY key")
        again = plan.plan_for(JqlContext(db, jira.actor_id, jira.now), "project = ENG AND assignee IS NOT EMPTY ORDER BY key")
    assert again is first


def test_current_user_is_whoever_asks(gym: Gym, env: Env) -> None:
    with gym.store.session(env) as db:
        owners = [row[0] for row in db.execute(select(Issue.assignee_id).where(Issue.assignee_id.is_not(None)).distinct().order_by(Issue.assignee_id).limit(2))]
        mine = {who: {k for (k,) in db.execute(select(Issue.key).where(Issue.assignee_id == who))} for who in owners}
    for who in owners + owners:
        assert _keys(gym, env, "assignee = currentUser()", as_user=who) == mine[who]


def test_a_renamed_sprint_is_found_by_its_new_name_in_that_env_only(gym: Gym, env: Env) -> None:
    other = gym.create()
    try:
        with gym.store.session(env) as db:
            sprint = db.scalars(select(Sprint).order_by(Sprint.id)).first()
            old_name, sprint_id = sprint.name, sprint.id
            members = {k for (k,) in db.execute(select(Issue.key).join(SprintIssue, SprintIssue.issue_id == Issue.id)
                                               .where(SprintIssue.sprint_id == sprint_id))}
        assert members and _keys(gym, env, f'sprint = "{old_name}"') == members == _keys(gym, other, f'sprint = "{old_name}"')
        with gym.store.session(env) as db:
            TicketsService(db).update_sprint(sprint_id=sprint_id, name="Renamed sprint")
        assert _keys(gym, env, 'sprint = "Renamed sprint"') == members
        assert _keys(gym, other, f'sprint = "{old_name}"') == members
        for where, name in ((env, old_name), (other, "Renamed sprint")):
            with pytest.raises(TicketsError, match="does not exist for the field 'Sprint'"):
                _keys(gym, where, f'sprint = "{name}"')
    finally:
        gym.delete(other.id)


def test_relative_dates_follow_the_env_clock(gym: Gym, env: Env) -> None:
    def expected() -> set[str]:
        with gym.store.session(env) as db:
            cut = jira_time(clock.now(db) - timedelta(days=10))
            return {k for (k,) in db.execute(select(Issue.key).where(Issue.created >= cut))}

    before = expected()
    assert _keys(gym, env, "created >= -10d") == before
    with gym.store.session(env) as db:
        clock.advance(db, seconds=5 * 86400)
    after = expected()
    assert after != before, "five days later, some issues are no longer from the last ten days"
    assert _keys(gym, env, "created >= -10d") == after


def test_queries_of_one_shape_share_their_sql_and_answer_with_their_own_values(gym: Gym, env: Env) -> None:
    queries = {(project, priority): f"project = {project} AND priority = {priority} AND summary ~ \"{word}\" ORDER BY key"
               for project, priority, word in (("SUP", "High", "a"), ("ENG", "Medium", "e"), ("SUP", "Low", "o"))}
    with gym.store.session(env) as db:
        jira = TicketsService(db)
        plans = [plan.plan_for(JqlContext(db, jira.actor_id, jira.now), text) for text in queries.values()]
        expected = {key: {k for (k, s) in db.execute(select(Issue.key, Issue.summary).where(Issue.project_key == key[0], Issue.priority == key[1]))
                          if text.rsplit('"', 2)[1] in s.lower()} for key, text in queries.items()}
    answers = {key: _keys(gym, env, text) for key, text in queries.items()}
    assert answers == expected and len({frozenset(a) for a in answers.values()}) == 3
    shared = plans[0].statements
    assert shared, "the page the searches read was prepared on the plan"
    assert all(p.statements.keys() == shared.keys() and all(p.statements[k][0] is shared[k][0] for k in shared) for p in plans), \
        "one compiled statement per shape"
