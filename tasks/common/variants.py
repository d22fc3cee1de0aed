"""Picking one instance of a family by variant.

A family's instances are the combinations of a few axes (which thread, which emoji, ...).
The axes are shuffled once per template (`shuffled`, seeded by family and company, never by
variant). Variant `v` is combination `v × stride mod n` in mixed radix (first axis fastest),
with a stride coprime to n: so variants 0..n-1 are n different instances, neighbours differ
in the main record and usually in every other axis too, and the same (task, seed, size,
variant) is always the same instance.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tasks.base import SampleContext, TaskUnavailable

T = TypeVar("T")


def shuffled(family_id: str, ctx: SampleContext, items: Sequence[T], axis: str = "") -> tuple[T, ...]:
    order = list(items)
    random.Random(f"{family_id}|{ctx.company.seed}|{ctx.company.size}|{axis}").shuffle(order)
    return tuple(order)


def count(*axes: Sequence[Any]) -> int:
    return math.prod(len(axis) for axis in axes)


def choose(family_id: str, variant: int, *axes: Sequence[Any]) -> tuple[Any, ...]:
    total = count(*axes)
    if total == 0:
        empty = [i for i, axis in enumerate(axes) if not axis]
        raise TaskUnavailable(f"{family_id}: this company offers no instance (axis {empty} has no candidates)")
    index = variant % total * _stride(total) % total
    picked = []
    for axis in axes:
        index, at = divmod(index, len(axis))
        picked.append(axis[at])
    return tuple(picked)


def _stride(total: int) -> int:
    """A step coprime to `total`, near its golden section, so consecutive variants scatter."""
    step = max(1, int(total * 0.618))
    while math.gcd(step, total) != 1:
        step += 1
    return step


def cached(ctx: SampleContext, key: str, build: Callable[[], T]) -> T:
    """`build()` once per template: the Gym hands every sample of a template the same cache."""
    if key not in ctx.cache:
        ctx.cache[key] = build()
    return ctx.cache[key]
