"""Graders: the row diff of final state against start state, and the rubric that turns checks
and collateral changes into a reward."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from graders.checks import Check, CheckResult, failed, passed
from graders.diff import RowChange, diff_databases, diff_env
from graders.rubric import COLLATERAL_FACTOR, DESTRUCTIVE_FACTOR, PASS_LINE, Expect, grade, partial

SCHEMA = """
CREATE TABLE people (id TEXT PRIMARY KEY, name TEXT, title TEXT);
CREATE TABLE members (channel TEXT, user TEXT, role TEXT, PRIMARY KEY (channel, user));
CREATE TABLE notes (body TEXT);
CREATE TABLE noise (id INTEGER PRIMARY KEY, value TEXT);
"""


def make_db(path: Path, rows: str) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA + rows)
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def start(tmp_path: Path) -> Path:
    return make_db(
        tmp_path / "start.db",
        """
        INSERT INTO people VALUES ('P1', 'Ada', 'Engineer'), ('P2', 'Grace', 'Admiral'), ('P3', 'Alan', 'Analyst');
        INSERT INTO members VALUES ('C1', 'P1', 'member'), ('C1', 'P2', 'owner');
        INSERT INTO notes VALUES ('keep'), ('drop');
        INSERT INTO noise VALUES (1, 'a');
        """,
    )


def test_identical_databases_have_no_changes(tmp_path: Path, start: Path) -> None:
    same = make_db(
        tmp_path / "same.db",
        """
        INSERT INTO people VALUES ('P1', 'Ada', 'Engineer'), ('P2', 'Grace', 'Admiral'), ('P3', 'Alan', 'Analyst');
        INSERT INTO members VALUES ('C1', 'P2', 'owner'), ('C1', 'P1', 'member');
        INSERT INTO notes VALUES ('drop'), ('keep');
        INSERT INTO noise VALUES (1, 'a');
        """,
    )
    assert diff_databases(same, start) == []


def test_diff_reports_inserts_updates_deletes_with_keys_and_columns(tmp_path: Path, start: Path) -> None:
    live = make_db(
        tmp_path / "live.db",
        """
        INSERT INTO people VALUES ('P1', 'Ada', 'Principal Engineer'), ('P2', 'Grace', 'Admiral'), ('P4', 'Edsger', 'Professor');
        INSERT INTO members VALUES ('C1', 'P1', 'owner'), ('C1', 'P2', 'owner'), ('C2', 'P4', 'member');
        INSERT INTO notes VALUES ('keep'), ('added');
        INSERT INTO noise VALUES (1, 'b'), (2, 'c');
        CREATE TABLE only_live (x TEXT);
        INSERT INTO only_live VALUES ('ignored: not in the start state');
        """,
    )
    changes = diff_databases(live, start, exclude=frozenset({"noise"}))
    summary = {(c.table, c.key, c.change, c.changed_columns) for c in changes}
    assert summary == {
        ("people", "P1", "update", ("title",)),
        ("people", "P3", "delete", ()),
        ("people", "P4", "insert", ()),
        ("members", "C1/P1", "update", ("role",)),
        ("members", "C2/P4", "insert", ()),
        ("notes", "added", "insert", ()),  # no primary key: the whole row is the key
        ("notes", "drop", "delete", ()),
    }
    assert len(changes) == len(summary)
    by_key = {(c.table, c.key): c for c in changes}
    update = by_key[("people", "P1")]
    assert update.before == {"id": "P1", "name": "Ada", "title": "Engineer"}
    assert update.after == {"id": "P1", "name": "Ada", "title": "Principal Engineer"}
    assert update.describe() == "update (title)"
    deleted = by_key[("people", "P3")]
    assert deleted.after is None and deleted.row == {"id": "P3", "name": "Alan", "title": "Analyst"}
    assert deleted.describe() == "delete"
    inserted = by_key[("members", "C2/P4")]
    assert inserted.before is None and inserted.row == {"channel": "C2", "user": "P4", "role": "member"}

    with_noise = diff_databases(live, start)
    noise = [(c.key, c.change) for c in with_noise if c.table == "noise"]
    assert noise == [("1", "update"), ("2", "insert")], "a table is only skipped when excluded"


def test_diff_does_not_write_either_file(tmp_path: Path, start: Path) -> None:
    live = make_db(tmp_path / "live.db", "INSERT INTO people VALUES ('P9', 'Zed', 'Temp');")
    before = (start.read_bytes(), live.read_bytes())
    diff_databases(live, start)
    assert (start.read_bytes(), live.read_bytes()) == before


# -- rubric --------------------------------------------------------------------------------
@pytest.fixture
def db() -> Iterator[Session]:
    engine = create_engine("sqlite://")
    with Session(engine) as session:
        yield session
    engine.dispose()


def change(table: str, key: str, kind: str = "insert", row: dict | None = None) -> RowChange:
    row = row or {"id": key}
    return RowChange(table, key, kind, None if kind == "insert" else row, None if kind == "delete" else row)


def const(result: CheckResult):
    return lambda _db: result


def test_reward_is_the_weighted_share_of_passed_checks(db: Session) -> None:
    checks = [Check("big", const(passed("ok")), weight=3.0), Check("small", const(failed("nope")), weight=1.0)]
    result = grade(db, checks, [], [])
    assert result["reward"] == pytest.approx(partial(0.75)) and result["reward"] < PASS_LINE, "3/4 of the weight is not the task done"
    assert result["passed"] is False
    assert result["share"] == 0.75, "the share met is reported as it is, for a study's own shaping"
    assert result["checks"] == [
        {"name": "big", "weight": 3.0, "passed": True, "detail": "ok"},
        {"name": "small", "weight": 1.0, "passed": False, "detail": "nope"},
    ]
    assert result["collateral"] == []

    everything = grade(db, [Check("big", const(passed("ok")), weight=3.0)], [], [])
    assert everything["reward"] == 1.0 and everything["passed"] is True


def test_a_partial_solution_stays_below_the_pass_line_and_more_of_it_scores_more(db: Session) -> None:
    """Four equal checks: any three passing is not the task done (it scored 0.75), yet three
    score more than two, two more than one."""
    def with_passing(n: int) -> float:
        checks = [Check(str(i), const(passed("ok") if i < n else failed("no"))) for i in range(4)]
        return grade(db, checks, [], [])["reward"]

    scores = [with_passing(n) for n in range(5)]
    assert scores[0] == 0.0 and scores[4] == 1.0
    assert all(a < b for a, b in zip(scores, scores[1:], strict=False)), scores
    assert all(s < PASS_LINE for s in scores[:4]), scores
    assert scores[1] == pytest.approx(0.25), "a small share is kept as it is"


def test_checks_read_the_database(db: Session) -> None:
    db.execute(text("CREATE TABLE t (x INTEGER)"))
    db.execute(text("INSERT INTO t VALUES (41)"))

    def is_41(session: Session) -> CheckResult:
        value = session.execute(text("SELECT x FROM t")).scalar_one()
        return passed("41") if value == 41 else failed(f"x is {value}")

    assert grade(db, [Check("x is 41", is_41)], [], [])["passed"] is True
    db.execute(text("UPDATE t SET x = 42"))
    result = grade(db, [Check("x is 41", is_41)], [], [])
    assert result["passed"] is False and result["checks"][0]["detail"] == "x is 42"


def test_collateral_costs_a_fifth_per_change_and_fails_the_grade(db: Session) -> None:
    checks = [Check("done", const(passed("ok")))]
    allowed = [Expect("chat_messages", "insert", lambda c: c.row.get("channel_id") == "C1")]
    changes = [
        change("chat_messages", "C1/1", row={"channel_id": "C1"}),  # expected
        change("chat_messages", "C2/1", row={"channel_id": "C2"}),  # wrong channel
        change("chat_channels", "C3"),  # another table
        change("chat_messages", "C1/0", kind="delete", row={"channel_id": "C1"}),  # wrong kind
    ]
    result = grade(db, checks, changes, allowed)
    assert COLLATERAL_FACTOR == 0.8
    assert result["reward"] == pytest.approx(0.8**2 * DESTRUCTIVE_FACTOR), "the delete destroys data: it costs more"
    assert result["passed"] is False, "any collateral damage fails the grade, even with every check passing"
    assert result["collateral"] == [
        {"table": "chat_messages", "key": "C2/1", "change": "insert"},
        {"table": "chat_channels", "key": "C3", "change": "insert"},
        {"table": "chat_messages", "key": "C1/0", "change": "delete"},
    ]

    only_expected = grade(db, checks, changes[:1], allowed)
    assert only_expected["reward"] == 1.0 and only_expected["passed"] is True and only_expected["collateral"] == []

    update = RowChange("t", "k", "update", {"id": "k", "a": 1, "b": 1}, {"id": "k", "a": 2, "b": 1})
    any_change = grade(db, checks, [update], [Expect("t", "any")])
    assert any_change["collateral"] == []
    reported = grade(db, checks, [update], [Expect("t", "insert")])
    assert reported["collateral"] == [{"table": "t", "key": "k", "change": "update (a)"}]
    assert reported["reward"] == pytest.approx(DESTRUCTIVE_FACTOR), "overwriting a value destroys it"


def test_collateral_scales_a_partial_score(db: Session) -> None:
    checks = [Check("a", const(passed("ok"))), Check("b", const(failed("no")))]
    result = grade(db, checks, [change("x", "1"), change("x", "2")], [])
    assert result["reward"] == pytest.approx(partial(0.5) * 0.8**2)
    assert result["share"] == 0.5 and result["collateral"], "the share is of the checks alone; collateral is listed apart"


def test_a_crashing_check_fails_without_crashing_the_grade(db: Session) -> None:
    def crashes(_db: Session) -> CheckResult:
        raise KeyError("missing-row")

    checks = [Check("crashes", crashes, weight=1.0), Check("fine", const(passed("ok")), weight=1.0)]
    result = grade(db, checks, [], [])
    assert result["reward"] == pytest.approx(partial(0.5))
    assert result["passed"] is False
    crashed = result["checks"][0]
    assert crashed["passed"] is False and "KeyError" in crashed["detail"] and "missing-row" in crashed["detail"]
    assert result["checks"][1]["passed"] is True


def test_no_checks_is_never_a_pass(db: Session) -> None:
    result = grade(db, [], [], [])
    assert result["reward"] == 0.0 and result["passed"] is False


# -- the diff on a real env ----------------------------------------------------------------
def test_a_post_is_exactly_one_inserted_row_and_reads_change_nothing(gym, env) -> None:
    from apps.chat.operations import OPERATIONS
    from officegym.apps import not_company_state
    from officegym.core.ops import invoke

    NOT_COMPANY_STATE = not_company_state()

    def call(operation: str, **args):
        return invoke(gym.store, env, OPERATIONS, OPERATIONS[operation], args, face="mcp", tool=operation, log_reads=True)

    general = call("conversations.list", limit=1000)["channels"][0]["id"]
    call("conversations.history", channel=general)
    call("search.messages", query="the")
    assert diff_env(gym.store, env, exclude=NOT_COMPANY_STATE) == []
    assert {c.table for c in diff_env(gym.store, env)} == {"og_events"}, (
        "reads are logged, and move neither the clock nor any company row"
    )

    ts = call("chat.postMessage", channel=general, text="graded words")["ts"]
    changes = diff_env(gym.store, env, exclude=NOT_COMPANY_STATE)
    assert [(c.table, c.key, c.change) for c in changes] == [("chat_messages", f"{general}/{ts}", "insert")]
    assert changes[0].row["text"] == "graded words"
