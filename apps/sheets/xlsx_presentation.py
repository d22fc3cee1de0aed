"""A tab's presentation in an .xlsx file, both ways (openpyxl): its basic filter as the sheet's
auto filter (the rows it hides written hidden, as Excel saves a filtered sheet), its data
validation rules, its conditional formats and its cells' borders.

What Excel and Google Sheets both have goes across as it is: list and range dropdowns, number
and date rules, custom formulas, cell-value and text conditional formats, color scales, the
border styles. What one has and the other has not is carried as its nearest equal (a Sheets
checkbox is a TRUE/FALSE list in Excel; Excel's text-length rule a custom formula here) or left
out on import (data bars, icon sets, top-10 rules: Google converts them to nothing either)."""

from __future__ import annotations

from typing import Any

from apps.sheets import tab_rules
from apps.sheets.a1 import cell_name, quote_sheet
from apps.sheets.entry import enter, load_json
from apps.sheets.formulas.formats import display

# Google's border styles and Excel's
BORDER_TO_FILE = {"SOLID": "thin", "SOLID_MEDIUM": "medium", "SOLID_THICK": "thick", "DOTTED": "dotted", "DASHED": "dashed",
                  "DOUBLE": "double"}
BORDER_FROM_FILE = {"thin": "SOLID", "hair": "SOLID", "medium": "SOLID_MEDIUM", "thick": "SOLID_THICK", "dotted": "DOTTED",
                    "dashed": "DASHED", "mediumDashed": "DASHED", "dashDot": "DASHED", "mediumDashDot": "DASHED", "dashDotDot": "DASHED",
                    "mediumDashDotDot": "DASHED", "slantDashDot": "DASHED", "double": "DOUBLE"}
WIDTHS = {"DOTTED": 1, "DASHED": 1, "SOLID": 1, "SOLID_MEDIUM": 2, "SOLID_THICK": 3, "DOUBLE": 3}
# ConditionType ↔ Excel's cellIs / data validation operators
OPERATORS = {"GREATER": "greaterThan", "GREATER_THAN_EQ": "greaterThanOrEqual", "LESS": "lessThan", "LESS_THAN_EQ": "lessThanOrEqual",
             "EQ": "equal", "NOT_EQ": "notEqual", "BETWEEN": "between", "NOT_BETWEEN": "notBetween",
             "AFTER": "greaterThan", "ON_OR_AFTER": "greaterThanOrEqual", "BEFORE": "lessThan", "ON_OR_BEFORE": "lessThanOrEqual"}
NUMBER_FROM_FILE = {v: "NUMBER_" + k for k, v in OPERATORS.items() if k in ("GREATER", "GREATER_THAN_EQ", "LESS", "LESS_THAN_EQ", "EQ",
                                                                          "NOT_EQ", "BETWEEN", "NOT_BETWEEN")}
DATE_FROM_FILE = {"greaterThan": "DATE_AFTER", "greaterThanOrEqual": "DATE_ON_OR_AFTER", "lessThan": "DATE_BEFORE",
                  "lessThanOrEqual": "DATE_ON_OR_BEFORE", "equal": "DATE_EQ", "between": "DATE_BETWEEN", "notBetween": "DATE_NOT_BETWEEN"}
RELATIVE = {"TODAY": "TODAY()", "YESTERDAY": "TODAY()-1", "TOMORROW": "TODAY()+1", "PAST_WEEK": "TODAY()-7",
            "PAST_MONTH": "EDATE(TODAY(),-1)", "PAST_YEAR": "EDATE(TODAY(),-12)"}
POINTS_TO_FILE = {"MIN": "min", "MAX": "max", "NUMBER": "num", "PERCENT": "percent", "PERCENTILE": "percentile"}
POINTS_FROM_FILE = {v: k for k, v in POINTS_TO_FILE.items()}


def _hex(color: Any) -> str | None:
    if not isinstance(color, dict):
        return None
    color = color.get("rgbColor", color)
    return "FF" + "".join(f"{round(float(color.get(k, 0) or 0) * 255):02X}" for k in ("red", "green", "blue"))


def _rgb(value: Any) -> dict[str, float] | None:
    text = getattr(value, "rgb", None) if not isinstance(value, str) else value
    if not isinstance(text, str) or len(text) not in (6, 8):
        return None
    text = text[-6:]
    try:
        parts = [int(text[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    except ValueError:
        return None
    return {k: round(v, 4) for k, v in zip(("red", "green", "blue"), parts) if v}


def _sqref(rects: list[list[int]]) -> str:
    return " ".join(f"{cell_name(r1, c1)}:{cell_name(r2 - 1, c2 - 1)}" for r1, c1, r2, c2 in rects)


def _rects(sqref: Any) -> list[list[int]]:
    ranges = getattr(sqref, "ranges", None) or []
    return [[cr.min_row - 1, cr.min_col - 1, cr.max_row, cr.max_col] for cr in ranges]


def _value_text(value: dict[str, Any]) -> str:
    """A ConditionValue as a formula operand in a file (dates as their serial numbers)."""
    if "relativeDate" in value:
        return RELATIVE[value["relativeDate"]]
    text = value.get("userEnteredValue", "")
    if text.startswith("="):
        return text[1:]
    entered = enter(text, "USER_ENTERED").value
    if isinstance(entered, float):
        return repr(int(entered)) if entered.is_integer() else repr(entered)
    return '"' + str(entered).replace('"', '""') + '"'


def _operand(text: str | None) -> dict[str, str]:
    """An operand from a file as a ConditionValue: a number or quoted text as typed, else a formula."""
    text = (text or "").strip()
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        return {"userEnteredValue": text[1:-1].replace('""', '"')}
    try:
        float(text)
        return {"userEnteredValue": text}
    except ValueError:
        return {"userEnteredValue": "=" + text}


# -- export ----------------------------------------------------------------------------------
def export_tab(ws: Any, tab: Any, stored: Any, filtered: list[tuple[int, int]]) -> None:
    from openpyxl.formatting.rule import ColorScaleRule, Rule
    from openpyxl.styles import Font, PatternFill
    from openpyxl.styles.differential import DifferentialStyle
    from openpyxl.worksheet.datavalidation import DataValidation
    from openpyxl.worksheet.filters import CustomFilter, CustomFilters, FilterColumn, Filters

    found = tab_rules.load(tab.basic_filter)
    if found:
        r1, c1, r2, c2 = found["range"]
        ws.auto_filter.ref = f"{cell_name(r1, c1)}:{cell_name(r2 - 1, c2 - 1)}"
        for spec in found.get("filterSpecs", []):
            crit, col = spec["filterCriteria"], spec["columnIndex"]
            column = FilterColumn(colId=col - c1)
            if crit.get("hiddenValues"):
                hidden = set(crit["hiddenValues"])
                shown = sorted({str(display(stored.book.get((tab.sheet_id, r, col)), stored.number_format((tab.sheet_id, r, col))))
                                for r in range(r1 + 1, r2)} - hidden - {""})
                column.filters = Filters(filter=shown, blank="" not in hidden)
            condition = crit.get("condition")
            if condition and condition["type"].startswith("NUMBER_"):
                op = OPERATORS[condition["type"].removeprefix("NUMBER_")]
                values = [_value_text(v) for v in condition.get("values", [])]
                if op in ("between", "notBetween"):
                    low, high = sorted(values, key=lambda v: float(v) if v.replace(".", "", 1).lstrip("-").isdigit() else 0)
                    column.customFilters = CustomFilters(customFilter=[CustomFilter("greaterThanOrEqual", low), CustomFilter("lessThanOrEqual", high)],
                                                         _and=True) if op == "between" else CustomFilters(
                        customFilter=[CustomFilter("lessThan", low), CustomFilter("greaterThan", high)])
                else:
                    column.customFilters = CustomFilters(customFilter=[CustomFilter(op, values[0])])
            elif condition and condition["type"] in ("TEXT_CONTAINS", "TEXT_STARTS_WITH", "TEXT_ENDS_WITH", "TEXT_EQ"):
                want = condition["values"][0]["userEnteredValue"]
                pattern = {"TEXT_CONTAINS": f"*{want}*", "TEXT_STARTS_WITH": f"{want}*", "TEXT_ENDS_WITH": f"*{want}", "TEXT_EQ": want}[condition["type"]]
                column.customFilters = CustomFilters(customFilter=[CustomFilter("equal", pattern)])
            ws.auto_filter.filterColumn.append(column)
        for start, end in filtered:  # as Excel saves a filtered sheet: the rows it hides, hidden
            for row in range(start, min(end, start + 100_000)):
                ws.row_dimensions[row + 1].hidden = True
    for (r1, c1, r2, c2), rule in [(rect, rule) for *rect, rule in tab_rules.load(tab.data_validation) or []]:
        made = _validation_to_file(rule, DataValidation, cell_name(r1, c1))
        if made is not None:
            made.add(f"{cell_name(r1, c1)}:{cell_name(r2 - 1, c2 - 1)}")
            ws.add_data_validation(made)
    for rule in tab_rules.load(tab.conditional_formats) or []:
        where = _sqref(rule["ranges"])
        top_left = cell_name(rule["ranges"][0][0], rule["ranges"][0][1])
        if "gradientRule" in rule:
            g = rule["gradientRule"]
            args: dict[str, Any] = {}
            for name, prefix in (("minpoint", "start"), ("midpoint", "mid"), ("maxpoint", "end")):
                point = g.get(name)
                if point is None:
                    continue
                args[f"{prefix}_type"] = POINTS_TO_FILE[point["type"]]
                if point.get("value") is not None:
                    args[f"{prefix}_value"] = point["value"].lstrip("=")
                args[f"{prefix}_color"] = _hex(point.get("colorStyle") or point.get("color") or {}) or "FFFFFFFF"
            ws.conditional_formatting.add(where, ColorScaleRule(**args))
            continue
        condition, fmt = rule["booleanRule"]["condition"], rule["booleanRule"].get("format") or {}
        text = fmt.get("textFormat") or {}
        color = _hex(text.get("foregroundColorStyle") or text.get("foregroundColor"))
        font = Font(bold=text.get("bold"), italic=text.get("italic"), strike=text.get("strikethrough"),
                    underline="single" if text.get("underline") else None, color=color)
        background = _hex(fmt.get("backgroundColorStyle") or fmt.get("backgroundColor"))
        fill = PatternFill(start_color=background, end_color=background, fill_type="solid") if background else None
        style = DifferentialStyle(font=font, fill=fill)
        made_rule = _format_rule_to_file(condition, top_left, Rule, style)
        if made_rule is not None:
            ws.conditional_formatting.add(where, made_rule)


def _validation_to_file(rule: dict[str, Any], data_validation: Any, top_left: str) -> Any:
    condition = rule["condition"]
    kind, values = condition["type"], condition.get("values") or []
    args: dict[str, Any] = {}
    if kind == "ONE_OF_LIST":
        args = {"type": "list", "formula1": '"' + ",".join(v["userEnteredValue"] for v in values) + '"'}
    elif kind == "ONE_OF_RANGE":
        args = {"type": "list", "formula1": values[0]["userEnteredValue"][1:]}
    elif kind == "BOOLEAN":
        items = [v["userEnteredValue"] for v in values] or ["TRUE", "FALSE"]
        args = {"type": "list", "formula1": '"' + ",".join(items) + '"'}
    elif kind.startswith("NUMBER_") or (kind.startswith("DATE_") and kind != "DATE_IS_VALID"):
        args = {"type": "decimal" if kind.startswith("NUMBER_") else "date", "operator": OPERATORS[kind.split("_", 1)[1]],
                "formula1": _value_text(values[0])}
        if len(values) > 1:
            args["formula2"] = _value_text(values[1])
    elif kind == "DATE_IS_VALID":
        args = {"type": "date", "operator": "greaterThanOrEqual", "formula1": "0"}
    elif kind == "CUSTOM_FORMULA":
        args = {"type": "custom", "formula1": values[0]["userEnteredValue"][1:]}
    else:  # TEXT_*: Excel's custom formulas with the same meaning (written for the range's first cell)
        quoted = _value_text(values[0]) if values else '""'
        args = {"type": "custom", "formula1": {
            "TEXT_CONTAINS": f"ISNUMBER(SEARCH({quoted},{top_left}))", "TEXT_NOT_CONTAINS": f"ISERROR(SEARCH({quoted},{top_left}))",
            "TEXT_EQ": f"{top_left}={quoted}", "TEXT_IS_EMAIL": f'ISNUMBER(MATCH("*@*.?*",{top_left},0))',
            "TEXT_IS_URL": f'OR(LEFT({top_left},7)="http://",LEFT({top_left},8)="https://",LEFT({top_left},4)="www.")'}[kind]}
    made = data_validation(**args, allow_blank=True, showDropDown=not rule.get("showCustomUi", False) if args["type"] == "list" else None)
    made.showErrorMessage = True
    made.errorStyle = "stop" if rule.get("strict") else "warning"
    if rule.get("inputMessage"):
        made.prompt, made.showInputMessage = rule["inputMessage"], True
    return made


def _format_rule_to_file(condition: dict[str, Any], top_left: str, rule_type: Any, style: Any) -> Any:
    kind, values = condition["type"], condition.get("values") or []
    if kind.startswith("NUMBER_") or kind in ("DATE_EQ", "DATE_BEFORE", "DATE_AFTER"):
        return rule_type(type="cellIs", operator=OPERATORS[kind.split("_", 1)[1]], formula=[_value_text(v) for v in values], dxf=style)
    if kind == "CUSTOM_FORMULA":
        return rule_type(type="expression", formula=[values[0]["userEnteredValue"][1:]], dxf=style)
    if kind == "TEXT_EQ":
        return rule_type(type="cellIs", operator="equal", formula=[_value_text(values[0])], dxf=style)
    if kind in ("BLANK", "NOT_BLANK"):
        test = f"LEN(TRIM({top_left}))=0" if kind == "BLANK" else f"LEN(TRIM({top_left}))>0"
        return rule_type(type="containsBlanks" if kind == "BLANK" else "notContainsBlanks", formula=[test], dxf=style)
    text = values[0]["userEnteredValue"] if values else ""
    quoted = '"' + text.replace('"', '""') + '"'
    kinds = {"TEXT_CONTAINS": ("containsText", "containsText", f"NOT(ISERROR(SEARCH({quoted},{top_left})))"),
             "TEXT_NOT_CONTAINS": ("notContainsText", "notContains", f"ISERROR(SEARCH({quoted},{top_left}))"),
             "TEXT_STARTS_WITH": ("beginsWith", "beginsWith", f"LEFT({top_left},LEN({quoted}))={quoted}"),
             "TEXT_ENDS_WITH": ("endsWith", "endsWith", f"RIGHT({top_left},LEN({quoted}))={quoted}")}
    if kind in kinds:
        file_type, operator, formula = kinds[kind]
        return rule_type(type=file_type, operator=operator, text=text, formula=[formula], dxf=style)
    return None


def cell_borders(style_text: str | None) -> Any:
    """An openpyxl Border for a cell's stored style, or None."""
    borders = (load_json(style_text) or {}).get("borders")
    if not borders:
        return None
    from openpyxl.styles import Border, Side

    sides = {}
    for side in ("top", "bottom", "left", "right"):
        border = borders.get(side)
        if border:
            sides[side] = Side(style=BORDER_TO_FILE.get(border.get("style"), "thin"), color=_hex(border.get("color") or {}))
    return Border(**sides)


# -- import ----------------------------------------------------------------------------------
def borders_from_file(border: Any) -> dict[str, Any] | None:
    if border is None:
        return None
    out = {}
    for side in ("top", "bottom", "left", "right"):
        found = getattr(border, side, None)
        style = BORDER_FROM_FILE.get(getattr(found, "style", None) or "")
        if style:
            color = _rgb(getattr(found, "color", None)) or {}
            out[side] = {"style": style, "width": WIDTHS[style], "color": color, "colorStyle": {"rgbColor": dict(color)}}
    return out or None


def read_presentation(ws: Any, shown: dict[tuple[int, int], str]) -> tuple[str | None, str | None, str | None, set[int]]:
    """(basic filter, conditional formats, data validation) as the tab stores them, and the
    rows the file's auto filter hides (hidden by the filter here, not by the user). `shown`:
    each cell's text as shown, (row, col) 0-based."""
    basic, hidden_by_filter = None, set()
    ref = ws.auto_filter.ref if ws.auto_filter is not None else None
    if ref:
        from openpyxl.utils.cell import range_boundaries

        try:
            c1, r1, c2, r2 = range_boundaries(ref)
        except ValueError:
            c1 = None
        if c1 is not None:
            rect = [r1 - 1, c1 - 1, r2, c2]
            specs = []
            for column in ws.auto_filter.filterColumn:
                col = rect[1] + int(column.colId)
                crit: dict[str, Any] = {}
                if column.filters is not None and (column.filters.filter or column.filters.blank is not None):
                    keep = set(column.filters.filter or [])
                    values = {shown.get((r, col), "") for r in range(rect[0] + 1, rect[2])}
                    hidden = sorted(v for v in values if v not in keep and (v != "" or not column.filters.blank))
                    if hidden:
                        crit["hiddenValues"] = hidden
                if column.customFilters is not None and column.customFilters.customFilter:
                    found = _filter_condition(column.customFilters)
                    if found:
                        crit["condition"] = found
                if crit:
                    specs.append({"columnIndex": col, "filterCriteria": crit})
            if specs:
                hidden_by_filter = {r - 1 for r, dim in ws.row_dimensions.items()
                                    if isinstance(r, int) and dim.hidden and rect[0] + 1 < r <= rect[2]}
            basic = tab_rules.dump({"range": rect, **({"filterSpecs": specs} if specs else {})})
    formats = []
    for cf in ws.conditional_formatting:
        rects = _rects(cf.sqref)
        if not rects:
            continue
        for rule in cf.rules:
            made = _format_rule_from_file(rule)
            if made is not None:
                formats.append({"ranges": rects, **made})
    checks = []
    for dv in ws.data_validations.dataValidation if ws.data_validations is not None else []:
        rule = _validation_from_file(dv, ws.title)
        if rule is not None:
            checks += [[*rect, rule] for rect in _rects(dv.sqref)]
    return basic, tab_rules.dump(formats), tab_rules.dump(checks), hidden_by_filter


def _filter_condition(custom: Any) -> dict[str, Any] | None:
    filters = list(custom.customFilter)
    if len(filters) == 1:
        op, val = filters[0].operator or "equal", str(filters[0].val)
        if op == "equal" and "*" in val:
            core = val.strip("*")
            kind = ("TEXT_CONTAINS" if val.startswith("*") and val.endswith("*") else "TEXT_ENDS_WITH" if val.startswith("*")
                    else "TEXT_STARTS_WITH")
            return {"type": kind, "values": [{"userEnteredValue": core}]}
        if op in NUMBER_FROM_FILE:
            try:
                float(val)
            except ValueError:
                return {"type": "TEXT_EQ", "values": [{"userEnteredValue": val}]} if op == "equal" else None
            return {"type": NUMBER_FROM_FILE[op], "values": [{"userEnteredValue": val}]}
    if len(filters) == 2:
        ops = {f.operator: str(f.val) for f in filters}
        if custom._and and {"greaterThanOrEqual", "lessThanOrEqual"} <= set(ops):
            return {"type": "NUMBER_BETWEEN", "values": [{"userEnteredValue": ops["greaterThanOrEqual"]},
                                                         {"userEnteredValue": ops["lessThanOrEqual"]}]}
        if not custom._and and {"lessThan", "greaterThan"} <= set(ops):
            return {"type": "NUMBER_NOT_BETWEEN", "values": [{"userEnteredValue": ops["lessThan"]}, {"userEnteredValue": ops["greaterThan"]}]}
    return None


def _format_rule_from_file(rule: Any) -> dict[str, Any] | None:
    if rule.type == "colorScale" and rule.colorScale is not None:
        scale = rule.colorScale
        names = ("minpoint", "maxpoint") if len(scale.cfvo) == 2 else ("minpoint", "midpoint", "maxpoint")
        gradient = {}
        for name, cfvo, color in zip(names, scale.cfvo, scale.color):
            kind = POINTS_FROM_FILE.get(cfvo.type)
            if kind is None:
                return None
            rgb = _rgb(color) or {}
            point: dict[str, Any] = {"type": kind, "color": rgb, "colorStyle": {"rgbColor": dict(rgb)}}
            if kind not in ("MIN", "MAX") and cfvo.val is not None:
                point["value"] = str(cfvo.val)
            gradient[name] = point
        return {"gradientRule": gradient}
    formulas = list(rule.formula or [])
    if rule.type == "cellIs" and rule.operator in NUMBER_FROM_FILE and formulas:
        values = [_operand(f) for f in formulas]
        if rule.operator == "equal" and not values[0]["userEnteredValue"].lstrip("-").replace(".", "", 1).isdigit() \
                and not values[0]["userEnteredValue"].startswith("="):
            condition = {"type": "TEXT_EQ", "values": values[:1]}
        else:
            condition = {"type": NUMBER_FROM_FILE[rule.operator], "values": values[:2 if rule.operator in ("between", "notBetween") else 1]}
    elif rule.type == "expression" and formulas:
        condition = {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": "=" + formulas[0]}]}
    elif rule.type in ("containsText", "notContainsText", "beginsWith", "endsWith") and rule.text is not None:
        kind = {"containsText": "TEXT_CONTAINS", "notContainsText": "TEXT_NOT_CONTAINS", "beginsWith": "TEXT_STARTS_WITH",
                "endsWith": "TEXT_ENDS_WITH"}[rule.type]
        condition = {"type": kind, "values": [{"userEnteredValue": str(rule.text)}]}
    elif rule.type in ("containsBlanks", "notContainsBlanks"):
        condition = {"type": "BLANK" if rule.type == "containsBlanks" else "NOT_BLANK"}
    else:
        return None
    fmt: dict[str, Any] = {}
    dxf = rule.dxf
    if dxf is not None:
        font, fill = dxf.font, dxf.fill
        if font is not None:
            text: dict[str, Any] = {}
            for ours, theirs in (("bold", "b"), ("italic", "i"), ("strikethrough", "strike")):
                if getattr(font, theirs, None):
                    text[ours] = True
            if font.u:
                text["underline"] = True
            rgb = _rgb(font.color)
            if rgb is not None:
                text["foregroundColor"] = rgb
            if text:
                fmt["textFormat"] = text
        if fill is not None:
            rgb = _rgb(getattr(fill, "bgColor", None)) or _rgb(getattr(fill, "fgColor", None))
            if rgb:
                fmt["backgroundColor"] = rgb
    return {"booleanRule": {"condition": condition, "format": fmt}}


def _validation_from_file(dv: Any, title: str) -> dict[str, Any] | None:
    kind, formula1, formula2 = dv.type, dv.formula1, dv.formula2
    if kind == "list" and formula1:
        if formula1.startswith('"') and formula1.endswith('"'):
            items = [item.strip() for item in formula1[1:-1].split(",")]
            condition = {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": i} for i in items if i]}
        else:
            target = formula1 if "!" in formula1 else f"{quote_sheet(title)}!{formula1}"
            condition = {"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": "=" + target.replace("$", "")}]}
    elif kind in ("whole", "decimal") and formula1 is not None:
        op = dv.operator or "between"
        values = [_operand(formula1)] + ([_operand(formula2)] if op in ("between", "notBetween") and formula2 is not None else [])
        condition = {"type": NUMBER_FROM_FILE.get(op, "NUMBER_BETWEEN"), "values": values}
    elif kind == "date" and formula1 is not None:
        op = dv.operator or "between"
        values = [_operand(formula1)] + ([_operand(formula2)] if op in ("between", "notBetween") and formula2 is not None else [])
        found = DATE_FROM_FILE.get(op)
        if found is None:
            return None
        condition = {"type": found, "values": [_serial_as_date(v) for v in values]}
    elif kind == "custom" and formula1:
        condition = {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": "=" + formula1}]}
    elif kind == "textLength" and formula1 is not None and dv.sqref is not None and _rects(dv.sqref):
        r1, c1, _, _ = _rects(dv.sqref)[0]
        op = OPERATORS_BY_FILE.get(dv.operator or "between", ">=")
        test = f"AND(LEN({cell_name(r1, c1)})>={formula1},LEN({cell_name(r1, c1)})<={formula2})" if op == "between" else \
            f"LEN({cell_name(r1, c1)}){op}{formula1}"
        condition = {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": "=" + test}]}
    else:
        return None
    rule: dict[str, Any] = {"condition": condition}
    if dv.prompt:
        rule["inputMessage"] = dv.prompt
    if dv.showErrorMessage and (dv.errorStyle or "stop") == "stop":
        rule["strict"] = True
    if kind == "list" and not dv.showDropDown:  # (Excel's flag hides the arrow when set)
        rule["showCustomUi"] = True
    return rule


OPERATORS_BY_FILE = {"greaterThan": ">", "greaterThanOrEqual": ">=", "lessThan": "<", "lessThanOrEqual": "<=", "equal": "=",
                     "notEqual": "<>", "between": "between"}


def _serial_as_date(value: dict[str, str]) -> dict[str, str]:
    """A date rule's operand from a file (a serial number) as the date Sheets shows."""
    text = value["userEnteredValue"]
    try:
        serial = float(text)
    except ValueError:
        return value
    from apps.sheets.formulas.values import from_serial

    return {"userEnteredValue": from_serial(serial).strftime("%Y-%m-%d")}
