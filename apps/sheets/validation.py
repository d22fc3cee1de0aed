"""Data validation (batchUpdate's setDataValidation; `dataValidation` on each cell of
spreadsheets.get's gridData): a DataValidationRule {condition, inputMessage, strict,
showCustomUi} set on every cell of a range, or cleared from it when the request gives no rule.
A tab keeps its rules as rectangles that do not overlap (`[r1, c1, r2, c2, rule]`, JSON on the
tab), moved with the rows and columns around them (tab_rules.py) and carried with the tab.

As in Google Sheets, the rules bind what a person types, not what a program writes: the API
(values.update, batchUpdate) stores any value, as Google's does, and a cell holding a value its
rule refuses is shown as invalid; in the browser, a strict rule refuses the entry with Google's
message and a lenient one takes it with a warning. Rows a basic filter hides are left out
unless `filteredRowsIncluded` is true."""

from __future__ import annotations

from typing import Any

from apps.sheets import conditions, tab_rules
from apps.sheets.a1 import cell_name
from apps.sheets.errors import invalid
from apps.sheets.models import Spreadsheet

RULE_FIELDS = ("condition", "inputMessage", "strict", "showCustomUi")


def rule_checked(self: Any, ss: Spreadsheet, rule: Any, label: str) -> dict[str, Any]:
    if not isinstance(rule, dict):
        raise invalid(f"{label}: rule must be a DataValidationRule {{condition, inputMessage, strict, showCustomUi}}")
    unknown = sorted(set(rule) - set(RULE_FIELDS))
    if unknown:
        raise invalid(f"{label}: rule has {', '.join(map(repr, unknown))}; a DataValidationRule takes {', '.join(RULE_FIELDS)}")
    out: dict[str, Any] = {"condition": conditions.checked(rule.get("condition"), label, "rule.condition", conditions.VALIDATION)}
    condition = out["condition"]
    if condition["type"] == "ONE_OF_RANGE":
        text = condition["values"][0]["userEnteredValue"][1:]
        try:
            self.locate(ss.id, text)
        except Exception:  # noqa: BLE001 - any range that does not resolve
            raise invalid(f"{label}: rule.condition ONE_OF_RANGE needs a range in A1 notation (e.g. =Lists!A2:A20); "
                          f"{text!r} is not one") from None
    if condition["type"] == "CUSTOM_FORMULA":
        from apps.sheets.formulas.parser import FormulaSyntaxError, parse

        try:
            parse(condition["values"][0]["userEnteredValue"])
        except FormulaSyntaxError as bad:
            raise invalid(f"{label}: rule.condition CUSTOM_FORMULA is not a valid formula: {bad}") from None
    if rule.get("inputMessage") not in (None, ""):
        if not isinstance(rule["inputMessage"], str):
            raise invalid(f"{label}: rule.inputMessage must be a string")
        out["inputMessage"] = rule["inputMessage"]
    for flag in ("strict", "showCustomUi"):
        if rule.get(flag) is not None:
            if not isinstance(rule[flag], bool):
                raise invalid(f"{label}: rule.{flag} must be true or false")
            if rule[flag]:
                out[flag] = True
    return out


def set_data_validation(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    from apps.sheets import filters
    from apps.sheets.requests import grid_of

    unknown = sorted(set(body) - {"range", "rule", "filteredRowsIncluded"})
    if unknown:
        raise invalid(f"{label}: {', '.join(map(repr, unknown))} is not a field of setDataValidation; it takes range, rule, filteredRowsIncluded")
    if "range" not in body:
        raise invalid(f"{label}: range is required: the GridRange to validate")
    tab, grid = grid_of(self, ss, body["range"], label)
    rule = body.get("rule")
    checked = rule_checked(self, ss, rule, label) if rule not in (None, {}) else None
    included = body.get("filteredRowsIncluded", False)
    if not isinstance(included, bool):
        raise invalid(f"{label}: filteredRowsIncluded must be true or false")
    rect = [grid.r1, grid.c1, grid.r2, grid.c2]
    pieces = [rect]
    if not included and tab.basic_filter:  # rows hidden by the filter are left as they are
        for start, end in filters.hidden_rows(tab, self.book(ss.id)):
            pieces = [p for piece in pieces for p in tab_rules.subtract(piece, [start, rect[1], end, rect[3]])]
    kept = []
    for *old, old_rule in tab_rules.load(tab.data_validation) or []:
        rest = [old]
        for piece in pieces:
            rest = [p for r in rest for p in tab_rules.subtract(r, piece)]
        kept += [[*r, old_rule] for r in rest]
    if checked is not None:
        kept += [[*piece, checked] for piece in pieces if piece[2] > piece[0] and piece[3] > piece[1]]
    tab.data_validation = tab_rules.dump(sorted(kept, key=lambda item: item[:4]))
    self.db.flush()
    return {}


def rules(tab: Any) -> list[tuple[list[int], dict[str, Any]]]:
    return [(rect, rule) for *rect, rule in tab_rules.load(tab.data_validation) or []]


def rule_at(tab: Any, row: int, col: int) -> dict[str, Any] | None:
    for (r1, c1, r2, c2), rule in rules(tab):
        if r1 <= row < r2 and c1 <= col < c2:
            return rule
    return None


def passes(stored: Any, tab: Any, rule: dict[str, Any], row: int, col: int, value: Any) -> bool:
    """Whether `value` in the cell meets the rule (a rule that cannot be told here passes)."""
    top_left = next(((r1, c1) for (r1, c1, r2, c2), r in rules(tab) if r is rule or (r == rule and r1 <= row < r2 and c1 <= col < c2)),
                    (row, col))
    fmt = stored.number_format((tab.sheet_id, row, col)) or {}
    result = conditions.holds(rule["condition"], value, conditions.reader_for(stored, tab.sheet_id), (row, col), top_left,
                              date_format=fmt.get("type") in ("DATE", "DATE_TIME"))
    return result is not False


def refusal(row: int, col: int) -> str:
    """Google Sheets' words when a strict rule refuses what was typed."""
    return f"The data you entered in cell {cell_name(row, col)} violates the data validation rules set on this cell."
