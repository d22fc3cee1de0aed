"""crm/push-stale-deals-v1: early-stage deals that are due to close soon are not going to:
find every open opportunity still in an early stage whose close date falls within the next
N days (the whole team's, or one rep's book), and push its close date to the end of next
quarter. A rule to apply, not a record to find: every matching deal, and no other, must move.
A note or an activity logged on a pushed deal (why it slipped) is what reps add, so it is
allowed. Two rules that pick out the same deals are one instance: the company offers as many
instances as it has different sets of deals to push."""

from __future__ import annotations

import random
from datetime import date, timedelta

from apps.crm.soql.dates import date_range
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, nothing, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (allow_notes_and_activities, allow_update, around, dml, me, row, say_as_task, snapshot, soql,
                               try_dml, wreck)

EARLY = (("Prospecting", "Qualification"), ("Prospecting", "Qualification", "Needs Analysis"),
         ("Qualification", "Needs Analysis", "Value Proposition"), ("Needs Analysis", "Value Proposition"),
         ("Prospecting", "Qualification", "Needs Analysis", "Value Proposition"))
WINDOWS = (14, 21, 30, 45, 60, 90)
EVERYONE = ("", "")  # (owner's user Id, name): the whole team's deals
MOST_DEALS = 12  # an instance asks to move at most this many deals, or 1 in 20 open ones on a big company


def _choices(opps: tuple[dict, ...]) -> tuple[tuple[int, ...], int]:
    """The windows to choose from and the most deals an instance may ask to move. On a big
    company (the large size: ~900 open deals) every window of 14 days or more already holds
    dozens of early-stage deals, so a week's window joins the choices and the bound grows
    with the pipeline; the small company keeps its windows and bound."""
    most = max(MOST_DEALS, sum(1 for o in opps if not o["IsClosed"]) // 20)
    return (WINDOWS if most == MOST_DEALS else (7, *WINDOWS)), most


def _matches(opps: tuple[dict, ...], today: date, stages: tuple[str, ...], days: int, owner: str = "") -> list[dict]:
    """The open deals in `stages` closing between today and `days` from now (inclusive), of
    `owner` (everyone's when empty), by Id."""
    first, last = today.isoformat(), (today + timedelta(days=days)).isoformat()
    return [o for o in opps if not o["IsClosed"] and o["StageName"] in stages and o["CloseDate"] and first <= o["CloseDate"] <= last
            and (not owner or o["OwnerId"] == owner)]


class PushStaleDeals:
    id = "crm/push-stale-deals-v1"
    apps = ("crm",)
    difficulty = "hard"
    summary = "Find every early-stage deal (the team's or one rep's) closing within N days and push its close date to the end of next quarter."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[tuple[tuple[str, ...], int, tuple[str, str]], ...]]:
        """(stages, window, (owner's Id, name)): each a different set of two or more deals to push."""
        def build() -> tuple[tuple[tuple[str, ...], int, tuple[str, str]], ...]:
            today, opps = ctx.company.now.date(), snapshot(ctx, "Opportunity")
            windows, most = _choices(opps)
            users = snapshot(ctx, "User")
            names = [u["Name"] for u in users]
            owners = [EVERYONE, *((u["Id"], u["Name"]) for u in users if names.count(u["Name"]) == 1
                                  and any(o["OwnerId"] == u["Id"] and not o["IsClosed"] for o in opps))]
            found, seen = [], set()
            for owner in owners:  # the fewest stages and the shortest window first: the plainest rule for a set of deals
                for stages in EARLY:
                    for days in windows:
                        deals = frozenset(o["Id"] for o in _matches(opps, today, stages, days, owner[0]))
                        if 2 <= len(deals) <= most and deals not in seen:
                            seen.add(deals)
                            found.append((stages, days, owner))
            return shuffled(self.id, ctx, found)

        return (cached(ctx, self.id, build),)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ((stages, days, (owner, owner_name)),) = choose(self.id, ctx.variant, *self._pool(ctx))
        today = ctx.company.now.date()
        target = (date_range("NEXT_QUARTER", None, today)[1] - timedelta(days=1)).isoformat()
        stale = [o["Id"] for o in _matches(snapshot(ctx, "Opportunity"), today, stages, days, owner)]
        open_other = [o["Id"] for o in snapshot(ctx, "Opportunity") if not o["IsClosed"] and o["Id"] not in stale]
        listed = ", ".join(stages[:-1]) + f" or {stages[-1]}"

        def pushed(db) -> CheckResult:
            late = [i for i in stale if row(db, "Opportunity", i)["CloseDate"] != target]
            return failed(f"{len(late)} of {len(stale)} matching deals not pushed to {target}") if late else passed(f"{len(stale)} deals pushed to {target}")

        where = f"IsClosed = false AND StageName IN ({', '.join(repr(s) for s in stages)}) AND CloseDate >= TODAY AND CloseDate <= NEXT_N_DAYS:{days}"
        if owner:
            where += f" AND OwnerId = '{owner}'"

        async def oracle(tools: Tools) -> None:
            found = await soql(tools, f"SELECT Id FROM Opportunity WHERE {where}")
            if found:  # none left when someone already pushed them
                await dml(tools, "update", "Opportunity", [{"Id": o["Id"], "CloseDate": target} for o in found])

        async def by_dates(tools: Tools) -> None:
            """Another path: explicit dates instead of date literals, filtered by stage in code, one save per deal."""
            last = (today + timedelta(days=days)).isoformat()
            found = await soql(tools, f"SELECT Id, StageName, Owner.Name FROM Opportunity WHERE IsClosed = false AND CloseDate >= {today.isoformat()} "
                                      f"AND CloseDate <= {last}")
            for deal in (d for d in found if d["StageName"] in stages and (not owner or (d.get("Owner") or {}).get("Name") == owner_name)):
                await dml(tools, "update", "Opportunity", [{"Id": deal["Id"], "CloseDate": target}])

        async def push(tools: Tools, ids: list[str], when: str = target) -> None:
            if ids:
                await try_dml(tools, "update", "Opportunity", [{"Id": i, "CloseDate": when} for i in ids])

        return TaskInstance(
            prompt=(f"You are {ctx.actor.name}. Pipeline hygiene{f' for {owner_name}' if owner else ''}: every open opportunity "
                    f"{f'owned by {owner_name} ' if owner else ''}still in {listed} whose close date is "
                    f"between today ({today.isoformat()}) and {days} days from now ({(today + timedelta(days=days)).isoformat()}), both inclusive, "
                    "will not close in time. In Salesforce, "
                    f"push the close date of each of them to the last day of next quarter ({target}). Leave other deals alone."),
            checks=[Check(f"every matching deal pushed to {target}", pushed)],
            expected=[*(allow_update("Opportunity", i, {"CloseDate"}) for i in stale), *allow_notes_and_activities(me(ctx), around(ctx, "Opportunity", stale))],
            oracle=oracle,
            alternatives=(by_dates,),
            moves=Moves(
                say=say_as_task,
                wrong=lambda tools: push(tools, stale + open_other[:3], target),
                everything=lambda tools: push(tools, stale + open_other),
                wrong_record=lambda tools: push(tools, open_other[:3]),
                shotgun=lambda tools: push(tools, stale + open_other[:6]),
                wreck=wreck,
                put_away=nothing,  # dates changed; nothing made to put away
            ),
            facts={"stages": stages, "days": days, "deals": len(stale), "target": target, "owner": owner or None},
        )
