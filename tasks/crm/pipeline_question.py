"""crm/pipeline-question-v1: a sales manager asks in a Slack DM for a number only the CRM
knows (a rep's open pipeline, or what they won this quarter); answer them in that DM.

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

from apps.crm.models import TABLES
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

KINDS = {  # kind -> (question wording, SOQL condition)
    "open": ("What's {rep}'s open pipeline right now, the total amount of their open opportunities?", "IsClosed = false"),
    "won": ("How much has {rep} closed-won this quarter? The total amount, please.", "IsWon = true AND CloseDate = THIS_QUARTER"),
}


class PipelineQuestion:
    id = "crm/pipeline-question-v1"
    apps = ("crm", "chat")
    difficulty = "medium"
    summary = "A manager asks in Slack for a rep's pipeline total; compute it in Salesforce and answer in the DM."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[tuple[str, str, str, str, float, str, tuple[float, ...]], ...]]:
        """(rep's user id, rep's name, kind, asker's chat id, total, the DM's id, the deals' amounts): all the instance needs."""
        def build() -> list[tuple[str, str, str, str, float, str, tuple[float, ...]]]:
            ws = workspace(ctx)
            chat = service_as(ctx.db, ws.me.id)
            users = {u["Id"]: u for u in rows(ctx.db, "User")}
            names = [u["Name"] for u in users.values()]
            start, end = (sf_date(d) for d in date_range("THIS_QUARTER", None, ctx.company.now.date()))
            found = []
            for owner, user in users.items():
                person = user["EmployeeNumber"]
                manager = ctx.company.person(person).manager_id if person else None
                asker = ws.user_of(manager)
                if asker is None or asker.id == ws.me.id or names.count(user["Name"]) != 1:
                    continue
                deals = rows(ctx.db, "Opportunity", TABLES["Opportunity"].c.OwnerId == owner)
                summed = {"open": tuple(d["Amount"] for d in deals if not d["IsClosed"] and d["Amount"]),
                          "won": tuple(d["Amount"] for d in deals if d["IsWon"] and start <= d["CloseDate"] < end and d["Amount"])}
                dm = chat.dm_id(ws.me.id, asker.id)
                found += [(owner, user["Name"], kind, asker.id, sum(parts), dm, parts) for kind, parts in summed.items() if sum(parts) > 0]
            return shuffled(self.id, ctx, found)

        return (cached(ctx, self.id, build),)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws = workspace(ctx)
        ((owner, rep, kind, asker_id, total, dm, deals),) = choose(self.id, ctx.variant, *self._pool(ctx))
        me, asker = ws.me, ws.users[asker_id]
        wording, condition = KINDS[kind]
        question = "Quick one: " + wording.format(rep=rep)
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
            (user,) = await soql(tools, f"SELECT Id FROM User WHERE Name = '{quoted(rep)}'")
            (row,) = await soql(tools, f"SELECT SUM(Amount) total FROM Opportunity WHERE OwnerId = '{user['Id']}' AND {condition}")
            return row["total"]

        async def oracle(tools: Tools) -> None:
            value = await total_of(tools)
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"{rep}: ${value:,.0f}.")

        async def by_grouping(tools: Tools) -> None:
            """Another path and format: group by owner with the aggregate tool, answer in the thread in thousands."""
            text = str(await tools.call("salesforce_aggregate_query", objectName="Opportunity", selectFields=["Owner.Name", "SUM(Amount) total"],
                                        groupByFields=["Owner.Name"], whereClause=condition))
            block = next(b for b in text.split("\n\n") if f"Name: {rep}\n" in b + "\n")
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
            facts={"rep": owner, "kind": kind, "total": total, "asker": asker.id},
        )
