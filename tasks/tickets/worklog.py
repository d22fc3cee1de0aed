"""tickets/log-work-v1: log the time spent on an engineering issue.

Passes when the time the agent logged on the issue since the task began adds up to exactly the
duration asked (in one entry or several, in any of Jira's formats: "1h 30m" or "90m"), and
it logged nothing on other issues.
"""

from __future__ import annotations

import random

from sqlalchemy import func, select

from apps.tickets.ids import format_duration, parse_duration
from apps.tickets.models import Issue, Worklog
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, nothing, SampleContext, TaskInstance, ToolError, Tools
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import allow_issue, bumped, comment, site, wreck

_DURATIONS = ("30m", "1h 30m", "2h", "45m", "3h", "1d", "4h 15m")
_WHAT = ("pairing on the fix", "reviewing the pull request", "writing the regression test", "investigating the logs")
# What the time went on fits the issue: a bug is investigated, fixed and regression-tested; other work has no fix to pair on.
_WHAT_FOR_WORK = ("reviewing the pull request", "pairing on the implementation")


def _fitting(ticket) -> tuple[str, ...]:
    if ticket.type == "Bug":
        return _WHAT
    writing = any(w in ticket.summary.lower() for w in ("docs", "document", "runbook"))
    return _WHAT_FOR_WORK[:1] if writing else _WHAT_FOR_WORK


class LogWork:
    id = "tickets/log-work-v1"
    apps = ("tickets",)
    difficulty = "easy"
    summary = "Log the time spent on an engineering issue, exactly the duration asked."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple:
            s = site(ctx)
            open_eng = [t for t in s.tickets if t.project == "ENG" and t.status in ("In Progress", "In Review") and t.type != "Epic"]
            return shuffled(self.id, ctx, [(t, what) for t in open_eng for what in _fitting(t)])

        return cached(ctx, self.id, build), shuffled(self.id, ctx, _DURATIONS, "d")

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        pairs, durations = self._axes(ctx)
        (ticket, what), duration = choose(self.id, ctx.variant, pairs, durations)
        tickets = list(dict.fromkeys(t for t, _what in pairs))
        seconds = parse_duration(duration)
        others = [t for t in tickets if t.key != ticket.key]

        def logged(db) -> CheckResult:
            total = db.scalar(select(func.sum(Worklog.seconds)).where(Worklog.issue_id == ticket.id, Worklog.author_id == s.me.account_id,
                                                                      Worklog.created > s.start)) or 0
            if total != seconds:
                return failed(f"you logged {format_duration(total) if total else 'nothing'} on {ticket.key}, not {duration}")
            # Time logged on another issue as well counts the same work twice in every report: the work was on this one.
            elsewhere = sorted(set(db.scalars(select(Issue.key).join(Worklog, Worklog.issue_id == Issue.id).where(
                Worklog.issue_id != ticket.id, Worklog.author_id == s.me.account_id, Worklog.created > s.start))))
            if elsewhere:
                return failed(f"{duration} logged on {ticket.key}, but you also logged time on {', '.join(elsewhere[:5])}")
            return passed(f"{duration} logged on {ticket.key}")

        async def oracle(tools: Tools) -> None:
            await tools.call("jira_add_worklog", issue_key=ticket.key, time_spent=duration, comment=what)

        async def in_two_entries(tools: Tools) -> None:
            """Two sittings in minutes, adding up to the same time."""
            first = seconds // 2 // 60
            await tools.call("jira_add_worklog", issue_key=ticket.key, time_spent=f"{first}m")
            await tools.call("jira_add_worklog", issue_key=ticket.key, time_spent=f"{seconds // 60 - first}m", comment=what)

        async def log(tools: Tools, key: str, text: str) -> None:
            try:
                await tools.call("jira_add_worklog", issue_key=key, time_spent=text)
            except ToolError:
                pass

        async def everything(tools: Tools) -> None:
            for text in _DURATIONS:
                await log(tools, ticket.key, text)

        async def shotgun(tools: Tools) -> None:
            for key in [ticket.key, *[t.key for t in others[:3]]]:
                await log(tools, key, duration)

        wrong = next(d for d in _DURATIONS if d != duration)
        return TaskInstance(
            prompt=f"You are {s.me.name}. In Jira, log {duration} of work on {ticket.key} (\"{ticket.summary}\") for {what}.",
            checks=[Check(f"{duration} logged on {ticket.key}", logged)],
            expected=[*allow_issue(ticket.id), bumped()],
            oracle=oracle,
            alternatives=(in_two_entries,),
            moves=Moves(
                say=lambda tools, text: comment(tools, ticket.key, text),
                wrong=lambda tools: log(tools, ticket.key, wrong),
                everything=everything,
                wrong_record=lambda tools: log(tools, others[0].key, duration),
                shotgun=shotgun,
                wreck=wreck,
                put_away=nothing,  # time logged is the work; nothing made to put away
            ),
            facts={"issue": ticket.key, "seconds": seconds},
        )
