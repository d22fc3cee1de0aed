"""tickets/triage-support-ticket-v1: triage a new support ticket by the rules in the prompt —
priority, assignee, a label and a component.

Each rule is its own check. The ticket's other labels stay (the label is added, not swapped
in); the assignee is named by display name, so the agent must look the person up. Setting a
field to a wrong value on the way fails that rule: Jira notifies the people it names; so does
setting it on other tickets too (a label or component sprayed on look-alikes routes them all).
"""

from __future__ import annotations

import json
import random
from typing import Any

from sqlalchemy import delete, select

from apps.tickets import queries as Q
from apps.tickets.models import Component, IssueComponent, Label
from graders.checks import Check, CheckResult, failed, passed
from seed_data.tickets.lines import COMPONENTS
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import allow_issue, bumped, comment, set_elsewhere, site, unique_names, values_set, wreck

_LABELS = ("needs-info", "escalated-to-eng", "vip-customer", "billing-review")
_PRIORITIES = ("Highest", "High", "Low")
_COMPONENTS = ("Authentication", "Integrations", "Reporting", "Billing", "Mobile", "API")
# The rules fit the ticket: an outage (Incident) is urgent, a request (Task) is not; a ticket goes to
# engineering only when it is a problem, to billing review only when it is about billing; its
# component is the one its summary is about.
_PRIORITY_FITS = {"Incident": ("Highest", "High"), "Bug": ("High", "Low"), "Task": ("Low",)}


def _labels_for(ticket: Any, component: str) -> tuple[str, ...]:
    return tuple(label for label in _LABELS if (label != "escalated-to-eng" or ticket.type in ("Bug", "Incident"))
                 and (label != "billing-review" or component == "Billing"))


def _component_for(ticket: Any) -> str | None:
    text = ticket.summary.lower()
    return next((name for name, words in COMPONENTS["SUP"] if any(w in text for w in words)), None)


class TriageSupportTicket:
    id = "tickets/triage-support-ticket-v1"
    apps = ("tickets",)
    difficulty = "medium"
    summary = "Triage a new support ticket: set its priority, assignee, a label and its component by the prompt's rules."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        """The new tickets (the pool, under the family's id), the support people who may take one, and the rule's values."""
        s = site(ctx)
        def build() -> tuple:
            found = []
            for t in s.tickets:
                component = _component_for(t) if t.project == "SUP" and t.status == "To Do" and t.assignee is None else None
                if component is None:
                    continue
                found += [(t, priority, label, component) for priority in _PRIORITY_FITS.get(t.type, ()) if priority != t.priority
                          for label in _labels_for(t, component) if label not in t.labels]
            return shuffled(self.id, ctx, found)

        new = cached(ctx, self.id, build)
        support = cached(ctx, f"{self.id}|support", lambda: shuffled(self.id, ctx, [
            p for p in unique_names(s.people.values()) if p.team == "support"], "who"))
        return (new, support)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        axes = self._axes(ctx)
        (ticket, priority, label, component), person = choose(self.id, ctx.variant, *axes)
        # A new ticket is untriaged: one the seeded desk already gave its component starts without it.
        clear = bool(ticket.components)
        others = [t for t in dict.fromkeys(x[0] for x in axes[0]) if t.key != ticket.key]
        wrong_person = next(p for p in axes[1] if p.account_id != person.account_id)
        want_labels = sorted({*ticket.labels, label})

        def field_check(name: str, changelog_field: str, want: str, read, weight: float = 1.0) -> Check:
            def test(db) -> CheckResult:
                got = read(db)
                if got != want:
                    return failed(f"{name} of {ticket.key} is {got!r}, not {want!r}")
                detour = [v for v in values_set(db, ticket.id, changelog_field, s.start) if v not in (want, None)]
                if detour:
                    return failed(f"{name} of {ticket.key} was set to {detour[0]!r} along the way")
                # The rule routes this ticket: setting the same field on other tickets too routes them as well.
                elsewhere = set_elsewhere(db, ticket.id, changelog_field, s.me.account_id, s.start)
                if elsewhere:
                    return failed(f"{name} of {ticket.key} is {want}, but you also changed the {name} of {', '.join(elsewhere[:5])}")
                return passed(f"{name} is {want}")
            return Check(f"{ticket.key} {name} is {want}", test, weight)

        def issue(db) -> Any:
            return Q.issue_by_id(db, ticket.id)  # a plain row: graders read, never write

        def assignee_name(db) -> str | None:
            row = issue(db)
            user = Q.USER_BY_ID.first(db, id=row.assignee_id) if row is not None and row.assignee_id else None
            return user.display_name if user else None

        def labels(db) -> str:
            return " ".join(sorted(db.scalars(select(Label.label).where(Label.issue_id == ticket.id))))

        def components(db) -> str:
            return ", ".join(sorted(db.scalars(select(Component.name).join(IssueComponent, IssueComponent.component_id == Component.id)
                                               .where(IssueComponent.issue_id == ticket.id))))

        async def oracle(tools: Tools) -> None:
            await tools.call("jira_update_issue", issue_key=ticket.key, components=component, fields=json.dumps({
                "priority": {"name": priority}, "assignee": person.email, "labels": want_labels}))

        async def one_at_a_time(tools: Tools) -> None:
            """Look the person up, then set each field with its own call (labels through Jira's add verb)."""
            found = await tools.call("jira_get_user_profile", user_identifier=person.name)
            await tools.call("jira_assign_issue", issue_key=ticket.key, assignee=found["account_id"])
            await tools.call("jira_update_issue", issue_key=ticket.key, fields="{}", additional_fields=json.dumps({"priority": {"name": priority}}))
            current = await tools.call("jira_get_issue", issue_key=ticket.key, fields="labels,components")
            await tools.call("jira_update_issue", issue_key=ticket.key, fields=json.dumps({"labels": [*current["labels"], label], "components": [component]}))

        async def triage(tools: Tools, key: str, who: str, prio: str, lab: str, comp: str) -> None:
            await tools.call("jira_update_issue", issue_key=key, components=comp, fields=json.dumps({
                "priority": {"name": prio}, "assignee": who, "labels": [lab]}))

        wrong_priority = next(p for p in _PRIORITIES if p not in (priority, ticket.priority))
        return TaskInstance(
            prompt=(f"You are {s.me.name}. Triage the new support ticket {ticket.key} (\"{ticket.summary}\") in Jira by our rules: "
                    f"priority {priority}; assign it to {person.name}; add the label \"{label}\" (keep its other labels); "
                    f"set its component to {component}."),
            checks=[
                field_check("priority", "priority", priority, lambda db: issue(db).priority if issue(db) else None),
                field_check("assignee", "assignee", person.name, assignee_name),
                # Label and component route the ticket (queues, reports): a spray of them routes it everywhere, so they weigh more.
                field_check("labels", "labels", " ".join(want_labels), labels, 1.5),
                field_check("component", "Component", component, components, 1.5),
            ],
            expected=[*allow_issue(ticket.id, {"priority", "assignee_id"}, labels=True, components=True), bumped()],
            oracle=oracle,
            setup=(lambda db: db.execute(delete(IssueComponent).where(IssueComponent.issue_id == ticket.id))) if clear else None,
            alternatives=(one_at_a_time,),
            moves=Moves(
                say=lambda tools, text: comment(tools, ticket.key, text),
                wrong=lambda tools: triage(tools, ticket.key, wrong_person.email, wrong_priority, _LABELS[0] if label != _LABELS[0] else _LABELS[1], component),
                everything=lambda tools: tools.call("jira_update_issue", issue_key=ticket.key, components=",".join(_COMPONENTS), fields=json.dumps({
                    "priority": {"name": priority}, "assignee": person.email, "labels": [*ticket.labels, *_LABELS]})),
                wrong_record=lambda tools: triage(tools, others[0].key, person.email, priority, label, component),
                shotgun=lambda tools: _each(tools, [ticket.key, *[t.key for t in others[:3]]], person.email, priority, want_labels, component),
                wreck=wreck,
            ),
            facts={"issue": ticket.key, "priority": priority, "assignee": person.account_id, "label": label, "component": component},
        )


async def _each(tools: Tools, keys: list[str], who: str, priority: str, labels: list[str], component: str) -> None:
    for key in keys:
        await tools.call("jira_update_issue", issue_key=key, components=component, fields=json.dumps({
            "priority": {"name": priority}, "assignee": who, "labels": labels}))
