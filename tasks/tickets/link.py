"""tickets/link-bug-to-epic-v1: file an engineering bug where it belongs — under the epic
the prompt names, and linked so that it blocks the customer's support ticket it came from.

The link's direction matters ("ENG-7 blocks SUP-12", not the reverse), and a bug put under
another epic first, or linked to other tickets, fails the check concerned.
"""

from __future__ import annotations

import json
import random

from sqlalchemy import select, update

from apps.tickets.models import Issue, Link
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.common.variants import cached, choose, count, shuffled
from seed_data.tickets.lines import EPIC_OF_COMPONENT, topic_of
from tasks.tickets._common import allow_issue, bumped, notes, blocks_only, comment, site, values_set, wreck


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

        return cached(ctx, self.id, triples), cached(ctx, f"{self.id}|epics", epics)

    def _last_link(self, ctx: SampleContext) -> int:
        """The newest link when the task begins: links with a higher id are the agent's."""
        return cached(ctx, f"{self.id}|last-link", lambda: ctx.db.scalar(select(Link.id).order_by(Link.id.desc()).limit(1)) or 0)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._axes(ctx)[0])

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        triples, epics = self._axes(ctx)
        ((bug, ticket, epic),) = choose(self.id, ctx.variant, triples)
        # A bug filed under its epic already is taken out of it first: the task is to put it there.
        detach = bug.parent == epic.id
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

        return TaskInstance(
            prompt=(f"You are {s.me.name}. The bug {bug.key} (\"{bug.summary}\") came from the customer ticket {ticket.key} "
                    f"(\"{ticket.summary}\"). In Jira, put {bug.key} under the epic {epic.key} (\"{epic.summary}\") and link it "
                    f"so that {bug.key} blocks {ticket.key}."),
            checks=[Check(f"{bug.key} under {epic.key}", under_epic), Check(f"{bug.key} blocks {ticket.key}", blocks)],
            # A note on the epic (a comment saying the bug joined it) is a careful step, not collateral.
            expected=[*allow_issue(bug.id, {"parent_id"}), *allow_issue(ticket.id), Expect("tickets_links", "insert", on_links),
                      *notes(lambda c: c.row.get("issue_id") == epic.id), bumped()],
            oracle=oracle,
            setup=(lambda db: db.execute(update(Issue).where(Issue.id == bug.id).values(parent_id=None))) if detach else None,
            alternatives=(by_fields,),
            moves=Moves(
                say=lambda tools, text: comment(tools, bug.key, text),
                wrong=wrong,
                everything=everything,
                wrong_record=lambda tools: link(tools, bug.key, other_tickets[0].key),
                shotgun=lambda tools: _shotgun(tools, bug.key, epic.key, [ticket.key, *[t.key for t in other_tickets]], link),
                wreck=wreck,
            ),
            facts={"issue": bug.key, "epic": epic.key, "blocks": ticket.key},
        )


async def _shotgun(tools: Tools, bug: str, epic: str, targets: list[str], link) -> None:
    await tools.call("jira_link_to_epic", issue_key=bug, epic_key=epic)
    for target in targets:
        await link(tools, bug, target)
        await link(tools, target, bug)
