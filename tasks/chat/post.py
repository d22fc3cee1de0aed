"""chat/post-in-channel-v1: tell a team, in that team's channel, about a schedule change."""

from __future__ import annotations

import random

from sqlalchemy import select

from apps.chat.models import Channel
from graders.checks import Check
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import allow_join, allow_messages_in, contains, first_match, new_messages, start_ts, user_for_person

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_TIMES = ("9:30 AM", "10:00 AM", "11:15 AM", "1:00 PM", "2:30 PM", "3:45 PM", "4:00 PM")
_EVENTS = ("renewal call", "quarterly business review", "onboarding kickoff", "escalation review", "roadmap briefing")


class PostInChannel:
    id = "chat/post-in-channel-v1"
    apps = ("chat",)
    difficulty = "easy"
    summary = "Post an update about a customer meeting in the right team's channel, with the customer, day and time."

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        db, company = ctx.db, ctx.company
        me = user_for_person(db, ctx.actor.id)
        names = set(db.scalars(select(Channel.name).where(Channel.is_private.is_(False), Channel.is_im.is_(False))))
        teams = [t for t in company.teams if t.slug in names and t.slug != "exec"]
        team = rng.choice(teams)
        channel = db.scalars(select(Channel).where(Channel.name == team.slug, Channel.is_im.is_(False))).one()
        customer = rng.choice(company.customers)
        event, day, time = rng.choice(_EVENTS), rng.choice(_DAYS), rng.choice(_TIMES)
        since = start_ts(db)

        def is_update(message) -> bool:
            text = message.text
            return message.thread_ts in (None, message.ts) and all(contains(text, part) for part in (customer.name, day, time))

        def posted(session):
            return first_match(
                new_messages(session, me.id, since, channel.id), is_update,
                f"a top-level post naming {customer.name}, {day} and {time}",
                f"nothing posted in #{channel.name}",
            )

        async def oracle(tools: Tools) -> None:
            info = await tools.call("slack_get_channel_info", channel_id=f"#{team.slug}")
            target = info["channel"]["id"]
            text = f"Heads up team: the {customer.name} {event} has moved to {day} at {time}."
            await tools.call("slack_post_message", channel_id=target, text=text)

        return TaskInstance(
            prompt=(
                f"You are {me.real_name} (@{me.name}). The {customer.name} {event} has moved to {day} at {time}. "
                f"Let the {team.name} team know in their team channel in Slack (a normal post, not a thread reply): "
                "name the customer, the day and the time."
            ),
            checks=[Check(f"posted the update in #{channel.name}", posted)],
            expected=[allow_messages_in(channel.id, me.id), allow_join(channel.id, me.id)],
            oracle=oracle,
            facts={"channel": channel.id, "customer": customer.name, "day": day, "time": time},
        )
