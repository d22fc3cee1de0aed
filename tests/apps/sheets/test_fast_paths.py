"""The shortcuts that keep a rollout cheap give the answers the long way gives: a column of
copied formulas parsed through its shape, recalculation that skips formulas whose inputs kept
their values, a sort or a rewrite that writes only the cells it changed, an .xlsx read once
per file, and a grader's book read once per grade."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest

from apps.sheets import kept_books, store
from apps.sheets.formulas import parser
from apps.sheets.formulas.engine import Book, SheetInfo
from apps.sheets.formulas.values import CellError
from apps.sheets.store import StoredBook
from officegym.core.env_store import Env
from officegym.gym import Gym
from tasks.sheets._common import final, follows_inputs
from tests.apps.sheets.conftest import Run


def _direct(text: str) -> Any:
    try:
        return parser._parse_body(text[1:])
    except parser.FormulaSyntaxError as bad:
        return ("error", str(bad))


def _cached(text: str) -> Any:
    try:
        return parser.parse(text)
    except parser.FormulaSyntaxError as bad:
        return ("error", str(bad))


def test_formulas_parsed_through_their_shape_are_the_formulas_written() -> None:
    rng = random.Random(7)
    refs = ["A1", "$B$2", "C3:D9", "Sheet1!A1", "'My Tab'!B2:B", "A:A", "2:5", "Data!$A$2:$F$61", "ZZZ9", "R1C1"]
    others = ["Revenue", "TRUE", "1.5", '"x"', "#N/A", "foo", "x.y"]
    texts = [f"=SUMIFS(Pipeline!$F$2:$F$61,Pipeline!$D$2:$D$61,$A{n},Pipeline!$E$2:$E$61,B$1)" for n in range(2, 40)]
    texts += [f"=F{n}*H{n}" for n in range(2, 40)] + [f"=IF(B{n}=VLOOKUP(A{n},Pipeline!$A$2:$F$9,6,FALSE),\"OK\",\"X\")" for n in range(2, 9)]
    for _ in range(3000):
        atoms = [rng.choice(refs if rng.random() < 0.6 else others) for _ in range(rng.randint(1, 4))]
        glue = [rng.choice(["+", "*", "&", ",", "", " ", "(", ")", "-"]) for _ in atoms]
        body = "".join(a + g for a, g in zip(atoms, glue, strict=True))
        texts.append("=" + (f"SUM({body})" if rng.random() < 0.5 else body))
    texts += ["=A1+", "=SUM(A1:B2", "=A1 B2", "={A1,B2;C3,D4}", "=-A1%", "=fooA1", "=$A$1$A$1"]
    for text in texts:
        assert _cached(text) == _direct(text), text


def _book() -> Book:
    book = Book([SheetInfo(0, "S", 100, 26)], now=datetime(2026, 3, 2, 9))
    for r in range(6):
        book.set_input((0, r, 0), float(6 - r))
    return book


def test_a_volatile_date_moves_what_reads_it_only_when_the_date_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    book = _book()
    book.set_formula((0, 0, 2), "=TODAY()")
    book.set_formula((0, 0, 3), "=C1+1")
    book.set_formula((0, 0, 4), "=ISNUMBER(D1)")
    book.recalc_all()
    tomorrow = book.get((0, 0, 3))
    evaluated: list[Any] = []
    evaluate = book.evaluate_formula
    monkeypatch.setattr(book, "evaluate_formula", lambda key: evaluated.append(key) or evaluate(key))
    book.set_input((0, 5, 5), 1.0)
    assert book.recalc({(0, 5, 5)}, include_self=True) == set()
    assert evaluated == [(0, 0, 2)]  # the date held: what reads it is not recomputed
    book.now += timedelta(days=1)
    book.set_input((0, 5, 5), 2.0)
    assert book.recalc({(0, 5, 5)}, include_self=True) == {(0, 0, 2), (0, 0, 3)}
    assert book.get((0, 0, 3)) == tomorrow + 1 and book.get((0, 0, 4)) is True


def test_a_blocked_spill_reaches_what_reads_its_anchor_and_unblocking_restores_it() -> None:
    book = _book()
    book.set_formula((0, 7, 6), "=SORT(A1:A6)")
    book.set_formula((0, 1, 5), "=G8+1")
    book.recalc_all()
    assert book.get((0, 1, 5)) == 2.0
    book.set_input((0, 10, 6), "in the way")
    book.recalc({(0, 10, 6)}, include_self=True)
    blocked = book.get((0, 1, 5))
    assert isinstance(blocked, CellError) and "Array result was not expanded" in blocked.message
    book.set_input((0, 10, 6), None)
    book.recalc({(0, 10, 6)}, include_self=True)
    assert book.get((0, 1, 5)) == 2.0


def _changed_cells(gym: Gym, env: Env, spreadsheet_id: str) -> set[tuple[int, int]]:
    return {(c.row["row"], c.row["col"]) for c in gym.changes(env.id) if c.table == "sheets_cells" and c.row["spreadsheet_id"] == spreadsheet_id}


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The (row, col) of every cell row the store writes from here on (upserted, or its value
    set in place)."""
    rows: list[tuple[int, int]] = []

    class Spy:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def run_many(self, db: Any, given: list[dict[str, Any]]) -> None:
            rows.extend((r["row"], r["col"]) if "row" in r else (r["b_row"], r["b_col"]) for r in given)
            self.inner.run_many(db, given)

    for dialect, statement in list(store.UPSERT_CELL.items()):
        monkeypatch.setitem(store.UPSERT_CELL, dialect, Spy(statement))
    monkeypatch.setattr(store, "SET_CELL_VALUE", Spy(store.SET_CELL_VALUE))
    return rows


def test_a_sort_writes_only_the_cells_it_changed(run: Run, blank: str, written: list[tuple[int, int]]) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:C4", [[1, "a", "=A1*10"], [3, "b", "=A2*10"], [2, "c", "=A3*10"], [4, "d", "=A4*10"]], "USER_ENTERED"))
    written.clear()
    run(lambda s: s.spreadsheets_batch_update(blank, [{"sortRange": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 4,
                                                                              "startColumnIndex": 0, "endColumnIndex": 3}}}]))
    assert run(lambda s: s.values_get(blank, "Sheet1!A1:C4", valueRenderOption="UNFORMATTED_VALUE"))["values"] == [
        [1, "a", 10], [2, "c", 20], [3, "b", 30], [4, "d", 40]]
    assert run(lambda s: s.values_get(blank, "Sheet1!C1:C4", valueRenderOption="FORMULA"))["values"] == [["=A1*10"], ["=A2*10"], ["=A3*10"], ["=A4*10"]]
    assert sorted(written) == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]  # rows 1 and 4 stayed put: not rewritten


def test_typing_a_table_over_itself_changes_nothing(run: Run, gym: Gym, env: Env, forecast: str, written: list[tuple[int, int]]) -> None:
    shown = run(lambda s: s.values_get(forecast, "Pipeline!A2:G5", valueRenderOption="UNFORMATTED_VALUE"))["values"]
    run(lambda s: s.values_update(forecast, "Pipeline!A2:G5", shown, "RAW"))
    assert written == [] and _changed_cells(gym, env, forecast) == set()


def test_an_xlsx_imported_twice_gives_the_same_spreadsheet(run: Run, forecast: str) -> None:
    exported = run(lambda s: s.export_xlsx(forecast))["content_base64"]
    first, second = (run(lambda s: s.import_xlsx(exported, title=f"Copy {n}"))["spreadsheetId"] for n in (1, 2))
    for rng in ("Pipeline!A1:I8", "Summary!A1:D12"):
        for render in ("FORMULA", "FORMATTED_VALUE"):
            shown = [run(lambda s: s.values_get(sid, rng, valueRenderOption=render))["values"] for sid in (first, second, forecast)]
            assert shown[0] == shown[1] == shown[2]


def test_checks_share_one_read_of_the_final_book_and_their_trials_stay_private(gym: Gym, env: Env, forecast: str) -> None:
    with gym.store.session(env) as db:
        first = final(db, forecast)
        tab = first.book.by_title["pipeline"]
        key, weighted = (tab, 1, 5), (tab, 1, 8)
        was = first.book.get(weighted)
        ok, _ = follows_inputs(first, {key: 1000.0}, [weighted], lambda k: 1000.0 * first.book.get((tab, 1, 7)), "weighted")
        assert ok and first.book.get(weighted) != was
        second = final(db, forecast)
        assert second.book.get(weighted) == was and second.book is not first.book


def test_a_number_typed_over_a_number_sets_values_in_place_and_stores_what_a_whole_calculation_gives(
        run: Run, gym: Gym, env: Env, forecast: str, monkeypatch: pytest.MonkeyPatch) -> None:
    upserted: list[Any] = []
    real = dict(store.UPSERT_CELL)
    for dialect, statement in real.items():
        class Spy:
            def __init__(self, inner: Any) -> None:
                self.inner = inner

            def run_many(self, db: Any, given: list[dict[str, Any]]) -> None:
                upserted.extend(given)
                self.inner.run_many(db, given)

        monkeypatch.setitem(store.UPSERT_CELL, dialect, Spy(statement))
    for amount in (123456, 98765, 4321):
        run(lambda s, amount=amount: s.values_update(forecast, "Pipeline!F2", [[str(amount)]], "USER_ENTERED"))
        run(lambda s: s.values_update(forecast, "Pipeline!F3", [[amount * 2]], "RAW"))
    assert upserted == []  # the amounts and every total reading them: their values alone changed
    kept_books.forget_all()
    with gym.store.session(env) as db:  # the stored rows, read back and calculated whole
        stored = StoredBook(db, forecast, datetime(2026, 1, 1))
        shown = dict(stored.book.values)
        stored.book.recalc_all()
        assert stored.book.values == shown
        assert stored.book.inputs[(0, 1, 5)] == 4321.0 and stored.book.inputs[(0, 2, 5)] == 8642.0
    assert run(lambda s: s.values_get(forecast, "Pipeline!F2:F3", valueRenderOption="UNFORMATTED_VALUE"))["values"] == [[4321], [8642]]


def test_a_formula_typed_over_itself_writes_no_row(run: Run, blank: str, written: list[tuple[int, int]]) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:B1", [[3, "=A1*10"]], "USER_ENTERED"))
    written.clear()
    run(lambda s: s.values_update(blank, "Sheet1!B1", [["=A1*10"]], "USER_ENTERED"))
    assert written == []
    run(lambda s: s.values_update(blank, "Sheet1!B1", [["=A1*20"]], "USER_ENTERED"))
    assert written == [(0, 1)]
    assert run(lambda s: s.values_get(blank, "Sheet1!A1:B1", valueRenderOption="FORMULA"))["values"] == [[3, "=A1*20"]]
    assert run(lambda s: s.values_get(blank, "Sheet1!A1:B1", valueRenderOption="UNFORMATTED_VALUE"))["values"] == [[3, 60]]
