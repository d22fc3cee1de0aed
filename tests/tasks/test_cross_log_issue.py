"""cross/log-customer-issue-v1 across Slack, Jira and Salesforce: the rules in the DM are what is
graded, each part on its own; correct work in other forms passes, and a second ticket, a key
list, a case naming another ticket, or the tier changed to fit a priority fails."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

from officegym.validate import McpTools

TASK = "cross/log-customer-issue-v1"


async def _ticket(tools: McpTools, summary: str, priority: str, project: str = "SUP") -> str:
    made = await tools.call("jira_create_issue", project_key=project, summary=summary, issue_type="Bug",
                            additional_fields=json.dumps({"priority": {"name": priority}}))
    return made["issue"]["key"]


async def _case(tools: McpTools, f: dict[str, Any], key: str, **fields: Any) -> None:
    record = {"AccountId": f["account"], "Subject": f["summary"], "Priority": f["priority"], "Jira_Issue_Key__c": key, **fields}
    text = await tools.call("salesforce_dml_records", operation="insert", objectName="Case", records=[record])
    assert "- Failed: 0" in str(text), text


def _solve(r: Rollout, *, summary: str | None = None, priority: str | None = None, key_case: Callable[[str], str] = str,
           reply: Callable[[str], str] = lambda key: f"Logged as {key}.", extra: Callable[[McpTools, str], Any] | None = None,
           **case_fields: Any) -> dict[str, Any]:
    f = r.facts

    async def go(tools: McpTools) -> None:
        key = await _ticket(tools, summary or f["summary"], priority or f["priority"])
        await _case(tools, f, key_case(key), **case_fields)
        await tools.call("slack_post_message", channel_id=f["dm"], text=reply(key))
        if extra is not None:
            await extra(tools, key)

    r.run(go)
    return r.grade()


def test_the_priority_is_the_tier_salesforce_gives(rollout: Callable[..., Rollout]) -> None:
    for variant in range(0, 24, 5):
        r = rollout(TASK, variant=variant)
        f = r.facts
        tier = r.call("salesforce_run_soql", query=f"SELECT Tier__c FROM Account WHERE Id = '{f['account']}'")["records"][0]["Tier__c"]
        assert f["priority"] == {"Enterprise": "High", "Mid-Market": "Medium", "SMB": "Low"}[tier]


def test_other_spellings_of_the_same_work_pass(rollout: Callable[..., Rollout]) -> None:
    """The summary in other case with a full stop, the key typed in lower case on the case, the
    problem described on the case, and the key in a sentence."""
    r = rollout(TASK, variant=1)
    f = r.facts
    grade = _solve(r, summary=f["summary"].lower() + ".", key_case=str.lower, Description=f"Customer reported: {f['problem']}.",
                   reply=lambda key: f"Done: {key} (the case on their account points at it)")
    assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade)


@pytest.mark.parametrize("attack", ["second ticket", "key list", "case names another key", "wrong priority", "tier changed"])
def test_gaming_the_log_fails(rollout: Callable[..., Rollout], attack: str) -> None:
    r = rollout(TASK, variant=2)
    f = r.facts
    wrong = next(p for p in ("High", "Medium", "Low") if p != f["priority"])
    kwargs: dict[str, Any] = {}
    if attack == "second ticket":
        kwargs["extra"] = lambda tools, key: _ticket(tools, f["summary"] + " (copy)", f["priority"])
    elif attack == "key list":
        kwargs["reply"] = lambda key: f"{key} or SUP-1"
    elif attack == "case names another key":
        kwargs["Description"] = "Same as SUP-1"
    elif attack == "wrong priority":
        kwargs["priority"] = wrong
    else:
        async def refit(tools: McpTools, _key: str) -> None:  # the account's tier changed to fit the priority chosen
            tier = {"High": "Enterprise", "Medium": "Mid-Market", "Low": "SMB"}[wrong]
            await tools.call("salesforce_dml_records", operation="update", objectName="Account", records=[{"Id": f["account"], "Tier__c": tier}])
        kwargs.update(priority=wrong, extra=refit)
    grade = _solve(r, **kwargs)
    assert not grade["passed"], (attack, json.dumps(grade))
    assert grade["reward"] < 1.0
