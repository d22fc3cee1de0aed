"""JQL nested as deep as a person could write it runs, and deeper is Jira's 400 naming the
limit: never a 500. A chain of NOTs is one NOT or none; NOT nested in parentheses runs as a
set complement (unassigned issues are in NOT assignee = x) without nesting a query per level.

Before, ten NOTs in a row, or NOT nested ten deep in parentheses, answered 500 (SQLite's parser
overflowed on a subquery per NOT), as did AND and OR alternating 40 deep."""

from __future__ import annotations

from typing import Any

import pytest

from apps.tickets.errors import TicketsError
from apps.tickets.jql.parser import MAX_NESTING
from tests.apps.tickets.test_tickets_jql import search


def nested_nots(depth: int, inner: str) -> str:
    query = inner
    for _ in range(depth):
        query = f"NOT (project = SUP AND {query})"
    return query


def test_a_chain_of_nots_is_one_not_or_none(read: Any) -> None:
    support = search(read, "project = SUP")
    others = search(read, "NOT project = SUP")
    assert support and others and not support & others
    assert search(read, "NOT " * 300 + "project = SUP") == support
    assert search(read, "NOT " * 301 + "project = SUP") == others
    assert search(read, "!" * 41 + "project = SUP") == others


def test_not_nested_in_parentheses_runs_as_a_complement_of_sets(read: Any) -> None:
    everything = search(read, "project IS NOT EMPTY")
    support = search(read, "project = SUP")
    unassigned_sup = search(read, "project = SUP AND assignee IS EMPTY")
    assert unassigned_sup, "the site has unassigned support tickets to keep in a NOT"
    # NOT (SUP AND NOT (SUP AND x)) is everything but SUP issues outside x, level by level.
    inner = "assignee IS EMPTY"
    expected = unassigned_sup
    for depth in range(1, 12):
        expected = everything - (support & expected)
        assert search(read, nested_nots(depth, inner)) == expected, depth
    assert unassigned_sup <= search(read, "NOT assignee = currentUser()"), "an unassigned issue is in NOT (assignee = x)"


def test_nesting_beyond_the_limit_is_a_400_naming_it(read: Any) -> None:
    alternating = "project = SUP"
    for level in range(MAX_NESTING + 1):
        alternating = f"project = SUP {'AND' if level % 2 else 'OR'} ({alternating})"
    with pytest.raises(TicketsError) as refused:
        read(lambda jira: jira.search_issues(jql=alternating, max_results=1))
    assert refused.value.status_code == 400 and f"at most {MAX_NESTING} levels" in str(refused.value)
    with pytest.raises(TicketsError):
        read(lambda jira: jira.search_issues(jql=nested_nots(MAX_NESTING, "project = SUP"), max_results=1))
