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


def _moved_rule(rule: dict[str, Any], d_rows: int, d_cols: int) -> dict[str, Any]:
    """The rule as it reads from `d_rows` down and `d_cols` right (a custom formula's relative
    references, like a cell formula's, move with it)."""
    if not (d_rows or d_cols):
        return rule
    from apps.sheets.rewrite import offset

    return tab_rules._formulas_with(rule, lambda text: offset(text, d_rows, d_cols))


def rows_sorted(tab: Any, r1: int, c1: int, c2: int, sources: list[int]) -> None:
    """The rules of the cells in columns c1:c2 from row r1 on moved as a sort moved their rows
    (row r1 + i now holds what row sources[i] held), as Google's sort moves each cell's data
    validation (a checkbox, a dropdown) with its value."""
    block = [r1, c1, r1 + len(sources), c2]
    found = rules(tab)
    if all(src == r1 + i for i, src in enumerate(sources)) or not any(
            tab_rules.subtract(rect, block) != [rect] for rect, _ in found):
        return
    kept: list[list[Any]] = []
    by_cell: dict[tuple[int, int], dict[str, Any]] = {}
    for rect, rule in found:
        for piece in tab_rules.subtract(rect, block):  # what lies outside the block stays
            kept.append([*piece, _moved_rule(rule, piece[0] - rect[0], piece[1] - rect[1])])
        for r in range(max(rect[0], block[0]), min(rect[2], block[2])):
            for c in range(max(rect[1], c1), min(rect[3], c2)):
                by_cell[(r, c)] = (rule, r - rect[0], c - rect[1])  # type: ignore[assignment]
    runs: list[list[Any]] = []  # [r1, c, r2, rule as read from r1] down each column
    for c in range(c1, c2):
        for i, src in enumerate(sources):
            got = by_cell.get((src, c))
            if got is None:
                continue
            rule, d_rows, d_cols = got  # type: ignore[misc]
            row = r1 + i
            here = _moved_rule(rule, d_rows + row - src, d_cols)  # moved with its cell, as a sorted formula is
            if runs and runs[-1][1] == c and runs[-1][2] == row and _moved_rule(runs[-1][3], row - runs[-1][0], 0) == here:
                runs[-1][2] = row + 1
            else:
                runs.append([row, c, row + 1, here])
    kept += [[top, c, bottom, c + 1, rule] for top, c, bottom, rule in runs]
    joined: list[list[Any]] = []  # a rectangle the sort cut and put back together is one again
    for item in sorted(kept, key=lambda item: (item[1], item[3], item[0])):
        last = joined[-1] if joined else None
        if last and last[1] == item[1] and last[3] == item[3] and last[2] == item[0] and _moved_rule(last[4], item[0] - last[0], 0) == item[4]:
            last[2] = item[2]
        else:
            joined.append(item)
    tab.data_validation = tab_rules.dump(sorted(joined, key=lambda item: item[:4]))


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
