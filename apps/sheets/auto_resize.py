"""batchUpdate's autoResizeDimensions: columns (rows) sized to fit what their cells show, written
as their pixelSize through the same runs as updateDimensionProperties (dimension_properties.py).

The estimate, a documented stand-in for measuring rendered text (Google measures its fonts):
a column is as wide as its widest shown text, 7 pixels a character at the default 10-point
font (scaled by the cell's fontSize, a tenth more for bold) plus 10 pixels of padding; a column
with nothing shown keeps its size. A row is as tall as its tallest cell, 21 pixels a line at 10
points (lines are the text's line breaks), never less than the default 21."""

from __future__ import annotations

import math
from typing import Any

from apps.sheets import dimension_properties as props_runs
from apps.sheets.entry import load_json
from apps.sheets.errors import invalid
from apps.sheets.formulas.formats import display
from apps.sheets.models import Spreadsheet

CHAR_PIXELS, PADDING, LINE_PIXELS = 7, 10, 21


def _scale(style_text: str | None) -> float:
    text = (load_json(style_text) or {}).get("textFormat") or {}
    size = text.get("fontSize") or 10
    try:
        scale = float(size) / 10
    except (TypeError, ValueError):
        scale = 1.0
    return scale * (1.1 if text.get("bold") else 1.0)


def auto_resize(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    from apps.sheets.dimensions import _runs, _set_runs, dimension_range

    if "dataSourceSheetDimensions" in body:
        raise invalid(f"{label}: dataSourceSheetDimensions is not supported: there are no data source sheets here; use dimensions")
    tab, rows, start, end = dimension_range(self, ss, body.get("dimensions"), label, name="dimensions", open_end=True, within_grid=True)
    stored = self.book(ss.id)
    book = stored.book
    sizes: dict[int, float] = {}
    for key in {*book.inputs, *book.formulas, *book.spill}:
        s, r, c = key
        at = r if rows else c
        if s != tab.sheet_id or not start <= at < end:
            continue
        value = book.get(key)
        if value is None or value == "":
            continue
        shown = str(display(value, stored.number_format(key)))
        number_format, style = stored.formats.get(key, (None, None))
        scale = _scale(style)
        if rows:
            need = LINE_PIXELS * (shown.count("\n") + 1) * max(1.0, scale)
        else:
            need = max(len(line) for line in shown.split("\n")) * CHAR_PIXELS * scale + PADDING
        sizes[at] = max(sizes.get(at, 0), need)
    runs = _runs(tab, rows)
    if rows:  # a row with nothing taller than a line goes back to the default height
        runs = props_runs.update(runs, start, end, props_runs.KEEP, None)
    for index in sorted(sizes):
        pixels: int | None = math.ceil(sizes[index])
        if rows and pixels is not None and pixels <= props_runs.ROW_PIXELS:
            continue
        runs = props_runs.update(runs, index, index + 1, props_runs.KEEP, pixels)
    _set_runs(tab, rows, runs)
    self.db.flush()
    return {}
