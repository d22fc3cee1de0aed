"""chat/summarise-thread-v1: read a ticket's discussion thread and post a summary of it in
another channel: the ticket key, the customer, and everyone who weighed in."""

from __future__ import annotations

import random

from sqlalchemy import select

from apps.chat.models import Channel, Message, User
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import (
    TICKET_KEY, allow_join, allow_messages_in, contains, mentions, new_messages, start_ts, thread_replies, user_for_person,
    visible_channels,
)

_TARGETS = ("escalations", "customer-success", "support")


class SummariseThread:
    id = "chat/summarise-thread-v1"
    apps = ("chat",)
    difficulty = "hard"
    summary = "Summarise a ticket's discussion thread into one post in another channel: ticket, customer and who took part."

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        db, company = ctx.db, ctx.company
        me = user_for_person(db, ctx.actor.id)
        tickets = {t.key: t for t in company.tickets if t.customer_id}
        options = []
        for channel in visible_channels(db, me.id):
            parents = db.scalars(select(Message).where(Message.channel_id == channel.id, Message.thread_ts == Message.ts).order_by(Message.ts)).all()
            for parent in parents:
                keys = [k for k in dict.fromkeys(TICKET_KEY.findall(parent.text)) if k in tickets]
                repliers = list(dict.fromkeys(r.user_id for r in thread_replies(db, parent) if r.user_id != me.id))
                people = [db.get(User, u) for u in repliers]
                if len(keys) == 1 and len(repliers) >= 2 and all(p and not p.is_bot for p in people):
                    options.append((channel, parent, tickets[keys[0]], people))
        channel, parent, ticket, people = rng.choice(options)
        customer = company.customer(ticket.customer_id)
        names = set(db.scalars(select(Channel.name)))
        target_name = next(n for n in _TARGETS if n in names and n != channel.name)
        target = db.scalars(select(Channel).where(Channel.name == target_name, Channel.is_im.is_(False))).one()
        since = start_ts(db)

        def summaries(session) -> list[Message]:
            return [m for m in new_messages(session, me.id, since, target.id) if m.thread_ts in (None, m.ts)]

        def best(session, test) -> CheckResult:
            posts = summaries(session)
            if not posts:
                return failed(f"no top-level post in #{target.name}")
            good = [p for p in posts if test(p.text)]
            return passed(f"post {good[0].ts}") if good else failed(f"your post in #{target.name} lacks it: {posts[-1].text[:200]!r}")

        def names_people(text: str) -> bool:
            return all(mentions(text, person) for person in people)

        async def oracle(tools: Tools) -> None:
            replies = await tools.call("slack_get_thread_replies", channel_id=channel.id, thread_ts=parent.ts)
            who = list(dict.fromkeys(m["user"] for m in replies["messages"][1:] if m["user"] != me.id))
            target_id = (await tools.call("slack_get_channel_info", channel_id=f"#{target.name}"))["channel"]["id"]
            text = (
                f"Summary of the {ticket.key} thread in <#{channel.id}|{channel.name}> ({customer.name}): "
                f"{ticket.summary}. Discussed by {', '.join(f'<@{u}>' for u in who)}."
            )
            await tools.call("slack_post_message", channel_id=target_id, text=text)

        return TaskInstance(
            prompt=(
                f"You are {me.real_name} (@{me.name}). In #{channel.name} there is a thread about ticket {ticket.key}. "
                f"Read it and post a one-message summary in #{target.name} (a normal post, not a thread reply) that "
                "gives the ticket key, the customer's name, and everyone who replied in the thread (by @-mention or full name)."
            ),
            checks=[
                Check(f"summary posted in #{target.name} with the ticket key", lambda s: best(s, lambda t: ticket.key in t)),
                Check("summary names the customer", lambda s: best(s, lambda t: contains(t, customer.name))),
                Check("summary names everyone who replied", lambda s: best(s, names_people)),
            ],
            expected=[allow_messages_in(target.id, me.id), allow_join(target.id, me.id)],
            oracle=oracle,
            facts={"thread": f"{channel.id}/{parent.ts}", "ticket": ticket.key, "target": target.id, "people": [p.id for p in people]},
        )
