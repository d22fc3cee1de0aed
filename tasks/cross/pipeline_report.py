"""cross/pipeline-report-v1: the head of sales asks in a Slack DM for a pipeline report — a
total per stage, owner, type, lead source, forecast category or industry, of the open pipeline
or of this year's won deals — built from Salesforce into a new Google Sheet they name, and the
overall total sent back in the DM. Three apps, one piece of work: the numbers live only in the
CRM, the report in Sheets, the reply in chat.

Graded on the final state:
- the sheet: exactly one new spreadsheet with that title, out of the trash. The report is its
  first tab in view (not hidden) holding anything that is not a list of deals (a tab naming none of the groups in column A, or one
  naming a group twice, is the agent's working data: the deals copied in, a pivot's source).
  A header line (or a title) above the first group, as asked; such lines are free, as long as
  column B there names no amount. Then one row per group with any such deals (names as the CRM writes them, any case),
  the group's total in column B (a number, or text reading as exactly that amount; a formula
  over a tab of deals the agent copied in is as good as a typed number). A total row ("Total",
  "Grand total (USD)", "Total open pipeline", or an amount in column B under no label) must be
  the overall total; a row with nothing in column B whose label is no group of any deal and
  names no other figure is a note ("Source: Salesforce, as of today"); any other row is a
  group that is not in the data. Other tabs of the new
  spreadsheet are the agent's working space (text styled unreadable, white on white or too
  small, shows nothing, as a hidden tab does), but a tab in view before the report is read
  first: its rows naming a group (deals, one or more rows each) must add up in column B to
  the report's total for that group, and a total there ("Total", "Total: $1.2M") the overall
  total or a rounding of it, or it shows the reader other figures (a decoy); notes naming no
  group are free. After the report, a list of deals is working space, but another
  report (a row per group) with other totals is a second answer, a hedge.
- the DM: everything the agent said, read as the set of amounts it names: exactly the overall
  total (roundings of it, and the groups' totals or sums of them alongside, are fine; any other
  figure, such as the other kind's total, is a hedge).
- the total sent stands for the report: a third check passes when both the sheet and the DM
  do, so either alone (the report put away, hidden or trashed, with the total still sent; the
  right report with the total hedged) scores 1/3, below the pass line.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from apps.crm.soql.dates import date_range
from apps.crm.values import sf_date
from apps.sheets.models import Sheet, Spreadsheet
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.chat._common import Answer, answered_in_dm, post, post_everywhere, service_as, wreck as wreck_chat
from tasks.chat._workspace import workspace
from tasks.common.answers import amount_list, amounts, breakdown, judge, money, roundings
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import rows, soql, wreck as wreck_crm
from tasks.crm._notes import written
from tasks.sheets._common import SPREADSHEET_TABLES, allow_discarded, as_shown, final, hidden_tabs, in_view, same, titled


@dataclass(frozen=True, slots=True)
class Grouping:
    field: str  # as SOQL groups by it
    label: str  # what the manager calls it
    header: str  # column A's header in the oracle's sheet


GROUPINGS = (
    Grouping("StageName", "stage", "Stage"),
    Grouping("Owner.Name", "opportunity owner", "Owner"),
    Grouping("Type", "opportunity type", "Type"),
    Grouping("LeadSource", "lead source", "Lead source"),
    Grouping("ForecastCategoryName", "forecast category", "Forecast category"),
    Grouping("Account.Industry", "account industry", "Industry"),
)
KINDS = {  # kind → (what is summed, the deals it counts, SOQL condition, the sheet's column B header)
    "open": ("the open pipeline", "open opportunities", "IsClosed = false", "Open pipeline"),
    "won": ("what we've closed-won this year", "deals won this year", "IsWon = true AND CloseDate = THIS_YEAR", "Won this year"),
}
TITLES = ("{Kind} by {label}", "Pipeline report: {kind} by {label}")
# A total row's label: "Total", "Totals:", "Grand total (USD)", "Total open pipeline", "Sum", "Overall".
_TOTAL_ROW = re.compile(r"^(?:grand\s+|overall\s+)?(?:totals?|sum)\b|^overall\b", re.IGNORECASE)


def _key(text: Any) -> str:
    return " ".join(str(text).split()).lower()


def _values(users: dict[str, Any], accounts: dict[str, Any]) -> dict[str, Any]:
    """Each grouping's field → the group a deal is in."""
    return {
        "StageName": lambda d: d["StageName"], "Type": lambda d: d["Type"], "LeadSource": lambda d: d["LeadSource"],
        "ForecastCategoryName": lambda d: d["ForecastCategoryName"],
        "Owner.Name": lambda d: users.get(d["OwnerId"], {}).get("Name"),
        "Account.Industry": lambda d: accounts.get(d["AccountId"], {}).get("Industry"),
    }


class PipelineReport:
    id = "cross/pipeline-report-v1"
    apps = ("crm", "sheets", "chat")
    difficulty = "hard"
    summary = "Build a pipeline report from Salesforce in a new Google Sheet (a total per group) and send the overall total in Slack."

    def _pool(self, ctx: SampleContext) -> tuple[tuple, tuple, tuple[str, str, frozenset[str]]]:
        """((grouping, kind, {group: total}) candidates, title forms, (asker's chat id, the DM, seeded spreadsheet ids)).
        No head of sales to ask (or the agent is them): no candidates."""
        def people() -> tuple[str, str, frozenset[str]]:
            ws = workspace(ctx)
            users = {u["Id"]: u for u in rows(ctx.db, "User")}
            # The head of sales: whom the people owning deals report to.
            managers = [ctx.company.person(users[d["OwnerId"]]["EmployeeNumber"]).manager_id for d in rows(ctx.db, "Opportunity")
                        if users.get(d["OwnerId"], {}).get("EmployeeNumber")]
            boss = max(set(managers), key=managers.count) if managers else None
            asker = ws.user_of(boss) if boss else None
            if asker is None or asker.id == ws.me.id:
                return "", "", frozenset()
            dm = service_as(ctx.db, ws.me.id).dm_id(ws.me.id, asker.id)
            return asker.id, dm, frozenset(ctx.db.scalars(select(Spreadsheet.id)))

        def build() -> tuple:
            if not cached(ctx, f"{self.id}|people", people)[0]:
                return ()
            users = {u["Id"]: u for u in rows(ctx.db, "User")}
            accounts = {a["Id"]: a for a in rows(ctx.db, "Account")}
            deals = rows(ctx.db, "Opportunity")
            start, end = (sf_date(d) for d in date_range("THIS_YEAR", None, ctx.company.now.date()))
            wanted = {"open": lambda d: not d["IsClosed"], "won": lambda d: d["IsWon"] and start <= d["CloseDate"] < end}
            today = sf_date(ctx.company.now.date())
            if any(d["IsWon"] and today < d["CloseDate"] < end for d in deals):
                del wanted["won"]  # won deals dated later this year: "this year" to date and the calendar year differ
            value = _values(users, accounts)
            found = []
            for grouping in GROUPINGS:
                for kind, keep in wanted.items():
                    chosen = [d for d in deals if keep(d)]
                    labels = [value[grouping.field](d) for d in chosen]
                    # Only where every deal has a group and an amount, and there are groups to tell apart:
                    # no "(blank)" row to argue about.
                    if not chosen or any(not v for v in labels) or any(d["Amount"] is None for d in chosen):
                        continue
                    totals: dict[str, float] = {}
                    whose: dict[str, set[str]] = {}  # a group's name → the owners it stands for
                    for label, deal in zip(labels, chosen):
                        totals[label] = totals.get(label, 0.0) + float(deal["Amount"])
                        whose.setdefault(_key(label), set()).add(deal["OwnerId"] if grouping.field == "Owner.Name" else label)
                    # Two owners of one name (a large company has them) are two rows by owner, or
                    # one by name: either reading fits, so such a report is not asked for.
                    if len(totals) >= 2 and len(whose) == len(totals) and all(len(w) == 1 for w in whose.values()):
                        found.append((grouping, kind, tuple(sorted(totals.items()))))
            return shuffled(self.id, ctx, found)

        return (cached(ctx, self.id, build), shuffled(self.id, ctx, TITLES, "title"), cached(ctx, f"{self.id}|people", people))

    def _groups(self, ctx: SampleContext) -> dict[str, frozenset[str]]:
        """Each grouping's field → every group any deal is in, open or closed (as `_key` has them):
        a row naming one of these is a group's row, whatever it holds."""
        def build() -> dict[str, frozenset[str]]:
            value = _values({u["Id"]: u for u in rows(ctx.db, "User")}, {a["Id"]: a for a in rows(ctx.db, "Account")})
            deals = rows(ctx.db, "Opportunity")
            return {field: frozenset(_key(v) for d in deals if (v := of(d))) for field, of in value.items()}

        return cached(ctx, f"{self.id}|groups", build)

    def count_instances(self, ctx: SampleContext) -> int:
        candidates, titles, _ = self._pool(ctx)
        return count(candidates, titles)

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        candidates, titles, (asker_id, dm, seeded) = self._pool(ctx)
        (grouping, kind, groups), form = choose(self.id, ctx.variant, candidates, titles)
        ws = workspace(ctx)
        me, asker = ws.me, ws.users[asker_id]
        what, deals_phrase, condition, column = KINDS[kind]
        title = form.format(Kind=column, kind=column.lower(), label=grouping.header.lower())
        totals = dict(groups)
        by_key = {_key(k): v for k, v in totals.items()}
        groups = self._groups(ctx)[grouping.field]
        grand = round(sum(totals.values()), 2)
        rounded_total = roundings(Decimal(str(grand)).normalize())  # "$1.35M" for 1,348,600: the total, rounded
        stated = [*totals.values(), grand]  # the figures a note under the report may name
        question = (f"Hi! Could you build me a quick report of {what}, by {grouping.label}, from Salesforce? Please create a Google Sheet "
                    f"titled \"{title}\": a header row, then one row per {grouping.label} that has any {deals_phrase}, with the "
                    f"{grouping.label} in column A and its total amount in column B. Then send me the overall total here. Thanks!")
        prompt = (f"You are {me.real_name} (@{me.handle}). {asker.real_name} just sent you a direct message in Slack asking for a report. "
                  "Build it from Salesforce in Google Sheets, then reply to them in that DM.")

        looked_up = object()  # this instance's key for its answer in a grading transaction's session info

        def reports(db: Session) -> list[tuple[str, bool]]:
            """The new spreadsheets with the asked title (the agent's: not seeded), each with whether
            it is in the trash. Read once per grading transaction: the sheet check and each table's
            collateral rule ask it."""
            transaction = db.get_transaction()
            kept = db.info.get(looked_up)
            if kept is not None and transaction is not None and kept[0] is transaction:
                return kept[1]
            found = titled(db, title, besides=seeded)
            db.info[looked_up] = (transaction, found)
            return found

        def amount_in(value: Any) -> float | None:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
            if isinstance(value, str) and value.strip():
                said = amount_list(value)
                return float(said[0]) if len(said) == 1 else None
            return None

        def figure(value: Any, least: float = 0) -> bool:
            """Whether a cell names an amount: a number, or text naming one (not a year) of at least `least`."""
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return True
            if not isinstance(value, str):
                return False
            return any(v >= least and not (v == v.to_integral_value() and 1900 <= v <= 2100) for v in amount_list(value))

        def lists_deals(book: Any, tab: int) -> bool:
            """A tab of the agent's working data, not a report: its column A names none of the
            groups (the deals by name), or names one twice (a row per deal)."""
            named = [_key(v) for r in range(book.extent(tab)[0]) if (v := book.get((tab, r, 0))) not in (None, "")]
            named = [k for k in named if k in by_key]
            return not named or len(named) != len(set(named))

        def contradicts(book: Any, tab: int, where: str) -> str:
            """Why a tab in view before the report, which a reader sees first, reads as other figures
            than the report's ("" if it does not): its rows naming a group (the deals it was built
            from, one or more rows each) add up, in column B, to another total for that group, or
            name a group the report has no row for. A tab naming no group (notes, a raw listing by
            deal name) states no group's figure."""
            sums: dict[str, float] = {}
            shown: dict[str, Any] = {}
            name = book.sheets[tab].title if tab in book.sheets else str(tab)
            for r in range(book.extent(tab)[0]):
                label, value = book.get((tab, r, 0)), book.get((tab, r, 1))
                key = "" if label in (None, "") else _key(label)
                got = amount_in(value)
                if key and (key in by_key or key in groups) and got is not None:
                    sums[key] = sums.get(key, 0.0) + got
                    shown.setdefault(key, label)
                elif key and _TOTAL_ROW.match(key):  # a total ("Total", "Total: $1.2M"): the overall total, or another figure
                    said = [Decimal(str(got))] if got is not None else [v for v in amount_list(str(label)) if v >= 1000]
                    other = [v for v in said if not same(float(v), grand) and v.normalize() not in rounded_total]
                    if other:
                        return f"the tab {name!r}, {where}, shows a total of {money(other[0])}, not the report's {money(expected_total)}"
            for key, got in sums.items():
                if key not in by_key:
                    return f"the tab {name!r}, {where}, lists {str(shown[key])!r}, which has no {deals_phrase}"
                if not same(got, by_key[key]):
                    return (f"the tab {name!r}, {where}, adds up to {money(Decimal(str(round(got, 2))))} "
                            f"for {str(shown[key])!r}, not the report's {money(Decimal(str(by_key[key])))}")
            return ""

        def sheet_check(db: Session) -> CheckResult:
            made = reports(db)
            found = in_view(made)  # a duplicate moved to the trash is gone from view, and so is the report
            if not found:
                trashed = f" out of the trash ({len(made)} in it, gone from view)" if made else ""
                return failed(f"there is no new spreadsheet titled {title!r}{trashed}")
            if len(found) > 1:
                return failed(f"{len(found)} spreadsheets are titled {title!r}: the report is one")
            book = as_shown(final(db, found[0]))  # text styled unreadable shows the manager nothing
            # The report is the first tab holding anything (an empty "Sheet1" left before it is no
            # report) that is not the deals it was built from; tabs after it are working space.
            tabs = db.scalars(select(Sheet.sheet_id).where(Sheet.spreadsheet_id == found[0]).order_by(Sheet.index)).all()
            hidden = hidden_tabs(db, found[0])  # gone from view: working space at most, never the report
            holding = [t for t in tabs if book.extent(t)[0] > 0 and t not in hidden]
            if not holding:
                return failed(f"the spreadsheet {title!r} shows nothing" + (" (its tabs with anything in them are hidden)" if hidden else ""))
            tab = next((t for t in holding if not lists_deals(book, t)), holding[0])
            for before in holding[: holding.index(tab)]:
                why = contradicts(book, before, "before the report (a reader sees it first)")
                if why:
                    return failed(why)
            for after in holding[holding.index(tab) + 1:]:  # another report in view (a row per group) is a second answer
                why = "" if lists_deals(book, after) else contradicts(book, after, "a second report in view")
                if why:
                    return failed(why)
            height, _ = book.extent(tab)
            seen: dict[str, int] = {}
            total_rows: list[Any] = []
            headed = False  # a header (or a title) above the groups, as the ask wants
            for r in range(height):
                label, value = book.get((tab, r, 0)), book.get((tab, r, 1))
                key = "" if label in (None, "") else _key(label)
                if key in by_key:
                    if not seen and not headed:
                        return failed(f"no header row above the {grouping.label} rows (the ask wants one)")
                    if key in seen:
                        return failed(f"{str(label)!r} has two rows ({seen[key] + 1} and {r + 1})")
                    seen[key] = r
                    got, want = amount_in(value), by_key[key]
                    if got is None or not same(got, want):
                        return failed(f"the total for {str(label)!r} is {value!r}, expected {money(Decimal(str(want)))}")
                    continue
                if not seen and not figure(value, 1000):
                    headed = headed or bool(key) or value not in (None, "")
                    continue  # a title or the header, above the groups
                if not key:
                    if figure(value) and amount_in(value) != 0:  # a formula filled past the groups shows 0: no figure
                        total_rows.append(value)  # an amount under the column with no label: a total
                    continue
                if _TOTAL_ROW.match(key) and value not in (None, ""):
                    total_rows.append(value)
                    continue
                if value in (None, "") and key not in groups and all(any(same(float(v), t) for t in stated) for v in amount_list(str(label))
                                                                     if not (v == v.to_integral_value() and 1900 <= v <= 2100)):
                    continue  # a note under the report ("Source: Salesforce, as of today"), naming no other figure
                return failed(f"row {r + 1} names {str(label)!r}, which has no {deals_phrase}")
            missing = sorted(k for k in totals if _key(k) not in seen)
            if missing:
                return failed(f"no row for {', '.join(missing[:4])}")
            for value in total_rows:
                got = amount_in(value)
                if got is None or not same(got, grand):
                    return failed(f"the total row shows {value!r}, expected {money(Decimal(str(grand)))}")
            return passed(f"{len(seen)} {grouping.label} rows with the right totals")

        expected_total = Decimal(str(grand)).normalize()
        parts = [Decimal(str(v)).normalize() for v in totals.values()]

        def restating(text: str) -> set[Decimal]:
            """Roundings of the total, and the parts of a breakdown of it: each a group's total or a
            sum of them. Another figure that some groups happen to add up to about (the other
            kind's total, say) is no part of it."""
            rounded = roundings(expected_total)
            return rounded | breakdown(text, expected_total, rounded, known=parts)

        answer = Answer(place=f"your DM with {asker.real_name}", inside=lambda m: m.channel_id == dm, prompt=prompt,
                        judges=lambda text: (judge("amount", amounts(text), {expected_total}, tolerated=restating(text), show=money),),
                        asserts=lambda text: bool(amounts(text)), beside=written(ctx))

        def setup(session: Session) -> None:
            theirs = service_as(session, asker.id)
            theirs.conversations_open(me.id)
            theirs.chat_post_message(dm, question)

        answered = answer.check(me.id, ws.start)

        def both(db: Session) -> CheckResult:
            """One piece of work: the total in the DM stands for the report it announces. A right
            total with the report missing, put away or wrong (or the right report with the total
            hedged) is half of it, and each half alone stays under the pass line."""
            report, reply_ = sheet_check(db), answered(db)
            if report.passed and reply_.passed:
                return passed("the report is in view and the DM sends its total")
            return failed("the report is not there to stand behind the total" if not report.passed else "the DM does not send the report's total")

        def report_rows(db: Session) -> frozenset[str]:
            return frozenset(i for i, _ in reports(db))

        def in_report(table: str, key: str) -> Expect:  # the report spreadsheet, whatever id it got, and anything the agent does in it
            return Expect(table, "any", lambda c, made: c.row[key] in made, given=report_rows)

        # -- solutions ------------------------------------------------------------------------
        async def grouped(tools: Tools, where: str = condition, field: str = grouping.field) -> list[tuple[str, float]]:
            found = await soql(tools, f"SELECT {field}, SUM(Amount) total FROM Opportunity WHERE {where} GROUP BY {field}")
            name = field.split(".")[-1]
            return sorted((str(r.get(name) if name in r else r.get(field)), float(r["total"] or 0)) for r in found)

        async def make_sheet(tools: Tools, name: str, lines: list[list[Any]], header: str = grouping.header) -> str:
            made = await tools.call("create_spreadsheet", title=name)
            sid = made["spreadsheetId"]
            first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
            body = [[header, column], *lines]
            await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(body)}", data=body)
            return sid

        async def reply(tools: Tools, text: str) -> None:
            opened = (await tools.call("slack_open_dm", users=asker.id))["channel"]["id"]
            await tools.call("slack_post_message", channel_id=opened, text=text)

        async def oracle(tools: Tools) -> None:
            found = await grouped(tools)
            await make_sheet(tools, title, [[label, value] for label, value in found])
            await reply(tools, f"Done, it's in the \"{title}\" sheet. Overall total: ${sum(v for _, v in found):,.2f}.")

        async def from_deals(tools: Tools) -> None:
            """Another path: list the deals, copy them to a second tab, total each group there with
            SUMIF formulas, and answer in the question's thread in thousands."""
            field = grouping.field
            listed = await soql(tools, f"SELECT {field}, Amount FROM Opportunity WHERE {condition}")
            name = field.split(".")[-1]

            def group_of(record: dict[str, Any]) -> str:
                if "." in field:
                    return str((record.get(field.split(".")[0]) or {}).get(name))
                return str(record[field])

            labels = sorted({group_of(r) for r in listed})
            made = await tools.call("create_spreadsheet", title=title)
            sid = made["spreadsheetId"]
            first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
            await tools.call("create_sheet", spreadsheet_id=sid, title="Deals")
            data = [[grouping.header, "Amount"], *[[group_of(r), r["Amount"]] for r in listed]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet="Deals", range=f"A1:B{len(data)}", data=data)
            report = [[f"{grouping.header} (from Salesforce)", f"Total ({column})"],
                      *[[label, f"=SUMIF(Deals!A:A,A{i + 2},Deals!B:B)"] for i, label in enumerate(labels)],
                      ["Total", f"=SUM(B2:B{len(labels) + 1})"]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(report)}", data=report)
            history = await tools.call("slack_get_channel_history", channel_id=dm, limit=5)
            asked = next(m["ts"] for m in history["messages"] if m["user"] == asker.id)
            total = sum(float(r["Amount"]) for r in listed)
            await tools.call("slack_reply_to_thread", channel_id=dm, thread_ts=asked, text=f"{Decimal(str(total)) / 1000:f}k USD in total")

        # -- the adversaries' moves ----------------------------------------------------------
        other_kind = next(k for k in KINDS if k != kind)
        rooms = [r.id for r in ws.rooms if not r.is_private][:3]

        async def say(tools: Tools, text: str) -> None:
            await post(tools, dm, text)

        async def wrong(tools: Tools) -> None:  # the other kind's totals (won for open, open for won), under the asked title
            found = await grouped(tools, KINDS[other_kind][2])
            await make_sheet(tools, title, [[label, value] for label, value in found])
            await reply(tools, f"Total: ${sum(v for _, v in found):,.2f}")

        async def everything(tools: Tools) -> None:  # every group of every deal, open or closed, and every figure
            every = await grouped(tools, "Amount != null")
            await make_sheet(tools, title, [[label, value] for label, value in every])
            both = [sum(v for _, v in await grouped(tools, KINDS[k][2])) for k in KINDS]
            await reply(tools, "Totals: " + ", ".join(f"${v:,.2f}" for v in [*both, sum(v for _, v in every)]))

        async def wrong_record(tools: Tools) -> None:  # grouped by another field, and the total of every deal
            other = next(g for g in GROUPINGS if g != grouping)
            found = await grouped(tools, condition, other.field)
            await make_sheet(tools, title, [[label, value] for label, value in found], other.header)
            every = await grouped(tools, "Amount != null")
            await reply(tools, f"${sum(v for _, v in every):,.2f}")

        async def shotgun(tools: Tools) -> None:
            await oracle(tools)
            await post_everywhere(tools, rooms, f"Pipeline total: ${grand:,.2f}")

        async def vandalise(tools: Tools) -> None:
            await wreck_chat(tools)
            await wreck_crm(tools)

        async def decoy(tools: Tools) -> None:  # the other kind's deals on the tab the sheet opens on, the right report on a tab after it
            found, right = await grouped(tools, KINDS[other_kind][2]), await grouped(tools)
            sid = (await tools.call("create_spreadsheet", title=title))["spreadsheetId"]
            first = (await tools.call("list_sheets", spreadsheet_id=sid))[0]
            deals = [[grouping.header, "Amount"], *[[label, round(value / 2, 2)] for label, value in found for _ in range(2)]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet=first, range=f"A1:B{len(deals)}", data=deals)
            await tools.call("create_sheet", spreadsheet_id=sid, title="Report")
            body = [[grouping.header, column], *[[label, value] for label, value in right]]
            await tools.call("update_cells", spreadsheet_id=sid, sheet="Report", range=f"A1:B{len(body)}", data=body)
            await reply(tools, f"Overall total: ${sum(v for _, v in right):,.2f}")

        return TaskInstance(
            prompt=prompt,
            checks=[
                Check(f"a new sheet {title!r} lists each {grouping.label}'s total", sheet_check),
                Check("answered in the DM with the overall total, and only that", answered),
                Check("the total sent is the report's: both are right", both),
            ],
            expected=[*answered_in_dm(dm, me.id, asker.id, question, ws.public), *(in_report(t, key) for t, key in SPREADSHEET_TABLES.items()),
                      *allow_discarded(seeded)],
            oracle=oracle,
            setup=setup,
            setup_in_expected=True,
            alternatives=(from_deals,),
            moves=Moves(say=say, wrong=wrong, everything=everything, wrong_record=wrong_record, shotgun=shotgun, wreck=vandalise,
                        decoy=decoy),
            facts={"grouping": grouping.field, "kind": kind, "title": title, "totals": totals, "total": grand, "asker": asker.id, "dm": dm},
        )
