"""tickets/answer-with-jql-v1: the support lead asks in a Slack DM which tickets fit a
question only a Jira search answers; the answer goes back in that DM. The questions: one
engineer's open support tickets of the priorities asked (Highest or High, or Highest alone), in
one status, or of one type (incidents); the open support tickets of one component (all of
them, the urgent ones, the unassigned ones) or with one label; one engineer's open engineering
bugs.

The answer is everything the agent said in the DM since the question, read as the set of
ticket keys it names: exactly the tickets that fit. Only questions with one to six such
tickets are asked, and two questions with the same answer are one instance (the first asked).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

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
    engineer: Person | None  # the engineer asked about (None: a question about a component or label)
    priorities: tuple[str, ...]
    keys: tuple[str, ...]  # the right answer
    asker: str  # the support lead's chat user id
    dm: str  # the DM between the actor and the asker
    shape: str = "priority"  # which kind of question (SHAPES)
    value: str = ""  # the status, type, component or label asked about

    def question(self) -> str:
        who = self.engineer.name if self.engineer is not None else ""
        return SHAPES[self.shape][0].format(who=who, which=" or ".join(self.priorities), value=self.value)

    def jql(self) -> str:
        who = self.engineer.name if self.engineer is not None else ""
        return SHAPES[self.shape][1].format(who=who, which=", ".join(self.priorities), value=self.value)

    def other_jql(self, account: str) -> str:
        """The same tickets asked for another way (an accountId, statusCategory, a priority above a level)."""
        above = "Medium" if "High" in self.priorities else "High"
        return SHAPES[self.shape][2].format(account=account, above=above, value=self.value)


_OPEN_SUP = 'project = SUP AND resolution = EMPTY'
# shape -> (the question, the oracle's JQL, another JQL for the same tickets)
SHAPES = {
    "priority": ("Quick one: which open support tickets assigned to {who} are {which} priority? I need their keys for the escalation review.",
                 'project = SUP AND assignee = "{who}" AND resolution = EMPTY AND priority IN ({which}) ORDER BY key',
                 "assignee = {account} AND project = SUP AND statusCategory != Done AND priority > {above}"),
    "status": ("Quick one: which of the open support tickets assigned to {who} are in {value} right now? I need their keys for the standup.",
               'project = SUP AND assignee = "{who}" AND status = "{value}" ORDER BY key',
               'assignee = {account} AND project = SUP AND status IN ("{value}")'),
    "type": ("Quick one: which open support tickets assigned to {who} are incidents (issue type {value})? I need their keys for the incident review.",
             'project = SUP AND assignee = "{who}" AND issuetype = "{value}" AND resolution = EMPTY ORDER BY key',
             'assignee = {account} AND type = "{value}" AND project = SUP AND statusCategory != Done'),
    "bugs": ("Quick one: which open engineering bugs (the ENG project) are assigned to {who}? I need their keys to chase the fixes.",
             'project = ENG AND issuetype = Bug AND assignee = "{who}" AND resolution = EMPTY ORDER BY key',
             "assignee = {account} AND type = Bug AND project = ENG AND statusCategory != Done"),
    "component": ("Quick one: which support tickets in the {value} component are still open? I need their keys for the component review.",
                  _OPEN_SUP + ' AND component = "{value}" ORDER BY key',
                  'component = "{value}" AND project = SUP AND statusCategory != Done'),
    "component-urgent": ("Quick one: which open support tickets in the {value} component are {which} priority? I need their keys for the escalation review.",
                         _OPEN_SUP + ' AND component = "{value}" AND priority IN ({which}) ORDER BY key',
                         'component = "{value}" AND project = SUP AND statusCategory != Done AND priority > {above}'),
    "unassigned": ("Quick one: which open support tickets in the {value} component have nobody assigned? I need their keys to hand them out.",
                   _OPEN_SUP + ' AND component = "{value}" AND assignee IS EMPTY ORDER BY key',
                   'component = "{value}" AND project = SUP AND statusCategory != Done AND assignee = EMPTY'),
    "label": ("Quick one: which open support tickets carry the label \"{value}\"? I need their keys for the review.",
              _OPEN_SUP + ' AND labels = "{value}" ORDER BY key',
              'labels IN ("{value}") AND project = SUP AND statusCategory != Done'),
}


class AnswerWithJql:
    id = "tickets/answer-with-jql-v1"
    apps = ("tickets", "chat")
    difficulty = "medium"
    summary = "Answer the support lead's Slack question with a Jira search: which tickets fit (an engineer's, a component's, a label's)."

    def _pool(self, ctx: SampleContext) -> tuple[_Case, ...]:
        def build() -> tuple[_Case, ...]:
            s, ws = site(ctx), workspace(ctx)
            lead_person = ctx.company.team("support").lead_id
            asker = ws.user_of(lead_person if lead_person != ctx.actor.id else ctx.actor.manager_id)
            if asker is None:
                return ()
            dm = service_as(ctx.db, ws.me.id).dm_id(ws.me.id, asker.id)
            sup = [t for t in s.tickets if t.project == "SUP" and t.resolution is None]
            cases, seen = [], set()

            def add(keys: Iterable[str], **shape: Any) -> None:
                keys = tuple(sorted(keys))
                if 1 <= len(keys) <= MAX_KEYS and keys not in seen:
                    seen.add(keys)
                    cases.append(_Case(keys=keys, asker=asker.id, dm=dm, **{"engineer": None, "priorities": (), **shape}))

            engineers = [p for p in unique_names(s.people.values()) if p.account_id != s.me.account_id]
            for person in engineers:
                theirs = [t for t in sup if t.assignee == person.account_id]
                for priorities in _ASKED:
                    add((t.key for t in theirs if t.priority in priorities), engineer=person, priorities=priorities)
            for person in engineers:
                theirs = [t for t in sup if t.assignee == person.account_id]
                for status in sorted({t.status for t in theirs}):
                    add((t.key for t in theirs if t.status == status), engineer=person, shape="status", value=status)
                add((t.key for t in theirs if t.type == "Incident"), engineer=person, shape="type", value="Incident")
                add((t.key for t in s.tickets if t.project == "ENG" and t.type == "Bug" and t.resolution is None and t.assignee == person.account_id),
                    engineer=person, shape="bugs")
            for component in sorted({c for t in sup for c in t.components}):
                inside = [t for t in sup if component in t.components]
                add((t.key for t in inside), shape="component", value=component)
                for priorities in _ASKED:
                    add((t.key for t in inside if t.priority in priorities), shape="component-urgent", value=component, priorities=priorities)
                add((t.key for t in inside if not t.assignee), shape="unassigned", value=component)
            for label in sorted({lb for t in sup for lb in t.labels}):
                add((t.key for t in sup if label in t.labels), shape="label", value=label)
            return shuffled(self.id, ctx, cases)

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws, s = workspace(ctx), site(ctx)
        (case,) = choose(self.id, ctx.variant, self._pool(ctx))
        engineer, priorities, keys, asker, dm = case.engineer, case.priorities, case.keys, ws.users[case.asker], case.dm
        me, since = ws.me, ws.start
        question = case.question()
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
        jql = case.jql()
        project = "ENG" if case.shape == "bugs" else "SUP"

        async def oracle(tools: Tools) -> None:
            found = await tools.call("jira_search", jql=jql, limit=50, fields="summary")
            listed = ", ".join(i["key"] for i in found["issues"])
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"These fit: {listed}.")

        async def by_account_and_thread(tools: Tools) -> None:
            """Another query (by accountId, statusCategory, priority above a level) and a threaded reply."""
            account = (await tools.call("jira_get_user_profile", user_identifier=engineer.email))["account_id"] if engineer is not None else ""
            found = await tools.call("jira_search", jql=case.other_jql(account), limit=50, fields="priority")
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m["ts"] for m in history["messages"] if m["user"] == asker.id)
            lines = "\n".join(f"• {i['key'].lower()} ({i['priority']['name']})" for i in found["issues"])
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked, text=f"Here you go:\n{lines}")

        every = sorted(t.key for t in s.tickets if t.project == project and t.resolution is None)
        other_keys = [k for k in every if k not in keys] or [f"{project}-{len(s.tickets) + 1}"]
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
            facts={"issue": keys[0], "keys": list(keys), "engineer": engineer.account_id if engineer is not None else None,
                   "priorities": list(priorities), "dm": dm, "shape": case.shape, "value": case.value},
        )
