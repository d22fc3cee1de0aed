"""One source per operation, in the crm app: a create, an update and a lead conversion made
through REST, MCP and the UI make the same state change (same ids, same stamps, since each
env starts from the same template and clock), and the same bad input gets the same
Salesforce error in each face's own shape."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from mcp import Client

API = "api/crm/services/data/v62.0"


def changes(live_server: Any, env_id: str) -> list[tuple[str, str, str, Any]]:
    return sorted((c.table, c.key, c.change, json.dumps(c.after, sort_keys=True, default=str)) for c in live_server.gym.changes(env_id))


async def mcp(live_server: Any, env_id: str, tool: str, args: dict[str, Any]) -> str:
    async with Client(f"{live_server.base_url}/envs/{env_id}/mcp/crm") as client:
        result = await client.call_tool(tool, args)
    return result.content[0].text


def first(live_server: Any, env_id: str, soql: str) -> dict[str, Any]:
    return httpx.get(f"{live_server.base_url}/envs/{env_id}/{API}/query", params={"q": soql}).json()["records"][0]


Faces = dict[str, Callable[[Any, str], Any]]


def _faces_for(record: dict[str, Any], sobject: str, record_id: Callable[[Any, str], str] | None) -> Faces:
    """REST, MCP and UI doing the same write (a create when record_id is None, else an update)."""
    def rest(live_server: Any, env_id: str) -> None:
        base = f"{live_server.base_url}/envs/{env_id}/{API}/sobjects/{sobject}"
        response = httpx.post(base, json=record) if record_id is None else httpx.patch(f"{base}/{record_id(live_server, env_id)}", json=record)
        assert response.status_code in (201, 204), response.text

    async def tool(live_server: Any, env_id: str) -> None:
        row = dict(record) if record_id is None else {"Id": record_id(live_server, env_id), **record}
        text = await mcp(live_server, env_id, "salesforce_dml_records", {"operation": "insert" if record_id is None else "update",
                                                                         "objectName": sobject, "records": [row]})
        assert "- Failed: 0" in text, text

    def ui(live_server: Any, env_id: str) -> None:
        base = f"{live_server.base_url}/envs/{env_id}/crm"
        url = f"{base}/o/{sobject}/new" if record_id is None else f"{base}/r/{record_id(live_server, env_id)}/edit"
        form = {k: str(v) for k, v in record.items()}
        if record_id is not None:  # an edit form sends every field it shows: the record's values, the edit over them
            current = httpx.get(f"{live_server.base_url}/envs/{env_id}/{API}/sobjects/{sobject}/{record_id(live_server, env_id)}").json()
            form = {k: ("" if v is None else ("on" if v is True else str(v))) for k, v in current.items() if k != "attributes" and v is not False} | form
        response = httpx.post(url, data=form, headers={"origin": live_server.base_url}, follow_redirects=False)
        assert response.status_code == 303, response.text[:500]

    return {"rest": rest, "mcp": tool, "ui": ui}


def _open_opportunity(live_server: Any, env_id: str) -> str:
    return first(live_server, env_id, "SELECT Id FROM Opportunity WHERE IsClosed = false ORDER BY Name LIMIT 1")["Id"]


SCENARIOS = {
    "create Account": _faces_for({"Name": "Parity Co", "Industry": "Retail", "NumberOfEmployees": 40}, "Account", None),
    "update Opportunity": _faces_for({"StageName": "Negotiation/Review", "NextStep": "Parity call"}, "Opportunity", _open_opportunity),
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_every_face_makes_the_same_change(live_server: Any, scenario: str) -> None:
    gym = live_server.gym
    seen = {}
    for face, do in SCENARIOS[scenario].items():
        env = gym.create()
        try:
            outcome = do(live_server, env.id)
            if hasattr(outcome, "__await__"):
                await outcome
            seen[face] = changes(live_server, env.id)
        finally:
            gym.delete(env.id)
    assert seen["rest"] and seen["rest"] == seen["mcp"] == seen["ui"], seen


async def test_the_same_bad_input_gets_the_same_error_everywhere(live_server: Any, env_id: str) -> None:
    bad = {"Name": "No stage", "CloseDate": "2026-12-31"}
    rest = httpx.post(f"{live_server.base_url}/envs/{env_id}/{API}/sobjects/Opportunity", json=bad)
    assert rest.status_code == 400 and rest.json()[0]["errorCode"] == "REQUIRED_FIELD_MISSING" and rest.json()[0]["fields"] == ["StageName"]
    text = await mcp(live_server, env_id, "salesforce_dml_records", {"operation": "insert", "objectName": "Opportunity", "records": [bad]})
    assert "Required fields are missing: [StageName] [REQUIRED_FIELD_MISSING]" in text
    page = httpx.post(f"{live_server.base_url}/envs/{env_id}/crm/o/Opportunity/new", data=bad, headers={"origin": live_server.base_url})
    assert page.status_code == 400 and "Required fields are missing: [StageName]" in page.text and 'aria-invalid="true"' in page.text
    assert live_server.gym.changes(env_id) == []
