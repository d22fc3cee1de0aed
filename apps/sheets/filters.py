"""A tab's basic filter (batchUpdate's setBasicFilter and clearBasicFilter; `sheets[].basicFilter`
in spreadsheets.get): one per tab, over a range whose first row is its header.

Each FilterSpec's FilterCriteria hides the data rows (below the header) whose cell in its
column is listed in `hiddenValues` (as the cell shows it; "" for a blank) or fails its
`condition`, or (`visibleBackgroundColorStyle`, `visibleForegroundColorStyle` and their
deprecated Color forms) does not show the fill or text colour asked for, as the cell shows it:
a conditional format's colour over its own, a theme colour in the theme's colour, no fill as
white and no text colour as black; a row is shown when every column's criteria pass. Which rows are hidden is worked
out from the cells as they are now, so a row edited to fail the criteria is hidden, as Google
shows a filtered sheet after an edit; rowMetadata says `hiddenByFilter` for them, apart from
`hiddenByUser`. `sortSpecs` sort the data rows when the filter is set, as sortRange would.
The range moves with the rows and columns around it (tab_rules.py) and goes with the tab.

Filter views (addFilterView, updateFilterView, …) are not modelled: a 400 says so."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from apps.sheets import conditions, tab_rules, theme
from apps.sheets.entry import load_json
from apps.sheets.errors import invalid
from apps.sheets.formulas.formats import display
from apps.sheets.models import Sheet, Spreadsheet

CRITERIA_FIELDS = ("hiddenValues", "condition")
COLOR_FIELDS = ("visibleBackgroundColor", "visibleBackgroundColorStyle", "visibleForegroundColor", "visibleForegroundColorStyle")


def _color(value: Any, label: str, where: str) -> dict[str, Any]:
    """A Color {red, green, blue, alpha} as given (a part left out is 0), checked."""
    if not isinstance(value, dict) or set(value) - {"red", "green", "blue", "alpha"}:
        raise invalid(f"{label}: {where} must be a Color {{red, green, blue}}, each from 0 to 1")
    for part, number in value.items():
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not 0 <= number <= 1:
            raise invalid(f"{label}: {where}.{part} must be a number from 0 to 1; got {number!r}")
    return dict(value)


def _color_criteria(crit: dict[str, Any], label: str, where: str) -> dict[str, Any]:
    """The fill or text colour a FilterCriteria shows, checked as Google checks it: fill and
    text colour are mutually exclusive, and a ColorStyle must be an RGB colour."""
    given = [k for k in COLOR_FIELDS if crit.get(k) is not None]
    if any(k.startswith("visibleBackground") for k in given) and any(k.startswith("visibleForeground") for k in given):
        raise invalid(f"{label}: {where}: visibleBackgroundColor and visibleForegroundColor are mutually exclusive; filter by a fill "
                      "colour or by a text colour")
    out: dict[str, Any] = {}
    for key in given:
        if key.endswith("Style"):
            style = crit[key]
            if not isinstance(style, dict) or "rgbColor" not in style:
                theme_named = isinstance(style, dict) and "themeColor" in style
                raise invalid(f"{label}: {where}.{key} must be set to an RGB-type color ({{\"rgbColor\": {{red, green, blue}}}})"
                              + ("; a themeColor is not accepted here" if theme_named else ""))
            if set(style) - {"rgbColor"}:
                raise invalid(f"{label}: {where}.{key} takes rgbColor only")
            out[key] = {"rgbColor": _color(style["rgbColor"], label, f"{where}.{key}.rgbColor")}
        else:
            out[key] = _color(crit[key], label, f"{where}.{key}")
    return out


def _criteria(crit: Any, label: str, where: str) -> dict[str, Any]:
    if not isinstance(crit, dict):
        raise invalid(f"{label}: {where} must be a FilterCriteria object {{hiddenValues, condition, visibleBackgroundColorStyle, "
                      "visibleForegroundColorStyle}}")
    unknown = sorted(set(crit) - set(CRITERIA_FIELDS) - set(COLOR_FIELDS))
    if unknown:
        raise invalid(f"{label}: {where} has {', '.join(map(repr, unknown))}; a FilterCriteria takes "
                      f"{', '.join(CRITERIA_FIELDS + COLOR_FIELDS)}")
    out: dict[str, Any] = _color_criteria(crit, label, where)
    if crit.get("hiddenValues") is not None:
        hidden = crit["hiddenValues"]
        if not isinstance(hidden, list) or not all(isinstance(v, str) for v in hidden):
            raise invalid(f"{label}: {where}.hiddenValues must be a list of strings (the values as the cells show them)")
        out["hiddenValues"] = list(hidden)
    if crit.get("condition") is not None:
        out["condition"] = conditions.checked(crit["condition"], label, f"{where}.condition", conditions.FILTERS)
    return out


def _index(value: Any, label: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().lstrip("-").isdigit():
        raise invalid(f"{label}: {where} must be an integer")
    return int(value)


def set_basic_filter(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    from apps.sheets.requests import grid_of, sort_range

    spec = body.get("filter")
    if not isinstance(spec, dict):
        raise invalid(f"{label}: filter is required: a BasicFilter {{range, filterSpecs, sortSpecs}}")
    if spec.get("tableId"):
        raise invalid(f"{label}: filter.tableId is not supported here (there are no tables); give filter.range")
    unknown = sorted(set(spec) - {"range", "filterSpecs", "sortSpecs", "criteria", "tableId"})
    if unknown:
        raise invalid(f"{label}: filter has {', '.join(map(repr, unknown))}; a BasicFilter takes range, filterSpecs, sortSpecs (criteria, deprecated)")
    if "range" not in spec:
        raise invalid(f"{label}: filter.range is required: the GridRange the filter covers, its first row the header")
    tab, grid = grid_of(self, ss, spec["range"], f"{label}: filter.range")
    rect = [grid.r1, grid.c1, grid.r2, grid.c2]
    if rect[2] <= rect[0] or rect[3] <= rect[1]:
        raise invalid(f"{label}: filter.range must cover at least one row and one column")
    specs: dict[int, dict[str, Any]] = {}
    given = spec.get("filterSpecs")
    if given is None and isinstance(spec.get("criteria"), dict):  # the deprecated map: column index → criteria
        given = [{"columnIndex": k, "filterCriteria": v} for k, v in spec["criteria"].items()]
    if given is not None and not isinstance(given, list):
        raise invalid(f"{label}: filter.filterSpecs must be a list of FilterSpec {{columnIndex, filterCriteria}}")
    for i, item in enumerate(given or []):
        where = f"filter.filterSpecs[{i}]"
        if not isinstance(item, dict):
            raise invalid(f"{label}: {where} must be a FilterSpec {{columnIndex, filterCriteria}}")
        if "dataSourceColumnReference" in item:
            raise invalid(f"{label}: {where}.dataSourceColumnReference is not supported: there are no data source sheets here; use columnIndex")
        col = _index(item.get("columnIndex"), label, f"{where}.columnIndex")
        if not rect[1] <= col < rect[3]:
            raise invalid(f"{label}: {where}.columnIndex {col} is outside the filter's range (columns {rect[1]} to {rect[3] - 1})")
        if col in specs:
            raise invalid(f"{label}: {where}.columnIndex {col} is given twice; one FilterSpec per column")
        specs[col] = _criteria(item.get("filterCriteria") or {}, label, f"{where}.filterCriteria")
    sorts = spec.get("sortSpecs") or []
    if not isinstance(sorts, list):
        raise invalid(f"{label}: filter.sortSpecs must be a list of SortSpec {{dimensionIndex, sortOrder}}")
    kept_sorts = []
    for i, item in enumerate(sorts):
        where = f"filter.sortSpecs[{i}]"
        if not isinstance(item, dict):
            raise invalid(f"{label}: {where} must be a SortSpec {{dimensionIndex, sortOrder}}")
        extra = sorted(set(item) - {"dimensionIndex", "sortOrder"})
        if extra:
            raise invalid(f"{label}: {where} has {', '.join(map(repr, extra))}; sorting here is by dimensionIndex and sortOrder "
                          "(ASCENDING or DESCENDING), not by color or data source column")
        col = _index(item.get("dimensionIndex"), label, f"{where}.dimensionIndex")
        if not rect[1] <= col < rect[3]:
            raise invalid(f"{label}: {where}.dimensionIndex {col} is outside the filter's range (columns {rect[1]} to {rect[3] - 1})")
        order = item.get("sortOrder") or "ASCENDING"
        if order not in ("ASCENDING", "DESCENDING"):
            raise invalid(f"{label}: {where}.sortOrder must be ASCENDING or DESCENDING")
        kept_sorts.append({"dimensionIndex": col, "sortOrder": order})
    stored: dict[str, Any] = {"range": rect}
    if specs:
        stored["filterSpecs"] = [{"columnIndex": c, "filterCriteria": specs[c]} for c in sorted(specs)]
    if kept_sorts:
        stored["sortSpecs"] = kept_sorts
    tab.basic_filter = tab_rules.dump(stored)
    self.db.flush()
    if kept_sorts and rect[2] - rect[0] > 1:
        sort_range(self, ss, {"range": tab_rules.grid_range(tab.sheet_id, [rect[0] + 1, rect[1], rect[2], rect[3]]),
                              "sortSpecs": kept_sorts}, label)
    return {}


def clear_basic_filter(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    if "sheetId" not in body:
        raise invalid(f"{label}: sheetId is required: the tab whose basic filter to clear")
    wanted = _index(body.get("sheetId"), label, "sheetId")
    tab = next((t for t in self.tabs(ss.id) if t.sheet_id == wanted), None)
    if tab is None:
        raise invalid(f"{label}: No grid with id: {wanted}")
    tab.basic_filter = None
    self.db.flush()
    return {}


def filter_views_refused(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    raise invalid(f"{label}: filter views are not supported here; a tab has one basic filter "
                  "(setBasicFilter, clearBasicFilter), which every reader of the sheet sees")


def basic_filter_json(tab: Any) -> dict[str, Any] | None:
    """`sheets[].basicFilter` as spreadsheets.get shows it (filterSpecs, and the deprecated
    criteria map beside them, as Google fills both)."""
    found = tab_rules.load(tab.basic_filter)
    if not found:
        return None
    out: dict[str, Any] = {"range": tab_rules.grid_range(tab.sheet_id, found["range"])}
    if found.get("sortSpecs"):
        out["sortSpecs"] = found["sortSpecs"]
    if found.get("filterSpecs"):
        out["filterSpecs"] = found["filterSpecs"]
        out["criteria"] = {str(s["columnIndex"]): s["filterCriteria"] for s in found["filterSpecs"]}
    return out


def hidden_rows(tab: Any, stored: Any) -> list[tuple[int, int]]:
    """The rows the tab's basic filter hides, as [start, end) stretches, from the book's
    cells (`stored`: the spreadsheet's StoredBook)."""
    found = tab_rules.load(tab.basic_filter)
    if not found or not found.get("filterSpecs"):
        return []
    r1, c1, r2, c2 = found["range"]
    first, sid, book = r1 + 1, tab.sheet_id, stored.book
    specs = [(s["columnIndex"], s["filterCriteria"]) for s in found["filterSpecs"]]
    reader = conditions.reader_for(stored, sid)

    colored = {col: crit for col, crit in specs if any(k in crit for k in COLOR_FIELDS)}
    shown: dict[tuple[int, int], dict[str, Any]] = {}
    painted: set[int] = set()  # rows whose cell in a colour-filtered column has a fill or text colour of its own or by a rule
    if colored:
        from apps.sheets import conditional_formats

        for col in colored:
            shown.update(conditional_formats.shown_formats(tab, stored, (first, col, r2, col + 1)))
        painted = {r for (s, r, c) in stored.formats if s == sid and c in colored and first <= r < r2} | {r for r, _ in shown}

    def fails(row: int) -> bool:
        for col, crit in specs:
            value = book.get((sid, row, col))
            if col in colored and not _color_shown(crit, stored.formats.get((sid, row, col)), shown.get((row, col))):
                return True
            if crit.get("hiddenValues") and str(display(value, stored.number_format((sid, row, col)))) in crit["hiddenValues"]:
                return True
            condition = crit.get("condition")
            if condition is not None and conditions.holds(condition, value, reader, (row, col), (first, col)) is False:
                return True
        return False

    if any((c.get("condition") or {}).get("type") == "CUSTOM_FORMULA" for _, c in specs):
        # A formula may read any column: every row up to the last one used is asked, and the
        # first row past it answers for the empty ones after it.
        used = min(r2, max(first, book.extent(sid)[0], max(painted, default=first - 1) + 1))
        rows: list[int] = list(range(first, used))
        blank_fails = used < r2 and fails(used)
    else:
        columns = {col for col, _ in specs}
        rows = sorted({r for source in (book.inputs, book.formulas, book.spill) for (s, r, c) in source
                       if s == sid and c in columns and first <= r < r2} | painted)
        blank_fails = fails(-1)  # a row blank in every filtered column (row -1 is never filled)
    failing = [r for r in rows if fails(r)]
    if not blank_fails:
        return _stretches(failing)
    out: list[tuple[int, int]] = []  # the blank rows between (and after) the filled ones, and the filled ones failing
    pos, failed = first, set(failing)
    for r in rows:
        if r > pos:
            out.append((pos, r))
        if r in failed:
            out.append((r, r + 1))
        pos = r + 1
    if pos < r2:
        out.append((pos, r2))
    merged: list[tuple[int, int]] = []
    for a, b in out:
        if merged and merged[-1][1] == a:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged


def _hex(color: Any) -> str | None:
    """rrggbb, as the filter menu names a colour (theme.hex_of without its #)."""
    found = theme.hex_of(color)
    return None if found is None else found[1:]


def shown_color(fill: bool, own: Any, by_rule: dict[str, Any] | None) -> str:
    """The fill (or text) colour a cell shows, as rrggbb: its conditional format's colour over
    its own, a theme colour as the theme draws it, white (black text) when it has none, as
    Google shows it. `own` is the cell's stored (number format, style)."""
    style = load_json(own[1]) if own else None
    style = style if isinstance(style, dict) else {}
    rule = by_rule or {}
    if fill:
        looks = [rule.get("backgroundColorStyle"), rule.get("backgroundColor"), style.get("backgroundColorStyle"), style.get("backgroundColor")]
    else:
        rule_text, own_text = rule.get("textFormat") or {}, style.get("textFormat") or {}
        looks = [rule_text.get("foregroundColorStyle"), rule_text.get("foregroundColor"), own_text.get("foregroundColorStyle"),
                 own_text.get("foregroundColor")]
    return next((h for h in map(_hex, looks) if h is not None), DEFAULT_FILL if fill else DEFAULT_TEXT)


DEFAULT_FILL, DEFAULT_TEXT = "ffffff", "000000"


def wanted_color(crit: dict[str, Any]) -> tuple[bool, str] | None:
    """The colour a FilterCriteria keeps, as (fill?, rrggbb), or None when it asks for none
    (the Style over the deprecated Color, as Google reads them)."""
    for fill, names in ((True, ("visibleBackgroundColorStyle", "visibleBackgroundColor")),
                        (False, ("visibleForegroundColorStyle", "visibleForegroundColor"))):
        given = next((crit[n] for n in names if crit.get(n) is not None), None)
        if given is not None:
            return fill, _hex(given) or DEFAULT_TEXT
    return None


def _color_shown(crit: dict[str, Any], own: Any, by_rule: dict[str, Any] | None) -> bool:
    """Whether a cell shows the fill (text) colour the criteria ask for."""
    fill, wanted = wanted_color(crit)  # type: ignore[misc]
    return shown_color(fill, own, by_rule) == wanted


def _stretches(rows: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for r in rows:
        if out and out[-1][1] == r:
            out[-1] = (out[-1][0], r + 1)
        else:
            out.append((r, r + 1))
    return out


def hidden_by_filter(stored: Any) -> dict[int, list[tuple[int, int]]]:
    """Each tab's rows hidden by its basic filter, sheetId → [start, end) stretches (tabs
    hiding none left out), for a reader of the spreadsheet as shown: `stored` is the
    spreadsheet's StoredBook (its `db`, `spreadsheet_id` and cells)."""
    found = {}
    for tab in stored.db.scalars(select(Sheet).where(Sheet.spreadsheet_id == stored.spreadsheet_id, Sheet.basic_filter.is_not(None))):
        rows = hidden_rows(tab, stored)
        if rows:
            found[tab.sheet_id] = rows
    return found
