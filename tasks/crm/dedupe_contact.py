"""crm/merge-duplicate-contact-v1: someone entered a customer contact twice. Merge them the
way Salesforce's merge does: keep the original record, move the duplicate's activities and
cases onto it, then delete the duplicate. Deleting first loses the activity history (a
contact's tasks go with it), and keeping the wrong record breaks links to it. The moved
history may change only in what links it to the contact: a task re-worded or a case closed on
the way is collateral; a note or an activity logged on the kept record ("merged a duplicate") is not."""

from __future__ import annotations

import random

from apps.crm.ids import COUNTER_KEY, make_id
from apps.crm.models import TABLES
from apps.crm.objects import sobject
from apps.crm.records import Records
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from officegym.core.db import get_meta
from tasks.base import Moves, nothing, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (allow_notes_and_activities, allow_update, by_id, me, quoted, rows, say_as_task, snapshot, soql,
                               table, try_dml, wreck)

TOPICS = ("Intro call", "Sent onboarding guide", "Renewal check-in")


class MergeDuplicateContact:
    id = "crm/merge-duplicate-contact-v1"
    apps = ("crm",)
    difficulty = "hard"
    summary = "Merge a duplicated contact: move its tasks and cases to the original, then delete the duplicate."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[dict, ...]]:
        def build() -> list[dict]:
            contacts = rows(ctx.db, "Contact")
            names = [c["Name"] for c in contacts]
            return shuffled(self.id, ctx, [{"Id": c["Id"], "Name": c["Name"], "FirstName": c["FirstName"], "LastName": c["LastName"],
                                            "Email": c["Email"], "AccountId": c["AccountId"]} for c in contacts if names.count(c["Name"]) == 1])

        return (cached(ctx, self.id, build),)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        (original,) = choose(self.id, ctx.variant, *self._pool(ctx))
        account = by_id(ctx, "Account", original["AccountId"])
        subjects = tuple(f"{topic} ({original['LastName']})" for topic in rng.sample(TOPICS, 2))
        case_subject = f"Login issue reported by {original['Name']}"
        myself = me(ctx)
        contacts = snapshot(ctx, "Contact")
        neighbours = [c["Id"] for c in contacts if c["AccountId"] is not None and c["AccountId"] != original["AccountId"]][:3]
        rows_of_account = [c for c in contacts if c["AccountId"] == original["AccountId"]]

        # The ids setup's records get follow from the template's id counter (an env is a fresh
        # copy of it when sampled): so the check knows the duplicate's own history, and a copy
        # made afterwards (the same subject on the original) is not mistaken for it.
        serial = int(get_meta(ctx.db, COUNTER_KEY, "0") or 0)
        history_ids = {"Task": [make_id(sobject("Task").prefix, serial + 2 + i) for i in range(len(subjects))],
                       "Case": [make_id(sobject("Case").prefix, serial + 2 + len(subjects))]}

        def setup(session) -> None:
            records = Records(session, myself)
            dup = records.create(sobject("Contact"), {"FirstName": original["FirstName"], "LastName": original["LastName"],
                                                     "Email": original["Email"].upper(), "AccountId": original["AccountId"], "Phone": "+1 555 0100"})
            made = [records.create(sobject("Task"), {"Subject": subject, "Status": "Completed", "WhoId": dup, "WhatId": original["AccountId"]})
                    for subject in subjects]
            made.append(records.create(sobject("Case"), {"Subject": case_subject, "ContactId": dup, "AccountId": original["AccountId"], "Origin": "Email"}))
            if made != [*history_ids["Task"], *history_ids["Case"]]:
                raise RuntimeError(f"setup's records got ids {made}, not the ones the grader expects")

        def merged(db) -> CheckResult:
            same = rows(db, "Contact", TABLES["Contact"].c.AccountId == original["AccountId"], TABLES["Contact"].c.Name == original["Name"])
            if [c["Id"] for c in same] != [original["Id"]]:
                kept = "the original is gone" if original["Id"] not in {c["Id"] for c in same} else f"{len(same)} records remain"
                return failed(f"{original['Name']} at {account['Name']} should be one record, the original: {kept}")
            # The history is the records setup made: one left behind is lost with the duplicate,
            # and a copy made on the original afterwards is not it.
            kept = [t for t in rows(db, "Task", TABLES["Task"].c.Id.in_(history_ids["Task"])) if t["WhoId"] == original["Id"]]
            kept += [c for c in rows(db, "Case", TABLES["Case"].c.Id.in_(history_ids["Case"])) if c["ContactId"] == original["Id"]]
            lost = len(subjects) + 1 - len(kept)
            return failed(f"{lost} of the duplicate's activities and cases did not move to the original") if lost else passed("merged, history kept")

        async def find(tools: Tools) -> tuple[str, str] | None:
            found = await soql(tools, f"SELECT Id FROM Contact WHERE Name = '{quoted(original['Name'])}' AND AccountId = '{original['AccountId']}' ORDER BY CreatedDate, Id")
            return (found[0]["Id"], found[1]["Id"]) if len(found) == 2 else None

        async def oracle(tools: Tools) -> None:
            pair = await find(tools)
            if pair is None:  # nothing (left) to merge
                return
            keep, dup = pair
            for kind, field in (("Task", "WhoId"), ("Event", "WhoId"), ("Case", "ContactId")):
                moved = await soql(tools, f"SELECT Id FROM {kind} WHERE {field} = '{dup}'")
                if moved:
                    await try_dml(tools, "update", kind, [{"Id": m["Id"], field: keep} for m in moved])
            await try_dml(tools, "delete", "Contact", [{"Id": dup}])

        async def with_subqueries(tools: Tools) -> None:
            """Another path: the duplicate's related records in one query with child subqueries."""
            (dup,) = await soql(tools, f"SELECT Id, (SELECT Id FROM Tasks), (SELECT Id FROM Cases) FROM Contact WHERE Name = '{quoted(original['Name'])}' "
                                       f"AND AccountId = '{original['AccountId']}' AND Id != '{original['Id']}'")
            for kind, field, rel in (("Task", "WhoId", "Tasks"), ("Case", "ContactId", "Cases")):
                for record in (dup[rel] or {"records": []})["records"]:
                    await try_dml(tools, "update", kind, [{"Id": record["Id"], field: original["Id"][:15]}])
            await try_dml(tools, "delete", "Contact", [{"Id": dup["Id"]}])

        async def delete(tools: Tools, ids: list[str]) -> None:
            for record_id in ids:
                await try_dml(tools, "delete", "Contact", [{"Id": record_id}])

        return TaskInstance(
            prompt=(f"You are {ctx.actor.name}. {original['Name']} at {account['Name']} is in Salesforce twice: someone re-entered them today. "
                    f"Merge the two contact records: keep the original (the older record), move the duplicate's tasks and cases to it, "
                    f"then delete the duplicate."),
            checks=[Check(f"one {original['Name']}, the original, with the duplicate's history", merged)],
            expected=[Expect(table("Contact"), "delete", lambda rc: rc.row.get("Name") == original["Name"] and rc.row.get("Id") != original["Id"]),
                      # the history moves to the original and nothing else of it changes (re-opened, re-worded ...)
                      *(allow_update("Task", i, {"WhoId"}) for i in history_ids["Task"]),
                      *(allow_update("Case", i, {"ContactId"}) for i in history_ids["Case"]),
                      *allow_notes_and_activities(myself, {original["Id"], original["AccountId"]})],
            oracle=oracle,
            setup=setup,
            alternatives=(with_subqueries,),
            moves=Moves(
                say=say_as_task,
                wrong=lambda tools: delete(tools, [original["Id"]]),
                everything=lambda tools: delete(tools, [c["Id"] for c in rows_of_account]),
                wrong_record=lambda tools: delete(tools, neighbours[:1]),
                shotgun=lambda tools: delete(tools, [original["Id"], *neighbours[:2]]),
                wreck=wreck,
                put_away=nothing,  # a merge; nothing made to put away
            ),
            facts={"original": original["Id"], "account": original["AccountId"]},
        )
