"""tickets/reassign-departing-engineer-v1: an engineer is leaving — move every one of their
unresolved engineering issues to the colleague the prompt names, and leave their resolved
issues as they are (the history of who did the work stays true).

One check per issue to move, one for the resolved issues (and every other issue) left alone;
assigning an issue to someone else on the way fails that issue (Jira notifies each assignee).
"""

from __future__ import annotations

import json
import random

from apps.tickets import queries as Q
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import allow_issue, bumped, comment, set_elsewhere, site, unique_names, values_set, wreck

MIN_OPEN = 2


class ReassignDepartingEngineer:
    id = "tickets/reassign-departing-engineer-v1"
    apps = ("tickets",)
    difficulty = "hard"
    summary = "Move a departing engineer's unresolved ENG issues to a named colleague, leaving resolved ones alone."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple:
            s = site(ctx)
            engineers = [p for p in unique_names(s.people.values()) if p.team == "engineering"]
            leaving = []
            for p in engineers:
                mine = [t for t in s.tickets if t.project == "ENG" and t.assignee == p.account_id]
                if sum(1 for t in mine if t.resolution is None) >= MIN_OPEN and any(t.resolution for t in mine):
                    leaving.append(p)
            return shuffled(self.id, ctx, leaving)

        def colleagues() -> tuple:
            return shuffled(self.id, ctx, [p for p in unique_names(site(ctx).people.values()) if p.team == "engineering"], "to")

        return cached(ctx, self.id, build), cached(ctx, f"{self.id}|to", colleagues)

    def count_instances(self, ctx: SampleContext) -> int:
        leaving, to = self._axes(ctx)
        return count(leaving, to)

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        leaving_pool, to_pool = self._axes(ctx)
        leaving, successor = choose(self.id, ctx.variant, leaving_pool, to_pool)
        if successor.account_id == leaving.account_id:
            successor = next(p for p in to_pool if p.account_id != leaving.account_id)
        mine = [t for t in s.tickets if t.project == "ENG" and t.assignee == leaving.account_id]
        move = [t for t in mine if t.resolution is None]
        keep = [t for t in mine if t.resolution is not None]
        bystander = next(p for p in to_pool if p.account_id not in (leaving.account_id, successor.account_id))
        theirs = [t for t in s.tickets if t.project == "ENG" and t.assignee == bystander.account_id and t.resolution is None]

        def moved(ticket) -> Check:
            def test(db) -> CheckResult:
                issue = Q.issue_by_id(db, ticket.id)
                if issue is None or issue.assignee_id != successor.account_id:
                    return failed(f"{ticket.key} is not assigned to {successor.name}")
                detour = [v for v in values_set(db, ticket.id, "assignee", s.start) if v not in (successor.name, None)]
                if detour:
                    return failed(f"{ticket.key} was assigned to {detour[0]} along the way")
                return passed(f"{ticket.key} → {successor.name}")
            return Check(f"{ticket.key} reassigned to {successor.name}", test)

        def kept(db) -> CheckResult:
            # Only meaningful once the work started: leaving everything untouched is not "leaving the resolved ones alone".
            if not any(_assignee(db, t.id) == successor.account_id for t in move):
                return failed(f"none of {leaving.name}'s unresolved issues was reassigned")
            changed = [t.key for t in keep if _assignee(db, t.id) != leaving.account_id]
            if changed:
                return failed(f"resolved issues were reassigned too: {', '.join(changed[:6])}")
            # Only their unresolved ENG issues move: another issue handed to the successor on the way (an unassigned one, a
            # colleague's) is work assigned that nobody asked for, and Jira tells the successor it is theirs.
            moving = {t.key for t in move}
            others = [k for k in set_elsewhere(db, -1, "assignee", s.me.account_id, s.start) if k not in moving]
            if others:
                return failed(f"other issues were reassigned too: {', '.join(others[:6])}")
            return passed(f"{len(keep)} resolved issues still show {leaving.name}, and no other issue was reassigned")

        async def oracle(tools: Tools) -> None:
            found = await tools.call("jira_search", jql=f'assignee = "{leaving.email}" AND project = ENG AND resolution = EMPTY', limit=50, fields="summary")
            for issue in found["issues"]:
                await tools.call("jira_assign_issue", issue_key=issue["key"], assignee=successor.email)

        async def by_profile(tools: Tools) -> None:
            """Look both people up, page through their issues, and edit the assignee field."""
            gone = await tools.call("jira_get_user_profile", user_identifier=leaving.name)
            heir = await tools.call("jira_get_user_profile", user_identifier=successor.name)
            start = 0
            while True:
                page = await tools.call("jira_search", jql=f"assignee = {gone['account_id']} AND statusCategory != Done AND project = ENG",
                                        limit=5, start_at=start, fields="summary,resolution")
                for issue in page["issues"]:
                    await tools.call("jira_update_issue", issue_key=issue["key"], fields=json.dumps({"assignee": {"accountId": heir["account_id"]}}))
                start += len(page["issues"])
                if not page["issues"] or start >= page["total"]:
                    break

        async def assign(tools: Tools, keys: list[str], who: str) -> None:
            for key in keys:
                try:
                    await tools.call("jira_assign_issue", issue_key=key, assignee=who)
                except ToolError:
                    pass

        expected = [*(e for t in move for e in allow_issue(t.id, {"assignee_id"})), bumped()]
        return TaskInstance(
            prompt=(f"You are {s.me.name}. {leaving.name} is leaving the company. In Jira, reassign every unresolved ENG issue "
                    f"assigned to {leaving.name} to {successor.name}. Leave their resolved issues as they are."),
            checks=[*[moved(t) for t in move], Check("resolved issues and other issues left alone", kept)],
            expected=expected,
            oracle=oracle,
            alternatives=(by_profile,),
            moves=Moves(
                say=lambda tools, text: comment(tools, move[0].key, text),
                wrong=lambda tools: assign(tools, [t.key for t in move], bystander.email),
                everything=lambda tools: assign(tools, [t.key for t in mine], successor.email),
                wrong_record=lambda tools: assign(tools, [t.key for t in theirs] or [keep[0].key], successor.email),
                shotgun=lambda tools: assign(tools, [t.key for t in mine] + [t.key for t in theirs], successor.email),
                wreck=wreck,
            ),
            facts={"issue": move[0].key, "leaving": leaving.account_id, "successor": successor.account_id, "moves": [t.key for t in move]},
        )


def _assignee(db, issue_id: int) -> str | None:
    row = Q.issue_by_id(db, issue_id)  # a plain row: graders read, never write
    return row.assignee_id if row is not None else None
