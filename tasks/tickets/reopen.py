"""tickets/reopen-with-comment-v1: a customer's ticket was closed by mistake — reopen it and
comment which customer reported it again.

Passes when the ticket is back in an open status with no resolution, and the agent's comments
on it name the customer (the one whose CRM case the ticket carries) and no other customer:
names are read whole (a name inside a longer one is not named), so a comment that lists every
likely customer or hedges between two fails, and one that rules a customer out ("not Acme")
does not name it.
"""

from __future__ import annotations

import random
import re

from sqlalchemy import select

from apps.tickets import catalog
from apps.tickets import queries as Q
from apps.tickets.models import Comment, Issue
from graders.checks import Check, CheckResult, failed, passed
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.answers import echoes, without_retracted
from tasks.common.text import Lexicon, short_names
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import WORKFLOW, allow_issue, bumped, comment, comments_since, said_since, site, transition, wreck

_SAYS = ("still sees the problem", "reported it again this morning", "says the fix did not work for them")
# What a customer says of a request (a Task: add seats, enable SSO) closed too early: there was no fix to fail.
_SAYS_OF_A_REQUEST = ("reported it again this morning", "says the change was never made for them")


class ReopenWithComment:
    id = "tickets/reopen-with-comment-v1"
    apps = ("tickets",)
    difficulty = "easy"
    summary = "Reopen a wrongly closed customer ticket and comment which customer reported it again."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple:
            s = site(ctx)
            customer_of = {t.key: t.customer_id for t in ctx.company.tickets}
            done = [t for t in s.tickets if t.project == "SUP" and t.status == "Done" and customer_of.get(t.key)]
            return shuffled(self.id, ctx, [(t, said) for t in done for said in (_SAYS_OF_A_REQUEST if t.type == "Task" else _SAYS)])

        return (cached(ctx, self.id, build),)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        (pairs,) = self._axes(ctx)
        ((ticket, said),) = choose(self.id, ctx.variant, pairs)
        tickets = list(dict.fromkeys(t for t, _said in pairs))
        customer_of = {t.key: t.customer_id for t in ctx.company.tickets}
        customer = ctx.company.customer(customer_of[ticket.key]).name
        names = sorted({c.name for c in ctx.company.customers})
        # People shorten a customer to its first word ("Brown" for Brown Group): a short name read so names that customer,
        # so a hedge naming another one that way is still a hedge, and "Jensen" for Jensen and Sons is the customer.
        customers = Lexicon({n: [n] for n in names}, short=short_names(names, taken=[p.name for p in ctx.company.people]))
        wrong_customer = next(n for n in names if n != customer and n.lower() not in customer.lower() and customer.lower() not in n.lower())
        others = [t for t in tickets if t.key != ticket.key]

        # A ticket's summary may carry the customer's name, so a comment that pastes the prompt would name them.
        prompt = (f"You are {s.me.name}. {ticket.key} (\"{ticket.summary}\") was closed by mistake: the customer {said}. "
                  f"In Jira, reopen it and add a comment saying which customer (the company) reported it again.")

        def reopened(db) -> CheckResult:
            issue = Q.issue_by_id(db, ticket.id)  # a plain row: graders read, never write
            if issue is None:
                return failed(f"{ticket.key} no longer exists")
            if catalog.STATUS_BY_NAME[issue.status].category == "done" or issue.resolution is not None:
                return failed(f"{ticket.key} is still {issue.status} (resolution {issue.resolution})")
            return passed(f"{ticket.key} is open again ({issue.status}, unresolved)")

        def commented(db) -> CheckResult:
            # A comment that the customer reported it again, on a ticket left closed (or closed
            # again after reopening it), is put away with the ticket: nobody works a closed ticket.
            if not (state := reopened(db)).passed:
                return failed(f"the comment sits on a ticket out of the queue: {state.detail}")
            bodies = comments_since(db, ticket.id, s.me.account_id, s.start)
            if not bodies:
                return failed(f"no comment from you on {ticket.key}")
            # Whole names, longest first, over what the comments assert: "Lee Inc" is not named inside "Kalee Inc", a longer
            # customer name that contains this one names the other customer, and "not Acme" rules Acme out.
            if echoes("\n".join(bodies), prompt):
                return failed(f"your comment on {ticket.key} pastes the task instead of saying who reported it")
            # What else it wrote on the ticket (a worklog's note) is read with the comments: a hedge there is still a hedge.
            named = customers.find(without_retracted("\n".join(said_since(db, ticket.id, s.me.account_id, s.start))))
            if customer not in named:
                return failed(f"your comment on {ticket.key} does not name the customer")
            if named - {customer}:
                return failed(f"your comment names other customers too: {', '.join(sorted(named - {customer}))[:200]}")
            # The same note on other tickets says the customer reported those again too: the report was about this one.
            also = [key for key, body in db.execute(select(Issue.key, Comment.body).join(Comment, Comment.issue_id == Issue.id).where(
                Comment.issue_id != ticket.id, Comment.author_id == s.me.account_id, Comment.created > s.start))
                    if customer in customers.find(without_retracted(body))]
            if also:
                return failed(f"you also commented on {', '.join(sorted(set(also))[:5])} that {customer} reported it")
            return passed(f"commented that {customer} {said}")

        async def oracle(tools: Tools) -> None:
            moves = await tools.call("jira_get_transitions", issue_key=ticket.key)
            move = next(m for m in moves if m["name"] == "Reopen Issue")
            await tools.call("jira_transition_issue", issue_key=ticket.key, transition_id=move["id"])
            await tools.call("jira_add_comment", issue_key=ticket.key, body=f"Reopening: {customer} {said}.")

        async def comment_while_moving(tools: Tools) -> None:
            """Read the customer off the ticket ("Reported by … at <customer> via …"), reopen with the comment in the same call."""
            issue = await tools.call("jira_get_issue", issue_key=ticket.key, fields="description")
            found = re.search(r" at (.+?) via ", issue["description"])
            who = found.group(1) if found else customer
            await tools.call("jira_transition_issue", issue_key=ticket.key, transition_id="reopen issue",
                             comment=f"{who} {said}, so this goes back to the queue.")

        return TaskInstance(
            prompt=prompt,
            # The comment carries what the team needs (who reported it again), so it weighs more than the status move.
            checks=[Check(f"{ticket.key} reopened", reopened), Check(f"comment on {ticket.key} names the customer", commented, 2.0)],
            expected=[*allow_issue(ticket.id, WORKFLOW), bumped()],
            oracle=oracle,
            alternatives=(comment_while_moving,),
            moves=Moves(
                say=lambda tools, text: comment(tools, ticket.key, text),
                wrong=lambda tools: comment(tools, ticket.key, f"{wrong_customer} {said}."),
                everything=lambda tools: _reopen_naming(tools, ticket.key, ", ".join(names)),
                wrong_record=lambda tools: _reopen_naming(tools, others[0].key, customer),
                shotgun=lambda tools: _shotgun(tools, [ticket.key, *[t.key for t in others[:3]]], customer),
                wreck=wreck,
            ),
            facts={"issue": ticket.key, "customer": customer},
        )


async def _reopen_naming(tools: Tools, key: str, who: str) -> None:
    await transition(tools, key, "Reopen Issue")
    await comment(tools, key, f"Reopening: {who} reported it again.")


async def _shotgun(tools: Tools, keys: list[str], who: str) -> None:
    for key in keys:
        await _reopen_naming(tools, key, who)
