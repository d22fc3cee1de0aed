"""What a tab keeps over rectangles of its grid beside its cells: its basic filter, its
conditional format rules and its data validation rules (JSON on the tab: `Sheet.basic_filter`,
`conditional_formats`, `data_validation`). Rectangles are `[r1, c1, r2, c2]`, 0-based, ends
exclusive, within the grid.

They move with the grid as Google moves them (`moved`): rows (columns) inserted before one
push it on, inserted inside it make it bigger; deleted ones inside it make it smaller, and one
wholly deleted goes. Cells shifted within some columns (insertRange, deleteRange: a `band`)
move only the rectangles lying wholly inside the band. A formula in a rule (a custom formula,
ONE_OF_RANGE's range) has its references to the tab moved as a cell's formula has."""

from __future__ import annotations

import json
from typing import Any

from apps.sheets.rewrite import shift_dimension

Rect = list[int]


def load(text: str | None) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def dump(value: Any) -> str | None:
    return json.dumps(value, separators=(",", ":"), sort_keys=True) if value else None


def index_moved(at: int, start: int, count: int) -> int:
    """A row (column) index after `count` rows inserted at `start` (count < 0: deleted from
    there); one inside the deleted rows lands where they began."""
    if count >= 0:
        return at + count if at >= start else at
    end = start - count
    if at >= end:
        return at + count
    return min(at, start)


def end_moved(end_at: int, start: int, count: int) -> int:
    """An exclusive end after rows deleted from `start` to `start - count` (count < 0): one
    inside the deleted rows ends where they began."""
    end = start - count
    if end_at <= start:
        return end_at
    return start if end_at <= end else end_at + count


def moved(rect: Rect, rows: bool, start: int, count: int, band: tuple[int, int] | None = None) -> Rect | None:
    """The rectangle after `count` rows (columns) are inserted at `start` (count < 0: deleted
    from `start` to `start - count`); None when all of it was deleted."""
    r1, c1, r2, c2 = rect
    lo, hi, across = (r1, r2, (c1, c2)) if rows else (c1, c2, (r1, r2))
    if band is not None and not (band[0] <= across[0] and across[1] <= band[1]):
        return list(rect)
    if count > 0:
        lo, hi = (lo + count if lo >= start else lo), (hi + count if hi > start else hi)
    else:
        end = start - count
        if start <= lo and hi <= end:
            return None
        lo, hi = index_moved(lo, start, count), end_moved(hi, start, count)
        if hi <= lo:
            return None
    return [lo, c1, hi, c2] if rows else [r1, lo, r2, hi]


def clipped(rect: Rect, rows: bool, limit: int) -> Rect | None:
    r1, c1, r2, c2 = rect
    if rows:
        return None if r1 >= limit else [r1, c1, min(r2, limit), c2]
    return None if c1 >= limit else [r1, c1, r2, min(c2, limit)]


def _moved_formulas(value: Any, title: str, rows: bool, start: int, count: int, band: tuple[int, int] | None) -> Any:
    """Every condition value's formula in a rule (a JSON tree) with its references moved."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "userEnteredValue" and isinstance(v, str) and v.startswith("="):
                out[k] = shift_dimension(v, title, title, "ROWS" if rows else "COLUMNS", start, count, band)
            else:
                out[k] = _moved_formulas(v, title, rows, start, count, band)
        return out
    if isinstance(value, list):
        return [_moved_formulas(v, title, rows, start, count, band) for v in value]
    return value


def _formulas_with(value: Any, change: Any) -> Any:
    if isinstance(value, dict):
        return {k: (change(v) if k == "userEnteredValue" and isinstance(v, str) and v.startswith("=") else _formulas_with(v, change))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_formulas_with(v, change) for v in value]
    return value


def rewrite(tab: Any, change: Any) -> None:
    """Every formula in the tab's rules (custom formulas, ONE_OF_RANGE ranges) through
    `change(text)`: a tab renamed or deleted, as its cells' formulas are rewritten."""
    for column in ("basic_filter", "conditional_formats", "data_validation"):
        text = getattr(tab, column)
        if text and "=" in text:
            new = dump(_formulas_with(load(text), change))
            if new != text:
                setattr(tab, column, new)


def _column_moved(index: int, start: int, count: int) -> int | None:
    if count < 0 and start <= index < start - count:
        return None
    return index_moved(index, start, count)


def shift(tab: Any, rows: bool, start: int, count: int, band: tuple[int, int] | None = None) -> None:
    """Move the tab's filter, conditional formats and validation rules for rows (columns)
    inserted (`count` > 0) or deleted at `start`."""
    if tab.basic_filter:
        found = load(tab.basic_filter)
        rect = moved(found["range"], rows, start, count, band)
        if rect is None:
            tab.basic_filter = None
        else:
            if not rows and (band is None or rect != found["range"]):
                found["filterSpecs"] = [{**s, "columnIndex": c} for s in found.get("filterSpecs", [])
                                        if (c := _column_moved(s["columnIndex"], start, count)) is not None]
                found["sortSpecs"] = [{**s, "dimensionIndex": c} for s in found.get("sortSpecs", [])
                                      if (c := _column_moved(s["dimensionIndex"], start, count)) is not None]
            found["range"] = rect
            found = _moved_formulas(found, tab.title, rows, start, count, band)
            tab.basic_filter = dump(found)
    if tab.conditional_formats:
        rules = []
        for rule in load(tab.conditional_formats) or []:
            ranges = [r for r in (moved(rect, rows, start, count, band) for rect in rule["ranges"]) if r is not None]
            if ranges:
                rules.append(_moved_formulas({**rule, "ranges": ranges}, tab.title, rows, start, count, band))
        tab.conditional_formats = dump(rules)
    if tab.data_validation:
        kept = []
        for *rect, rule in load(tab.data_validation) or []:
            r = moved(rect, rows, start, count, band)
            if r is not None:
                kept.append([*r, _moved_formulas(rule, tab.title, rows, start, count, band)])
        tab.data_validation = dump(kept)


def clip(tab: Any, rows: bool, limit: int) -> None:
    """The grid made smaller: what lay past its end goes."""
    if tab.basic_filter:
        found = load(tab.basic_filter)
        rect = clipped(found["range"], rows, limit)
        if rect is not None and not rows:
            found["filterSpecs"] = [s for s in found.get("filterSpecs", []) if s["columnIndex"] < limit]
            found["sortSpecs"] = [s for s in found.get("sortSpecs", []) if s["dimensionIndex"] < limit]
        tab.basic_filter = None if rect is None else dump({**found, "range": rect})
    if tab.conditional_formats:
        rules = []
        for rule in load(tab.conditional_formats) or []:
            ranges = [r for r in (clipped(rect, rows, limit) for rect in rule["ranges"]) if r is not None]
            if ranges:
                rules.append({**rule, "ranges": ranges})
        tab.conditional_formats = dump(rules)
    if tab.data_validation:
        tab.data_validation = dump([[*r, rule] for *rect, rule in load(tab.data_validation) or []
                                    if (r := clipped(rect, rows, limit)) is not None])


def grid_range(sheet_id: int, rect: Rect) -> dict[str, int]:
    r1, c1, r2, c2 = rect
    return {"sheetId": sheet_id, "startRowIndex": r1, "endRowIndex": r2, "startColumnIndex": c1, "endColumnIndex": c2}


def subtract(rect: Rect, cut: Rect) -> list[Rect]:
    """`rect` less `cut`: up to four rectangles."""
    r1, c1, r2, c2 = rect
    x1, y1, x2, y2 = cut
    if x1 >= r2 or x2 <= r1 or y1 >= c2 or y2 <= c1:
        return [list(rect)]
    out = []
    if r1 < x1:
        out.append([r1, c1, x1, c2])
    if x2 < r2:
        out.append([x2, c1, r2, c2])
    top, bottom = max(r1, x1), min(r2, x2)
    if c1 < y1:
        out.append([top, c1, bottom, y1])
    if y2 < c2:
        out.append([top, y2, bottom, c2])
    return out
