"""crm/pipeline-question-v1: a manager asks in a Slack DM for a number only the CRM knows: a
rep's open pipeline, what is closing this quarter or next, what they won this quarter or this
year, what they lost this year; an account's open pipeline; how much sits in one stage across
the team. Answer them in that DM.

The answer is everything the agent said since the question, read as the set of money
amounts it names: exactly the right total (any common way of writing it, "$1,348,600" or
"1.348.600 $"; a rounding of it said alongside is fine, and so are the parts it is broken down
into, "from $700,000 and $648,600", or one deal's amount, "the largest is $700k"; a second
figure is a hedge, in chat or in a task or note written in the
CRM on the way). Asked only when
the total is not zero. Solving it takes an aggregate query in the CRM and a chat reply."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from apps.crm.soql.dates import date_range
from apps.crm.values import sf_date
from graders.checks import Check
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import Answer, answer_moves, answered_in_dm, service_as
from tasks.chat._workspace import workspace
from tasks.common.answers import amounts, breakdown, judge, money, roundings
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import quoted, rows, soql
from tasks.crm._notes import written

REP, ACCOUNT, STAGE = "rep", "account", "stage"  # what a question is about: one rep's deals, one account's, the team's in a stage
KINDS = {  # kind -> (what it is about, question wording, SOQL condition)
    "open": (REP, "What's {rep}'s open pipeline right now, the total amount of their open opportunities?", "IsClosed = false"),
    "won": (REP, "How much has {rep} closed-won this quarter? The total amount, please.", "IsWon = true AND CloseDate = THIS_QUARTER"),
    "closing": (REP, "How much of {rep}'s open pipeline is set to close this quarter? The total amount of those opportunities.",
                "IsClosed = false AND CloseDate = THIS_QUARTER"),
    "next": (REP, "What's the total amount of {rep}'s open opportunities with a close date next quarter?",
             "IsClosed = false AND CloseDate = NEXT_QUARTER"),
    "won-year": (REP, "How much has {rep} closed-won this calendar year so far? The total amount, please.",
                 "IsWon = true AND CloseDate = THIS_YEAR"),
    "lost-year": (REP, "How much has {rep} lost this calendar year, the total amount of their closed-lost deals?",
                  "IsClosed = true AND IsWon = false AND CloseDate = THIS_YEAR"),
    "account": (ACCOUNT, "What's the open pipeline on the {account} account, the total amount of its open opportunities?", "IsClosed = false"),
    "stage": (STAGE, "How much is sitting in {stage} right now across the whole team? The total amount of those opportunities.",
              "StageName = '{stage}'"),
}
GROUPED_BY = {REP: ("Owner.Name", "OwnerId"), ACCOUNT: ("Account.Name", "AccountId"), STAGE: ("StageName", "StageName")}
CLOSED_STAGES = ("Closed Won", "Closed Lost")
MOST_ACCOUNTS = 12  # accounts asked about, so the reps' and stages' questions are not drowned out


def _in(value: str | None, period: tuple[str, str]) -> bool:
    return value is not None and period[0] <= value < period[1]


class PipelineQuestion:
    id = "crm/pipeline-question-v1"
    apps = ("crm", "chat")
    difficulty = "medium"
    summary = "A manager asks in Slack for a pipeline total (a rep's, an account's, a stage's); compute it in Salesforce and answer in the DM."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[tuple[str, str, str, str, float, str, tuple[float, ...]], ...]]:
        """(the subject's Id or stage, its name, kind, asker's chat id, total, the DM's id, the deals' amounts): all the
        instance needs. A rep is asked about by their manager; an account by the acting person's manager; a stage by the
        head of sales. One subject's kinds that add up the same deals are one question: only the first is asked."""
        def build() -> list[tuple[str, str, str, str, float, str, tuple[float, ...]]]:
            ws = workspace(ctx)
            chat = service_as(ctx.db, ws.me.id)
            today = ctx.company.now.date()
            periods = {name: tuple(sf_date(d) for d in date_range(name, None, today)) for name in ("THIS_QUARTER", "NEXT_QUARTER", "THIS_YEAR")}
            users = {u["Id"]: u for u in rows(ctx.db, "User")}
            names = [u["Name"] for u in users.values()]
            deals = rows(ctx.db, "Opportunity")
            accounts = rows(ctx.db, "Account")
            account_names = [a["Name"] for a in accounts]
            found = []

            def add(subject: str, name: str, asker: Any, kinds: dict[str, list[dict]]) -> None:
                if asker is None or asker.id == ws.me.id:
                    return
                dm, seen = chat.dm_id(ws.me.id, asker.id), set()
                for kind, picked in kinds.items():
                    parts = tuple(d["Amount"] for d in picked if d["Amount"])
                    ids = frozenset(d["Id"] for d in picked if d["Amount"])
                    if sum(parts) > 0 and ids not in seen:
                        seen.add(ids)
                        found.append((subject, name, kind, asker.id, sum(parts), dm, parts))

            for owner, user in users.items():
                person = user["EmployeeNumber"]
                if names.count(user["Name"]) != 1:
                    continue
                mine = [d for d in deals if d["OwnerId"] == owner]
                add(owner, user["Name"], ws.user_of(ctx.company.person(person).manager_id if person else None), {
                    "open": [d for d in mine if not d["IsClosed"]],
                    "won": [d for d in mine if d["IsWon"] and _in(d["CloseDate"], periods["THIS_QUARTER"])],
                    "closing": [d for d in mine if not d["IsClosed"] and _in(d["CloseDate"], periods["THIS_QUARTER"])],
                    "next": [d for d in mine if not d["IsClosed"] and _in(d["CloseDate"], periods["NEXT_QUARTER"])],
                    "won-year": [d for d in mine if d["IsWon"] and _in(d["CloseDate"], periods["THIS_YEAR"])],
                    "lost-year": [d for d in mine if d["IsClosed"] and not d["IsWon"] and _in(d["CloseDate"], periods["THIS_YEAR"])]})
            manager = ws.user_of(ctx.actor.manager_id)
            for account in shuffled(self.id, ctx, accounts, "accounts")[:MOST_ACCOUNTS]:
                if account_names.count(account["Name"]) == 1:
                    add(account["Id"], account["Name"], manager,
                        {"account": [d for d in deals if d["AccountId"] == account["Id"] and not d["IsClosed"]]})
            sales = ctx.company.team("sales").lead_id
            for stage in sorted({d["StageName"] for d in deals} - set(CLOSED_STAGES)):
                add(stage, stage, ws.user_of(sales), {"stage": [d for d in deals if d["StageName"] == stage]})
            return shuffled(self.id, ctx, found)

        return (cached(ctx, self.id, build),)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws = workspace(ctx)
        ((subject, name, kind, asker_id, total, dm, deals),) = choose(self.id, ctx.variant, *self._pool(ctx))
        me, asker = ws.me, ws.users[asker_id]
        about, wording, condition = KINDS[kind]
        condition = condition.format(stage=quoted(name))
        question = "Quick one: " + wording.format(rep=name, account=name, stage=name)
        group, field = GROUPED_BY[about]
        prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack with a question "
                  f"about the sales pipeline. Look it up in Salesforce and reply to them in that DM.")
        expected_amount = Decimal(str(total)).normalize()

        def restating(text: str) -> set[Decimal]:
            """Roundings of the total said with it, and the parts it is broken down into."""
            rounded = roundings(expected_amount)
            return rounded | breakdown(text, expected_amount, rounded, known=[Decimal(str(d)).normalize() for d in deals])

        answer = Answer(place=f"your DM with {asker.real_name}", inside=lambda m: m.channel_id == dm, prompt=prompt,
                        judges=lambda text: (judge("amount", amounts(text), {expected_amount}, tolerated=restating(text), show=money),),
                        asserts=lambda text: bool(amounts(text)), beside=written(ctx))

        def setup(session) -> None:
            chat = service_as(session, asker.id)
            chat.conversations_open(me.id)
            chat.chat_post_message(dm, question)

        async def total_of(tools: Tools) -> float:
            if about == STAGE:
                where = condition
            else:
                (found,) = await soql(tools, f"SELECT Id FROM {'User' if about == REP else 'Account'} WHERE Name = '{quoted(name)}'")
                where = f"{field} = '{found['Id']}' AND {condition}"
            (row,) = await soql(tools, f"SELECT SUM(Amount) total FROM Opportunity WHERE {where}")
            return row["total"]

        async def oracle(tools: Tools) -> None:
            value = await total_of(tools)
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"{name}: ${value:,.0f}.")

        async def by_grouping(tools: Tools) -> None:
            """Another path and format: group by owner (account, stage) with the aggregate tool, answer in the thread in thousands."""
            text = str(await tools.call("salesforce_aggregate_query", objectName="Opportunity", selectFields=[group, "SUM(Amount) total"],
                                        groupByFields=[group], whereClause=condition))
            block = next(b for b in text.split("\n\n") if f"{group.split('.')[-1]}: {name}\n" in b + "\n")
            value = float(block.rsplit("total: ", 1)[1].split()[0])
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m["ts"] for m in history["messages"] if m["user"] == asker.id)
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked, text=f"{value / 1000:g}k USD in total")

        wrong_total = total * 1.1 + 1000
        return TaskInstance(
            prompt=prompt,
            checks=[Check("answered in the DM with the right total, and only that", answer.check(me.id, ws.start))],
            expected=[*answered_in_dm(dm, me.id, asker.id, question, ws.public)],
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(by_grouping,),
            moves=answer_moves(dm, [r.id for r in ws.rooms[:4]], right=f"${total:,.0f}", wrong=f"About ${wrong_total:,.0f}.",
                               everything=f"Somewhere between ${total / 2:,.0f}, ${total:,.0f} and ${total * 2:,.0f}.",
                               wrong_record=f"${total + 12_345:,.0f}"),
            facts={"rep": subject if about == REP else None, "subject": subject, "kind": kind, "total": total, "asker": asker.id,
                   "condition": condition},
        )
