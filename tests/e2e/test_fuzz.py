"""Property-based fuzz of every REST method and every MCP tool of every registered app, over
the live server: arguments drawn from each operation's (or tool's) own JSON schema, mixed
with hostile values (huge and non-finite numbers, lone surrogates, NUL, wrong types, junk
dates and cursors), sent as JSON, form fields and query strings. Properties:

- no answer is a 5xx, and the server keeps the keep-alive connection;
- every failure is in the product's shape: REST `ok: false` with an error code the app (or
  the guard) declares, MCP an `is_error` result whose text names the bad argument by the
  tool's own name (or a JSON-RPC error for a body that is not JSON at all);
- a failed call, and any read, changes nothing but the trajectory.

Examples per method come from OFFICEGYM_FUZZ_EXAMPLES (default 8, ~30 s in all on 2 cores);
runs are derandomized, so a failure reproduces.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote_from_bytes

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, text

from officegym import apps
from officegym.core.db import Base
from officegym.faces import guard

FUZZ = settings(
    max_examples=int(os.environ.get("OFFICEGYM_FUZZ_EXAMPLES", "8")), deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# The Slack-shaped faces (one REST method per operation, `ok`/`error` bodies). Apps with their
# product's own routes and error shapes fuzz them in tests/e2e/test_<app>_fuzz.py, reusing
# the strategies below.
SLACK_SHAPED = [app for app in apps.APPS if app.name == "chat"]
REST = [(app.name, op.name) for app in SLACK_SHAPED for op in app.operations]
TOOLS = [(app.name, toolset.name, tool.name) for app in SLACK_SHAPED for toolset in app.toolsets for tool in toolset.tools]
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}

HOSTILE = st.sampled_from([
    None, "", " ", "\x00", "a\x00b", "\ud800", "x\udfff", "é" * 300, "🙂", "A" * 5000, 10**400, -(10**400), -1, 0, 2**63,
    float("nan"), float("inf"), float("-inf"), 1e308, 1.5, True, False, [], [[[]]], {}, {"$ne": 1}, ["#general", 7],
    "#general", "@me", "<@U0|x>", "9999999999.999999", "0000000000.000000", "1.1", "1e400", "NaN", "Infinity", "0x10",
    "after:9999-12-31 before:0001-01-01", "during:99999-01", "on:9999-12-31", "in:#general from:me", "-%_\\", '"open',
    "<script>alert(1)</script>", "' OR 1=1 --", "public_channel,im,nope", "dGVhbTpDMA==", "dGVhbToA",
])


def known_codes(app: Any) -> set[str]:
    """Every error code the app's source raises, plus the guard's (a 500's is never known)."""
    source = "".join(path.read_text() for path in sorted(app.source_dir.rglob("*.py")))
    raised = re.findall(r'(?:Error\(\s*|\bcode\s*(?::\s*str\s*)?=\s*)"([a-z_]+)"', source)  # Error("x", …), code="x"
    return set(raised) | (set(guard.CODES) - {guard.INTERNAL})


def from_schema(schema: dict[str, Any], refs: list[str]) -> st.SearchStrategy[Any]:
    """Values for one JSON-schema property: valid-looking ones, references to real records
    (so calls get past the lookups), and values just past the declared limits."""
    if "anyOf" in schema:
        return st.one_of([from_schema(option, refs) for option in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "string":
        longest = min(schema.get("maxLength", 200) + 1, 2000)
        return st.one_of(st.sampled_from(refs), st.text(max_size=40), st.text(min_size=longest - 1, max_size=longest))
    if kind == "integer":
        low = schema.get("minimum", 0)
        return st.one_of(st.integers(low - 1, low + 50), st.integers(), st.just(10**400))
    if kind == "number":
        return st.floats(allow_nan=True, allow_infinity=True)
    if kind == "boolean":
        return st.one_of(st.booleans(), st.sampled_from(["true", "1", "yes", "maybe"]))
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {}), refs), max_size=4)
    if kind == "object":
        return st.dictionaries(st.text(max_size=8), st.one_of(st.text(max_size=20), st.integers()), max_size=3)
    return HOSTILE


def arguments(schema: dict[str, Any], refs: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    named = {name: st.one_of(from_schema(prop, refs), HOSTILE) for name, prop in schema.get("properties", {}).items()}
    extra = st.dictionaries(st.text(max_size=8), HOSTILE, max_size=2)
    return st.tuples(st.fixed_dictionaries({}, optional=named), extra).map(lambda pair: {**pair[1], **pair[0]})


def form_pairs(args: dict[str, Any]) -> str:
    """Arguments as url-encoded pairs, as a hostile client can send them (lists as repeated
    keys, lone surrogates as their raw bytes)."""
    def text(value: Any) -> str:
        if isinstance(value, (dict, list)):
            return json.dumps(value)
        return {True: "true", False: "false"}.get(value, str(value)) if isinstance(value, bool) else str(value)

    def q(value: str) -> str:
        return quote_from_bytes(value.encode("utf-8", "surrogatepass"))

    pairs = []
    for name, value in args.items():
        for item in value if isinstance(value, list) else [value]:
            if item is not None:
                pairs.append(f"{q(str(name))}={q(text(item))}")
    return "&".join(pairs)


class Writes:
    """Counts committed row changes in every table of an env but the trajectory, so "nothing
    changed" is one read. On SQLite, triggers bump a counter (a rolled-back write unbumps
    it); on other backends, a fingerprint of every row (slower, same answer)."""

    SKIP = ("og_events", "fuzz_writes")  # and the backend's own change tracking (og_changed*)

    def __init__(self, gym: Any, env: Any, tables: str = "") -> None:
        # `tables`: a name prefix ("tickets_") when calls can only reach one app's tables, so
        # the fingerprint (off SQLite) hashes those alone instead of the whole company per call.
        self.gym, self.env, self.tables = gym, env, tables
        with gym.store.session(env) as db:
            self.sqlite = db.get_bind().dialect.name == "sqlite"
            if not self.sqlite:
                return
            db.execute(text("CREATE TABLE fuzz_writes (n INTEGER NOT NULL)"))
            db.execute(text("INSERT INTO fuzz_writes VALUES (0)"))
            tables = db.execute(text("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")).scalars()
            for table in [t for t in tables if t not in self.SKIP and not t.startswith("og_changed")]:
                for event in ("INSERT", "UPDATE", "DELETE"):
                    db.execute(text(f'CREATE TRIGGER "fuzz_{table}_{event}" AFTER {event} ON "{table}" BEGIN UPDATE fuzz_writes SET n = n + 1; END'))

    def count(self) -> Any:
        with self.gym.store.session(self.env) as db:
            if self.sqlite:
                return db.execute(text("SELECT n FROM fuzz_writes")).scalar_one()
            return [
                hashlib.sha256(repr(db.execute(select(table).order_by(*table.primary_key.columns)).all()).encode()).hexdigest()
                for table in Base.metadata.sorted_tables
                if table.name not in self.SKIP and not table.name.startswith("og_changed") and table.name.startswith(self.tables)
            ]


class EnvUnderFuzz:
    """One env under fuzz over real HTTP, with what a call may and may not change (every app's
    fuzz module makes its targets from this)."""

    def __init__(self, live_server: Any, toolset: str | None, tables: str = "") -> None:
        self.gym = live_server.gym
        self.env = self.gym.create(toolset=toolset)
        self.base = live_server.env_url(self.env.id)
        self.client = httpx.Client(timeout=30)  # one keep-alive connection for the whole fuzz
        self.writes = Writes(self.gym, self.env, tables)
        self.state = self.writes.count()

    def settle(self, changed_allowed: bool, what: str) -> None:
        after = self.writes.count()
        if not changed_allowed:
            assert after == self.state, f"{what} changed state"
        self.state = after

    def close(self) -> None:
        self.client.close()
        self.gym.delete(self.env.id)


class Target(EnvUnderFuzz):
    """A chat env under fuzz, with references a call may name."""

    def __init__(self, live_server: Any, toolset: str | None) -> None:
        super().__init__(live_server, toolset)
        api = f"{self.base}/api/chat"
        channels = self.client.get(f"{api}/conversations.list", params={"limit": 20}).json()["channels"]
        users = self.client.get(f"{api}/users.list", params={"limit": 5}).json()["members"]
        messages = self.client.get(f"{api}/conversations.history", params={"channel": channels[0]["id"], "limit": 3}).json()["messages"]
        self.refs = [c["id"] for c in channels[:5]] + ["#general", "general"] + [u["id"] for u in users] + [
            "@" + users[0]["name"], users[0]["profile"].get("email") or "a@b.c", *(m["ts"] for m in messages), "thumbsup", "public_channel,im",
        ]
        posted = self.client.post(f"{api}/chat.postMessage", json={"channel": channels[0]["id"], "text": "fuzz starts"}).json()
        assert posted["ok"] is True and self.writes.count() != self.state, "the write counter sees a write"
        self.state = self.writes.count()


@pytest.fixture(scope="module")
def targets(live_server: Any) -> Iterator[dict[str | None, Target]]:
    made = {None: Target(live_server, None)}
    for toolset in apps.toolset_names():
        made[toolset] = Target(live_server, toolset)
    yield made
    for target in made.values():
        target.close()


@pytest.mark.parametrize(("app_name", "op_name"), REST, ids=[f"{a}:{o}" for a, o in REST])
@FUZZ
@given(data=st.data())
def test_rest_method(targets: dict[str | None, Target], app_name: str, op_name: str, data: st.DataObject) -> None:
    app = apps.get(app_name)
    op = app.operations[op_name]
    target = targets[None]
    args = data.draw(arguments(op.json_schema(), target.refs), label="args")
    dialect = data.draw(st.sampled_from(["json", "form", "query"]), label="dialect")
    url = f"{target.base}/api/{app_name}/{op_name}"
    if dialect == "json":
        body = json.dumps(args, allow_nan=True).encode()  # NaN/Infinity and \ud800 escapes as a hostile client writes them
        response = target.client.post(url, content=body, headers={"content-type": "application/json"})
    elif dialect == "form":
        response = target.client.post(url, content=form_pairs(args).encode(), headers={"content-type": "application/x-www-form-urlencoded"})
    else:
        response = target.client.get(f"{url}?{form_pairs(args)}")
    assert response.status_code in (200, 400), (response.status_code, response.text[:300])
    answer = response.json()
    assert isinstance(answer.get("ok"), bool), answer
    if not answer["ok"]:
        assert answer["error"] in known_codes(app), answer
        assert answer["response_metadata"]["messages"] and all(isinstance(m, str) for m in answer["response_metadata"]["messages"]), answer
    target.settle(answer["ok"] and op.writes, f"{dialect} {op_name} {str(args)[:200]} → {str(answer)[:200]}")


@pytest.mark.parametrize(("app_name", "toolset", "tool_name"), TOOLS, ids=[f"{a}:{t}:{n}" for a, t, n in TOOLS])
@FUZZ
@given(data=st.data())
def test_mcp_tool(targets: dict[str | None, Target], app_name: str, toolset: str, tool_name: str, data: st.DataObject) -> None:
    app = apps.get(app_name)
    tool = next(t for t in app.toolset(toolset).tools if t.name == tool_name)
    op = app.operations[tool.operation]
    schema = tool.input_schema(op)
    target = targets[toolset]
    args = data.draw(arguments(schema, target.refs), label="args")
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool_name, "arguments": args}}
    response = target.client.post(f"{target.base}/mcp/{app_name}", content=json.dumps(request, allow_nan=True).encode(), headers=MCP_HEADERS)
    assert response.status_code in (200, 400), (response.status_code, response.text[:300])
    answer = response.json()
    if "error" in answer:  # the body itself is refused (a lone surrogate is not JSON text): a protocol error
        assert answer["error"]["code"] in (-32700, -32602), answer
        assert "\\ud" in json.dumps(args), f"only unreadable JSON is refused at the protocol level: {answer}"
        target.settle(False, f"{tool_name} {args}")
        return
    result = answer["result"]
    assert len(result["content"]) == 1 and result["content"][0]["type"] == "text", result
    payload = json.loads(result["content"][0]["text"])
    if result.get("isError"):
        assert payload["ok"] is False and payload["error"] in known_codes(app), payload
        if payload["error"] == "invalid_arguments":
            text = " ".join(payload["response_metadata"]["messages"])
            assert any(f"'{name}" in text for name in schema["properties"]), f"the error names a {tool_name} argument: {text}"
    else:
        assert payload["ok"] is True, payload
    target.settle(not result.get("isError") and op.writes, f"{tool_name} {str(args)[:200]} → {str(payload)[:200]}")
