"""The browser-facing protections of the agent server: security headers on every response
(UI, REST, MCP, and the guard's own refusals), a CSP the chat UI really runs under in
Chromium, and Origin checks that refuse cross-origin writes (CSRF) while the UI's own forms,
same-origin fetches and non-browser clients keep working."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

COMMON = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}
EVIL = "http://evil.example"


def assert_secured(response: httpx.Response) -> None:
    for name, value in COMMON.items():
        assert response.headers.get(name) == value, (str(response.url)[:120], name, response.headers.get(name))
    csp = response.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in csp, csp
    if response.headers.get("content-type", "").startswith("text/html"):
        assert "default-src 'self'" in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0], csp


def general(base: str) -> str:
    channels = httpx.get(f"{base}/api/chat/conversations.list", timeout=10).json()["channels"]
    return next(c["id"] for c in channels if c["is_general"])


def history_texts(base: str, channel: str) -> list[str]:
    body = httpx.get(f"{base}/api/chat/conversations.history", params={"channel": channel, "limit": 20}, timeout=10).json()
    return [m["text"] for m in body["messages"]]


def test_every_face_sends_security_headers(live_server: Any, env_id: str) -> None:
    base = live_server.env_url(env_id)
    with httpx.Client(timeout=10) as client:
        channel = general(base)
        responses = [
            client.get(f"{base}/chat/c/{channel}"),  # a UI page
            client.get(f"{base}/chat/", follow_redirects=False),  # a UI redirect
            client.post(f"{base}/api/chat/auth.test"),  # REST
            client.post(f"{base}/api/chat/chat.postMessage", json={"channel": channel}),  # a REST error
            client.post(f"{base}/mcp/chat", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                        headers={"accept": "application/json, text/event-stream"}),  # MCP
            client.get(f"{live_server.base_url}/envs/{'0' * 32}/api/chat/auth.test"),  # unknown env
            client.post(f"{base}/chat/c/{channel}/messages", data={"text": "x"}, headers={"origin": EVIL}),  # a refusal
        ]
    assert [r.status_code for r in responses] == [200, 303, 200, 200, 200, 404, 403]
    assert responses[0].headers["content-type"].startswith("text/html")
    for response in responses:
        assert_secured(response)


def test_the_ui_runs_under_its_csp_in_chromium(live_server: Any, env_id: str, page: Page) -> None:
    # Violations are collected in the page itself (an init script is not subject to the CSP).
    page.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    base = live_server.env_url(env_id)
    channel = general(base)
    page.goto(f"{base}/chat/c/{channel}")
    # The inline script runs: "Add reaction" opens the picker in place instead of reloading.
    item = page.get_by_role("list", name=re.compile(r"^Messages in")).get_by_role("article").last
    item.hover()
    url = page.url
    item.get_by_role("button", name="Add reaction", exact=True).click()
    expect(item.get_by_role("button", name="React with :white_check_mark:")).to_be_visible()
    assert page.url == url, "the picker opened by script, without a page load"
    # Enter in the composer sends (also the script), under the same CSP.
    composer = page.get_by_role("textbox", name=re.compile(r"^Message #"))
    composer.fill("sent under the CSP")
    composer.press("Enter")
    expect(page.get_by_role("article", name=re.compile(r"sent under the CSP"))).to_be_visible()
    assert page.evaluate("window.__csp") == []
    assert not [text for text in console if "Content Security Policy" in text], console
    # Nothing the page (or the browser for it: the favicon) asks for fails.
    assert not [text for text in console if "Failed to load resource" in text], console


@pytest.mark.parametrize("headers", [
    {"origin": EVIL},
    {"origin": "null"},  # a sandboxed frame or a file: page
    {"referer": f"{EVIL}/attack.html"},  # no Origin, a foreign Referer
    {"origin": "http://127.0.0.1.evil.example"},
])
def test_a_cross_origin_write_is_refused_and_writes_nothing(live_server: Any, env_id: str, headers: dict[str, str]) -> None:
    base = live_server.env_url(env_id)
    channel = general(base)
    before = history_texts(base, channel)
    with httpx.Client(timeout=10) as client:
        ui = client.post(f"{base}/chat/c/{channel}/messages", data={"text": "csrf via form"}, headers=headers, follow_redirects=False)
        rest = client.post(f"{base}/api/chat/chat.postMessage", data={"channel": channel, "text": "csrf via api"}, headers=headers)
        created = client.post(f"{base}/chat/channels", data={"name": "csrf-made-this"}, headers=headers, follow_redirects=False)
        alive = client.post(f"{base}/api/chat/auth.test")  # the same connection still serves
    assert (ui.status_code, rest.status_code, created.status_code) == (403, 403, 403)
    assert rest.json()["ok"] is False and rest.json()["error"] == "cross_origin_request"
    assert "another origin" in ui.text
    assert alive.status_code == 200 and alive.json()["ok"] is True
    assert history_texts(base, channel) == before
    names = [c["name"] for c in httpx.get(f"{base}/api/chat/conversations.list", params={"limit": 1000}, timeout=10).json()["channels"]]
    assert "csrf-made-this" not in names
    assert not [e for e in live_server.gym.events(env_id) if e["face"] in ("ui", "rest")], "a refused request never reaches an operation"


def test_same_origin_and_non_browser_writes_pass(live_server: Any, env_id: str) -> None:
    base = live_server.env_url(env_id)
    channel = general(base)
    own = live_server.base_url
    with httpx.Client(timeout=10) as client:
        for n, headers in enumerate([{"origin": own}, {"referer": f"{base}/chat/c/{channel}"}, {}]):
            ui = client.post(f"{base}/chat/c/{channel}/messages", data={"text": f"same origin {n}"}, headers=headers, follow_redirects=False)
            assert ui.status_code == 303, (headers, ui.status_code, ui.text[:200])
            rest = client.post(f"{base}/api/chat/chat.postMessage", json={"channel": channel, "text": f"api {n}"}, headers=headers)
            assert rest.json()["ok"] is True, (headers, rest.json())
        # Safe methods are never refused: a link from another site opens the UI.
        assert client.get(f"{base}/chat/c/{channel}", headers={"origin": EVIL, "referer": EVIL}).status_code == 200
    assert {f"same origin {n}" for n in range(3)} <= set(history_texts(base, channel))


def test_a_cross_origin_form_in_chromium_is_refused(live_server: Any, env_id: str, page: Page) -> None:
    """A real attack: a page on another origin auto-submits a form at the env's UI."""
    base = live_server.env_url(env_id)
    channel = general(base)
    before = history_texts(base, channel)
    attack = (
        f'<form id="f" method="post" action="{base}/chat/c/{channel}/messages">'
        '<input name="text" value="posted by evil.example"></form><script>document.getElementById("f").submit()</script>'
    )
    page.route(f"{EVIL}/**", lambda route: route.fulfill(status=200, content_type="text/html", body=attack))
    with page.expect_response(lambda r: "/messages" in r.url) as answer:
        page.goto(f"{EVIL}/attack.html")
    assert answer.value.status == 403
    assert history_texts(base, channel) == before
