"""Seeds the sheets app: the company's working spreadsheets, built from the same facts as the
CRM, the tracker and the org chart, and tied together by formulas and cross-sheet references.

- Sales Forecast (owned by the head of sales): every deal (stage, amount, close date, owner),
  probabilities looked up from a Stages tab, weighted amounts, a Summary by stage and by owner.
- Support Metrics (the support lead): every SUP ticket, and counts by status, priority and assignee.
- Headcount Plan (the head of people): everyone, and heads, planned hires and cost by team.
- Budget (the CEO): assumptions, team heads counted from its People tab, costs, revenue from
  won deals by quarter, and the margin.
- Customer Health (the acting person, a CSM): their customers with tier, open tickets, pipeline.

Everything is deterministic: ids from the seed, rows in the company's own order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from apps.sheets import kept_books
from apps.sheets.ids import google_id
from apps.sheets.models import Cell, Folder, Permission, Sheet, Spreadsheet
from apps.sheets.service import ACTOR_META_KEY
from apps.sheets.store import CELL_FIELDS
from officegym.core.db import set_meta
from seed_data.actor import acting_person
from seed_data.company import Company
from seed_data.sheets.builder import CURRENCY, DATE, PERCENT, Workbook, rows_of

PEOPLE_META_KEY = "sheets.people"
STAGE_PROBABILITY = (
    ("Prospecting", 0.1), ("Qualification", 0.1), ("Needs Analysis", 0.2), ("Value Proposition", 0.5),
    ("Id. Decision Makers", 0.6), ("Perception Analysis", 0.7), ("Proposal/Price Quote", 0.75),
    ("Negotiation/Review", 0.9), ("Closed Won", 1.0), ("Closed Lost", 0.0),
)
COST_PER_HEAD = {"exec": 320_000, "engineering": 210_000, "product": 190_000, "sales": 170_000, "customer-success": 140_000,
                 "support": 110_000, "marketing": 150_000, "people-ops": 130_000, "design": 170_000, "finance": 160_000,
                 "legal": 220_000, "it": 140_000}
FORECAST_TITLE = "Sales Forecast"
SUPPORT_TITLE = "Support Metrics"
HEADCOUNT_TITLE = "Headcount Plan"
BUDGET_TITLE = "Budget"
HEALTH_TITLE = "Customer Health"


TOP_PEOPLE = 25  # rows of a per-person table: everyone in a small company, the busiest in a large one


def _busiest(names: Iterable[str]) -> list[str]:
    """The people with the most rows, at most TOP_PEOPLE, in name order."""
    counts = Counter(names)
    top = sorted(counts, key=lambda n: (-counts[n], n))[:TOP_PEOPLE]
    return sorted(top)


def _stamp(company: Company, days_ago: int) -> str:
    return (company.now - timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _lead_email(company: Company, team: str, fallback: str) -> str:
    slugs = {t.slug for t in company.teams}
    chosen = team if team in slugs else fallback
    return company.person(company.team(chosen).lead_id).email


def workbooks(company: Company) -> list[Workbook]:
    actor = acting_person(company)
    year = company.now.year
    sales_lead = _lead_email(company, "sales", "exec")
    ceo = _lead_email(company, "exec", "exec")
    support_lead = _lead_email(company, "support", "exec")
    people_lead = _lead_email(company, "people-ops", "exec")
    seed = company.seed

    def new(title: str, owner: str, days_ago: int, shares: dict[str, str]) -> Workbook:
        return Workbook(google_id(seed, company.size, "sheets", title), title, owner, _stamp(company, days_ago), shares)

    # -- Sales Forecast -----------------------------------------------------------------------
    forecast = new(f"{FORECAST_TITLE} FY{year}", sales_lead, 120, {actor.email: "writer", ceo: "reader"})
    deals = sorted(company.deals, key=lambda d: d.id)
    pipeline = [["Deal ID", "Account", "Opportunity", "Owner", "Stage", "Amount", "Close Date", "Probability", "Weighted"]]
    for n, d in enumerate(deals, start=2):
        pipeline.append([d.id, company.customer(d.customer_id).name, d.name, company.person(d.owner_id).name, d.stage, d.amount,
                         d.close_date, f"=VLOOKUP(E{n},Stages!$A$2:$B${len(STAGE_PROBABILITY) + 1},2,FALSE)", f"=F{n}*H{n}"])
    last = len(deals) + 1
    forecast.tab("Pipeline", pipeline, {5: CURRENCY, 6: DATE, 7: PERCENT, 8: CURRENCY})
    forecast.tab("Stages", [["Stage", "Probability"], *[[s, p] for s, p in STAGE_PROBABILITY]], {1: PERCENT})
    summary = [["Stage", "Deals", "Amount", "Weighted"]]
    for n, (stage, _) in enumerate(STAGE_PROBABILITY, start=2):
        summary.append([stage, f"=COUNTIF(Pipeline!$E$2:$E${last},A{n})", f"=SUMIF(Pipeline!$E$2:$E${last},A{n},Pipeline!$F$2:$F${last})",
                        f"=SUMIF(Pipeline!$E$2:$E${last},A{n},Pipeline!$I$2:$I${last})"])
    total_row = len(summary) + 1
    summary.append(["Total", f"=SUM(B2:B{total_row - 1})", f"=SUM(C2:C{total_row - 1})", f"=SUM(D2:D{total_row - 1})"])
    summary.append([])
    summary.append(["Owner", "Open pipeline", "Won", "Win rate"])
    owners = _busiest(company.person(d.owner_id).name for d in deals)
    for n, owner in enumerate(owners, start=len(summary) + 1):
        summary.append([owner,
                        f'=SUMIFS(Pipeline!$F$2:$F${last},Pipeline!$D$2:$D${last},A{n},Pipeline!$E$2:$E${last},"<>Closed*")',
                        f'=SUMIFS(Pipeline!$F$2:$F${last},Pipeline!$D$2:$D${last},A{n},Pipeline!$E$2:$E${last},"Closed Won")',
                        f'=IFERROR(COUNTIFS(Pipeline!$D$2:$D${last},A{n},Pipeline!$E$2:$E${last},"Closed Won")'
                        f'/COUNTIFS(Pipeline!$D$2:$D${last},A{n},Pipeline!$E$2:$E${last},"Closed*"),0)'])
    owners_header = total_row + 2  # 1-based row of the owners' header
    by_owner = {(r, c): fmt for r in range(owners_header, len(summary)) for c, fmt in ((1, CURRENCY), (2, CURRENCY), (3, PERCENT))}
    forecast.tab("Summary", summary, {2: CURRENCY, 3: CURRENCY}).cell_formats.update(by_owner)

    # -- Support Metrics ----------------------------------------------------------------------
    support = new(SUPPORT_TITLE, support_lead, 90, {actor.email: "writer"})
    tickets = [t for t in company.tickets if t.project == "SUP"]
    rows = [["Key", "Summary", "Type", "Priority", "Status", "Customer", "Assignee", "Created", "Age (days)"]]
    for n, t in enumerate(tickets, start=2):
        rows.append([t.key, t.summary, t.issue_type, t.priority, t.status, company.customer(t.customer_id).name if t.customer_id else "",
                     company.person(t.assignee_id).name if t.assignee_id else "", t.created.date(), f"=TODAY()-H{n}"])
    tlast = len(tickets) + 1
    support.tab("Tickets", rows, {7: DATE})
    metrics = [["Status", "Tickets"]]
    for status in ("To Do", "In Progress", "In Review", "Done"):
        metrics.append([status, f"=COUNTIF(Tickets!$E$2:$E${tlast},A{len(metrics) + 1})"])
    metrics.append(["Open", f'=COUNTIF(Tickets!$E$2:$E${tlast},"<>Done")'])
    metrics.append([])
    metrics.append(["Priority", "Open tickets"])
    for priority in ("Highest", "High", "Medium", "Low", "Lowest"):
        n = len(metrics) + 1
        metrics.append([priority, f'=COUNTIFS(Tickets!$D$2:$D${tlast},A{n},Tickets!$E$2:$E${tlast},"<>Done")'])
    metrics.append([])
    metrics.append(["Assignee", "Open tickets", "Average age of open"])
    for name in _busiest(r[6] for r in rows[1:] if r[6] and r[4] != "Done"):
        n = len(metrics) + 1
        metrics.append([name, f'=COUNTIFS(Tickets!$G$2:$G${tlast},A{n},Tickets!$E$2:$E${tlast},"<>Done")',
                        f'=IFERROR(AVERAGEIFS(Tickets!$I$2:$I${tlast},Tickets!$G$2:$G${tlast},A{n},Tickets!$E$2:$E${tlast},"<>Done"),"")'])
    support.tab("Metrics", metrics)

    # -- Headcount Plan ----------------------------------------------------------------------
    headcount = new(f"{HEADCOUNT_TITLE} {year}", people_lead, 150, {ceo: "writer", actor.email: "reader"})
    people_rows = [["Name", "Email", "Team", "Title", "Manager", "Location", "Start Date"]]
    for p in company.people:
        people_rows.append([p.name, p.email, p.team, p.title, company.person(p.manager_id).name if p.manager_id else "", p.location, p.start_date])
    plast = len(company.people) + 1
    headcount.tab("People", people_rows, {6: DATE})
    teams = [t.slug for t in company.teams]
    by_team = [["Team", "Heads", "Planned hires", "Planned total", "Cost per head", "Planned cost"]]
    for n, slug in enumerate(teams, start=2):
        hires = (sum(map(ord, slug)) + seed) % 4
        by_team.append([slug, f"=COUNTIF(People!$C$2:$C${plast},A{n})", hires, f"=B{n}+C{n}", COST_PER_HEAD.get(slug, 150_000), f"=D{n}*E{n}"])
    end = len(teams) + 1
    by_team.append(["Total", f"=SUM(B2:B{end})", f"=SUM(C2:C{end})", f"=SUM(D2:D{end})", "", f"=SUM(F2:F{end})"])
    headcount.tab("By Team", by_team, {4: CURRENCY, 5: CURRENCY})

    # -- Budget -------------------------------------------------------------------------------
    budget = new(f"{BUDGET_TITLE} FY{year}", ceo, 100, {sales_lead: "reader", actor.email: "commenter"})
    budget.tab("Assumptions", [["Team", "Cost per head", "Opex per head"],
                               *[[slug, COST_PER_HEAD.get(slug, 150_000), 12_000] for slug in teams]], {1: CURRENCY, 2: CURRENCY})
    budget.tab("People", [["Name", "Team"], *[[p.name, p.team] for p in company.people]])
    won = [d for d in deals if d.stage == "Closed Won"]
    budget.tab("Revenue", [["Deal ID", "Amount", "Close Date", "Quarter"],
                           *[[d.id, d.amount, d.close_date, f'="Q"&ROUNDUP(MONTH(C{n})/3,0)'] for n, d in enumerate(won, start=2)]],
               {1: CURRENCY, 2: DATE})
    wlast = len(won) + 1
    plan = [["Team", "Heads", "Salary cost", "Opex", "Total cost"]]
    for n, slug in enumerate(teams, start=2):
        plan.append([slug, f"=COUNTIF(People!$B$2:$B${plast},A{n})", f"=B{n}*VLOOKUP(A{n},Assumptions!$A$2:$C${end},2,FALSE)",
                     f"=B{n}*VLOOKUP(A{n},Assumptions!$A$2:$C${end},3,FALSE)", f"=C{n}+D{n}"])
    plan.append(["Total", f"=SUM(B2:B{end})", f"=SUM(C2:C{end})", f"=SUM(D2:D{end})", f"=SUM(E2:E{end})"])
    plan.append([])
    base = len(plan) + 1
    plan.append(["Won revenue", f"=SUM(Revenue!$B$2:$B${max(wlast, 2)})"])
    plan.append(["Operating margin", f"=B{base}-E{end + 1}"])
    plan.append(["Margin %", f"=IFERROR(B{base + 1}/B{base},0)"])
    budget.tab("Plan", plan, {2: CURRENCY, 3: CURRENCY, 4: CURRENCY})

    # -- Customer Health (the acting CSM's own) ------------------------------------------------
    health = new(HEALTH_TITLE, actor.email, 60, {_lead_email(company, "customer-success", "exec"): "commenter"})
    mine = [c for c in company.customers if c.csm_id == actor.id] or list(company.customers[:10])
    open_sup = Counter(t.customer_id for t in tickets if t.status != "Done")
    health_rows = [["Customer", "Tier", "Industry", "Employees", "Open tickets", "Health"]]
    for n, c in enumerate(mine, start=2):
        health_rows.append([c.name, c.tier, c.industry, c.employees, open_sup.get(c.id, 0),
                            f'=IFS(E{n}>=3,"At risk",E{n}>=1,"Watch",TRUE,"Healthy")'])
    health.tab("Accounts", health_rows)
    return [forecast, support, headcount, budget, health]


def seed_sheets(db: Session, company: Company) -> None:
    actor = acting_person(company)
    set_meta(db, ACTOR_META_KEY, actor.email.lower())
    set_meta(db, PEOPLE_META_KEY, ",".join(sorted(p.email.lower() for p in company.people)))
    now = company.now.replace(tzinfo=None)
    tables = {"spreadsheets": [], "tabs": [], "permissions": [], "cells": []}
    for book in workbooks(company):
        for name, rows in rows_of(book, now).items():
            tables[name].extend(rows)
    # Each spreadsheet's revision names its seeded cells (apps/sheets/kept_books.py), so what is
    # kept per revision (a loaded book, the text a search matches) holds from an env's start.
    cells_of: dict[str, list[tuple[Any, ...]]] = {}
    for cell in tables["cells"]:
        cells_of.setdefault(cell["spreadsheet_id"], []).append(tuple(cell[name] for name in CELL_FIELDS))
    for spreadsheet in tables["spreadsheets"]:
        spreadsheet["revision"] = kept_books.digest(cells_of.get(spreadsheet["id"], []))
    db.execute(insert(Folder), [{"id": "root", "name": "My Drive", "parent": ""}])
    db.execute(insert(Spreadsheet), tables["spreadsheets"])
    db.execute(insert(Sheet), tables["tabs"])
    db.execute(insert(Permission), tables["permissions"])
    db.execute(insert(Cell), tables["cells"])
