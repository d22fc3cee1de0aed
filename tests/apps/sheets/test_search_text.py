"""A search's content match, kept per revision (apps/sheets/search_text.py), answers what the
SQL match answers: words written since are found and words cleared are not, whatever wrote
them, and the in-memory match folds case and reads a cell exactly as SQLite's LIKE does."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from apps.sheets import kept_books, search_text
from apps.sheets.models import Spreadsheet
from officegym import settings
from officegym.core.backend import backend_name
from officegym.core.env_store import Env
from officegym.gym import Gym
from tests.apps.sheets.conftest import Run


def _found(run: Run, words: str) -> list[str]:
    return [f["name"] for f in run(lambda s: s.files_search(words, 100))]


def _revision(gym: Gym, env: Env, spreadsheet_id: str) -> str | None:
    with gym.store.session(env) as db:
        return db.scalar(select(Spreadsheet.revision).where(Spreadsheet.id == spreadsheet_id))


def test_words_written_since_are_found_and_words_cleared_are_not(run: Run, gym: Gym, env: Env, titles: dict[str, str]) -> None:
    metrics = titles["Support Metrics"]
    assert kept_books.known(_revision(gym, env, metrics))  # seeded with a revision: matched in memory
    assert _found(run, "Quokka Ledger") == []
    run(lambda s: s.values_update(metrics, "A40", [["the quokka ledger, reviewed"]], "RAW"))
    assert _found(run, "Quokka Ledger") == ["Support Metrics"]
    # A row inserted above moves every cell (the revision is unknown after it): still found.
    sheet_id = run(lambda s: s.spreadsheets_get(metrics))["sheets"][0]["properties"]["sheetId"]
    run(lambda s: s.spreadsheets_batch_update(metrics, [{"insertDimension": {"range": {
        "sheetId": sheet_id, "dimension": "ROWS", "startIndex": 0, "endIndex": 1}}}]))
    assert not kept_books.known(_revision(gym, env, metrics))
    assert _found(run, "quokka LEDGER") == ["Support Metrics"]
    run(lambda s: s.values_update(metrics, "A41", [[""]], "RAW"))
    assert _found(run, "Quokka Ledger") == []
    run(lambda s: s.values_update(metrics, "B3", [["QUOKKA ledger"]], "RAW"))  # known again after a book's save
    assert kept_books.known(_revision(gym, env, metrics))
    assert _found(run, "quokka ledger") == ["Support Metrics"]


def test_a_failed_write_leaves_no_words_behind(run: Run, titles: dict[str, str]) -> None:
    metrics = titles["Support Metrics"]
    try:
        run(lambda s: (s.values_update(metrics, "A45", [["wombat atlas"]], "RAW"), s.values_update(metrics, "Nowhere!A1", [["x"]], "RAW")))
    except Exception:  # noqa: BLE001 - the second write names no tab: the operation rolls back whole
        pass
    assert _found(run, "wombat atlas") == []


def test_the_match_in_memory_is_sqlites_like(run: Run, gym: Gym, env: Env, blank: str) -> None:
    if backend_name(settings.db_url()) != "sqlite":
        pytest.skip("matched in memory on SQLite only (PostgreSQL's ILIKE folds case its own way, in SQL)")
    texts = ["Straße 5", "ÉCOLE élève", "MiXeD Case", "tab\there", "nul\x00hidden", "50% off", "snake_case", "ÄÖÜ äöü", "İstanbul", "ſ long s"]
    run(lambda s: s.values_update(blank, "Sheet1!A1:A10", [[t] for t in texts], "RAW"))
    revision = _revision(gym, env, blank)
    assert kept_books.known(revision)
    rng = random.Random(5)
    words = ["straße", "école", "école élève", "élève", "mixed case", "b\x00c", "hidden", "nul", "50% off", "50%", "snake_case", "ake_c",
             "e_c", "äöü", "ÄÖÜ".lower(), "istanbul", "i̇stanbul", "ſ", "s long", "\there", "ab"]
    for _ in range(60):
        text = rng.choice(texts)
        start = rng.randrange(len(text))
        words.append(text[start:start + rng.randint(1, 6)].lower())
    search_text.forget_all()
    with gym.store.session(env) as db:
        for word in words:
            if not word:
                continue
            in_sql = bool(search_text.IN_CONTENT.tuples(db, ss=blank, pattern=f"%{word}%"))
            assert search_text.contains(db, blank, revision, word) == in_sql, word
            assert search_text.contains(db, blank, None, word) == in_sql, word
