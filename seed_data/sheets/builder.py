"""Building a seeded workbook in memory: tabs, literal rows and formulas are entered into the
formula engine, recalculated once, then turned into table rows for one bulk insert each."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from apps.sheets.entry import dump_json, encode
from apps.sheets.formulas.engine import Book, SheetInfo, deps_json
from apps.sheets.formulas.values import to_serial
from apps.sheets.ids import permission_id, sheet_id

CURRENCY = {"type": "CURRENCY", "pattern": "$#,##0"}
PERCENT = {"type": "PERCENT", "pattern": "0%"}
DATE = {"type": "DATE", "pattern": "yyyy-mm-dd"}
BOLD = {"textFormat": {"bold": True}}


@dataclass
class Tab:
    title: str
    sheet_id: int
    rows: list[list[Any]] = field(default_factory=list)  # "=…" strings are formulas
    formats: dict[int, dict[str, str]] = field(default_factory=dict)  # column → number format
    cell_formats: dict[tuple[int, int], dict[str, str]] = field(default_factory=dict)  # (row, col) → format, over the column's
    frozen_rows: int = 1
    row_count: int = 1000
    column_count: int = 26


@dataclass
class Workbook:
    id: str
    title: str
    owner: str  # email
    created: str
    shares: dict[str, str] = field(default_factory=dict)  # email → role
    tabs: list[Tab] = field(default_factory=list)

    def tab(self, title: str, rows: list[list[Any]], formats: dict[int, dict[str, str]] | None = None) -> Tab:
        created = Tab(title, sheet_id(self.id, len(self.tabs)) if self.tabs else 0, rows, formats or {})
        created.row_count = max(1000, len(rows) + 100)
        self.tabs.append(created)
        return created


def cell_value(value: Any) -> Any:
    if isinstance(value, date):
        return to_serial(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def rows_of(book: Workbook, now: Any) -> dict[str, list[dict[str, Any]]]:
    """Table rows for one workbook: spreadsheet, tabs, permissions, cells (values computed)."""
    engine = Book([SheetInfo(t.sheet_id, t.title, t.row_count, t.column_count) for t in book.tabs], now=now)
    formats: dict[tuple[int, int, int], tuple[str | None, str | None]] = {}
    for tab in book.tabs:
        for r, line in enumerate(tab.rows):
            for c, raw in enumerate(line):
                key = (tab.sheet_id, r, c)
                if r == 0:
                    formats[key] = (None, dump_json(BOLD))
                elif (r, c) in tab.cell_formats:
                    formats[key] = (dump_json(tab.cell_formats[(r, c)]), None)
                elif c in tab.formats:
                    formats[key] = (dump_json(tab.formats[c]), None)
                if raw is None or raw == "":
                    continue
                if isinstance(raw, str) and raw.startswith("="):
                    engine.set_formula(key, raw)
                else:
                    engine.set_input(key, cell_value(raw))
    engine.recalc_all()
    cells = []
    for key in sorted(set(engine.inputs) | set(engine.formulas) | set(engine.spill) | set(formats)):
        formula = engine.formulas.get(key)
        spill = None
        if formula is not None:
            value = engine.values.get(key)
            deps = list(engine.deps.get(key) or [])
            deps_text = deps_json([*deps, "v"] if key in engine.volatile else deps)  # type: ignore[list-item]
        elif key in engine.inputs:
            value, deps_text = engine.inputs[key], None
        elif key in engine.spill:
            value, deps_text = engine.spill[key], None
            anchor = engine.spill_owner[key]
            spill = f"{anchor[1]}:{anchor[2]}"
        else:
            value, deps_text = None, None
        kind, text, note = encode(value)
        number_format, style = formats.get(key, (None, None))
        cells.append({"spreadsheet_id": book.id, "sheet_id": key[0], "row": key[1], "col": key[2], "formula": formula, "kind": kind,
                      "value": text, "note": note, "number_format": number_format, "style": style, "deps": deps_text, "spill": spill})
    return {
        "spreadsheets": [{"id": book.id, "title": book.title, "locale": "en_US", "time_zone": "America/New_York", "owner_email": book.owner,
                          "folder_id": "root", "created": book.created, "modified": book.created, "next_sheet_id": len(book.tabs) + 1}],
        "tabs": [{"spreadsheet_id": book.id, "sheet_id": t.sheet_id, "title": t.title, "index": i, "row_count": t.row_count,
                  "column_count": t.column_count, "frozen_rows": t.frozen_rows, "frozen_columns": 0, "hidden": False, "tab_color": None}
                 for i, t in enumerate(book.tabs)],
        "permissions": [{"spreadsheet_id": book.id, "email": email, "role": role, "permission_id": permission_id(book.id, email)}
                        for email, role in sorted({book.owner: "owner", **{k: v for k, v in book.shares.items() if k != book.owner}}.items())],
        "cells": cells,
    }
