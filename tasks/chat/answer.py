"""chat/find-and-answer-v1: a colleague asks a question in a DM; the answer is somewhere in
the workspace's history; the agent replies to them in that DM with the right fact.

The answer is everything the agent said in that DM since the question (thread replies under it
included), read as the set of ticket keys it names: exactly the right one. Only keys of the
company's projects count, so "ISO-9001" in a correct answer is harmless. Only tickets whose
summary is unique, and never discussed next to another key, are asked about.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from graders.checks import Check
from seed_data.tickets.lines import internal_work
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import Answer, answer_moves, answered_in_dm, service_as
from tasks.crm._notes import written as crm_written
from tasks.chat._workspace import workspace
from tasks.common.answers import judge, ticket_keys
from tasks.common.text import words
from tasks.common.variants import cached, choose, count, shuffled


@dataclass(frozen=True, slots=True)
class _Case:
    key: str
    summary: str
    customer: str
    asker: str  # user id
    dm: str  # the DM between the actor and the asker
    seen_in: tuple[str, ...]  # channels where the ticket is discussed
    siblings: tuple[str, ...]  # the same customer's other ticket keys


class FindAndAnswer:
    id = "chat/find-and-answer-v1"
    apps = ("chat",)
    difficulty = "medium"
    summary = "A colleague DMs a question about a customer ticket; find the ticket key in chat history and answer in the DM."

    def _pool(self, ctx: SampleContext) -> tuple[_Case, ...]:
        return cached(ctx, self.id, lambda: shuffled(self.id, ctx, _cases(ctx)))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws = workspace(ctx)
        (case,) = choose(self.id, ctx.variant, self._pool(ctx))
        me, since, dm, key = ws.me, ws.start, case.dm, case.key
        asker = ws.users[case.asker]
        question = (
            f"Hey! {case.customer} is asking about their issue \"{case.summary}\". "
            "Do you know which ticket is tracking it? I need the key for my call."
        )
        prompt = (
            f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack "
            "with a question. Find the answer in the workspace and reply to them in that DM."
        )

        def setup(session) -> None:
            chat = service_as(session, asker.id)
            chat.conversations_open(me.id)
            chat.chat_post_message(dm, question)

        answer = Answer(
            place=f"your DM with {asker.real_name}",
            inside=lambda m: m.channel_id == dm,
            prompt=prompt,
            judges=lambda text: (judge("ticket keys", ticket_keys(text, ws.projects), {key}),),
            asserts=lambda text: bool(ticket_keys(text, ws.projects)),
            beside=crm_written(ctx),
        )

        async def find_key(tools: Tools) -> str:
            found = await tools.call("slack_search_messages", query=f'"{case.summary}"')
            keys = {k for m in found["messages"]["matches"] for k in ticket_keys(m["text"], ws.projects)}
            [only] = keys  # sampling made sure chat pairs this summary with one key only
            return only

        async def oracle(tools: Tools) -> None:
            answer = await find_key(tools)
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"It's {answer} — \"{case.summary}\".")

        async def in_thread(tools: Tools) -> None:
            """Another path and form: reply under the question, with a labelled mention and a key-like word."""
            answer = await find_key(tools)
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m["ts"] for m in history["messages"] if m["user"] == asker.id)
            text = f"<@{asker.id}|{asker.handle}> that one is {answer.lower()} (filed under our ISO-9001 process, COVID-19 era template)."
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked, text=text)

        others = [c.key for c in self._pool(ctx) if c.key != key] or [f"{key.split('-')[0]}-{int(key.split('-')[1]) + 1}"]
        wrong_key = case.siblings[0] if case.siblings else others[0]
        every = sorted({t.key for t in ctx.company.tickets})
        right = f"It's {key}."
        return TaskInstance(
            prompt=prompt,
            checks=[Check("answered in the DM with the right ticket key, and only that", answer.check(me.id, since))],
            expected=answered_in_dm(dm, me.id, asker.id, question, ws.public),
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(in_thread,),
            moves=answer_moves(dm, [*case.seen_in, *(r.id for r in ws.rooms[:6])], right=right, wrong=f"It's {wrong_key}.",
                               everything="It's one of " + ", ".join(every), wrong_record=f"It's {others[0]}."),
            facts={"ticket": key, "asker": asker.id, "dm": dm},
        )


def _cases(ctx: SampleContext) -> list[_Case]:
    """Tickets an agent can find by their summary, that nothing else in chat could be mistaken for."""
    ws, company = workspace(ctx), ctx.company
    summaries: dict[tuple[str, ...], list[str]] = {}  # summary words -> ticket keys
    for ticket in company.tickets:
        summaries.setdefault(tuple(words(ticket.summary)), []).append(ticket.key)
    starts: dict[tuple[str, ...], list[tuple[str, ...]]] = {}  # first three words -> summaries
    for summary in summaries:
        starts.setdefault(summary[:3], []).append(summary)
    told: dict[tuple[str, ...], set[str]] = {}  # summary -> keys said in the same message
    where: dict[tuple[str, ...], set[str]] = {}  # summary -> channels it is said in
    for message in ws.posts:  # one pass over history, looking summaries up by their first words
        tokens = words(message.text)
        for i in range(len(tokens)):
            for summary in starts.get(tuple(tokens[i : i + 3]), ()):
                if tuple(tokens[i : i + len(summary)]) == summary:
                    told.setdefault(summary, set()).update(ticket_keys(message.text, ws.projects))
                    where.setdefault(summary, set()).add(message.channel)
    by_customer: dict[str, list[str]] = {}
    for ticket in company.tickets:
        by_customer.setdefault(ticket.customer_id or "", []).append(ticket.key)
    chat = service_as(ctx.db, ws.me.id)
    cases = []
    for ticket in company.tickets:
        summary = tuple(words(ticket.summary))
        if not ticket.customer_id or summaries[summary] != [ticket.key]:
            continue
        if internal_work(ticket.summary):
            continue  # internal work (flaky tests): no customer asks about it as their issue
        if told.get(summary) != {ticket.key}:
            continue  # never named, or named next to another key: no single right answer
        customer = company.customer(ticket.customer_id)
        asker_person = customer.owner_id if customer.owner_id != ctx.actor.id else ctx.actor.manager_id
        asker = ws.user_of(asker_person)
        if asker is None or asker.id == ws.me.id:
            continue
        siblings = tuple(k for k in by_customer[customer.id] if k != ticket.key)
        cases.append(_Case(ticket.key, ticket.summary, customer.name, asker.id, chat.dm_id(ws.me.id, asker.id),
                           tuple(sorted(where[summary])), siblings))
    return cases

