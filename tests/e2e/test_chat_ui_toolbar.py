"""A message's hover toolbar is where a screenshot-driven agent can see and click it, the top
visible message's too (placed above the message, it was clipped by the list's top edge, under
the channel header)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

from tests.e2e.test_security_headers import general


def test_the_top_visible_messages_toolbar_is_whole_and_clickable(live_server: Any, env_id: str, page: Page) -> None:
    base = live_server.env_url(env_id)
    page.goto(f"{base}/chat/c/{general(base)}")
    article = page.get_by_role("list", name=re.compile(r"^Messages in")).get_by_role("article").nth(3)
    article.evaluate("node => node.scrollIntoView({block: 'start'})")  # the top visible message
    article.hover()
    button = article.get_by_role("button", name="Add reaction", exact=True)
    toolbar_top = button.evaluate("node => node.closest('.actions').getBoundingClientRect().top")
    scroller_top = article.evaluate("""node => {
        let el = node.parentElement;
        while (el && getComputedStyle(el).overflowY !== 'auto' && getComputedStyle(el).overflowY !== 'scroll') el = el.parentElement;
        return el ? el.getBoundingClientRect().top : 0;
    }""")
    assert toolbar_top >= scroller_top, f"the toolbar starts at y={toolbar_top:.0f}, above the list's top edge at y={scroller_top:.0f}"
    box = button.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # where a screenshot shows it
    assert article.get_by_role("button", name="React with :white_check_mark:").is_visible()
