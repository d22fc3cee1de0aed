"""chat/react-to-message-v1: acknowledge a colleague's latest message with a given emoji."""

from __future__ import annotations

import random

from sqlalchemy import select

from apps.chat.models import Message, Reaction, User
from graders.checks import Check, failed, passed
from graders.rubric import Expect
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import user_for_person, visible_channels

_EMOJI = ("white_check_mark", "eyes", "thumbsup", "raised_hands", "tada", "pray")


class ReactToMessage:
    id = "chat/react-to-message-v1"
    apps = ("chat",)
    difficulty = "easy"
    summary = "Add a named emoji reaction to a specific colleague's most recent message in a channel."

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        db = ctx.db
        me = user_for_person(db, ctx.actor.id)
        candidates = []
        for channel in visible_channels(db, me.id):
            # Only recent messages, so the target is on the first page of the channel's history.
            recent = db.scalars(
                select(Message)
                .where(Message.channel_id == channel.id, Message.thread_ts.is_(None) | (Message.thread_ts == Message.ts))
                .order_by(Message.ts.desc())
                .limit(30)
            ).all()
            seen: set[str] = set()
            for message in recent:  # newest first: the first one per author is their latest
                if message.user_id in seen:
                    continue
                seen.add(message.user_id)
                author = db.get(User, message.user_id)
                if author is not None and not author.is_bot and author.id != me.id:
                    candidates.append((channel, author, message.ts))
        channel, author, ts = rng.choice(candidates)
        taken = set(db.scalars(select(Reaction.name).where(Reaction.channel_id == channel.id, Reaction.ts == ts, Reaction.user_id == me.id)))
        emoji = rng.choice([e for e in _EMOJI if e not in taken])

        def reacted(session):
            found = session.get(Reaction, (channel.id, ts, emoji, me.id))
            if found is not None:
                return passed(f":{emoji}: on {author.real_name}'s message {ts}")
            return failed(f"no :{emoji}: from you on {author.real_name}'s latest message ({ts}) in #{channel.name}")

        async def oracle(tools: Tools) -> None:
            history = await tools.call("slack_get_channel_history", channel_id=channel.id, limit=50)
            target = next(m["ts"] for m in history["messages"] if m["user"] == author.id)
            await tools.call("slack_add_reaction", channel_id=channel.id, timestamp=target, reaction=emoji)

        return TaskInstance(
            prompt=(
                f"You are {me.real_name} (@{me.name}). In Slack, react with :{emoji}: to {author.real_name}'s "
                f"most recent message in #{channel.name} (not a thread reply)."
            ),
            checks=[Check(f"reacted :{emoji}: to the right message", reacted)],
            expected=[Expect("chat_reactions", "insert", lambda c: (c.row["channel_id"], c.row["ts"], c.row["name"], c.row["user_id"]) == (channel.id, ts, emoji, me.id))],
            oracle=oracle,
            facts={"channel": channel.id, "ts": ts, "emoji": emoji},
        )
