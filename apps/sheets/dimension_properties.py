"""A tab's row or column properties (Google Sheets' DimensionProperties: hiddenByUser and
pixelSize), kept as runs: `(start, end, hidden, pixel_size)` with 0-based indexes, the end
exclusive, sorted and apart, each run differing from the default (shown, the default size:
None). Stored as JSON on the tab (`Sheet.row_properties` / `column_properties`), NULL when
every row (column) is as new, so a tab of a million rows hidden in one go is one run.

Rows and columns move with the structural requests as Google moves them (dimensions.py):
inserted ones take the properties of the one before or after (`inheritFromBefore`), deleted
ones take theirs with them, and those below (right) shift."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

ROW_PIXELS, COLUMN_PIXELS = 21, 100  # Google Sheets' default row height and column width


class Run(NamedTuple):
    start: int
    end: int
    hidden: bool
    size: int | None


KEEP: Any = object()  # an update that leaves this property as it is
DEFAULT = (False, None)


def load(text: str | None) -> list[Run]:
    if not text:
        return []
    try:
        return [Run(int(a), int(b), bool(h), None if s is None else int(s)) for a, b, h, s in json.loads(text)]
    except (ValueError, TypeError):
        return []


def dump(runs: list[Run]) -> str | None:
    runs = _normal(runs)
    return json.dumps([list(r) for r in runs], separators=(",", ":")) if runs else None


def runs_of(items: list[tuple[int, int, bool, int | None]]) -> list[Run]:
    """Runs from (start, end, hidden, size) stretches that do not overlap."""
    return _normal([Run(int(a), int(b), bool(h), s) for a, b, h, s in items])


def _normal(runs: list[Run]) -> list[Run]:
    out: list[Run] = []
    for run in sorted(r for r in runs if r.end > r.start and (r.hidden, r.size) != DEFAULT):
        if out and out[-1].end == run.start and (out[-1].hidden, out[-1].size) == (run.hidden, run.size):
            out[-1] = out[-1]._replace(end=run.end)
        else:
            out.append(run)
    return out


def _split(runs: list[Run], at: int) -> list[Run]:
    out = []
    for run in runs:
        if run.start < at < run.end:
            out += [run._replace(end=at), run._replace(start=at)]
        else:
            out.append(run)
    return out


def at(runs: list[Run], index: int) -> tuple[bool, int | None]:
    """(hidden, pixel size or None) of one row or column."""
    for run in runs:
        if run.start <= index < run.end:
            return run.hidden, run.size
    return DEFAULT


def update(runs: list[Run], start: int, end: int, hidden: Any = KEEP, size: Any = KEEP) -> list[Run]:
    """[start, end) set to `hidden` and `size` (KEEP: each keeps its own)."""
    runs = _split(_split(runs, start), end)
    out = [r for r in runs if r.end <= start or r.start >= end]
    pos = start
    for run in sorted(r for r in runs if start <= r.start and r.end <= end):
        if run.start > pos:
            out.append(Run(pos, run.start, *_set(DEFAULT, hidden, size)))
        out.append(Run(run.start, run.end, *_set((run.hidden, run.size), hidden, size)))
        pos = run.end
    if pos < end:
        out.append(Run(pos, end, *_set(DEFAULT, hidden, size)))
    return _normal(out)


def _set(old: tuple[bool, int | None], hidden: Any, size: Any) -> tuple[bool, int | None]:
    return (old[0] if hidden is KEEP else bool(hidden), old[1] if size is KEEP else size)


def insert(runs: list[Run], start: int, count: int, inherit_from: int | None) -> list[Run]:
    """`count` new ones at `start`, taking the properties of index `inherit_from` (as it was
    before the insert; None: the defaults)."""
    inherited = at(runs, inherit_from) if inherit_from is not None else DEFAULT
    moved = [r._replace(start=r.start + count, end=r.end + count) if r.start >= start else r for r in _split(runs, start)]
    return update(moved, start, start + count, *inherited)


def delete(runs: list[Run], start: int, end: int) -> list[Run]:
    """[start, end) deleted: those after move back."""
    count = end - start
    kept = [r for r in _split(_split(runs, start), end) if r.end <= start or r.start >= end]
    return _normal([r._replace(start=r.start - count, end=r.end - count) if r.start >= end else r for r in kept])


def clip(runs: list[Run], limit: int) -> list[Run]:
    """Only those inside a grid of `limit` rows (columns)."""
    return [r for r in _split(runs, limit) if r.start < limit]


def hidden(runs: list[Run]) -> list[tuple[int, int]]:
    """The hidden stretches, [start, end)."""
    return [(r.start, r.end) for r in runs if r.hidden]


def metadata(runs: list[Run], start: int, end: int, default_size: int) -> list[dict[str, Any]]:
    """GridData's rowMetadata / columnMetadata for [start, end): one DimensionProperties each."""
    out: list[dict[str, Any]] = []
    pos = start
    for run in runs:
        if run.end <= start or run.start >= end:
            continue
        if run.start > pos:
            out += [{"pixelSize": default_size} for _ in range(pos, run.start)]
        a, b = max(run.start, start), min(run.end, end)
        item: dict[str, Any] = {"hiddenByUser": True} if run.hidden else {}
        item["pixelSize"] = run.size if run.size is not None else default_size
        out += [dict(item) for _ in range(a, b)]
        pos = b
    out += [{"pixelSize": default_size} for _ in range(pos, end)]
    return out
