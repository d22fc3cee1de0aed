"""chat/reply-in-thread-v1: find the thread a colleague started about a customer and answer
in that thread (not in the channel) with the customer's main contact."""

from __future__ import annotations

import random
from collections import Counter

from sqlalchemy import select

from apps.chat.models import Message, User
from graders.checks import Check
from graders.rubric import Expect
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import allow_join, allow_thread_start, contains, first_match, new_messages, start_ts, user_for_person, visible_channels


def customer_threads(ctx: SampleContext, me: User):
    """(channel, parent, customer) for top-level messages that name exactly one customer and
    are the only message by their author in that channel naming that customer."""
    db, customers = ctx.db, ctx.company.customers
    found = []
    for channel in visible_channels(db, me.id):
        tops = db.scalars(
            select(Message)
            .where(Message.channel_id == channel.id, Message.thread_ts.is_(None) | (Message.thread_ts == Message.ts))
            .order_by(Message.ts)
        ).all()
        named = []
        for message in tops:
            hits = [c for c in customers if c.name in message.text]
            if len(hits) == 1:
                named.append((message, hits[0]))
        counts = Counter((m.user_id, c.id) for m, c in named)
        for message, customer in named:
            author = db.get(User, message.user_id)
            if counts[(message.user_id, customer.id)] == 1 and author and not author.is_bot and author.id != me.id:
                found.append((channel, message, customer, author))
    return found


class ReplyInThread:
    id = "chat/reply-in-thread-v1"
    apps = ("chat",)
    difficulty = "medium"
    summary = "Find the thread a colleague started about a customer and reply in it with the customer's main contact."

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        db = ctx.db
        me = user_for_person(db, ctx.actor.id)
        options = [t for t in customer_threads(ctx, me) if t[2].contacts]
        channel, parent, customer, author = rng.choice(options)
        contact = customer.contacts[0]
        since = start_ts(db)

        def is_answer(message) -> bool:
            return message.thread_ts == parent.ts and contains(message.text, contact.email)

        def replied(session):
            return first_match(
                new_messages(session, me.id, since, channel.id), is_answer,
                f"a reply in {author.real_name}'s thread naming {contact.email}",
                f"nothing posted in #{channel.name}",
            )

        async def oracle(tools: Tools) -> None:
            found = await tools.call("slack_search_messages", query=f'"{customer.name}" in:#{channel.name} from:@{author.name}')
            thread = next(m for m in found["messages"]["matches"] if m["ts"] == (m.get("thread_ts") or m["ts"]))
            text = f"The main contact at {customer.name} is {contact.name} ({contact.email}, {contact.title})."
            await tools.call("slack_reply_to_thread", channel_id=channel.id, thread_ts=thread["ts"], text=text)

        return TaskInstance(
            prompt=(
                f"You are {me.real_name} (@{me.name}). {author.real_name} started a thread in #{channel.name} about "
                f"{customer.name}. Reply in that thread (not as a new channel message) to say that the customer's main "
                f"contact is {contact.name}, {contact.email}."
            ),
            checks=[Check("replied in the right thread with the contact", replied)],
            expected=[
                Expect("chat_messages", "insert", lambda c: c.row["channel_id"] == channel.id and c.row["thread_ts"] == parent.ts and c.row["user_id"] == me.id),
                allow_thread_start(channel.id, parent.ts),
                allow_join(channel.id, me.id),
            ],
            oracle=oracle,
            facts={"channel": channel.id, "thread_ts": parent.ts, "contact": contact.email},
        )
