"""chat/find-and-answer-v1: a colleague asks a question in a DM; the answer is somewhere in
the workspace's history; the agent replies to them in that DM with the right fact."""

from __future__ import annotations

import random

from sqlalchemy import select

from apps.chat.models import Message
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import (
    TICKET_KEY, allow_messages_in, new_messages, service_as, start_ts, user_for_person, visible_channels,
)


class FindAndAnswer:
    id = "chat/find-and-answer-v1"
    apps = ("chat",)
    difficulty = "medium"
    summary = "A colleague DMs a question about a customer ticket; find the ticket key in chat history and answer in the DM."

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        db, company = ctx.db, ctx.company
        me = user_for_person(db, ctx.actor.id)
        channel_ids = [c.id for c in visible_channels(db, me.id)]
        tickets = {t.key: t for t in company.tickets if t.customer_id}
        # Tickets whose key and summary appear together in a message the agent can read.
        findable = []
        for message in db.scalars(select(Message).where(Message.channel_id.in_(channel_ids)).order_by(Message.channel_id, Message.ts)):
            for key in TICKET_KEY.findall(message.text):
                ticket = tickets.get(key)
                if ticket and ticket.summary.lower() in message.text.lower():
                    findable.append(ticket)
        if not findable:
            raise LookupError("no ticket is findable in the chat history of this company")
        ticket = rng.choice(sorted(set(findable), key=lambda t: t.key))
        customer = company.customer(ticket.customer_id)
        asker_person = company.person(customer.owner_id)
        if asker_person.id == ctx.actor.id:
            asker_person = company.person(ctx.actor.manager_id or customer.owner_id)
        asker = user_for_person(db, asker_person.id)
        question = (
            f"Hey! {customer.name} is asking about their issue \"{ticket.summary}\". "
            "Do you know which ticket is tracking it? I need the key for my call."
        )
        since = start_ts(db)
        dm = service_as(db, me.id).dm_id(me.id, asker.id)

        def setup(session) -> None:
            chat = service_as(session, asker.id)
            chat.conversations_open(me.id)
            chat.chat_post_message(dm, question)

        def answered(session) -> CheckResult:
            replies = new_messages(session, me.id, since, dm)
            if not replies:
                return failed(f"no reply to {asker.real_name} in your DM with them")
            for reply in replies:
                keys = set(TICKET_KEY.findall(reply.text))
                if ticket.key in keys and keys == {ticket.key}:
                    return passed(f"answered with {ticket.key}")
            said = sorted({k for r in replies for k in TICKET_KEY.findall(r.text)})
            return failed(f"the reply must name the right ticket, and only that one; named {said or 'no ticket key'}")

        async def oracle(tools: Tools) -> None:
            found = await tools.call("slack_search_messages", query=f'"{ticket.summary}"')
            keys = [k for m in found["messages"]["matches"] for k in TICKET_KEY.findall(m["text"]) if k == ticket.key]
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"It's {keys[0]} — \"{ticket.summary}\".")

        return TaskInstance(
            prompt=(
                f"You are {me.real_name} (@{me.name}). {asker.real_name} just sent you a direct message in Slack "
                "with a question. Find the answer in the workspace and reply to them in that DM."
            ),
            checks=[Check("answered in the DM with the right ticket key", answered)],
            expected=[allow_messages_in(dm, me.id)],
            oracle=oracle,
            setup=setup,
            facts={"ticket": ticket.key, "asker": asker.id},
        )

