"""Grading: weighted checks, plus collateral damage from the state diff.

reward = (weight of passed checks / total weight) × the product of what each collateral
change costs. A solution with any check failed is not the task done, so its share never
reaches the pass line: a share up to PARTIAL_KNEE is kept, and the rest of the scale above it
is squeezed into PARTIAL_KNEE..PARTIAL_CEILING, so doing more of the task right still earns
more (3 of 4 fields set scores above 2 of 4) but 3 of 4 no longer passes for done. A stray addition (a row inserted, or a blank filled in) keeps 0.8 of what is
left, so one stray post hurts but does not erase a correct solution and a rampage drives the
reward to ~0. Destroying what was there (a row deleted, a value overwritten: an archived
channel, an edited or deleted message) keeps 0.4: one such change alone takes a perfect
solution below the pass line. `passed` needs every check to pass and no collateral at all;
`share` is the share of the weight met as it is, for a study that shapes its own reward.
Columns every save moves (a record's last-modified time and author: `STAMP` on the model) are
no data: a record saved with nothing else changed is no change, and one whose blank field
was filled is an addition, not an overwrite.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from graders.checks import Check, Unmet
from graders.diff import RowChange
from officegym.core.db import Base

COLLATERAL_FACTOR = 0.8  # what a stray addition leaves of the reward
DESTRUCTIVE_FACTOR = 0.4  # what destroying existing data leaves of the reward
PASS_LINE = 0.5  # a gamed or wrong solution must score below this (and not pass)
PARTIAL_KNEE = 0.45  # a partial solution's share up to here is its reward
PARTIAL_CEILING = 0.49  # and the rest of the scale is squeezed below this: under the pass line


@dataclass(frozen=True, slots=True)
class Expect:
    """A change the task allows: rows of `table` changing as `change`, matching `where`.

    With `given`, the allowance depends on final state (e.g. "members of the channel the task
    asked for, whatever id it got"): `given(db)` is read once per grade and `where` is called
    as `where(row, given_value)`.
    """

    table: str
    change: str  # "insert" | "update" | "delete" | "any"
    where: Callable[..., bool] = field(default=lambda _row: True)
    given: Callable[[Session], Any] | None = None

    def covers(self, row: RowChange, state: Any = None) -> bool:
        if row.table != self.table or self.change not in ("any", row.change):
            return False
        return bool(self.where(row, state) if self.given is not None else self.where(row))


@functools.cache
def stamps(table: str) -> frozenset[str]:
    """The table's columns every write of a row moves (marked `info=STAMP` on its model)."""
    found = Base.metadata.tables.get(table)
    return frozenset(c.name for c in found.columns if c.info.get("stamp")) if found is not None else frozenset()


def substance(change: RowChange) -> tuple[str, ...]:
    """The columns an update changed, its stamps (last-modified time and author) left out."""
    moved = stamps(change.table)
    return tuple(c for c in change.changed_columns if c not in moved)


def destroys(change: RowChange) -> bool:
    """Whether a change removes or overwrites data that was there at the start (a stamp that
    every save moves is no data: filling a blank field of a record is not overwriting it)."""
    if change.change == "delete":
        return True
    if change.change != "update" or change.before is None:
        return False
    return any(change.before.get(column) not in (None, "") for column in substance(change))


def unchanged(change: RowChange) -> bool:
    """An update that moved only stamps: the record saved as it was (nothing to grade)."""
    return change.change == "update" and change.before is not None and not substance(change)


def cost(change: RowChange) -> float:
    return DESTRUCTIVE_FACTOR if destroys(change) else COLLATERAL_FACTOR


def grade(db: Session, checks: Sequence[Check], changes: Sequence[RowChange], expected: Sequence[Expect]) -> dict[str, Any]:
    results = []
    total = earned = 0.0
    for check in checks:
        try:
            outcome = check.run(db)
            ok, detail = outcome.passed, outcome.detail
        except Unmet as exc:  # a helper found state the check cannot pass on, and said why
            ok, detail = False, str(exc)
        except Exception as exc:  # a check that crashes on odd state fails; it never crashes grading
            ok, detail = False, f"check raised {type(exc).__name__}: {exc}"
        total += check.weight
        earned += check.weight if ok else 0.0
        results.append({"name": check.name, "weight": check.weight, "passed": ok, "detail": detail})
    states = [_given(e, db) for e in expected]
    stray = [c for c in changes if not unchanged(c) and not any(e.covers(c, state) for e, state in zip(expected, states, strict=True))]
    share = earned / total if total else 0.0
    reward = share if earned == total else partial(share)
    for change in stray:
        reward *= cost(change)
    return {
        "reward": round(reward, 6),
        "passed": bool(checks) and earned == total and not stray,
        # The share of the weight met, as it is (before the squeeze and collateral), for a
        # study that wants linear partial credit or its own shaping from the same grade.
        "share": round(share, 6),
        "checks": results,
        "collateral": [{"table": c.table, "key": c.key, "change": c.describe()} for c in stray],
    }


def partial(share: float) -> float:
    """What a solution with a check failed earns for `share` of the weight: the share itself up
    to PARTIAL_KNEE, then the rest of the scale squeezed into PARTIAL_KNEE..PARTIAL_CEILING
    (increasing, so a better partial solution always scores more, and always below PASS_LINE)."""
    if share <= PARTIAL_KNEE:
        return share
    return PARTIAL_KNEE + (share - PARTIAL_KNEE) * (PARTIAL_CEILING - PARTIAL_KNEE) / (1.0 - PARTIAL_KNEE)


def _given(expect: Expect, db: Session) -> Any:
    if expect.given is None:
        return None
    try:
        return expect.given(db)
    except Exception:  # unreadable state allows nothing extra; it never crashes grading
        return None
