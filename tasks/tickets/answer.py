"""tickets/answer-with-jql-v1: the support lead asks in a Slack DM which open support tickets
of one engineer are urgent; the answer needs a Jira search, and goes back in that DM.

The answer is everything the agent said in the DM since the question, read as the set of
ticket keys it names: exactly the open SUP tickets assigned to that engineer with the priorities
asked (Highest or High, or Highest alone). Only engineers with one to six such tickets are asked about.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from graders.checks import Check
from tasks.base import SampleContext, TaskInstance, Tools
from tasks.chat._common import Answer, answer_moves, answered_in_dm, service_as
from tasks.chat._workspace import workspace
from tasks.common.answers import judge, ticket_keys
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import Person, site, unique_names

URGENT = ("Highest", "High")
_ASKED = (URGENT, ("Highest",))  # the priorities the lead asks about
MAX_KEYS = 6


@dataclass(frozen=True, slots=True)
class _Case:
    engineer: Person
    priorities: tuple[str, ...]
    keys: tuple[str, ...]  # the right answer
    asker: str  # the support lead's chat user id
    dm: str  # the DM between the actor and the asker


class AnswerWithJql:
    id = "tickets/answer-with-jql-v1"
    apps = ("tickets", "chat")
    difficulty = "medium"
    summary = "Answer the support lead's Slack question with a Jira search: an engineer's open urgent SUP tickets."

    def _pool(self, ctx: SampleContext) -> tuple[_Case, ...]:
        def build() -> tuple[_Case, ...]:
            s, ws = site(ctx), workspace(ctx)
            lead_person = ctx.company.team("support").lead_id
            asker = ws.user_of(lead_person if lead_person != ctx.actor.id else ctx.actor.manager_id)
            if asker is None:
                return ()
            dm = service_as(ctx.db, ws.me.id).dm_id(ws.me.id, asker.id)
            cases = []
            for person in unique_names(s.people.values()):
                for priorities in _ASKED:
                    keys = tuple(sorted(t.key for t in s.tickets if t.project == "SUP" and t.assignee == person.account_id
                                        and t.resolution is None and t.priority in priorities))
                    if 1 <= len(keys) <= MAX_KEYS and person.account_id != s.me.account_id:
                        cases.append(_Case(person, priorities, keys, asker.id, dm))
            return shuffled(self.id, ctx, cases)

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws, s = workspace(ctx), site(ctx)
        (case,) = choose(self.id, ctx.variant, self._pool(ctx))
        engineer, priorities, keys, asker, dm = case.engineer, case.priorities, case.keys, ws.users[case.asker], case.dm
        me, since = ws.me, ws.start
        which = " or ".join(priorities)
        question = (f"Quick one: which open support tickets assigned to {engineer.name} are {which} priority? "
                    "I need their keys for the escalation review.")
        prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack with a "
                  "question about Jira. Find the answer in Jira and reply to them in that DM.")

        def setup(session) -> None:
            lead = service_as(session, asker.id)
            lead.conversations_open(me.id)
            lead.chat_post_message(dm, question)

        answer = Answer(
            place=f"your DM with {asker.real_name}",
            inside=lambda m: m.channel_id == dm,
            prompt=prompt,
            judges=lambda text: (judge("ticket keys", ticket_keys(text, ws.projects), set(keys)),),
            asserts=lambda text: bool(ticket_keys(text, ws.projects)),
        )
        jql = f'project = SUP AND assignee = "{engineer.name}" AND resolution = EMPTY AND priority IN ({", ".join(priorities)}) ORDER BY key'

        async def oracle(tools: Tools) -> None:
            found = await tools.call("jira_search", jql=jql, limit=50, fields="summary")
            listed = ", ".join(i["key"] for i in found["issues"])
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"{engineer.name} has these urgent open ones: {listed}.")

        async def by_account_and_thread(tools: Tools) -> None:
            """Another query (by accountId, statusCategory, priority above a level) and a threaded reply."""
            who = await tools.call("jira_get_user_profile", user_identifier=engineer.email)
            above = "Medium" if "High" in priorities else "High"
            found = await tools.call("jira_search", jql=f"assignee = {who['account_id']} AND project = SUP AND statusCategory != Done "
                                                        f"AND priority > {above}", limit=50, fields="priority")
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m["ts"] for m in history["messages"] if m["user"] == asker.id)
            lines = "\n".join(f"• {i['key'].lower()} ({i['priority']['name']})" for i in found["issues"])
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked, text=f"Here you go:\n{lines}")

        every = sorted(t.key for t in s.tickets if t.project == "SUP" and t.resolution is None)
        other_keys = [k for k in every if k not in keys] or [f"SUP-{len(s.tickets) + 1}"]
        return TaskInstance(
            prompt=prompt,
            checks=[Check("answered in the DM with exactly those ticket keys", answer.check(me.id, since))],
            expected=answered_in_dm(dm, me.id, asker.id, question, ws.public),
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(by_account_and_thread,),
            moves=answer_moves(dm, [r.id for r in ws.rooms[:6]], right=", ".join(keys), wrong=f"It's {', '.join([*keys[:-1], other_keys[0]])}.",
                               everything="Any of " + ", ".join(every), wrong_record=f"{', '.join(other_keys[:len(keys)])}."),
            facts={"issue": keys[0], "keys": list(keys), "engineer": engineer.account_id, "priorities": list(priorities), "dm": dm},
        )
