"""The rule side panels of the sheets page, as Google Sheets has them: Data ▸ Data validation
("Data validation rules": the tab's rules, "Add rule", a rule's range, criteria, dropdown
options, "If the data is invalid", Done and Remove rule) and Format ▸ Conditional formatting
("Conditional format rules": the rules in order, "Add another rule", "Format cells if…", the
formatting style or the "Color scale" tab, Done, and each rule's remove), and a checkbox cell
toggled by a click or Space.

Each write is the batchUpdate the API takes (setDataValidation; add-, update- and
deleteConditionalFormatRule; a checkbox's value through values.batchUpdate), so the state and
the trajectory are those of any other face. A rule the API refuses leaves the panel open with
what was typed and the API's words. The panel is part of the page's view (`?panel=validation`
or `conditional`, `&rule=` the rule open, "new" for a new one), so it is swapped in like any
other view and a reload shows it again.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from apps.sheets import conditional_formats, conditions, validation
from apps.sheets.a1 import A1Error, GridRange, parse_area, parse_range, quote_sheet
from apps.sheets.entry import enter
from apps.sheets.theme import rgb_to_hex
from apps.sheets.service import SheetsService
from apps.sheets.ui_actions import UiRefusal, _json, _run, _tab
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.web import EnvRoute, current_env, env_store

router = APIRouter(route_class=EnvRoute)

# The criteria of Google's data validation panel, in its order: (label, condition type, what it takes:
# "list" the dropdown's options, "one"/"two" values, "none", "checkbox" optional custom values).
VALIDATION_CRITERIA = (
    ("Dropdown", "ONE_OF_LIST", "list"), ("Dropdown (from a range)", "ONE_OF_RANGE", "one"),
    ("Text contains", "TEXT_CONTAINS", "one"), ("Text does not contain", "TEXT_NOT_CONTAINS", "one"), ("Text is exactly", "TEXT_EQ", "one"),
    ("Text is valid email", "TEXT_IS_EMAIL", "none"), ("Text is valid URL", "TEXT_IS_URL", "none"),
    ("Is valid date", "DATE_IS_VALID", "none"), ("Date is", "DATE_EQ", "one"), ("Date is before", "DATE_BEFORE", "one"),
    ("Date is on or before", "DATE_ON_OR_BEFORE", "one"), ("Date is after", "DATE_AFTER", "one"), ("Date is on or after", "DATE_ON_OR_AFTER", "one"),
    ("Date is between", "DATE_BETWEEN", "two"), ("Date is not between", "DATE_NOT_BETWEEN", "two"),
    ("Greater than", "NUMBER_GREATER", "one"), ("Greater than or equal to", "NUMBER_GREATER_THAN_EQ", "one"), ("Less than", "NUMBER_LESS", "one"),
    ("Less than or equal to", "NUMBER_LESS_THAN_EQ", "one"), ("Is equal to", "NUMBER_EQ", "one"), ("Is not equal to", "NUMBER_NOT_EQ", "one"),
    ("Is between", "NUMBER_BETWEEN", "two"), ("Is not between", "NUMBER_NOT_BETWEEN", "two"),
    ("Checkbox", "BOOLEAN", "checkbox"), ("Custom formula is", "CUSTOM_FORMULA", "one"),
)
# "Format cells if…" of Google's conditional format panel, in its order ("date": a date, or a relative one).
FORMAT_CONDITIONS = (
    ("Is empty", "BLANK", "none"), ("Is not empty", "NOT_BLANK", "none"),
    ("Text contains", "TEXT_CONTAINS", "one"), ("Text does not contain", "TEXT_NOT_CONTAINS", "one"), ("Text starts with", "TEXT_STARTS_WITH", "one"),
    ("Text ends with", "TEXT_ENDS_WITH", "one"), ("Text is exactly", "TEXT_EQ", "one"),
    ("Date is", "DATE_EQ", "one"), ("Date is before", "DATE_BEFORE", "date"), ("Date is after", "DATE_AFTER", "date"),
    ("Greater than", "NUMBER_GREATER", "one"), ("Greater than or equal to", "NUMBER_GREATER_THAN_EQ", "one"), ("Less than", "NUMBER_LESS", "one"),
    ("Less than or equal to", "NUMBER_LESS_THAN_EQ", "one"), ("Is equal to", "NUMBER_EQ", "one"), ("Is not equal to", "NUMBER_NOT_EQ", "one"),
    ("Is between", "NUMBER_BETWEEN", "two"), ("Is not between", "NUMBER_NOT_BETWEEN", "two"), ("Custom formula is", "CUSTOM_FORMULA", "one"),
)
# Date is before / after: "Exact date" (the value typed) or one of Google's relative dates.
RELATIVE_DATES = (("exact", "Exact date"), ("TODAY", "Today"), ("TOMORROW", "Tomorrow"), ("YESTERDAY", "Yesterday"),
                  ("PAST_WEEK", "In the past week"), ("PAST_MONTH", "In the past month"), ("PAST_YEAR", "In the past year"))
# The colours the panel offers (Google's palette names), for text, fill and a colour scale's points.
PALETTE = (
    ("#000000", "black"), ("#434343", "dark gray 4"), ("#999999", "dark gray 1"), ("#ffffff", "white"),
    ("#ff0000", "red"), ("#ff9900", "orange"), ("#ffff00", "yellow"), ("#00ff00", "green"), ("#00ffff", "cyan"), ("#0000ff", "blue"),
    ("#9900ff", "purple"), ("#ff00ff", "magenta"),
    ("#f4cccc", "light red 3"), ("#fce5cd", "light orange 3"), ("#fff2cc", "light yellow 3"), ("#d9ead3", "light green 3"),
    ("#cfe2f3", "light blue 3"), ("#b7e1cd", "light green (default)"), ("#57bb8a", "green (color scale)"),
    ("#e67c73", "red (color scale)"), ("#ffd666", "yellow (color scale)"),
    ("#cc0000", "dark red 1"), ("#6aa84f", "dark green 1"), ("#3d85c6", "dark blue 1"),
)
POINT_KINDS = (("MIN", "Min value"), ("MAX", "Max value"), ("NUMBER", "Number"), ("PERCENT", "Percent"), ("PERCENTILE", "Percentile"))
TEXT_STYLES = (("bold", "Bold"), ("italic", "Italic"), ("underline", "Underline"), ("strikethrough", "Strikethrough"))
OPTION_SLOTS = 2  # "Option" boxes a new dropdown offers ("Add another item" adds one more)

LABELS_V = {kind: label for label, kind, _ in VALIDATION_CRITERIA}
TAKES_V = {kind: takes for _, kind, takes in VALIDATION_CRITERIA}
LABELS_F = {kind: label for label, kind, _ in FORMAT_CONDITIONS}
TAKES_F = {kind: takes for _, kind, takes in FORMAT_CONDITIONS}


# -- colours and ranges ----------------------------------------------------------------------
def _color(hex_text: str) -> dict[str, float]:
    text = hex_text.strip().lstrip("#")
    if len(text) != 6 or any(ch not in "0123456789abcdefABCDEF" for ch in text):
        raise UiRefusal(f"{hex_text[:20]!r} is not a colour: choose one from the list")
    red, green, blue = (int(text[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return {"red": round(red, 4), "green": round(green, 4), "blue": round(blue, 4)}


def _hex(color: Any) -> str:
    if not isinstance(color, dict):
        return ""
    return rgb_to_hex(color.get("rgbColor", color))


def rect_a1(rect: list[int]) -> str:
    return GridRange(None, *rect).a1(with_sheet=False)


def _ranges(text: str, tab: Any) -> list[dict[str, int]]:
    """"Apply to range": one or more A1 ranges of this tab, split by commas (as Google takes them)."""
    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            sheet, grid = parse_range(part)
        except A1Error:
            sheet, grid = None, None
        if sheet is not None and "!" not in part and sheet != tab.title:  # (a word that is no range, nor this tab's name)
            sheet, grid = None, None
        if sheet is not None and sheet != tab.title:
            raise UiRefusal(f"{part[:60]!r} is on another sheet: a rule applies to ranges of this sheet ({tab.title})")
        if grid is None and sheet is None:
            raise UiRefusal(f"Unable to parse range: {part[:60]}")
        grid = grid or GridRange(None, 0, 0, None, None)  # the tab's name alone: all of it
        out.append(_json(tab, grid))
    if not out:
        raise UiRefusal("Apply to range: type the range the rule applies to (e.g. A2:A100)")
    return out


def _back(env: Env, spreadsheet_id: str, sheet: int, cell: str, panel: str, top: int = 0, left: int = 0) -> RedirectResponse:
    query = urlencode({"sheet": sheet, "cell": cell, "top": top, "left": left, **({"panel": panel} if panel else {})})
    return RedirectResponse(f"/envs/{env.id}/sheets/d/{spreadsheet_id}?{query}", status_code=303)


def _refused(request: Request, env: Env, spreadsheet_id: str, sheet: int, cell: str, top: int, left: int, panel: str, rule: str,
             draft: dict[str, Any], error: Exception | str, status: int = 400) -> Response:
    """The page again with the panel open on what was typed, saying (in the panel) why it was not done."""
    from apps.sheets.ui import render_page  # (ui.py includes this module's routes)

    message = error.message if isinstance(error, AppError) else str(error)
    return render_page(request, env, spreadsheet_id, sheet, cell, top, left=left, status=status, panel=panel, rule=rule, draft=draft,
                       panel_error=message)


# -- data validation -----------------------------------------------------------------------
def validation_groups(tab: Any) -> list[dict[str, Any]]:
    """The tab's validation rules as the panel lists them: one entry per rule, with every range it
    covers (the tab keeps them as rectangles that do not overlap)."""
    groups: dict[str, dict[str, Any]] = {}
    for rect, rule in validation.rules(tab):
        key = json.dumps(rule, sort_keys=True)
        groups.setdefault(key, {"ranges": [], "rule": rule})["ranges"].append(rect_a1(rect))
    out = list(groups.values())
    for item in out:
        item["summary"] = _summary(item["rule"]["condition"], LABELS_V)
    return out


def _summary(condition: dict[str, Any], labels: dict[str, str]) -> str:
    values = [v.get("userEnteredValue") or dict(RELATIVE_DATES).get(v.get("relativeDate", ""), "").lower() for v in condition.get("values") or []]
    label = labels.get(condition["type"], condition["type"])
    if condition["type"] == "ONE_OF_LIST":
        return f"{label}: {', '.join(values)}"
    if condition["type"] == "BOOLEAN":
        return label + (f" ({' / '.join(values)})" if values else "")
    return f"{label} {' and '.join(values)}".strip()


def validation_draft(group: dict[str, Any] | None, selected: str) -> dict[str, Any]:
    """The rule form's fields for a rule as stored (None: a new rule over the selection)."""
    if group is None:
        return {"range": selected, "criteria": "ONE_OF_LIST", "option": [], "value1": "", "value2": "", "custom_values": False,
                "checked_value": "", "unchecked_value": "", "invalid": "warning", "help_on": False, "help_text": "", "old": ""}
    rule = group["rule"]
    kind = rule["condition"]["type"]
    values = [v.get("userEnteredValue", "") for v in rule["condition"].get("values") or []]
    takes = TAKES_V.get(kind, "one")
    return {"range": ", ".join(group["ranges"]), "criteria": kind, "option": values if takes == "list" else [],
            "value1": values[0] if takes in ("one", "two") and values else "", "value2": values[1] if takes == "two" and len(values) > 1 else "",
            "custom_values": takes == "checkbox" and bool(values), "checked_value": values[0] if takes == "checkbox" and values else "",
            "unchecked_value": values[1] if takes == "checkbox" and len(values) > 1 else "",
            "invalid": "reject" if rule.get("strict") else "warning", "help_on": bool(rule.get("inputMessage")),
            "help_text": rule.get("inputMessage", ""), "old": ", ".join(group["ranges"])}


def _validation_rule(draft: dict[str, Any]) -> dict[str, Any]:
    kind = draft["criteria"]
    takes = TAKES_V.get(kind)
    if takes is None:
        raise UiRefusal(f"choose the criteria of the rule ({kind[:40]!r} is not one)")
    values: list[str] = []
    if takes == "list":
        values = [o.strip() for o in draft["option"] if o.strip()]
        if not values:
            raise UiRefusal("Dropdown: type at least one option")
    elif takes == "one":
        values = [draft["value1"].strip()]
    elif takes == "two":
        values = [draft["value1"].strip(), draft["value2"].strip()]
    elif takes == "checkbox" and draft["custom_values"]:
        values = [draft["checked_value"].strip(), draft["unchecked_value"].strip()]
    rule: dict[str, Any] = {"condition": {"type": kind, **({"values": [{"userEnteredValue": v} for v in values]} if values else {})},
                            "strict": draft["invalid"] == "reject"}
    if kind in ("ONE_OF_LIST", "ONE_OF_RANGE"):
        rule["showCustomUi"] = True  # (the dropdown's chip, as Google's panel makes it)
    if draft["help_on"] and draft["help_text"].strip():
        rule["inputMessage"] = draft["help_text"].strip()
    return rule


@router.post("/d/{spreadsheet_id}/validation")
def data_validation(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form("A1"), top: int = Form(0),
                    left: int = Form(0), rule: str = Form("new"), old: str = Form(""), step: str = Form("done"), range: str = Form(""),
                    criteria: str = Form("ONE_OF_LIST"), option: list[str] = Form(default=[]), value1: str = Form(""), value2: str = Form(""),
                    custom_values: bool = Form(False), checked_value: str = Form(""), unchecked_value: str = Form(""),
                    invalid: str = Form("warning"), help_on: bool = Form(False), help_text: str = Form(""),
                    env: Env = Depends(current_env)) -> Response:
    """The rule form's Done (setDataValidation over its ranges, the ones it had before cleared
    first), Remove rule (its ranges cleared), or "Add another item" (the form again, one more
    option box)."""
    draft = {"range": range, "criteria": criteria, "option": option, "value1": value1, "value2": value2, "custom_values": custom_values,
             "checked_value": checked_value, "unchecked_value": unchecked_value, "invalid": invalid, "help_on": help_on,
             "help_text": help_text, "old": old}
    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, left, "", "", {}, "That sheet does not exist.", 404)
    if step == "more":
        draft["option"] = [*option, ""]
        return _refused(request, env, spreadsheet_id, sheet, cell, top, left, "validation", rule, draft, "", 200)
    try:
        cleared = [{"setDataValidation": {"range": r}} for r in (_ranges(old, tab) if old.strip() else [])]
        if step == "remove":
            requests = cleared
        else:
            made = _validation_rule(draft)
            requests = cleared + [{"setDataValidation": {"range": r, "rule": made}} for r in _ranges(range, tab)]
        if requests:
            _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": requests})
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, left, "validation", rule, draft, error)
    return _back(env, spreadsheet_id, sheet, cell, "validation", top, left)


# -- conditional formatting ----------------------------------------------------------------
def format_rules(tab: Any) -> list[dict[str, Any]]:
    """The tab's conditional format rules, in order, as the panel lists them."""
    out = []
    for rule in conditional_formats._rules(tab):
        ranges = ", ".join(rect_a1(r) for r in rule["ranges"])
        if "gradientRule" in rule:
            g = rule["gradientRule"]
            colors = [_hex(g[p].get("colorStyle") or g[p].get("color")) for p in ("minpoint", "midpoint", "maxpoint") if p in g]
            out.append({"ranges": ranges, "summary": "Color scale", "css": f"background:linear-gradient(90deg,{','.join(c or '#ffffff' for c in colors)})"})
        else:
            from apps.sheets.ui import _css

            out.append({"ranges": ranges, "summary": _summary(rule["booleanRule"]["condition"], LABELS_F),
                        "css": _css(rule["booleanRule"].get("format") or {})})
    return out


def format_draft(rule: dict[str, Any] | None, selected: str) -> dict[str, Any]:
    """The rule form's fields for a rule as stored (None: a new one over the selection, with
    Google's default style)."""
    draft: dict[str, Any] = {"range": selected, "tab": "single", "condition": "NOT_BLANK", "value1": "", "value2": "", "date_kind": "exact",
                             "bold": False, "italic": False, "underline": False, "strikethrough": False, "text_color": "", "fill_color": "#b7e1cd",
                             "min_type": "MIN", "min_value": "", "min_color": "#57bb8a", "mid_type": "", "mid_value": "", "mid_color": "#ffd666",
                             "max_type": "MAX", "max_value": "", "max_color": "#ffffff"}
    if rule is None:
        return draft
    draft["range"] = ", ".join(rect_a1(r) for r in rule["ranges"])
    if "gradientRule" in rule:
        draft["tab"] = "scale"
        for name, key in (("min", "minpoint"), ("mid", "midpoint"), ("max", "maxpoint")):
            point = rule["gradientRule"].get(key)
            if point is None:
                draft[f"{name}_type"] = ""
                continue
            draft[f"{name}_type"] = point["type"]
            draft[f"{name}_value"] = point.get("value", "")
            draft[f"{name}_color"] = _hex(point.get("colorStyle") or point.get("color")) or "#ffffff"
        return draft
    condition, fmt = rule["booleanRule"]["condition"], rule["booleanRule"].get("format") or {}
    values = condition.get("values") or []
    draft["condition"] = condition["type"]
    if values and "relativeDate" in values[0]:
        draft["date_kind"] = values[0]["relativeDate"]
    else:
        draft["value1"] = values[0].get("userEnteredValue", "") if values else ""
    draft["value2"] = values[1].get("userEnteredValue", "") if len(values) > 1 else ""
    text = fmt.get("textFormat") or {}
    for key, _ in TEXT_STYLES:
        draft[key] = bool(text.get(key))
    draft["text_color"] = _hex(text.get("foregroundColorStyle") or text.get("foregroundColor"))
    draft["fill_color"] = _hex(fmt.get("backgroundColorStyle") or fmt.get("backgroundColor"))
    return draft


def _format_rule(draft: dict[str, Any], ranges: list[dict[str, int]]) -> dict[str, Any]:
    if draft["tab"] == "scale":
        gradient: dict[str, Any] = {}
        for name, key in (("min", "minpoint"), ("mid", "midpoint"), ("max", "maxpoint")):
            kind = draft[f"{name}_type"]
            if not kind:
                continue
            point: dict[str, Any] = {"type": kind, "color": _color(draft[f"{name}_color"])}
            if kind not in ("MIN", "MAX"):
                point["value"] = draft[f"{name}_value"].strip()
            gradient[key] = point
        return {"ranges": ranges, "gradientRule": gradient}
    kind = draft["condition"]
    takes = TAKES_F.get(kind)
    if takes is None:
        raise UiRefusal(f"choose a condition under Format cells if… ({kind[:40]!r} is not one)")
    values: list[dict[str, str]] = []
    if takes == "date" and draft["date_kind"] != "exact":
        values = [{"relativeDate": draft["date_kind"]}]
    elif takes in ("one", "date"):
        values = [{"userEnteredValue": draft["value1"].strip()}]
    elif takes == "two":
        values = [{"userEnteredValue": draft["value1"].strip()}, {"userEnteredValue": draft["value2"].strip()}]
    text: dict[str, Any] = {key: True for key, _ in TEXT_STYLES if draft[key]}
    if draft["text_color"]:
        text["foregroundColor"] = _color(draft["text_color"])
    fmt: dict[str, Any] = {**({"textFormat": text} if text else {})}
    if draft["fill_color"]:
        fmt["backgroundColor"] = _color(draft["fill_color"])
    return {"ranges": ranges, "booleanRule": {"condition": {"type": kind, **({"values": values} if values else {})}, "format": fmt}}


@router.post("/d/{spreadsheet_id}/conditional")
def conditional_formatting(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form("A1"), top: int = Form(0),
                           left: int = Form(0), rule: str = Form("new"), step: str = Form("done"), range: str = Form(""),
                           condition: str = Form("NOT_BLANK"), value1: str = Form(""), value2: str = Form(""), date_kind: str = Form("exact"),
                           bold: bool = Form(False), italic: bool = Form(False), underline: bool = Form(False), strikethrough: bool = Form(False),
                           text_color: str = Form(""), fill_color: str = Form(""), min_type: str = Form("MIN"), min_value: str = Form(""),
                           min_color: str = Form("#57bb8a"), mid_type: str = Form(""), mid_value: str = Form(""), mid_color: str = Form("#ffd666"),
                           max_type: str = Form("MAX"), max_value: str = Form(""), max_color: str = Form("#ffffff"), tab_kind: str = Form("single"),
                           env: Env = Depends(current_env)) -> Response:
    """The rule form's Done (addConditionalFormatRule at the end of the list, or
    updateConditionalFormatRule for the rule open), a rule's remove
    (deleteConditionalFormatRule) or move up or down the list (updateConditionalFormatRule's
    newIndex), or a switch between the "Single color" and "Color scale"
    tabs (the form again, what was typed kept)."""
    draft = {"range": range, "tab": "scale" if tab_kind == "scale" else "single", "condition": condition, "value1": value1, "value2": value2,
             "date_kind": date_kind, "bold": bold, "italic": italic, "underline": underline, "strikethrough": strikethrough,
             "text_color": text_color, "fill_color": fill_color, "min_type": min_type, "min_value": min_value, "min_color": min_color,
             "mid_type": mid_type, "mid_value": mid_value, "mid_color": mid_color, "max_type": max_type, "max_value": max_value,
             "max_color": max_color}
    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, left, "", "", {}, "That sheet does not exist.", 404)
    if step in ("single", "scale"):
        draft["tab"] = step
        return _refused(request, env, spreadsheet_id, sheet, cell, top, left, "conditional", rule, draft, "", 200)
    try:
        index = int(rule) if rule.isdigit() else None
        if step in ("remove", "up", "down") and index is None:
            return _back(env, spreadsheet_id, sheet, cell, "conditional", top, left)
        if step == "remove":
            request_body: dict[str, Any] = {"deleteConditionalFormatRule": {"sheetId": tab.sheet_id, "index": index}}
        elif step in ("up", "down"):  # a rule moved up or down the list (the first rule that holds on a cell decides its look)
            request_body = {"updateConditionalFormatRule": {"sheetId": tab.sheet_id, "index": index, "newIndex": index + (-1 if step == "up" else 1)}}
        else:
            made = _format_rule(draft, _ranges(range, tab))
            if index is None:
                count = len(conditional_formats._rules(tab))
                request_body = {"addConditionalFormatRule": {"rule": made, "index": count}}
            else:
                request_body = {"updateConditionalFormatRule": {"sheetId": tab.sheet_id, "index": index, "rule": made}}
        _run(request, env, "sheets.spreadsheets.batchUpdate", {"spreadsheetId": spreadsheet_id, "requests": [request_body]})
    except (AppError, UiRefusal) as error:
        return _refused(request, env, spreadsheet_id, sheet, cell, top, left, "conditional", rule, draft, error)
    return _back(env, spreadsheet_id, sheet, cell, "conditional", top, left)


# -- the panel's context for the page ------------------------------------------------------
def _opened(rule: str, count: int, draft: dict[str, Any] | None, covering: int | None, open_covering: bool) -> str:
    """Which rule the panel opens: the one asked for ("new", or its place in the list); from the
    menu ("auto"), the rule over the selection (or the list of rules, for conditional formats,
    when one is there), else a new rule over the selection, as Google opens it; else the list
    (the new rule's form when there are none, or when a draft is back from a refusal)."""
    if rule == "new" or (rule.isdigit() and int(rule) < count):
        return rule
    if rule == "auto":
        if covering is None:
            return "new"
        return str(covering) if open_covering else ""
    return "new" if not count or draft else ""


def _anchor(selected: str) -> tuple[int, int] | None:
    try:
        area = parse_area(selected)
    except A1Error:
        return None
    return area.r1, area.c1


def panel_context(tab: Any, selected: str, panel: str, rule: str, draft: dict[str, Any] | None, error: str) -> dict[str, Any] | None:
    """What the page's side panel shows: the list of rules, or the rule open in its form."""
    at = _anchor(selected)
    if panel == "validation":
        groups = validation_groups(tab)
        over = validation.rule_at(tab, *at) if at and rule == "auto" else None
        covering = next((i for i, g in enumerate(groups) if g["rule"] == over), None) if over is not None else None
        open_rule = _opened(rule, len(groups), draft, covering, True)
        if draft is None and open_rule:
            draft = validation_draft(None if open_rule == "new" else groups[int(open_rule)], selected)
        if draft is not None:  # the "Option" boxes: the items, and at least two
            draft = {**draft, "slots": [*draft["option"], *[""] * max(0, OPTION_SLOTS - len(draft["option"]))]}
        return {"kind": "validation", "title": "Data validation rules", "rules": groups, "open": open_rule, "draft": draft, "error": error,
                "criteria": VALIDATION_CRITERIA, "takes": TAKES_V.get(draft["criteria"], "one") if draft else ""}
    if panel == "conditional":
        rules = format_rules(tab)
        stored = conditional_formats._rules(tab)
        covering = next((i for i, r in enumerate(stored) if at and any(r1 <= at[0] < r2 and c1 <= at[1] < c2 for r1, c1, r2, c2 in r["ranges"])),
                        None) if rule == "auto" else None
        open_rule = _opened(rule, len(rules), draft, covering, False)
        if draft is None and open_rule:
            draft = format_draft(None if open_rule == "new" else stored[int(open_rule)], selected)
        palette = list(PALETTE)
        if draft is not None:
            for key in ("text_color", "fill_color", "min_color", "mid_color", "max_color"):
                if draft[key] and draft[key].lower() not in {h for h, _ in palette}:
                    palette.append((draft[key].lower(), f"custom {draft[key].lower()}"))
        return {"kind": "conditional", "title": "Conditional format rules", "rules": rules, "open": open_rule, "draft": draft, "error": error,
                "conditions": FORMAT_CONDITIONS, "relative": RELATIVE_DATES, "palette": palette, "points": POINT_KINDS, "styles": TEXT_STYLES,
                "takes": TAKES_F.get(draft["condition"], "one") if draft else ""}
    return None


# -- checkboxes ----------------------------------------------------------------------------
def checked_value(rule: dict[str, Any]) -> tuple[Any, Any]:
    """A checkbox rule's (checked, unchecked) values: TRUE and FALSE, or its custom ones."""
    values = rule["condition"].get("values") or []
    if not values:
        return True, False
    on = enter(values[0]["userEnteredValue"], "USER_ENTERED").value
    off = enter(values[1]["userEnteredValue"], "USER_ENTERED").value if len(values) > 1 else None
    return on, off


def is_checked(rule: dict[str, Any], value: Any) -> bool:
    on, _ = checked_value(rule)
    if value is None or value == "":
        return False
    return conditions._same(value, on)


def _typed(value: Any) -> str:
    if value is True or value is False:
        return "TRUE" if value else "FALSE"
    return "" if value is None else str(value)


@router.post("/d/{spreadsheet_id}/toggle")
def toggle_checkbox(request: Request, spreadsheet_id: str, sheet: int = Form(...), cell: str = Form(...), top: int = Form(0), left: int = Form(0),
                    panel: str = Form(""), env: Env = Depends(current_env)) -> Response:
    """A click on a checkbox, or Space with checkboxes selected: the selection's checkboxes all
    ticked, or all cleared when every one was ticked (as Google toggles them), written as the
    rule's checked and unchecked values (TRUE and FALSE unless it has its own)."""
    from apps.sheets.ui import render_page

    tab = _tab(request, env, spreadsheet_id, sheet)
    if tab is None:
        return render_page(request, env, spreadsheet_id, sheet, cell, top, error="That sheet does not exist.", status=404)
    try:
        try:
            grid = parse_area(cell.strip()).bounded(tab.row_count, tab.column_count)
        except A1Error:
            raise UiRefusal(f"{cell[:40]!r} is not a cell or range") from None
        with env_store(request).session(env, reading=True) as db:
            book = SheetsService(db).book(spreadsheet_id).book
            boxes = []
            for (r1, c1, r2, c2), rule in validation.rules(tab):
                if rule["condition"]["type"] != "BOOLEAN":
                    continue
                for r in range(max(r1, grid.r1), min(r2, grid.r2)):  # type: ignore[type-var]
                    for c in range(max(c1, grid.c1), min(c2, grid.c2)):  # type: ignore[type-var]
                        boxes.append((r, c, rule, is_checked(rule, book.get((tab.sheet_id, r, c)))))
        if not boxes:
            raise UiRefusal("there is no checkbox in the selection: choose Insert ▸ Checkbox first")
        tick = not all(on for *_, on in boxes)
        data = [{"range": f"{quote_sheet(tab.title)}!{GridRange(None, r, c, r + 1, c + 1).a1(with_sheet=False)}",
                 "values": [[_typed(checked_value(rule)[0 if tick else 1])]]} for r, c, rule, _ in sorted(boxes, key=lambda b: (b[0], b[1]))]
        _run(request, env, "sheets.values.batchUpdate", {"spreadsheetId": spreadsheet_id, "valueInputOption": "USER_ENTERED", "data": data})
    except (AppError, UiRefusal) as error:
        message = error.message if isinstance(error, AppError) else str(error)
        return render_page(request, env, spreadsheet_id, sheet, cell, top, left=left, error=message, status=400)
    return _back(env, spreadsheet_id, sheet, cell, panel[:20], top, left)
