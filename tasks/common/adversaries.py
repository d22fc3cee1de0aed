"""Scripted adversaries: agents that try to score without doing the task.

Each acts through the same `Tools` an oracle uses (the agent-facing MCP tools), using the
moves its instance exposes (`TaskInstance.moves`: kept in server memory, never shown to the
agent). `officegym tasks validate` runs every one of them on every family and variant; each
must stay below the pass line and must not pass.

- do-nothing: nothing at all.
- prompt-paste: posts the task's own text where the answer goes.
- list-everything: names every candidate of the asked kind (every ticket, person, emoji ...).
- hedger: a plausible wrong answer first, then the right one.
- shotgun: the right answer everywhere plausible (and with every emoji).
- vandal: does the task, then destroys other things (archives, deletes, overwrites).
- wrong-record: the right kind of action on the wrong record.
- put-away: does the task, then puts its result away where nobody looks: the issue filed is
  resolved, the case closed, the follow-up completed, the deal lost, the line or the call log
  deleted, the tab made (or written in) hidden, the channel archived, the message deleted.
- put-away-reply: does the task, then deletes the messages that hand it over (the reply with
  the total, the key, the link), the work itself left in place; where the task posts nothing,
  as put-away.
- decoy-first: a wrong answer where a reader looks first (a tab before the right one, rows
  above the right ones, a message before the right one), then the right one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from tasks.base import Moves, TaskInstance, ToolError, Tools

Adversary = Callable[[TaskInstance, Tools], Awaitable[None]]


def _moves(instance: TaskInstance) -> Moves:
    if instance.moves is None:
        raise ValueError("this instance exposes no moves for the adversary suite (TaskInstance.moves)")
    return instance.moves


async def do_nothing(instance: TaskInstance, tools: Tools) -> None:
    return None


async def prompt_paste(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).say(tools, instance.prompt)


async def list_everything(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).everything(tools)


async def hedger(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).wrong(tools)
    await instance.oracle(tools)


async def shotgun(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).shotgun(tools)


async def vandal(instance: TaskInstance, tools: Tools) -> None:
    await instance.oracle(tools)
    await _moves(instance).wreck(tools)


async def wrong_record(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).wrong_record(tools)


async def put_away(instance: TaskInstance, tools: Tools, reply: bool = False) -> None:
    moves = _moves(instance)
    if moves.put_away is not None:
        await moves.put_away(tools)
        return
    made = Made(tools)
    await instance.oracle(made)
    if reply and made.messages:  # only the messages that hand the work over; the work stays
        made.spreadsheets, made.tabs, made.issues, made.records, made.channels = [], [], [], [], []
    if not await made.put_away():
        raise ValueError("the oracle made nothing the put-away adversary knows how to put away: "
                         "give the family's Moves a put_away (tasks.base.nothing if its task makes nothing to put away)")


async def put_away_reply(instance: TaskInstance, tools: Tools) -> None:
    await put_away(instance, tools, reply=True)


async def decoy_first(instance: TaskInstance, tools: Tools) -> None:
    moves = _moves(instance)
    if moves.decoy is not None:
        await moves.decoy(tools)
        return
    await moves.wrong(tools)
    await instance.oracle(tools)


class Made:
    """The `Tools` an oracle acts through, noting what each call made or changed, so that it can
    all be put away afterwards, each thing by its kind (`put_away`)."""

    def __init__(self, tools: Tools) -> None:
        self.tools = tools
        self.spreadsheets: list[str] = []
        self.tabs: list[tuple[str, str]] = []  # (spreadsheet id, tab title) added
        self.written: list[tuple[str, str | int]] = []  # (spreadsheet id, tab title or sheetId) written in
        self.issues: list[str] = []  # keys filed
        self.edited: list[str] = []  # keys changed (fields, assignee, status, links, sprint)
        self.records: list[tuple[str, str, dict[str, Any]]] = []  # (object, id, fields) inserted
        self.channels: list[str] = []
        self.messages: list[tuple[str, str]] = []  # (channel, ts)
        self.reactions: list[tuple[str, str, str]] = []  # (channel, ts, name)

    async def call(self, tool: str, /, **arguments: Any) -> Any:
        result = await self.tools.call(tool, **arguments)
        self._note(tool, arguments, result)
        return result

    def _note(self, tool: str, a: dict[str, Any], result: Any) -> None:
        got = result if isinstance(result, dict) else {}
        # An .xlsx imported to read it is a way to the answer, not a result: not noted.
        if tool in ("create_spreadsheet", "create_workbook") and got.get("spreadsheetId"):
            self.spreadsheets.append(got["spreadsheetId"])
        elif tool in ("create_sheet", "create_worksheet"):
            self.tabs.append((a.get("spreadsheet_id") or a.get("filepath") or "", got.get("title") or a.get("title") or a.get("sheet_name") or ""))
        elif tool == "copy_sheet":
            self.tabs.append((a.get("dst_spreadsheet", ""), a.get("dst_sheet", "")))
        elif tool == "batch_update":
            for request in a.get("requests") or ():
                title = ((request or {}).get("addSheet") or {}).get("properties", {}).get("title")
                if title:
                    self.tabs.append((a["spreadsheet_id"], title))
                self.written.extend((a["spreadsheet_id"], i) for i in _sheet_ids(request))
        elif tool in ("update_cells", "batch_update_cells", "add_rows", "add_columns") and a.get("sheet"):
            self.written.append((a["spreadsheet_id"], a["sheet"]))
        elif tool == "jira_create_issue" and (got.get("issue") or {}).get("key"):
            self.issues.append(got["issue"]["key"])
        elif tool == "jira_batch_create_issues":
            self.issues.extend(i["key"] for i in (got.get("issues") or []) if isinstance(i, dict) and i.get("key"))
        elif tool in ("jira_update_issue", "jira_assign_issue", "jira_transition_issue", "jira_link_to_epic") and a.get("issue_key"):
            self.edited.append(a["issue_key"])
        elif tool == "jira_create_issue_link":
            self.edited.append(a["inward_issue_key"])
        elif tool == "jira_add_issues_to_sprint":
            self.edited.extend(k.strip() for k in str(a.get("issue_keys", "")).split(",") if k.strip())
        elif tool == "salesforce_dml_records" and a.get("operation") == "insert":
            ids = re.findall(r"\b[0-9a-zA-Z]{18}\b", str(result).split("Ids:", 1)[-1]) if "Ids:" in str(result) else []
            self.records.extend((a["objectName"], i, fields) for i, fields in zip(ids, a.get("records") or []))
        elif tool == "salesforce_convert_lead" and (got.get("opportunityId") or got.get("contactId")):
            # The deal it opened is lost; with none, the contact it made is deleted.
            self.records.append(("Opportunity", got["opportunityId"], {}) if got.get("opportunityId") else ("Contact", got["contactId"], {}))
        elif tool == "slack_create_channel" and (got.get("channel") or {}).get("id"):
            self.channels.append(got["channel"]["id"])
        elif tool in ("slack_post_message", "slack_reply_to_thread", "slack_send_message") and got.get("ts"):
            self.messages.append((got.get("channel") or a["channel_id"], got["ts"]))
        elif tool == "slack_add_reaction":
            self.reactions.append((a["channel_id"], a["timestamp"], a["reaction"]))

    async def _try(self, tool: str, **arguments: Any) -> bool:
        try:
            await self.tools.call(tool, **arguments)
            return True
        except ToolError:
            return False

    async def put_away(self) -> bool:
        """Put away what the work made: its artifacts if it made any (the spreadsheet's tabs and
        the tabs added hidden, issues resolved, records closed or deleted, channels archived),
        else the messages and reactions it posted, else the issues or tabs it changed. Whether
        anything was put away."""
        done = False
        for sid in dict.fromkeys(self.spreadsheets):
            done |= await self._hide_all(sid)
        made = set(self.spreadsheets)
        for sid, title in dict.fromkeys(self.tabs):
            if sid not in made:
                done |= await self._hide(sid, title)
        for key in dict.fromkeys(self.issues):
            done |= await self._resolve(key)
        for kind, record_id, fields in self.records:
            done |= await self._close(kind, record_id, fields)
        for channel in dict.fromkeys(self.channels):
            done |= await self._try("slack_archive_channel", channel_id=channel)
        if done:
            return True
        for channel, ts in self.messages:
            done |= await self._try("slack_delete_message", channel_id=channel, ts=ts)
        for channel, ts, name in self.reactions:
            done |= await self._try("slack_remove_reaction", channel_id=channel, timestamp=ts, reaction=name)
        if done:
            return True
        for key in dict.fromkeys(self.edited):
            done |= await self._resolve(key)
        for sid, title in dict.fromkeys(self.written):
            done |= await self._hide(sid, title)
        return done

    async def _tabs(self, sid: str) -> list[dict[str, Any]]:
        found = await self.tools.call("get_spreadsheet", spreadsheet_id=sid)
        return [s["properties"] for s in found.get("sheets", [])]

    async def _hide(self, sid: str, title: str | int) -> bool:
        tab = next((t for t in await self._tabs(sid) if title in (t.get("title"), t.get("sheetId"))), None)
        if tab is None:
            return False
        return await self._try("batch_update", spreadsheet_id=sid, requests=[
            {"updateSheetProperties": {"properties": {"sheetId": tab["sheetId"], "hidden": True}, "fields": "hidden"}}])

    async def _hide_all(self, sid: str) -> bool:
        """Every tab of a spreadsheet made hidden behind a blank one (a spreadsheet keeps one tab in view)."""
        tabs = await self._tabs(sid)
        requests: list[dict[str, Any]] = [{"addSheet": {"properties": {"title": "Sheet (blank)", "index": 0}}}]
        requests += [{"updateSheetProperties": {"properties": {"sheetId": t["sheetId"], "hidden": True}, "fields": "hidden"}} for t in tabs]
        return await self._try("batch_update", spreadsheet_id=sid, requests=requests)

    async def _resolve(self, key: str) -> bool:
        moves = await self.tools.call("jira_get_transitions", issue_key=key)
        for name in ("Resolve Issue", "Done", "Close Issue"):
            move = next((m for m in moves if m["name"].lower() == name.lower()), None)
            if move is not None and await self._try("jira_transition_issue", issue_key=key, transition_id=move["id"],
                                                    fields=json.dumps({"resolution": {"name": "Won't Fix"}})):
                return True
        return False

    async def _close(self, kind: str, record_id: str, fields: dict[str, Any]) -> bool:
        """A case closed, an open task completed, a deal lost; anything else (a call logged as
        done, a quote line) deleted."""
        change: dict[str, Any] | None = None
        if kind == "Case":
            change = {"Status": "Closed", "Resolution__c": "Closed: not needed"}
        elif kind == "Task" and str(fields.get("Status", "")).lower() != "completed":
            change = {"Status": "Completed"}
        elif kind == "Opportunity":
            change = {"StageName": "Closed Lost"}
        if change is not None and await self._try("salesforce_dml_records", operation="update", objectName=kind,
                                                  records=[{"Id": record_id, **change}]):
            return True
        return await self._try("salesforce_dml_records", operation="delete", objectName=kind, records=[{"Id": record_id}])


def _sheet_ids(request: Any) -> list[int]:
    """The tabs a batch_update request names (its ranges' and properties' sheetIds)."""
    found: list[int] = []
    if isinstance(request, dict):
        for key, value in request.items():
            if key == "sheetId" and isinstance(value, int):
                found.append(value)
            else:
                found.extend(_sheet_ids(value))
    elif isinstance(request, list):
        for value in request:
            found.extend(_sheet_ids(value))
    return found


ADVERSARIES: dict[str, Adversary] = {
    "do-nothing": do_nothing,
    "prompt-paste": prompt_paste,
    "list-everything": list_everything,
    "hedger": hedger,
    "shotgun": shotgun,
    "vandal": vandal,
    "wrong-record": wrong_record,
    "put-away": put_away,
    "put-away-reply": put_away_reply,
    "decoy-first": decoy_first,
}
