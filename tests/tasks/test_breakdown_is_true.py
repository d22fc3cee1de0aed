"""A total explained by its parts passes only when the parts are true: two made-up figures
that add up to the answer ("$X: $A + $B") offer amounts the file does not hold, as
crm/pipeline-question and cross/pipeline-report already read it. Before, the sheets answer
families took any split that added up."""

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
