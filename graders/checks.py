"""Checks: weighted assertions on an env's final state, read from its database alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session


@dataclass(frozen=True, slots=True)
class CheckResult:
    passed: bool
    detail: str


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    test: Callable[[Session], CheckResult]
    weight: float = 1.0

    def run(self, db: Session) -> CheckResult:
        return self.test(db)


class Unmet(Exception):
    """Raised from deep inside a check (a helper reading state the check cannot pass on, such
    as a spreadsheet in the trash): the check fails with this text as its detail."""


def passed(detail: str) -> CheckResult:
    return CheckResult(True, detail)


def failed(detail: str) -> CheckResult:
    return CheckResult(False, detail)
