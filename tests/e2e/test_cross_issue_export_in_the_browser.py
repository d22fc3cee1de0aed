"""cross/issue-export-v1 done the way a computer-use agent does it, in Chromium only: the ask
read in the Slack DM, the issues found with a JQL search in Jira's issue list, a blank Google
Sheet renamed in its title box and typed in, and the sheet's address from the browser sent back
in the DM. Graded 1.0, every write face "ui"."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_round6 import blank_spreadsheet, dm_question, dm_reply, enter, graded


def test_an_issue_export_built_in_the_browser(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    for variant in range(40):  # an ask in a DM with a few issues: a short sheet to type
        env = gym.create("cross/issue-export-v1", variant=variant)
        if env.task.facts["place"] == "dm" and len(env.task.facts["keys"]) <= 3 and len(env.task.facts["columns"]) <= 4:
            break
        gym.delete(env.id)
    try:
        f = env.task.facts
        asked = dm_question(page, live_server, env.id, f["dm"])
        title = re.search(r'titled "([^"]+)"', asked).group(1)
        columns = re.search(r"these columns: (.+?), one row per issue", asked).group(1).split(", ")

        page.goto(f"{live_server.env_url(env.id, 'tickets')}/issues")
        page.get_by_label("JQL query").fill(f["jql"])
        page.get_by_role("button", name="Search").click()
        expect(page.get_by_text(f"{len(f['keys'])} issues", exact=True)).to_be_visible()
        table = page.get_by_role("table")
        heads = [h.inner_text() for h in table.locator("thead th").all()]
        found = [dict(zip(heads, (c.inner_text() for c in row.locator("td").all()), strict=True)) for row in table.locator("tbody tr").all()]

        blank_spreadsheet(page, live_server, env.id, title)
        address = page.url
        for c, column in enumerate(columns):
            enter(page, f"{'ABCDE'[c]}1", column)
            for r, issue in enumerate(found, start=2):
                enter(page, f"{'ABCDE'[c]}{r}", issue[column])

        dm_reply(page, live_server, env.id, f["dm"], f"Here you go: {address}")
        graded(live_server, env.id)
    finally:
        gym.delete(env.id)
