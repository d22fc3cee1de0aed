"""tickets/link-bug-to-epic-v1: file an engineering bug where it belongs — under the epic
the prompt names, and linked so that it blocks the customer's support ticket it came from.

The link's direction matters ("ENG-7 blocks SUP-12", not the reverse), and a bug put under
another epic first, or linked to other tickets, fails the check concerned.

The seeded tracker has few open customer bugs (a handful per company), so most instances start
from a bug an engineer has just filed from an open customer ticket (the setup files it, as the
engineering lead, titled after the ticket with its area in front: "Auth: SSO login fails ...");
it is either under no epic yet or was filed under the wrong one, which the prompt says. A ticket
qualifies when what it is about has an epic (sign-in, sync, exports and reports, the API, errors
under load); billing, mobile or search problems have none, so are never asked.
"""

from __future__ import annotations

import json
import random

from sqlalchemy import select, update

from apps.tickets import queries as Q
from apps.tickets.models import Issue, Link
from apps.tickets.service import TicketsService
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.common.variants import cached, choose, count, shuffled
from seed_data.tickets.lines import COMPONENTS, EPIC_OF_COMPONENT, topic_of
from tasks.tickets._common import Ticket, allow_issue, bumped, notes, blocks_only, comment, site, values_set, wreck

# What a customer ticket is about → the ENG area (component) whose epic its bug belongs under.
AREA_OF_TOPIC = {"sign-in": "Auth", "sync": "Integrations", "exports": "Reporting", "scheduled reports": "Reporting", "dashboards": "Reporting",
                 "api": "API", "api fields": "API", "errors under load": "Infrastructure", "memory": "Infrastructure"}
FRESH, MISFILED = "fresh", "misfiled"  # a filed bug's state: under no epic yet, or under the wrong one


def _areas(summary: str) -> set[str]:
    """The ENG areas a summary's words name."""
    text = summary.lower()
    return {name for name, words in COMPONENTS["ENG"] if any(w in text for w in words)}


class LinkBugToEpic:
    id = "tickets/link-bug-to-epic-v1"
    apps = ("tickets",)
    difficulty = "medium"
    summary = "Put an engineering bug under the named epic and link it as blocking the customer ticket it came from."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        """(bug, support ticket, epic): a customer-facing bug, an open support ticket about the
        same thing (the same topic, and a problem report, not a request) it is not linked to yet,
        and the epic its component's work belongs under."""
        def triples() -> tuple:
            s = site(ctx)
            linked = {(a, b) for a, b in ctx.db.execute(select(Link.source_id, Link.target_id))}
            epics = {t.summary: t for t in s.tickets if t.project == "ENG" and t.type == "Epic"}
            support = [t for t in s.tickets if t.project == "SUP" and t.case and t.resolution is None and t.type != "Task"]
            found = []
            for b in s.tickets:
                if b.project != "ENG" or b.type != "Bug" or b.resolution is not None or topic_of(b.summary) is None:
                    continue
                epic = next((epics[EPIC_OF_COMPONENT[c]] for c in b.components if EPIC_OF_COMPONENT.get(c) in epics), None)
                if epic is None:
                    continue
                found += [(b, t, epic) for t in support if topic_of(t.summary) == topic_of(b.summary)
                          and (b.id, t.id) not in linked and (t.id, b.id) not in linked]
            return shuffled(self.id, ctx, found)

        def epics() -> tuple:
            return shuffled(self.id, ctx, [t for t in site(ctx).tickets if t.project == "ENG" and t.type == "Epic"], "epic")

        def filed() -> tuple:
            """(bug to file, support ticket, epic, state, the epic it was misfiled under) for each open
            customer problem whose area has an epic: the bug's number and id are the next ones the
            tracker gives, as the setup files it on a fresh copy of the template."""
            s = site(ctx)
            by_title = {t.summary: t for t in s.tickets if t.project == "ENG" and t.type == "Epic"}
            lead = ctx.company.person(ctx.company.team("engineering").lead_id).email.lower()
            reporter = next((p.account_id for p in s.people.values() if p.email.lower() == lead), None)
            linked = {i for pair in ctx.db.execute(select(Link.source_id, Link.target_id)) for i in pair}
            number, (last_id, _rank) = Q.LAST_NUMBER.scalar(ctx.db, project="ENG") or 0, Q.LAST_ISSUE_ID_AND_RANK.first(ctx.db)
            bug_id = max(last_id or 0, 9999) + 1
            found = []
            for t in s.tickets:
                area = AREA_OF_TOPIC.get(topic_of(t.summary) or "")
                if t.project != "SUP" or t.resolution is not None or t.type == "Task" or area is None or t.id in linked or reporter is None:
                    continue
                epic = by_title.get(EPIC_OF_COMPONENT[area])
                summary = f"{area}: {t.summary}"
                if epic is None or topic_of(summary) != topic_of(t.summary) or area not in _areas(summary):
                    continue
                elsewhere = [e for e in by_title.values() if e.id != epic.id]
                wrong = elsewhere[t.id % len(elsewhere)]  # the epic a hurried engineer picked instead
                for state in (FRESH, MISFILED):
                    bug = Ticket(bug_id, f"ENG-{number + 1}", "ENG", "Bug", summary, "To Do", t.priority, None, None, None, (), (area,),
                                 wrong.id if state == MISFILED else None)
                    found.append((bug, t, epic, state, wrong, reporter))
            return shuffled(self.id, ctx, found, "filed")

        return cached(ctx, f"{self.id}|seeded", triples), cached(ctx, f"{self.id}|epics", epics), cached(ctx, f"{self.id}|filed", filed)

    def _last_link(self, ctx: SampleContext) -> int:
        """The newest link when the task begins: links with a higher id are the agent's."""
        return cached(ctx, f"{self.id}|last-link", lambda: ctx.db.scalar(select(Link.id).order_by(Link.id.desc()).limit(1)) or 0)

    def _instances(self, ctx: SampleContext) -> tuple:
        """The seeded bugs' instances, then the filed ones: (bug, ticket, epic, state, misfiled under, reporter)."""
        def build() -> tuple:
            triples, _epics, filed = self._axes(ctx)
            return shuffled(self.id, ctx, [(b, t, e, None, None, None) for b, t, e in triples] + list(filed), "all")

        return cached(ctx, self.id, build)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._instances(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        triples, epics, _filed = self._axes(ctx)
        ((bug, ticket, epic, state, misfiled, reporter),) = choose(self.id, ctx.variant, self._instances(ctx))
        # A bug filed under its epic already is taken out of it first: the task is to put it there.
        detach = state is None and bug.parent == epic.id
        other_epic = next(e for e in epics if e.id not in (epic.id, bug.parent))
        others = [t for _b, t, _e in triples] + [t for t in s.tickets if t.project == "SUP" and t.case and t.resolution is None]
        other_tickets = [t for t in dict.fromkeys(others) if t.id != ticket.id][:3]
        start_link = self._last_link(ctx)

        def under_epic(db) -> CheckResult:
            parent = db.scalar(select(Issue.parent_id).where(Issue.id == bug.id))
            if parent != epic.id:
                return failed(f"{bug.key} is not under {epic.key}")
            detour = [v for v in values_set(db, bug.id, "IssueParentAssociation", s.start) if v not in (epic.key, None)]
            if detour:
                return failed(f"{bug.key} was put under {detour[0]} along the way")
            return passed(f"{bug.key} is under {epic.key}")

        def blocks(db) -> CheckResult:
            return blocks_only(db, bug, ticket, start_link)

        async def oracle(tools: Tools) -> None:
            await tools.call("jira_link_to_epic", issue_key=bug.key, epic_key=epic.key)
            await tools.call("jira_create_issue_link", link_type="Blocks", inward_issue_key=bug.key, outward_issue_key=ticket.key)

        async def by_fields(tools: Tools) -> None:
            """Set the parent as a field, and link from the link types' own names ("blocks")."""
            types = await tools.call("jira_get_link_types")
            blocking = next(t for t in types if t["outward"] == "blocks")
            await tools.call("jira_update_issue", issue_key=bug.key, fields=json.dumps({"parent": {"key": epic.key}}))
            await tools.call("jira_create_issue_link", link_type=blocking["name"], inward_issue_key=bug.key, outward_issue_key=ticket.key)

        async def link(tools: Tools, source: str, target: str) -> None:
            try:
                await tools.call("jira_create_issue_link", link_type="Blocks", inward_issue_key=source, outward_issue_key=target)
            except ToolError:
                pass

        async def wrong(tools: Tools) -> None:
            await tools.call("jira_link_to_epic", issue_key=bug.key, epic_key=other_epic.key)
            await link(tools, ticket.key, bug.key)

        async def everything(tools: Tools) -> None:
            await tools.call("jira_link_to_epic", issue_key=bug.key, epic_key=epic.key)
            for t in (ticket, *other_tickets):
                await link(tools, bug.key, t.key)

        def on_links(change) -> bool:
            return (change.row.get("source_id"), change.row.get("target_id")) == (bug.id, ticket.id)

        def file_bug(db) -> None:
            """The engineering lead files the bug from the ticket (under the wrong epic, when misfiled)."""
            made = TicketsService(db, actor_id=reporter).create_issue(
                project="ENG", summary=bug.summary, issue_type="Bug", priority=bug.priority, components=list(bug.components),
                description=f"Filed from the customer ticket {ticket.key}.", parent=misfiled.key if state == MISFILED else None)
            if made["key"] != bug.key or int(made["id"]) != bug.id:
                raise RuntimeError(f"the filed bug is {made['key']}, not {bug.key}")

        if state is None:
            setup = (lambda db: db.execute(update(Issue).where(Issue.id == bug.id).values(parent_id=None))) if detach else None
        else:
            setup = file_bug
        filed = "" if state is None else ", just filed by engineering,"
        misplaced = f"It was filed under the wrong epic, {misfiled.key}. " if state == MISFILED else ""
        put = "move" if state == MISFILED else "put"
        return TaskInstance(
            prompt=(f"You are {s.me.name}. The bug {bug.key} (\"{bug.summary}\"){filed} came from the customer ticket {ticket.key} "
                    f"(\"{ticket.summary}\"). {misplaced}In Jira, {put} {bug.key} under the epic {epic.key} (\"{epic.summary}\") and link it "
                    f"so that {bug.key} blocks {ticket.key}."),
            checks=[Check(f"{bug.key} under {epic.key}", under_epic), Check(f"{bug.key} blocks {ticket.key}", blocks)],
            # A note on the epic (a comment saying the bug joined it) is a careful step, not collateral.
            expected=[*allow_issue(bug.id, {"parent_id"}), *allow_issue(ticket.id), Expect("tickets_links", "insert", on_links),
                      *notes(lambda c: c.row.get("issue_id") == epic.id), bumped()],
            oracle=oracle,
            setup=setup,
            alternatives=(by_fields,),
            moves=Moves(
                say=lambda tools, text: comment(tools, bug.key, text),
                wrong=wrong,
                everything=everything,
                wrong_record=lambda tools: link(tools, bug.key, other_tickets[0].key),
                shotgun=lambda tools: _shotgun(tools, bug.key, epic.key, [ticket.key, *[t.key for t in other_tickets]], link),
                wreck=wreck,
            ),
            facts={"issue": bug.key, "epic": epic.key, "blocks": ticket.key, "filed": state},
        )


async def _shotgun(tools: Tools, bug: str, epic: str, targets: list[str], link) -> None:
    await tools.call("jira_link_to_epic", issue_key=bug, epic_key=epic)
    for target in targets:
        await link(tools, bug, target)
        await link(tools, target, bug)
