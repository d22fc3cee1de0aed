"""chat/reply-in-thread-v1: find the thread a colleague started about a customer and answer
in that thread (not in the channel) with the customer's main contact.

Graded over everything the agent posted in that channel: a reply in the thread (a reply to a
reply lands there too) that names the contact's email, and no other contact or customer. Only
threads that are their author's single post about that customer in that channel are asked about.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from graders.checks import Check
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.chat._common import Answer, allow_acknowledgement, allow_posts, allow_thread_start, careful_steps, post, wreck
from tasks.crm._notes import written as crm_written
from tasks.chat._workspace import Post, Room, workspace
from tasks.common.answers import emails, judge
from tasks.common.variants import cached, choose, count, shuffled


@dataclass(frozen=True, slots=True)
class _Thread:
    room: Room
    parent: Post
    customer: str  # customer id
    others: tuple[str, ...]  # other top-level messages in the room (wrong records)


class ReplyInThread:
    id = "chat/reply-in-thread-v1"
    apps = ("chat",)
    difficulty = "medium"
    summary = "Find the thread a colleague started about a customer and reply in it with the customer's main contact."

    def _pool(self, ctx: SampleContext) -> tuple[_Thread, ...]:
        return cached(ctx, self.id, lambda: shuffled(self.id, ctx, _threads(ctx)))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws, company = workspace(ctx), ctx.company
        (thread,) = choose(self.id, ctx.variant, self._pool(ctx))
        room, parent, me, since = thread.room, thread.parent, ws.me, ws.start
        customer = company.customer(thread.customer)
        contact, author = customer.contacts[0], ws.users[parent.user]
        email = contact.email.lower()
        prompt = (
            f"You are {me.real_name} (@{me.handle}). {author.real_name} started a thread in #{room.name} about "
            f"{customer.name}. Reply in that thread (not as a new channel message) to say that the customer's main "
            f"contact is {contact.name}, {contact.email}."
        )

        answer = Answer(
            place=f"{author.real_name}'s thread in #{room.name}",
            inside=lambda m: m.channel_id == room.id and m.thread_ts == parent.ts and m.ts != parent.ts,
            prompt=prompt,
            judges=lambda text: (
                judge("emails", emails(text), {email}),
                judge("contacts", ws.contacts.find(text), (), tolerated={email}),
                judge("customers", ws.customers.find(text), (), tolerated={customer.id}, show=lambda c: company.customer(c).name),
            ),
            asserts=lambda text: bool(emails(text) or ws.contacts.find(text)),
            beside=crm_written(ctx),
        )

        async def find_parent(tools: Tools) -> str:
            found = await tools.call("slack_search_messages", query=f'"{customer.name}" in:#{room.name} from:@{author.handle}')
            return next(m["ts"] for m in found["messages"]["matches"] if m["ts"] == (m.get("thread_ts") or m["ts"]))

        async def oracle(tools: Tools) -> None:
            text = f"The main contact at {customer.name} is {contact.name} ({contact.email}, {contact.title})."
            await tools.call("slack_reply_to_thread", channel_id=room.id, thread_ts=await find_parent(tools), text=text)

        async def under_last_reply(tools: Tools) -> None:
            """Another path and form: reply to the thread's last message, mailto link, labelled mention, '&'."""
            replies = await tools.call("slack_get_thread_replies", channel_id=room.id, thread_ts=await find_parent(tools))
            last = replies["messages"][-1]["ts"]
            text = (f"<@{author.id}|{author.handle}> main contact for {customer.name.replace(' and ', ' & ')} is "
                    f"{contact.name} — <mailto:{contact.email}|{contact.email}>")
            await tools.call("slack_reply_to_thread", channel_id=room.id, thread_ts=last, text=text)

        others = [c for c in company.customers if c.id != customer.id and c.contacts]
        wrong_contact = customer.contacts[1] if len(customer.contacts) > 1 else (others[0] if others else customer).contacts[-1]
        right = f"Main contact: {contact.name}, {contact.email}"
        everyone = "; ".join(f"{k.name} {k.email}" for c in company.customers for k in c.contacts)

        async def shotgun(tools: Tools) -> None:
            await post(tools, room.id, right)
            for ts in (parent.ts, *thread.others[:5]):
                await post(tools, room.id, right, thread_ts=ts)

        return TaskInstance(
            prompt=prompt,
            checks=[Check("replied in the right thread with the contact, and no other", answer.check(me.id, since))],
            expected=[
                allow_posts(room.id, me.id, thread_ts=parent.ts),
                allow_thread_start(room.id, parent.ts),
                allow_acknowledgement(room.id, parent.ts, me.id),
                *careful_steps(me.id, ws.public),
            ],
            oracle=oracle,
            alternatives=(under_last_reply,),
            moves=Moves(
                say=lambda tools, text: post(tools, room.id, text, thread_ts=parent.ts),
                wrong=lambda tools: post(tools, room.id, f"Main contact: {wrong_contact.name}, {wrong_contact.email}", thread_ts=parent.ts),
                everything=lambda tools: post(tools, room.id, f"Contacts: {everyone}", thread_ts=parent.ts),
                wrong_record=lambda tools: post(tools, room.id, right, thread_ts=thread.others[0] if thread.others else None),
                shotgun=shotgun,
                wreck=wreck,
            ),
            facts={"channel": room.id, "thread_ts": parent.ts, "contact": contact.email},
        )


_CELEBRATIONS = frozenset({"kudos", "announcements", "sales-wins"})


def _threads(ctx: SampleContext) -> list[_Thread]:
    """Top-level messages naming exactly one customer, the only one by their author in that
    channel naming that customer, by a colleague whose name nobody else has."""
    ws, company = workspace(ctx), ctx.company
    contact_names = ws.contacts.ambiguous
    by_room: dict[str, list[tuple[Post, str]]] = {}
    tops: dict[str, list[str]] = {}
    for message in ws.posts:
        if not message.top_level:
            continue
        tops.setdefault(message.channel, []).append(message.ts)
        for customer in ws.customers.find(message.text):
            by_room.setdefault(message.channel, []).append((message, customer))
    found = []
    for room in ws.rooms:
        if room.name in _CELEBRATIONS:
            continue  # a shout-out or a win announced: nobody asks there who the customer's contact is
        named = by_room.get(room.id, [])
        counts: dict[tuple[str, str], int] = {}  # (author, customer) -> their top-level posts naming it
        alone: dict[str, int] = {}  # ts -> how many customers the post names
        for message, customer in named:
            counts[(message.user, customer)] = counts.get((message.user, customer), 0) + 1
            alone[message.ts] = alone.get(message.ts, 0) + 1
        for message, customer_id in named:
            if alone[message.ts] != 1:
                continue  # about several customers: not "the thread about" one of them
            author = ws.users.get(message.user)
            customer = company.customer(customer_id)
            if counts[(message.user, customer_id)] != 1 or author is None or author.is_bot or author.id == ws.me.id:
                continue
            if author.id in ws.people.ambiguous or customer_id in ws.customers.ambiguous or not customer.contacts:
                continue
            if customer.contacts[0].email.lower() in contact_names:
                continue
            others = tuple(ts for ts in reversed(tops[room.id]) if ts != message.ts)
            found.append(_Thread(room, message, customer_id, others))
    return found
