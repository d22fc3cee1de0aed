"""The cross-app family done the way a computer-use agent does it, in Chromium only: the
question read in Slack, the figures from a Salesforce report, a blank Google Sheet renamed in
its title box and typed in, the total answered in the DM. Graded 1.0, every write face "ui"."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_round6 import blank_spreadsheet, dm_reply, enter, graded, only_ui_writes

STATUS = {"open": "Open", "won": "Closed Won"}
CLOSE = {"open": "All Time", "won": "Current CY"}


def test_a_pipeline_report_built_in_the_browser(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("cross/pipeline-report-v1", variant=3)
    try:
        f = env.task.facts
        page.goto(f"{live_server.env_url(env.id, 'chat')}/c/{f['dm']}")
        asked = page.get_by_role("main").inner_text()
        title = re.search(r'titled "([^"]+)"', asked).group(1)

        page.goto(f"{live_server.env_url(env.id, 'crm')}/reports")
        form = page.get_by_role("form", name="Report filters")
        heading = {"StageName": "Stage", "Owner.Name": "Opportunity Owner", "Type": "Type", "LeadSource": "Lead Source",
                   "ForecastCategoryName": "Forecast Category", "Account.Industry": "Industry"}[f["grouping"]]
        form.get_by_label("Group Rows by").select_option(label=heading)
        form.get_by_label("Opportunity Status").select_option(label=STATUS[f["kind"]])
        form.get_by_label("Close Date").select_option(label=CLOSE[f["kind"]])
        form.get_by_role("button", name="Run Report").click()
        rows = [(row.get_by_role("rowheader").inner_text(), row.get_by_role("cell").nth(1).inner_text())
                for row in page.get_by_role("table").locator("tbody tr").all()]
        total = page.get_by_role("table").locator("tfoot td").nth(1).inner_text()

        blank_spreadsheet(page, live_server, env.id, title)
        enter(page, "A1", heading)
        enter(page, "B1", "Total")
        for i, (group, amount) in enumerate(rows, start=2):
            enter(page, f"A{i}", group)
            enter(page, f"B{i}", amount)

        dm_reply(page, live_server, env.id, f["dm"], f"Done, it's in \"{title}\". Overall total: {total}.")
        grade = graded(live_server, env.id)
        assert grade["passed"] and grade["reward"] == 1.0, grade
        only_ui_writes(live_server, env.id)
    finally:
        gym.delete(env.id)


def test_a_reader_cannot_rename(live_server: Any, page: Page, env_id: str) -> None:
    """The title box is there for those who may edit; a reader sees the title as text."""
    from apps.sheets.models import Spreadsheet
    from apps.sheets.service import SheetsService

    gym = live_server.gym
    with gym.store.session(gym.get(env_id), reading=True) as db:
        service = SheetsService(db)
        read_only = [s.id for s in db.query(Spreadsheet).order_by(Spreadsheet.id) if service.role(s.id) == "reader"]
        writable = [s.id for s in db.query(Spreadsheet).order_by(Spreadsheet.id) if service.role(s.id) in ("owner", "writer")]
    assert read_only and writable
    page.goto(f"{live_server.env_url(env_id, 'sheets')}/d/{read_only[0]}")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_label("Rename spreadsheet")).to_have_count(0)
    page.goto(f"{live_server.env_url(env_id, 'sheets')}/d/{writable[0]}")
    expect(page.get_by_label("Rename spreadsheet")).to_have_count(1)
