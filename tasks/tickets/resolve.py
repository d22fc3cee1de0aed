"""tickets/resolve-with-resolution-v1: resolve a support ticket through its workflow with the
resolution the prompt names.

Passes when the issue reaches a done status with exactly that resolution, whatever path the
agent took through the workflow (straight "Resolve Issue", or "Start Progress" first) and
whether or not it also commented. Resolving it otherwise, or resolving other tickets, fails.
"""

from __future__ import annotations

import json
import random

from apps.tickets import catalog
from apps.tickets import queries as Q
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.tickets._common import allow_issue, comment, site, transition, values_set, wreck
from tasks.common.variants import cached, choose, count, shuffled

_RESOLUTIONS = (("Fixed", "the fix shipped in this week's release"), ("Won't Do", "the customer withdrew the request"),
                ("Duplicate", "it duplicates an older ticket"), ("Cannot Reproduce", "nobody could reproduce it"))


class ResolveWithResolution:
    id = "tickets/resolve-with-resolution-v1"
    apps = ("tickets",)
    difficulty = "easy"
    summary = "Resolve an open support ticket through its workflow with the resolution the prompt gives."

    def _pool(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple:
            open_sup = [t for t in site(ctx).tickets if t.project == "SUP" and t.status in ("To Do", "In Progress", "In Review")]
            return shuffled(self.id, ctx, open_sup)

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx), _RESOLUTIONS)

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        ticket, (resolution, reason) = choose(self.id, ctx.variant, self._pool(ctx), _RESOLUTIONS)
        others = [t for t in self._pool(ctx) if t.key != ticket.key]
        wrong_resolution = next(r for r, _ in _RESOLUTIONS if r != resolution)

        def resolved(db) -> CheckResult:
            issue = Q.issue_by_id(db, ticket.id)  # a plain row: graders read, never write
            if issue is None:
                return failed(f"{ticket.key} no longer exists")
            category = catalog.STATUS_BY_NAME[issue.status].category
            if category != "done":
                return failed(f"{ticket.key} is '{issue.status}', not resolved")
            if issue.resolution != resolution:
                return failed(f"{ticket.key} is resolved as {issue.resolution!r}, not {resolution!r}")
            # A resolution notifies the customer: resolving it wrongly first and fixing it later still sent the wrong notice.
            wrong = [v for v in values_set(db, ticket.id, "resolution", s.start) if v not in (None, resolution)]
            if wrong:
                return failed(f"{ticket.key} was resolved as {wrong[0]!r} along the way")
            return passed(f"{ticket.key} is {issue.status} with resolution {resolution}")

        async def oracle(tools: Tools) -> None:
            moves = await tools.call("jira_get_transitions", issue_key=ticket.key)
            if not any(m["name"] == "Resolve Issue" for m in moves):  # already closed: reopen, then resolve
                await tools.call("jira_transition_issue", issue_key=ticket.key, transition_id="Reopen Issue")
                moves = await tools.call("jira_get_transitions", issue_key=ticket.key)
            move = next(m for m in moves if m["name"] == "Resolve Issue")
            await tools.call("jira_transition_issue", issue_key=ticket.key, transition_id=move["id"],
                             fields=json.dumps({"resolution": {"name": resolution}}))

        async def step_by_step(tools: Tools) -> None:
            """Start work first when it has not started, then resolve by name with a comment."""
            issue = await tools.call("jira_get_issue", issue_key=ticket.key, fields="status")
            if issue["status"]["name"] == "To Do":
                await tools.call("jira_transition_issue", issue_key=ticket.key, transition_id="Start Progress")
            await tools.call("jira_transition_issue", issue_key=ticket.key, transition_id="resolve issue",
                             fields=json.dumps({"resolution": {"name": resolution.lower()}}), comment=f"Resolving: {reason}.")

        async def resolve(tools: Tools, key: str, as_: str) -> None:
            await transition(tools, key, "Resolve Issue", as_)

        return TaskInstance(
            prompt=(f"You are {s.me.name}. In Jira, resolve {ticket.key} (\"{ticket.summary}\") with the resolution "
                    f"\"{resolution}\": {reason}. Use the ticket's workflow."),
            checks=[Check(f"{ticket.key} resolved as {resolution}, and only as that", resolved)],
            expected=allow_issue(ticket.id),
            oracle=oracle,
            alternatives=(step_by_step,),
            moves=Moves(
                say=lambda tools, text: comment(tools, ticket.key, text),
                wrong=lambda tools: resolve(tools, ticket.key, wrong_resolution),
                everything=lambda tools: _each(tools, [ticket.key, *[t.key for t in others[:4]]], resolution),
                wrong_record=lambda tools: resolve(tools, others[0].key, resolution),
                shotgun=lambda tools: _each(tools, [ticket.key, *[t.key for t in others[:3]]], resolution),
                wreck=wreck,
            ),
            facts={"issue": ticket.key, "resolution": resolution},
        )


async def _each(tools: Tools, keys: list[str], resolution: str) -> None:
    for key in keys:
        await transition(tools, key, "Resolve Issue", resolution)
