"""sheets/answer-from-xlsx-v1: the acting person's manager uploaded a customer's invoice export
(.xlsx) to Drive and asks in a Slack DM, with the file's link, for one figure from it (the
unpaid or overdue total, one product's total, one month's total, the largest invoice).

The file reaches the agent only through its tools: the link in the DM names an uploaded .xlsx
(tasks/sheets/_upload.py says why this shape), which the agent converts with import_xlsx
(file_id=…) and reads. Its numbers are drawn for the task, so no seeded sheet or CRM record
answers the question. The answer is everything the agent said in the DM since the question,
read as the set of money amounts it names: exactly the asked figure (in any common form); said
with it, a rounding of it or the invoice amounts it adds up from explain it; a hedge or a list of
every figure fails. Only files where the asked figure differs from every
other figure the file yields are used.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import select

from apps.sheets.ids import google_id
from apps.sheets.models import DriveFile, Spreadsheet
from graders.checks import Check
from graders.rubric import Expect
from tasks.base import SampleContext, TaskInstance, TaskUnavailable, Tools
from tasks.chat._common import Answer, answer_moves, answered_in_dm, service_as
from tasks.chat._workspace import workspace
from tasks.common.answers import amounts, breakdown, judge, money, roundings
from tasks.common.variants import cached, choose, count, shuffled
from tasks.sheets._common import SPREADSHEET_TABLES
from tasks.sheets._upload import Invoice, Upload, upload

KINDS = ("unpaid", "overdue", "product", "month", "largest")
POOL = 12  # customers whose files are made once per template (about 14 ms each with openpyxl)


@dataclass(frozen=True, slots=True)
class Question:
    kind: str
    text: str  # as the manager asks it
    answer: int
    subject: str  # the product or month it is about ("" when none)
    parts: tuple[int, ...] = ()  # the invoice amounts the answer adds up (none for the largest invoice)


def figures(invoices: tuple[Invoice, ...]) -> dict[str, int]:
    """Every figure a reader might take from the file, by what it means."""
    out = {"total": sum(i.amount for i in invoices), "paid": sum(i.amount for i in invoices if i.status == "Paid"),
           "unpaid": sum(i.amount for i in invoices if i.status != "Paid"), "overdue": sum(i.amount for i in invoices if i.status == "Overdue"),
           "still unpaid, not overdue": sum(i.amount for i in invoices if i.status == "Unpaid"),
           "largest": max(i.amount for i in invoices), "smallest": min(i.amount for i in invoices)}
    by_product: dict[str, int] = defaultdict(int)
    by_month: dict[str, int] = defaultdict(int)
    for i in invoices:
        by_product[i.product] += i.amount
        by_month[i.day.strftime("%B %Y")] += i.amount
    out.update({f"product {p}": v for p, v in by_product.items()})
    out.update({f"month {m}": v for m, v in by_month.items()})
    return out


def questions(invoices: tuple[Invoice, ...]) -> list[Question]:
    """The questions this file answers unambiguously: its figure is no other figure's value."""
    found = figures(invoices)
    counts: dict[str, int] = defaultdict(int)
    for i in invoices:
        counts[f"product {i.product}"] += 1
        counts[f"month {i.day.strftime('%B %Y')}"] += 1
    product = next((k for k in sorted(found) if k.startswith("product ") and counts[k] >= 2), None)
    month = next((k for k in sorted(found) if k.startswith("month ") and counts[k] >= 2), None)
    asked = {
        "unpaid": ("unpaid", "What's the total still unpaid on it (Unpaid and Overdue together)?", ""),
        "overdue": ("overdue", "How much of it is overdue?", ""),
        "product": (product, f"How much did they get billed for {product[8:]} in total?" if product else "", product[8:] if product else ""),
        "month": (month, f"What's the total they were invoiced in {month[6:]}?" if month else "", month[6:] if month else ""),
        "largest": ("largest", "What's the single largest invoice on it?", ""),
    }
    summed = {"unpaid": lambda i: i.status != "Paid", "overdue": lambda i: i.status == "Overdue",
              "product": lambda i: i.product == (product or "")[8:], "month": lambda i: i.day.strftime("%B %Y") == (month or "")[6:]}
    out = []
    for kind in KINDS:
        key, text, subject = asked[kind]
        if key is None or found[key] == 0:
            continue
        if any(v == found[key] for k, v in found.items() if k != key):
            continue  # two readings give the same number: the answer could not tell them apart
        parts = tuple(i.amount for i in invoices if summed[kind](i)) if kind in summed else ()
        out.append(Question(kind, text, found[key], subject, parts))
    return out


class AnswerFromXlsx:
    id = "sheets/answer-from-xlsx-v1"
    apps = ("sheets", "chat")
    difficulty = "hard"
    summary = "Your manager shares an uploaded Excel file in Slack and asks for a figure from it; open it in Sheets and reply."

    def _pool(self, ctx: SampleContext) -> tuple[tuple[Upload, Question, str], ...]:
        def build() -> tuple[tuple[Upload, Question, str], ...]:
            out = []
            for customer in shuffled(self.id, ctx, sorted(ctx.company.customers, key=lambda c: c.id), "customer")[:POOL]:
                made = upload(ctx.company, customer, 0)
                file_id = google_id(ctx.company.seed, ctx.company.size, "upload", customer.id)
                out.extend((made, q, file_id) for q in questions(made.invoices))
            return shuffled(self.id, ctx, out, "question")

        return cached(ctx, self.id, build)

    def _seeded(self, ctx: SampleContext) -> frozenset[str]:
        return cached(ctx, f"{self.id}/seeded", lambda: frozenset(ctx.db.scalars(select(Spreadsheet.id))))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        ws = workspace(ctx)
        (made, question, file_id), = choose(self.id, ctx.variant, self._pool(ctx))
        seeded = self._seeded(ctx)
        me, since = ws.me, ws.start
        asker = ws.user_of(ctx.actor.manager_id)
        if asker is None:
            raise TaskUnavailable("the acting person has no manager in chat")
        owner = ctx.company.person(ctx.actor.manager_id).email
        dm = cached(ctx, f"{self.id}/dm", lambda: service_as(ctx.db, me.id).dm_id(me.id, asker.id))
        link = f"https://drive.google.com/file/d/{file_id}/view?usp=sharing"
        customer = made.name.removesuffix(" - invoices.xlsx")
        message = f"{customer}'s finance team sent their invoice export, I put it on Drive: {link} {question.text}"
        prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack about a file "
                  "they uploaded to Google Drive. Open it, find the answer and reply to them in that DM.")
        stamp = ctx.company.now.strftime("%Y-%m-%dT%H:%M:%S.000Z")

        def setup(session) -> None:
            session.add(DriveFile(id=file_id, name=made.name, mime_type=made.mime_type, owner_email=owner, folder_id="root", created=stamp,
                                  size=len(made.content) * 3 // 4, content=made.content))
            session.flush()
            theirs = service_as(session, asker.id)
            theirs.conversations_open(me.id)
            theirs.chat_post_message(dm, message)

        others = sorted({v for k, v in figures(made.invoices).items() if v != question.answer}) or [question.answer + 1000]
        figure = Decimal(question.answer)

        def restating(text: str) -> set[Decimal]:
            """Roundings of the figure said with it, and the invoice amounts it adds up from: the
            answer explained ("$16,200: INV-1004 $7,200 and INV-1010 $9,000"), no other figure offered."""
            rounded = roundings(figure)
            # Named parts must be the invoices' own amounts (or sums of them), as `breakdown` reads
            # them with known parts: one invoice's amount said before the figure ("It's $900.") is
            # another answer, and a made-up split offers figures the file does not hold.
            return rounded | (breakdown(text, figure, rounded, known=[Decimal(p) for p in question.parts])
                              if len(question.parts) >= 2 else set())

        answer = Answer(
            place=f"your DM with {asker.real_name}",
            inside=lambda m: m.channel_id == dm,
            prompt=prompt,
            judges=lambda text: (judge("amounts", amounts(text), {figure}, tolerated=restating(text), show=money),),
            asserts=lambda text: bool(amounts(text)),
        )

        def new_sheet(table: str, key: str) -> Expect:  # the spreadsheet the conversion makes (and anything the agent does in it)
            return Expect(table, "any", lambda c: c.row[key] not in seeded)

        async def converted(tools: Tools) -> tuple[str, list[list[str]]]:
            made_sheet = await tools.call("import_xlsx", file_id=file_id)
            data = await tools.call("get_sheet_data", spreadsheet_id=made_sheet["spreadsheetId"], sheet="Invoices")
            return made_sheet["spreadsheetId"], data["valueRanges"][0]["values"]

        async def oracle(tools: Tools) -> None:
            _, rows = await converted(tools)
            value = _figure(question, [r for r in rows[1:] if r and r[0].startswith("INV-")])
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=f"${value:,} per the file.")

        async def with_formula(tools: Tools) -> None:
            """Take the file id from the link in the DM, convert it, let a formula in the converted
            sheet compute the figure, and reply in a thread with a scaled amount."""
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m for m in history["messages"] if m["user"] == asker.id)
            found = re.search(r"/file/d/([\w-]+)", asked["text"])
            assert found is not None, asked["text"]
            sid = (await tools.call("import_xlsx", file_id=found.group(1), title="invoices (converted)"))["spreadsheetId"]
            last = len(made.invoices) + 1
            formula = _formula(question, last)
            await tools.call("update_cells", spreadsheet_id=sid, sheet="Invoices", range="J1", data=[[formula]])
            value = (await tools.call("get_sheet_data", spreadsheet_id=sid, sheet="Invoices", range="J1"))["valueRanges"][0]["values"][0][0]
            number = int(round(float(str(value).replace("$", "").replace(",", ""))))
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked["ts"], text=f"{Decimal(number) / 1000}k USD")

        return TaskInstance(
            prompt=prompt,
            checks=[Check("answered in the DM with the asked figure from the file, and only that", answer.check(me.id, since))],
            expected=[
                *answered_in_dm(dm, me.id, asker.id, message, ws.public),
                Expect("sheets_drive_files", "insert", lambda c: c.row["id"] == file_id),
                *(new_sheet(t, key) for t, key in SPREADSHEET_TABLES.items()),
            ],
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(with_formula,),
            moves=answer_moves(dm, [r.id for r in ws.rooms[:6]], right=f"${question.answer:,}", wrong=f"It's ${others[0]:,}.",
                               everything="From the file: " + ", ".join(f"${v:,}" for v in [*others, question.answer]),
                               wrong_record=f"${others[-1]:,}"),
            facts={"file_id": file_id, "file": made.name, "question": question.kind, "subject": question.subject, "answer": question.answer,
                   "asker": asker.id, "dm": dm},
        )


def _figure(question: Question, rows: list[list[str]]) -> int:
    """The figure from the converted sheet's rows as shown (Invoice #, Date, Product, Seats, Unit price, Amount, Status)."""
    def amount(row: list[str]) -> int:
        return int(str(row[5]).replace("$", "").replace(",", ""))

    if question.kind == "largest":
        return max(amount(r) for r in rows)
    keep = {"unpaid": lambda r: r[6] != "Paid", "overdue": lambda r: r[6] == "Overdue", "product": lambda r: r[2] == question.subject,
            "month": lambda r: _month(r[1]) == question.subject}[question.kind]
    return sum(amount(r) for r in rows if keep(r))


def _month(shown: str) -> str:
    return date.fromisoformat(shown).strftime("%B %Y")


def _formula(question: Question, last: int) -> str:
    amounts_, status = f"F2:F{last}", f"G2:G{last}"
    if question.kind == "largest":
        return f"=MAX({amounts_})"
    if question.kind == "unpaid":
        return f'=SUMIF({status},"<>Paid",{amounts_})'
    if question.kind == "overdue":
        return f'=SUMIFS({amounts_},{status},"Overdue")'
    if question.kind == "product":
        return f'=SUMIF(C2:C{last},"{question.subject}",{amounts_})'
    first = datetime.strptime(question.subject, "%B %Y")
    start = f"DATE({first.year},{first.month},1)"
    return f'=SUMIFS({amounts_},B2:B{last},">="&{start},B2:B{last},"<"&EDATE({start},1))'
