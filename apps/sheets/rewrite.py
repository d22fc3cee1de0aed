"""Rewriting the references inside formulas when the grid moves under them, as Google does:
rows or columns inserted or deleted (a reference into deleted cells becomes #REF!), a formula
copied elsewhere (relative parts move, `$` parts stay), a sheet renamed or deleted."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from apps.sheets.a1 import column_index, column_letter, quote_sheet, split_sheet
from apps.sheets.formulas.parser import FormulaSyntaxError, tokens

_CORNER = re.compile(r"^(\$?)([A-Za-z]{0,3})(\$?)([0-9]*)$")
Rewriter = Callable[[str | None, str], str | None]  # (sheet in the ref, area) → new area, or None for #REF!


def rewrite(formula: str, rewriter: Callable[[str | None, str, str], str]) -> str:
    """The formula with each reference token replaced by `rewriter(sheet, area, token)`."""
    found = _references(formula)
    if found is None:  # a formula that does not lex is left as typed
        return formula
    body = formula[1:] if formula.startswith("=") else formula
    out, pos = [], 0
    for start, end, token, sheet, area in found:
        out.append(body[pos:start])
        out.append(rewriter(sheet, area, token))
        pos = end
    out.append(body[pos:])
    return "=" + "".join(out)


@lru_cache(maxsize=16384)
def _references(formula: str) -> tuple[tuple[int, int, str, str | None, str], ...] | None:
    """Where a formula's references are (start, end, token, sheet, area), or None if it does
    not lex. Kept per text: deleting rows one by one turns each formula below into the text
    its upper neighbour had, so lexing (most of a structural edit's cost) is mostly done once."""
    try:
        found = tokens(formula)
    except Exception:  # noqa: BLE001 - any lexer failure means "not a formula we can rewrite"
        return None
    return tuple((t.start_pos, t.end_pos, str(t), *split_sheet(str(t))) for t in found if t.type == "REF")


def _corners(area: str) -> list[list[str]]:
    parts = []
    for corner in area.split(":"):
        match = _CORNER.match(corner)
        if not match:
            raise FormulaSyntaxError(area)
        parts.append(list(match.groups()))
    return parts


def _join(sheet: str | None, parts: list[list[str]]) -> str:
    area = ":".join("".join(p) for p in parts)
    return f"{quote_sheet(sheet)}!{area}" if sheet is not None else area


def shift_dimension(formula: str, formula_sheet: str, target: str, dimension: str, start: int, count: int,
                    band: tuple[int, int] | None = None) -> str:
    """References to `target` move for `count` rows/columns inserted at `start` (count < 0:
    deleted from start to start-count); a reference wholly inside deleted cells is #REF!.

    `band` limits the shift to cells between those columns (for ROWS; rows for COLUMNS), as
    insertRange/deleteRange shift only part of the grid: a reference moves only when it lies
    wholly inside the band (LibreOffice's and Excel's rule); one reaching outside it stays as
    typed."""
    rows = dimension == "ROWS"

    def move(sheet: str | None, area: str, token: str) -> str:
        if (sheet or formula_sheet).lower() != target.lower():
            return token
        parts = _corners(area)
        if band is not None and not _inside(parts, rows, band):
            return token
        index = 3 if rows else 1
        positions = []
        for p in parts:
            if not p[index]:
                positions.append(None)
            else:
                positions.append(int(p[index]) - 1 if rows else column_index(p[index]))
        if all(v is None for v in positions):
            return token
        if count > 0:
            new = [v + count if v is not None and v >= start else v for v in positions]
        else:
            gone = -count
            end = start + gone
            if len(positions) == 1 or positions[1] is None:
                v = positions[0]
                if v is not None and start <= v < end:
                    return "#REF!"
                new = [v - gone if v is not None and v >= end else v for v in positions]
            else:
                lo, hi = positions[0], positions[1]
                if lo is None or hi is None:
                    return token
                if start <= lo and hi < end:
                    return "#REF!"
                new_lo = lo if lo < start else max(start, lo - gone) if lo >= end else start
                new_hi = hi if hi < start else (hi - gone if hi >= end else start - 1)
                new = [new_lo, new_hi]
        for p, v in zip(parts, new):
            if v is not None:
                p[index] = str(v + 1) if rows else column_letter(v)
        return _join(sheet, parts)

    return rewrite(formula, move)


def _inside(parts: list[list[str]], rows: bool, band: tuple[int, int]) -> bool:
    """Whether a reference's extent across the shift (its columns when rows shift) lies in `band`."""
    across = 1 if rows else 3
    spans = []
    for p in parts:
        if not p[across]:
            return False  # a whole row (or column) reaches past any band
        spans.append(column_index(p[across]) if rows else int(p[across]) - 1)
    return band[0] <= min(spans) and max(spans) < band[1]


@lru_cache(maxsize=16384)
def offset(formula: str, d_rows: int, d_cols: int) -> str:
    """The formula copied `d_rows` down and `d_cols` right: relative parts move (kept per
    text and shift: filling or sorting a column offsets the same few formulas again and again)."""

    def move(sheet: str | None, area: str, token: str) -> str:
        parts = _corners(area)
        for p in parts:
            if p[1] and not p[0]:
                c = column_index(p[1]) + d_cols
                if c < 0:
                    return "#REF!"
                p[1] = column_letter(c)
            if p[3] and not p[2]:
                r = int(p[3]) + d_rows
                if r < 1:
                    return "#REF!"
                p[3] = str(r)
        return _join(sheet, parts)

    return rewrite(formula, move)


def rename_sheet(formula: str, old: str, new: str | None) -> str:
    """References to sheet `old` now name `new` (None: the sheet is gone, they become #REF!)."""

    def move(sheet: str | None, area: str, token: str) -> str:
        if sheet is None or sheet.lower() != old.lower():
            return token
        return "#REF!" if new is None else f"{quote_sheet(new)}!{area}"

    return rewrite(formula, move)
