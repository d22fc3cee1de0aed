"""tickets/escalate-to-engineering-v1: a customer's problem needs engineering — find their
support ticket from what they reported, file an ENG bug for it by the team's rules, link the
two and tell support the bug's key.

The prompt names the customer and the symptom, not the ticket. The bug's fields follow rules:
its summary is "[<customer>] <the support ticket's summary>", its priority comes from the
customer's support tier (the Tier on their Salesforce account, so the agent reads the CRM),
its component from the support ticket's component, its labels are exactly the escalation
labels; it is left open (resolved as it is filed, it is put away: no escalation, and every rule
of it fails as with none filed). Each rule is its own check; the comment on the support ticket must name the new bug
and no other ENG issue (a comment listing likely keys, or one whose key merely contains the
right one, names something else), and no other support ticket is told the bug tracks it.
"""

from __future__ import annotations

import json
import random
import weakref
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select

from apps.tickets import queries as Q
from apps.tickets.models import Comment, Issue, Link
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from officegym.core.sql import Prepared
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.common.answers import judge, ticket_keys, without_retracted
from tasks.common.text import words
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import Ticket, allow_issue, bumped, blocks_only, comment, comments_since, put_away, said_since, site, wreck

# The support component of the ticket → the engineering component of the bug (tickets in other areas are not sampled).
ENG_COMPONENT = {"Authentication": "Auth", "Integrations": "Integrations", "Reporting": "Reporting", "API": "API"}
LABELS = ("customer", "escalated")
# Priority by support tier: two policies, so the rule has to be read, not guessed from habit.
POLICIES = (
    (("Enterprise", "Highest"), ("Mid-Market", "High"), ("SMB", "Medium")),
    (("Enterprise", "High"), ("Mid-Market", "Medium"), ("SMB", "Low")),
)
# The ENG issues filed since the task began (ids above the site's last), read by every check.
_NEW_ENG = Prepared(select(*Q.ISSUE).where(Issue.id >= bindparam("first"), Issue.project_key == "ENG").order_by(Issue.id))


@dataclass(frozen=True, slots=True)
class _Case:
    ticket: Ticket
    customer: str
    tier: str
    symptom: str  # what the customer reported, as the ticket's description says it


def symptom_of(description: str) -> str:
    """The ticket's description is "Reported by … at <customer> via …", the symptom, the impact."""
    parts = [p.strip() for p in description.split("\n\n") if p.strip()]
    return parts[1] if len(parts) > 1 else ""


def bug_summary(customer: str, ticket_summary: str) -> str:
    return f"[{customer}] {ticket_summary}"


class EscalateToEngineering:
    id = "tickets/escalate-to-engineering-v1"
    apps = ("tickets", "crm")
    difficulty = "hard"
    summary = ("Find a customer's support ticket from their report, file an ENG bug for it by the team's rules (priority from the "
               "customer's CRM tier), link it as blocking the ticket and comment the bug's key on the ticket.")

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple:
            c = ctx.company
            customer_of = {t.key: c.customer(t.customer_id) for t in c.tickets if t.customer_id}
            description = {t.key: t.description for t in c.tickets}
            # A ticket engineering already tracks is not escalated again (a careful person would point at the existing bug).
            blocked = set(ctx.db.scalars(select(Link.target_id).where(Link.type_name == "Blocks")))
            cases = [_Case(t, customer_of[t.key].name, customer_of[t.key].tier, symptom_of(description[t.key]))
                     # a request (send the SOC 2 report, add seats) is done by support, not filed as a bug
                     for t in site(ctx).tickets if t.project == "SUP" and t.type != "Task" and t.resolution is None and t.key in customer_of
                     and len(t.components) == 1 and t.components[0] in ENG_COMPONENT and t.id not in blocked]
            # The customer and the symptom must point at one ticket only.
            seen: dict[tuple[str, str], int] = {}
            for case in cases:
                seen[(case.customer, case.symptom.lower())] = seen.get((case.customer, case.symptom.lower()), 0) + 1
            return shuffled(self.id, ctx, [k for k in cases if k.symptom and seen[(k.customer, k.symptom.lower())] == 1])

        return cached(ctx, self.id, build), shuffled(self.id, ctx, POLICIES, "policy")

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        cases, policies = self._axes(ctx)
        case, policy = choose(self.id, ctx.variant, cases, policies)
        ticket, customer = case.ticket, case.customer
        priority = dict(policy)[case.tier]
        component = ENG_COMPONENT[ticket.components[0]]
        summary = bug_summary(customer, ticket.summary)
        first_new = max(t.id for t in s.tickets) + 1  # issues with a higher id are the agent's
        start_link = cached(ctx, f"{self.id}|last-link", lambda: ctx.db.scalar(select(Link.id).order_by(Link.id.desc()).limit(1)) or 0)
        other = next(k for k in cases if k.customer != customer)
        wrong_priority = next(p for tier, p in policy if tier != case.tier)

        def new_eng(db) -> list[Any]:
            return _NEW_ENG.rows(db, first=first_new)  # plain rows: graders read, never write

        found_in: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # each check asks for the bug: read it once per grading session

        def the_bug(db) -> tuple[Any, str]:
            if db in found_in:
                return found_in[db]
            made = new_eng(db)
            if not made:
                found = None, "no ENG issue was filed"
            elif len(made) > 1:
                found = None, f"{len(made)} ENG issues were filed ({', '.join(i.key for i in made[:5])}), not one"
            elif why := put_away(made[0]):  # resolved as it was filed: no escalation, for every rule of it
                found = None, why
            else:
                found = made[0], ""
            found_in[db] = found
            return found

        def rule(name: str, test, weight: float = 1.0) -> Check:
            """A check on the one bug filed (each fails alike when there is none, or more than one)."""
            def run(db) -> CheckResult:
                bug, why = the_bug(db)
                return failed(why) if bug is None else test(db, bug)
            return Check(name, run, weight)

        def filed(db, bug: Any) -> CheckResult:
            if bug.issue_type != "Bug":
                return failed(f"{bug.key} is a {bug.issue_type}, not a Bug")
            return passed(f"{bug.key} filed as a Bug")

        def titled(db, bug: Any) -> CheckResult:
            # Same words in the same order: brackets, dashes and case aside. A summary with more in it is another summary.
            if words(bug.summary) != words(summary):
                return failed(f"{bug.key} is titled {bug.summary!r}, not {summary!r}")
            return passed(f"{bug.key} titled {bug.summary!r}")

        def prioritised(db, bug: Any) -> CheckResult:
            if bug.priority != priority:
                return failed(f"{bug.key} has priority {bug.priority}, not {priority} ({customer} is {case.tier})")
            return passed(f"{bug.key} is {priority}")

        def in_component(db, bug: Any) -> CheckResult:
            got = sorted(Q.COMPONENT_NAMES_OF.scalars(db, issue_id=bug.id))
            if got != [component]:
                return failed(f"{bug.key} has components {got or 'none'}, not [{component}]")
            return passed(f"{bug.key} is in {component}")

        def labelled(db, bug: Any) -> CheckResult:
            got = sorted(Q.LABELS_OF.scalars(db, issue_id=bug.id))
            if got != sorted(LABELS):
                return failed(f"{bug.key} has labels {got or 'none'}, not {sorted(LABELS)}")
            return passed(f"{bug.key} labelled {', '.join(LABELS)}")

        def blocks(db, bug: Any) -> CheckResult:
            return blocks_only(db, bug, ticket, start_link)

        def told(db, bug: Any) -> CheckResult:
            bodies = comments_since(db, ticket.id, s.me.account_id, s.start)
            if not bodies:
                return failed(f"no comment from you on {ticket.key}")
            said = said_since(db, ticket.id, s.me.account_id, s.start)  # a worklog's note naming other bugs is a hedge too
            verdict = judge("ENG issue keys", ticket_keys(without_retracted(" ".join(said)), ("ENG",)), {bug.key})
            if not verdict.ok:
                return failed(f"your comment on {ticket.key} {verdict.detail}")
            # The same note on other support tickets tells their customers engineering tracks their problem in this bug.
            also = sorted({key for key, body in db.execute(select(Issue.key, Comment.body).join(Comment, Comment.issue_id == Issue.id).where(
                Issue.project_key == "SUP", Comment.issue_id != ticket.id, Comment.author_id == s.me.account_id, Comment.created > s.start))
                if bug.key in ticket_keys(without_retracted(body), ("ENG",))})
            if also:
                return failed(f"you also commented {bug.key} on {', '.join(also[:5])}: the bug tracks {ticket.key}'s problem")
            return passed(f"{ticket.key}: {verdict.detail}")

        async def oracle(tools: Tools) -> None:
            account = (await tools.call("salesforce_run_soql", query=f"SELECT Tier__c FROM Account WHERE Name = '{_quoted(customer)}'"))["records"][0]
            found = await tools.call("jira_search", jql=f'project = SUP AND resolution = EMPTY AND text ~ "{customer}"',
                                     limit=50, fields="summary,components,description")
            sup = next(i for i in found["issues"] if f" at {customer} via " in i["description"] and case.symptom in i["description"])
            engineering = ENG_COMPONENT[sup["components"][0]]
            made = await tools.call("jira_create_issue", project_key="ENG", summary=bug_summary(customer, sup["summary"]), issue_type="Bug",
                                    components=engineering, description=f"Escalated from {sup['key']}: {case.symptom}",
                                    additional_fields=json.dumps({"priority": {"name": dict(policy)[account["Tier__c"]]}, "labels": list(LABELS)}))
            key = made["issue"]["key"]
            await tools.call("jira_create_issue_link", link_type="Blocks", inward_issue_key=key, outward_issue_key=sup["key"])
            await tools.call("jira_add_comment", issue_key=sup["key"], body=f"Escalated to engineering as {key}.")

        async def step_by_step(tools: Tools) -> None:
            """File a bare bug first and fill its fields in with an edit; link by the link type's own name; write the key in lower
            case, mentioning the support ticket too."""
            tiers = await tools.call("salesforce_run_soql", query=f"SELECT Name, Tier__c FROM Account WHERE Name LIKE '{_quoted(customer)}%'")
            tier = next(a["Tier__c"] for a in tiers["records"] if a["Name"] == customer)
            issue = await tools.call("jira_get_issue", issue_key=ticket.key, fields="summary,components")
            made = await tools.call("jira_create_issue", project_key="ENG", summary=f"[{customer}] {issue['summary']}", issue_type="Bug")
            key = made["issue"]["key"]
            await tools.call("jira_update_issue", issue_key=key, components=ENG_COMPONENT[issue["components"][0]],
                             fields=json.dumps({"priority": {"name": dict(policy)[tier]}, "labels": ["escalated", "customer"]}))
            types = await tools.call("jira_get_link_types")
            blocking = next(t for t in types if t["outward"] == "blocks")
            await tools.call("jira_create_issue_link", link_type=blocking["name"], inward_issue_key=key, outward_issue_key=ticket.key)
            await tools.call("jira_add_comment", issue_key=ticket.key, body=f"Engineering is tracking {ticket.key} in {key.lower()}; "
                                                                            "we'll update the customer when it ships.")

        async def escalate(tools: Tools, target: _Case, prio: str, comps: str, labels: list[str], note: str = "",
                           reverse: bool = False) -> str | None:
            """File a bug for `target` with these fields, link it and comment; what the site refuses is skipped."""
            try:
                made = await tools.call("jira_create_issue", project_key="ENG", summary=bug_summary(target.customer, target.ticket.summary),
                                        issue_type="Bug", components=comps, additional_fields=json.dumps({"priority": {"name": prio}, "labels": labels}))
            except ToolError:
                return None
            key = made["issue"]["key"]
            source, dest = (target.ticket.key, key) if reverse else (key, target.ticket.key)
            try:
                await tools.call("jira_create_issue_link", link_type="Blocks", inward_issue_key=source, outward_issue_key=dest)
            except ToolError:
                pass
            await comment(tools, target.ticket.key, note or f"Escalated to engineering as {key}.")
            return key

        async def everything(tools: Tools) -> None:
            """Every component and label, every priority's worth of bugs, and a comment naming the lot."""
            keys = []
            for _tier, prio in policy:
                key = await escalate(tools, case, prio, ",".join(ENG_COMPONENT.values()), [*LABELS, "needs-triage", "regression"])
                keys.append(key or "")
            await comment(tools, ticket.key, "Tracked in " + ", ".join(keys))

        async def shotgun(tools: Tools) -> None:
            key = await escalate(tools, case, priority, component, list(LABELS))
            for target in [k for k in cases if k.ticket.key != ticket.key][:3]:
                try:
                    await tools.call("jira_create_issue_link", link_type="Blocks", inward_issue_key=key, outward_issue_key=target.ticket.key)
                except ToolError:
                    pass
                await comment(tools, target.ticket.key, f"Escalated to engineering as {key}.")

        def on_new(change) -> bool:
            return (change.row.get("issue_id") or 0) >= first_new

        return TaskInstance(
            prompt=(f"You are {s.me.name}. {customer} reported this problem: \"{case.symptom}\" Their ticket is open in Jira's SUP "
                    f"project. Escalate it to engineering by our rules: file a Bug in the ENG project whose summary is the customer's "
                    f"name in square brackets followed by the support ticket's summary; priority by the customer's support tier (the "
                    f"Tier on their Salesforce account): {'; '.join(f'{t} → {p}' for t, p in policy)}; component: the support "
                    f"ticket's component (Authentication becomes Auth; Integrations, Reporting and API keep their names); labels "
                    f"\"customer\" and \"escalated\" and no others. Link the bug so that it blocks the support ticket, then comment on "
                    f"the support ticket with the new bug's key."),
            checks=[
                rule("an ENG Bug filed", filed),
                rule("bug summary by the rule", titled),
                rule(f"bug priority {priority} by {customer}'s tier", prioritised),
                rule(f"bug component {component}", in_component),
                rule("bug labels customer and escalated", labelled),
                rule(f"bug blocks {ticket.key}", blocks),
                # The comment is how support learns where the fix is tracked: it weighs more than one field.
                rule(f"{ticket.key} commented with the bug's key", told, 1.5),
            ],
            expected=[
                *allow_issue(ticket.id),
                Expect("tickets_issues", "insert", lambda c: c.row.get("project_key") == "ENG" and c.row.get("id", 0) >= first_new),
                Expect("tickets_issues", "update", lambda c: c.row.get("id", 0) >= first_new),
                Expect("tickets_projects", "update", lambda c: c.row.get("key") == "ENG"),
                *[Expect(table, "any", on_new) for table in ("tickets_labels", "tickets_issue_components", "tickets_watchers",
                                                             "tickets_changelog", "tickets_comments", "tickets_worklogs")],
                Expect("tickets_links", "insert", lambda c: c.row.get("target_id") == ticket.id and (c.row.get("source_id") or 0) >= first_new),
                bumped(),
            ],
            oracle=oracle,
            alternatives=(step_by_step,),
            moves=Moves(
                say=lambda tools, text: comment(tools, ticket.key, text),
                wrong=lambda tools: escalate(tools, case, wrong_priority, component, list(LABELS), reverse=True),
                everything=everything,
                wrong_record=lambda tools: escalate(tools, other, priority, ENG_COMPONENT[other.ticket.components[0]], list(LABELS)),
                shotgun=shotgun,
                wreck=wreck,
            ),
            facts={"issue": ticket.key, "customer": customer, "tier": case.tier, "priority": priority, "component": component,
                   "summary": summary},
        )


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'")
