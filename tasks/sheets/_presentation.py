"""What the presentation families (highlight-by-rule, add-dropdown) share: colours read the way
a person names them, and each cell's colours as the grid shows them.

A colour is named by its family (red, orange, yellow, green, blue, purple): its hue, once it is
coloured enough to tell (a near-white tint, a grey or a black names none). The bands follow the
palette people pick from (Google Sheets' columns: red and red berry are red, its "yellow" column
sits at a hue of 45°, cornflower blue is blue, its light purples are purple) and the colours
named in CSS and Excel's preset fills (Excel's "light red fill" is red, CSS orange is orange).
Between green and blue (teal, cyan) no family is named: neither word is clearly right there.

What the grid shows in a cell is the first conditional format rule that holds there over the
cell's own style (apps/sheets/conditional_formats.shown_formats): each colour the rule sets
replaces the cell's own, and what it leaves unset stays."""

from __future__ import annotations

import colorsys
import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from apps.sheets import conditional_formats
from apps.sheets.theme import theme_rgb
from apps.sheets.models import Sheet

RGB = tuple[float, float, float]

# family → hue bands in degrees, [start, end)
FAMILIES: dict[str, tuple[tuple[float, float], ...]] = {
    "red": ((345.0, 360.0), (0.0, 15.0)),
    "orange": ((15.0, 41.0),),
    "yellow": ((41.0, 70.0),),
    "green": ((70.0, 165.0),),
    "blue": ((185.0, 250.0),),
    "purple": ((250.0, 315.0),),
}
# How coloured a colour must be to name a family (max - min of its channels): Google's lightest
# palette row (light green 3, #D9EAD3, 0.09) is a green fill; a tint like #FFF5F5 (0.04) is white.
# Text is thin: a text colour must be clearly coloured to read as one (dark red 3 #660000 is).
FILL_CHROMA, TEXT_CHROMA = 0.075, 0.25


def rgb(value: Any) -> RGB | None:
    """A Color, or a ColorStyle (its rgbColor, or its themeColor in the book's theme), as (red,
    green, blue); None when it names none. Missing channels are 0, as in the Sheets API."""
    if not isinstance(value, dict):
        return None
    if "rgbColor" in value:
        value = value["rgbColor"]
    elif "themeColor" in value:
        return theme_rgb(value["themeColor"])  # the book's theme (apps/sheets/theme.py), as the grid draws it
    if not isinstance(value, dict):
        return None
    try:
        return tuple(min(1.0, max(0.0, float(value.get(k, 0) or 0))) for k in ("red", "green", "blue"))  # type: ignore[return-value]
    except (TypeError, ValueError):
        return None


def family(colour: RGB | None, text: bool = False) -> str | None:
    """The colour family a person would name `colour` by; None for white, grey, black or a tint
    too faint to tell (see FILL_CHROMA, TEXT_CHROMA)."""
    if colour is None:
        return None
    if max(colour) - min(colour) < (TEXT_CHROMA if text else FILL_CHROMA):
        return None
    hue = colorsys.rgb_to_hsv(*colour)[0] * 360
    return next((name for name, bands in FAMILIES.items() if any(a <= hue < b for a, b in bands)), None)


def hex_of(colour: RGB | None) -> str:
    return "none" if colour is None else "#" + "".join(f"{round(c * 255):02X}" for c in colour)


def colour(hex_text: str) -> dict[str, float]:
    """'#F4CCCC' as a Sheets Color."""
    h = hex_text.lstrip("#")
    return {k: round(int(h[i:i + 2], 16) / 255, 4) for k, i in (("red", 0), ("green", 2), ("blue", 4))}


def _fill_of(fmt: dict[str, Any]) -> tuple[bool, RGB | None]:
    for key in ("backgroundColorStyle", "backgroundColor"):
        if key in fmt:
            return True, rgb(fmt[key])
    return False, None


def _ink_of(fmt: dict[str, Any]) -> tuple[bool, RGB | None]:
    text = fmt.get("textFormat") if isinstance(fmt.get("textFormat"), dict) else {}
    for key in ("foregroundColorStyle", "foregroundColor"):
        if key in text:
            return True, rgb(text[key])
    return False, None


def _style(text: str | None) -> dict[str, Any]:
    try:
        parsed = json.loads(text) if text else {}
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


Looks = Callable[[int, int], tuple[RGB | None, RGB | None]]


def looks(db: Session, stored: Any, sheet_id: int, window: tuple[int, int, int, int]) -> Looks:
    """(row, col) → (fill, text colour) of each cell of `window` ([r1, c1, r2, c2]) as the grid
    shows it now: the tab's conditional format rules over each cell's own style. A fill or text
    colour not set is None (the grid's white and black)."""
    tab = db.scalars(select(Sheet).where(Sheet.spreadsheet_id == stored.spreadsheet_id, Sheet.sheet_id == sheet_id)).first()
    ruled = conditional_formats.shown_formats(tab, stored, window) if tab is not None and tab.conditional_formats else {}
    own_looks: dict[str | None, tuple[RGB | None, RGB | None]] = {}

    def at(r: int, c: int) -> tuple[RGB | None, RGB | None]:
        text = stored.formats.get((sheet_id, r, c), (None, None))[1]
        own = own_looks.get(text)
        if own is None:
            style = _style(text)
            own = own_looks[text] = (_fill_of(style)[1], _ink_of(style)[1])
        rule = ruled.get((r, c))
        if not rule:
            return own
        set_fill, fill = _fill_of(rule)
        set_ink, ink = _ink_of(rule)
        return (fill if set_fill else own[0]), (ink if set_ink else own[1])

    return at


def unreadable(fill: RGB | None, ink: RGB | None) -> bool:
    """Text in `ink` on `fill` cannot be read (as tasks/sheets/_common.hides judges a style)."""
    paper, text = fill or (1.0, 1.0, 1.0), ink or (0.0, 0.0, 0.0)
    return max(abs(a - b) for a, b in zip(paper, text)) < 0.12


def hidden_rows(db: Session, stored: Any, sheet_id: int) -> frozenset[int]:
    """The rows of a tab out of view: hidden by the user, or by its basic filter's criteria."""
    from apps.sheets import dimension_properties, filters

    tab = db.scalars(select(Sheet).where(Sheet.spreadsheet_id == stored.spreadsheet_id, Sheet.sheet_id == sheet_id)).first()
    if tab is None:
        return frozenset()
    stretches = dimension_properties.hidden(dimension_properties.load(tab.row_properties)) if tab.row_properties else []
    if tab.basic_filter:
        stretches = [*stretches, *filters.hidden_rows(tab, stored)]
    return frozenset(r for a, b in stretches for r in range(a, min(b, a + 100_000)))
