"""crm/convert-lead-v1: a lead has qualified; convert it, with or without an opportunity as
asked. Any correct conversion counts: the account may be created by the conversion or first
by hand with the lead's company name. Only the records the lead converted into may be
created: converting other leads, extra accounts, contacts or opportunities (even named like
the lead's), or editing the lead's own details, is collateral. What the conversion made must
stay what the lead was: the contact with the lead's name, title, email and phone, the deal
(when asked) open; one asked not to be made is not made by hand afterwards either. A note or
an activity logged on the new records is what reps add, so it is allowed."""

from __future__ import annotations

import random
from collections.abc import Callable

from sqlalchemy.orm import Session

from apps.crm.models import TABLES
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.common.text import words
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (allow_notes_and_activities, allow_update, dml, me, quoted, row, rows, say_as_task, snapshot, soql,
                               table, wreck)

CONVERSION = {"IsConverted", "Status", "ConvertedDate", "ConvertedAccountId", "ConvertedContactId", "ConvertedOpportunityId"}
# What the lead's contact keeps of the lead (and its email): one filled in otherwise is another person's, while one
# left blank (a contact made by hand first, then converted into) contradicts nothing.
CARRIED = ("FirstName", "LastName", "Title", "Phone")
WITH_OPPORTUNITY = (True, False)


def made_by_conversion(lead_id: str, with_opp: bool) -> list[Expect]:
    """The records the lead converted into, whatever ids they got: one account, one contact and
    (when asked) one opportunity. Another account with the company's name, or a second contact
    with the lead's email, is not part of the conversion: it is collateral."""
    def converted(column: str) -> Callable[[Session], str | None]:
        return lambda db: (row(db, "Lead", lead_id) or {}).get(column)

    made = [("Account", "ConvertedAccountId"), ("Contact", "ConvertedContactId")] + ([("Opportunity", "ConvertedOpportunityId")] if with_opp else [])
    return [Expect(table(obj), "insert", lambda rc, new: new is not None and rc.row.get("Id") == new, given=converted(column)) for obj, column in made]


def converted_into(lead_id: str) -> Callable[[Session], set[str]]:
    """A reader of the final state: the lead and the records it converted into."""
    def read(db: Session) -> set[str]:
        now = row(db, "Lead", lead_id) or {}
        return {lead_id, *(now.get(c) for c in ("ConvertedAccountId", "ConvertedContactId", "ConvertedOpportunityId") if now.get(c))}

    return read


class ConvertLead:
    id = "crm/convert-lead-v1"
    apps = ("crm",)
    difficulty = "medium"
    summary = "Convert a qualified lead into an account, contact and (as asked) an opportunity."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[dict, ...], tuple[bool, ...]]:
        def build() -> tuple[dict, ...]:
            accounts = {a["Name"].lower() for a in rows(ctx.db, "Account")}
            leads = rows(ctx.db, "Lead", TABLES["Lead"].c.IsConverted.is_(False), TABLES["Lead"].c.Status != "Closed - Not Converted")
            names = [lead["Name"] for lead in leads]
            return shuffled(self.id, ctx, [{"Id": lead["Id"], "Name": lead["Name"], "Company": lead["Company"], "Email": lead["Email"],
                                            "Title": lead["Title"], "FirstName": lead["FirstName"], "LastName": lead["LastName"], "Phone": lead["Phone"]}
                                           for lead in leads if names.count(lead["Name"]) == 1 and lead["Company"].lower() not in accounts])

        return cached(ctx, self.id, build), WITH_OPPORTUNITY

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        lead, with_opp = choose(self.id, ctx.variant, *self._pool(ctx))
        deal = f"{lead['Company']} — First Order"
        others = [x["Id"] for x in snapshot(ctx, "Lead") if not x["IsConverted"] and x["Id"] != lead["Id"]][:3]
        before_deals = frozenset(o["Id"] for o in snapshot(ctx, "Opportunity"))

        def converted(db) -> CheckResult:
            now = row(db, "Lead", lead["Id"])
            if not now["IsConverted"]:
                return failed(f"lead {lead['Name']} is not converted")
            account, contact = row(db, "Account", now["ConvertedAccountId"]), row(db, "Contact", now["ConvertedContactId"])
            problems = []
            if words(account["Name"]) != words(lead["Company"]):
                problems.append(f"its account is {account['Name']!r}, not {lead['Company']!r}")
            if contact["Email"] != lead["Email"] or contact["AccountId"] != account["Id"]:
                problems.append("its contact is not the lead's person at that account")
            else:
                changed = [f"{k} {contact[k]!r}, not {lead[k]!r}" for k in CARRIED if contact[k] and words(contact[k]) != words(lead[k] or "")]
                if changed:
                    problems.append(f"its contact does not carry the lead's details: {'; '.join(changed)}")
            opp = row(db, "Opportunity", now["ConvertedOpportunityId"]) if now["ConvertedOpportunityId"] else None
            if with_opp and (opp is None or words(opp["Name"]) != words(deal)):  # "-" for "—" is the same name
                problems.append(f"the opportunity should be named {deal!r}, got {opp and opp['Name']!r}")
            elif with_opp and opp["IsClosed"]:
                problems.append(f"the new opportunity is {opp['StageName']}: a qualified lead's deal is open")
            deals = rows(db, "Opportunity", TABLES["Opportunity"].c.AccountId == account["Id"])
            if not with_opp and (opp is not None or [d for d in deals if d["Id"] not in before_deals]):
                problems.append("no opportunity was asked for")
            return failed("; ".join(problems)) if problems else passed(f"{lead['Name']} converted to {account['Name']}")

        async def oracle(tools: Tools) -> None:
            (found,) = await soql(tools, f"SELECT Id FROM Lead WHERE Name = '{quoted(lead['Name'])}' AND IsConverted = false")
            extra = {"opportunityName": deal} if with_opp else {"doNotCreateOpportunity": True}
            await tools.call("salesforce_convert_lead", leadId=found["Id"], **extra)

        async def account_first(tools: Tools) -> None:
            """Another path: create the account by hand, then convert into it."""
            (found,) = await soql(tools, f"SELECT Id, Company FROM Lead WHERE Email = '{quoted(lead['Email'])}'")
            text = await dml(tools, "insert", "Account", [{"Name": found["Company"]}])
            account_id = text.rsplit("Ids: ", 1)[1].split()[0]
            extra = {"opportunityName": deal} if with_opp else {"doNotCreateOpportunity": True}
            await tools.call("salesforce_convert_lead", leadId=found["Id"], accountId=account_id, **extra)

        async def convert(tools: Tools, ids: list[str], **extra: object) -> None:
            for lead_id in ids:
                try:
                    await tools.call("salesforce_convert_lead", leadId=lead_id, **extra)
                except ToolError:  # a refused conversion: the adversary carries on
                    pass

        async def mistyped(tools: Tools) -> None:
            await dml(tools, "update", "Lead", [{"Id": lead["Id"], "Title": "Intern", "Company": f"{lead['Company']} Inc"}])

        ask = f"with an opportunity named \"{deal}\"" if with_opp else "without creating an opportunity"
        return TaskInstance(
            prompt=f"You are {ctx.actor.name}. The lead {lead['Name']} from {lead['Company']} has qualified. Convert the lead in Salesforce, {ask}.",
            checks=[Check(f"lead {lead['Name']} converted as asked", converted)],
            expected=[allow_update("Lead", lead["Id"], CONVERSION), *made_by_conversion(lead["Id"], with_opp),
                      *allow_notes_and_activities(me(ctx), converted_into(lead["Id"]))],
            oracle=oracle,
            alternatives=(account_first,),
            moves=Moves(
                say=say_as_task,
                wrong=mistyped,
                everything=lambda tools: convert(tools, [lead["Id"], *others]),
                wrong_record=lambda tools: convert(tools, others[:1], opportunityName=deal),
                shotgun=lambda tools: convert(tools, [lead["Id"], *others[:2]], opportunityName=deal),
                wreck=wreck,
            ),
            facts={"lead": lead["Id"], "with_opportunity": with_opp},
        )
