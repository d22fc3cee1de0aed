"""The recalc kernel `officegym bench` times: a 10,000-cell workbook, one edit, and exactly its
dependants recalculated to the values a hand computation gives."""

from __future__ import annotations

import math

import pytest

from apps.sheets import bench
from apps.sheets.bench import EDITED_ROW, ORDERS, PRODUCTS, REGIONS, ROWS, SUMMARY
from apps.sheets.formulas.engine import Book
from mcp_servers.sheets import BENCH_PROBE


def expected(quantities: list[float]) -> dict[str, object]:
    """Every figure of the book from its inputs, computed without the engine."""
    amounts = [q * bench.price_of((i * 3) % len(PRODUCTS)) for i, q in enumerate(quantities)]
    running, total = [], 0.0
    for a in amounts:
        total += a
        running.append(total)
    by_region = {r: math.fsum(a for i, a in enumerate(amounts) if REGIONS[i % len(REGIONS)] == r) for r in REGIONS}
    count = {r: sum(1 for i in range(ROWS) if REGIONS[i % len(REGIONS)] == r) for r in REGIONS}
    return {"amounts": amounts, "running": running, "by_region": by_region, "count": count,
            "total": math.fsum(amounts), "units": math.fsum(quantities)}


def check_against(book: Book, quantities: list[float]) -> None:
    want = expected(quantities)
    for i in (0, EDITED_ROW - 1, EDITED_ROW, EDITED_ROW + 1, ROWS - 1):
        assert book.values[(ORDERS, i + 1, 3)] == bench.price_of((i * 3) % len(PRODUCTS))  # the VLOOKUP on Prices
        assert book.values[(ORDERS, i + 1, 4)] == pytest.approx(want["amounts"][i])
        assert book.values[(ORDERS, i + 1, 5)] == pytest.approx(want["running"][i])
    for k, region in enumerate(REGIONS):
        assert book.values[(SUMMARY, k + 1, 1)] == pytest.approx(want["by_region"][region])
        assert book.values[(SUMMARY, k + 1, 2)] == want["count"][region]
        assert book.values[(SUMMARY, k + 1, 3)] == pytest.approx(want["by_region"][region] / want["count"][region])
    assert book.values[(SUMMARY, 10, 1)] == pytest.approx(want["total"])
    assert book.values[(SUMMARY, 10, 2)] == pytest.approx(want["units"])
    assert book.values[(SUMMARY, 10, 3)] == pytest.approx(want["running"][-1])
    assert book.values[(SUMMARY, 11, 1)] == pytest.approx(0.0, abs=1e-6)


def test_the_workbook_has_ten_thousand_cells_and_computes_right() -> None:
    book = bench.build()
    assert bench.cell_count(book) >= 10_000
    check_against(book, [bench.quantity_of(i) for i in range(ROWS)])


def test_one_edit_recalculates_exactly_its_dependants() -> None:
    book = bench.build()
    quantities = [bench.quantity_of(i) for i in range(ROWS)]
    new = quantities[EDITED_ROW] + 40
    changed = bench.edit(book, new)
    quantities[EDITED_ROW] = new
    check_against(book, quantities)
    row = EDITED_ROW + 1
    region = EDITED_ROW % len(REGIONS)
    # The row's amount, the running total from there down, its region's sum and average, and
    # the totals: nothing above the edit and no other region.
    assert changed == {(ORDERS, row, 4), *((ORDERS, r, 5) for r in range(row, ROWS + 1)),
                       (SUMMARY, region + 1, 1), (SUMMARY, region + 1, 3), (SUMMARY, 10, 1), (SUMMARY, 10, 2), (SUMMARY, 10, 3)}


def test_the_bench_probe_times_repeated_edits_that_stay_right() -> None:
    (label, setup), = BENCH_PROBE.kernels
    assert "10k" in label
    step = setup()
    for _ in range(3):
        changed = step()
        assert (SUMMARY, 10, 1) in changed  # each step is a real edit: the total moves
