"""Formatting a tab that changes no data: what a tidy person adds to a table they worked on.

A header row frozen, columns sized to fit (or to a width), a tab colour, the tabs' order (a new
tab put first moves the others along), a basic filter that
hides nothing (only its buttons on the header), a conditional format rule that colours cells
(the mismatches in red) are presentation: nobody reading the sheet loses anything, so none of
them is collateral. A change that takes something out of view stays collateral, and a check
reads the sheet as shown: a row or column hidden, a filter whose criteria hide rows, a
conditional format or colour scale that makes the text unreadable.
"""

from __future__ import annotations

import json
from typing import Any

from apps.sheets import dimension_properties
from graders.diff import RowChange

# The columns of a tab (sheets_tabs) that only say how it looks.
# (`index`: where the tab stands among the others, which moves when a new tab is put before it.)
_LOOKS = frozenset({"frozen_rows", "frozen_columns", "tab_color", "column_properties", "row_properties", "basic_filter",
                    "conditional_formats", "index"})


def tab_formatting(change: RowChange, spreadsheet_id: str) -> bool:
    """Whether `change` is an existing tab of the spreadsheet formatted, nothing taken out of view."""
    if change.table != "sheets_tabs" or change.change != "update" or change.row.get("spreadsheet_id") != spreadsheet_id:
        return False
    changed = set(change.changed_columns)
    if not changed <= _LOOKS:
        return False
    before, after = change.before or {}, change.after or {}
    for column in ("column_properties", "row_properties"):
        if column in changed and _hidden(before.get(column)) != _hidden(after.get(column)):
            return False
    if "basic_filter" in changed and _filters_out(after.get("basic_filter")):
        return False
    return "conditional_formats" not in changed or not _obscures(after.get("conditional_formats"))


def _hidden(text: str | None) -> frozenset[int]:
    """The rows (columns) hidden by the user, as indexes (runs kept by dimension_properties)."""
    return frozenset(i for run in dimension_properties.load(text) if run.hidden for i in range(run.start, min(run.end, run.start + 100_000)))


def _parsed(text: Any) -> Any:
    if not text:
        return None
    try:
        return json.loads(text) if isinstance(text, str | bytes) else text
    except ValueError:
        return "unreadable"


def _filters_out(text: Any) -> bool:
    """Whether a basic filter has criteria (values hidden, a condition): it may hide rows."""
    tree = _parsed(text)
    if tree == "unreadable":
        return True

    def walk(node: Any) -> bool:
        if isinstance(node, dict):
            if node.get("hiddenValues") or node.get("condition"):
                return True
            return any(walk(v) for v in node.values())
        if isinstance(node, list):
            return any(walk(v) for v in node)
        return False

    return walk(tree)


def _obscures(text: Any) -> bool:
    """Whether any conditional format rule may make text unreadable: a colour scale (its fill can
    be the text's colour), or a rule whose format alone hides text (see `hides`)."""
    from tasks.sheets._common import hides

    tree = _parsed(text)
    if tree == "unreadable":
        return True
    rules = tree if isinstance(tree, list) else [tree] if tree else []
    for rule in rules:
        if not isinstance(rule, dict) or "gradientRule" in rule:
            return True
        fmt = (rule.get("booleanRule") or {}).get("format") if isinstance(rule.get("booleanRule"), dict) else None
        if isinstance(fmt, dict) and hides(json.dumps(fmt)):
            return True
    return False
