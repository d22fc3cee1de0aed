"""One source per operation: for every write operation, each face that binds it (MCP tools,
REST methods, UI forms) makes the same state change, and the same bad input gets the same
error, in each face's own shape.

MCP bindings are found in the toolset tables (no hand list); UI forms are listed here, since
a page's form is written by hand. A write operation with no scenario fails the test, so a new
operation cannot land without proving its faces agree.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from mcp import Client

from officegym import apps

CHAT = apps.get("chat")
MISSING_CHANNEL = "C0000NOPE00"


@dataclass
class World:
    """Facts of the fresh env a scenario runs in (the same in every env: same template)."""

    general: str  # #general, the actor is a member
    other_channel: str  # a public channel the actor has not joined
    own_ts: str  # a message the actor posted during preparation, in #general
    colleague: str  # a user id, not the actor
    outsider: str  # a user id not in #general's... any other colleague
    prepared: list[dict[str, Any]] = field(default_factory=list)  # the answers of the scenario's prepare calls


def _later(w: World) -> int:
    """An hour after the prepared post: in the future of a fresh env's clock."""
    return int(w.own_ts.split(".")[0]) + 3600


@dataclass
class Scenario:
    operation: str
    args: Callable[[World], dict[str, Any]]
    ui: Callable[[World], tuple[str, dict[str, str]]] | None = None  # (path under the UI root, form fields)
    bad: dict[str, Any] = field(default_factory=dict)  # argument overrides that must fail
    bad_code: str = "channel_not_found"
    prepare: Callable[[World], list[tuple[str, dict[str, Any]]]] = lambda _w: []  # REST calls run first, in every env


SCENARIOS = [
    Scenario("chat.postMessage", lambda w: {"channel": w.general, "text": "parity post"},
             ui=lambda w: (f"c/{w.general}/messages", {"text": "parity post"}), bad={"channel": MISSING_CHANNEL}),
    Scenario("chat.update", lambda w: {"channel": w.general, "ts": w.own_ts, "text": "edited by parity"},
             ui=lambda w: (f"c/{w.general}/messages/{w.own_ts}/edit", {"text": "edited by parity"}),
             bad={"ts": "1000000000.000001"}, bad_code="message_not_found"),
    Scenario("chat.delete", lambda w: {"channel": w.general, "ts": w.own_ts},
             ui=lambda w: (f"c/{w.general}/messages/{w.own_ts}/delete", {}), bad={"channel": MISSING_CHANNEL}),
    Scenario("reactions.add", lambda w: {"channel": w.general, "timestamp": w.own_ts, "name": "tada"},
             ui=lambda w: (f"c/{w.general}/reactions", {"ts": w.own_ts, "name": "tada", "op": "add"}),
             bad={"name": "not an emoji!"}, bad_code="invalid_name"),
    Scenario("reactions.remove", lambda w: {"channel": w.general, "timestamp": w.own_ts, "name": "eyes"},
             ui=lambda w: (f"c/{w.general}/reactions", {"ts": w.own_ts, "name": "eyes", "op": "remove"}),
             prepare=lambda w: [("reactions.add", {"channel": w.general, "timestamp": w.own_ts, "name": "eyes"})],
             bad={"name": "rocket"}, bad_code="no_reaction"),
    Scenario("conversations.join", lambda w: {"channel": w.other_channel},
             ui=lambda w: (f"c/{w.other_channel}/join", {}), bad={"channel": MISSING_CHANNEL}),
    Scenario("conversations.leave", lambda w: {"channel": w.general},
             ui=lambda w: (f"c/{w.general}/leave", {}), bad={"channel": MISSING_CHANNEL}),
    Scenario("conversations.invite", lambda w: {"channel": w.general, "users": w.outsider},
             ui=lambda w: (f"c/{w.general}/members", {"users": w.outsider}), bad={"users": "U0000NOPE00"}, bad_code="user_not_found",
             prepare=lambda w: [("conversations.kick", {"channel": w.general, "user": w.outsider})]),
    Scenario("conversations.kick", lambda w: {"channel": w.general, "user": w.colleague},
             ui=lambda w: (f"c/{w.general}/members/remove", {"user": w.colleague}), bad={"user": "U0000NOPE00"}, bad_code="user_not_found"),
    Scenario("conversations.create", lambda _w: {"name": "parity-room", "is_private": "true"},
             ui=lambda _w: ("channels", {"name": "parity-room", "is_private": "on"}), bad={"name": "Not Valid"},
             bad_code="invalid_name_specials"),
    Scenario("conversations.open", lambda w: {"users": w.colleague}, ui=lambda w: ("dm", {"user": w.colleague}),
             bad={"users": "U0000NOPE00"}, bad_code="user_not_found"),
    Scenario("conversations.mark", lambda w: {"channel": w.general, "ts": w.own_ts}, bad={"channel": MISSING_CHANNEL}),
    Scenario("conversations.archive", lambda w: {"channel": w.other_channel}, bad={"channel": MISSING_CHANNEL}),
    Scenario("conversations.unarchive", lambda w: {"channel": w.other_channel}, bad={"channel": MISSING_CHANNEL},
             prepare=lambda w: [("conversations.archive", {"channel": w.other_channel})]),
    Scenario("conversations.setTopic", lambda w: {"channel": w.general, "topic": "parity topic"}, bad={"channel": MISSING_CHANNEL}),
    Scenario("conversations.setPurpose", lambda w: {"channel": w.general, "purpose": "parity purpose"}, bad={"channel": MISSING_CHANNEL}),
    Scenario("pins.add", lambda w: {"channel": w.general, "timestamp": w.own_ts}, bad={"channel": MISSING_CHANNEL}),
    Scenario("pins.remove", lambda w: {"channel": w.general, "timestamp": w.own_ts}, bad={"channel": MISSING_CHANNEL},
             prepare=lambda w: [("pins.add", {"channel": w.general, "timestamp": w.own_ts})]),
    Scenario("canvases.create", lambda w: {"title": "Parity", "document_content": "# parity", "channel_id": w.general},
             bad={"channel_id": MISSING_CHANNEL}),
    Scenario("conversations.canvases.create", lambda w: {"channel_id": w.general, "document_content": "# parity"},
             bad={"channel_id": MISSING_CHANNEL}),
    Scenario("canvases.edit", lambda w: {"canvas_id": w.prepared[0]["canvas_id"], "document_content": "edited"},
             prepare=lambda w: [("canvases.create", {"title": "Parity", "document_content": "# parity"})],
             bad={"canvas_id": "F0000NOPE00"}, bad_code="canvas_not_found"),
    Scenario("chat.scheduleMessage", lambda w: {"channel": w.general, "post_at": _later(w), "text": "parity later"},
             bad={"channel": MISSING_CHANNEL}),
    Scenario("chat.deleteScheduledMessage", lambda w: {"channel": w.general, "scheduled_message_id": w.prepared[0]["scheduled_message_id"]},
             prepare=lambda w: [("chat.scheduleMessage", {"channel": w.general, "post_at": _later(w), "text": "parity later"})],
             bad={"scheduled_message_id": "Q0000NOPE00"}, bad_code="invalid_scheduled_message_id"),
    Scenario("drafts.create", lambda w: {"channel": w.general, "text": "parity draft"}, bad={"channel": MISSING_CHANNEL}),
    Scenario("drafts.delete", lambda w: {"draft_id": w.prepared[0]["draft"]["id"]},
             prepare=lambda w: [("drafts.create", {"channel": w.general, "text": "parity draft"})],
             bad={"draft_id": "Dr0000NOPE00"}, bad_code="draft_not_found"),
]
BY_OPERATION = {s.operation: s for s in SCENARIOS}
BOOKKEEPING_WRITES = {"conversations.mark", "drafts.create", "drafts.delete"}  # they change only tables that are not company state


def mcp_bindings(operation: str) -> list[tuple[str, dict[str, str], dict[str, Any]]]:
    """(tool, tool argument → operation parameter, fixed) of every reference tool on `operation`."""
    op = CHAT.operations[operation]
    found = []
    for tool in CHAT.toolset(None).tools:
        if tool.operation == operation:
            found.append((tool.name, tool.arg_names(op), dict(tool.fixed)))
    return found


def tool_arguments(names: dict[str, str], fixed: dict[str, Any], args: dict[str, Any]) -> dict[str, Any] | None:
    """The tool call that means `args`, or None when the tool cannot express them."""
    back = {param: tool_arg for tool_arg, param in names.items()}
    if any(param not in back and param not in fixed for param in args) or any(args.get(p, v) != v for p, v in fixed.items()):
        return None
    return {back[param]: value for param, value in args.items() if param in back}


class Faces:
    def __init__(self, live_server: Any) -> None:
        self.live = live_server
        self.http = httpx.Client(timeout=30)

    def rest(self, env_id: str, method: str, args: dict[str, Any]) -> dict[str, Any]:
        return self.http.post(f"{self.live.base_url}/envs/{env_id}/api/chat/{method}", data=args).json()

    def ui(self, env_id: str, path: str, form: dict[str, str]) -> httpx.Response:
        return self.http.post(f"{self.live.base_url}/envs/{env_id}/chat/{path}", data=form, headers={"Origin": self.live.base_url})

    async def mcp(self, env_id: str, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        async with Client(f"{self.live.base_url}/envs/{env_id}/mcp/chat") as client:
            result = await client.call_tool(tool, args)
        return bool(result.is_error), json.loads(result.content[0].text)


@pytest.fixture(scope="module")
def faces(live_server: Any) -> Faces:
    return Faces(live_server)


def fresh(live_server: Any, faces: Faces, scenario: Scenario) -> tuple[str, World]:
    env = live_server.gym.create()
    channels = faces.rest(env.id, "conversations.list", {"limit": 1000})["channels"]
    general = next(c["id"] for c in channels if c["is_general"])
    other = next(c["id"] for c in channels if not c["is_member"] and not c["is_archived"])
    me = faces.rest(env.id, "auth.test", {})["user_id"]
    members = faces.rest(env.id, "conversations.members", {"channel": general, "limit": 1000})["members"]
    dms = faces.rest(env.id, "users.conversations", {"types": "im", "limit": 1000})["channels"]
    talked_to = {c.get("user") for c in dms}
    # Colleagues with no DM yet, so opening one is a change in every face.
    colleagues = [m for m in members if m not in (me, "USLACKBOT") and m not in talked_to]
    own = faces.rest(env.id, "chat.postMessage", {"channel": general, "text": "prepared by parity"})["ts"]
    world = World(general=general, other_channel=other, own_ts=own, colleague=colleagues[0], outsider=colleagues[1])
    for method, args in scenario.prepare(world):
        answer = faces.rest(env.id, method, args)
        assert answer["ok"], (method, args, answer)
        world.prepared.append(answer)
    live_server.gym.store.snapshot_start(env)  # diff from here: only the operation under test counts
    return env.id, world


def changes(live_server: Any, env_id: str) -> list[tuple[str, str, str, Any]]:
    return [(c.table, c.key, c.change, c.after) for c in live_server.gym.changes(env_id)]


def test_every_write_operation_has_a_parity_scenario() -> None:
    writes = {op.name for op in CHAT.operations if op.writes}
    assert writes <= set(BY_OPERATION), f"write operations without a parity scenario: {sorted(writes - set(BY_OPERATION))}"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.operation)
async def test_every_face_makes_the_same_change(live_server: Any, faces: Faces, scenario: Scenario) -> None:
    results: dict[str, list[Any]] = {}
    env_id, world = fresh(live_server, faces, scenario)
    body = faces.rest(env_id, scenario.operation, scenario.args(world))
    assert body["ok"], body
    results["rest"] = changes(live_server, env_id)
    assert results["rest"] or scenario.operation in BOOKKEEPING_WRITES, "a write operation changes company state"

    for tool, names, fixed in mcp_bindings(scenario.operation):
        env_id, world = fresh(live_server, faces, scenario)
        call = tool_arguments(names, fixed, scenario.args(world))
        if call is None:
            continue
        is_error, payload = await faces.mcp(env_id, tool, call)
        assert not is_error, (tool, payload)
        results[f"mcp:{tool}"] = changes(live_server, env_id)

    if scenario.ui is not None:
        env_id, world = fresh(live_server, faces, scenario)
        path, form = scenario.ui(world)
        response = faces.ui(env_id, path, form)
        assert response.status_code == 303, (path, response.status_code, response.text[:300])
        results["ui"] = changes(live_server, env_id)
        assert [e["operation"] for e in live_server.gym.events(env_id) if e["face"] == "ui"] == [scenario.operation]

    reference = results["rest"]
    for face, diff in results.items():
        assert diff == reference, f"{scenario.operation}: {face} changed {diff}, REST changed {reference}"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.operation)
async def test_the_same_bad_input_gets_the_same_error_in_every_face(live_server: Any, faces: Faces, scenario: Scenario) -> None:
    env_id, world = fresh(live_server, faces, scenario)
    bad = {**scenario.args(world), **scenario.bad}
    body = faces.rest(env_id, scenario.operation, bad)
    assert body["ok"] is False and body["error"] == scenario.bad_code, body
    assert changes(live_server, env_id) == [], "a failed call writes nothing"

    for tool, names, fixed in mcp_bindings(scenario.operation):
        call = tool_arguments(names, fixed, bad)
        if call is None:
            continue
        is_error, payload = await faces.mcp(env_id, tool, call)
        assert is_error and payload["error"] == scenario.bad_code, (tool, payload)
        assert changes(live_server, env_id) == []

    if scenario.ui is not None:
        ui_world = World(**{**world.__dict__})
        good_path, good_form = scenario.ui(ui_world)
        # The UI spells the same bad value in its form or its path.
        form = {k: str(scenario.bad.get(k, scenario.bad.get(f"{k}s", v))) for k, v in good_form.items()}  # a form's "user" is the operation's "users"
        path = good_path.replace(world.general, scenario.bad.get("channel", world.general)).replace(
            world.other_channel, scenario.bad.get("channel", world.other_channel)).replace(world.own_ts, scenario.bad.get("ts", world.own_ts))
        response = faces.ui(env_id, path, form)
        assert response.status_code in (400, 404), (path, form, response.status_code)
        assert f"({scenario.bad_code})" in response.text, f"the UI names the error code {scenario.bad_code}"
        assert changes(live_server, env_id) == []
