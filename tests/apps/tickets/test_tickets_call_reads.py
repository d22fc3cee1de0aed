"""What a comment reads, and that none of it goes stale: its issue and its author in one
statement, the actor, the site and the clock in one more, each read afresh in every
transaction, so a new actor, a moved clock or another env is seen by the very next call."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import select

from apps.tickets.errors import TicketsError
from apps.tickets.models import Comment, Issue, User
from apps.tickets.service import ACTOR_META_KEY
from officegym.core import clock
from officegym.core.db import set_meta
from officegym.core.env_store import Env
from officegym.core.sql import Prepared
from officegym.gym import Gym
from tests.apps.tickets.conftest import Run, runner


@contextmanager
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Any]]]:
    """Every prepared statement run inside the block: (its SQL, its parameters)."""
    seen: list[tuple[str, Any]] = []
    real = Prepared._run

    def recorded(self: Prepared, db: Any, params: dict[str, Any]) -> Any:
        cursor, compiled = real(self, db, params)
        seen.append((compiled.sql, params))
        return cursor, compiled

    with monkeypatch.context() as patch:
        patch.setattr(Prepared, "_run", recorded)
        yield seen


def set_actor(gym: Gym, env: Env, account_id: str) -> None:
    with gym.store.session(env) as db:
        set_meta(db, ACTOR_META_KEY, account_id)


def someone_else(run: Run) -> str:
    me = run(lambda jira: jira.actor_id)
    return run(lambda jira: jira.db.scalar(select(User.account_id).where(User.account_id != me, User.active.is_(True)).order_by(User.account_id)))


def test_a_comment_reads_its_issue_and_author_together_and_its_meta_at_once(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    with statements(monkeypatch) as seen:
        shaped = run(lambda jira: jira.add_comment(issue="SUP-1", body="Reproduced on staging"))
    users = [sql for sql, _ in seen if "tickets_users" in sql]
    assert len(users) == 1 and "tickets_issues" in users[0], "the author is read with the issue"
    metas = [params for sql, params in seen if "FROM og_meta" in sql]
    assert len([p for p in metas if ACTOR_META_KEY in str(p) or not p]) <= 1, "the actor is read with the other meta values, once"
    assert shaped["author"]["accountId"] == run(lambda jira: jira.actor_id) and shaped["body"]["content"][0]["content"][0]["text"] == "Reproduced on staging"


def test_the_author_is_whoever_acts_in_that_call(gym: Gym, env: Env, run: Run) -> None:
    first = run(lambda jira: jira.add_comment(issue="SUP-2", body="first"))
    other = someone_else(run)
    set_actor(gym, env, other)  # as a task's setup may: the next call acts as them
    second = run(lambda jira: jira.add_comment(issue="SUP-2", body="second"))
    assert first["author"]["accountId"] != other and second["author"]["accountId"] == second["updateAuthor"]["accountId"] == other
    explicit = run(lambda jira: jira.add_comment(issue="SUP-2", body="third", style="simplified"), as_user=first["author"]["accountId"])
    assert explicit["author"] == first["author"]["displayName"]
    set_actor(gym, env, "nobody-here")  # an actor who is no user: the comment is theirs, with no user shown
    nobody = run(lambda jira: jira.add_comment(issue="10003", body="fourth"))
    assert nobody["author"] is None and nobody["updateAuthor"] is None
    authors = run(lambda jira: list(jira.db.scalars(select(Comment.author_id).where(Comment.body.in_(["first", "second", "third", "fourth"])).order_by(Comment.id))))
    assert authors == [first["author"]["accountId"], other, first["author"]["accountId"], "nobody-here"]


def test_a_comment_is_stamped_by_the_clock_as_it_is_in_that_call(gym: Gym, env: Env, run: Run) -> None:
    before = run(lambda jira: jira.add_comment(issue="SUP-3", body="before"))
    with gym.store.session(env) as db:
        clock.advance(db, seconds=3 * 86_400)  # three days pass in the company
    after = run(lambda jira: jira.add_comment(issue="SUP-3", body="after"))
    assert after["created"][:10] > before["created"][:10], "the clock moved between the calls: the comment says so"
    issue_updated = run(lambda jira: jira.db.scalar(select(Issue.updated).where(Issue.key == "SUP-3")))
    assert issue_updated == after["created"] == after["updated"], "the issue is updated at the comment's time"
    assert run(lambda jira: clock.now(jira.db)).strftime("%Y-%m-%dT%H:%M:%S") == after["created"][:19]


def test_a_failed_comment_leaves_the_next_call_reading_afresh(gym: Gym, env: Env, run: Run) -> None:
    with pytest.raises(TicketsError, match="does not exist"):
        run(lambda jira: jira.add_comment(issue="SUP-99999", body="lost"))
    other = someone_else(run)
    set_actor(gym, env, other)
    assert run(lambda jira: jira.add_comment(issue="SUP-4", body="kept"))["author"]["accountId"] == other


def test_each_env_reads_its_own_actor(gym: Gym, env: Env, run: Run) -> None:
    other_env = gym.create()
    try:
        other = someone_else(run)
        set_actor(gym, other_env, other)
        elsewhere: Callable[..., Any] = runner(gym, other_env)
        assert elsewhere(lambda jira: jira.add_comment(issue="SUP-5", body="there"))["author"]["accountId"] == other
        assert run(lambda jira: jira.add_comment(issue="SUP-5", body="here"))["author"]["accountId"] != other
    finally:
        gym.delete(other_env.id)
