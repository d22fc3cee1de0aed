"""Tables of the sheets app (a Google Sheets clone). Spreadsheet ids are Google's 44-character
base64url ids; a tab's `sheetId` is an integer unique within its spreadsheet (0 for the first,
as Google numbers it); cells are sparse rows keyed by (spreadsheet, sheetId, row, col), 0-based.

A cell keeps what was entered (`formula` for "=…", else the literal in `kind`/`value`) and,
for a formula, its computed value in the same `kind`/`value` columns: `kind` is n(umber),
s(tring), b(oolean) or e(rror), `value` its text (numbers as Python's repr, exact both ways).
`deps` is the formula's precedent ranges resolved to sheet ids (JSON), so loading a book to
recalculate one edit never re-parses its formulas; `spill` marks a cell filled by an array
formula (its anchor as "row:col").
"""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from officegym.core.db import STAMP, Base


class Spreadsheet(Base):
    __tablename__ = "sheets_spreadsheets"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    title: Mapped[str] = mapped_column(String(256))
    locale: Mapped[str] = mapped_column(String(16), default="en_US")
    time_zone: Mapped[str] = mapped_column(String(64), default="America/New_York")
    owner_email: Mapped[str] = mapped_column(String(254))
    folder_id: Mapped[str] = mapped_column(String(64), default="root")
    created: Mapped[str] = mapped_column(String(32))  # ISO 8601, env clock
    modified: Mapped[str] = mapped_column(String(32), info=STAMP)
    next_sheet_id: Mapped[int] = mapped_column(Integer, default=1)
    # Which cells the spreadsheet holds, as a digest chained over every save of its book
    # (NULL, or "!…" after any other write: not known); apps/sheets/kept_books.py.
    revision: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None, info=STAMP)
    # In Drive's trash (files.update trashed=true): still opened by id, as Google's are.
    trashed: Mapped[bool] = mapped_column(Boolean, default=False)


class Sheet(Base):
    """A tab."""

    __tablename__ = "sheets_tabs"
    spreadsheet_id: Mapped[str] = mapped_column(ForeignKey("sheets_spreadsheets.id"), primary_key=True)
    sheet_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(100))
    index: Mapped[int] = mapped_column(Integer)
    row_count: Mapped[int] = mapped_column(Integer, default=1000)
    column_count: Mapped[int] = mapped_column(Integer, default=26)
    frozen_rows: Mapped[int] = mapped_column(Integer, default=0)
    frozen_columns: Mapped[int] = mapped_column(Integer, default=0)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    tab_color: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Rows and columns hidden by the user or given a size (DimensionProperties), as runs in
    # JSON (apps/sheets/dimension_properties.py); NULL: all shown, at the default size.
    row_properties: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    column_properties: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    # The tab's basic filter, its conditional format rules and its data validation rules, as
    # JSON (apps/sheets/filters.py, conditional_formats.py, validation.py); NULL: none.
    basic_filter: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    conditional_formats: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    data_validation: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)


class Cell(Base):
    __tablename__ = "sheets_cells"
    spreadsheet_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    sheet_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    row: Mapped[int] = mapped_column(Integer, primary_key=True)
    col: Mapped[int] = mapped_column(Integer, primary_key=True)
    formula: Mapped[str | None] = mapped_column(Text, nullable=True)
    kind: Mapped[str] = mapped_column(String(1), default="")  # n, s, b, e; "" = blank (format only)
    value: Mapped[str | None] = mapped_column(Text, nullable=True)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)  # an error's reason
    number_format: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON {type, pattern}
    style: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON textFormat/backgroundColor/…
    deps: Mapped[str | None] = mapped_column(Text, nullable=True)
    spill: Mapped[str | None] = mapped_column(String(32), nullable=True)

    __table_args__ = (
        Index("ix_sheets_cells_sheet", "spreadsheet_id", "sheet_id"),
        # A search reads each spreadsheet's text cells (drive.files_search): on SQLite from this
        # index alone, not from the rows (wide with formulas, precedents and styles), at half
        # the cost. PostgreSQL's search reads the cells in one pass, and its B-tree entries are
        # limited in size (a cell holds up to 50,000 characters): there the index stays empty.
        Index("ix_sheets_cells_text", "spreadsheet_id", "kind", "value", sqlite_where=text("kind = 's'"), postgresql_where=text("false")),
    )


class Merge(Base):
    __tablename__ = "sheets_merges"
    spreadsheet_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    sheet_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    start_row: Mapped[int] = mapped_column(Integer, primary_key=True)
    start_col: Mapped[int] = mapped_column(Integer, primary_key=True)
    end_row: Mapped[int] = mapped_column(Integer)
    end_col: Mapped[int] = mapped_column(Integer)


class NamedRange(Base):
    __tablename__ = "sheets_named_ranges"
    spreadsheet_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(250), primary_key=True)
    named_range_id: Mapped[str] = mapped_column(String(64))
    sheet_id: Mapped[int] = mapped_column(Integer)
    start_row: Mapped[int] = mapped_column(Integer)
    start_col: Mapped[int] = mapped_column(Integer)
    end_row: Mapped[int | None] = mapped_column(Integer, nullable=True)
    end_col: Mapped[int | None] = mapped_column(Integer, nullable=True)


class Permission(Base):
    """Who may open a spreadsheet: its owner, and people it is shared with."""

    __tablename__ = "sheets_permissions"
    spreadsheet_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    email: Mapped[str] = mapped_column(String(254), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))  # owner, writer, commenter, reader
    permission_id: Mapped[str] = mapped_column(String(32))


class Chart(Base):
    __tablename__ = "sheets_charts"
    spreadsheet_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    chart_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sheet_id: Mapped[int] = mapped_column(Integer)
    spec: Mapped[str] = mapped_column(Text)  # JSON ChartSpec


class Folder(Base):
    __tablename__ = "sheets_folders"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(256))
    parent: Mapped[str] = mapped_column(String(64), default="root")


class DriveFile(Base):
    """A file uploaded to Drive as it is (an Excel .xlsx, not yet a Google Sheet): its bytes,
    base64 as text. Opening it with Google Sheets converts it into a new spreadsheet
    (`sheets.importXlsx` with its file id); the upload stays as it was."""

    __tablename__ = "sheets_drive_files"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(256))
    mime_type: Mapped[str] = mapped_column(String(128))
    owner_email: Mapped[str] = mapped_column(String(254))
    folder_id: Mapped[str] = mapped_column(String(64), default="root")
    created: Mapped[str] = mapped_column(String(32))
    size: Mapped[int] = mapped_column(Integer)
    content: Mapped[str] = mapped_column(Text)
    trashed: Mapped[bool] = mapped_column(Boolean, default=False)  # in Drive's trash
