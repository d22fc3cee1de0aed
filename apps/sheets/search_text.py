"""A content search's text cells, kept per revision and matched in memory (SQLite).

A search by title or content matched the text cells of every spreadsheet the person can open
whose title does not match, in SQL, on every call: most of what a search cost. A known
revision names a spreadsheet's cells (kept_books.py: equal known revisions mean equal cells,
in any env; seeded spreadsheets carry one from the template on), so its text cells are read
once per revision, folded as SQLite's LIKE folds them, and kept here; `contains` then answers
`value LIKE '%words%'` for any words in memory. A spreadsheet of unknown revision, and words
holding LIKE's own wildcards, are matched in SQL as before.

SQLite's LIKE ignores the case of ASCII letters only and reads a text up to its first NUL
character; the kept text does the same (the words come lower-cased, as the pattern does).
"""

from __future__ import annotations

import string
import threading
from collections import OrderedDict

from sqlalchemy import bindparam, literal_column, select
from sqlalchemy.orm import Session

from apps.sheets.kept_books import known
from apps.sheets.models import Cell
from officegym.core.sql import Prepared

MAX_KEPT_CHARS = 8_000_000  # across every kept text of the process (a few bytes a text cell)
_SEPARATOR = "\x00"  # between cells: no match crosses it (words holding it go to SQL)
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_KEPT: OrderedDict[str, str] = OrderedDict()
_LOCK = threading.Lock()
_SIZE = [0]

_TEXT = literal_column("'s'")  # kind spelt out: the text cells' index is for kind 's'
TEXT_CELLS = Prepared(select(Cell.value).where(Cell.spreadsheet_id == bindparam("ss"), Cell.kind == _TEXT))
IN_CONTENT = Prepared(select(Cell.spreadsheet_id).where(Cell.spreadsheet_id == bindparam("ss"), Cell.kind == _TEXT,
                                                         Cell.value.like(bindparam("pattern"))).limit(1))


def in_memory(words: str) -> bool:
    """Whether lower-cased `words` can be matched in the kept text: no LIKE wildcard in them
    (matched as wildcards in SQL), nor the separator."""
    return "%" not in words and "_" not in words and _SEPARATOR not in words


def _fold(value: str) -> str:
    return value.split(_SEPARATOR, 1)[0].translate(_ASCII_LOWER)


def text_of(db: Session, spreadsheet_id: str, revision: str) -> str:
    """The spreadsheet's text cells at `revision` (a known one: the stored revision, read in
    this transaction), folded and joined."""
    with _LOCK:
        found = _KEPT.get(revision)
        if found is not None:
            _KEPT.move_to_end(revision)
            return found
    found = _SEPARATOR.join(_fold(value) for (value,) in TEXT_CELLS.tuples(db, ss=spreadsheet_id) if value is not None)
    with _LOCK:
        if revision not in _KEPT:
            _KEPT[revision] = found
            _SIZE[0] += len(found)
            while _SIZE[0] > MAX_KEPT_CHARS and _KEPT:
                _SIZE[0] -= len(_KEPT.popitem(last=False)[1])
    return found


def contains(db: Session, spreadsheet_id: str, revision: str | None, words: str) -> bool:
    """Whether a text cell of the spreadsheet is LIKE '%words%' (`words` lower-cased)."""
    if known(revision) and in_memory(words):
        return words in text_of(db, spreadsheet_id, revision)  # type: ignore[arg-type]
    return bool(IN_CONTENT.tuples(db, ss=spreadsheet_id, pattern=f"%{words}%"))


def forget_all() -> None:
    with _LOCK:
        _KEPT.clear()
        _SIZE[0] = 0
