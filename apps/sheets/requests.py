"""spreadsheets.batchUpdate request kinds: one handler per kind, applied in order inside the
operation's single transaction, each returning its reply ({} for kinds that reply nothing).
Structural kinds (rows/columns, tabs) live in dimensions.py; cell content and formats here."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cmp_to_key
from typing import Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.orm.attributes import set_committed_value

from apps.sheets import auto_fill, auto_resize, borders, conditional_formats, dimensions, filters, regex, validation
from apps.sheets.a1 import GridRange
from apps.sheets.entry import Entered, dump_json, enter, load_json, typed_formula
from apps.sheets.errors import invalid
from apps.sheets.formulas.formats import FORMAT_TYPES
from apps.sheets.formulas.values import compare
from apps.sheets.ids import google_id, sheet_id
from apps.sheets.models import Chart, Merge, NamedRange, Sheet, Spreadsheet
from apps.sheets.rewrite import offset
from officegym.core.sql import Prepared

ERROR_TYPES = {"#NULL!": "NULL_VALUE", "#DIV/0!": "DIVIDE_BY_ZERO", "#VALUE!": "VALUE", "#REF!": "REF", "#NAME?": "NAME",
               "#NUM!": "NUM", "#N/A": "N_A", "#ERROR!": "ERROR"}
MAX_AREA = 2_000_000  # cells one request may touch


NEXT_SHEET_ID = Prepared(update(Spreadsheet.__table__).where(Spreadsheet.__table__.c.id == bindparam("ss"))
                         .values(next_sheet_id=bindparam("counter")))


def new_sheet_id(spreadsheet: Spreadsheet, index: int | None = None, db: Any = None) -> int:
    """A new tab's sheetId, advancing the spreadsheet's counter (with `db`, stored at once on
    the driver, the object showing it with nothing left to flush)."""
    if index == 0:
        return 0
    counter = (spreadsheet.next_sheet_id or 1) + 1
    if db is None:
        spreadsheet.next_sheet_id = counter
    else:
        NEXT_SHEET_ID.run(db, ss=spreadsheet.id, counter=counter)
        set_committed_value(spreadsheet, "next_sheet_id", counter)
    return sheet_id(spreadsheet.id, counter)


def where(i: int, kind: str) -> str:
    return f"Invalid requests[{i}].{kind}"


def grid_of(self: Any, spreadsheet: Spreadsheet, obj: Any, label: str) -> tuple[Sheet, GridRange]:
    """A GridRange JSON object as (tab, rectangle); a missing end is the sheet's edge."""
    if not isinstance(obj, dict):
        raise invalid(f"{label}: range must be a GridRange object {{sheetId, startRowIndex, endRowIndex, startColumnIndex, endColumnIndex}}")
    wanted = obj.get("sheetId", 0) or 0
    if isinstance(wanted, bool) or not isinstance(wanted, (int, str)) or not str(wanted).strip().lstrip("-").isdigit():
        raise invalid(f"{label}: range.sheetId must be an integer")
    tab = next((t for t in self.tabs(spreadsheet.id) if t.sheet_id == int(wanted)), None)
    if tab is None:
        raise invalid(f"{label}: No grid with id: {int(wanted)}")
    try:
        r1, c1 = int(obj.get("startRowIndex", 0) or 0), int(obj.get("startColumnIndex", 0) or 0)
        r2 = int(obj["endRowIndex"]) if obj.get("endRowIndex") is not None else tab.row_count
        c2 = int(obj["endColumnIndex"]) if obj.get("endColumnIndex") is not None else tab.column_count
    except (TypeError, ValueError):
        raise invalid(f"{label}: range indexes must be integers") from None
    if r1 < 0 or c1 < 0 or r2 < r1 or c2 < c1:
        raise invalid(f"{label}: the range's end index must not be before its start")
    if r2 > tab.row_count or c2 > tab.column_count:
        raise invalid(f"{label}: Range ({tab.title}!{GridRange(None, r1, c1, r2, c2).a1()}) exceeds grid limits. "
                      f"Max rows: {tab.row_count}, max columns: {tab.column_count}")
    if (r2 - r1) * (c2 - c1) > MAX_AREA:
        raise invalid(f"{label}: the range covers more than {MAX_AREA} cells")
    return tab, GridRange(tab.title, r1, c1, r2, c2)


def _cells(grid: GridRange) -> list[tuple[int, int]]:
    return [(r, c) for r in range(grid.r1, grid.r2 or 0) for c in range(grid.c1, grid.c2 or 0)]


def _format_of(fmt: Any, label: str) -> tuple[dict[str, str] | None, dict[str, Any]]:
    if not isinstance(fmt, dict):
        return None, {}
    number = fmt.get("numberFormat")
    if number is not None:
        if not isinstance(number, dict) or number.get("type", "NUMBER") not in FORMAT_TYPES:
            raise invalid(f"{label}: numberFormat.type must be one of {', '.join(FORMAT_TYPES)}")
        number = {"type": number.get("type", "NUMBER"), **({"pattern": str(number["pattern"])} if number.get("pattern") else {})}
    style = {k: v for k, v in fmt.items() if k != "numberFormat"}
    return number, style


def _merge_format(book: Any, key: tuple[int, int, int], number: dict[str, str] | None, style: dict[str, Any], replace: bool = False) -> None:
    old_number, old_style = book.formats.get(key, (None, None))
    merged_style = {} if replace else dict(load_json(old_style) or {})
    for k, v in style.items():
        if isinstance(v, dict) and isinstance(merged_style.get(k), dict):
            merged_style[k] = {**merged_style[k], **v}
        else:
            merged_style[k] = v
    book.set_format(key, dump_json(number) if number is not None else (None if replace else old_number), dump_json(merged_style))


def _entered(value: Any, label: str) -> Entered:
    if not isinstance(value, dict) or len(value) != 1:
        raise invalid(f"{label}: userEnteredValue must have one of stringValue, numberValue, boolValue, formulaValue")
    (kind, raw), = value.items()
    if kind == "formulaValue":
        # Kept as Google Sheets keeps a formula entered in a cell: function names, references
        # and TRUE/FALSE in capitals, closing parentheses left off at the end added (entry.py).
        text = str(raw)
        return Entered(typed_formula(text if text.startswith("=") else "=" + text), None)
    if kind == "stringValue":
        return enter(str(raw), "RAW")
    if kind == "numberValue":
        try:
            number = float(raw)
        except (TypeError, ValueError):
            raise invalid(f"{label}: numberValue must be a number; got {raw!r}") from None
        if not math.isfinite(number):
            raise invalid(f"{label}: numberValue must be a finite number")
        return Entered(None, number)
    if kind == "boolValue":
        return Entered(None, bool(raw))
    raise invalid(f"{label}: unknown value kind {kind!r}; use stringValue, numberValue, boolValue or formulaValue")


# -- cell content and formats ----------------------------------------------------------------
def repeat_cell(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab, grid = grid_of(self, ss, body.get("range"), label)
    cell = body.get("cell") or {}
    fields = str(body.get("fields") or "*")
    book = self.book(ss.id)
    if "userEnteredFormat" in cell or "userEnteredFormat" in fields:
        number, style = _format_of(cell.get("userEnteredFormat"), label)
        for r, c in _cells(grid):
            _merge_format(book, (tab.sheet_id, r, c), number, style, replace=fields in ("userEnteredFormat", "*") and not cell.get("userEnteredFormat"))
    if "userEnteredValue" in cell:
        entry = _entered(cell["userEnteredValue"], label)
        book.write({(tab.sheet_id, r, c): Entered(offset(entry.formula, r - grid.r1, c - grid.c1) if entry.formula else None, entry.value)
                    for r, c in _cells(grid)})
    if "dataValidation" in cell or _names(fields, "dataValidation"):  # a cell's rule, as setDataValidation sets it (absent: cleared)
        validation.set_data_validation(self, ss, {"range": body.get("range"), "rule": cell.get("dataValidation"),
                                                  "filteredRowsIncluded": True}, label)
    return {}


def _names(fields: str, name: str) -> bool:
    """Whether a field mask names `name` (or everything)."""
    return any(f.strip() in ("*", name) or f.strip().startswith(name + ".") for f in fields.split(","))


UNSUPPORTED_CELL_DATA = frozenset({"pivotTable", "dataSourceTable", "dataSourceFormula"})


def update_cells(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    rows = body.get("rows") or []
    if "start" in body:
        start = body["start"] or {}
        tab = self.tab(ss.id, sheet_id=int(start.get("sheetId", 0) or 0))
        top, left = int(start.get("rowIndex", 0) or 0), int(start.get("columnIndex", 0) or 0)
    else:
        tab, grid = grid_of(self, ss, body.get("range"), label)
        top, left = grid.r1, grid.c1
    book = self.book(ss.id)
    entries = {}
    values_too = "userEnteredValue" in str(body.get("fields", "*")) or body.get("fields") == "*"
    rules_too = _names(str(body.get("fields") or "*"), "dataValidation")
    ruled: dict[tuple[int, int], Any] = {}
    for i, row in enumerate(rows):
        for j, value in enumerate((row or {}).get("values") or []):
            key = (tab.sheet_id, top + i, left + j)
            if key[1] >= tab.row_count or key[2] >= tab.column_count:
                raise invalid(f"{label}: the rows reach beyond the grid ({tab.row_count} rows, {tab.column_count} columns)")
            unsupported = sorted(set(value or {}) & UNSUPPORTED_CELL_DATA)
            if unsupported:  # refused, never dropped in silence: the caller would think it is there
                raise invalid(f"{label}: {', '.join(unsupported)} in a cell is not supported here; write a summary with formulas "
                              "(SUMIFS, COUNTIFS) or use the pivot table tool; cells take userEnteredValue and userEnteredFormat")
            if "userEnteredValue" in (value or {}):
                entries[key] = _entered(value["userEnteredValue"], label)
            elif values_too:
                entries[key] = Entered(None, None)
            if (value or {}).get("userEnteredFormat"):
                number, style = _format_of(value["userEnteredFormat"], label)
                _merge_format(book, key, number, style)
            if "dataValidation" in (value or {}) or rules_too:
                ruled[(key[1], key[2])] = (value or {}).get("dataValidation")
    if "range" in body and "start" not in body and values_too:
        # With a range, its cells the rows leave out are cleared of what `fields` names, as in
        # Google Sheets (no rows at all clears the whole range).
        bounded = grid.bounded(tab.row_count, tab.column_count)
        for key in [k for k in (*book.book.inputs, *book.book.formulas) if k[0] == tab.sheet_id and bounded.contains(k[1], k[2])]:
            entries.setdefault(key, Entered(None, None))
    book.write(entries)
    # Cells' dataValidation, as setDataValidation sets it: a run of cells down a column with the
    # same rule is one range.
    runs: list[list[Any]] = []
    for (r, c), rule in sorted(ruled.items(), key=lambda item: (item[0][1], item[0][0])):
        if runs and runs[-1][1] == c and runs[-1][2] == r and runs[-1][3] == rule:
            runs[-1][2] = r + 1
        else:
            runs.append([r, c, r + 1, rule])
    for r1, c, r2, rule in runs:
        validation.set_data_validation(self, ss, {"range": {"sheetId": tab.sheet_id, "startRowIndex": r1, "endRowIndex": r2,
                                                            "startColumnIndex": c, "endColumnIndex": c + 1},
                                                  "rule": rule, "filteredRowsIncluded": True}, label)
    return {}


def merge_cells(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab, grid = grid_of(self, ss, body.get("range"), label)
    kind = body.get("mergeType", "MERGE_ALL")
    if kind == "MERGE_ALL":
        pieces = [grid]
    elif kind == "MERGE_ROWS":
        pieces = [GridRange(tab.title, r, grid.c1, r + 1, grid.c2) for r in range(grid.r1, grid.r2 or 0)]
    elif kind == "MERGE_COLUMNS":
        pieces = [GridRange(tab.title, grid.r1, c, grid.r2, c + 1) for c in range(grid.c1, grid.c2 or 0)]
    else:
        raise invalid(f"{label}: mergeType must be MERGE_ALL, MERGE_COLUMNS or MERGE_ROWS")
    existing = self.db.scalars(select(Merge).where(Merge.spreadsheet_id == ss.id, Merge.sheet_id == tab.sheet_id)).all()
    book = self.book(ss.id)
    for piece in pieces:
        if (piece.r2 - piece.r1) * (piece.c2 - piece.c1) < 2:  # type: ignore[operator]
            raise invalid(f"{label}: a merge must cover at least two cells")
        for m in existing:
            if m.start_row < piece.r2 and piece.r1 < m.end_row and m.start_col < piece.c2 and piece.c1 < m.end_col:  # type: ignore[operator]
                raise invalid(f"{label}: You can't merge cells that overlap an existing merge ({GridRange(tab.title, m.start_row, m.start_col, m.end_row, m.end_col).a1()})")
        self.db.add(Merge(spreadsheet_id=ss.id, sheet_id=tab.sheet_id, start_row=piece.r1, start_col=piece.c1, end_row=piece.r2, end_col=piece.c2))
        # Google keeps only the top-left value of a merge.
        book.write({(tab.sheet_id, r, c): Entered(None, None) for r, c in _cells(piece)[1:]
                    if (tab.sheet_id, r, c) in book.book.inputs or (tab.sheet_id, r, c) in book.book.formulas})
    self.db.flush()
    return {}


def unmerge_cells(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab, grid = grid_of(self, ss, body.get("range"), label)
    self.db.execute(delete(Merge).where(
        Merge.spreadsheet_id == ss.id, Merge.sheet_id == tab.sheet_id, Merge.start_row >= grid.r1, Merge.end_row <= grid.r2,
        Merge.start_col >= grid.c1, Merge.end_col <= grid.c2))
    return {}


def sort_range(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    tab, grid = grid_of(self, ss, body.get("range"), label)
    specs = body.get("sortSpecs") or [{"dimensionIndex": grid.c1, "sortOrder": "ASCENDING"}]
    book = self.book(ss.id)
    b = book.book
    lines = []
    for r in range(grid.r1, grid.r2 or 0):
        lines.append([(b.formulas.get((tab.sheet_id, r, c)), b.get((tab.sheet_id, r, c)), book.formats.get((tab.sheet_id, r, c)), r)
                      for c in range(grid.c1, grid.c2 or 0)])
    last_used = max((i for i, line in enumerate(lines) if any(v[1] is not None for v in line)), default=-1)
    lines = lines[: last_used + 1]

    def order(a: list[Any], z: list[Any]) -> int:
        for spec in specs:
            col = int(spec.get("dimensionIndex", grid.c1)) - grid.c1
            if not 0 <= col < len(a):
                raise invalid(f"{label}: sortSpecs dimensionIndex {col + grid.c1} is outside the range")
            va, vz = a[col][1], z[col][1]
            if va is None or vz is None:
                if va is None and vz is None:
                    continue
                return 1 if va is None else -1  # blanks last
            c = compare(va, vz)
            if c:
                return -c if spec.get("sortOrder") == "DESCENDING" else c
        return 0

    ordered = sorted(lines, key=cmp_to_key(order))
    entries = {}
    for i, line in enumerate(ordered):
        for j, (formula, value, fmt, was) in enumerate(line):
            key = (tab.sheet_id, grid.r1 + i, grid.c1 + j)
            # A sorted row's formulas keep reading their own row, as Google moves them.
            moved = offset(formula, grid.r1 + i - was, 0) if formula else None
            if book.formats.get(key) != fmt:
                book.set_format(key, *(fmt or (None, None)))
            # A cell that ends up holding what it held is not entered again: a sorted table's
            # formula column reads the same row text as before, and is recalculated only
            # because (and if) the cells it reads changed.
            if moved is not None and b.formulas.get(key) == moved:
                continue
            entries[key] = Entered(moved, None if formula else value)  # (a literal left as it was is skipped by write)
    book.write(entries)
    # Each cell's data validation moves with its value, as its format does.
    validation.rows_sorted(tab, grid.r1, grid.c1, grid.c2 or 0, [line[0][3] for line in ordered])
    self.db.flush()
    return {}


def copy_paste(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str, cut: bool = False) -> dict[str, Any]:
    tab, src = grid_of(self, ss, body.get("source"), label)
    dest = body.get("destination") or {}
    if cut:
        dtab = self.tab(ss.id, sheet_id=int(dest.get("sheetId", 0) or 0))
        top, left = int(dest.get("rowIndex", 0) or 0), int(dest.get("columnIndex", 0) or 0)
        height, width = (src.r2 or 0) - src.r1, (src.c2 or 0) - src.c1
    else:
        dtab, dgrid = grid_of(self, ss, dest, label)
        top, left = dgrid.r1, dgrid.c1
        height, width = (src.r2 or 0) - src.r1, (src.c2 or 0) - src.c1
        height = max(height, ((dgrid.r2 or 0) - dgrid.r1) // height * height) if height else 0
        width = max(width, ((dgrid.c2 or 0) - dgrid.c1) // width * width) if width else 0
    if top + height > dtab.row_count or left + width > dtab.column_count:
        raise invalid(f"{label}: the destination reaches beyond the grid")
    kind = body.get("pasteType", "PASTE_NORMAL")
    book = self.book(ss.id)
    b = book.book
    src_h, src_w = (src.r2 or 0) - src.r1, (src.c2 or 0) - src.c1
    snapshot = {(r, c): (b.formulas.get((tab.sheet_id, r, c)), b.get((tab.sheet_id, r, c)), book.formats.get((tab.sheet_id, r, c)))
                for r, c in _cells(src)}
    entries = {}
    if cut:
        for r, c in _cells(src):
            entries[(tab.sheet_id, r, c)] = Entered(None, None)
            book.formats.pop((tab.sheet_id, r, c), None)
            book.dirty.add((tab.sheet_id, r, c))
    for i in range(height):
        for j in range(width):
            formula, value, fmt = snapshot[(src.r1 + i % src_h, src.c1 + j % src_w)]
            key = (dtab.sheet_id, top + i, left + j)
            if kind in ("PASTE_NORMAL", "PASTE_VALUES", "PASTE_FORMULA"):
                if formula and kind != "PASTE_VALUES":
                    moved = formula if cut else offset(formula, top + i - (src.r1 + i % src_h), left + j - (src.c1 + j % src_w))
                    entries[key] = Entered(moved, None)
                else:
                    entries[key] = Entered(None, value)
            if kind in ("PASTE_NORMAL", "PASTE_FORMAT"):
                book.set_format(key, *(fmt or (None, None)))
    book.write(entries)
    return {}


def add_named_range(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    named = body.get("namedRange") or {}
    name = str(named.get("name") or "")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]{0,249}", name) or re.fullmatch(r"[A-Za-z]{1,3}[0-9]+", name) or name.upper() in ("TRUE", "FALSE"):
        raise invalid(f"{label}: Named range name {name!r} is invalid: use letters, digits and underscores, start with a letter, and do not look like a cell (A1)")
    if self.db.get(NamedRange, (ss.id, name)) is not None:
        raise invalid(f"{label}: A named range with the name {name!r} already exists")
    tab, grid = grid_of(self, ss, named.get("range"), label)
    rid = str(named.get("namedRangeId") or google_id(ss.id, "named", name, length=12))
    self.db.add(NamedRange(spreadsheet_id=ss.id, name=name, named_range_id=rid, sheet_id=tab.sheet_id, start_row=grid.r1,
                           start_col=grid.c1, end_row=grid.r2, end_col=grid.c2))
    self.db.flush()
    dimensions.reload(self, ss)
    return {"addNamedRange": {"namedRange": {"namedRangeId": rid, "name": name, "range": named.get("range")}}}


def delete_named_range(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    rid = str(body.get("namedRangeId") or "")
    found = self.db.scalars(select(NamedRange).where(NamedRange.spreadsheet_id == ss.id, NamedRange.named_range_id == rid)).first()
    if found is None:
        raise invalid(f"{label}: No named range with id {rid!r}")
    self.db.delete(found)
    self.db.flush()
    dimensions.reload(self, ss)
    return {}


def find_replace(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    find = str(body.get("find") or "")
    if not find:
        raise invalid(f"{label}: find must not be empty")
    replacement = str(body.get("replacement") or "")
    pattern = find if body.get("searchByRegex") else regex.escaped(find)
    if body.get("matchEntireCell"):
        pattern = f"^(?:{pattern})$"
    try:
        matcher = regex.compiled(pattern, ignore_case=not body.get("matchCase"))
    except regex.BadPattern as bad:
        raise invalid(f"{label}: invalid regular expression: {bad}") from None
    if body.get("range"):
        tab, grid = grid_of(self, ss, body["range"], label)
        scope = lambda k: k[0] == tab.sheet_id and grid.contains(k[1], k[2])  # noqa: E731
    elif body.get("sheetId") is not None:
        sid = self.tab(ss.id, sheet_id=int(body["sheetId"])).sheet_id
        scope = lambda k: k[0] == sid  # noqa: E731
    else:
        scope = lambda k: True  # noqa: E731
    book = self.book(ss.id)
    entries, occurrences, formulas = {}, 0, 0
    for key, value in list(book.book.inputs.items()):
        if scope(key) and isinstance(value, str) and matcher.search(value):
            new, n = matcher.subn(replacement, value)
            occurrences += n
            entries[key] = enter(new, "USER_ENTERED")
    if body.get("includeFormulas"):
        for key, text in list(book.book.formulas.items()):
            if scope(key) and matcher.search(text):
                new, n = matcher.subn(replacement, text)
                occurrences += n
                formulas += 1
                entries[key] = enter(new, "USER_ENTERED")
    book.write(entries)
    return {"findReplace": {"valuesChanged": len(entries) - formulas, "formulasChanged": formulas,
                            "rowsChanged": len({(k[0], k[1]) for k in entries}), "sheetsChanged": len({k[0] for k in entries}),
                            "occurrencesChanged": occurrences}}


def add_chart(self: Any, ss: Spreadsheet, body: dict[str, Any], label: str) -> dict[str, Any]:
    chart = body.get("chart") or {}
    spec = chart.get("spec")
    if not isinstance(spec, dict):
        raise invalid(f"{label}: chart.spec is required")
    anchor = ((chart.get("position") or {}).get("overlayPosition") or {}).get("anchorCell") or {}
    tab = self.tab(ss.id, sheet_id=int(anchor.get("sheetId", self.tabs(ss.id)[0].sheet_id)))
    chart_id = int(chart.get("chartId") or sheet_id(ss.id, "chart", len(self.db.scalars(select(Chart.chart_id).where(Chart.spreadsheet_id == ss.id)).all())))
    self.db.add(Chart(spreadsheet_id=ss.id, chart_id=chart_id, sheet_id=tab.sheet_id, spec=dump_json({**spec, "position": chart.get("position")}) or "{}"))
    self.db.flush()
    return {"addChart": {"chart": {"chartId": chart_id, "spec": spec, "position": chart.get("position")}}}


HANDLERS: dict[str, Callable[..., dict[str, Any]]] = {
    "repeatCell": repeat_cell, "updateCells": update_cells, "mergeCells": merge_cells, "unmergeCells": unmerge_cells,
    "sortRange": sort_range, "copyPaste": copy_paste, "cutPaste": lambda s, ss, b, lab: copy_paste(s, ss, b, lab, cut=True),
    "addNamedRange": add_named_range, "deleteNamedRange": delete_named_range, "findReplace": find_replace, "addChart": add_chart,
    **dimensions.HANDLERS,
    # presentation: each kept and shown by spreadsheets.get (their own modules)
    "setBasicFilter": filters.set_basic_filter, "clearBasicFilter": filters.clear_basic_filter,
    **dict.fromkeys(("addFilterView", "updateFilterView", "deleteFilterView", "duplicateFilterView"), filters.filter_views_refused),
    "setDataValidation": validation.set_data_validation,
    "addConditionalFormatRule": conditional_formats.add_rule, "updateConditionalFormatRule": conditional_formats.update_rule,
    "deleteConditionalFormatRule": conditional_formats.delete_rule,
    "updateBorders": borders.update_borders, "autoResizeDimensions": auto_resize.auto_resize,
    "autoFill": auto_fill.auto_fill,
}


def apply(self: Any, ss: Spreadsheet, request: Any, i: int) -> dict[str, Any]:
    if not isinstance(request, dict) or len(request) != 1:
        raise invalid(f"Invalid requests[{i}]: each request must be an object with exactly one kind, e.g. {{\"addSheet\": {{…}}}}")
    (kind, body), = request.items()
    handler = HANDLERS.get(kind)
    if handler is None:
        raise invalid(f"Invalid requests[{i}]: unknown request kind {kind!r}; supported: {', '.join(sorted(HANDLERS))}")
    if not isinstance(body, dict):
        raise invalid(f"{where(i, kind)}: the request body must be an object")
    pending = self._books.get(ss.id)
    if pending is not None and pending.baseline is not None and kind not in dimensions.SHIFTS:
        pending.save()  # other kinds may read the stored cells: write the moved book first
    return handler(self, ss, body, where(i, kind))


def copy_tab(self: Any, source: Spreadsheet, tab: Sheet, target: Spreadsheet, title: str) -> dict[str, Any]:
    return dimensions.copy_tab(self, source, tab, target, title)
