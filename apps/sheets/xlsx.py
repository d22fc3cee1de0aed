"""Excel interop with openpyxl: import an .xlsx as a new spreadsheet (tabs, values, formulas,
number formats, merges, frozen rows), recalculated by our engine; export a spreadsheet as an
.xlsx with the same; Drive's files.export of a Google Sheet as .xlsx, CSV or TSV. Files travel
as base64 text (tool arguments and JSON bodies are text; the REST face answers the bytes)."""

from __future__ import annotations

import base64
import binascii
import csv
import io
import re
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time
from functools import lru_cache
from typing import Any

from sqlalchemy import select

from apps.sheets import dimension_properties as props_runs
from apps.sheets import filters, tab_rules, xlsx_presentation
from apps.sheets.a1 import cell_name, quote_sheet
from apps.sheets.drive import DriveFileId, FileId, drive_file, uploaded_file
from apps.sheets.drive_query import EXPORTS, XLSX_MIME, DriveError
from apps.sheets.entry import dump_json, encode, load_json
from apps.sheets.errors import invalid
from apps.sheets.formulas.formats import display
from apps.sheets.formulas.values import to_serial
from apps.sheets.models import Cell, Merge
from apps.sheets.params import Base64, SpreadsheetId, Title
from officegym.core.operations import operation

MAX_XLSX_BYTES = 20 * 1024 * 1024
MAX_IMPORT_CELLS = 500_000
# Rows hidden or sized past this one are left out of an exported file (an .xlsx names each such
# row: a million hidden rows would be a million elements).
MAX_EXPORTED_ROW_PROPERTIES = 100_000
NOT_EXPORTABLE = "Export only supports Docs Editors files."
NO_CONVERSION = "The requested conversion is not supported."
GOOGLE_SHEET_MIME = "application/vnd.google-apps.spreadsheet"
# Functions newer than Excel 2007 are stored with a prefix in the file format; Excel, LibreOffice
# and openpyxl readers expect it, and a file without it shows #NAME? in them.
FUTURE_FUNCTIONS = {"IFS": "_xlfn.", "IFNA": "_xlfn.", "SWITCH": "_xlfn.", "XLOOKUP": "_xlfn.", "TEXTJOIN": "_xlfn.",
                    "CONCAT": "_xlfn.", "MINIFS": "_xlfn.", "MAXIFS": "_xlfn.", "DAYS": "_xlfn.", "UNIQUE": "_xlfn.",
                    "FILTER": "_xlfn._xlws.", "SORT": "_xlfn._xlws.", "SEQUENCE": "_xlfn.", "HSTACK": "_xlfn.", "VSTACK": "_xlfn.",
                    "STDEV.S": "_xlfn.", "STDEV.P": "_xlfn.", "VAR.S": "_xlfn.", "VAR.P": "_xlfn.", "RANK.EQ": "_xlfn.",
                    "PERCENTILE.INC": "_xlfn.", "QUARTILE.INC": "_xlfn.", "ISOWEEKNUM": "_xlfn.", "LET": "_xlfn.",
                    "LAMBDA": "_xlfn.", "MAP": "_xlfn.", "BYROW": "_xlfn.", "BYCOL": "_xlfn.", "REDUCE": "_xlfn.",
                    "SCAN": "_xlfn.", "MAKEARRAY": "_xlfn.", "XMATCH": "_xlfn.", "CHOOSECOLS": "_xlfn.", "CHOOSEROWS": "_xlfn.",
                    "TAKE": "_xlfn.", "DROP": "_xlfn.", "TOCOL": "_xlfn.", "TOROW": "_xlfn.", "MODE.SNGL": "_xlfn.",
                    "FORECAST.LINEAR": "_xlfn."}
# Longest names first, dots literal: STDEV.S is one name, not STDEV followed by anything.
_FUTURE = re.compile(r"(?<![A-Za-z0-9_.])(" + "|".join(map(re.escape, sorted(FUTURE_FUNCTIONS, key=len, reverse=True)))
                     + r")(?=\s*\()", re.I)
_PREFIXES = re.compile(r"_xlfn\.|_xlws\.|_xludf\.|_xlpm\.", re.I)  # _xlpm.: a LET or LAMBDA name


def to_file_formula(formula: str) -> str:
    """A formula as an .xlsx file stores it (new functions prefixed)."""
    return _FUTURE.sub(lambda m: FUTURE_FUNCTIONS[m.group(1).upper()] + m.group(1).upper(), formula)


def from_file_formula(formula: str) -> str:
    return _PREFIXES.sub("", formula)


def _format_kind(pattern: str) -> str:
    low = pattern.lower()
    if "%" in low:
        return "PERCENT"
    if any(s in low for s in ("$", "€", "£")):
        return "CURRENCY"
    if "e+" in low:
        return "SCIENTIFIC"
    if any(ch in low for ch in "ymd") and "h" in low:
        return "DATE_TIME"
    if any(ch in low for ch in "ymd"):
        return "DATE"
    if "h" in low and ("mm" in low or "ss" in low):
        return "TIME"
    return "NUMBER"


def _value_of(raw: Any) -> tuple[str | None, Any]:
    """(formula, literal) of an openpyxl cell value."""
    if raw is None:
        return None, None
    text_formula = getattr(raw, "text", None)  # ArrayFormula
    if text_formula is not None:
        return from_file_formula(str(text_formula)), None
    if isinstance(raw, str):
        if raw.startswith("=") and len(raw) > 1:
            return from_file_formula(raw), None
        return None, raw
    if isinstance(raw, bool):
        return None, raw
    if isinstance(raw, (int, float)):
        return None, float(raw)
    if isinstance(raw, datetime):
        return None, to_serial(raw)
    if isinstance(raw, date):
        return None, to_serial(raw)
    if isinstance(raw, time):
        return None, (raw.hour * 3600 + raw.minute * 60 + raw.second) / 86_400
    return None, str(raw)


@dataclass(frozen=True, slots=True)
class _Tab:
    """One worksheet as read from a file: what importing it writes."""

    title: str
    max_row: int
    max_column: int
    frozen: tuple[int, int] | None  # (rows, columns)
    merges: tuple[tuple[int, int, int, int], ...]  # (start_row, start_col, end_row, end_col), 0-based, ends exclusive
    cells: tuple[tuple[int, int, str | None, str, str | None, str | None, str | None, str | None], ...]
    # (row, col, formula, kind, value, note, number_format, style) as a Cell row holds them
    row_properties: str | None = None  # hidden and sized rows and columns, as the tab stores them
    column_properties: str | None = None
    basic_filter: str | None = None  # the auto filter, conditional formats and validation rules, as the tab stores them
    conditional_formats: str | None = None
    data_validation: str | None = None


@dataclass(frozen=True, slots=True)
class _Read:
    title: str | None  # the workbook's own title property
    tabs: tuple[_Tab, ...]
    too_many: bool  # more than MAX_IMPORT_CELLS cells (the rest is not read)


MAX_REMEMBERED_BYTES = 1024 * 1024  # files up to this size are read once per process


def _size(pixels: int | None, default: int) -> int | None:
    """A row's or column's size as read from a file: None for the default size."""
    return None if pixels is None or pixels == default else pixels


def _read(data: bytes) -> _Read:
    """What an .xlsx file holds (`invalid` for an unreadable file). A small file is read with
    openpyxl once per distinct file (~7 ms each time otherwise): every rollout of a task
    converts the same uploaded file, and reading its bytes is all of the work that does not
    depend on the env."""
    return _read_remembered(data) if len(data) <= MAX_REMEMBERED_BYTES else _read_file(data)


@lru_cache(maxsize=32)
def _read_remembered(data: bytes) -> _Read:
    return _read_file(data)


def _read_file(data: bytes) -> _Read:
    try:
        from openpyxl import load_workbook  # imported on use: openpyxl adds ~0.3 s to every server start
        from openpyxl.utils.cell import coordinate_to_tuple

        workbook = load_workbook(io.BytesIO(data), data_only=False)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as bad:
        raise invalid(f"the file is not a readable .xlsx workbook ({type(bad).__name__})") from None
    tabs, count, too_many = [], 0, False
    for ws in workbook.worksheets:
        frozen = None
        if ws.freeze_panes:
            row, column = coordinate_to_tuple(ws.freeze_panes)
            frozen = (row - 1, column - 1)
        merges = tuple((m.min_row - 1, m.min_col - 1, m.max_row, m.max_col) for m in ws.merged_cells.ranges)
        cells, shown = [], {}
        for line in ws.iter_rows():
            if too_many:
                break
            for cell in line:
                formula, literal = _value_of(cell.value)
                pattern = cell.number_format if cell.number_format and cell.number_format != "General" else None
                borders = xlsx_presentation.borders_from_file(cell.border) if cell.has_style else None
                if formula is None and literal is None and pattern is None and borders is None:
                    continue
                if count >= MAX_IMPORT_CELLS:
                    too_many = True
                    break
                count += 1
                kind, text, note = encode(literal)
                style: dict[str, Any] | None = {"textFormat": {"bold": True}} if cell.font is not None and cell.font.b else None
                if borders:
                    style = {**(style or {}), "borders": borders}
                if literal is not None:
                    shown[(cell.row - 1, cell.column - 1)] = str(display(literal, {"type": _format_kind(pattern), "pattern": pattern}
                                                                          if pattern else None))
                cells.append((cell.row - 1, cell.column - 1, formula, kind, text, note,
                              dump_json({"type": _format_kind(pattern), "pattern": pattern}) if pattern else None, dump_json(style)))
        basic_filter, conditional_formats, data_validation, by_filter = xlsx_presentation.read_presentation(ws, shown)
        rows_runs = props_runs.runs_of([  # (rows a filter hides are hidden by it here, not by the user)
            (index - 1, index, bool(dim.hidden) and index - 1 not in by_filter, _size(round(dim.ht / 0.75) if dim.customHeight and dim.ht else None,  # points → pixels
                                                     props_runs.ROW_PIXELS))
            for index, dim in ws.row_dimensions.items() if isinstance(index, int) and index >= 1])
        column_runs = props_runs.runs_of([
            (dim.min - 1, dim.max, bool(dim.hidden), _size(round(dim.width * 7 + 5) if dim.customWidth and dim.width else None,  # characters → pixels
                                                           props_runs.COLUMN_PIXELS))
            for dim in ws.column_dimensions.values() if dim.min and dim.max and 1 <= dim.min <= dim.max])
        tabs.append(_Tab(ws.title[:100], ws.max_row, ws.max_column, frozen, merges, tuple(cells),
                         props_runs.dump(rows_runs), props_runs.dump(column_runs), basic_filter, conditional_formats, data_validation))
    return _Read(workbook.properties.title, tuple(tabs), too_many)


@operation("sheets.importXlsx", writes=True)
def import_xlsx(self: Any, content_base64: Base64 | None = None, title: Title | None = None,
                file_id: DriveFileId | None = None) -> dict[str, Any]:
    """Import an .xlsx file as a new spreadsheet you own: {spreadsheetId, title, sheets}. The file
    comes as base64 bytes, or as the Drive file id of an uploaded .xlsx (Drive's "Open with Google
    Sheets": the upload is converted into a new Google Sheet named after it; the upload stays)."""
    from apps.sheets.spreadsheets import new_spreadsheet

    if (content_base64 is None) == (file_id is None):
        raise invalid("give exactly one of content_base64 (the file's bytes, base64) or file_id (an uploaded .xlsx in Drive)")
    if file_id is not None:
        upload = uploaded_file(self, file_id)
        if upload.mime_type != XLSX_MIME:
            raise invalid(f"{upload.name!r} is a {upload.mime_type} file, not an Excel .xlsx workbook")
        content_base64, title = upload.content, title or re.sub(r"\.xlsx?$", "", upload.name, flags=re.I)
    try:
        data = base64.b64decode(content_base64, validate=True)
    except (binascii.Error, ValueError):
        raise invalid("content_base64 is not valid base64") from None
    if len(data) > MAX_XLSX_BYTES:
        raise invalid(f"the file is larger than {MAX_XLSX_BYTES // (1024 * 1024)} MB")
    read = _read(data)
    if not read.tabs:
        raise invalid("the workbook has no worksheets")
    spreadsheet = new_spreadsheet(self, title or (read.title or "Imported workbook"), [t.title for t in read.tabs])
    if read.too_many:
        raise invalid(f"the workbook has more than {MAX_IMPORT_CELLS} cells")
    tabs = {t.title: t for t in self.tabs(spreadsheet.id)}
    cells: list[tuple[Any, ...]] = []
    for read_tab in read.tabs:
        tab = tabs[read_tab.title]
        tab.row_count = max(1000, read_tab.max_row)
        tab.column_count = max(26, read_tab.max_column)
        if read_tab.frozen:
            tab.frozen_rows, tab.frozen_columns = read_tab.frozen
        tab.row_properties = props_runs.dump(props_runs.clip(props_runs.load(read_tab.row_properties), tab.row_count))
        tab.column_properties = props_runs.dump(props_runs.clip(props_runs.load(read_tab.column_properties), tab.column_count))
        tab.basic_filter, tab.conditional_formats, tab.data_validation = (
            read_tab.basic_filter, read_tab.conditional_formats, read_tab.data_validation)
        tab_rules.clip(tab, True, tab.row_count)
        tab_rules.clip(tab, False, tab.column_count)
        for r1, c1, r2, c2 in read_tab.merges:
            self.db.add(Merge(spreadsheet_id=spreadsheet.id, sheet_id=tab.sheet_id, start_row=r1, start_col=c1, end_row=r2, end_col=c2))
        cells.extend((tab.sheet_id, row, col, formula, kind, value, note, number_format, style, None, None)
                     for row, col, formula, kind, value, note, number_format, style in read_tab.cells)
    # The book is built and recalculated in memory, then written once (the spreadsheet is new:
    # it has no stored cells to replace).
    book = self.book(spreadsheet.id, cells=cells)
    book.recalc_everything()
    book.insert_all()
    self.touch(spreadsheet)
    return {"spreadsheetId": spreadsheet.id, "title": spreadsheet.title, "sheets": [t.title for t in self.tabs(spreadsheet.id)]}


@operation("sheets.files.copy", writes=True)
def files_copy(self: Any, fileId: DriveFileId, mimeType: str | None = None, name: Title | None = None) -> dict[str, Any]:
    """Drive files.copy of an uploaded .xlsx with mimeType application/vnd.google-apps.spreadsheet:
    the conversion "Open with Google Sheets" makes (a new Google Sheet; the upload stays)."""
    if mimeType != GOOGLE_SHEET_MIME:
        raise invalid(f"Only converting an uploaded .xlsx is supported here: give mimeType {GOOGLE_SHEET_MIME!r} (got {mimeType!r})")
    made = import_xlsx(self, title=name, file_id=fileId)
    return {"kind": "drive#file", "id": made["spreadsheetId"], "name": made["title"], "mimeType": GOOGLE_SHEET_MIME}


@operation("sheets.exportXlsx")
def export_xlsx(self: Any, spreadsheet_id: SpreadsheetId) -> dict[str, Any]:
    """Export a spreadsheet as .xlsx (base64): formulas, values, number formats, merges, frozen rows."""
    spreadsheet = self.spreadsheet(spreadsheet_id)
    book = self.book(spreadsheet.id)
    book.save()
    from openpyxl import Workbook  # imported on use, as in import_xlsx
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    workbook.remove(workbook.active)
    for tab in self.tabs(spreadsheet.id):
        ws = workbook.create_sheet(tab.title)
        cells = self.db.execute(select(Cell).where(Cell.spreadsheet_id == spreadsheet.id, Cell.sheet_id == tab.sheet_id)).scalars().all()
        # A number formula with no format of its own goes out in the one Sheets shows it in (a
        # total of currency in currency, =TODAY() as a date): the file has no "automatic".
        automatic = [(c.row, c.col, c.formula) for c in cells if c.formula is not None and c.kind == "n" and not c.number_format]
        inferred = self.inferred_formats(spreadsheet.id, tab.sheet_id, automatic) if automatic else {}
        for cell in cells:
            if cell.spill is not None:
                continue  # an array formula's spill is recomputed by whoever opens the file
            target = ws.cell(row=cell.row + 1, column=cell.col + 1)
            if cell.formula is not None:
                target.value = to_file_formula(cell.formula)
            elif cell.kind:
                value = book.book.inputs.get((tab.sheet_id, cell.row, cell.col))
                target.value = int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 2**53 else value
            fmt = load_json(cell.number_format) or inferred.get((cell.row, cell.col))
            if fmt and fmt.get("pattern"):
                target.number_format = fmt["pattern"]
            style = load_json(cell.style) or {}
            if (style.get("textFormat") or {}).get("bold"):
                target.font = Font(bold=True)
            if style.get("borders"):
                target.border = xlsx_presentation.cell_borders(cell.style)
        for merge in self.db.scalars(select(Merge).where(Merge.spreadsheet_id == spreadsheet.id, Merge.sheet_id == tab.sheet_id)):
            ws.merge_cells(f"{cell_name(merge.start_row, merge.start_col)}:{cell_name(merge.end_row - 1, merge.end_col - 1)}")
        if tab.frozen_rows or tab.frozen_columns:
            ws.freeze_panes = f"{get_column_letter(tab.frozen_columns + 1)}{tab.frozen_rows + 1}"
        # Rows and columns hidden or sized: Excel's hidden rows and columns, heights in points
        # and widths in characters (of 7 pixels, plus 5 of padding).
        for run in props_runs.clip(props_runs.load(tab.row_properties), min(tab.row_count, MAX_EXPORTED_ROW_PROPERTIES)):
            for row in range(run.start, run.end):
                dim = ws.row_dimensions[row + 1]
                dim.hidden = run.hidden
                if run.size is not None:
                    dim.height = run.size * 0.75
        for run in props_runs.clip(props_runs.load(tab.column_properties), tab.column_count):
            dim = ws.column_dimensions[get_column_letter(run.start + 1)]
            dim.min, dim.max, dim.hidden = run.start + 1, run.end, run.hidden
            # (a width always goes out with a column: without one, the default size's)
            dim.width = max(0.0, ((run.size if run.size is not None else props_runs.COLUMN_PIXELS) - 5) / 7)
        # The auto filter (and the rows it hides), validation rules, conditional formats.
        xlsx_presentation.export_tab(ws, tab, book, filters.hidden_rows(tab, book) if tab.basic_filter else [])
    out = io.BytesIO()
    workbook.save(out)
    data = out.getvalue()
    return {"spreadsheetId": spreadsheet.id, "title": spreadsheet.title, "fileName": f"{spreadsheet.title}.xlsx",
            "mimeType": XLSX_MIME, "size": len(data), "content_base64": base64.b64encode(data).decode()}



@operation("sheets.files.export")
def files_export(self: Any, fileId: FileId, mimeType: str | None = None) -> dict[str, Any]:
    """Drive's files.export of a Google Sheet: the file in the asked format (base64), .xlsx
    (every tab, formulas and formats) or CSV/TSV (the first tab as shown). An uploaded file is
    not exported (Drive's 403 fileNotExportable): it is downloaded as it is (alt=media)."""
    found = drive_file(self, fileId)
    if not mimeType:
        raise DriveError("INVALID_ARGUMENT", "Required parameter: mimeType", "required", "mimeType")
    if found.kind != "sheet":
        hint = " (an uploaded file: download it as it is with alt=media)" if found.kind == "upload" else ""
        raise DriveError("PERMISSION_DENIED", NOT_EXPORTABLE + hint, "fileNotExportable", "fileId")
    kind = EXPORTS.get(mimeType.split(";")[0].strip().lower())
    if kind is None:
        raise DriveError("INVALID_ARGUMENT", f"{NO_CONVERSION} (a Google Sheet exports here as {', '.join(EXPORTS)})",
                         "badRequest", "convertTo")
    if kind == "xlsx":
        made = export_xlsx(self, found.row.id)
        return {"id": found.row.id, "mimeType": XLSX_MIME, "content_base64": made["content_base64"]}
    first = self.tabs(found.row.id)[0]
    rows = self.value_range(found.row.id, quote_sheet(first.title)).get("values", [])
    width = max((len(r) for r in rows), default=0)
    cells = [["" if v is None else _shown(v) for v in row] + [""] * (width - len(row)) for row in rows]
    out = io.StringIO()
    if kind == "csv":
        csv.writer(out, lineterminator="\r\n").writerows(cells)
    else:  # TSV has no quoting: a tab or line break inside a cell is written as a space
        out.writelines("\t".join(" ".join(c.split()) if any(ch in c for ch in "\t\r\n") else c for c in row) + "\r\n" for row in cells)
    text = out.getvalue().removesuffix("\r\n")  # Drive's CSV ends without a line break
    return {"id": found.row.id, "mimeType": "text/csv" if kind == "csv" else "text/tab-separated-values",
            "content_base64": base64.b64encode(text.encode()).decode()}


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return str(value)
