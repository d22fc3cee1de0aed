"""tickets/resolve-with-resolution-v1: resolve a support ticket through its workflow with the
resolution the prompt names.

Passes when the issue reaches a done status with exactly that resolution, whatever path the
agent took through the workflow (straight "Resolve Issue", or "Start Progress" first) and
whether or not it also commented. Resolving it otherwise, or resolving other tickets, fails; so
does a comment that offers other resolutions besides it ("Fixed — or Duplicate"), as a hedge
(the comment is read with the resolution, as crm/close-case reads its closing comments), and so
does a label added that names another ("duplicate"). Only
the status, the resolution and the resolution date may change on the ticket.
"""

from __future__ import annotations

import json
import random
import re

from apps.tickets import catalog
from apps.tickets import queries as Q
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.answers import without_retracted
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import WORKFLOW, allow_issue, bumped, comment, said_since, site, transition, values_set, wreck

_RESOLUTIONS = (("Fixed", "the fix shipped in this week's release"), ("Won't Do", "the customer withdrew the request"),
                ("Duplicate", "it duplicates an older ticket"), ("Cannot Reproduce", "nobody could reproduce it"))
# The resolutions that fit a ticket's type: a problem is fixed, a duplicate or not reproducible; a request
# (a Task: add seats, enable SSO) is withdrawn or a duplicate, never "fixed" nor "not reproducible".
_FITS = {"Task": ("Won't Do", "Duplicate")}
_PROBLEM = ("Fixed", "Duplicate", "Cannot Reproduce")


# How people write each resolution in a comment. "Fixed" counts capitalised only ("the customer fixed their config" says
# nothing about the resolution); a negated one ("could not reproduce") is a name of its own, read before negations are.
_NAMED = (
    ("Fixed", re.compile(r"\bFixed\b|\bFIXED\b")),
    ("Won't Do", re.compile(r"\bwon['’]?t\s+(?:do|fix)\b", re.IGNORECASE)),
    ("Duplicate", re.compile(r"\bduplicated?\b|\bdupe\b", re.IGNORECASE)),
    ("Cannot Reproduce", re.compile(r"\b(?:cannot|can['’]?t|can\s+not|could\s+not|couldn['’]?t)\s+(?:be\s+)?reproduced?\b"
                                    r"|\bnot\s+reproducible\b|\bunable\s+to\s+reproduce\b", re.IGNORECASE)),
)


def named_as_tokens(text: str) -> str:
    """`text` with each resolution name written as one token (RESOLUTION0…), so "not a duplicate" can still rule one
    out while "could not reproduce" stays a name."""
    for n, (_name, pattern) in enumerate(_NAMED):
        text = pattern.sub(f" RESOLUTION{n} ", text)
    return text


def resolutions_named(tokens: str) -> set[str]:
    return {name for n, (name, _pattern) in enumerate(_NAMED) if re.search(rf"\bRESOLUTION{n}\b", tokens)}


class ResolveWithResolution:
    id = "tickets/resolve-with-resolution-v1"
    apps = ("tickets",)
    difficulty = "easy"
    summary = "Resolve an open support ticket through its workflow with the resolution the prompt gives."

    def _pool(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple:
            open_sup = [t for t in site(ctx).tickets if t.project == "SUP" and t.status in ("To Do", "In Progress", "In Review")]
            return shuffled(self.id, ctx, [(t, pick) for t in open_sup for pick in _RESOLUTIONS if pick[0] in _FITS.get(t.type, _PROBLEM)])

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        ((ticket, (resolution, reason)),) = choose(self.id, ctx.variant, self._pool(ctx))
        others = list(dict.fromkeys(t for t, _pick in self._pool(ctx) if t.key != ticket.key))
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
            # A comment (or a worklog's note) is part of what the customer is told: one that offers other resolutions besides this one is a hedge.
            # So is a label added on the way ("duplicate", "wont-fix"): it files the ticket under another resolution.
            added = [label.replace("-", " ").replace("_", " ") for label in Q.LABELS_OF.scalars(db, issue_id=ticket.id) if label not in ticket.labels]
            said = resolutions_named(without_retracted(named_as_tokens("\n".join([*said_since(db, ticket.id, s.me.account_id, s.start), *added]))))
            if said - {resolution}:
                return failed(f"your comment (or a label you added) on {ticket.key} also names {', '.join(sorted(said - {resolution}))}: "
                          f"a hedge, not {resolution!r}")
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
            expected=[*allow_issue(ticket.id, WORKFLOW), bumped()],
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
