"""batchUpdate's updateBorders: the borders of a range's cells, kept in each cell's
userEnteredFormat as `borders` {top, bottom, left, right}, each a Border {style, width, color,
colorStyle} as spreadsheets.get shows it. A side the request leaves out stays as it is; style
NONE takes the border away. `top` is the top side of the range's first row, `innerHorizontal`
the line between its rows (the bottom of one cell and the top of the one below), and so on.
Borders move, copy and sort with their cells, as the rest of a cell's format does."""

from __future__ import annotations

from typing import Any

from apps.sheets.entry import dump_json, load_json
from apps.sheets.errors import invalid
from apps.sheets.models import Spreadsheet

STYLES = ("DOTTED", "DASHED", "SOLID", "SOLID_MEDIUM", "SOLID_THICK", "NONE", "DOUBLE")
WIDTHS = {"DOTTED": 1, "DASHED": 1, "SOLID": 1, "SOLID_MEDIUM": 2, "SOLID_THICK": 3, "DOUBLE": 3}  # Google's, per style
SIDES = ("top", "bottom", "left", "right", "innerHorizontal", "innerVertical")


def _color(value: Any, label: str, where: str) -> dict[str, float]:
    if not isinstance(value, dict):
        raise invalid(f"{label}: {where} must be a Color object {{red, green, blue}} (0 to 1)")
    rgb = value.get("rgbColor", value) if "rgbColor" in value or "themeColor" not in value else None
    if rgb is None:
        raise invalid(f"{label}: {where}.themeColor is not supported here; give rgbColor {{red, green, blue}}")
    out = {}
    for key in ("red", "green", "blue", "alpha"):
        if rgb.get(key) is not None:
            number = rgb[key]
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not 0 <= number <= 1:
                raise invalid(f"{label}: {where}.{key} must be a number from 0 to 1")
            if key != "alpha" and number:
                out[key] = float(number)
    return out


def border_checked(value: Any, label: str, side: str) -> dict[str, Any] | None:
    """The Border as stored (None: style NONE, no border)."""
    if not isinstance(value, dict):
        raise invalid(f"{label}: {side} must be a Border {{style, color}}")
    style = value.get("style")
    if style not in STYLES:
        raise invalid(f"{label}: {side}.style must be one of {', '.join(STYLES)}")
    if value.get("width") is not None and (isinstance(value["width"], bool) or not isinstance(value["width"], int) or value["width"] < 0):
        raise invalid(f"{label}: {side}.width must be a whole number of pixels")
    if style == "NONE":
        return None
    color = _color(value["colorStyle"], label, f"{side}.colorStyle") if "colorStyle" in value else (
        _color(value["color"], label, f"{side}.color") if "color" in value else {})
    return {"style": style, "width": WIDTHS[style], "color": color, "colorStyle": {"rgbColor": dict(color)}}


def update_borders(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    from apps.sheets.requests import grid_of

    unknown = sorted(set(body) - {"range", *SIDES})
    if unknown:
        raise invalid(f"{label}: {', '.join(map(repr, unknown))} is not a field of updateBorders; it takes range and {', '.join(SIDES)}")
    if "range" not in body:
        raise invalid(f"{label}: range is required: the GridRange whose borders to update")
    tab, grid = grid_of(self, ss, body["range"], label)
    sides = {side: border_checked(body[side], label, side) for side in SIDES if side in body}
    r1, c1, r2, c2 = grid.r1, grid.c1, grid.r2 or 0, grid.c2 or 0
    changes: dict[tuple[int, int], dict[str, Any]] = {}

    def put(r: int, c: int, side: str, border: Any) -> None:
        changes.setdefault((r, c), {})[side] = border

    for c in range(c1, c2):
        if "top" in sides:
            put(r1, c, "top", sides["top"])
        if "bottom" in sides:
            put(r2 - 1, c, "bottom", sides["bottom"])
        if "innerHorizontal" in sides:
            for r in range(r1, r2 - 1):
                put(r, c, "bottom", sides["innerHorizontal"])
                put(r + 1, c, "top", sides["innerHorizontal"])
    for r in range(r1, r2):
        if "left" in sides:
            put(r, c1, "left", sides["left"])
        if "right" in sides:
            put(r, c2 - 1, "right", sides["right"])
        if "innerVertical" in sides:
            for c in range(c1, c2 - 1):
                put(r, c, "right", sides["innerVertical"])
                put(r, c + 1, "left", sides["innerVertical"])
    book = self.book(ss.id)
    for (r, c), wanted in changes.items():
        key = (tab.sheet_id, r, c)
        number, style_text = book.formats.get(key, (None, None))
        style = dict(load_json(style_text) or {})
        borders = dict(style.get("borders") or {})
        for side, border in wanted.items():
            if border is None:
                borders.pop(side, None)
            else:
                borders[side] = border
        if borders:
            style["borders"] = borders
        else:
            style.pop("borders", None)
        book.set_format(key, number, dump_json(style) if style else None)
    return {}
