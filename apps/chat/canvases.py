"""Canvases: markdown documents, standalone or attached to a channel.

Slack's methods: `canvases.create` (optionally tabbed in a channel), `conversations.canvases.
create` (a channel's one canvas), `canvases.edit` (a list of changes). Slack has no read method
for a canvas' text; a canvas is a file, so `files.info` reads it, and answers its markdown in
`content` (as files.info does for text files). Who sees a canvas: its creator, and whoever can
see the channel it is attached to; only they can edit it.

`canvases.edit` takes Slack's `changes`; one change may also be given as top-level fields
(`operation`, `document_content`, `title_content`), which is how a tool with plain arguments
binds to it. Sections (`section_id`) are not modelled: a change applies to the whole document.

The operations are bound into `ChatService` (service.py); `self` is that service.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from apps.chat import shapes
from apps.chat.errors import ChatError
from apps.chat.ids import slack_id
from apps.chat.models import Canvas, Channel
from apps.chat.params import CanvasId, CanvasOperation, ChannelRef, Changes, DocumentContent, Title
from officegym.core import clock
from officegym.core.operations import operation

MAX_MARKDOWN_CHARS = 200_000  # bounds one canvas; far beyond any document a task needs
MAX_TITLE_CHARS = 255
MAX_CHANGES = 10
CONTENT_OPERATIONS = ("replace", "insert_at_start", "insert_at_end")
SECTION_OPERATIONS = ("insert_after", "insert_before", "delete")


def _bad(message: str) -> ChatError:
    return ChatError("invalid_arguments", message)


def _markdown(value: Any, what: str = "document_content") -> str:
    """The markdown of Slack's {"type": "markdown", "markdown": …}, given as an object, as a JSON
    string of one, or (for plain-argument tools) as the markdown itself."""
    if isinstance(value, str) and value.lstrip().startswith("{") and len(value) <= MAX_MARKDOWN_CHARS * 2:
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            pass  # markdown that happens to start with "{"
    if isinstance(value, dict):
        if value.get("type") != "markdown" or not isinstance(value.get("markdown"), str):
            raise _bad(f'{what} must be {{"type": "markdown", "markdown": "…"}} (or the markdown text itself)')
        value = value["markdown"]
    if not isinstance(value, str):
        raise _bad(f'{what} must be markdown text or {{"type": "markdown", "markdown": "…"}}')
    if len(value) > MAX_MARKDOWN_CHARS:
        raise _bad(f"{what} is {len(value)} characters; a canvas holds at most {MAX_MARKDOWN_CHARS}")
    return value


def _title(value: Any) -> str:
    title = _markdown(value, "title").strip() if value is not None else ""
    if len(title) > MAX_TITLE_CHARS:
        raise _bad(f"the title is {len(title)} characters; at most {MAX_TITLE_CHARS}")
    return title


def _new_canvas(self: Any, *, title: Any, content: Any, channel_id: str | None, is_channel_canvas: bool) -> dict[str, Any]:
    markdown = _markdown(content) if content is not None else ""
    name = _title(title)
    micros = clock.tick(self.db)
    canvas = Canvas(
        id=slack_id("F", self.workspace.id, "canvas", self.actor_id, micros), title=name, markdown=markdown,
        channel_id=channel_id, is_channel_canvas=is_channel_canvas, creator=self.actor_id,
        created=micros // 1_000_000, updated=micros // 1_000_000, updated_by=self.actor_id,
    )
    self.db.add(canvas)
    self.db.flush()
    return {"canvas_id": canvas.id}


def _canvas(self: Any, canvas_id: str, code: str = "canvas_not_found") -> Canvas:
    found = self.db.get(Canvas, (canvas_id or "").strip())
    if found is not None and found.creator != self.actor_id:
        conv = self.db.get(Channel, found.channel_id) if found.channel_id else None
        if conv is None or not self._can_see(conv):
            found = None
    if found is None:
        raise ChatError(code, f"no canvas {canvas_id!r} that you can see; pass a canvas ID ('F…') from canvases.create")
    return found


@operation("canvases.create", writes=True)
def canvases_create(self, title: Title | None = None, document_content: DocumentContent | None = None, channel_id: ChannelRef | None = None) -> dict[str, Any]:
    """Create a canvas: yours alone, or tabbed in a channel (then whoever sees the channel sees it)."""
    conv = None
    if channel_id:
        conv = self.channel(channel_id)
        self._writable(conv)
    return _new_canvas(self, title=title, content=document_content, channel_id=conv.id if conv else None, is_channel_canvas=False)


@operation("conversations.canvases.create", writes=True)
def conversations_canvases_create(self, channel_id: ChannelRef, document_content: DocumentContent | None = None, title: Title | None = None) -> dict[str, Any]:
    """Create a channel's canvas (each channel has at most one)."""
    conv = self.channel(channel_id)
    self._writable(conv)
    existing = self.db.scalars(select(Canvas).where(Canvas.channel_id == conv.id, Canvas.is_channel_canvas.is_(True))).first()
    if existing is not None:
        raise ChatError("channel_canvas_already_exists", f"channel {conv.id} already has a canvas ({existing.id}); edit it with canvases.edit")
    return _new_canvas(self, title=title, content=document_content, channel_id=conv.id, is_channel_canvas=True)


@operation("canvases.edit", writes=True)
def canvases_edit(
    self, canvas_id: CanvasId, changes: Changes | None = None, operation: CanvasOperation | None = None,
    document_content: DocumentContent | None = None, title_content: DocumentContent | None = None,
) -> dict[str, Any]:
    """Change a canvas: replace its content, add to its start or end, or rename it."""
    canvas = _canvas(self, canvas_id)
    steps = _changes(changes) if changes not in (None, "") else _flat_changes(operation, document_content, title_content)
    markdown, title = canvas.markdown, canvas.title
    for index, change in enumerate(steps):
        kind = change.get("operation")
        where = f"changes[{index}]"
        if kind in SECTION_OPERATIONS or change.get("section_id"):
            raise ChatError(
                "canvas_editing_failed",
                f"{where}: sections are not addressable here; use replace, insert_at_start, insert_at_end or rename on the whole canvas",
            )
        if kind == "rename":
            if change.get("title_content") is None:
                raise _bad(f"{where}: rename needs title_content")
            title = _title(change["title_content"])
        elif kind in CONTENT_OPERATIONS:
            if change.get("document_content") is None:
                raise _bad(f"{where}: {kind} needs document_content")
            added = _markdown(change["document_content"])
            if kind == "replace":
                markdown = added
            elif kind == "insert_at_end":
                markdown = markdown + ("\n" if markdown and not markdown.endswith("\n") else "") + added
            else:
                markdown = added + ("\n" if added and markdown and not added.endswith("\n") else "") + markdown
        else:
            raise _bad(f"{where}: unknown operation {str(kind)[:40]!r}; accepted: {', '.join((*CONTENT_OPERATIONS, 'rename'))}")
    if len(markdown) > MAX_MARKDOWN_CHARS:
        raise _bad(f"the canvas would be {len(markdown)} characters; a canvas holds at most {MAX_MARKDOWN_CHARS}")
    canvas.markdown, canvas.title = markdown, title
    canvas.updated, canvas.updated_by = clock.tick(self.db) // 1_000_000, self.actor_id
    return {}


def _changes(raw: Any) -> list[dict[str, Any]]:
    if isinstance(raw, str):
        if len(raw) > MAX_MARKDOWN_CHARS * 2:
            raise _bad("changes is too long")
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):
            raise _bad("changes must be a JSON array of change objects, e.g. [{\"operation\": \"insert_at_end\", \"document_content\": {\"type\": \"markdown\", \"markdown\": \"…\"}}]") from None
    if not isinstance(raw, list) or not raw or not all(isinstance(c, dict) for c in raw):
        raise _bad("changes must be a non-empty array of change objects")
    if len(raw) > MAX_CHANGES:
        raise _bad(f"at most {MAX_CHANGES} changes per call (got {len(raw)})")
    return raw


def _flat_changes(operation: str | None, document_content: Any, title_content: Any) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    if document_content is not None and operation != "rename":
        steps.append({"operation": operation or "replace", "document_content": document_content})
    if title_content is not None:
        steps.append({"operation": "rename", "title_content": title_content})
    if not steps:
        raise _bad("nothing to change: pass changes, or document_content (with an operation) and/or title_content")
    return steps


@operation("files.info")
def files_info(self, file: CanvasId) -> dict[str, Any]:
    """A canvas (Slack's files hold canvases), with its markdown in `content`."""
    canvas = _canvas(self, file, code="file_not_found")
    return {
        "file": shapes.canvas_file(canvas, self.workspace.domain, self.workspace.id),
        "content": canvas.markdown,
        "comments": [],
        "response_metadata": {"next_cursor": ""},
    }
