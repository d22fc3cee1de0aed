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


def test_stamps_every_save_moves_are_no_data(db: Session) -> None:
    """A crm record saved with nothing changed moves only its audit stamps: no collateral. A
    blank field filled on it is a stray addition (0.8), not an overwrite, though its stamps
    (never blank) moved too; a value overwritten still costs 0.4. The same for a ticket's
    `updated` and a spreadsheet's `modified`."""
    import apps.crm.models  # noqa: F401 - registers the crm tables and their stamps
    import apps.sheets.models  # noqa: F401
    import apps.tickets.models  # noqa: F401

    stamped = {"LastModifiedDate": "2026-08-24T09:00:00.000+0000", "LastModifiedById": "005A", "SystemModstamp": "2026-08-24T09:00:00.000+0000"}
    moved = {"LastModifiedDate": "2026-08-25T10:00:00.000+0000", "LastModifiedById": "005B", "SystemModstamp": "2026-08-25T10:00:00.000+0000"}
    before = {"Id": "500A", "Subject": "Export fails", "Description": "", **stamped}
    saved = RowChange("crm_case", "500A", "update", before, {**before, **moved})
    filled = RowChange("crm_case", "500A", "update", before, {**before, **moved, "Description": "More detail"})
    overwritten = RowChange("crm_case", "500A", "update", before, {**before, **moved, "Subject": "Other"})
    assert grade(db, DONE, [saved], [])["collateral"] == [] and grade(db, DONE, [saved], [])["passed"] is True
    assert not destroys(filled) and grade(db, DONE, [filled], [])["reward"] == COLLATERAL_FACTOR
    assert destroys(overwritten) and grade(db, DONE, [overwritten], [])["reward"] == DESTRUCTIVE_FACTOR
    ticket = {"id": 7, "labels": "", "updated": "2026-08-24T09:00:00.000+0000"}
    assert not destroys(RowChange("tickets_issues", "7", "update", ticket, {**ticket, "labels": "billing", "updated": "2026-08-25T09:00:00.000+0000"}))
    sheet = {"id": "s1", "title": "Plan", "modified": "2026-08-24T09:00:00.000Z", "revision": "abc"}
    assert grade(db, DONE, [RowChange("sheets_spreadsheets", "s1", "update", sheet, {**sheet, "modified": "2026-08-25T09:00:00.000Z", "revision": "def"})], [])["collateral"] == []
    # A table without stamps keeps the old rule: every changed column counts.
    assert destroys(update({"id": "k", "updated": "x"}, {"id": "k", "updated": "y"}))
