"""The crm UI's Opportunities report, driven in Chromium as a person builds a summary report in
Salesforce: filters and a grouping picked from the page, then each group's record count and
Sum of Amount, and the grand total, are what SOQL answers over the API. A hand-edited query
string cannot reach SOQL: what is not understood is named and the default used."""

from __future__ import annotations

import html
import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect


def soql(live_server: Any, env_id: str, query: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/crm/services/data/v62.0/query", params={"q": query}, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["records"]


def money(value: float) -> str:
    return f"${value:,.0f}"


def test_a_summary_report_built_on_the_page_agrees_with_soql(page: Page, live_server: Any, env_id: str) -> None:
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/")
    page.get_by_role("link", name="Reports").click()
    form = page.get_by_role("form", name="Report filters")
    form.get_by_label("Group Rows by").select_option(label="Opportunity Owner")
    form.get_by_label("Opportunity Status").select_option(label="Closed Won")
    form.get_by_label("Close Date").select_option(label="All Time")
    form.get_by_role("button", name="Run Report").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Opportunities by Opportunity Owner")

    want = {r["Name"]: (r["n"], r["total"]) for r in soql(
        live_server, env_id, "SELECT Owner.Name, COUNT(Id) n, SUM(Amount) total FROM Opportunity WHERE IsWon = true GROUP BY Owner.Name")}
    table = page.get_by_role("table")
    shown = {}
    for row in table.locator("tbody tr").all():
        owner = row.get_by_role("rowheader").inner_text()
        count, total = (cell.inner_text() for cell in row.get_by_role("cell").all())
        shown[owner] = (count, total)
    assert shown == {name: (str(n), money(total)) for name, (n, total) in want.items()}
    grand = table.locator("tfoot tr")
    expect(grand).to_contain_text("Grand Total")
    expect(grand).to_contain_text(money(sum(total for _, total in want.values())))


def test_details_list_each_groups_records(page: Page, live_server: Any, env_id: str) -> None:
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/reports?group=StageName&status=open")
    page.get_by_label("Show details").check()
    page.get_by_role("button", name="Run Report").click()
    deals = soql(live_server, env_id, "SELECT Name FROM Opportunity WHERE IsClosed = false")
    expect(page.locator("tr.detail")).to_have_count(len(deals))
    first = page.locator("tr.detail").first.get_by_role("link")
    first.click()
    expect(page).to_have_url(re.compile(r"/crm/r/006\w+$"))


def test_a_hand_edited_report_url_is_named_and_defaulted(live_server: Any, env_id: str) -> None:
    url = f"{live_server.base_url}/envs/{env_id}/crm/reports"
    evil = httpx.get(url, params={"group": "Name FROM User --", "status": "open' OR Name != '", "owner": "x' OR Id != '"}, timeout=10)
    assert evil.status_code == 200
    said = html.unescape(evil.text)
    assert "Group Rows by: 'Name FROM User --' is not a field of this report" in said
    assert "Opportunity Status: \"open' OR Name != '\" is not one of Any, Open" in said and "Opportunity Owner: no user" in said
    default = httpx.get(url, timeout=10)
    grand = re.search(r"Grand Total</th><td>(\d+)</td>", default.text)
    assert grand and grand.group(1) == re.search(r"Grand Total</th><td>(\d+)</td>", evil.text).group(1)
