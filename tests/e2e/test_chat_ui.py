"""The chat UI in a real browser (Chromium via Playwright) against the real server: what a
computer-use agent sees and does. Reads, posts, thread replies and reactions made by clicking
land in the env's state (seen through the REST face) and in its trajectory with source "ui";
agent-written text is always shown as text, never run as HTML; errors are visible alerts
that write nothing; a task done in the browser grades 1.0."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from playwright.sync_api import Page, expect

from apps.chat.ui_format import Resolver, render_mrkdwn

# -- helpers --------------------------------------------------------------------------------
def slack(live_server: Any, env_id: str, method: str, **args: Any) -> dict[str, Any]:
    """Call the env's Slack Web API face (what an API agent would see)."""
    response = httpx.post(f"{live_server.base_url}/envs/{env_id}/api/chat/{method}", data=args, timeout=10)
    body = response.json()
    assert body["ok"] is True, body
    return body


def general(live_server: Any, env_id: str) -> dict[str, Any]:
    channels = slack(live_server, env_id, "conversations.list", limit=1000)["channels"]
    return next(c for c in channels if c["is_general"])


def ui_writes(live_server: Any, env_id: str) -> list[dict[str, Any]]:
    return [e for e in live_server.gym.events(env_id) if e["face"] == "ui"]


def messages_list(page: Page, channel_name: str) -> Any:
    return page.get_by_role("list", name=f"Messages in #{channel_name}")


def plain_seeded_message(live_server: Any, env_id: str, channel_id: str) -> dict[str, Any]:
    """A recent seeded top-level message whose text is plain words (no mrkdwn), by a person."""
    history = slack(live_server, env_id, "conversations.history", channel=channel_id, limit=30)["messages"]
    for message in history:
        if re.fullmatch(r"[A-Za-z0-9 ,.'!?$%()/-]{20,}", message["text"]) and message.get("subtype") is None:
            return message
    pytest.skip("no plain-text seeded message in the channel's latest page")


def anchor(ts: str) -> str:
    """The element id of a message in the channel view (Slack's permalink form)."""
    return "p" + ts.replace(".", "")


def real_name(live_server: Any, env_id: str, user_id: str) -> str:
    return slack(live_server, env_id, "users.info", user=user_id)["user"]["real_name"]


# -- the headline flow ----------------------------------------------------------------------
def test_read_post_reply_and_react_in_the_browser(live_server: Any, env_id: str, page: Page) -> None:
    channel = general(live_server, env_id)
    seeded = plain_seeded_message(live_server, env_id, channel["id"])
    author = real_name(live_server, env_id, seeded["user"])

    # Reading: / opens #general, with the sidebar, the header and the seeded history.
    page.goto(f"{live_server.base_url}/envs/{env_id}/chat/")
    assert page.url.endswith(f"/chat/c/{channel['id']}")
    expect(page.get_by_role("heading", level=1, name=f"#{channel['name']}")).to_be_visible()
    sidebar = page.get_by_role("navigation", name="Channels")
    mine = slack(live_server, env_id, "users.conversations", types="public_channel,private_channel", exclude_archived="true", limit=1000)["channels"]
    snapshot = sidebar.aria_snapshot()
    for conv in mine:
        assert conv["name"] in snapshot, f"#{conv['name']} missing from the sidebar:\n{snapshot}"
    assert 'link "#general"' in snapshot
    assert "Direct messages" in snapshot and "Browse channels" in snapshot
    history = messages_list(page, channel["name"])
    seeded_item = history.locator(f"#{anchor(seeded['ts'])}").get_by_role("article")
    expect(seeded_item).to_be_visible()
    expect(seeded_item).to_have_accessible_name(re.compile(rf"^{re.escape(author)}, .+: {re.escape(seeded['text'][:60])}"))
    # Times are shown in the acting user's own time zone.
    me = slack(live_server, env_id, "auth.test")
    local = datetime.fromtimestamp(int(seeded["ts"].split(".")[0]), ZoneInfo(slack(live_server, env_id, "users.info", user=me["user_id"])["user"]["tz"]))
    shown = f"{local.hour % 12 or 12}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"
    expect(seeded_item.locator("time")).to_contain_text(shown)
    assert seeded_item.locator("time").get_attribute("datetime") == local.isoformat()

    # Posting through the composer (Enter sends, Shift+Enter is a newline).
    composer = page.get_by_role("textbox", name=f"Message #{channel['name']}")
    composer.fill("Hello from the browser UI")
    composer.press("Shift+Enter")
    composer.press_sequentially("second line")
    composer.press("Enter")
    my_name = real_name(live_server, env_id, me["user_id"])
    mine_item = history.get_by_role("article", name=re.compile(rf"^{re.escape(my_name)}, .*Hello from the browser UI"))
    expect(mine_item).to_be_visible()
    expect(mine_item).to_contain_text("second line")
    latest = slack(live_server, env_id, "conversations.history", channel=channel["id"], limit=1)["messages"][0]
    assert latest["text"] == "Hello from the browser UI\nsecond line" and latest["user"] == me["user_id"]
    posted_ts = latest["ts"]

    # A thread: open it from the message, reply, see the reply in the thread pane.
    mine_item.hover()
    mine_item.get_by_role("button", name="Reply in thread").click()
    thread = page.get_by_role("complementary", name="Thread")
    expect(thread.get_by_role("heading", name="Thread")).to_be_visible()
    thread.get_by_role("textbox", name="Reply…").fill("A reply typed in the thread pane")
    thread.get_by_role("button", name="Send reply").click()
    expect(thread.get_by_role("list", name="Replies").get_by_role("article")).to_have_count(1)
    expect(thread.get_by_role("list", name="Replies")).to_contain_text("A reply typed in the thread pane")
    expect(history.get_by_role("article", name=re.compile(r"Hello from the browser UI")).get_by_role("link", name="1 reply")).to_be_visible()

    # A reaction by clicking: open the picker on the message, pick an emoji, then toggle it off.
    mine_item = history.get_by_role("article", name=re.compile(r"Hello from the browser UI"))
    mine_item.hover()
    mine_item.get_by_role("button", name="Add reaction", exact=True).click()
    mine_item.get_by_role("button", name="React with :white_check_mark:").click()
    mine_item = history.get_by_role("article", name=re.compile(r"Hello from the browser UI"))
    mine_reaction = mine_item.get_by_role("button", name="Remove your reaction :white_check_mark: (1)")
    expect(mine_reaction).to_have_attribute("aria-pressed", "true")
    got = slack(live_server, env_id, "reactions.get", channel=channel["id"], timestamp=posted_ts)["message"]
    assert got["reactions"] == [{"name": "white_check_mark", "users": [me["user_id"]], "count": 1}]
    mine_reaction.click()
    expect(history.get_by_role("article", name=re.compile(r"Hello from the browser UI")).get_by_role("list", name="Reactions")).to_have_count(0)

    # The state, through the REST face, and the trajectory: every UI write, with source "ui".
    replies = slack(live_server, env_id, "conversations.replies", channel=channel["id"], ts=posted_ts)["messages"]
    assert [m["text"] for m in replies] == ["Hello from the browser UI\nsecond line", "A reply typed in the thread pane"]
    writes = ui_writes(live_server, env_id)
    assert [e["operation"] for e in writes] == ["chat.postMessage", "chat.postMessage", "reactions.add", "reactions.remove"]
    assert all(e["app"] == "chat" and not e["is_error"] for e in writes)
    assert writes[1]["args"] == {"channel": channel["id"], "text": "A reply typed in the thread pane", "thread_ts": posted_ts}
    assert writes[2]["args"] == {"channel": channel["id"], "timestamp": posted_ts, "name": "white_check_mark"}
    assert all(e["face"] == "ui" for e in live_server.gym.events(env_id)), "page views must not be logged as writes"


# -- tasks done in the browser score 1.0 ----------------------------------------------------
def auth(live_server: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {live_server.token}"}


@pytest.fixture
def task_env(live_server: Any, request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    response = httpx.post(f"{live_server.control_url}/v1/envs", json={"task": request.param, "seed": 0, "size": "small"}, headers=auth(live_server), timeout=30)
    assert response.status_code == 201, response.text
    created = response.json()
    yield created
    httpx.delete(f"{live_server.control_url}/v1/envs/{created['env_id']}", headers=auth(live_server), timeout=10)


def grade(live_server: Any, env_id: str) -> dict[str, Any]:
    response = httpx.post(f"{live_server.control_url}/v1/envs/{env_id}/grade", headers=auth(live_server), timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("task_env", ["chat/reply-in-thread-v1"], indirect=True)
def test_reply_in_thread_task_done_in_the_browser_scores_1(live_server: Any, task_env: dict[str, Any], page: Page) -> None:
    prompt = task_env["prompt"]
    found = re.search(
        r"\. (?P<author>[^.]+?) started a thread in #(?P<channel>[\w-]+) about (?P<customer>.+?)\. Reply in that thread"
        r".* contact is (?P<contact>.+), (?P<email>\S+?)\.$",
        prompt,
    )
    assert found, prompt
    assert grade(live_server, task_env["env_id"])["reward"] == 0.0  # doing nothing scores 0

    # Like an agent: search for the customer in the channel, open the author's message, reply in its thread.
    page.goto(task_env["urls"]["ui"]["chat"])
    search = page.get_by_role("searchbox", name="Search messages")
    search.fill(f'"{found["customer"]}" in:#{found["channel"]}')
    search.press("Enter")
    results = page.get_by_role("list", name="Search results")
    hit = results.get_by_role("article", name=re.compile(rf"^{re.escape(found['author'])}, ")).filter(
        has=page.get_by_role("link", name="View in channel")
    )
    expect(hit).to_have_count(1)
    hit.get_by_role("link", name="View in channel").click()
    target = page.locator(".msg.highlight article")
    expect(target).to_have_count(1)
    expect(target).to_contain_text(found["customer"])
    target.hover()
    target.get_by_role("button", name="Reply in thread").click()
    thread = page.get_by_role("complementary", name="Thread")
    thread.get_by_role("textbox", name="Reply…").fill(f"The main contact is {found['contact']}, {found['email']}.")
    thread.get_by_role("textbox", name="Reply…").press("Enter")
    expect(thread.get_by_role("list", name="Replies")).to_contain_text(found["email"])

    graded = grade(live_server, task_env["env_id"])
    assert graded["reward"] == 1.0, graded
    assert graded["collateral"] == []


@pytest.mark.parametrize("task_env", ["chat/react-to-message-v1"], indirect=True)
def test_react_task_done_in_the_browser_scores_1(live_server: Any, task_env: dict[str, Any], page: Page) -> None:
    found = re.search(r"react with :(?P<emoji>[\w+-]+): to (?P<author>.+?)'s most recent message in #(?P<channel>[\w-]+)", task_env["prompt"])
    assert found, task_env["prompt"]
    page.goto(task_env["urls"]["ui"]["chat"])
    channel_link = page.get_by_role("navigation", name="Channels").get_by_role("link", name=f"#{found['channel']}", exact=True)
    if channel_link.count() == 0:  # not a member: find it under "Browse channels"
        page.get_by_role("link", name="Browse channels").click()
        channel_link = page.get_by_role("link", name=f"#{found['channel']}", exact=True)
    channel_link.click()
    theirs = messages_list(page, found["channel"]).get_by_role("article", name=re.compile(rf"^{re.escape(found['author'])}, ")).last
    theirs.hover()
    theirs.get_by_role("button", name="Add reaction", exact=True).click()
    theirs.get_by_role("textbox", name="Emoji name").fill(found["emoji"])
    theirs.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_role("button", name=f"Remove your reaction :{found['emoji']}:").first).to_be_visible()

    graded = grade(live_server, task_env["env_id"])
    assert graded["reward"] == 1.0, graded


# -- escaping --------------------------------------------------------------------------------
PAYLOADS = [
    "<img src=x onerror=alert(1)>",
    "<script>alert('xss');window.__pwned=1</script>",
    "<javascript:alert(1)|click me> and <https://example.com|<b>ok</b>>",
    '*"><svg onload=alert(1)>* _</em><iframe src=javascript:alert(1)>_',
]


def test_agent_text_is_shown_as_text_never_run_as_html(live_server: Any, env_id: str, page: Page, page_watch: Any) -> None:
    channel = general(live_server, env_id)
    page.goto(f"{live_server.base_url}/envs/{env_id}/chat/c/{channel['id']}")
    for payload in PAYLOADS:
        composer = page.get_by_role("textbox", name=f"Message #{channel['name']}")
        composer.fill(payload)
        before = page.url
        composer.press("Enter")
        page.wait_for_url(lambda url, before=before: url != before)  # each post lands on its own #p<ts>
    history = messages_list(page, channel["name"])
    expect(history.get_by_text("<img src=x onerror=alert(1)>", exact=True)).to_be_visible()
    expect(history.get_by_text("<script>alert('xss');window.__pwned=1</script>", exact=True)).to_be_visible()
    expect(history.get_by_text(re.compile(r"<javascript:alert\(1\)\|click me>"))).to_be_visible()
    # Nothing was injected: no element from agent text, no script ran, no dialog opened.
    allowed = {"A", "SPAN", "STRONG", "EM", "DEL", "CODE", "PRE", "BR", "BLOCKQUOTE"}
    tags = set(history.locator(".text *").evaluate_all("nodes => nodes.map(n => n.tagName)"))
    assert tags <= allowed, tags - allowed
    assert history.locator("img, script, iframe, a[href^='javascript' i], [onerror], [onload]").count() == 0
    assert page.evaluate("window.__pwned") is None
    assert page_watch.dialogs == []
    # The stored text is exactly what was typed.
    stored = [m["text"] for m in slack(live_server, env_id, "conversations.history", channel=channel["id"], limit=len(PAYLOADS))["messages"]]
    assert stored == list(reversed(PAYLOADS))


def test_mrkdwn_rendering_is_safe_and_faithful() -> None:
    names = Resolver(
        user_name=lambda uid: {"U1": "Priya <Sharma>"}.get(uid, uid),
        channel_name=lambda cid: {"C1": "sales"}.get(cid),
        channel_url=lambda cid: f"/c/{cid}",
    )
    html, plain = render_mrkdwn("Hi <@U1>, see <#C1> and <#C9|ops>: *bold* _it_ ~no~ `a<b>` &lt;tag&gt; :tada: <https://x.io/a_b?q=1&amp;r=2|docs>", names)
    assert '<span class="mention">@Priya &lt;Sharma&gt;</span>' in html
    assert '<a class="mention" href="/c/C1">#sales</a>' in html and ">#ops</a>" in html
    assert "<strong>bold</strong>" in html and "<em>it</em>" in html and "<del>no</del>" in html
    assert "<code>a&lt;b&gt;</code>" in html and "&lt;tag&gt;" in html and "🎉" in html
    assert 'href="https://x.io/a_b?q=1&amp;r=2"' in html and ">docs</a>" in html
    assert plain.startswith("Hi @Priya <Sharma>, see #sales and #ops: *bold*")
    html, _ = render_mrkdwn("<javascript:alert(1)|x> <data:text/html,hi> <img src=x onerror=alert(1)> snake_case_name 2*3*4", names)
    assert "<a" not in html and "<img" not in html and "<em>" not in html and "<strong>" not in html
    assert "&lt;javascript:alert(1)|x&gt;" in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    html, _ = render_mrkdwn("```\n<b>code</b>\n*x*\n```\n> quoted\nnext", names)
    assert '<pre class="code-block">&lt;b&gt;code&lt;/b&gt;\n*x*</pre>' in html
    assert "<blockquote>quoted</blockquote>next" in html


# -- errors ----------------------------------------------------------------------------------
def test_empty_message_shows_an_alert_and_writes_nothing(live_server: Any, env_id: str, page: Page) -> None:
    channel = general(live_server, env_id)
    latest = slack(live_server, env_id, "conversations.history", channel=channel["id"], limit=1)["messages"][0]
    before = latest["ts"]
    page.goto(f"{live_server.base_url}/envs/{env_id}/chat/c/{channel['id']}")
    page.get_by_role("textbox", name=f"Message #{channel['name']}").fill("   ")
    with page.expect_response(re.compile(r"/messages$")) as answer:
        page.get_by_role("button", name="Send", exact=True).click()
    assert answer.value.status == 400
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("not sent")
    expect(alert).to_contain_text("no_text")
    after = slack(live_server, env_id, "conversations.history", channel=channel["id"], limit=1)["messages"][0]["ts"]
    assert after == before
    writes = ui_writes(live_server, env_id)
    assert [(e["operation"], e["is_error"]) for e in writes] == [("chat.postMessage", True)]
    # A bad reaction name re-renders with an alert too, and the page still works afterwards.
    item = messages_list(page, channel["name"]).get_by_role("article").last
    item.hover()
    item.get_by_role("button", name="Add reaction", exact=True).click()
    item.get_by_role("textbox", name="Emoji name").fill("not an emoji!")
    item.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("invalid_name")
    now = slack(live_server, env_id, "conversations.history", channel=channel["id"], limit=1)["messages"][0]
    assert now.get("reactions") == latest.get("reactions")


def test_unknown_env_channel_and_thread_are_404(live_server: Any, env_id: str, page: Page) -> None:
    for bad in ("0" * 32, "not-an-env", "../etc"):
        assert httpx.get(f"{live_server.base_url}/envs/{bad}/chat/", timeout=10).status_code == 404
    live_server.gym.delete(live_server.gym.create().id)
    answer = page.goto(f"{live_server.base_url}/envs/{'f' * 32}/chat/c/C123")
    assert answer is not None and answer.status == 404
    answer = page.goto(f"{live_server.base_url}/envs/{env_id}/chat/c/CNOSUCHCHAN")
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("alert")).to_contain_text("channel_not_found")
    channel = general(live_server, env_id)
    answer = page.goto(f"{live_server.base_url}/envs/{env_id}/chat/c/{channel['id']}/t/1.000001")
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("alert")).to_contain_text("thread_not_found")


# -- search ----------------------------------------------------------------------------------
def test_search_finds_a_seeded_message_and_links_to_it(live_server: Any, env_id: str, page: Page) -> None:
    channel = general(live_server, env_id)
    seeded = plain_seeded_message(live_server, env_id, channel["id"])
    phrase = " ".join(seeded["text"].split()[:5])
    author = real_name(live_server, env_id, seeded["user"])
    page.goto(f"{live_server.base_url}/envs/{env_id}/chat/")
    search = page.get_by_role("search").get_by_role("searchbox", name="Search messages")
    search.fill(f'"{phrase}"')
    search.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text(phrase)
    results = page.get_by_role("list", name="Search results")
    hit = results.get_by_role("article").filter(has=page.locator(f"a[href$='#{anchor(seeded['ts'])}']"))
    expect(hit).to_have_count(1)
    expect(hit).to_have_accessible_name(re.compile(rf"^{re.escape(author)}, "))
    expect(hit).to_contain_text(seeded["text"])
    expect(hit).to_contain_text(f"#{channel['name']}")
    hit.get_by_role("link", name="View in channel").click()
    expect(page.locator(".msg.highlight article")).to_contain_text(seeded["text"])
    assert page.url.endswith("#" + anchor(seeded["ts"]))
    # A query Slack rejects shows an alert, not a crash.
    page.goto(f"{live_server.base_url}/envs/{env_id}/chat/search?q=in:%23no-such-channel")
    expect(page.get_by_role("alert")).to_contain_text("channel_not_found")


# -- without JavaScript ------------------------------------------------------------------------
def test_plain_form_posts_work_without_javascript(live_server: Any, env_id: str, browser: Any) -> None:
    channel = general(live_server, env_id)
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.base_url}/envs/{env_id}/chat/c/{channel['id']}")
        page.get_by_role("textbox", name=f"Message #{channel['name']}").fill("posted with scripts off")
        page.get_by_role("button", name="Send", exact=True).click()
        item = messages_list(page, channel["name"]).get_by_role("article", name=re.compile("posted with scripts off"))
        expect(item).to_be_visible()
        item.get_by_role("button", name="Add reaction", exact=True).click()  # reloads with the picker open
        item = messages_list(page, channel["name"]).get_by_role("article", name=re.compile("posted with scripts off"))
        item.get_by_role("button", name="React with :eyes:").click()
        expect(page.get_by_role("button", name="Remove your reaction :eyes: (1)")).to_be_visible()
    finally:
        context.close()
    assert [e["operation"] for e in ui_writes(live_server, env_id)] == ["chat.postMessage", "reactions.add"]


# -- editing and deleting your own messages ------------------------------------------------------
def test_edit_and_delete_own_message(live_server: Any, env_id: str, page: Page) -> None:
    channel = general(live_server, env_id)
    page.goto(f"{live_server.base_url}/envs/{env_id}/chat/c/{channel['id']}")
    page.get_by_role("textbox", name=f"Message #{channel['name']}").fill("typo in thsi message")
    page.get_by_role("textbox", name=f"Message #{channel['name']}").press("Enter")
    history = messages_list(page, channel["name"])
    item = history.get_by_role("article", name=re.compile("typo in thsi message"))
    item.hover()
    item.get_by_role("button", name="Edit message").click()
    editor = page.get_by_role("textbox", name="Edit message")
    expect(editor).to_have_value("typo in thsi message")
    editor.fill("no typo in this message")
    editor.press("Enter")
    item = history.get_by_role("article", name=re.compile("no typo in this message"))
    expect(item).to_contain_text("(edited)")
    item.hover()
    item.get_by_role("button", name="Delete message").click()
    page.get_by_role("group", name="Confirm delete").get_by_role("button", name="Delete message").click()
    expect(history.get_by_role("article", name=re.compile("no typo in this message"))).to_have_count(0)
    # Only your own messages offer editing and deleting.
    me = real_name(live_server, env_id, slack(live_server, env_id, "auth.test")["user_id"])
    mine = history.get_by_role("article", name=re.compile(rf"^{re.escape(me)}, ")).count()
    assert history.get_by_role("button", name="Edit message").count() == mine
    assert history.get_by_role("button", name="Delete message").count() == mine < history.get_by_role("article").count()
    assert [e["operation"] for e in ui_writes(live_server, env_id)] == ["chat.postMessage", "chat.update", "chat.delete"]
