"""The questions a colleague asks about the seeded spreadsheets whose answer is one amount of
money read off a sheet (sheets/answer-from-sheet-v1): a rep's closed-won total or open
pipeline, the amount or weighted amount in one stage, one deal's amount (a lookup), a rep's
biggest won deal (a max with its row), the average of a rep's open deals, a team's planned
cost (the Headcount Plan) or total cost (the Budget).

Each question has one answer, computed from the template's own cells when the template is
first sampled; only questions whose answer is not zero and differs from every other answer of
its kind are asked (so a wrong subject's figure is never right by chance), and an amount the
sheet shows rounded (a weighted sum with cents, an average) is asked only when it is whole.
Each question knows how to read its answer through the agent-facing tools, two ways: from the
cell that holds it, and worked out from the rows it comes from.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from tasks.base import SampleContext, Tools
from tasks.common.variants import shuffled
from tasks.sheets._common import seeded, template_book

FORECAST, HEADCOUNT, BUDGET = "Sales Forecast", "Headcount Plan", "Budget"
MOST_PER_KIND = 8  # questions of one kind on a company, so every kind gets its share of the instances
CLOSED = ("Closed Won", "Closed Lost")


@dataclass(frozen=True, slots=True)
class Question:
    kind: str
    subject: str  # the rep, stage, deal or team asked about
    value: Decimal  # the answer
    text: str  # the question, as the asker writes it
    book: str  # the spreadsheet's title prefix
    parts: tuple[Decimal, ...] = ()  # the amounts the answer is the sum of (each deal's, a plan row's salary and opex), when it is one
    rate: Decimal | None = None  # the amount per head the answer is a multiple of (a team's planned cost), when it is one


def _whole(value: float) -> Decimal | None:
    """The value as a whole amount of money, or None when it has cents (the sheet shows it rounded)."""
    cents = round(value * 100)
    return Decimal(cents // 100) if cents % 100 == 0 else None


def money(shown: Any) -> Decimal | None:
    """A shown cell ("$1,234,500", "1234500") as the amount it is."""
    text = str(shown).replace("$", "").replace(",", "").strip()
    try:
        return Decimal(text) if text else None
    except InvalidOperation:
        return None


def questions(family_id: str, ctx: SampleContext) -> tuple[Question, ...]:
    """Every question this template answers, at most MOST_PER_KIND of each kind, shuffled."""
    forecast = seeded(ctx, FORECAST)
    cells = template_book(ctx, forecast.id)
    pipe, summary = forecast.tabs["Pipeline"], forecast.tabs["Summary"]
    last = max(r for (s, r, c) in cells.inputs if s == pipe and c == 0)
    deals = [[cells.get((pipe, r, c)) for c in range(9)] for r in range(1, last + 1)]
    title = forecast.title
    found: dict[str, list[tuple[str, float | None, str, str, tuple[Any, ...], Any]]] = {}  # kind -> (subject, value, question, book, parts, rate)

    def ask(kind: str, subject: str, value: float | None, text: str, book: str = FORECAST, parts: tuple[Any, ...] = (),
            rate: Any = None) -> None:
        found.setdefault(kind, []).append((subject, value, text, book, parts, rate))

    reps = sorted({d[3] for d in deals})
    for rep in reps:
        theirs = [d for d in deals if d[3] == rep]
        won = [d[5] for d in theirs if d[4] == "Closed Won"]
        open_ = [d[5] for d in theirs if d[4] not in CLOSED]
        ask("won", rep, sum(won), f"Quick one: how much has {rep} closed-won so far? Check the \"{title}\" sheet please.", parts=tuple(won))
        ask("open", rep, sum(open_), f"Quick one: what's {rep}'s open pipeline on the \"{title}\" sheet, the total of their open deals?",
            parts=tuple(open_))
        top = sorted(won, reverse=True)
        if len(top) >= 2 and top[0] != top[1]:
            ask("biggest", rep, top[0], f"Quick one: what was {rep}'s biggest closed-won deal worth? It's all in the \"{title}\" sheet.")
        if len(open_) >= 2:
            average = sum(open_) / len(open_)
            ask("average", rep, average if _whole(average) is not None else None,
                f"Quick one: what's the average amount of {rep}'s open deals? You'll find them in the \"{title}\" sheet.")
    for r in range(1, 11):  # the Summary's block by stage
        stage, amount, weighted = cells.get((summary, r, 0)), cells.get((summary, r, 2)), cells.get((summary, r, 3))
        ask("stage", stage, amount, f"Quick one: how much is in {stage} on the \"{title}\" sheet, the total amount of those deals?",
            parts=tuple(d[5] for d in deals if d[4] == stage))
        if stage not in CLOSED:
            ask("weighted", stage, weighted if _whole(weighted) is not None else None,
                f"Quick one: what's the weighted amount of the deals in {stage} on the \"{title}\" sheet?",
                parts=tuple(d[8] for d in deals if d[4] == stage))
    names = [d[2] for d in deals]
    for d in deals:
        if names.count(d[2]) == 1 and d[4] not in CLOSED:
            ask("deal", d[2], d[5], f"Quick one: what's the amount on the {d[2]} deal? It's on the \"{title}\" sheet.")
    for prefix, tab, kind, column, what in ((HEADCOUNT, "By Team", "planned", 5, "planned cost"), (BUDGET, "Plan", "cost", 4, "total cost")):
        book = seeded(ctx, prefix)
        plan, sheet = template_book(ctx, book.id), book.tabs[tab]
        for r in range(1, 40):
            team = plan.get((sheet, r, 0))
            if team in (None, "", "Total"):
                break
            ask(kind, team, plan.get((sheet, r, column)),
                f"Quick one: what's the {what} of the {team} team in the \"{book.title}\" sheet?", prefix,
                parts=(plan.get((sheet, r, 2)), plan.get((sheet, r, 3))) if kind == "cost" else (),
                rate=plan.get((sheet, r, 4)) if kind == "planned" else None)
    chosen: list[Question] = []
    for kind, asked in found.items():
        values = [v for _, v, _, _, _, _ in asked]
        fit = [Question(kind, subject, Decimal(str(round(value, 2))).normalize(), text, book, _amounts(parts),
                        (_amounts((rate,)) or (None,))[0] if rate is not None else None)
               for subject, value, text, book, parts, rate in asked if value and values.count(value) == 1]
        chosen += shuffled(family_id, ctx, fit, kind)[:MOST_PER_KIND]
    return shuffled(family_id, ctx, chosen)


def _amounts(parts: tuple[Any, ...]) -> tuple[Decimal, ...]:
    """The parts of an answer as amounts, when every one is a number (else none: no breakdown is read)."""
    if not all(isinstance(p, (int, float)) and not isinstance(p, bool) for p in parts):
        return ()
    return tuple(Decimal(str(round(p, 2))).normalize() for p in parts)


# -- reading the answer through the tools -------------------------------------------------------
async def _rows(tools: Tools, spreadsheet_id: str, tab: str, raw: bool = False) -> list[list[Any]]:
    if raw:
        return await tools.call("get_sheet_formulas", spreadsheet_id=spreadsheet_id, sheet=tab)
    found = await tools.call("get_sheet_data", spreadsheet_id=spreadsheet_id, sheet=tab)
    return found["valueRanges"][0]["values"]


def _row(lines: list[list[Any]], label: str) -> list[Any]:
    return next(line for line in lines if line and line[0] == label)


def _pipeline(lines: list[list[Any]]) -> list[list[Any]]:
    return [line + [""] * (9 - len(line)) for line in lines[1:] if line]


def reader(question: Question, spreadsheet_id: str) -> Callable[[Tools], Awaitable[Decimal]]:
    """The answer read from the cell that holds it (a Summary or plan row, or the deal's row)."""
    q = question

    async def read(tools: Tools) -> Decimal:
        if q.kind in ("won", "open", "stage", "weighted"):
            lines = await _rows(tools, spreadsheet_id, "Summary")
            row = next((line for line in lines if line and line[0] == q.subject), None)
            if row is None:  # a rep the Summary does not list (it shows the busiest few): summed from the Pipeline
                return await worker(q, spreadsheet_id)(tools)
            return money(row[{"won": 2, "open": 1, "stage": 2, "weighted": 3}[q.kind]])
        if q.kind == "planned":
            return money(_row(await _rows(tools, spreadsheet_id, "By Team"), q.subject)[5])
        if q.kind == "cost":
            return money(_row(await _rows(tools, spreadsheet_id, "Plan"), q.subject)[4])
        deals = _pipeline(await _rows(tools, spreadsheet_id, "Pipeline"))
        if q.kind == "deal":
            return money(next(d for d in deals if d[2] == q.subject)[5])
        if q.kind == "biggest":
            return max(money(d[5]) for d in deals if d[3] == q.subject and d[4] == "Closed Won")
        mine = [money(d[5]) for d in deals if d[3] == q.subject and d[4] not in CLOSED]  # average
        return sum(mine, Decimal(0)) / len(mine)

    return read


def worker(question: Question, spreadsheet_id: str) -> Callable[[Tools], Awaitable[Decimal]]:
    """The answer worked out from the rows it comes from (the Pipeline's typed values, a plan row's parts)."""
    q = question

    async def work(tools: Tools) -> Decimal:
        if q.kind == "planned":
            row = _row(await _rows(tools, spreadsheet_id, "By Team"), q.subject)
            return (money(row[1]) + money(row[2])) * money(row[4])
        if q.kind == "cost":
            row = _row(await _rows(tools, spreadsheet_id, "Plan"), q.subject)
            return money(row[2]) + money(row[3])
        raw = _pipeline(await _rows(tools, spreadsheet_id, "Pipeline", raw=True))
        stages = {line[0]: Decimal(str(line[1])) for line in (await _rows(tools, spreadsheet_id, "Stages", raw=True))[1:] if line}
        amounts = [(d, Decimal(str(d[5]))) for d in raw]
        if q.kind == "won":
            return sum((a for d, a in amounts if d[3] == q.subject and d[4] == "Closed Won"), Decimal(0))
        if q.kind == "open":
            return sum((a for d, a in amounts if d[3] == q.subject and d[4] not in CLOSED), Decimal(0))
        if q.kind == "stage":
            return sum((a for d, a in amounts if d[4] == q.subject), Decimal(0))
        if q.kind == "weighted":
            return sum((a * stages[d[4]] for d, a in amounts if d[4] == q.subject), Decimal(0))
        if q.kind == "deal":
            return next(a for d, a in amounts if d[2] == q.subject)
        if q.kind == "biggest":
            return max(a for d, a in amounts if d[3] == q.subject and d[4] == "Closed Won")
        mine = [a for d, a in amounts if d[3] == q.subject and d[4] not in CLOSED]  # average
        return sum(mine, Decimal(0)) / len(mine)

    return work
