"""Hostile input, the kinds an attacker or a confused agent sends, against every face of a
live server: each is a 4xx or an error in the product's shape (Slack's `ok: false` with a
known code on REST, `is_error` on MCP), changes nothing, and leaves the server serving on the
same keep-alive connection. A 100 MiB body is refused fast without growing the process.

Every case of the tables below crashed or misbehaved once: 500s from far-future search dates,
lone surrogates that reached the event log, date overflow in `during:`, expression trees too
deep for SQLite, NaN that FastAPI could not echo, NUL in cursors and query strings."""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import socket
import threading
import time
from typing import Any
from urllib.parse import quote_from_bytes, urlsplit

import httpx
import pytest
from sqlalchemy import select

from officegym.core.db import Base

J = {"content-type": "application/json"}
FORM = {"content-type": "application/x-www-form-urlencoded"}
MCP = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
BIG = "1" + "0" * 400  # 10**400
HUGE = "1" + "0" * 5000  # past Python's int-from-text limit


def env_state(live_server: Any, env_id: str) -> dict[str, str]:
    """A fingerprint of every table but the trajectory: equal fingerprints, same state."""
    env = live_server.gym.get(env_id)
    with live_server.gym.store.session(env) as db:
        return {
            table.name: hashlib.sha256(repr(db.execute(select(table).order_by(*table.primary_key.columns)).all()).encode()).hexdigest()
            for table in Base.metadata.sorted_tables if table.name != "og_events" and not table.name.startswith("og_changed")
        }


def q(value: str) -> str:
    """Percent-encode text the way a hostile client can: lone surrogates as their raw bytes."""
    return quote_from_bytes(value.encode("utf-8", "surrogatepass"))


def rest_cases(channel: str) -> list[tuple[str, str, str, bytes, dict[str, str], str]]:
    """(label, HTTP method, Slack method + query, body, headers, expected "ok" or error code)."""
    cursor_nul = base64.b64encode(b"team:\x00").decode()
    return [
        ("10**400 as a JSON number", "POST", "conversations.history", f'{{"channel":"{channel}","limit":{BIG}}}'.encode(), J, "ok"),
        ("10**400 in the query", "GET", f"conversations.history?channel={channel}&limit={BIG}", b"", {}, "ok"),
        ("10**5000 as a JSON number", "POST", "conversations.history", f'{{"channel":"{channel}","limit":{HUGE}}}'.encode(), J, "invalid_arguments"),
        ("10**5000 in the query", "GET", f"search.messages?query=a&count={HUGE}", b"", {}, "invalid_arguments"),
        ("Infinity", "POST", "conversations.history", f'{{"channel":"{channel}","limit":Infinity}}'.encode(), J, "invalid_arguments"),
        ("NaN", "POST", "conversations.history", f'{{"channel":"{channel}","limit":NaN}}'.encode(), J, "invalid_arguments"),
        ("1e400", "POST", "conversations.history", f'{{"channel":"{channel}","limit":1e400}}'.encode(), J, "invalid_arguments"),
        ("lone surrogate in text", "POST", "chat.postMessage", f'{{"channel":"{channel}","text":"\\ud800"}}'.encode(), J, "invalid_arguments"),
        ("lone surrogate in a name", "POST", "chat.postMessage", '{"channel":"\\udfff","text":"x"}'.encode(), J, "invalid_arguments"),
        ("lone surrogate as a key", "POST", "reactions.add", f'{{"channel":"{channel}","timestamp":"1.000000","name":"x","\\ud800":1}}'.encode(), J, "message_not_found"),
        ("surrogate percent-encoded", "GET", f"conversations.info?channel={q(chr(0xD800))}", b"", {}, "invalid_arguments"),
        ("NUL in JSON text", "POST", "chat.postMessage", f'{{"channel":"{channel}","text":"a\\u0000b"}}'.encode(), J, "invalid_arguments"),
        ("NUL in the query", "GET", "conversations.info?channel=a%00b", b"", {}, "invalid_arguments"),
        ("NUL in a form", "POST", "chat.postMessage", f"channel={channel}&text=a%00b".encode(), FORM, "invalid_arguments"),
        ("deep nesting", "POST", "chat.postMessage", b'{"channel":' + b"[" * 50_000 + b"]" * 50_000 + b"}", J, "invalid_arguments"),
        ("invalid UTF-8 JSON", "POST", "chat.postMessage", b'{"channel":"\xff\xfe","text":"x"}', J, "invalid_arguments"),
        ("invalid UTF-8 form", "POST", "chat.postMessage", b"channel=\xff&text=\xfe", FORM, "invalid_arguments"),
        ("invalid UTF-8 percent-encoded form", "POST", "chat.postMessage", f"channel={channel}&text=%ff%fe".encode(), FORM, "invalid_arguments"),
        ("text/plain body", "POST", "chat.postMessage", b"channel=x&text=y", {"content-type": "text/plain"}, "invalid_arguments"),
        ("XML body", "POST", "chat.postMessage", b"<channel>x</channel>", {"content-type": "application/xml"}, "invalid_arguments"),
        ("multipart without boundary", "POST", "chat.postMessage", b"garbage", {"content-type": "multipart/form-data"}, "invalid_arguments"),
        ("a JSON array body", "POST", "chat.postMessage", b"[1, 2]", J, "invalid_arguments"),
        ("an object for a name", "POST", "chat.postMessage", b'{"channel":{"$ne":1},"text":"x"}', J, "invalid_arguments"),
        ("after:9999-12-31", "GET", "search.messages?query=after:9999-12-31", b"", {}, "ok"),
        ("before:0001-01-01", "GET", "search.messages?query=before:0001-01-01", b"", {}, "ok"),
        ("on:9999-12-31", "GET", "search.messages?query=on:9999-12-31", b"", {}, "ok"),
        ("during:9999-12", "GET", "search.messages?query=during:9999-12", b"", {}, "ok"),
        ("during:99999-01", "GET", "search.messages?query=during:99999-01", b"", {}, "invalid_query"),
        ("after:2300-01-01 (past the 10-digit ts)", "GET", "search.messages?query=after:2300-01-01", b"", {}, "ok"),
        ("500 search words", "GET", "search.messages?query=" + "a+" * 499 + "a", b"", {}, "invalid_query"),
        ("a 60 KB search query", "GET", "search.messages?query=" + "a" * 60_000, b"", {}, "invalid_arguments"),
        ("a 60 KB cursor", "GET", "conversations.list?cursor=" + "A" * 60_000, b"", {}, "invalid_arguments"),
        ("a cursor hiding NUL", "GET", f"conversations.list?cursor={q(cursor_nul)}", b"", {}, "invalid_cursor"),
        ("repeated keys", "GET", f"conversations.history?channel={channel}&channel=C0&limit=1&limit=abc", b"", {}, "invalid_arguments"),
        ("a 10 KB method name", "POST", "x" * 10_000, b"", {}, "unknown_method"),
    ]


def test_hostile_rest_input_is_a_clean_error_on_one_connection(live_server: Any, env_id: str) -> None:
    base = live_server.env_url(env_id)
    channel = httpx.get(f"{base}/api/chat/conversations.list", timeout=10).json()["channels"][0]["id"]
    before = env_state(live_server, env_id)
    host = urlsplit(live_server.base_url)
    connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30)  # one keep-alive connection throughout
    for label, verb, path, body, headers, expected in rest_cases(channel):
        try:
            connection.request(verb, f"/envs/{env_id}/api/chat/{path}", body=body or None, headers=headers)
            response = connection.getresponse()
            payload = response.read()
        except (ConnectionError, http.client.HTTPException) as dropped:
            pytest.fail(f"{label}: the server dropped the connection ({dropped!r})")
        assert response.status in (200, 400), (label, response.status, payload[:300])
        answer = json.loads(payload)
        if expected == "ok":
            assert answer["ok"] is True, (label, answer)
        else:
            assert answer["ok"] is False and answer["error"] == expected, (label, answer)
            assert answer["response_metadata"]["messages"], label
    connection.close()
    assert env_state(live_server, env_id) == before, "no hostile call changed anything"


def ui_cases(channel: str) -> list[tuple[str, str, str, bytes, int]]:
    """(label, method, path under the env's UI, form body, expected status)."""
    return [
        ("NUL in a form", "POST", f"c/{channel}/messages", b"text=a%00b", 400),
        ("invalid UTF-8 form", "POST", f"c/{channel}/messages", b"text=\xff\xfe", 400),
        ("surrogate percent-encoded form", "POST", f"c/{channel}/messages", f"text={q(chr(0xDC00))}".encode(), 400),
        ("NUL in a channel name", "POST", "channels", b"name=a%00", 400),
        ("NUL in a query", "GET", f"c/{channel}?at=%00", b"", 400),
        ("a 60 KB cursor", "GET", f"c/{channel}?cursor=" + "A" * 60_000, b"", 400),
        ("search after:9999-12-31", "GET", "search?q=after%3A9999-12-31", b"", 200),
        ("search with 3000 words", "GET", "search?q=" + "a+" * 3000, b"", 400),
        ("search NUL", "GET", "search?q=a%00", b"", 400),
        ("search page 10**400", "GET", f"search?q=a&page_no={BIG}", b"", 200),
        ("search page 10**5000", "GET", f"search?q=a&page_no={HUGE}", b"", 422),
        ("a 50,000-character message", "POST", f"c/{channel}/messages", b"text=" + b"x" * 50_000, 400),
    ]


def test_hostile_ui_input_is_a_clean_4xx(live_server: Any, env_id: str) -> None:
    base = live_server.env_url(env_id)
    channel = httpx.get(f"{base}/api/chat/conversations.list", timeout=10).json()["channels"][0]["id"]
    before = env_state(live_server, env_id)
    host = urlsplit(live_server.base_url)
    connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    for label, verb, path, body, expected in ui_cases(channel):
        headers = {**FORM, "origin": live_server.base_url} if verb == "POST" else {}
        connection.request(verb, f"/envs/{env_id}/chat/{path}", body=body or None, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        assert response.status == expected, (label, response.status, payload[:300])
    connection.close()
    assert env_state(live_server, env_id) == before


async def test_hostile_mcp_arguments_are_error_results_naming_the_argument(live_server: Any, env_id: str) -> None:
    url = f"{live_server.env_url(env_id)}/mcp/chat"

    def call(tool: str, arguments: str) -> bytes:
        return f'{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}'.encode()

    cases = [  # (label, body, expected: "ok", an error code in the tool result, or a JSON-RPC error code)
        ("NaN", call("slack_get_channel_history", '{"channel_id":"#general","limit":NaN}'), ("invalid_arguments", "limit")),
        ("Infinity", call("slack_get_channel_history", '{"channel_id":"#general","limit":-Infinity}'), ("invalid_arguments", "limit")),
        ("10**400", call("slack_get_channel_history", f'{{"channel_id":"#general","limit":{BIG}}}'), "ok"),
        ("a list for a channel", call("slack_post_message", '{"channel_id":["#general"],"text":"x"}'), ("invalid_arguments", "channel_id")),
        ("a missing argument", call("slack_add_reaction", '{"channel_id":"#general","timestamp":"1.000000"}'), ("invalid_arguments", "reaction")),
        ("NUL in text", call("slack_post_message", '{"channel_id":"#general","text":"a\\u0000"}'), ("invalid_arguments", "text")),
        ("far-future search", call("slack_search_messages", '{"query":"during:9999-12"}'), "ok"),
        ("an unknown tool", call("slack_\\u0000", "{}"), ("unknown_tool", "slack_")),
        ("a lone surrogate", call("slack_post_message", '{"channel_id":"#general","text":"\\ud800"}'), -32700),
        ("deep nesting", call("slack_post_message", '{"channel_id":' + "[" * 5000 + "]" * 5000 + "}"), -32700),
        ("invalid UTF-8", b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x\xff"}}', -32700),
    ]
    before = env_state(live_server, env_id)
    async with httpx.AsyncClient(timeout=30) as client:
        for label, body, expected in cases:
            response = await client.post(url, content=body, headers=MCP)
            assert response.status_code < 500, (label, response.status_code)
            answer = response.json()
            if isinstance(expected, int):
                assert answer["error"]["code"] == expected, (label, answer)
                continue
            result = answer["result"]
            payload = json.loads(result["content"][0]["text"])
            if expected == "ok":
                assert not result.get("isError") and payload["ok"] is True, (label, payload)
            else:
                code, named = expected
                assert result["isError"] is True and payload["error"] == code, (label, payload)
                assert named in json.dumps(payload), f"{label}: the error names {named!r}: {payload}"
    assert env_state(live_server, env_id) == before


def test_hostile_control_plane_input(live_server: Any, control: httpx.Client, env_id: str) -> None:
    for body in ('{"seed": NaN}', '{"seed": "\\ud800"}', '{"\\ud800": 1}', f'{{"seed": {BIG}}}', '{"size": "\\u0000"}', b'{"size": "\xff"}'):
        response = control.post("/v1/envs", content=body, headers=J)
        assert response.status_code in (400, 422), (body, response.status_code, response.text[:200])
        response.json()
    assert control.get(f"/v1/envs/{env_id}/events", params={"after": BIG}).status_code in (200, 422)
    host = urlsplit(live_server.control_url)
    for token in (b"Bearer \xc3\xa9\xe2\x98\x83", b"Bearer \xff\xfe", "Bearer é".encode("latin-1")):
        with socket.create_connection((host.hostname, host.port), timeout=10) as raw:
            raw.sendall(b"GET /v1/envs HTTP/1.1\r\nHost: " + host.netloc.encode() + b"\r\nAuthorization: " + token + b"\r\n\r\n")
            status_line = raw.recv(200).split(b"\r\n")[0]
        assert status_line.split()[1] == b"401", (token, status_line)


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        return int(status.read().split("VmRSS:")[1].split()[0]) / 1024


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
@pytest.mark.parametrize("face", ["api/chat/chat.postMessage", "chat/c/C0/messages", "mcp/chat"])
def test_a_100_mib_body_is_refused_fast_and_costs_no_memory(live_server: Any, env_id: str, face: str, declared: bool) -> None:
    chunk = b"a" * (1 << 20)
    peak = [rss_mib()]
    baseline = peak[0]
    done = threading.Event()

    def sample() -> None:  # the server runs in this process: watch its memory while it reads
        while not done.wait(0.005):
            peak[0] = max(peak[0], rss_mib())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    headers = {"content-type": "application/x-www-form-urlencoded" if face.startswith("chat/") else "application/json",
               "accept": "application/json, text/event-stream"}
    if declared:
        headers["content-length"] = str(100 << 20)
    url = f"{live_server.env_url(env_id)}/{face}"
    with httpx.Client(timeout=60) as client:
        started = time.perf_counter()
        response = client.post(url, content=(chunk for _ in range(100)), headers=headers)
        elapsed = time.perf_counter() - started
        done.set()
        sampler.join()
        assert response.status_code == 413, (response.status_code, response.text[:200])
        assert "1048576" in response.text
        assert client.post(f"{live_server.env_url(env_id)}/api/chat/auth.test").json()["ok"] is True, "the connection still serves"
    assert peak[0] - baseline < 64, f"RSS grew {peak[0] - baseline:.0f} MiB while refusing 100 MiB"
    print(f"\n413 for 100 MiB to {face} ({'declared' if declared else 'chunked'}): {elapsed * 1000:.0f} ms, RSS +{peak[0] - baseline:.1f} MiB")
