"""What a value write keeps or skips to stay cheap gives what the long way gives: a range read
kept between edits shows each new value (and is never changed under a formula holding it),
a formula's precedents are stored as its current ones, the modified time a write sets is the
stored one and the one the session's spreadsheet shows, and a search reads text cells from
their own index."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import select

from apps.sheets import search_text
from apps.sheets.a1 import GridRange
from apps.sheets.formulas.engine import Book, SheetInfo, deps_json
from apps.sheets.models import Cell, Spreadsheet
from apps.sheets.service import SheetsService
from officegym.core.env_store import Env
from officegym.gym import Gym
from tests.apps.sheets.conftest import Run


def test_a_range_read_kept_between_edits_shows_each_new_value_and_stays_as_it_was_read() -> None:
    book = Book([SheetInfo(0, "S", 100, 26)], now=datetime(2026, 1, 1))
    for r in range(5):
        book.set_input((0, r, 0), float(r + 1))
        book.set_input((0, r, 1), "x" if r % 2 else "y")
    book.set_formula((0, 0, 3), "=SUM(A1:A5)")
    book.set_formula((0, 1, 3), '=SUMIF(B1:B5,"x",A1:A5)')
    book.set_formula((0, 2, 3), "=A3*2")
    book.recalc_all()
    first = book.read(0, GridRange(None, 0, 0, 5, 1))
    assert first.rows == [[1.0], [2.0], [3.0], [4.0], [5.0]]
    for value in (30.0, 7.5, None, 3.0):
        book.set_input((0, 2, 0), value)
        book.recalc({(0, 2, 0)}, include_self=True)
        shown = 0.0 if value is None else value
        assert [book.get((0, r, 3)) for r in range(3)] == [12.0 + shown, 6.0, shown * 2]
        assert book.read(0, GridRange(None, 0, 0, 5, 1)).rows == [[1.0], [2.0], [value], [4.0], [5.0]]
    assert first.rows == [[1.0], [2.0], [3.0], [4.0], [5.0]], "a range read is never changed in place"


def test_each_list_of_precedents_is_written_as_itself() -> None:
    one, other = [(0, 1, 1, 2, 2)], [(0, 0, 0, 5, 1), (1, 2, 3, None, None)]
    for _ in range(2):
        assert deps_json(one) == json.dumps(one, separators=(",", ":"))
        assert deps_json(other) == json.dumps(other, separators=(",", ":"))


def _stored(gym: Gym, env: Env, spreadsheet_id: str, row: int, col: int) -> tuple[str | None, str | None]:
    with gym.store.session(env) as db:
        found = db.execute(select(Cell.formula, Cell.deps).where(Cell.spreadsheet_id == spreadsheet_id, Cell.sheet_id == 0,
                                                                  Cell.row == row, Cell.col == col)).one()
        return found.formula, found.deps


def test_a_formula_typed_over_another_stores_its_own_precedents(gym: Gym, env: Env, run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!C1", [["=A1+1"]], "USER_ENTERED"))
    assert _stored(gym, env, blank, 0, 2) == ("=A1+1", "[[0,0,0,1,1]]")
    run(lambda s: s.values_update(blank, "Sheet1!C1", [["=SUM(B2:B4)"]], "USER_ENTERED"))
    assert _stored(gym, env, blank, 0, 2) == ("=SUM(B2:B4)", "[[0,1,1,4,2]]")
    run(lambda s: s.values_update(blank, "Sheet1!C1", [["=NOW()+B2"]], "USER_ENTERED"))
    assert _stored(gym, env, blank, 0, 2) == ("=NOW()+B2", '[[0,1,1,2,2],"v"]')  # volatile: recalculated on every write
    run(lambda s: s.values_update(blank, "Sheet1!C1", [["=TODAY()"]], "USER_ENTERED"))
    assert _stored(gym, env, blank, 0, 2) == ("=TODAY()", '["v"]')
    run(lambda s: s.values_update(blank, "Sheet1!B2", [["5"]], "USER_ENTERED"))  # a write that recalculates C1 keeps them
    assert _stored(gym, env, blank, 0, 2) == ("=TODAY()", '["v"]')


def test_a_write_sets_the_modified_time_the_session_and_a_search_show(gym: Gym, env: Env, run: Run, forecast: str) -> None:
    def modified(db: object) -> str:
        return db.scalar(select(Spreadsheet.modified).where(Spreadsheet.id == forecast))  # type: ignore[attr-defined]

    with gym.store.session(env) as db:
        sheets = SheetsService(db)
        before = sheets.spreadsheet(forecast).modified
        sheets.values_batch_update(forecast, [{"range": "Pipeline!F2", "values": [["1234"]]}], "USER_ENTERED")
        once = sheets.spreadsheet(forecast).modified  # the session's object, no read of its own
        assert once > before and once == modified(db)
        sheets.values_update(forecast, "Pipeline!F3", [["99"]], "USER_ENTERED")  # a second write in the same transaction
        twice = sheets.spreadsheet(forecast).modified
        assert twice > once and twice == modified(db)
    found = run(lambda s: s.files_search("Sales Forecast"))
    assert [f["modified_time"] for f in found if f["id"] == forecast] == [twice]


def test_a_search_on_sqlite_reads_text_cells_from_their_index(gym: Gym, env: Env) -> None:
    with gym.store.session(env) as db:
        dialect = db.get_bind().dialect
        if dialect.name != "sqlite":
            return  # PostgreSQL reads the cells in one pass (drive.SEARCH_IN_SQL)
        for statement in (search_text.TEXT_CELLS, search_text.IN_CONTENT):  # kept per revision, or matched in SQL
            compiled = statement.statement.compile(dialect=dialect)
            values = compiled.construct_params({"ss": "x", "pattern": "%x%"})
            plan = db.connection().exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled.string}", tuple(values[k] for k in compiled.positiontup)).all()
            assert any("ix_sheets_cells_text" in row[-1] for row in plan), plan


def test_a_spilled_array_whose_formula_is_cleared_or_typed_over_leaves_no_cells_behind(run: Run, blank: str) -> None:
    """Clearing the anchor of =SEQUENCE(4) (values.clear, or an empty value written) empties
    the cells it spilled into, in storage too, and what reads them recalculates, as in Google
    Sheets; typing over the anchor does the same for the rest of the array."""
    def values(rng: str) -> list[list[object]]:
        return run(lambda s: s.values_get(blank, rng, valueRenderOption="FORMULA")).get("values", [])

    def write(rng: str, value: object) -> None:
        run(lambda s: s.values_update(blank, rng, [[value]], "USER_ENTERED"))

    write("Sheet1!C1", "=COUNTA(A1:A10)")
    for clear in (lambda: run(lambda s: s.values_clear(blank, "Sheet1!A1")), lambda: write("Sheet1!A1", ""), lambda: write("Sheet1!A1", "typed")):
        write("Sheet1!A1", "=SEQUENCE(4)")
        assert values("Sheet1!A1:A4") == [["=SEQUENCE(4)"], [2], [3], [4]] and values("Sheet1!C1")[0][0] == "=COUNTA(A1:A10)"
        assert run(lambda s: s.values_get(blank, "Sheet1!C1"))["values"] == [["4"]]
        clear()
        left = values("Sheet1!A1:A4")
        assert left in ([], [["typed"]]), left
        counted = "1" if left else "0"
        assert run(lambda s: s.values_get(blank, "Sheet1!C1"))["values"] == [[counted]]
        stored = run(lambda s: s.db.scalars(select(Cell.row).where(Cell.spreadsheet_id == blank, Cell.sheet_id == 0, Cell.col == 0)).all())
        assert sorted(stored) == ([0] if left else []), stored
