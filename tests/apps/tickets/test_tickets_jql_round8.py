"""JQL over time tracking: originalEstimate, remainingEstimate and timeSpent compare with Jira's
durations ("2h", "1d 4h"; a bare number is minutes) and are EMPTY on an issue with none, and
the remaining estimate follows the work logged, as `adjustEstimate` says."""

from __future__ import annotations

from typing import Any

import pytest

from apps.tickets.errors import TicketsError


def keys(run: Any, jql: str) -> set[str]:
    return {i["key"] for i in run(lambda s: s.search_issues(jql=jql, max_results=1000, fields="key"))["issues"]}


def test_estimates_and_time_spent_in_jql(run: Any) -> None:
    big = run(lambda s: s.create_issue(project="ENG", summary="Rewrite the refund batch", issue_type="Task",
                                       fields={"timetracking": {"originalEstimate": "3d"}}))["key"]
    small = run(lambda s: s.create_issue(project="ENG", summary="Fix a typo", issue_type="Task",
                                         fields={"timetracking": {"originalEstimate": "30m", "remainingEstimate": "20m"}}))["key"]
    run(lambda s: s.add_worklog(issue=big, time_spent="1d"))
    run(lambda s: s.add_worklog(issue=small, time_spent="1h", adjust_estimate="leave"))
    fields = run(lambda s: s.get_issue(issue=big, fields="timetracking,timeestimate"))["fields"]
    assert fields["timetracking"]["remainingEstimate"] == "2d" and fields["timeestimate"] == 2 * 8 * 3600

    assert keys(run, "originalEstimate > 2d") >= {big} and small not in keys(run, "originalEstimate > 2d")
    assert {big, small} <= keys(run, "originalEstimate is not EMPTY")
    assert small in keys(run, "remainingEstimate = 20") and small in keys(run, "remainingEstimate = 20m")
    assert big in keys(run, 'remainingEstimate = "2d"') and big not in keys(run, "remainingEstimate < 1d")
    assert {big, small} <= keys(run, "timespent >= 1h") and big in keys(run, "timeSpent = 1d") and small not in keys(run, "timespent > 1h")
    fresh = run(lambda s: s.create_issue(project="ENG", summary="Not started", issue_type="Task"))["key"]
    assert fresh in keys(run, "timespent is EMPTY AND originalEstimate is EMPTY") and big not in keys(run, "timespent is EMPTY")
    with pytest.raises(TicketsError, match="not a duration"):
        keys(run, "timespent > soon")


def test_order_by_estimates_and_time_spent(run: Any) -> None:
    """ORDER BY the time-tracking fields sorts by their seconds, empties last ascending (as
    Jira sorts every field), so "what is the biggest job left" is one query."""
    made = {}
    for summary, original, spent in (("Small job", "2h", None), ("Big job", "3d", "4h"), ("Medium job", "1d", "30m")):
        key = run(lambda s: s.create_issue(project="ENG", summary=summary, issue_type="Task",
                                           fields={"timetracking": {"originalEstimate": original}}))["key"]
        if spent:
            run(lambda s: s.add_worklog(issue=key, time_spent=spent, adjust_estimate="leave"))
        made[key] = summary
    bare = run(lambda s: s.create_issue(project="ENG", summary="Unestimated job", issue_type="Task"))["key"]
    made[bare] = "Unestimated job"
    scope = f"key in ({', '.join(made)})"

    def order(clause: str) -> list[str]:
        found = run(lambda s: s.search_issues(jql=f"{scope} ORDER BY {clause}", max_results=10, fields="key"))["issues"]
        return [made[i["key"]] for i in found]

    assert order("originalEstimate DESC") == ["Unestimated job", "Big job", "Medium job", "Small job"]
    assert order("originalEstimate ASC") == ["Small job", "Medium job", "Big job", "Unestimated job"]
    assert order("remainingEstimate ASC")[:3] == ["Small job", "Medium job", "Big job"]
    # No time logged on two: empty, so last, the newer issue first (the tie-break, as above).
    assert order("timespent ASC") == ["Medium job", "Big job", "Unestimated job", "Small job"]
