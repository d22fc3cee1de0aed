"""The rubric's collateral rules: destroying what was there costs more than a stray addition,
one destroying change alone takes a perfect solution below the pass line, and an allowance
may depend on final state (`Expect.given`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from graders.checks import Check, passed
from graders.diff import RowChange
from graders.rubric import COLLATERAL_FACTOR, DESTRUCTIVE_FACTOR, PASS_LINE, Expect, destroys, grade


@pytest.fixture
def db() -> Iterator[Session]:
    engine = create_engine("sqlite://")
    with Session(engine) as session:
        yield session
    engine.dispose()


DONE = [Check("done", lambda _db: passed("ok"))]


def update(before: dict, after: dict) -> RowChange:
    return RowChange("t", "k", "update", before, after)


def test_what_destroys_data() -> None:
    assert destroys(RowChange("t", "k", "delete", {"id": "k"}, None))
    assert destroys(update({"id": "k", "archived": 0}, {"id": "k", "archived": 1})), "False is a value: archiving overwrites it"
    assert destroys(update({"id": "k", "text": "old"}, {"id": "k", "text": "new"}))
    assert not destroys(update({"id": "k", "thread_ts": None}, {"id": "k", "thread_ts": "1.2"})), "filling a blank"
    assert not destroys(update({"id": "k", "topic": ""}, {"id": "k", "topic": "set"}))
    assert not destroys(RowChange("t", "k", "insert", None, {"id": "k"}))


def test_one_destroying_change_takes_a_perfect_solution_below_the_pass_line(db: Session) -> None:
    archived = update({"id": "k", "archived": 0}, {"id": "k", "archived": 1})
    result = grade(db, DONE, [archived], [])
    assert result["reward"] == pytest.approx(DESTRUCTIVE_FACTOR) and result["reward"] < PASS_LINE
    assert not result["passed"]
    stray = grade(db, DONE, [RowChange("t", "n", "insert", None, {"id": "n"})], [])
    assert stray["reward"] == pytest.approx(COLLATERAL_FACTOR) and not stray["passed"], "a stray addition hurts less"


def test_an_allowance_can_depend_on_final_state(db: Session) -> None:
    db.execute(text("CREATE TABLE channels (id TEXT, name TEXT)"))
    db.execute(text("INSERT INTO channels VALUES ('C9', 'proj-x')"))
    reads = []

    def new_channel(session: Session) -> str:
        reads.append(1)
        return session.execute(text("SELECT id FROM channels WHERE name = 'proj-x'")).scalar_one()

    members = Expect("members", "insert", lambda c, channel: c.row["channel_id"] == channel, given=new_channel)
    inside = RowChange("members", "C9/U1", "insert", None, {"channel_id": "C9", "user_id": "U1"})
    outside = RowChange("members", "C8/U1", "insert", None, {"channel_id": "C8", "user_id": "U1"})
    result = grade(db, DONE, [inside, outside], [members])
    assert [c["key"] for c in result["collateral"]] == ["C8/U1"]
    assert reads == [1], "final state is read once per grade, not once per row"


def test_an_allowance_whose_state_cannot_be_read_allows_nothing(db: Session) -> None:
    def broken(_session: Session) -> str:
        raise LookupError("no such channel")

    members = Expect("members", "insert", lambda c, channel: channel is not None, given=broken)
    row = RowChange("members", "C9/U1", "insert", None, {"channel_id": "C9"})
    result = grade(db, DONE, [row], [members])
    assert result["collateral"] and not result["passed"]
