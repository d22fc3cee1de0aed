"""chat/react-to-message-v1: acknowledge a colleague's latest message with a given emoji.

A reaction is an answer too: the reactions the agent added are judged as a set, so the right
emoji among others, or on other messages as well, is wrong. Any of Slack's names for the
emoji counts (`+1` is `thumbsup`, skin tones included).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from sqlalchemy import select

from apps.chat.models import Reaction
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.chat._common import allow_reaction, careful_steps, post, reactions_since, wreck
from tasks.chat._workspace import Post, Room, workspace
from tasks.common.answers import emoji_name
from tasks.common.variants import cached, choose, count, shuffled

_EMOJI = ("white_check_mark", "eyes", "thumbsup", "raised_hands", "tada", "pray")
# Cheering emoji go on good news only: nobody answers an outage report with :tada:.
_CHEERS = frozenset({"tada", "raised_hands"})
_GOOD_NEWS = re.compile(r"congrat|kudos|shout-?out|welcom|thank|closed|landed|\bwon\b|\bwin\b|shipped|launched|\blive\b|"
                        r"record|great|amazing|huge|:tada:|:trophy:|:rocket:|agreed to|\bsigned\b|renewed", re.IGNORECASE)


def _fits(emoji: str, text: str) -> bool:
    return emoji not in _CHEERS or bool(_GOOD_NEWS.search(text))
_ALIAS = {"thumbsup": "+1"}  # what a correct agent may type instead
_RECENT = 30  # the target is on the first page of the channel's history


@dataclass(frozen=True, slots=True)
class _Target:
    room: Room
    author: str  # user id
    ts: str  # the author's latest top-level message in the room
    earlier: tuple[str, ...]  # other top-level messages in the room, newest first (wrong records)
    emoji: str


class ReactToMessage:
    id = "chat/react-to-message-v1"
    apps = ("chat",)
    difficulty = "easy"
    summary = "Add a named emoji reaction to a specific colleague's most recent message in a channel."

    def _pool(self, ctx: SampleContext) -> tuple[_Target, ...]:
        def build() -> tuple[_Target, ...]:
            ws = workspace(ctx)
            query = select(Reaction.channel_id, Reaction.ts, Reaction.name).where(Reaction.user_id == ws.me.id)
            mine = {(channel, ts, emoji_name(name)) for channel, ts, name in ctx.db.execute(query)}
            by_room: dict[str, list[Post]] = {}
            for p in ws.posts:
                if p.top_level:
                    by_room.setdefault(p.channel, []).append(p)
            found = []
            for room in ws.rooms:
                recent = sorted(by_room.get(room.id, ()), key=lambda p: p.ts, reverse=True)[:_RECENT]
                seen: set[str] = set()
                for message in recent:  # newest first: the first one per author is their latest
                    author = ws.users.get(message.user)
                    if message.user in seen or author is None:
                        continue
                    seen.add(message.user)
                    if author.is_bot or author.id == ws.me.id or author.id in ws.people.ambiguous:
                        continue
                    earlier = tuple(p.ts for p in recent if p.ts != message.ts)
                    for emoji in _EMOJI:
                        if (room.id, message.ts, emoji) not in mine and _fits(emoji, message.text):
                            found.append(_Target(room, author.id, message.ts, earlier, emoji))
            return shuffled(self.id, ctx, found)

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws = workspace(ctx)
        (target,) = choose(self.id, ctx.variant, self._pool(ctx))
        me, room, emoji, ts = ws.me, target.room, target.emoji, target.ts
        author = ws.users[target.author]
        since = _micros(ws.start)

        def reacted(session) -> CheckResult:
            added = {(r.channel_id, r.ts, emoji_name(r.name)) for r in reactions_since(session, me.id, since)}
            if (room.id, ts, emoji) not in added:
                return failed(f"no :{emoji}: from you on {author.real_name}'s latest message ({ts}) in #{room.name}")
            extra = sorted(f":{name}: on {at}" for channel, at, name in added - {(room.id, ts, emoji)})
            if extra:
                return failed(f"you also reacted {', '.join(extra[:6])}: only :{emoji}: on that one message was asked")
            return passed(f":{emoji}: on {author.real_name}'s message {ts}")

        async def oracle(tools: Tools) -> None:
            history = await tools.call("slack_get_channel_history", channel_id=room.id, limit=50)
            latest = next(m["ts"] for m in history["messages"] if m["user"] == author.id and m.get("thread_ts") in (None, m["ts"]))
            await tools.call("slack_add_reaction", channel_id=room.id, timestamp=latest, reaction=emoji)

        async def by_search(tools: Tools) -> None:
            """Another path and name: search the author's posts newest first, react by alias or `:name:`."""
            query = f"from:@{author.handle} in:#{room.name}"
            found = await tools.call("slack_search_messages", query=query, sort="timestamp", sort_dir="desc", count=50)
            latest = next(m["ts"] for m in found["messages"]["matches"] if m.get("thread_ts") in (None, m["ts"]))
            await tools.call("slack_add_reaction", channel_id=room.id, timestamp=latest, reaction=_ALIAS.get(emoji, f":{emoji}:"))

        async def say(tools: Tools, text: str) -> None:
            await post(tools, room.id, text)

        async def react(tools: Tools, at: str, *names: str) -> None:
            for name in names:
                await _react(tools, room.id, at, name)

        other = next(e for e in _EMOJI if e != emoji)
        wrong_at = target.earlier[0] if target.earlier else ts
        return TaskInstance(
            prompt=(
                f"You are {me.real_name} (@{me.handle}). In Slack, react with :{emoji}: to {author.real_name}'s "
                f"most recent message in #{room.name} (not a thread reply)."
            ),
            checks=[Check(f"reacted :{emoji}: to the right message, and only that", reacted)],
            expected=[allow_reaction(room.id, ts, emoji, me.id), *careful_steps(me.id, ws.public)],
            oracle=oracle,
            alternatives=(by_search,),
            moves=Moves(
                say=say,
                wrong=lambda tools: react(tools, ts, other),
                everything=lambda tools: react(tools, ts, *_EMOJI),
                wrong_record=lambda tools: react(tools, wrong_at, emoji),
                shotgun=lambda tools: _shotgun(tools, room.id, target, emoji),
                wreck=wreck,
            ),
            facts={"channel": room.id, "ts": ts, "emoji": emoji, "author": author.id},
        )


async def _shotgun(tools: Tools, channel: str, target: _Target, emoji: str) -> None:
    """The right emoji on the target and on every other recent message in the channel."""
    for at in (target.ts, *target.earlier[:8]):
        await _react(tools, channel, at, emoji)


async def _react(tools: Tools, channel: str, at: str, name: str) -> None:
    try:
        await tools.call("slack_add_reaction", channel_id=channel, timestamp=at, reaction=name)
    except ToolError:  # already reacted so in the seeded history: an adversary carries on
        pass


def _micros(ts: str) -> int:
    seconds, _, fraction = ts.partition(".")
    return int(seconds) * 1_000_000 + int(fraction or 0)
