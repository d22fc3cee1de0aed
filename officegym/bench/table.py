"""The bench's table: rows with a value, the target it is judged by, and the ratio."""

from __future__ import annotations

import io
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass

NS_PER_MS = 1e6


@dataclass(slots=True)
class Row:
    key: str  # key in the returned dict
    label: str  # what the table shows
    value: float
    unit: str  # "ms", "s", "x", "MiB", "KiB", "/s", "" …
    target: float | None = None  # the bound in the same unit (upper, or lower when `at_least`)
    note: str = ""
    at_least: bool = False  # a throughput: the value must reach the target

    @property
    def ratio(self) -> float | None:
        if self.target is None or self.target == 0:
            return None
        return self.value / self.target

    @property
    def ok(self) -> bool | None:
        ratio = self.ratio
        if ratio is None:
            return None
        return ratio >= 1 if self.at_least else ratio <= 1


class Results:
    def __init__(self, echo: Callable[[str], None]) -> None:
        self.rows: list[Row] = []
        self.echo = echo

    def add(self, key: str, label: str, value: float, unit: str, target: float | None = None, note: str = "", *, at_least: bool = False) -> None:
        self.rows.append(Row(key, label, float(value), unit, target, note, at_least))

    def as_dict(self) -> dict[str, float]:
        return {row.key: row.value for row in self.rows}


def percentile(samples_ns: list[int], q: float) -> float:
    """The q-th percentile (nearest rank) of samples in ns, in ms."""
    ordered = sorted(samples_ns)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1] / NS_PER_MS


def p50(samples_ns: list[int]) -> float:
    return statistics.median(samples_ns) / NS_PER_MS


def _fmt(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}×"
    if unit == "":
        return f"{value:.0f}" if value == int(value) else f"{value:.2f}"
    digits = 3 if abs(value) < 10 else (2 if abs(value) < 100 else 1)
    return f"{value:.{digits}f} {unit}"


def _verdict(row: Row) -> str:
    if row.ok is None:
        return ""
    return f"{row.ratio:.2f} {'ok' if row.ok else ('SHORT' if row.at_least else 'OVER')}"


def render(rows: list[Row]) -> str:
    """The table as text (rich, no colours, fixed width, so it survives being captured)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="officegym bench", title_justify="left")
    table.add_column("metric", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("target", justify="right", no_wrap=True)
    table.add_column("ratio", justify="right", no_wrap=True)
    table.add_column("note", overflow="fold")
    for row in rows:
        target = f"{'≥' if row.at_least else '≤'} {_fmt(row.target, row.unit)}" if row.target is not None else ""
        table.add_row(row.label, _fmt(row.value, row.unit), target, _verdict(row), row.note)
    buffer = io.StringIO()
    Console(file=buffer, width=150, no_color=True, force_terminal=False, highlight=False).print(table)
    return buffer.getvalue().rstrip("\n")
