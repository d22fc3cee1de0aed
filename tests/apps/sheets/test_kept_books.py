"""A spreadsheet's book kept between operations (apps/sheets/kept_books.py) is used again only
when the stored cells are provably what it was built from: whatever wrote last (any face, a
rolled-back transaction, a restored database, another env, a task's setup, a structural edit),
every operation computes from the cells as stored, exactly as a fresh load would."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import select

from apps.sheets import kept_books
from apps.sheets.errors import SheetsError
from apps.sheets.models import Cell, Spreadsheet
from apps.sheets.operations import OPERATIONS
from apps.sheets.store import StoredBook
from officegym.core.env_store import Env
from officegym.core.ops import invoke
from officegym.gym import Gym
from tests.apps.sheets.conftest import Run


def _fresh(gym: Gym, env: Env, spreadsheet_id: str) -> list[dict[str, Any]]:
    """The cells a load that never looks at kept books builds (as rows `save` would store)."""
    with gym.store.session(env) as db:
        return StoredBook(db, spreadsheet_id, datetime(2026, 1, 1)).cell_rows()


def _kept(env: Env, spreadsheet_id: str) -> StoredBook | None:
    return kept_books._KEPT.get((env.handle, spreadsheet_id))


def _revision(gym: Gym, env: Env, spreadsheet_id: str) -> str | None:
    with gym.store.session(env) as db:
        return db.scalar(select(Spreadsheet.revision).where(Spreadsheet.id == spreadsheet_id))


def _call(gym: Gym, env: Env, face: str, operation: str, **args: Any) -> dict[str, Any]:
    return invoke(gym.store, env, OPERATIONS, OPERATIONS[operation], args, face=face, tool="test")


def _summary(run: Run, forecast: str) -> list[list[Any]]:
    return run(lambda s: s.values_get(forecast, "Summary!A1:D40", valueRenderOption="UNFORMATTED_VALUE"))["values"]


def _check(gym: Gym, env: Env, forecast: str) -> None:
    """The kept book is the one the cells as stored give."""
    kept = _kept(env, forecast)
    assert kept is not None, "a saved book is kept"
    assert kept.cell_rows() == _fresh(gym, env, forecast)


def test_writes_through_every_face_reuse_the_kept_book_and_match_a_fresh_load(gym: Gym, env: Env, forecast: str, run: Run) -> None:
    _call(gym, env, "rest", "sheets.values.batchUpdate", spreadsheetId=forecast, valueInputOption="USER_ENTERED",
          data=[{"range": "Pipeline!F2", "values": [["12345"]]}])
    first = _kept(env, forecast)
    _check(gym, env, forecast)
    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F3", data=[["777"]])
    assert _kept(env, forecast) is first, "the next write took the kept book instead of loading"
    _check(gym, env, forecast)
    _call(gym, env, "ui", "sheets.values.update", spreadsheetId=forecast, range="Pipeline!E2", values=[["Closed Won"]],
          valueInputOption="USER_ENTERED")
    assert _kept(env, forecast) is first
    _check(gym, env, forecast)
    # A structural edit rewrites the cells without a revision; the next write loads afresh.
    _call(gym, env, "rest", "sheets.spreadsheets.batchUpdate", spreadsheetId=forecast, requests=[
        {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 3, "endIndex": 4}}}])
    assert str(_revision(gym, env, forecast)).startswith("!")
    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F2", data=[["1"]])
    assert _kept(env, forecast) is not first
    _check(gym, env, forecast)
    won = next(row for row in _summary(run, forecast) if row[0] == "Closed Won")
    assert won[1] >= 1


def test_a_rolled_back_write_is_not_what_the_next_operation_computes_from(gym: Gym, env: Env, forecast: str, run: Run) -> None:
    _call(gym, env, "rest", "sheets.values.batchUpdate", spreadsheetId=forecast, valueInputOption="USER_ENTERED",
          data=[{"range": "Pipeline!F2", "values": [["1000"]]}])
    total_before = next(row for row in _summary(run, forecast) if row[0] == "Total")
    with pytest.raises(SheetsError):  # the first range is written and saved, the second fails: all rolled back
        _call(gym, env, "rest", "sheets.values.batchUpdate", spreadsheetId=forecast, valueInputOption="USER_ENTERED",
              data=[{"range": "Pipeline!F2", "values": [["999999"]]}, {"range": "Nowhere!A1", "values": [["x"]]}])
    assert _kept(env, forecast) is not None  # the failed operation's save kept its book…
    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="G2", data=[["2026-05-01"]])
    _check(gym, env, forecast)  # …which the next operation did not trust
    assert next(row for row in _summary(run, forecast) if row[0] == "Total") == total_before
    assert run(lambda s: s.values_get(forecast, "Pipeline!F2", valueRenderOption="UNFORMATTED_VALUE"))["values"] == [[1000]]


def test_a_restored_database_is_read_afresh(gym: Gym, env: Env, forecast: str) -> None:
    with gym.store.session(env) as db:
        cells = [dict(r._mapping) for r in db.execute(select(Cell.__table__).where(Cell.spreadsheet_id == forecast))]
        head = dict(db.execute(select(Spreadsheet.__table__).where(Spreadsheet.id == forecast)).one()._mapping)
    for n in (5, 6):
        _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F2", data=[[str(n)]])
    with gym.store.session(env) as db:  # the spreadsheet as it was, revision and all, as a snapshot restores it
        db.execute(Cell.__table__.delete().where(Cell.spreadsheet_id == forecast))
        db.execute(Cell.__table__.insert(), cells)
        db.execute(Spreadsheet.__table__.update().where(Spreadsheet.id == forecast).values(revision=head["revision"]))
    assert _kept(env, forecast) is not None
    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="G3", data=[["2026-06-01"]])
    _check(gym, env, forecast)
    with gym.store.session(env) as db:
        f2 = db.execute(select(Cell.value).where(Cell.spreadsheet_id == forecast, Cell.sheet_id == 0, Cell.row == 1, Cell.col == 5)).scalar()
    assert f2 == next(c["value"] for c in cells if (c["sheet_id"], c["row"], c["col"]) == (0, 1, 5))


def test_envs_never_see_each_others_books_and_a_reused_database_starts_over(gym: Gym, forecast: str) -> None:
    a, b = gym.create(), gym.create()
    try:
        _call(gym, a, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F2", data=[["424242"]])
        _call(gym, b, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F3", data=[["31"]])
        for env in (a, b):
            _check(gym, env, forecast)
        with gym.store.session(b) as db:
            f2 = db.execute(select(Cell.value).where(Cell.spreadsheet_id == forecast, Cell.sheet_id == 0, Cell.row == 1, Cell.col == 5)).scalar()
        assert f2 != "424242.0"
        handle = a.handle
        gym.delete(a.id)
        c = gym.create()  # on SQLite, the deleted env's file reset and reused
        try:
            assert c.handle.split("@")[0] == handle.split("@")[0] or gym.store.backend_name != "sqlite"
            _call(gym, c, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F4", data=[["8"]])
            _check(gym, c, forecast)
        finally:
            gym.delete(c.id)
    finally:
        gym.delete(b.id)


def test_a_book_saved_outside_the_service_makes_the_kept_one_stale(gym: Gym, env: Env, forecast: str, run: Run) -> None:
    from apps.sheets.entry import Entered
    from tasks.sheets._common import load

    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F2", data=[["50"]])
    with gym.store.session(env) as db:  # as a task's setup edits the env: a book of its own
        other = load(db, forecast)
        other.write({(0, 1, 5): Entered(None, 60.0)})
        other.save()
    assert str(_revision(gym, env, forecast)).startswith("!")
    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F3", data=[["70"]])
    _check(gym, env, forecast)
    assert run(lambda s: s.values_get(forecast, "Pipeline!F2:F3", valueRenderOption="UNFORMATTED_VALUE"))["values"] == [[60], [70]]


def test_the_same_writes_give_the_same_revisions_in_any_env(gym: Gym, forecast: str) -> None:
    envs = [gym.create(), gym.create()]
    try:
        revisions = []
        for env in envs:
            for n, cell in enumerate(("F2", "F5", "E2")):
                value = "Closed Won" if cell == "E2" else str(100 + n)
                _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range=cell, data=[[value]])
            revisions.append(_revision(gym, env, forecast))
        assert revisions[0] == revisions[1] and kept_books.known(revisions[0])
    finally:
        for env in envs:
            gym.delete(env.id)


def _count_cell_reads(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """From now on, every read of a spreadsheet's cells is noted in the list returned."""
    from apps.sheets import store

    reads: list[dict[str, Any]] = []
    cells = store.CELLS

    class Counted:
        def tuples(self, *args: Any, **params: Any) -> Any:
            reads.append(params)
            return cells.tuples(*args, **params)

    monkeypatch.setattr(store, "CELLS", Counted())
    return reads


def test_the_probe_write_takes_no_cell_read(gym: Gym, env: Env, forecast: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of keeping books: a repeated write reads the revision, not the cells."""

    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F2", data=[["1"]])
    reads = _count_cell_reads(monkeypatch)
    for n in range(2, 5):
        _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Pipeline", range="F2", data=[[str(n)]])
    assert reads == []
    monkeypatch.undo()
    _check(gym, env, forecast)


def test_a_task_setup_leaves_a_known_revision_and_the_first_write_reads_no_cell(gym: Gym, monkeypatch: pytest.MonkeyPatch) -> None:
    """A setup edits a copy of the template's book, which knows the template's revision: its
    save names the env's cells, and the agent's first write takes the book the setup kept."""

    env = gym.create("sheets/reconcile-tabs-v1")
    try:
        with gym.store.session(env) as db:
            forecast = db.scalar(select(Spreadsheet.id).where(Spreadsheet.title.startswith("Sales Forecast")))
        assert kept_books.known(_revision(gym, env, forecast))
        reads = _count_cell_reads(monkeypatch)
        _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=forecast, sheet="Invoices", range="C1", data=[["Status"]])
        assert reads == []
        monkeypatch.undo()
        _check(gym, env, forecast)
    finally:
        gym.delete(env.id)


def test_a_tab_copied_in_is_read_by_the_next_write(gym: Gym, env: Env, forecast: str, blank: str, run: Run) -> None:
    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=blank, sheet="Sheet1", range="A1", data=[["1"]])
    assert _kept(env, blank) is not None
    _call(gym, env, "rest", "sheets.sheets.copyTo", spreadsheetId=forecast, sheetId=0, destinationSpreadsheetId=blank)
    assert str(_revision(gym, env, blank)).startswith("!")
    _call(gym, env, "mcp", "sheets.updateCells", spreadsheet_id=blank, sheet="Sheet1", range="B1", data=[["='Copy of Pipeline'!F2*2"]])
    _check(gym, env, blank)
    f2 = run(lambda s: s.values_get(forecast, "Pipeline!F2", valueRenderOption="UNFORMATTED_VALUE"))["values"][0][0]
    assert run(lambda s: s.values_get(blank, "Sheet1!B1", valueRenderOption="UNFORMATTED_VALUE"))["values"] == [[f2 * 2]]
