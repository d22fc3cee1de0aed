"""Excel interop with openpyxl: import an .xlsx as a new spreadsheet (tabs, values, formulas,
number formats, merges, frozen rows), recalculated by our engine; export a spreadsheet as an
.xlsx with the same. Files travel as base64 text (tool arguments and JSON bodies are text)."""

from __future__ import annotations

import base64
import binascii
import io
import re
import zipfile
from datetime import date, datetime, time
from typing import Any

from sqlalchemy import insert, select

from apps.sheets.a1 import cell_name
from apps.sheets.drive import DriveFileId, uploaded_file
from apps.sheets.entry import dump_json, encode, load_json
from apps.sheets.errors import invalid
from apps.sheets.formulas.values import to_serial
from apps.sheets.models import Cell, Merge
from apps.sheets.params import Base64, SpreadsheetId, Title
from officegym.core.operations import operation

MAX_XLSX_BYTES = 20 * 1024 * 1024
MAX_IMPORT_CELLS = 500_000
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
GOOGLE_SHEET_MIME = "application/vnd.google-apps.spreadsheet"
# Functions newer than Excel 2007 are stored with a prefix in the file format; Excel, LibreOffice
# and openpyxl readers expect it, and a file without it shows #NAME? in them.
FUTURE_FUNCTIONS = {"IFS": "_xlfn.", "IFNA": "_xlfn.", "SWITCH": "_xlfn.", "XLOOKUP": "_xlfn.", "TEXTJOIN": "_xlfn.",
                    "CONCAT": "_xlfn.", "MINIFS": "_xlfn.", "MAXIFS": "_xlfn.", "DAYS": "_xlfn.", "UNIQUE": "_xlfn.",
                    "FILTER": "_xlfn._xlws.", "SORT": "_xlfn._xlws."}
_FUTURE = re.compile(r"(?<![A-Za-z0-9_.])(" + "|".join(FUTURE_FUNCTIONS) + r")(?=\s*\()", re.I)
_PREFIXES = re.compile(r"_xlfn\.|_xlws\.|_xludf\.", re.I)


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
    try:
        from openpyxl import load_workbook  # imported on use: openpyxl adds ~0.3 s to every server start

        workbook = load_workbook(io.BytesIO(data), data_only=False)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as bad:
        raise invalid(f"the file is not a readable .xlsx workbook ({type(bad).__name__})") from None
    worksheets = workbook.worksheets
    if not worksheets:
        raise invalid("the workbook has no worksheets")
    spreadsheet = new_spreadsheet(self, title or (workbook.properties.title or "Imported workbook"), [ws.title[:100] for ws in worksheets])
    tabs = {t.title: t for t in self.tabs(spreadsheet.id)}
    rows: list[dict[str, Any]] = []
    for ws in worksheets:
        tab = tabs[ws.title[:100]]
        tab.row_count = max(1000, ws.max_row)
        tab.column_count = max(26, ws.max_column)
        if ws.freeze_panes:
            frozen = ws[ws.freeze_panes]
            tab.frozen_rows, tab.frozen_columns = frozen.row - 1, frozen.column - 1
        for merged in ws.merged_cells.ranges:
            self.db.add(Merge(spreadsheet_id=spreadsheet.id, sheet_id=tab.sheet_id, start_row=merged.min_row - 1,
                              start_col=merged.min_col - 1, end_row=merged.max_row, end_col=merged.max_col))
        for line in ws.iter_rows():
            for cell in line:
                formula, literal = _value_of(cell.value)
                pattern = cell.number_format if cell.number_format and cell.number_format != "General" else None
                if formula is None and literal is None and pattern is None:
                    continue
                if len(rows) >= MAX_IMPORT_CELLS:
                    raise invalid(f"the workbook has more than {MAX_IMPORT_CELLS} cells")
                kind, text, note = encode(literal)
                style = {"textFormat": {"bold": True}} if cell.font is not None and cell.font.b else None
                rows.append({"spreadsheet_id": spreadsheet.id, "sheet_id": tab.sheet_id, "row": cell.row - 1, "col": cell.column - 1,
                             "formula": formula, "kind": kind, "value": text, "note": note,
                             "number_format": dump_json({"type": _format_kind(pattern), "pattern": pattern}) if pattern else None,
                             "style": dump_json(style), "deps": None, "spill": None})
    self.db.flush()
    if rows:
        self.db.execute(insert(Cell), rows)
    book = self.book(spreadsheet.id)
    book.recalc_everything()
    book.replace_all()
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
        for cell in cells:
            if cell.spill is not None:
                continue  # an array formula's spill is recomputed by whoever opens the file
            target = ws.cell(row=cell.row + 1, column=cell.col + 1)
            if cell.formula is not None:
                target.value = to_file_formula(cell.formula)
            elif cell.kind:
                value = book.book.inputs.get((tab.sheet_id, cell.row, cell.col))
                target.value = int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 2**53 else value
            fmt = load_json(cell.number_format)
            if fmt and fmt.get("pattern"):
                target.number_format = fmt["pattern"]
            style = load_json(cell.style) or {}
            if (style.get("textFormat") or {}).get("bold"):
                target.font = Font(bold=True)
        for merge in self.db.scalars(select(Merge).where(Merge.spreadsheet_id == spreadsheet.id, Merge.sheet_id == tab.sheet_id)):
            ws.merge_cells(f"{cell_name(merge.start_row, merge.start_col)}:{cell_name(merge.end_row - 1, merge.end_col - 1)}")
        if tab.frozen_rows or tab.frozen_columns:
            ws.freeze_panes = f"{get_column_letter(tab.frozen_columns + 1)}{tab.frozen_rows + 1}"
    out = io.BytesIO()
    workbook.save(out)
    data = out.getvalue()
    return {"spreadsheetId": spreadsheet.id, "title": spreadsheet.title, "fileName": f"{spreadsheet.title}.xlsx",
            "mimeType": XLSX_MIME, "size": len(data), "content_base64": base64.b64encode(data).decode()}

