"""chat/post-in-channel-v1: tell a team, in that team's channel, about a schedule change.

Graded over everything the agent posted in that channel: it must name the customer, the day
and the time, in any common format, and no other customer, day or time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from graders.checks import Check
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.chat._common import Answer, allow_follow_ups, allow_posts, careful_steps, is_top_level, post, post_everywhere, wreck
from tasks.crm._notes import written as crm_written
from tasks.chat._workspace import Room, workspace
from officegym.core import clock
from tasks.common.answers import days, judge, parse_time, restated, time_readings, times
from tasks.common.variants import cached, choose, count, shuffled

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_TIMES = ("9:30 AM", "10:00 AM", "11:15 AM", "1:00 PM", "2:30 PM", "3:45 PM", "4:00 PM")
_EVENTS = ("renewal call", "quarterly business review", "onboarding kickoff", "escalation review", "roadmap briefing")
# The teams (by slug) that take part in each kind of customer meeting: People Operations hears of no renewal call.
_ATTENDS = {"renewal call": ("sales", "customer-success"), "quarterly business review": ("sales", "customer-success"),
            "onboarding kickoff": ("customer-success", "support"), "escalation review": ("support", "engineering", "customer-success"),
            "roadmap briefing": ("product", "engineering", "sales")}


@dataclass(frozen=True, slots=True)
class _Pool:
    meetings: tuple[tuple[tuple[str, Room], str], ...]  # ((team name, its channel), a meeting that team takes part in)
    customers: tuple[tuple[str, str], ...]  # (id, name), only names no other entity shares
    events: tuple[str, ...]  # every kind of meeting (the meetings pair each with the teams in it)
    days: tuple[str, ...]
    times: tuple[str, ...]

    @property
    def teams(self) -> tuple[tuple[str, Room], ...]:
        return tuple(dict.fromkeys(team for team, _event in self.meetings))

    @property
    def axes(self) -> tuple[tuple, ...]:
        return (self.meetings, self.customers, self.days, self.times)


class PostInChannel:
    id = "chat/post-in-channel-v1"
    apps = ("chat",)
    difficulty = "easy"
    summary = "Post an update about a customer meeting in the right team's channel, with the customer, day and time."

    def _pool(self, ctx: SampleContext) -> _Pool:
        def build() -> _Pool:
            ws = workspace(ctx)
            teams = [(t.slug, t.name, ws.room(t.slug)) for t in ctx.company.teams if t.slug != "exec"]
            meetings = [((name, room), event) for slug, name, room in teams if room is not None and not room.is_private
                        for event in _EVENTS if slug in _ATTENDS[event]]
            customers = [(c.id, c.name) for c in ctx.company.customers if c.id not in ws.customers.ambiguous]
            return _Pool(*(shuffled(self.id, ctx, axis, str(i)) for i, axis in enumerate((meetings, customers, _EVENTS, _DAYS, _TIMES))))

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx).axes)

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws, pool = workspace(ctx), self._pool(ctx)
        ((team, room), event), (customer_id, customer), day, time = choose(self.id, ctx.variant, *pool.axes)
        me, since, clock_time = ws.me, ws.start, parse_time(time)
        today = clock.now(ctx.db).date()  # "tomorrow" or "6/12" in a post names a weekday as of the task's day
        prompt = (
            f"You are {me.real_name} (@{me.handle}). The {customer} {event} has moved to {day} at {time}. "
            f"Let the {team} team know in their team channel in Slack (a normal post, not a thread reply): "
            "name the customer, the day and the time."
        )

        answer = Answer(
            place=f"a top-level post in #{room.name}",
            inside=lambda m: m.channel_id == room.id and is_top_level(m),
            prompt=prompt,
            judges=lambda text: (
                judge("customers", ws.customers.find(text), {customer_id}, show=lambda c: _name(ctx, c)),
                judge("days", days(text, today), {day}),
                judge("times", restated(times(text), clock_time), {clock_time}, readings=time_readings),
            ),
            asserts=lambda text: bool(ws.customers.find(text) or days(text, today) or times(text)),
            beside=crm_written(ctx),
            beneath=True,
        )

        async def oracle(tools: Tools) -> None:
            info = await tools.call("slack_get_channel_info", channel_id=f"#{room.name}")
            text = f"Heads up team: the {customer} {event} has moved to {day} at {time}."
            await tools.call("slack_post_message", channel_id=info["channel"]["id"], text=text)

        async def terse(tools: Tools) -> None:
            """Another path and format: list channels, join, 24-hour time, weekday abbreviation, '&'."""
            listed = await tools.call("slack_list_channels", limit=200)
            target = next(c["id"] for c in listed["channels"] if c["name"] == room.name)
            await tools.call("slack_join_channel", channel_id=target)
            text = f"FYI {customer.replace(' and ', ' & ')} {event} → {day[:3]} {clock_time} (moved)"
            await tools.call("slack_post_message", channel_id=target, text=text)

        others = [r for _, r in pool.teams if r.id != room.id]
        wrong_time = next(t for t in _TIMES if t != time)
        wrong_day = next(d for d in _DAYS if d != day)
        right_text = f"Heads up team: the {customer} {event} has moved to {day} at {time}."

        async def say(tools: Tools, text: str) -> None:
            await post(tools, room.id, text)

        async def wrong(tools: Tools) -> None:
            await post(tools, room.id, f"Heads up team: the {customer} {event} has moved to {wrong_day} at {wrong_time}.")

        async def everything(tools: Tools) -> None:
            names = ", ".join(name for _, name in pool.customers)
            await post(tools, room.id, f"Meetings moved: {names} — {', '.join(_DAYS)} at {', '.join(_TIMES)}.")

        elsewhere = others[0] if others else next((r for r in ws.rooms if r.id != room.id and not r.is_private), room)

        async def wrong_record(tools: Tools) -> None:
            await post(tools, elsewhere.id, right_text)

        async def shotgun(tools: Tools) -> None:
            await post_everywhere(tools, [room.id, *(r.id for r in others)], right_text)

        return TaskInstance(
            prompt=prompt,
            checks=[Check(f"posted the update in #{room.name}", answer.check(me.id, since))],
            expected=[allow_posts(room.id, me.id), *allow_follow_ups(room.id, me.id, since), *careful_steps(me.id, ws.public)],
            oracle=oracle,
            alternatives=(terse,),
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=wreck),
            facts={"channel": room.id, "customer": customer, "day": day, "time": time},
        )


def _name(ctx: SampleContext, customer_id: str) -> str:
    return ctx.company.customer(customer_id).name
