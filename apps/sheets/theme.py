"""The spreadsheet theme: the colours a ColorStyle's `themeColor` names.

Every spreadsheet here has Google Sheets' default theme (a new spreadsheet's, and every
seeded book's), so {"themeColor": "ACCENT2"} is the red Google draws. spreadsheets.get shows
it as `properties.spreadsheetTheme`; the grid draws theme colours with it, and graders read
them with it, as a reader of the sheet sees them."""

from __future__ import annotations

from typing import Any

DEFAULT_FONT = "Arial"
# themeColorType → hex, Google Sheets' default theme.
DEFAULT_THEME: dict[str, str] = {
    "TEXT": "000000", "BACKGROUND": "FFFFFF", "ACCENT1": "4285F4", "ACCENT2": "EA4335", "ACCENT3": "FBBC04",
    "ACCENT4": "34A853", "ACCENT5": "FF6D01", "ACCENT6": "46BDC6", "LINK": "1155CC",
}


def theme_rgb(name: Any) -> tuple[float, float, float] | None:
    """A themeColor's (red, green, blue), 0..1; None for a name the theme has not."""
    found = DEFAULT_THEME.get(str(name).upper())
    return None if found is None else tuple(int(found[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def color_of(style: Any) -> dict[str, float] | None:
    """A Color or a ColorStyle (its rgbColor, or its themeColor in the theme) as a Color
    {red, green, blue}; None when it names no colour."""
    if not isinstance(style, dict):
        return None
    if "themeColor" in style and "rgbColor" not in style:
        found = theme_rgb(style["themeColor"])
        return None if found is None else dict(zip(("red", "green", "blue"), found))
    color = style.get("rgbColor", style)
    return color if isinstance(color, dict) else None


def hex_to_rgb(color: str) -> dict[str, float]:
    color = color.lstrip("#")
    return {k: int(color[i:i + 2], 16) / 255 for k, i in (("red", 0), ("green", 2), ("blue", 4))}


def rgb_to_hex(rgb: dict[str, Any]) -> str:
    return "#" + "".join(f"{round(float(rgb.get(k, 0) or 0) * 255):02x}" for k in ("red", "green", "blue"))


def hex_of(style: Any) -> str | None:
    """A Color or ColorStyle as #rrggbb (a themeColor in the theme's colour); None when it
    names no colour."""
    found = color_of(style)
    return None if found is None else rgb_to_hex(found)


def spreadsheet_theme() -> dict[str, Any]:
    """`properties.spreadsheetTheme` as spreadsheets.get shows it."""
    return {"primaryFontFamily": DEFAULT_FONT,
            "themeColors": [{"colorType": name, "color": {"rgbColor": dict(zip(("red", "green", "blue"), theme_rgb(name) or (0, 0, 0)))}}
                            for name in DEFAULT_THEME]}
