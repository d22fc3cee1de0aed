"""A Drive or Google Sheets link in a chat message opens in the env's own sheets app, where the
company's files live (the real Google is not reachable from a rollout); the message still
shows the link as it was written."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from apps.chat.ui_format import Resolver, local_link, render_mrkdwn


def test_google_links_map_to_the_envs_sheets_app_and_others_stay() -> None:
    names = Resolver(user_name=str, channel_name=lambda _c: None, channel_url=lambda c: f"/c/{c}",
                     link_url=lambda href: local_link(href, "/envs/e1/sheets"))
    html, plain = render_mrkdwn("File: https://drive.google.com/file/d/abc_1-Z/view?usp=sharing and "
                                "<https://docs.google.com/spreadsheets/d/S9x/edit#gid=42|the sheet>, "
                                "<https://docs.google.com/spreadsheets/d/S9x/edit|same> or https://example.com/d/1", names)
    assert 'href="/envs/e1/sheets/file/d/abc_1-Z/view"' in html and ">https://drive.google.com/file/d/abc_1-Z/view?usp=sharing</a>" in html
    assert 'href="/envs/e1/sheets/d/S9x?sheet=42"' in html and 'href="/envs/e1/sheets/d/S9x"' in html
    assert 'href="https://example.com/d/1"' in html
    assert "https://drive.google.com/file/d/abc_1-Z/view?usp=sharing" in plain


def test_the_xlsx_link_in_a_dm_opens_the_files_preview(live_server: Any, page: Page) -> None:
    gym = live_server.gym
    env = gym.create("sheets/answer-from-xlsx-v1", variant=0)
    try:
        page.goto(f"{live_server.base_url}/envs/{env.id}/chat/")
        found = None
        for link in page.get_by_role("link").all():  # the DM holding the file's link
            if (link.get_attribute("href") or "").startswith(f"/envs/{env.id}/chat/c/D"):
                link.click()
                found = page.locator(f'a[href^="/envs/{env.id}/sheets/file/d/"]')
                if found.count():
                    break
        assert found is not None and found.count(), "the DM shows the file's link, mapped to the sheets app"
        found.first.evaluate("node => node.removeAttribute('target')")  # open it in this tab
        found.first.click()
        expect(page.get_by_role("button", name="Open with Google Sheets")).to_be_visible()
    finally:
        gym.delete(env.id)
