"""Round 13: the tickets and sheets families solved from the prompt alone, the way a careful
agent would, and graded. Each test is a reasonable solution the grader refused (or an
unreasonable one it took) before its fix."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from rollouts import Rollout

Make = Callable[..., Rollout]


async def _dm_question(tools: Any, facts: dict) -> dict:
    history = await tools.call("slack_get_channel_history", channel_id=facts["dm"], limit=5)
    return next(m for m in history["messages"] if m["user"] == facts["asker"])


# -- answers that show their working --------------------------------------------------------------
# A manager asks for a total; the reply gives it and the rows it adds up from, as a person
# explaining a figure does. The parts are no other figure offered: the crm and cross families
# already read them so, the two sheets answer families named every part "not the answer".

@pytest.mark.parametrize("kind", ["overdue", "unpaid", "product", "month"])
def test_answer_from_xlsx_total_with_its_invoice_breakdown_passes(rollout: Make, kind: str) -> None:
    r = rollout("sheets/answer-from-xlsx-v1", seed=0, where=lambda f: f["question"] == kind)

    async def solve(tools: Any) -> None:
        asked = await _dm_question(tools, r.facts)
        file_id = re.search(r"/file/d/([\w-]+)", asked["text"]).group(1)
        sid = (await tools.call("import_xlsx", file_id=file_id))["spreadsheetId"]
        rows = (await tools.call("get_sheet_data", spreadsheet_id=sid, sheet="Invoices"))["valueRanges"][0]["values"]
        invoices = [row for row in rows[1:] if row and row[0].startswith("INV-")]
        subject = r.facts["subject"]
        keep = {"overdue": lambda x: x[6] == "Overdue", "unpaid": lambda x: x[6] != "Paid", "product": lambda x: x[2] == subject,
                "month": lambda x: x[1][:7] == _month_prefix(subject)}[kind]
        chosen = [row for row in invoices if keep(row)]
        assert len(chosen) >= 2
        total = sum(int(row[5].replace("$", "").replace(",", "")) for row in chosen)
        lines = ", ".join(f"{row[0]} ({row[1]}, {row[5]})" for row in chosen)
        await tools.call("slack_post_message", channel_id=r.facts["dm"], text=f"${total:,} in total, across {len(chosen)} invoices: {lines}")

    r.run(solve)
    assert r.passes(), json.dumps(r.grade())


def _month_prefix(subject: str) -> str:
    from datetime import datetime

    return datetime.strptime(subject, "%B %Y").strftime("%Y-%m")


def test_answer_from_xlsx_a_hedge_between_two_totals_still_fails(rollout: Make) -> None:
    r = rollout("sheets/answer-from-xlsx-v1", seed=0, where=lambda f: f["question"] == "overdue")
    wrong = r.facts["answer"] + 2400
    r.run(lambda tools: tools.call("slack_post_message", channel_id=r.facts["dm"],
                                   text=f"${r.facts['answer']:,}, or maybe ${wrong:,} with the latest one"))
    assert r.fails(), json.dumps(r.grade())


@pytest.mark.parametrize("kind", ["open", "won", "stage", "cost"])
def test_answer_from_sheet_total_with_the_rows_it_adds_up_from_passes(rollout: Make, kind: str) -> None:
    r = rollout("sheets/answer-from-sheet-v1", seed=0, where=lambda f: f["kind"] == kind)

    async def solve(tools: Any) -> None:
        sid = r.facts["spreadsheet"]
        subject = r.facts["subject"]
        if kind == "cost":
            rows = (await tools.call("get_sheet_data", spreadsheet_id=sid, sheet="Plan"))["valueRanges"][0]["values"]
            row = next(x for x in rows if x and x[0] == subject)
            text = f"{row[4]} for {subject}: {row[2]} salaries plus {row[3]} opex."
        else:
            rows = (await tools.call("get_sheet_data", spreadsheet_id=sid, sheet="Pipeline"))["valueRanges"][0]["values"]
            deals = [x for x in rows[1:] if x]
            pick = {"open": lambda d: d[3] == subject and d[4] not in ("Closed Won", "Closed Lost"),
                    "won": lambda d: d[3] == subject and d[4] == "Closed Won", "stage": lambda d: d[4] == subject}[kind]
            chosen = [d for d in deals if pick(d)]
            assert len(chosen) >= 2
            total = sum(int(d[5].replace("$", "").replace(",", "")) for d in chosen)
            text = f"${total:,} — " + "; ".join(f"{d[2]}: {d[5]}" for d in chosen)
        await tools.call("slack_post_message", channel_id=r.facts["dm"], text=text)

    r.run(solve)
    assert r.passes(), json.dumps(r.grade())


def test_answer_from_sheet_total_beside_another_reps_total_still_fails(rollout: Make) -> None:
    r = rollout("sheets/answer-from-sheet-v1", seed=0, where=lambda f: f["kind"] == "open")
    total = r.facts["total"]
    r.run(lambda tools: tools.call("slack_post_message", channel_id=r.facts["dm"], text=f"${total:,.0f}, or ${total / 2:,.0f} if you mean this quarter"))
    assert r.fails(), json.dumps(r.grade())


def test_answer_from_xlsx_one_invoice_said_as_the_answer_then_the_total_fails(rollout: Make) -> None:
    """A part said alone is another answer: the breakdown reading needs parts that add up."""
    r = rollout("sheets/answer-from-xlsx-v1", seed=0, where=lambda f: f["question"] == "month")

    async def solve(tools: Any) -> None:
        asked = await _dm_question(tools, r.facts)
        file_id = re.search(r"/file/d/([\w-]+)", asked["text"]).group(1)
        sid = (await tools.call("import_xlsx", file_id=file_id))["spreadsheetId"]
        rows = (await tools.call("get_sheet_data", spreadsheet_id=sid, sheet="Invoices"))["valueRanges"][0]["values"]
        one = next(row for row in rows[1:] if row and row[0].startswith("INV-") and row[1][:7] == _month_prefix(r.facts["subject"]))
        await tools.call("slack_post_message", channel_id=r.facts["dm"], text=f"It's {one[5]}.")
        await tools.call("slack_post_message", channel_id=r.facts["dm"], text=f"${r.facts['answer']:,} per the file.")

    r.run(solve)
    assert r.fails(), json.dumps(r.grade())


# -- prompts read like a colleague's request --------------------------------------------------------
def test_summary_tab_names_its_tab_for_the_field_it_counts(sampler: Any) -> None:
    """'add a tab named "By Field" that counts the tickets by Type' read as a template's
    placeholder left in; the tab is named for its field ("By Type")."""
    titles = set()
    for variant in range(24):
        env = sampler.create("sheets/summary-tab-v1", seed=0, variant=variant)
        prompt = env.task.prompt
        sampler.delete(env.id)
        field = re.search(r"by (\w+): header", prompt).group(1)
        title = re.search(r'add a tab named "(.+?)"', prompt).group(1)
        titles.add(title)
        assert "Field" not in title, prompt
        assert title in {f"By {field}", "Ticket Counts", f"{field} Summary"}, prompt
    assert any(t.startswith("By ") for t in titles), titles


def test_reopen_prompt_says_the_customer_named_is_the_company(sampler: Any) -> None:
    """The ticket reads "Reported by Karina Jackson (CFO) at Alvarez Ltd": both are "the customer"
    to a support agent, and a comment naming the person scored 0.33. The grader wants the
    company; the prompt now says so."""
    for seed in (0, 2):
        env = sampler.create("tickets/reopen-with-comment-v1", seed=seed, variant=1)
        prompt = env.task.prompt
        sampler.delete(env.id)
        assert "which customer (the company) reported it again" in prompt, prompt


def test_plan_sprint_prompt_of_one_point_reads_as_english(sampler: Any) -> None:
    """"a capacity of 1 story points" read as a template; one point is "1 story point"."""
    env = sampler.create("tickets/plan-sprint-by-capacity-v1", seed=4, variant=17)
    prompt = env.task.prompt
    sampler.delete(env.id)
    assert "capacity of 1 story point." in prompt, prompt


async def _planned_row(tools: Any, facts: dict) -> list[str]:
    sid = (await tools.call("list_spreadsheets"))
    book = next(s["id"] for s in sid if s["title"].startswith("Headcount Plan"))
    rows = (await tools.call("get_sheet_data", spreadsheet_id=book, sheet="By Team"))["valueRanges"][0]["values"]
    return next(x for x in rows if x and x[0] == facts["subject"])


def test_answer_from_sheet_planned_cost_with_heads_times_rate_passes(rollout: Make) -> None:
    """"$1,280,000 — 4 heads at $320,000 each": the rate is how the figure is made, not another answer."""
    r = rollout("sheets/answer-from-sheet-v1", seed=0, where=lambda f: f["kind"] == "planned")

    async def solve(tools: Any) -> None:
        row = await _planned_row(tools, r.facts)
        await tools.call("slack_post_message", channel_id=r.facts["dm"], text=f"{row[5]} — {row[3]} heads at {row[4]} each.")

    r.run(solve)
    assert r.passes(), json.dumps(r.grade())


@pytest.mark.parametrize("say", ["{total}, or {rate} if you meant per head", "{rate} per head"])
def test_answer_from_sheet_planned_cost_rate_as_an_answer_still_fails(rollout: Make, say: str) -> None:
    r = rollout("sheets/answer-from-sheet-v1", seed=0, where=lambda f: f["kind"] == "planned")

    async def solve(tools: Any) -> None:
        row = await _planned_row(tools, r.facts)
        await tools.call("slack_post_message", channel_id=r.facts["dm"], text=say.format(total=row[5], rate=row[4]))

    r.run(solve)
    assert r.fails(), json.dumps(r.grade())
