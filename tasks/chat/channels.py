"""chat/create-channel-and-invite-v1: set up a private account channel with the right people.

What the task allows is exactly what a correct solution makes: the one channel (private, live,
any topic or purpose), its account team as members, and what sets it up: posts in it (a welcome
message), a pin of one. The
channels the agent created are judged as a set too: a wrong channel made on the way fails.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from sqlalchemy import select

from apps.chat.models import Channel, Member
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.chat._common import careful_steps, post, wreck
from tasks.chat._workspace import workspace
from tasks.common.variants import cached, choose, count, shuffled


def channel_slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60]


@dataclass(frozen=True, slots=True)
class _Account:
    customer: str  # customer id
    name: str  # the channel to create
    team: tuple[str, ...]  # person ids to invite (owner, CSM, head of support), without the actor


class CreateChannelAndInvite:
    id = "chat/create-channel-and-invite-v1"
    apps = ("chat",)
    difficulty = "medium"
    summary = "Create a private channel for a customer account and invite exactly its account team."

    def _pool(self, ctx: SampleContext) -> tuple[_Account, ...]:
        def build() -> tuple[_Account, ...]:
            ws, company = workspace(ctx), ctx.company
            existing = set(ctx.db.scalars(select(Channel.name)))
            slugs: dict[str, int] = {}
            for c in company.customers:
                slugs[channel_slug(c.name)] = slugs.get(channel_slug(c.name), 0) + 1
            lead = company.team("support").lead_id
            found = []
            for c in company.customers:
                name = f"proj-{channel_slug(c.name)}"
                team = tuple(p for p in dict.fromkeys((c.owner_id, c.csm_id, lead)) if p and p != ctx.actor.id)
                users = [ws.user_of(p) for p in team]
                if not c.csm_id or c.csm_id == ctx.actor.id or name in existing or slugs[channel_slug(c.name)] > 1:
                    continue
                if any(u is None or u.id in ws.people.ambiguous for u in users):
                    continue  # the prompt names them: nobody else may share a name
                found.append(_Account(c.id, name, team))
            return shuffled(self.id, ctx, found)

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws, company = workspace(ctx), ctx.company
        pool = self._pool(ctx)
        (account,) = choose(self.id, ctx.variant, pool)
        me, name, since = ws.me, account.name, int(ws.start.split(".")[0])
        customer = company.customer(account.customer)
        people = [company.person(p) for p in account.team]
        invitees = [ws.user_of(p) for p in account.team]
        members = {me.id, *(u.id for u in invitees)}

        def made(session) -> list[Channel]:
            query = select(Channel).where(
                Channel.creator == me.id, Channel.created >= since, Channel.is_im.is_(False), Channel.is_mpim.is_(False)
            )
            return list(session.scalars(query))

        def usable(session) -> Channel | str:
            """The channel asked for, if it is what was asked: private and not archived."""
            channel = session.scalars(select(Channel).where(Channel.name == name, Channel.creator == me.id)).first()
            if channel is None:
                return f"no channel named #{name}"
            if not channel.is_private or channel.is_archived:
                return f"#{name} is {'public' if not channel.is_private else 'archived'}"
            return channel

        def created(session) -> CheckResult:
            channel = usable(session)
            if isinstance(channel, str):
                return failed(channel)
            extra = sorted(f"#{c.name}" for c in made(session) if c.id != channel.id)
            if extra:
                return failed(f"you also created {', '.join(extra)}: only #{name} was asked for")
            return passed(f"#{name} is private")

        def membership(session) -> CheckResult:
            channel = usable(session)
            if isinstance(channel, str):
                return failed(channel)
            have = set(session.scalars(select(Member.user_id).where(Member.channel_id == channel.id)))
            missing, extra = members - have, have - members
            if not missing and not extra:
                return passed(f"members are exactly {sorted(members)}")
            return failed(f"missing {sorted(missing)}; not expected {sorted(extra)}")

        def new_channel_id(session) -> str | None:
            return session.scalars(select(Channel.id).where(Channel.name == name, Channel.creator == me.id)).first()

        async def oracle(tools: Tools) -> None:
            made_ = await tools.call("slack_create_channel", name=name, is_private=True)
            ids = [(await tools.call("slack_lookup_user_by_email", email=p.email))["user"]["id"] for p in people]
            await tools.call("slack_invite_to_channel", channel_id=made_["channel"]["id"], users=",".join(ids))

        async def by_directory(tools: Tools) -> None:
            """Another path: find people in the user list by name, invite one by one, welcome them."""
            made_ = await tools.call("slack_create_channel", name=f"#{name}", is_private=True)
            channel = made_["channel"]["id"]
            for user_id in await _find_users(tools, [p.name for p in people]):
                await tools.call("slack_invite_to_channel", channel_id=channel, users=user_id)
            await tools.call("slack_set_channel_topic", channel_id=channel, topic=f"{customer.name} account team")
            welcome = f"Welcome all — this is the {customer.name} account channel :wave:"
            await tools.call("slack_post_message", channel_id=channel, text=welcome)

        others = [a for a in pool if a.customer != account.customer and set(a.team) != set(account.team)]

        async def make(tools: Tools, channel_name: str, person_ids, private: bool = True) -> None:
            made_ = await tools.call("slack_create_channel", name=channel_name, is_private=private)
            users = [ws.user_of(p).id for p in person_ids if ws.user_of(p) and ws.user_of(p).id != me.id]
            if users:
                await tools.call("slack_invite_to_channel", channel_id=made_["channel"]["id"], users=",".join(dict.fromkeys(users)))

        async def say(tools: Tools, text: str) -> None:
            made_ = await tools.call("slack_create_channel", name=name, is_private=True)
            await post(tools, made_["channel"]["id"], text)

        everyone = [p.id for p in company.people if p.id != ctx.actor.id]
        plausible = [*account.team, *(p.id for p in company.members("support")), *(p.id for p in company.members("customer-success"))]
        owner, csm, lead = (company.person(pid) for pid in (customer.owner_id, customer.csm_id, company.team("support").lead_id))
        return TaskInstance(
            prompt=(
                f"You are {me.real_name} (@{me.handle}). Create a private Slack channel named #{name} for the "
                f"{customer.name} account and invite exactly its account team: the account owner ({owner.name}), "
                f"the customer success manager ({csm.name}) and the head of support ({lead.name}). "
                "Nobody else should be in it besides you."
            ),
            checks=[
                Check(f"#{name} exists, is private, and is the only channel you created", created),
                Check(f"#{name} has exactly the account team", membership, weight=2.0),
            ],
            expected=[
                Expect("chat_channels", "insert", lambda c: c.row["name"] == name and c.row["creator"] == me.id
                       and bool(c.row["is_private"]) and not c.row["is_archived"]),
                Expect("chat_members", "insert", lambda c, new: c.row["channel_id"] == new and c.row["user_id"] in members,
                       given=new_channel_id),
                Expect("chat_messages", "insert", lambda c, new: c.row["channel_id"] == new and c.row["user_id"] == me.id,
                       given=new_channel_id),
                # setting the new channel up: its welcome pinned
                Expect("chat_pins", "insert", lambda c, new: c.row["channel_id"] == new and c.row["pinned_by"] == me.id, given=new_channel_id),
                *careful_steps(me.id, ws.public),
            ],
            oracle=oracle,
            alternatives=(by_directory,),
            moves=Moves(
                say=say,
                wrong=lambda tools: make(tools, others[0].name, others[0].team) if others else make(tools, f"{name}-x", account.team),
                everything=lambda tools: make(tools, name, everyone),
                wrong_record=lambda tools: make(tools, name, others[0].team if others else everyone),
                shotgun=lambda tools: make(tools, name, plausible),
                wreck=wreck,
            ),
            facts={"name": name, "members": sorted(members)},
        )


async def _find_users(tools: Tools, names: list[str]) -> list[str]:
    """User ids by real name, paging through the directory."""
    wanted, found, cursor = set(names), {}, None
    while True:
        page = await tools.call("slack_get_users", limit=200, **({"cursor": cursor} if cursor else {}))
        for user in page["members"]:
            if user.get("real_name") in wanted:
                found[user["real_name"]] = user["id"]
        cursor = page.get("response_metadata", {}).get("next_cursor")
        if not cursor or len(found) == len(wanted):
            return [found[n] for n in names]
