"""sheets/answer-from-sheet-v1: the acting person's manager asks in a Slack DM how much one
sales rep has closed-won; the answer is on the sales forecast's Summary tab (or summed from its
Pipeline); reply in that DM.

The answer is everything the agent said in that DM since the question, read as the set of money
amounts it names: exactly the right one, in any common form ("$1,234,500", "1.2345M"). Only reps
whose won total no other rep shares are asked about.
"""

from __future__ import annotations

import random
from decimal import Decimal

from graders.checks import Check
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import Answer, answer_moves, answered_in_dm, service_as
from tasks.chat._workspace import workspace
from tasks.common.answers import amounts, judge
from tasks.common.variants import cached, choose, count, shuffled
from tasks.sheets._common import allow_discarded, seeded, seeded_ids


class AnswerFromSheet:
    id = "sheets/answer-from-sheet-v1"
    apps = ("sheets", "chat")
    difficulty = "medium"
    summary = "Your manager asks in Slack how much a rep has closed-won; read it from the forecast sheet and reply."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[str, int], ...]:
        def build() -> tuple[tuple[str, int], ...]:
            won: dict[str, int] = {}
            for deal in ctx.company.deals:
                if deal.stage == "Closed Won":
                    name = ctx.company.person(deal.owner_id).name
                    won[name] = won.get(name, 0) + deal.amount
            totals = list(won.values())
            return shuffled(self.id, ctx, sorted((n, v) for n, v in won.items() if totals.count(v) == 1))

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws = workspace(ctx)
        book = seeded(ctx, "Sales Forecast")
        (rep, total), = choose(self.id, ctx.variant, self._pool(ctx))
        me, since = ws.me, ws.start
        asker = ws.user_of(ctx.actor.manager_id)
        if asker is None:
            from tasks.base import TaskUnavailable

            raise TaskUnavailable("the acting person has no manager in chat")
        dm = cached(ctx, f"{self.id}/dm", lambda: service_as(ctx.db, me.id).dm_id(me.id, asker.id))
        question = f"Quick one: how much has {rep} closed-won so far? Check the \"{book.title}\" sheet please."
        prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack with a "
                  "question about a Google Sheet. Find the answer in the sheet and reply to them in that DM.")

        def setup(session) -> None:
            theirs = service_as(session, asker.id)
            theirs.conversations_open(me.id)
            theirs.chat_post_message(dm, question)

        answer = Answer(
            place=f"your DM with {asker.real_name}",
            inside=lambda m: m.channel_id == dm,
            prompt=prompt,
            judges=lambda text: (judge("amounts", amounts(text), {Decimal(total)}),),
            asserts=lambda text: bool(amounts(text)),
        )

        async def won_from_pipeline(tools: Tools) -> int:
            pipeline = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet="Pipeline")
            rows = pipeline["valueRanges"][0]["values"][1:]
            return sum(int(r[5].replace("$", "").replace(",", "")) for r in rows if r[3] == rep and r[4] == "Closed Won")

        async def oracle(tools: Tools) -> None:
            """The Summary tab's row for the rep; a rep the Summary does not list (it shows the
            busiest few, so on a large company most are not there) is summed from the Pipeline."""
            summary = await tools.call("get_sheet_data", spreadsheet_id=book.id, sheet="Summary")
            row = next((r for r in summary["valueRanges"][0]["values"] if r and r[0] == rep), None)
            said = row[2] if row is not None else f"${await won_from_pipeline(tools):,}"
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"{rep} has closed-won {said} so far.")

        async def summed(tools: Tools) -> None:
            """Another path and form: sum the Pipeline's won deals, reply in a thread with a scaled amount."""
            value = await won_from_pipeline(tools)
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m["ts"] for m in history["messages"] if m["user"] == asker.id)
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked, text=f"{value / 1_000_000:g}M USD (from the Pipeline tab)")

        others = [v for n, v in self._pool(ctx) if n != rep] or [total + 1000]
        return TaskInstance(
            prompt=prompt,
            checks=[Check("answered in the DM with the rep's closed-won total, and only that", answer.check(me.id, since))],
            expected=[*answered_in_dm(dm, me.id, asker.id, question, ws.public), *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(summed,),
            moves=answer_moves(dm, [r.id for r in ws.rooms[:6]], right=f"{rep}: ${total:,} closed-won.",
                               wrong=f"{rep} has closed-won ${others[0]:,}.",
                               everything="Totals: " + ", ".join(f"${v:,}" for _, v in self._pool(ctx)), wrong_record=f"${others[0]:,}"),
            facts={"rep": rep, "total": total, "asker": asker.id, "dm": dm},
        )
