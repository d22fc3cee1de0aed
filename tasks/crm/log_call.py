"""crm/log-call-v1: log a call you just had as a completed Task on the right opportunity,
with the right contact as its Name (WhoId).

Judged as the set of tasks you created: exactly one, on that opportunity, with that contact,
completed, its subject naming the topic in any words and no other topic (a subject stuffed
with every likely topic is a hedge; its description, the call's notes, and any note, event or
comment you added anywhere are read with it, so a hedge moved there is still one). A call logged twice, or also elsewhere, is wrong.
A note or an event on the deal or the contact (the call's notes), or an open to-do on the deal (its follow-up), is what
reps add: it is allowed, and read with the subject."""

from __future__ import annotations

import random
import re

from apps.crm.models import TABLES
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.phrases import judge_field
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (allow, allow_notes_and_activities, around, dml, me, quoted, rows, say_as_task, snapshot, soql,
                               try_dml, wreck)
from tasks.crm._notes import written

TOPICS = ("pricing for the renewal", "the security questionnaire", "the rollout timeline", "seat expansion", "the pilot results")
# The deals (by kind, read from the name) each topic is a call about.
_TOPIC_FITS = {"pricing for the renewal": {"renewal"}, "the security questionnaire": {"new", "renewal", "expansion", "addon"},
               "the rollout timeline": {"new", "expansion", "addon"}, "seat expansion": {"renewal", "expansion"},
               "the pilot results": {"new", "addon"}}

# Contacts whose job a topic is not: an office manager does not negotiate renewal pricing nor answer
# the security questionnaire; the CFO is not called about the rollout timeline.
_NOT_THEIRS = {
    "pricing for the renewal": {"Office Manager", "Systems Administrator", "Security Lead", "Data Engineering Manager",
                                "Business Systems Analyst", "Head of Analytics", "Program Manager", "Director of Customer Experience"},
    "the security questionnaire": {"Office Manager", "Head of Analytics", "Director of Customer Experience", "Head of Revenue Operations",
                                   "CFO", "Operations Manager", "Program Manager", "Data Engineering Manager", "VP of Operations",
                                   "Business Systems Analyst"},
    "the rollout timeline": {"CFO", "Head of Procurement"},
    "seat expansion": {"Security Lead", "Systems Administrator"},
    "the pilot results": {"CFO", "Head of Procurement", "Office Manager", "Security Lead"},
}


def _kind(name: str) -> str:
    return "renewal" if " Renewal " in name else "expansion" if " Expansion " in name else "new" if name.endswith(" New Business") else "addon"


class LogCall:
    id = "crm/log-call-v1"
    apps = ("crm",)
    difficulty = "easy"
    summary = "Log a completed call with a contact as a Task on the right opportunity."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[tuple[dict, dict, str], str], ...]:
        def build() -> tuple[tuple[dict, dict, str], ...]:
            opps = rows(ctx.db, "Opportunity", TABLES["Opportunity"].c.IsClosed.is_(False))
            names = [o["Name"] for o in opps]
            contacts = rows(ctx.db, "Contact")
            full_names = [c["Name"] for c in contacts]
            found = []
            for opp in opps:
                if names.count(opp["Name"]) > 1:
                    continue
                for contact in (c for c in contacts if c["AccountId"] == opp["AccountId"] and full_names.count(c["Name"]) == 1):
                    found.append(({"Id": opp["Id"], "Name": opp["Name"], "AccountId": opp["AccountId"]},
                                  {"Id": contact["Id"], "Name": contact["Name"], "Title": contact["Title"]}, opp["Id"]))
            return shuffled(self.id, ctx, found)

        def pairs() -> tuple:
            """Each call with a topic that fits its deal: pricing for the renewal on a renewal, pilot results on new business."""
            return shuffled(self.id, ctx, [(call, topic) for call in cached(ctx, self.id, build) for topic in TOPICS
                                           if _kind(call[0]["Name"]) in _TOPIC_FITS[topic] and call[1]["Title"] not in _NOT_THEIRS[topic]],
                            "pairs")

        return cached(ctx, f"{self.id}|pairs", pairs)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        (((opp, contact, _), topic),) = choose(self.id, ctx.variant, self._pool(ctx))
        myself = me(ctx)
        before = {t["Id"] for t in snapshot(ctx, "Task")}
        others = [o["Id"] for o in snapshot(ctx, "Opportunity") if not o["IsClosed"] and o["Id"] != opp["Id"]][:4]
        subject = f"Call with {contact['Name']} about {topic}"
        given = f"{contact['Name']} {contact['Title']} {opp['Name']}"  # names the subject may repeat
        beside = written(ctx)  # every note, event or other activity you added, read with the subject
        prompt = (f"You are {ctx.actor.name}. You just finished a call with {contact['Name']} ({contact['Title']}) about {topic}. "
                  f"Log it in Salesforce as a completed task (a call) on the opportunity \"{opp['Name']}\", "
                  f"with {contact['Name']} as the contact, and a subject that says it was about {topic}.")

        def logged(db) -> CheckResult:
            mine = [t for t in rows(db, "Task", TABLES["Task"].c.CreatedById == myself) if t["Id"] not in before]
            # an open to-do on the deal (the call's follow-up) is not a call log; it is read with the subject
            calls = [t for t in mine if t["Status"] == "Completed" or t["WhatId"] != opp["Id"]] or mine
            if len(calls) != 1:
                return failed(f"you logged {len(calls)} calls; exactly one call log was asked")
            (task,) = calls
            about = judge_field("topics", task["Subject"], [task["Description"], *beside(db)], TOPICS, topic, given, prompt)
            problems = [what for what, ok in (
                (f"it is on {task['WhatId']}, not the opportunity {opp['Name']}", task["WhatId"] == opp["Id"]),
                (f"its Name (WhoId) is {task['WhoId']}, not {contact['Name']}", task["WhoId"] == contact["Id"]),
                (f"its status is {task['Status']!r}, not Completed", task["Status"] == "Completed"),
                (f"its subject {task['Subject']!r} {about.detail}", about.ok),
            ) if not ok]
            return failed("; ".join(problems)) if problems else passed(f"call logged: {task['Subject']}")

        async def oracle(tools: Tools) -> None:
            (found,) = await soql(tools, f"SELECT Id, AccountId FROM Opportunity WHERE Name = '{quoted(opp['Name'])}'")
            (person,) = await soql(tools, f"SELECT Id FROM Contact WHERE Name = '{quoted(contact['Name'])}' AND AccountId = '{found['AccountId']}'")
            await dml(tools, "insert", "Task", [{"Subject": subject, "Status": "Completed", "TaskSubtype": "Call",
                                                 "WhatId": found["Id"], "WhoId": person["Id"], "ActivityDate": ctx.company.now.date().isoformat()}])

        async def by_search(tools: Tools) -> None:
            """Another path and wording: find both records with SOSL, log with 15-character ids and the
            default subtype, the topic in the subject without its articles."""
            text = str(await tools.call("salesforce_search_all", searchTerm=contact["Name"], searchIn="NAME FIELDS",
                                        objects=[{"name": "Contact", "fields": ["Id", "Name", "AccountId"]}]))
            person = re.search(r"Id: (003\w{15})", text).group(1)
            found = await tools.call("salesforce_query_records", objectName="Opportunity", fields=["Id", "Name"],
                                     whereClause=f"Name = '{quoted(opp['Name'])}'")
            opp_id = re.search(r"Id: (006\w{15})", str(found)).group(1)
            said = f"Call re {topic.removeprefix('the ')}"
            await dml(tools, "insert", "Task", [{"Subject": said, "Status": "Completed", "WhatId": opp_id[:15], "WhoId": person[:15]}])

        async def log(tools: Tools, on: list[str], who: str | None, text: str = subject) -> None:
            for what in on:
                await try_dml(tools, "insert", "Task", [{"Subject": text, "Status": "Completed", "WhatId": what, "WhoId": who}])

        return TaskInstance(
            prompt=prompt,
            checks=[Check("one completed call logged on the right opportunity and contact", logged)],
            expected=[allow("Task", "insert", WhatId=opp["Id"], CreatedById=myself),
                      *allow_notes_and_activities(myself, around(ctx, "Opportunity", {opp["Id"]}) | {contact["Id"]}, kinds=("Note", "Event"))],
            oracle=oracle,
            alternatives=(by_search,),
            moves=Moves(
                say=say_as_task,
                wrong=lambda tools: log(tools, [opp["Id"]], None, f"Call about {topic}"),
                everything=lambda tools: log(tools, [opp["Id"]], contact["Id"], f"Call with {contact['Name']} about {', '.join(TOPICS)}"),
                wrong_record=lambda tools: log(tools, others[:1], contact["Id"]),
                shotgun=lambda tools: log(tools, [opp["Id"], opp["AccountId"], *others[:2]], contact["Id"]),
                wreck=wreck,
            ),
            facts={"opportunity": opp["Id"], "contact": contact["Id"], "topic": topic},
        )
