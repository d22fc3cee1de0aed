"""crm/close-case-v1: support has fixed a customer's problem; close its Case with the
resolution, the way this org requires (Status Closed and the Resolution field filled in).

The resolution is read in the writer's own words (tasks.common.phrases): it must say what was
done and claim no other likely fix. A closing comment, a note or an activity logged on the
case (the call confirming the fix) is what support staff often add, so it is allowed; it and any other note or activity you added are read with
the resolution: a hedge put there is still a hedge. Only the case's status and resolution may change (the stamps closing sets follow), and its
Case Reason, which Salesforce's close-case page asks for beside them: a case closed with the resolution but re-prioritised, or other cases closed too, is
collateral."""

from __future__ import annotations

import random

from apps.crm.models import TABLES
from graders.checks import Check, CheckResult, failed, passed
from seed_data.tickets.lines import SUP_FIXES, sup_template
from tasks.base import Moves, nothing, SampleContext, TaskInstance, Tools
from tasks.common.phrases import judge_field
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (allow, allow_notes_and_activities, allow_update, around, by_id, dml, me, row, rows, say_as_task,
                               snapshot, soql, try_dml, wreck)
from tasks.crm._notes import written

# The fixes support most often writes: what a hedge offers beside the real one. A case is sampled
# with a fix written for what it is about (seed_data.tickets.lines.SUP_FIXES); these are among them.
RESOLUTIONS = ("Reset the SSO certificate; logins work again", "Raised the API rate limit for their workspace",
               "Rebuilt the search index; results are back", "Fixed the export timeout in the 2.14 release",
               "Re-sent the invoice with the corrected VAT number")
CLOSING = {"Status", "Resolution__c", "IsClosed", "ClosedDate"}  # what closing sets (escalating it on the way is not closing it)
# The Case Reason sits on Salesforce's close-case page beside Status: support staff pick one as they close.
CLOSE_PAGE = CLOSING | {"Reason"}


class CloseCase:
    id = "crm/close-case-v1"
    apps = ("crm",)
    difficulty = "easy"
    summary = "Close a named support case with the resolution the org requires."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[dict, str], ...]:
        """(case, resolution) pairs: each open case with a fix written for its kind of problem."""
        def build() -> tuple[tuple[dict, str], ...]:
            cases = rows(ctx.db, "Case", TABLES["Case"].c.IsClosed.is_(False), TABLES["Case"].c.AccountId.is_not(None))
            pairs = [({"Id": c["Id"], "CaseNumber": c["CaseNumber"], "Subject": c["Subject"], "AccountId": c["AccountId"],
                       "Priority": c["Priority"]}, fix)
                     for c in cases for fix in SUP_FIXES.get(sup_template(c["Subject"]) or "", ())]
            return shuffled(self.id, ctx, pairs)

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ((case, resolution),) = choose(self.id, ctx.variant, self._pool(ctx))
        account = by_id(ctx, "Account", case["AccountId"])
        others = [c["Id"] for c in snapshot(ctx, "Case") if not c["IsClosed"] and c["Id"] != case["Id"]][:5]
        given = f"{case['Subject']} {account['Name']}"  # what the resolution may repeat
        likely = tuple(dict.fromkeys([resolution, *RESOLUTIONS, *SUP_FIXES[sup_template(case["Subject"]) or ""]]))
        notes = written(ctx)  # a closing comment, or any other note or activity you added, read with the resolution
        prompt = (f"You are {ctx.actor.name}. Support case {case['CaseNumber']} (\"{case['Subject']}\") from {account['Name']} "
                  f"is resolved: {resolution}. Close the case in Salesforce with that resolution.")

        def closed(db) -> CheckResult:
            now = row(db, "Case", case["Id"])
            if now is None or now["Status"] != "Closed":
                return failed(f"case {case['CaseNumber']} is {now and now['Status']!r}, not Closed")
            said = judge_field("fixes", now["Resolution__c"], notes(db), likely, resolution, given, prompt)
            if not said.ok:  # missing what was done, or also claiming other likely fixes (a hedge)
                beside = " (read with the comments, notes and activities you added)" if notes(db) else ""
                return failed(f"the resolution {now['Resolution__c']!r}{beside} {said.detail}")
            return passed(f"case {case['CaseNumber']} closed: {now['Resolution__c']}")

        async def oracle(tools: Tools) -> None:
            (found,) = await soql(tools, f"SELECT Id FROM Case WHERE CaseNumber = '{case['CaseNumber']}'")
            await dml(tools, "update", "Case", [{"Id": found["Id"], "Status": "Closed", "Resolution__c": resolution}])

        async def in_two_steps(tools: Tools) -> None:
            """Another path: find it by search, write the resolution first, then close it."""
            text = await tools.call("salesforce_search_all", searchTerm=case["CaseNumber"], searchIn="ALL FIELDS",
                                    objects=[{"name": "Case", "fields": ["Id", "CaseNumber"]}])
            case_id = str(text).split("Id: ", 1)[1].split()[0]
            await dml(tools, "update", "Case", [{"Id": case_id, "Resolution__c": f"{resolution}."}])
            await dml(tools, "update", "Case", [{"Id": case_id, "Status": "Closed"}])

        async def with_a_closing_comment(tools: Tools) -> None:
            """Another form support staff use: close it, then say the same in a public comment."""
            (found,) = await soql(tools, f"SELECT Id FROM Case WHERE CaseNumber = '{case['CaseNumber']}'")
            await dml(tools, "update", "Case", [{"Id": found["Id"], "Status": "Closed", "Resolution__c": resolution.lower()}])
            await dml(tools, "insert", "CaseComment", [{"ParentId": found["Id"], "IsPublished": True,
                                                        "CommentBody": f"Closing: {resolution}. Thanks for your patience."}])

        async def close(tools: Tools, ids: list[str], text: str, **extra: str) -> None:
            for case_id in ids:
                await try_dml(tools, "update", "Case", [{"Id": case_id, "Status": "Closed", "Resolution__c": text, **extra}])

        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"case {case['CaseNumber']} closed with its resolution", closed)],
            expected=[allow_update("Case", case["Id"], CLOSE_PAGE),
                      allow("CaseComment", "insert", ParentId=case["Id"]), *allow_notes_and_activities(me(ctx), around(ctx, "Case", {case["Id"]}))],
            oracle=oracle,
            alternatives=(in_two_steps, with_a_closing_comment),
            moves=Moves(
                say=say_as_task,
                wrong=lambda tools: close(tools, [case["Id"]], "Could not reproduce", Priority="Low" if case["Priority"] != "Low" else "High"),
                everything=lambda tools: close(tools, [case["Id"]], " / ".join(likely)),
                wrong_record=lambda tools: close(tools, others[:1], resolution),
                shotgun=lambda tools: close(tools, [case["Id"], *others[:3]], resolution),
                wreck=wreck,
                put_away=nothing,  # closing is itself the put-away
            ),
            facts={"case": case["Id"], "number": case["CaseNumber"], "resolution": resolution, "actor": me(ctx)},
        )
