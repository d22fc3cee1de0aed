"""chat/create-channel-and-invite-v1: set up a private account channel with the right people."""

from __future__ import annotations

import random
import re

from sqlalchemy import select

from apps.chat.models import Channel, Member
from graders.checks import Check, failed, passed
from graders.rubric import Expect
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import user_for_person


def channel_slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60]


class CreateChannelAndInvite:
    id = "chat/create-channel-and-invite-v1"
    apps = ("chat",)
    difficulty = "medium"
    summary = "Create a private channel for a customer account and invite exactly its account team."

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        db, company = ctx.db, ctx.company
        me = user_for_person(db, ctx.actor.id)
        existing = set(db.scalars(select(Channel.name)))
        customers = [c for c in company.customers if f"proj-{channel_slug(c.name)}" not in existing and c.csm_id and c.csm_id != ctx.actor.id]
        customer = rng.choice(customers)
        name = f"proj-{channel_slug(customer.name)}"
        support_lead = company.team("support").lead_id
        people = [company.person(pid) for pid in dict.fromkeys((customer.owner_id, customer.csm_id, support_lead)) if pid != ctx.actor.id]
        invitees = [user_for_person(db, p.id) for p in people]
        expected_members = {me.id, *(u.id for u in invitees)}
        known_ids = set(db.scalars(select(Channel.id)))

        def created(session):
            channel = session.scalars(select(Channel).where(Channel.name == name)).first()
            if channel is None:
                return failed(f"no channel named #{name}")
            return passed(f"#{name} is private") if channel.is_private else failed(f"#{name} exists but is public")

        def membership(session):
            channel = session.scalars(select(Channel).where(Channel.name == name)).first()
            if channel is None:
                return failed(f"no channel named #{name}")
            members = set(session.scalars(select(Member.user_id).where(Member.channel_id == channel.id)))
            missing, extra = expected_members - members, members - expected_members
            if not missing and not extra:
                return passed(f"members are exactly {sorted(expected_members)}")
            return failed(f"missing {sorted(missing)}; not expected {sorted(extra)}")

        async def oracle(tools: Tools) -> None:
            made = await tools.call("slack_create_channel", name=name, is_private=True)
            ids = [(await tools.call("slack_lookup_user_by_email", email=p.email))["user"]["id"] for p in people]
            await tools.call("slack_invite_to_channel", channel_id=made["channel"]["id"], users=",".join(ids))

        owner, csm, lead = (company.person(pid) for pid in (customer.owner_id, customer.csm_id, support_lead))
        return TaskInstance(
            prompt=(
                f"You are {me.real_name} (@{me.name}). Create a private Slack channel named #{name} for the "
                f"{customer.name} account and invite exactly its account team: the account owner ({owner.name}), "
                f"the customer success manager ({csm.name}) and the head of support ({lead.name}). "
                "Nobody else should be in it besides you."
            ),
            checks=[
                Check(f"#{name} exists and is private", created),
                Check(f"#{name} has exactly the account team", membership, weight=2.0),
            ],
            expected=[
                Expect("chat_channels", "insert", lambda c: c.row["name"] == name),
                Expect("chat_channels", "update", lambda c: c.row["name"] == name and c.row["id"] not in known_ids),
                Expect("chat_members", "insert", lambda c: c.row["channel_id"] not in known_ids),
            ],
            oracle=oracle,
            facts={"name": name, "members": sorted(expected_members)},
        )
