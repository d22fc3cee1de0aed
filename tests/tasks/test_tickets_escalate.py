"""The escalate-to-engineering family beyond `tasks validate`: the prompt identifies the support
ticket only by customer and symptom (never its key or summary); priorities follow the
customer's CRM tier under the policy the prompt states; the tickets families cover three
difficulty tiers; and a bug filed right in every field but on the wrong support ticket, or
with the priority of another tier, fails the checks concerned."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from officegym.gym import Gym
from officegym.validate import McpTools, server_for
from tasks import registry

FAMILY = "tickets/escalate-to-engineering-v1"


def test_tickets_families_span_three_tiers() -> None:
    tickets = [f for f in registry.FAMILIES if "tickets" in f.apps]
    assert len(tickets) >= 10
    assert {f.difficulty for f in tickets} == {"easy", "medium", "hard"}


def test_the_prompt_names_the_customer_and_symptom_not_the_ticket(gym: Gym) -> None:
    company = gym.template(0, "small").company
    for variant in range(6):
        env = gym.create(FAMILY, variant=variant)
        try:
            instance = gym.instance(env)
            facts = instance.facts
            ticket = next(t for t in company.tickets if t.key == facts["issue"])
            assert facts["issue"] not in instance.prompt and ticket.summary not in instance.prompt
            assert facts["customer"] in instance.prompt
            assert f"{facts['tier']} → {facts['priority']}" in instance.prompt
            assert facts["summary"] == f"[{facts['customer']}] {ticket.summary}"
        finally:
            gym.delete(env.id)
    assert gym.count_instances(FAMILY, 0) >= 20


def _grade(gym: Gym, variant: int, change: dict[str, Any]) -> dict[str, Any]:
    """File the bug by the instance's facts with `change` applied, link it and comment; the grade."""
    env = gym.create(FAMILY, variant=variant)
    try:
        facts = {**gym.instance(env).facts, **change}

        async def act() -> None:
            async with gym.mcp_client(env.id, server_for(FAMILY)) as client:
                tools = McpTools(client)
                made = await tools.call("jira_create_issue", project_key="ENG", summary=facts["summary"], issue_type="Bug",
                                        components=facts["component"], additional_fields=json.dumps(
                                            {"priority": {"name": facts["priority"]}, "labels": ["customer", "escalated"]}))
                key = made["issue"]["key"]
                await tools.call("jira_create_issue_link", link_type="Blocks", inward_issue_key=key, outward_issue_key=facts["issue"])
                await tools.call("jira_add_comment", issue_key=facts["issue"], body=f"Escalated as {key}.")

        asyncio.run(act())
        return gym.grade(env.id)
    finally:
        gym.delete(env.id)


def test_each_rule_is_checked(gym: Gym) -> None:
    assert _grade(gym, 2, {})["reward"] == 1.0
    wrong_priority = _grade(gym, 2, {"priority": "Lowest"})
    assert not wrong_priority["passed"] and [c["name"] for c in wrong_priority["checks"] if not c["passed"]] == [
        next(c["name"] for c in wrong_priority["checks"] if "priority" in c["name"])]
    env = gym.create(FAMILY, variant=2)
    try:
        facts = gym.instance(env).facts
    finally:
        gym.delete(env.id)
    company = gym.template(0, "small").company
    other = next(t.key for t in company.tickets if t.project == "SUP" and t.customer_id and t.status != "Done" and t.key != facts["issue"])
    wrong_ticket = _grade(gym, 2, {"issue": other})
    assert wrong_ticket["reward"] < 0.5 and not wrong_ticket["passed"], wrong_ticket
