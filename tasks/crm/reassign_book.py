"""crm/reassign-departing-rep-v1: a sales rep is leaving; hand their book over by a rule:
Enterprise-tier accounts and the open deals on them go to one colleague, everything else to
another; closed deals stay with the departing rep (they are history).

Only owners change, and only on the departing rep's accounts and open opportunities (a note or
an activity logged on them is allowed), and on what Salesforce moves with an account when its
owner changes: the departing rep's contacts and open activities on it, to that account's new
owner. A book handed over by halves (the accounts without their open deals, or the deals
without their accounts) leaves customers owned by someone who has left: it earns that half's
check, not the check of the whole hand-over, so it scores below the pass line."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from apps.crm.models import TABLES
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, nothing, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (AUDIT, allow_notes_and_activities, allow_update, by_id, dml, me, quoted, row, rows, say_as_task,
                               snapshot, soql, table, try_dml, wreck)

ENTERPRISE = "Enterprise"


def moved_with_accounts(leaver: str, heirs: dict[str, str]) -> list[Expect]:
    """What Salesforce moves with an account when its owner changes, done by hand too: the
    departing rep's contacts on it, and their open tasks and events on it or on its open deals
    (`heirs`: account or deal Id -> its new owner), each to the new owner and nothing else changed."""
    def follows(link: str, open_only: bool) -> Callable[[Any], bool]:
        def where(rc: Any) -> bool:
            heir = heirs.get(rc.row.get(link))
            return (heir is not None and rc.before.get("OwnerId") == leaver and rc.row.get("OwnerId") == heir
                    and set(rc.changed_columns) <= AUDIT | {"OwnerId"} and not (open_only and rc.row.get("IsClosed")))

        return where

    return [Expect(table("Contact"), "update", follows("AccountId", False)),
            *(Expect(table(kind), "update", follows("WhatId", True)) for kind in ("Task", "Event"))]


class ReassignDepartingRep:
    id = "crm/reassign-departing-rep-v1"
    apps = ("crm",)
    difficulty = "hard"
    summary = "Reassign a departing rep's accounts and open deals by tier to two colleagues; closed deals stay."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[tuple[str, str, str], ...]]:
        def build() -> tuple[tuple[str, str, str], ...]:
            users = rows(ctx.db, "User", TABLES["User"].c.IsActive.is_(True), TABLES["User"].c.Title.like("%Account Executive%"))
            names = [u["Name"] for u in rows(ctx.db, "User")]
            reps = [u for u in users if names.count(u["Name"]) == 1]
            selling = {o["OwnerId"] for o in rows(ctx.db, "Opportunity", TABLES["Opportunity"].c.IsClosed.is_(False))}
            owning = {a["OwnerId"] for a in rows(ctx.db, "Account")} & selling  # a book with open deals: both checks bite
            combos = [(a["Id"], b["Id"], c["Id"]) for a in reps if a["Id"] in owning for b in reps for c in reps if len({a["Id"], b["Id"], c["Id"]}) == 3]
            return shuffled(self.id, ctx, combos)

        return (cached(ctx, self.id, build),)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ((leaver, big, rest),) = choose(self.id, ctx.variant, *self._pool(ctx))
        name = {u: by_id(ctx, "User", u)["Name"] for u in (leaver, big, rest)}
        tiers = {a["Id"]: a["Tier__c"] for a in snapshot(ctx, "Account")}
        accounts = [a["Id"] for a in snapshot(ctx, "Account") if a["OwnerId"] == leaver]
        opps = [o for o in snapshot(ctx, "Opportunity") if o["OwnerId"] == leaver]
        open_opps = [o["Id"] for o in opps if not o["IsClosed"]]
        closed = [o["Id"] for o in opps if o["IsClosed"]]
        target = {**{a: big if tiers[a] == ENTERPRISE else rest for a in accounts},
                  **{o["Id"]: big if tiers[o["AccountId"]] == ENTERPRISE else rest for o in opps if not o["IsClosed"]}}
        bystanders = [a["Id"] for a in snapshot(ctx, "Account") if a["OwnerId"] is not None and a["OwnerId"] != leaver][:3]
        every_deal = [o["Id"] for o in snapshot(ctx, "Opportunity")][:40]

        def owners(db, kind: str, ids: list[str]) -> CheckResult:
            wrong = [f"{i} is owned by {row(db, kind, i)['OwnerId']}" for i in ids if row(db, kind, i)["OwnerId"] != target[i]]
            return failed(f"{len(wrong)} of {len(ids)} not reassigned by the rule: " + "; ".join(wrong[:4])) if wrong else passed(f"{len(ids)} reassigned")

        def history_kept(db) -> CheckResult:
            moved = [i for i in closed if row(db, "Opportunity", i)["OwnerId"] != leaver]
            return failed(f"{len(moved)} closed deals were reassigned; they stay with {name[leaver]}") if moved else passed("closed deals kept")

        def both(db) -> CheckResult:
            moved, kept = owners(db, "Opportunity", open_opps), history_kept(db)
            return moved if not moved.passed else kept if not kept.passed else passed(f"{moved.detail}; {kept.detail}")

        def whole(db) -> CheckResult:
            halves = [owners(db, "Account", accounts), both(db)]
            done = [h for h in halves if h.passed]
            return passed("accounts and open deals handed over together") if len(done) == 2 else failed(
                "the book was not handed over whole: " + ("; ".join(h.detail for h in halves if not h.passed)))

        async def oracle(tools: Tools) -> None:
            (user,) = await soql(tools, f"SELECT Id FROM User WHERE Name = '{quoted(name[leaver])}'")
            heirs = {n: (await soql(tools, f"SELECT Id FROM User WHERE Name = '{quoted(name[n])}'"))[0]["Id"] for n in (big, rest)}
            book = await soql(tools, f"SELECT Id, Tier__c FROM Account WHERE OwnerId = '{user['Id']}'")
            deals = await soql(tools, f"SELECT Id, Account.Tier__c FROM Opportunity WHERE OwnerId = '{user['Id']}' AND IsClosed = false")
            updates = [{"Id": a["Id"], "OwnerId": heirs[big] if a["Tier__c"] == ENTERPRISE else heirs[rest]} for a in book]
            if updates:
                await dml(tools, "update", "Account", updates)
            moves = [{"Id": d["Id"], "OwnerId": heirs[big] if (d["Account"] or {}).get("Tier__c") == ENTERPRISE else heirs[rest]} for d in deals]
            if moves:
                await dml(tools, "update", "Opportunity", moves)

        async def one_by_one(tools: Tools) -> None:
            """Another path: tiers looked up per record, opportunities first, one save per record."""
            (user,) = await soql(tools, f"SELECT Id FROM User WHERE Name = '{quoted(name[leaver])}'")
            heirs = {n: (await soql(tools, f"SELECT Id FROM User WHERE Name = '{quoted(name[n])}'"))[0]["Id"] for n in (big, rest)}
            for deal in await soql(tools, f"SELECT Id, AccountId FROM Opportunity WHERE OwnerId = '{user['Id']}' AND IsClosed = false"):
                (account,) = await soql(tools, f"SELECT Tier__c FROM Account WHERE Id = '{deal['AccountId']}'")
                await dml(tools, "update", "Opportunity", [{"Id": deal["Id"], "OwnerId": heirs[big] if account["Tier__c"] == ENTERPRISE else heirs[rest]}])
            for account in await soql(tools, f"SELECT Id, Tier__c FROM Account WHERE OwnerId = '{user['Id']}'"):
                await dml(tools, "update", "Account", [{"Id": account["Id"], "OwnerId": heirs[big] if account["Tier__c"] == ENTERPRISE else heirs[rest]}])

        async def give(tools: Tools, kind: str, ids: list[str], owner: str) -> None:
            if ids:
                await try_dml(tools, "update", kind, [{"Id": i, "OwnerId": owner} for i in ids])

        async def everything_to_one(tools: Tools) -> None:
            await give(tools, "Account", accounts, big)
            await give(tools, "Opportunity", open_opps + closed, big)

        return TaskInstance(
            prompt=(f"You are {ctx.actor.name}. {name[leaver]} is leaving the company. In Salesforce, reassign their accounts and "
                    f"their open opportunities: Enterprise-tier accounts, and open opportunities on Enterprise-tier accounts, go to "
                    f"{name[big]}; all their other accounts and open opportunities go to {name[rest]}. Closed opportunities stay with "
                    f"{name[leaver]}."),
            checks=[Check("accounts reassigned by tier", lambda db: owners(db, "Account", accounts)),
                    Check("open opportunities reassigned by their account's tier, closed ones kept", lambda db: both(db)),
                    Check("the whole book handed over: accounts with their open deals", whole)],
            expected=[*(allow_update("Account", a, {"OwnerId"}) for a in accounts), *(allow_update("Opportunity", o, {"OwnerId"}) for o in open_opps),
                      *allow_notes_and_activities(me(ctx), {*accounts, *open_opps}), *moved_with_accounts(leaver, target)],
            oracle=oracle,
            alternatives=(one_by_one,),
            moves=Moves(
                say=say_as_task,
                wrong=everything_to_one,
                everything=lambda tools: give(tools, "Opportunity", every_deal, big),
                wrong_record=lambda tools: give(tools, "Account", bystanders, big),
                shotgun=lambda tools: everything_to_one(tools),
                wreck=wreck,
                put_away=nothing,  # owners changed; nothing made to put away
            ),
            facts={"leaver": leaver, "enterprise_to": big, "others_to": rest, "accounts": len(accounts), "open": len(open_opps)},
        )
