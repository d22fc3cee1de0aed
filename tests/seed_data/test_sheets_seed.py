"""The sheets seeder: fast, deterministic, and its workbooks agree with the company facts they
summarise (deals, tickets, people), through formulas rather than copied numbers."""

from __future__ import annotations

from seed_data.actor import acting_person
from seed_data.company import generate_company
from seed_data.sheets import workbooks
from seed_data.sheets.builder import rows_of
from apps.sheets.entry import decode


def built(seed: int = 0) -> dict[str, dict[str, list[dict]]]:
    company = generate_company(seed, "small")
    return {b.title: rows_of(b, company.now.replace(tzinfo=None)) for b in workbooks(company)}


def test_seeding_is_deterministic() -> None:
    first = built()
    assert first == built()
    assert first != built(seed=1)


def test_workbooks_agree_with_the_company_and_compute_without_errors() -> None:
    company = generate_company(0, "small")
    books = built()
    forecast = next(rows for title, rows in books.items() if title.startswith("Sales Forecast"))
    tabs = {t["title"]: t["sheet_id"] for t in forecast["tabs"]}
    cells = {(c["sheet_id"], c["row"], c["col"]): c for c in forecast["cells"]}
    total = cells[(tabs["Summary"], 11, 2)]
    assert total["formula"] == "=SUM(C2:C11)"
    assert decode(total["kind"], total["value"]) == sum(d.amount for d in company.deals)
    won = sum(d.amount for d in company.deals if d.stage == "Closed Won")
    weighted_won = next(c for c in forecast["cells"] if c["sheet_id"] == tabs["Summary"] and c["col"] == 3 and c["row"] == 9)
    assert decode(weighted_won["kind"], weighted_won["value"]) == won
    for rows in books.values():
        assert not [c for c in rows["cells"] if c["kind"] == "e"], "seeded formulas compute without errors"
    actor = acting_person(company).email
    roles = {(p["spreadsheet_id"], p["email"]): p["role"] for rows in books.values() for p in rows["permissions"]}
    assert sum(1 for (_, email), role in roles.items() if email == actor and role == "owner") == 1
    assert {role for (_, email), role in roles.items() if email == actor} == {"owner", "writer", "reader", "commenter"}
