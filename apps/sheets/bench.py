"""The engine kernel `officegym bench` times for sheets: one edit to a 10,000-cell workbook and
the recalculation of its dependants, in memory with the real engine (no database).

The workbook is shaped like the office books agents meet: an order table whose price is looked
up on another tab, an amount per row, a running total down the table (a long chain), and a
summary tab of SUMIF/COUNTIF per region and column totals over the whole table. An edit to a
mid-table quantity therefore reaches a row's amount, half the running-total chain and every
summary formula — the dependants a real edit has — and nothing else is recalculated.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from apps.sheets.formulas.engine import Book, Key, SheetInfo

ORDERS, PRICES, SUMMARY = 0, 1, 2
ROWS = 1_650  # order rows: 6 columns each, with the other tabs ≈ 10,000 cells
REGIONS = ("North", "South", "East", "West", "Central", "Pacific", "Mountain", "Atlantic")
PRODUCTS = tuple(f"P-{n:03d}" for n in range(40))
EDITED_ROW = ROWS // 2  # 0-based data row whose quantity each step changes


def price_of(product: int) -> float:
    return 5.0 + 2.5 * product


def quantity_of(row: int) -> float:
    return float(1 + (row * 7) % 23)


def build() -> Book:
    """The workbook, fully calculated. Orders!A:F = region, product, quantity, price (VLOOKUP on
    Prices), amount, running total; rows 2..ROWS+1 (row 1 is the header)."""
    book = Book([SheetInfo(ORDERS, "Orders", ROWS + 10, 26), SheetInfo(PRICES, "Prices", 100, 26),
                 SheetInfo(SUMMARY, "Summary", 100, 26)], now=datetime(2026, 1, 1))
    for c, header in enumerate(("Region", "Product", "Quantity", "Price", "Amount", "Running total")):
        book.set_input((ORDERS, 0, c), header)
    for p, name in enumerate(PRODUCTS):
        book.set_input((PRICES, p, 0), name)
        book.set_input((PRICES, p, 1), price_of(p))
    last = ROWS + 1
    for i in range(ROWS):
        r, n = i + 1, i + 2  # 0-based row, 1-based A1 row number
        book.set_input((ORDERS, r, 0), REGIONS[i % len(REGIONS)])
        book.set_input((ORDERS, r, 1), PRODUCTS[(i * 3) % len(PRODUCTS)])
        book.set_input((ORDERS, r, 2), quantity_of(i))
        book.set_formula((ORDERS, r, 3), f"=VLOOKUP(B{n},Prices!$A:$B,2,FALSE)")
        book.set_formula((ORDERS, r, 4), f"=C{n}*D{n}")
        book.set_formula((ORDERS, r, 5), f"=E{n}" if i == 0 else f"=F{n - 1}+E{n}")
    for k, region in enumerate(REGIONS):
        n = k + 2
        book.set_input((SUMMARY, k + 1, 0), region)
        book.set_formula((SUMMARY, k + 1, 1), f"=SUMIF(Orders!$A$2:$A${last},A{n},Orders!$E$2:$E${last})")
        book.set_formula((SUMMARY, k + 1, 2), f"=COUNTIF(Orders!$A$2:$A${last},A{n})")
        book.set_formula((SUMMARY, k + 1, 3), f"=IFERROR(B{n}/C{n},0)")
    book.set_formula((SUMMARY, 10, 1), f"=SUM(Orders!E2:E{last})")
    book.set_formula((SUMMARY, 10, 2), f"=SUM(Orders!C2:C{last})")
    book.set_formula((SUMMARY, 10, 3), f"=MAX(Orders!F2:F{last})")
    book.set_formula((SUMMARY, 11, 1), "=B11-SUM(B2:B9)")  # the check a careful analyst adds: 0
    book.recalc_all()
    return book


def cell_count(book: Book) -> int:
    return len(book.inputs) + len(book.formulas)


def edit(book: Book, quantity: float) -> set[Key]:
    """Type a new quantity into the edited row and recalculate what depends on it."""
    key = (ORDERS, EDITED_ROW + 1, 2)
    book.set_input(key, quantity)
    return book.recalc({key}, include_self=True)


def recalc_after_one_edit() -> Callable[[], object]:
    """`Probe.kernels` setup: builds the workbook (untimed), returns the timed step."""
    book = build()
    turn = [0]

    def step() -> object:
        turn[0] += 1
        return edit(book, float(turn[0] % 50 + 1))

    return step
