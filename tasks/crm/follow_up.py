"""crm/assign-follow-up-v1: create a follow-up task for a colleague on a customer account,
due on a given day, with high priority. Judged as the set of tasks you created: exactly one,
owned by that colleague (an active user), on that account, due that day, high priority, its
subject saying what to do in any words, and nothing else of the kind (a subject listing every
likely to-do is a hedge, and so is one in its description or in any note, event or comment
you added, which are read with it). A note, an event or a completed activity logged on the account is allowed, and
read with it too."""

from __future__ import annotations

import random
import re
from datetime import timedelta

from apps.crm.models import TABLES
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.phrases import judge_field
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (allow, allow_notes_and_activities, dml, me, quoted, rows, say_as_task, snapshot, soql, try_dml, wreck)
from tasks.crm._notes import written

TODOS = ("send the renewal quote", "schedule the QBR", "confirm the security review", "share the onboarding plan")
DAYS_AHEAD = (2, 5, 9)
OWNER_TODOS = ("send the renewal quote", "confirm the security review")  # the account owner's; the others are its CSM's


class AssignFollowUp:
    id = "crm/assign-follow-up-v1"
    apps = ("crm",)
    difficulty = "easy"
    summary = "Create a high-priority follow-up task for a colleague on an account, due on a given day."

    def _pool(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple[tuple[dict, dict, str], ...]:
            """(account, colleague, to-do): each to-do for the one on the account's team whose job it is:
            its owner sends the renewal quote and confirms the security review, its customer success
            manager schedules the QBR and shares the onboarding plan."""
            accounts = snapshot(ctx, "Account")
            names = [a["Name"] for a in accounts]
            users = snapshot(ctx, "User")
            people = [u["Name"] for u in users]
            myself = me(ctx)  # a colleague: not yourself
            colleagues = {u["Id"]: {"Id": u["Id"], "Name": u["Name"]} for u in users
                          if u["IsActive"] and u["Department"] in ("Sales", "Customer Success") and people.count(u["Name"]) == 1
                          and u["Id"] != myself}
            found = []
            for a in accounts:
                if names.count(a["Name"]) != 1:
                    continue
                for todo in TODOS:
                    who = colleagues.get(a["OwnerId"] if todo in OWNER_TODOS else a["Customer_Success_Manager__c"] or "")
                    if who is not None:
                        found.append(({"Id": a["Id"], "Name": a["Name"]}, who, todo))
            return shuffled(self.id, ctx, found)

        return cached(ctx, self.id, build), DAYS_AHEAD

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        (account, owner, todo), ahead = choose(self.id, ctx.variant, *self._pool(ctx))
        due = (ctx.company.now.date() + timedelta(days=ahead)).isoformat()
        myself = me(ctx)
        before = {t["Id"] for t in snapshot(ctx, "Task")}
        others = [a["Id"] for a in snapshot(ctx, "Account") if a["Id"] != account["Id"]][:3]
        wrong_owner = myself  # the plausible slip: the task assigned to yourself
        given = f"{account['Name']} {owner['Name']}"  # names the subject may repeat
        beside = written(ctx)  # every note, event or other activity you added, read with the subject
        prompt = (f"You are {ctx.actor.name}. In Salesforce, create a follow-up task for {owner['Name']} to {todo}, on the account "
                  f"{account['Name']}, due {due}, with High priority.")

        def created(db) -> CheckResult:
            mine = [t for t in rows(db, "Task", TABLES["Task"].c.CreatedById == myself) if t["Id"] not in before]
            # a completed activity logged on the account (the call that led to it) is history, not a follow-up; it is read with the subject
            follow_ups = [t for t in mine if t["Status"] != "Completed" or t["WhatId"] != account["Id"]] or mine
            if len(follow_ups) != 1:
                return failed(f"you created {len(follow_ups)} follow-up tasks; exactly one was asked")
            (task,) = follow_ups
            asks = judge_field("to-dos", task["Subject"], [task["Description"], *beside(db)], TODOS, todo, given, prompt)
            problems = [what for what, ok in (
                (f"owner {task['OwnerId']} is not {owner['Name']}", task["OwnerId"] == owner["Id"]),
                (f"it is on {task['WhatId']}, not {account['Name']}", task["WhatId"] == account["Id"]),
                (f"due {task['ActivityDate']}, not {due}", task["ActivityDate"] == due),
                (f"priority {task['Priority']}, not High", task["Priority"] == "High"),
                (f"subject {task['Subject']!r} {asks.detail}", asks.ok),
                (f"status {task['Status']!r}: a follow-up is not done yet", task["Status"] != "Completed"),
            ) if not ok]
            return failed("; ".join(problems)) if problems else passed(f"task for {owner['Name']}: {task['Subject']}")

        async def oracle(tools: Tools) -> None:
            (found,) = await soql(tools, f"SELECT Id FROM Account WHERE Name = '{quoted(account['Name'])}'")
            (user,) = await soql(tools, f"SELECT Id FROM User WHERE Name = '{quoted(owner['Name'])}' AND IsActive = true")
            await dml(tools, "insert", "Task", [{"Subject": todo[0].upper() + todo[1:], "WhatId": found["Id"], "OwnerId": user["Id"],
                                                 "ActivityDate": due, "Priority": "High"}])

        async def with_datetime_and_status(tools: Tools) -> None:
            """Another form: a datetime for the due date, an explicit status, ids found through SOSL."""
            text = str(await tools.call("salesforce_search_all", searchTerm=owner["Name"], searchIn="NAME FIELDS", objects=[{"name": "User", "fields": ["Id", "Name"]}]))
            user = re.search(r"Id: (005\w{15})", text).group(1)
            (found,) = await soql(tools, f"SELECT Id FROM Account WHERE Name = '{quoted(account['Name'])}'")
            await dml(tools, "insert", "Task", [{"Subject": f"Follow-up: {todo}", "WhatId": found["Id"], "OwnerId": user,
                                                 "ActivityDate": f"{due}T17:00:00Z", "Priority": "High", "Status": "Not Started"}])

        async def make(tools: Tools, on: list[str], who: str, text: str = todo) -> None:
            for what in on:
                await try_dml(tools, "insert", "Task", [{"Subject": text, "WhatId": what, "OwnerId": who, "ActivityDate": due, "Priority": "High"}])

        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"one follow-up for {owner['Name']} on {account['Name']}", created)],
            expected=[allow("Task", "insert", WhatId=account["Id"], CreatedById=myself),
                      *allow_notes_and_activities(myself, {account["Id"]}, kinds=("Note", "Event"))],
            oracle=oracle,
            alternatives=(with_datetime_and_status,),
            moves=Moves(
                say=say_as_task,
                wrong=lambda tools: make(tools, [account["Id"]], wrong_owner),
                everything=lambda tools: make(tools, [account["Id"]], owner["Id"], "; ".join(TODOS)),
                wrong_record=lambda tools: make(tools, others[:1], owner["Id"]),
                shotgun=lambda tools: make(tools, [account["Id"], *others[:2]], owner["Id"]),
                wreck=wreck,
            ),
            facts={"account": account["Id"], "owner": owner["Id"], "due": due, "todo": todo},
        )
