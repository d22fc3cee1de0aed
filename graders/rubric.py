"""Grading: weighted checks, plus collateral damage from the state diff.

reward = (weight of passed checks / total weight) × 0.8 ^ (number of collateral changes).
Each change outside what the task expects costs a fifth of what is left, so one stray edit
hurts but does not erase a correct solution, and a rampage drives the reward to ~0.
`passed` needs every check to pass and no collateral damage at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from graders.checks import Check
from graders.diff import RowChange

COLLATERAL_FACTOR = 0.8


@dataclass(frozen=True, slots=True)
class Expect:
    """A change the task allows: rows of `table` changing as `change`, matching `where`."""

    table: str
    change: str  # "insert" | "update" | "delete" | "any"
    where: Callable[[RowChange], bool] = field(default=lambda _row: True)

    def covers(self, row: RowChange) -> bool:
        return row.table == self.table and self.change in ("any", row.change) and bool(self.where(row))


def grade(db: Session, checks: Sequence[Check], changes: Sequence[RowChange], expected: Sequence[Expect]) -> dict[str, Any]:
    results = []
    total = earned = 0.0
    for check in checks:
        try:
            outcome = check.run(db)
            ok, detail = outcome.passed, outcome.detail
        except Exception as exc:  # a check that crashes on odd state fails; it never crashes grading
            ok, detail = False, f"check raised {type(exc).__name__}: {exc}"
        total += check.weight
        earned += check.weight if ok else 0.0
        results.append({"name": check.name, "weight": check.weight, "passed": ok, "detail": detail})
    collateral = [
        {"table": c.table, "key": c.key, "change": c.describe()}
        for c in changes
        if not any(e.covers(c) for e in expected)
    ]
    score = earned / total if total else 0.0
    reward = score * COLLATERAL_FACTOR ** len(collateral)
    return {
        "reward": round(reward, 6),
        "passed": bool(checks) and earned == total and not collateral,
        "checks": results,
        "collateral": collateral,
    }
