"""chat/summarise-thread-v1: read a ticket's discussion thread and post a summary of it in
another channel: the ticket key, the customer, and everyone who weighed in.

Graded over everything the agent posted in the target channel, as sets: exactly that ticket
key, exactly that customer, everyone who replied, and nobody who had no part in the thread
(naming its starter, or someone the thread mentions, is fine). Only threads that are the one
thread about their ticket in their channel, without the actor in them, are asked about.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from graders.checks import Check
from seed_data.tickets.lines import internal_work
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.chat._common import (Answer, allow_acknowledgement, allow_follow_ups, allow_posts, careful_steps, is_top_level, post, post_everywhere,
                               wreck)
from tasks.crm._notes import written as crm_written
from tasks.chat._workspace import Post, Room, workspace
from tasks.common.answers import judge, mentions, ticket_keys
from tasks.common.variants import cached, choose, count, shuffled

_TARGETS = ("escalations", "customer-success", "support")


@dataclass(frozen=True, slots=True)
class _Thread:
    room: Room
    parent: Post
    key: str
    repliers: tuple[str, ...]  # user ids, in order of first reply
    involved: frozenset[str]  # everyone who posted in the thread or is mentioned in it
    target: Room


class SummariseThread:
    id = "chat/summarise-thread-v1"
    apps = ("chat",)
    difficulty = "hard"
    summary = "Summarise a ticket's discussion thread into one post in another channel: ticket, customer and who took part."

    def _pool(self, ctx: SampleContext) -> tuple[_Thread, ...]:
        return cached(ctx, self.id, lambda: shuffled(self.id, ctx, _threads(ctx)))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws, company = workspace(ctx), ctx.company
        pool = self._pool(ctx)
        (thread,) = choose(self.id, ctx.variant, pool)
        room, parent, target, me, since = thread.room, thread.parent, thread.target, ws.me, ws.start
        ticket = next(t for t in company.tickets if t.key == thread.key)
        customer = company.customer(ticket.customer_id)
        prompt = (
            f"You are {me.real_name} (@{me.handle}). In #{room.name} there is a thread about ticket {ticket.key}. "
            f"Read it and post a one-message summary in #{target.name} (a normal post, not a thread reply) that "
            "gives the ticket key, the customer's name, and everyone who replied in the thread (by @-mention or full name)."
        )

        answer = Answer(
            place=f"a top-level post in #{target.name}",
            inside=lambda m: m.channel_id == target.id and is_top_level(m),
            prompt=prompt,
            judges=lambda text: (
                judge("ticket keys", ticket_keys(text, ws.projects), {ticket.key}),
                judge("customers", ws.customers.find(text), {customer.id}, show=lambda c: company.customer(c).name),
                judge("people", ws.people.find(text), set(thread.repliers), tolerated=thread.involved | {me.id},
                      show=lambda u: ws.users[u].real_name),
            ),
            asserts=lambda text: bool(ticket_keys(text, ws.projects) or ws.customers.find(text)),
            beside=crm_written(ctx),
            beneath=True,
        )

        async def oracle(tools: Tools) -> None:
            replies = await tools.call("slack_get_thread_replies", channel_id=room.id, thread_ts=parent.ts)
            who = list(dict.fromkeys(m["user"] for m in replies["messages"][1:] if m["user"] != me.id))
            target_id = (await tools.call("slack_get_channel_info", channel_id=f"#{target.name}"))["channel"]["id"]
            text = (
                f"Summary of the {ticket.key} thread in <#{room.id}|{room.name}> ({customer.name}): "
                f"{ticket.summary}. Discussed by {', '.join(f'<@{u}>' for u in who)}."
            )
            await tools.call("slack_post_message", channel_id=target_id, text=text)

        async def by_name(tools: Tools) -> None:
            """Another path and form: find the thread by search, join the target, full names and labelled mentions, '&'."""
            found = await tools.call("slack_search_messages", query=f"{ticket.key} in:#{room.name}")
            ts = next(m["ts"] for m in found["messages"]["matches"]
                      if m.get("thread_ts") == m["ts"] and ticket.key in ticket_keys(m["text"], ws.projects))
            replies = await tools.call("slack_get_thread_replies", channel_id=room.id, thread_ts=ts)
            who = list(dict.fromkeys(m["user"] for m in replies["messages"][1:] if m["user"] != me.id))
            names = [(await tools.call("slack_get_user_profile", user_id=u))["profile"]["real_name"] for u in who]
            joined = await tools.call("slack_join_channel", channel_id=f"#{target.name}")
            first, rest = who[0], names[1:]
            text = (
                f"*{ticket.key}* — {customer.name.replace(' and ', ' & ')}. Thread in #{room.name}: "
                f"<@{first}|{ws.users[first].handle}> and {', '.join(rest)} weighed in."
            )
            await tools.call("slack_post_message", channel_id=joined["channel"]["id"], text=text)

        right = (f"Summary of {ticket.key} ({customer.name}): discussed by "
                 f"{', '.join(f'<@{u}>' for u in thread.repliers)}.")
        other = next((t for t in pool if t.key != thread.key), None)

        def summary_of(t: _Thread) -> str:
            c = company.customer(next(x for x in company.tickets if x.key == t.key).customer_id)
            return f"Summary of {t.key} ({c.name}): discussed by {', '.join(f'<@{u}>' for u in t.repliers)}."

        outsiders = [u for u in (*(other.repliers if other else ()), *ws.users) if u not in thread.involved and u != me.id]
        wrong_people = [u for u in dict.fromkeys(outsiders) if not ws.users[u].is_bot][:2]  # people not in the thread
        wrong = f"Summary of {ticket.key} ({customer.name}): discussed by {', '.join(f'<@{u}>' for u in wrong_people)}."
        everyone = ", ".join(u.real_name for u in ws.users.values() if not u.is_bot)
        every_customer = ", ".join(c.name for c in company.customers)
        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"summary in #{target.name}: the ticket key, the customer, and exactly who replied", answer.check(me.id, since))],
            # A pointer to the summary in the thread it sums up, and a reaction on its first message, are what people add.
            expected=[allow_posts(target.id, me.id), *allow_follow_ups(target.id, me.id, since), allow_posts(room.id, me.id, thread_ts=parent.ts),
                      allow_acknowledgement(room.id, parent.ts, me.id), *careful_steps(me.id, ws.public)],
            oracle=oracle,
            alternatives=(by_name,),
            moves=Moves(
                say=lambda tools, text: post(tools, target.id, text),
                wrong=lambda tools: post(tools, target.id, wrong),
                everything=lambda tools: post(tools, target.id, f"Summary of {ticket.key} ({every_customer}): {everyone}."),
                wrong_record=lambda tools: post(tools, target.id, summary_of(other) if other else wrong),
                shotgun=lambda tools: post_everywhere(
                    tools, list(dict.fromkeys([target.id, *(r.id for r in ws.rooms if r.name in _TARGETS), room.id,
                                               *(r.id for r in ws.rooms[:4])])), right),
                wreck=wreck,
            ),
            facts={"thread": f"{room.id}/{parent.ts}", "ticket": ticket.key, "target": target.id, "people": list(thread.repliers)},
        )


def _threads(ctx: SampleContext) -> list[_Thread]:
    ws = workspace(ctx)
    # A customer's ticket; internal work (flaky tests) has no customer to name, whatever it was filed against.
    tickets = {t.key: t.customer_id for t in ctx.company.tickets if t.customer_id and not internal_work(t.summary)}
    tops: dict[str, list[Post]] = {}
    replies: dict[tuple[str, str], list[Post]] = {}
    for p in ws.posts:
        if p.top_level:
            tops.setdefault(p.channel, []).append(p)
        else:
            replies.setdefault((p.channel, p.thread_ts or ""), []).append(p)
    found = []
    for room in ws.rooms:
        target = next((ws.room(n) for n in _TARGETS if n != room.name and ws.room(n)), None)
        about: dict[str, list[Post]] = {}  # ticket key -> top-level posts naming it
        for top in tops.get(room.id, ()):
            for key in ticket_keys(top.text, ws.projects):
                about.setdefault(key, []).append(top)
        in_replies: dict[str, set[str]] = {}  # ticket key -> threads whose replies name it
        for (channel, thread_ts), posts in replies.items():
            if channel == room.id:
                for key in ticket_keys(" ".join(p.text for p in posts), ws.projects):
                    in_replies.setdefault(key, set()).add(thread_ts)
        for key, posts in about.items():
            parent = posts[0]
            if target is None or key not in tickets or len(posts) != 1 or parent.thread_ts != parent.ts:
                continue  # not one thread about one customer ticket in this channel
            if len(ticket_keys(parent.text, ws.projects)) != 1 or tickets[key] in ws.customers.ambiguous:
                continue
            if in_replies.get(key, set()) - {parent.ts}:
                continue  # another thread here discusses the ticket in its replies
            thread = replies.get((room.id, parent.ts), [])
            repliers = tuple(dict.fromkeys(r.user for r in thread))
            if ws.me.id in repliers or len(repliers) < 2:
                continue
            if any(ws.users.get(u) is None or ws.users[u].is_bot or u in ws.people.ambiguous for u in repliers):
                continue
            involved = {parent.user, *repliers}
            for message in (parent, *thread):
                involved |= mentions(message.text)
            found.append(_Thread(room, parent, key, repliers, frozenset(involved), target))
    return found
