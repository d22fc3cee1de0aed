"""crm/advance-opportunity-v1: move a deal to the stage the news calls for, with the fields
that stage needs: Closed Won with the signed amount and today's close date, or
Negotiation/Review with the next step (its words as given; case, quotes, punctuation and
articles aside).

Only the stage, what it drives (probability, forecast category, closed/won) and the fields
the prompt names may change on that opportunity (and, on a deal closed won, its next step may
be cleared: it is done, and reps clear it as they close the deal): anything else touched is collateral; what the
stage drives must be what the stage makes it (its probability and forecast category: a deal
moved to negotiation but taken out of the forecast is not the move asked). A note
or an activity logged on the deal is what reps add, so it is allowed; it and anything else you
wrote in the org are read with the next step: one naming another likely next step is a hedge."""

from __future__ import annotations

import random

from apps.crm.models import TABLES
from apps.crm.objects import STAGES
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, nothing, SampleContext, TaskInstance, Tools
from tasks.common.phrases import claims, content_words
from tasks.common.text import words
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (AUDIT, allow, allow_notes_and_activities, allow_update, around, by_id, dml, me, quoted, row, rows,
                               say_as_task, snapshot, soql, table, try_dml, wreck)
from tasks.crm._notes import written

DERIVED = {"StageName", "Probability", "ForecastCategoryName", "IsClosed", "IsWon"}
NEXT_STEPS = ("Legal review of the MSA redlines", "Send the final order form for signature", "Security sign-off call with their CISO")
TARGETS = ("Closed Won", "Negotiation/Review")
_SIGNABLE = ("Id. Decision Makers", "Perception Analysis", "Proposal/Price Quote")  # stages a deal is signed from
_NEGOTIABLE = ("Value Proposition", *_SIGNABLE)  # stages a deal moves into negotiation from


class AdvanceOpportunity:
    id = "crm/advance-opportunity-v1"
    apps = ("crm",)
    difficulty = "medium"
    summary = "Move an opportunity to Closed Won (signed amount, close date) or Negotiation/Review (next step)."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[dict, str, str], ...]:
        """(deal, target, next step) that fit: a deal is signed from a late stage and moves into
        negotiation from Value Proposition on (a deal still in Prospecting does neither); a security
        sign-off with their CISO is a step only of customers big enough to have one (not SMB)."""
        def build() -> tuple[tuple[dict, str, str], ...]:
            opps = rows(ctx.db, "Opportunity", TABLES["Opportunity"].c.IsClosed.is_(False),
                        TABLES["Opportunity"].c.StageName != "Negotiation/Review", TABLES["Opportunity"].c.NextStep.is_not(None))
            every = [o["Name"] for o in rows(ctx.db, "Opportunity")]
            tier = {a["Id"]: a["Tier__c"] for a in rows(ctx.db, "Account")}
            found = []
            for o in opps:
                if every.count(o["Name"]) != 1:
                    continue
                deal = {"Id": o["Id"], "Name": o["Name"], "Amount": o["Amount"]}
                if o["StageName"] in _SIGNABLE:
                    found.append((deal, "Closed Won", NEXT_STEPS[0]))
                if o["StageName"] in _NEGOTIABLE:
                    found += [(deal, "Negotiation/Review", step) for step in NEXT_STEPS
                              if "CISO" not in step or tier.get(o["AccountId"]) != "SMB"]
            return shuffled(self.id, ctx, found)

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ((opp, target, step),) = choose(self.id, ctx.variant, self._pool(ctx))
        account_id = by_id(ctx, "Opportunity", opp["Id"])["AccountId"]
        account_name = by_id(ctx, "Account", account_id)["Name"] if account_id else ""
        today = ctx.company.now.date().isoformat()
        won = target == "Closed Won"
        signed = float(round((opp["Amount"] or 10_000) * 1.08, -2))
        others = [o["Id"] for o in snapshot(ctx, "Opportunity") if not o["IsClosed"] and o["Id"] != opp["Id"]][:4]
        fields = {"StageName": target, "Amount": signed, "CloseDate": today} if won else {"StageName": target, "NextStep": step}
        ask = (f"the customer signed at ${signed:,.0f}: mark it Closed Won with that amount and today's date ({today}) as the close date"
               if won else f"it has moved into negotiation: set the stage to Negotiation/Review and the next step to \"{step}\"")

        notes = written(ctx)  # notes and activities you added, read with the next step
        probability, forecast = STAGES[target]
        follows = {"Probability": float(probability), "ForecastCategoryName": forecast}  # what the stage drives
        given = f"{opp['Name']} {account_name}"  # names a note may repeat

        def moved(db) -> CheckResult:
            now = row(db, "Opportunity", opp["Id"])
            wrong = [f"{k} is {now[k]!r}, not {v!r}" for k, v in fields.items() if now[k] != v and not (k == "NextStep" and same_step(now[k], v))]
            wrong += [f"{k} is {now[k]!r}: at {target} it is {v!r}" for k, v in follows.items() if now[k] != v]
            if not wrong and not won:
                hedged = claims("\n".join(notes(db)), NEXT_STEPS, step, given) - {step}
                wrong = [f"what you wrote beside it also names {', '.join(map(repr, sorted(hedged)))} as the next step"] if hedged else []
            return failed("; ".join(wrong)) if wrong else passed(f"{opp['Name']}: " + ", ".join(f"{k} {v}" for k, v in fields.items()))

        async def oracle(tools: Tools) -> None:
            (found,) = await soql(tools, f"SELECT Id FROM Opportunity WHERE Name = '{quoted(opp['Name'])}'")
            await dml(tools, "update", "Opportunity", [{"Id": found["Id"], **fields}])

        async def field_by_field(tools: Tools) -> None:
            """Another order: the amount or next step first, then the stage, through the query tool."""
            text = str(await tools.call("salesforce_query_records", objectName="Opportunity", fields=["Id"], whereClause=f"Name = '{quoted(opp['Name'])}'"))
            opp_id = text.split("Id: ", 1)[1].split()[0]
            first = {k: v for k, v in fields.items() if k != "StageName"}
            await dml(tools, "update", "Opportunity", [{"Id": opp_id, **first}])
            await dml(tools, "update", "Opportunity", [{"Id": opp_id, "StageName": target}])

        async def update(tools: Tools, ids: list[str], values: dict) -> None:
            for record_id in ids:
                await try_dml(tools, "update", "Opportunity", [{"Id": record_id, **values}])

        wrong = {"StageName": "Closed Lost", "NextStep": "Lost to a competitor"} if won else {"StageName": "Closed Lost", "Amount": 0}
        return TaskInstance(
            prompt=f"You are {ctx.actor.name}. News on the opportunity \"{opp['Name']}\": {ask}. Update it in Salesforce.",
            checks=[Check(f"{opp['Name']} at {target} with the fields it needs", moved)],
            expected=[allow_update("Opportunity", opp["Id"], DERIVED | set(fields)),
                      # won: the deal's old next step is done, and a rep clears it as they close it
                      *([Expect(table("Opportunity"), "update", lambda rc: rc.row.get("Id") == opp["Id"] and not (rc.row.get("NextStep") or "").strip()
                                and set(rc.changed_columns) <= AUDIT | DERIVED | set(fields) | {"NextStep"})] if won else []),
                      *allow_notes_and_activities(me(ctx), around(ctx, "Opportunity", {opp["Id"]})),
                      # won: the signed amount may come from its products (lines added or repriced), but
                      # deleting the deal's quote lines is not part of winning it
                      *([allow("OpportunityLineItem", change, OpportunityId=opp["Id"]) for change in ("insert", "update")] if won else [])],
            oracle=oracle,
            alternatives=(field_by_field,),
            moves=Moves(
                say=say_as_task,
                wrong=lambda tools: update(tools, [opp["Id"]], wrong),
                everything=lambda tools: update(tools, [opp["Id"], *others], fields),
                wrong_record=lambda tools: update(tools, others[:1], fields),
                shotgun=lambda tools: update(tools, [opp["Id"], *others[:3]], fields),
                wreck=wreck,
                put_away=nothing,  # an edit of a deal; nothing made to put away
            ),
            facts={"opportunity": opp["Id"], "target": target, "fields": fields},
        )


def same_step(written_step: str | None, asked: str) -> bool:
    """The asked next step in the writer's words: the same words, or the same content words
    (articles, case and punctuation aside: "Legal review of MSA redlines")."""
    return words(written_step or "") == words(asked) or content_words(written_step or "") == content_words(asked)
