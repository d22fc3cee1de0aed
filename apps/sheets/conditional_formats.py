"""Conditional format rules (batchUpdate's addConditionalFormatRule, updateConditionalFormatRule,
deleteConditionalFormatRule; `sheets[].conditionalFormats` in spreadsheets.get, in order): each
a ConditionalFormatRule over ranges of one tab, with a booleanRule (a BooleanCondition and the
format a matching cell takes: bold, italic, strikethrough, underline, text and background
colors) or a gradientRule (a color scale between a minpoint and a maxpoint, with an optional
midpoint). Kept on the tab in order, as JSON, their ranges moved with the rows and columns
around them (tab_rules.py) and carried with the tab.

`shown_formats` works out the format each cell takes, for the browser grid: of the rules that
apply to a cell, the first in the list decides, as in Google Sheets."""

from __future__ import annotations

import math
from typing import Any

from apps.sheets import conditions, tab_rules
from apps.sheets.errors import invalid
from apps.sheets.models import Spreadsheet

TEXT_FIELDS = ("bold", "italic", "strikethrough", "underline", "foregroundColor", "foregroundColorStyle")
FORMAT_FIELDS = ("backgroundColor", "backgroundColorStyle", "textFormat")
POINT_TYPES = ("MIN", "MAX", "NUMBER", "PERCENT", "PERCENTILE")


def _format(fmt: Any, label: str) -> dict[str, Any]:
    if fmt is None:
        return {}
    if not isinstance(fmt, dict):
        raise invalid(f"{label}: rule.booleanRule.format must be a CellFormat object")
    other = sorted(set(fmt) - set(FORMAT_FIELDS))
    if other:
        raise invalid(f"{label}: rule.booleanRule.format.{other[0]} can't be set by a conditional format; it takes "
                      "backgroundColor and textFormat (bold, italic, strikethrough, underline, foregroundColor)")
    text = fmt.get("textFormat") or {}
    if not isinstance(text, dict):
        raise invalid(f"{label}: rule.booleanRule.format.textFormat must be an object")
    other = sorted(set(text) - set(TEXT_FIELDS))
    if other:
        raise invalid(f"{label}: rule.booleanRule.format.textFormat.{other[0]} can't be set by a conditional format; "
                      f"it takes {', '.join(TEXT_FIELDS)}")
    for key in ("backgroundColor", "backgroundColorStyle"):
        if key in fmt and not isinstance(fmt[key], dict):
            raise invalid(f"{label}: rule.booleanRule.format.{key} must be a Color object {{red, green, blue}}")
    return dict(fmt)


def _point(point: Any, label: str, name: str, required: bool) -> dict[str, Any] | None:
    where = f"rule.gradientRule.{name}"
    if point is None:
        if required:
            raise invalid(f"{label}: {where} is required: an InterpolationPoint {{type, value, color}}")
        return None
    if not isinstance(point, dict):
        raise invalid(f"{label}: {where} must be an InterpolationPoint {{type, value, color}}")
    kind = point.get("type")
    if kind not in POINT_TYPES:
        raise invalid(f"{label}: {where}.type must be one of {', '.join(POINT_TYPES)}")
    out: dict[str, Any] = {"type": kind}
    for key in ("color", "colorStyle"):
        if key in point:
            if not isinstance(point[key], dict):
                raise invalid(f"{label}: {where}.{key} must be a Color object")
            out[key] = point[key]
    if kind not in ("MIN", "MAX"):
        value = point.get("value")
        if value is None or str(value).strip() == "":
            raise invalid(f"{label}: {where}.value is required for type {kind}")
        text = str(value)
        if not text.startswith("="):
            try:
                number = float(text)
            except ValueError:
                raise invalid(f"{label}: {where}.value must be a number (or a formula); got {text!r}") from None
            if kind in ("PERCENT", "PERCENTILE") and not 0 <= number <= 100:
                raise invalid(f"{label}: {where}.value must be 0 to 100 for type {kind}")
        out["value"] = text
    return out


def rule_checked(self: Any, ss: Spreadsheet, rule: Any, label: str) -> tuple[Any, dict[str, Any]]:
    """(tab, the rule as stored: ranges as rectangles) or Google's 400."""
    from apps.sheets.requests import grid_of

    if not isinstance(rule, dict):
        raise invalid(f"{label}: rule is required: a ConditionalFormatRule {{ranges, booleanRule | gradientRule}}")
    unknown = sorted(set(rule) - {"ranges", "booleanRule", "gradientRule"})
    if unknown:
        raise invalid(f"{label}: rule has {', '.join(map(repr, unknown))}; a ConditionalFormatRule takes ranges and booleanRule or gradientRule")
    ranges = rule.get("ranges")
    if not isinstance(ranges, list) or not ranges:
        raise invalid(f"{label}: rule.ranges is required: the GridRanges to format (all on one sheet)")
    tab, rects = None, []
    for i, item in enumerate(ranges):
        found, grid = grid_of(self, ss, item, f"{label}: rule.ranges[{i}]")
        if tab is not None and found.sheet_id != tab.sheet_id:
            raise invalid(f"{label}: rule.ranges must all be on the same grid (sheetId {tab.sheet_id}; ranges[{i}] is on {found.sheet_id})")
        tab = found
        rects.append([grid.r1, grid.c1, grid.r2, grid.c2])
    if ("booleanRule" in rule) == ("gradientRule" in rule):
        raise invalid(f"{label}: rule must have exactly one of booleanRule or gradientRule")
    out: dict[str, Any] = {"ranges": rects}
    if "booleanRule" in rule:
        boolean = rule["booleanRule"]
        if not isinstance(boolean, dict):
            raise invalid(f"{label}: rule.booleanRule must be a BooleanRule {{condition, format}}")
        condition = conditions.checked(boolean.get("condition"), label, "rule.booleanRule.condition", conditions.FORMATTING)
        if condition["type"] == "CUSTOM_FORMULA":
            from apps.sheets.formulas.parser import FormulaSyntaxError, parse

            try:
                parse(condition["values"][0]["userEnteredValue"])
            except FormulaSyntaxError as bad:
                raise invalid(f"{label}: rule.booleanRule.condition CUSTOM_FORMULA is not a valid formula: {bad}") from None
        out["booleanRule"] = {"condition": condition, "format": _format(boolean.get("format"), label)}
    else:
        gradient = rule["gradientRule"]
        if not isinstance(gradient, dict):
            raise invalid(f"{label}: rule.gradientRule must be a GradientRule {{minpoint, midpoint, maxpoint}}")
        points = {name: _point(gradient.get(name), label, name, name != "midpoint") for name in ("minpoint", "midpoint", "maxpoint")}
        out["gradientRule"] = {k: v for k, v in points.items() if v is not None}
    return tab, out


def _rules(tab: Any) -> list[dict[str, Any]]:
    return list(tab_rules.load(tab.conditional_formats) or [])


def _tab_by_id(self: Any, ss: Spreadsheet, value: Any, label: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(f"{label}: sheetId is required: an integer")
    tab = next((t for t in self.tabs(ss.id) if t.sheet_id == value), None)
    if tab is None:
        raise invalid(f"{label}: No grid with id: {value}")
    return tab


def _at(value: Any, label: str, name: str, count: int, inclusive: bool = False) -> int:
    if value is None:
        value = 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(f"{label}: {name} must be an integer")
    top = count if inclusive else count - 1
    if not 0 <= value <= top:
        raise invalid(f"{label}: {name} {value} is out of range: the sheet has {count} conditional format rule{'s' if count != 1 else ''}"
                      + (f" ({name} 0 to {top})" if top >= 0 else ""))
    return value


def add_rule(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab, rule = rule_checked(self, ss, body.get("rule"), label)
    rules = _rules(tab)
    index = _at(body.get("index"), label, "index", len(rules), inclusive=True)
    rules.insert(index, rule)
    tab.conditional_formats = tab_rules.dump(rules)
    self.db.flush()
    return {}


def update_rule(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    if ("rule" in body) == ("newIndex" in body):
        raise invalid(f"{label}: give exactly one of rule (to replace the rule at index) or newIndex (with sheetId, to move it)")
    if "newIndex" in body:
        tab = _tab_by_id(self, ss, body.get("sheetId"), label)
        rules = _rules(tab)
        index = _at(body.get("index"), label, "index", len(rules))
        new = _at(body.get("newIndex"), label, "newIndex", len(rules))
        rule = rules.pop(index)
        rules.insert(new, rule)
        tab.conditional_formats = tab_rules.dump(rules)
        self.db.flush()
        return {"updateConditionalFormatRule": {"newRule": rule_json(tab.sheet_id, rule), "oldIndex": index, "newIndex": new}}
    tab, rule = rule_checked(self, ss, body.get("rule"), label)
    if body.get("sheetId") is not None and body["sheetId"] != tab.sheet_id:
        raise invalid(f"{label}: rule.ranges are on sheetId {tab.sheet_id}, not on sheetId {body['sheetId']}")
    rules = _rules(tab)
    index = _at(body.get("index"), label, "index", len(rules))
    old, rules[index] = rules[index], rule
    tab.conditional_formats = tab_rules.dump(rules)
    self.db.flush()
    return {"updateConditionalFormatRule": {"newRule": rule_json(tab.sheet_id, rule), "oldRule": rule_json(tab.sheet_id, old),
                                            "newIndex": index}}


def delete_rule(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab = _tab_by_id(self, ss, body.get("sheetId"), label)
    rules = _rules(tab)
    index = _at(body.get("index"), label, "index", len(rules))
    gone = rules.pop(index)
    tab.conditional_formats = tab_rules.dump(rules)
    self.db.flush()
    return {"deleteConditionalFormatRule": {"rule": rule_json(tab.sheet_id, gone)}}


def rule_json(sheet_id: int, rule: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"ranges": [tab_rules.grid_range(sheet_id, rect) for rect in rule["ranges"]]}
    for key in ("booleanRule", "gradientRule"):
        if key in rule:
            out[key] = rule[key]
    return out


def rules_json(tab: Any) -> list[dict[str, Any]]:
    """`sheets[].conditionalFormats`, in order."""
    return [rule_json(tab.sheet_id, rule) for rule in _rules(tab)]


# -- what the grid shows -------------------------------------------------------------------
def _rgb(color: Any) -> tuple[float, float, float] | None:
    if not isinstance(color, dict):
        return None
    color = color.get("rgbColor", color)
    return tuple(float(color.get(k, 0) or 0) for k in ("red", "green", "blue"))  # type: ignore[return-value]


def _point_color(point: dict[str, Any]) -> tuple[float, float, float]:
    return _rgb(point.get("colorStyle")) or _rgb(point.get("color")) or (1.0, 1.0, 1.0)


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _gradient(rule: dict[str, Any], numbers: dict[tuple[int, int], float], reader: conditions.Reader) -> dict[tuple[int, int], Any]:
    if not numbers:
        return {}
    values = list(numbers.values())
    low, high = min(values), max(values)
    stops = []
    for name in ("minpoint", "midpoint", "maxpoint"):
        point = rule.get(name)
        if point is None:
            continue
        kind = point["type"]
        if kind == "MIN":
            at = low
        elif kind == "MAX":
            at = high
        else:
            text = point["value"]
            raw = reader.formula(text, 0, 0) if text.startswith("=") and reader.formula else float(text) if not text.startswith("=") else None
            if not isinstance(raw, (int, float)) or isinstance(raw, bool):
                continue
            at = float(raw) if kind == "NUMBER" else low + (high - low) * float(raw) / 100 if kind == "PERCENT" else _percentile(values, float(raw))
        stops.append((at, _point_color(point)))
    if len(stops) < 2:
        return {}
    out = {}
    for cell, number in numbers.items():
        if number <= stops[0][0]:
            color = stops[0][1]
        elif number >= stops[-1][0]:
            color = stops[-1][1]
        else:
            color = stops[-1][1]
            for (a, ca), (b, cb) in zip(stops, stops[1:]):
                if a <= number <= b:
                    t = 0.0 if b == a else (number - a) / (b - a)
                    color = tuple(x + (y - x) * t for x, y in zip(ca, cb))  # type: ignore[assignment]
                    break
        out[cell] = {"backgroundColor": dict(zip(("red", "green", "blue"), (round(c, 4) for c in color)))}
    return out


def shown_formats(tab: Any, stored: Any, window: tuple[int, int, int, int]) -> dict[tuple[int, int], dict[str, Any]]:
    """The format each cell in `window` ([r1, c1, r2, c2]) takes from the tab's rules: (row,
    col) → {backgroundColor, textFormat}; cells no rule formats are left out."""
    rules = _rules(tab)
    if not rules:
        return {}
    sid, book = tab.sheet_id, stored.book
    reader = conditions.reader_for(stored, sid)
    w1, v1, w2, v2 = window
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for rule in rules:
        if "gradientRule" in rule:
            numbers = {}
            for r1, c1, r2, c2 in rule["ranges"]:
                for (s, r, c) in (*book.inputs, *book.formulas, *book.spill):
                    if s == sid and r1 <= r < r2 and c1 <= c < c2:
                        value = book.get((s, r, c))
                        if isinstance(value, (int, float)) and not isinstance(value, bool):
                            numbers[(r, c)] = float(value)
            for cell, fmt in _gradient(rule["gradientRule"], numbers, reader).items():
                if w1 <= cell[0] < w2 and v1 <= cell[1] < v2:
                    out.setdefault(cell, fmt)
            continue
        condition, fmt = rule["booleanRule"]["condition"], rule["booleanRule"]["format"]
        for r1, c1, r2, c2 in rule["ranges"]:
            for r in range(max(r1, w1), min(r2, w2)):
                for c in range(max(c1, v1), min(c2, v2)):
                    if (r, c) in out:
                        continue
                    if conditions.holds(condition, book.get((sid, r, c)), reader, (r, c), (r1, c1)):
                        out[(r, c)] = fmt
    return out
