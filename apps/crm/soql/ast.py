"""The parsed form of a SOQL query: plain dataclasses the compiler walks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FieldRef:
    path: tuple[str, ...]  # ("Account", "Owner", "Name")

    @property
    def text(self) -> str:
        return ".".join(self.path)


@dataclass(frozen=True)
class Aggregate:
    func: str  # COUNT, COUNT_DISTINCT, SUM, AVG, MIN, MAX (upper case)
    arg: FieldRef | None

    @property
    def text(self) -> str:
        return f"{self.func}({self.arg.text if self.arg else ''})"


@dataclass(frozen=True)
class DateFn:
    func: str  # CALENDAR_YEAR, ...
    arg: FieldRef

    @property
    def text(self) -> str:
        return f"{self.func}({self.arg.text})"


@dataclass(frozen=True)
class Aliased:
    expr: Aggregate | DateFn
    alias: str | None


@dataclass(frozen=True)
class Literal:
    kind: str  # string, number, date, datetime, null, boolean, relative
    value: Any  # for relative: (NAME, n or None)


@dataclass(frozen=True)
class Compare:
    op: str  # = != < > <= >= LIKE IN NOT IN INCLUDES EXCLUDES
    left: FieldRef | DateFn | Aggregate
    values: tuple[Literal, ...]


@dataclass(frozen=True)
class SemiJoin:
    negate: bool
    left: FieldRef
    query: Query


@dataclass(frozen=True)
class Logic:
    op: str  # AND, OR, NOT
    items: tuple[Any, ...]


@dataclass(frozen=True)
class Order:
    expr: FieldRef | Aggregate | DateFn
    descending: bool
    nulls_last: bool


@dataclass(frozen=True)
class Query:
    object: str
    select: tuple[Any, ...]  # FieldRef | Aliased | Query (child subquery)
    where: Any = None
    group_by: tuple[Any, ...] = ()
    having: Any = None
    order_by: tuple[Order, ...] = ()
    limit: int | None = None
    offset: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
