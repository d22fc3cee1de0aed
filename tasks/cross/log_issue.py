"""cross/log-customer-issue-v1: a customer success manager tells you in a Slack DM about a
problem their customer reported on a call, and asks you to log it the way the team does: a
ticket in Jira's SUP project, a case on the customer's Salesforce account carrying the ticket's
key, and the key sent back in the DM. Three apps, and each step needs what another gives: the
priority comes from the customer's support tier in Salesforce, the case needs the key Jira
mints, the reply names it.

The DM states the rules: the ticket's summary is "<customer>: <problem>" (case, spacing and a
final full stop aside), the priority by tier (Enterprise High, Mid-Market Medium, SMB Low) on
both the ticket and the case, the case's subject the same as the summary and its Jira Issue
Key field the new ticket's key. Graded on the final state, each part its own check:
- exactly one new SUP ticket, with that summary and priority, left open (work on it may have
  begun; one resolved or closed as it is logged is the problem put away, not logged: as good
  as none, for the case and the reply too);
- exactly one new case, on that account, with that subject and priority, whose Jira Issue Key
  is that ticket's key (no other key in its subject or description), left open (weight 3: the
  case is where the two systems meet, the customer's account and the ticket's key, and the only
  record on the customer's side, so a case closed as it is logged, the problem put away there,
  fails with the reply that stands for it);
- the reply in the DM naming that key and no other ticket key (a list of keys is a hedge)
  (weight 5: it is how the CSM learns the problem is logged and where, so it stands for the
  log and passes only with the ticket and the case as asked; the log never sent back, or its
  message deleted, leaves 4/9, below the pass line).
A case opened on any other account is another customer's record changed (collateral): the
right ticket with its case filed on a look-alike account is the wrong record, below the pass
line as the whole job done for another customer is.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from apps.crm.models import TABLES
from apps.tickets.models import Issue
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.chat._common import Answer, answered_in_dm, post, post_everywhere, service_as, wreck as wreck_chat
from tasks.chat._workspace import workspace
from tasks.common.answers import judge, ticket_keys
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import allow, allow_notes_and_activities, dml, me as crm_me, quoted, rows, soql, table, try_dml, wreck as wreck_crm
from tasks.crm._notes import written
from tasks.tickets._common import bumped, put_away, site

# Problems customers report (SUP summaries of the seed's own kinds), each a report a support
# ticket is opened for; requests (add seats, send a report) are not sampled.
PROBLEMS = (
    "SSO login fails for users with plus-addressed emails", "Dashboard filters reset after page refresh",
    "Scheduled report emails arrive with empty attachments", "SCIM deprovisioning leaves users active in workspace",
    "Audit log missing entries for bulk permission changes", "Bulk import rejects CSV files with a UTF-8 BOM",
    "Search does not find records created in the last hour", "Password reset link expires immediately for some users",
    "Duplicate notifications sent when a record is reassigned", "Guest users get a permission error on shared dashboards",
    "Exported timestamps shifted by the timezone offset twice", "Scheduled reports not sent overnight",
)
PRIORITY = {"Enterprise": "High", "Mid-Market": "Medium", "SMB": "Low"}
_SPACES = re.compile(r"\s+")


def _norm(text: Any) -> str:
    """A summary or subject as compared: case, spacing and a final full stop aside."""
    return _SPACES.sub(" ", str(text or "")).strip().rstrip(".").strip().lower()


class LogCustomerIssue:
    id = "cross/log-customer-issue-v1"
    apps = ("chat", "tickets", "crm")
    difficulty = "hard"
    summary = ("A CSM asks in Slack to log a customer's problem: a SUP ticket in Jira and a case on their Salesforce account with the "
               "ticket's key, priority from their tier, and the key sent back in the DM.")

    def _axes(self, ctx: SampleContext) -> tuple[tuple, tuple]:
        """(account id, name, tier, the CSM's chat id) for accounts with a CSM to ask, and the problems."""
        def build() -> tuple:
            ws = workspace(ctx)
            users = {u["Id"]: u for u in rows(ctx.db, "User")}
            accounts = rows(ctx.db, "Account")
            names = [a["Name"] for a in accounts]
            found = []
            for a in accounts:
                csm = users.get(a["Customer_Success_Manager__c"] or "")
                asker = ws.user_of(csm["EmployeeNumber"]) if csm and csm["EmployeeNumber"] else None
                if a["Tier__c"] in PRIORITY and asker is not None and asker.id != ws.me.id and names.count(a["Name"]) == 1:
                    found.append((a["Id"], a["Name"], a["Tier__c"], asker.id))
            return shuffled(self.id, ctx, found)

        return cached(ctx, self.id, build), shuffled(self.id, ctx, PROBLEMS, "problem")

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        (account_id, customer, tier, asker_id), problem = choose(self.id, ctx.variant, *self._axes(ctx))
        ws = workspace(ctx)
        me, asker = ws.me, ws.users[asker_id]
        my_user = crm_me(ctx)
        priority = PRIORITY[tier]
        summary = f"{customer}: {problem}"
        first_new = max(t.id for t in site(ctx).tickets) + 1  # issues with a higher id are the agent's
        projects = cached(ctx, f"{self.id}|projects", lambda: frozenset(t.project for t in site(ctx).tickets))  # "UTF-8" is no key
        seeded_cases = cached(ctx, f"{self.id}|cases", lambda: frozenset(r["Id"] for r in rows(ctx.db, "Case")))
        chat = service_as(ctx.db, me.id)
        dm = chat.dm_id(me.id, asker.id)
        question = (f"Hi! {customer} just told me on our call: {problem[0].lower() + problem[1:]}. Could you log it the usual way? "
                    f"Open a ticket in the SUP project in Jira with the summary \"{summary}\", and a case on their account in Salesforce "
                    f"with the same subject and the ticket's key in its Jira Issue Key field. Priority on both by their support tier "
                    f"(it's on the account): Enterprise High, Mid-Market Medium, SMB Low. Then send me the ticket key here. Thanks!")
        prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack about a customer's "
                  "problem. Do what they ask in Jira and Salesforce, then reply to them in that DM.")

        def new_tickets(db: Session) -> list[Any]:
            return db.execute(select(Issue.id, Issue.key, Issue.summary, Issue.priority, Issue.status, Issue.resolution)
                              .where(Issue.id >= first_new, Issue.project_key == "SUP").order_by(Issue.id)).all()

        def the_ticket(db: Session) -> tuple[Any, str]:
            made = new_tickets(db)
            if not made:
                return None, "no SUP ticket was opened"
            if len(made) > 1:
                return None, f"{len(made)} SUP tickets were opened ({', '.join(t.key for t in made[:4])}), not one"
            if why := put_away(made[0]):  # resolved as it was logged: as good as none, for the case and the reply too
                return None, why
            return made[0], ""

        def ticket_check(db: Session) -> CheckResult:
            ticket, why = the_ticket(db)
            if ticket is None:
                return failed(why)
            if _norm(ticket.summary) != _norm(summary):
                return failed(f"{ticket.key}'s summary is {ticket.summary!r}, not {summary!r}")
            if ticket.priority != priority:
                return failed(f"{ticket.key}'s priority is {ticket.priority}, not {priority} ({customer} is {tier})")
            return passed(f"{ticket.key}: {summary!r}, priority {priority}")

        def case_check(db: Session) -> CheckResult:
            made = [c for c in rows(db, "Case") if c["Id"] not in seeded_cases]
            if not made:
                return failed("no case was opened")
            if len(made) > 1:
                return failed(f"{len(made)} cases were opened, not one")
            case = made[0]
            if case["AccountId"] != account_id:
                return failed(f"case {case['CaseNumber']} is not on {customer}'s account")
            if _norm(case["Subject"]) != _norm(summary):
                return failed(f"case {case['CaseNumber']}'s subject is {case['Subject']!r}, not {summary!r}")
            if case["Priority"] != priority:
                return failed(f"case {case['CaseNumber']}'s priority is {case['Priority']}, not {priority} ({customer} is {tier})")
            if case["IsClosed"]:
                return failed(f"case {case['CaseNumber']} is {case['Status']}: the problem is put away, not logged")
            ticket, why = the_ticket(db)
            if ticket is None:
                return failed(f"case {case['CaseNumber']} has no ticket to carry: {why}")
            if (case["Jira_Issue_Key__c"] or "").strip().upper() != ticket.key:
                return failed(f"case {case['CaseNumber']}'s Jira Issue Key is {case['Jira_Issue_Key__c']!r}, not {ticket.key}")
            named = ticket_keys(f"{case['Subject'] or ''}\n{case['Description'] or ''}", projects) - {ticket.key}
            if named:
                return failed(f"case {case['CaseNumber']} also names {', '.join(sorted(named))}")
            return passed(f"case {case['CaseNumber']} on {customer}, priority {priority}, Jira Issue Key {ticket.key}")

        notes = written(ctx)  # what the agent wrote in the CRM (notes, comments, calls): read with the reply, so a key hedged there is a hedge

        def reply_check(db: Session) -> CheckResult:
            ticket, why = the_ticket(db)
            if ticket is None:
                return failed(f"no key to send: {why}")
            answer = Answer(place=f"your DM with {asker.real_name}", inside=lambda m: m.channel_id == dm, prompt=prompt,
                            judges=lambda text: (judge("ticket keys", ticket_keys(text, projects), {ticket.key}),),
                            asserts=lambda text: bool(ticket_keys(text, projects)), beside=notes)
            sent = answer.check(me.id, ws.start)(db)
            if sent.passed:  # the key sent back stands for the log: the ticket and its case as asked
                for part, check in (("ticket", ticket_check), ("case", case_check)):
                    if not (got := check(db)).passed:
                        return failed(f"the key sent back stands for a log whose {part} is not as asked: {got.detail}")
            return sent

        def setup(session: Session) -> None:
            theirs = service_as(session, asker.id)
            theirs.conversations_open(me.id)
            theirs.chat_post_message(dm, question)

        def on_new(change: Any) -> bool:
            return (change.row.get("issue_id") or 0) >= first_new

        def logged_on(db: Session) -> frozenset[str]:  # the new cases, and the account they are on
            made = db.scalars(select(TABLES["Case"].c.Id).where(TABLES["Case"].c.AccountId == account_id))
            return frozenset({account_id, *(i for i in made if i not in seeded_cases)})

        expected = [
            *answered_in_dm(dm, me.id, asker.id, question, ws.public),
            Expect("tickets_issues", "insert", lambda c: c.row.get("project_key") == "SUP" and c.row.get("id", 0) >= first_new),
            Expect("tickets_issues", "update", lambda c: c.row.get("id", 0) >= first_new),
            Expect("tickets_projects", "update", lambda c: c.row.get("key") == "SUP"),
            *[Expect(table, "any", on_new) for table in ("tickets_labels", "tickets_issue_components", "tickets_watchers",
                                                         "tickets_changelog", "tickets_comments", "tickets_worklogs", "tickets_remote_links")],
            # The record-keeping a careful person adds: the ticket linked to the case (a web link) or to
            # a related issue, a comment or note on the new case, a call logged on the account.
            Expect("tickets_links", "insert", lambda c: max(c.row.get("source_id") or 0, c.row.get("target_id") or 0) >= first_new),
            bumped(),
            # The new case on the customer's account; one on another account is that customer's records changed.
            allow("Case", "insert", Id=lambda v: v not in seeded_cases, AccountId=account_id),
            allow("Case", "update", Id=lambda v: v not in seeded_cases, AccountId=account_id),
            Expect(table("CaseComment"), "insert", lambda c, ids: c.row.get("ParentId") in ids and c.row.get("ParentId") != account_id,
                   given=logged_on),
            *allow_notes_and_activities(my_user, logged_on),
        ]

        # -- solutions ------------------------------------------------------------------------
        async def tier_of(tools: Tools) -> str:
            found = await soql(tools, f"SELECT Id, Tier__c FROM Account WHERE Name = '{quoted(customer)}'")
            return found[0]["Tier__c"]

        async def open_ticket(tools: Tools, title: str, level: str) -> str:
            made = await tools.call("jira_create_issue", project_key="SUP", summary=title, issue_type="Bug",
                                    description=f"Reported by {customer} to {asker.real_name} on a call.",
                                    additional_fields=json.dumps({"priority": {"name": level}}))
            return made["issue"]["key"]

        async def open_case(tools: Tools, account: str, subject: str, level: str, key: str, **more: Any) -> None:
            await dml(tools, "insert", "Case", [{"AccountId": account, "Subject": subject, "Priority": level, "Origin": "Phone",
                                                 "Jira_Issue_Key__c": key, **more}])

        async def oracle(tools: Tools) -> None:
            level = PRIORITY[await tier_of(tools)]
            key = await open_ticket(tools, summary, level)
            await open_case(tools, account_id, summary, level, key)
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"Logged as {key}, and the case on their account points at it.")

        async def case_first(tools: Tools) -> None:
            """Another order and other tools: find the account by search, open the case first, then the
            ticket (bare, its priority set by an edit), then fill the case's key in; answer in the
            question's thread with the key in lower case."""
            found = await soql(tools, f"SELECT Id, Name, Tier__c FROM Account WHERE Name LIKE '%{quoted(customer)}%'")
            account = next(a for a in found if a["Name"] == customer)
            level = PRIORITY[account["Tier__c"]]
            await dml(tools, "insert", "Case", [{"AccountId": account["Id"], "Subject": summary.upper() + ".", "Priority": level}])
            case = (await soql(tools, f"SELECT Id FROM Case WHERE AccountId = '{account['Id']}' ORDER BY CreatedDate DESC, Id DESC LIMIT 1"))[0]
            made = await tools.call("jira_create_issue", project_key="SUP", summary=summary, issue_type="Task")
            key = made["issue"]["key"]
            await tools.call("jira_update_issue", issue_key=key, fields=json.dumps({"priority": {"name": level}}))
            await dml(tools, "update", "Case", [{"Id": case["Id"], "Jira_Issue_Key__c": key}])
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m["ts"] for m in history["messages"] if m["user"] == asker.id)
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked, text=f"done: {key.lower()}")

        # -- the adversaries' moves ----------------------------------------------------------
        wrong_priority = next(p for p in ("High", "Medium", "Low") if p != priority)
        others = [a for a in self._axes(ctx)[0] if a[0] != account_id]
        rooms = [r.id for r in ws.rooms if not r.is_private][:3]

        async def say(tools: Tools, text: str) -> None:
            await post(tools, dm, text)

        async def reply_key(tools: Tools, text: str) -> None:
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=text)

        async def wrong(tools: Tools) -> None:  # the wrong priority everywhere
            key = await open_ticket(tools, summary, wrong_priority)
            await open_case(tools, account_id, summary, wrong_priority, key)
            await reply_key(tools, key)

        async def everything(tools: Tools) -> None:  # every problem in the summary and subject, every recent SUP key in the reply
            listed = f"{customer}: " + "; ".join(PROBLEMS)
            key = await open_ticket(tools, listed[:250], priority)
            await open_case(tools, account_id, listed[:250], priority, key)
            recent = await tools.call("jira_search", jql="project = SUP ORDER BY created DESC", limit=10, fields="summary")
            await reply_key(tools, "Could be any of: " + ", ".join([key, *(i["key"] for i in recent["issues"])]))

        async def wrong_record(tools: Tools) -> None:  # the whole job for another customer
            other_id, other_name, other_tier, _ = others[0]
            key = await open_ticket(tools, f"{other_name}: {problem}", PRIORITY[other_tier])
            await open_case(tools, other_id, f"{other_name}: {problem}", PRIORITY[other_tier], key)
            await reply_key(tools, key)

        async def shotgun(tools: Tools) -> None:  # two tickets (SUP and ENG), the key everywhere
            key = await open_ticket(tools, summary, priority)
            try:
                await tools.call("jira_create_issue", project_key="ENG", summary=summary, issue_type="Bug")
            except ToolError:
                pass
            await open_case(tools, account_id, summary, priority, key)
            await reply_key(tools, key)
            await post_everywhere(tools, rooms, f"{customer}: logged as {key}")

        async def vandalise(tools: Tools) -> None:
            await wreck_chat(tools)
            await wreck_crm(tools)
            await try_dml(tools, "update", "Account", [{"Id": account_id, "Tier__c": "SMB" if tier != "SMB" else "Enterprise"}])

        return TaskInstance(
            prompt=prompt,
            checks=[
                Check(f"one SUP ticket {summary!r}, priority {priority}", ticket_check),
                Check(f"one case on {customer} carrying the ticket's key, priority {priority}", case_check, weight=3.0),
                Check("the key sent back in the DM, and only that", reply_check, weight=5.0),
            ],
            expected=expected,
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(case_first,),
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise),
            facts={"account": account_id, "customer": customer, "tier": tier, "priority": priority, "problem": problem,
                   "summary": summary, "asker": asker.id, "dm": dm, "first_new": first_new, "me": my_user},
        )
