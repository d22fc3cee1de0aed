"""A total explained by its parts passes only when the parts are true, and a part said before
the total is an answer offered: two made-up figures that add up to the answer ("$X: $A + $B")
offer amounts the data does not hold, as crm/pipeline-question and cross/pipeline-report
already read it. Before, the sheets answer
families took any split that added up, and every family read one deal said alone as a part
wherever it stood ("It's $812,400." then the total: 1.0)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rollouts import Rollout

Make = Callable[..., Rollout]


def test_answer_from_xlsx_a_made_up_split_of_the_right_total_fails(rollout: Make) -> None:
    r = rollout("sheets/answer-from-xlsx-v1", seed=0, where=lambda f: f["question"] == "overdue")
    total = r.facts["answer"]
    made_up = total // 3 + 7  # no invoice's amount, nor a sum of them, in the drawn files
    r.run(lambda tools: tools.call("slack_post_message", channel_id=r.facts["dm"],
                                   text=f"${total:,} overdue: ${made_up:,} + ${total - made_up:,}"))
    assert r.fails(), json.dumps(r.grade())


def test_answer_from_xlsx_the_right_total_alone_still_passes(rollout: Make) -> None:
    r = rollout("sheets/answer-from-xlsx-v1", seed=0, where=lambda f: f["question"] == "overdue")
    r.run(lambda tools: tools.call("slack_post_message", channel_id=r.facts["dm"], text=f"${r.facts['answer']:,} is overdue."))
    assert r.passes(), json.dumps(r.grade())


async def _rep_deals_and_dm(tools: Any, facts: dict) -> tuple[list[float], str]:
    query = f"SELECT Amount FROM Opportunity WHERE OwnerId = '{facts['rep']}' AND {facts['condition']}"
    found = await tools.call("salesforce_run_soql", query=query)
    dm = (await tools.call("slack_open_dm", users=facts["asker"]))["channel"]["id"]
    return sorted(r["Amount"] for r in found["records"]), dm


def test_crm_pipeline_question_one_deal_said_as_the_answer_before_the_total_fails(rollout: Make) -> None:
    """"It's $812,400." (one of the deals) and then the total: the first figure was offered as
    the answer. It scored 1.0: a deal's amount named alone was read as a part wherever it stood."""
    r = rollout("crm/pipeline-question-v1", seed=0, where=lambda f: f["rep"] is not None)

    async def solve(tools: Any) -> None:
        deals, dm = await _rep_deals_and_dm(tools, r.facts)
        await tools.call("slack_post_message", channel_id=dm, text=f"It's ${deals[-1]:,.0f}.")
        await tools.call("slack_post_message", channel_id=dm, text=f"${r.facts['total']:,.0f} per Salesforce.")

    r.run(solve)
    assert r.fails(), json.dumps(r.grade())


def test_crm_pipeline_question_the_total_then_its_largest_deal_passes(rollout: Make) -> None:
    r = rollout("crm/pipeline-question-v1", seed=0, where=lambda f: f["rep"] is not None)

    async def solve(tools: Any) -> None:
        deals, dm = await _rep_deals_and_dm(tools, r.facts)
        await tools.call("slack_post_message", channel_id=dm,
                         text=f"${r.facts['total']:,.0f} per Salesforce. The largest of those deals is ${deals[-1]:,.0f}.")

    r.run(solve)
    assert r.passes(), json.dumps(r.grade())
