"""sheets/answer-from-sheet-v1: the acting person's manager asks in a Slack DM a question one of
the company's spreadsheets answers: how much a rep has closed-won or has open, how much sits in
a stage (or its weighted amount), one deal's amount, a rep's biggest won deal, the average of a
rep's open deals, a team's planned cost (the Headcount Plan) or total cost (the Budget). Read
it from the sheet and reply in that DM. (The questions: tasks/sheets/_questions.py.)

The answer is everything the agent said in that DM since the question, read as the set of money
amounts it names: exactly the right one, in any common form ("$1,234,500", "1.2345M"); said with
it, a rounding of it ("about $1.2M") or the parts it adds up from ("$486,000: $450,000 salary and
$36,000 opex", each deal's amount) explain it and offer no other figure. Only questions whose
answer no other question of its kind shares are asked.
"""

from __future__ import annotations

import random
import re
from decimal import Decimal

from graders.checks import Check
from tasks.base import SampleContext, TaskInstance, TaskUnavailable, Tools
from tasks.chat._common import Answer, answer_moves, answered_in_dm, service_as
from tasks.chat._workspace import workspace
from tasks.common.answers import amounts, breakdown, judge, money, roundings
from tasks.common.variants import cached, choose, count
from tasks.sheets._common import allow_discarded, seeded, seeded_ids
from tasks.sheets._questions import Question, questions, reader, worker

# An amount said as a rate: "$320,000 each", "320k per head", "$320,000/head".
PER_HEAD = re.compile(r"(?:[$€£]\s?)?\d[\d,.]*\s?(?:[kKmM]\b)?\s?(?:each|per\s+(?:head|person|hire|seat)|a\s+head|/\s?head)\b", re.IGNORECASE)


class AnswerFromSheet:
    id = "sheets/answer-from-sheet-v1"
    apps = ("sheets", "chat")
    difficulty = "medium"
    summary = "Your manager asks in Slack for a figure one of the company's spreadsheets holds; read it from the sheet and reply."

    def _pool(self, ctx: SampleContext) -> tuple[Question, ...]:
        return cached(ctx, self.id, lambda: questions(self.id, ctx))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws = workspace(ctx)
        (q,), pool = choose(self.id, ctx.variant, self._pool(ctx)), self._pool(ctx)
        book = seeded(ctx, q.book)
        total = q.value
        me, since = ws.me, ws.start
        asker = ws.user_of(ctx.actor.manager_id)
        if asker is None:
            raise TaskUnavailable("the acting person has no manager in chat")
        dm = cached(ctx, f"{self.id}/dm", lambda: service_as(ctx.db, me.id).dm_id(me.id, asker.id))
        question = q.text
        prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack with a "
                  "question about a Google Sheet. Find the answer in the sheet and reply to them in that DM.")

        def setup(session) -> None:
            theirs = service_as(session, asker.id)
            theirs.conversations_open(me.id)
            theirs.chat_post_message(dm, question)

        def restating(text: str) -> set[Decimal]:
            """Roundings of the figure said with it, and the parts it is broken down into (each deal's
            amount, a team's salary and opex): the answer explained, no other figure offered."""
            rounded = roundings(total)
            # Named parts must be its true parts (or sums of them), as crm/pipeline-question reads
            # them (`breakdown`): one deal's amount said before the figure is another answer, and a
            # made-up split ("$900,000 + $380,000") offers figures the sheet does not hold.
            said = rounded | (breakdown(text, total, rounded, known=q.parts) if len(q.parts) >= 2 else set())
            # The cost per head a planned cost multiplies, said as a rate ("4 heads at $320,000 each").
            if q.rate is not None and any(q.rate in amounts(rate) for rate in PER_HEAD.findall(text)):
                said.add(q.rate)
            return said

        answer = Answer(
            place=f"your DM with {asker.real_name}",
            inside=lambda m: m.channel_id == dm,
            prompt=prompt,
            judges=lambda text: (judge("amounts", amounts(text), {total}, tolerated=restating(text), show=money),),
            asserts=lambda text: bool(amounts(text)),
        )
        read, work = reader(q, book.id), worker(q, book.id)

        async def oracle(tools: Tools) -> None:
            """The cell that holds the answer (a Summary row, a plan row, the deal's row)."""
            value = await read(tools)
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"{q.subject}: ${value:,.0f}.")

        async def worked_out(tools: Tools) -> None:
            """Another path and form: worked out from the rows the figure comes from, replied in a thread in another format."""
            value = await work(tools)
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m["ts"] for m in history["messages"] if m["user"] == asker.id)
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked, text=f"{value:,.2f} USD (worked out from the rows)")

        # another subject's figure of the same kind (any other figure when the kind has one question)
        others = ([o.value for o in pool if o.kind == q.kind and o.value != total] or [o.value for o in pool if o.value != total]
                  or [total + 1000])
        return TaskInstance(
            prompt=prompt,
            checks=[Check("answered in the DM with the figure asked for, and only that", answer.check(me.id, since))],
            expected=[*answered_in_dm(dm, me.id, asker.id, question, ws.public), *allow_discarded(seeded_ids(ctx))],
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(worked_out,),
            moves=answer_moves(dm, [r.id for r in ws.rooms[:6]], right=f"{q.subject}: ${total:,.0f}.",
                               wrong=f"{q.subject} comes to ${others[0]:,.0f}.",
                               everything="Figures: " + ", ".join(f"${v:,.0f}" for v in [total, *others[:8]]),
                               wrong_record=f"${others[0]:,.0f}"),
            facts={"kind": q.kind, "subject": q.subject, "rep": q.subject if q.kind in ("won", "open", "biggest", "average") else None,
                   "total": total, "asker": asker.id, "dm": dm, "spreadsheet": book.id},
        )
