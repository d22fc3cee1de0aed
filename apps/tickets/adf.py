"""Atlassian Document Format: Jira REST v3 carries rich text (descriptions, comments) as ADF
documents; v2 and the MCP tools carry plain text/Markdown. Text is stored; ADF is made on the
way out and read on the way in."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


def to_adf(text: str | None) -> dict[str, Any] | None:
    if text is None or text == "":
        return None
    paragraphs = []
    for block in text.split("\n\n"):
        content: list[dict[str, Any]] = []
        for n, line in enumerate(block.split("\n")):
            if n:
                content.append({"type": "hardBreak"})
            if line:
                content.append({"type": "text", "text": line})
        paragraphs.append({"type": "paragraph", "content": content})
    return {"type": "doc", "version": 1, "content": paragraphs}


def to_text(value: Any) -> str:
    """Plain text of an ADF document (or of text itself)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict):
        return str(value)
    kind = value.get("type")
    if kind == "text":
        return str(value.get("text", ""))
    if kind == "hardBreak":
        return "\n"
    if kind in _INLINE_ATTRS:
        return _inline(kind, value.get("attrs") if isinstance(value.get("attrs"), dict) else {})
    children = [child for child in value.get("content") or [] if isinstance(child, dict)]
    if kind == "doc":
        return "\n\n".join(to_text(child) for child in children)
    if kind in ("bulletList", "orderedList", "table"):
        return "\n".join(to_text(child) for child in children)
    if kind == "tableRow":
        return " | ".join(to_text(child) for child in children)
    inner = "".join(to_text(child) for child in children)
    if kind == "listItem":
        return "- " + inner
    return inner


# Nodes whose words are in their attributes, not in text children: a smart link to an issue
# (what Jira's editor makes of a pasted issue key or URL), a mention, an emoji, a date, a status lozenge.
_INLINE_ATTRS = frozenset(("inlineCard", "blockCard", "embedCard", "mention", "emoji", "date", "status"))


def _inline(kind: str, attrs: dict[str, Any]) -> str:
    if kind in ("inlineCard", "blockCard", "embedCard"):
        data = attrs.get("data")
        return str(attrs.get("url") or (data.get("url") if isinstance(data, dict) else "") or "")
    if kind == "mention":
        text = str(attrs.get("text") or "")
        return text if text.startswith("@") or not text else "@" + text
    if kind == "emoji":
        return str(attrs.get("text") or attrs.get("shortName") or "")
    if kind == "date":
        try:
            return datetime.fromtimestamp(int(str(attrs.get("timestamp"))) / 1000, UTC).date().isoformat()
        except (TypeError, ValueError, OverflowError, OSError):
            return ""
    return str(attrs.get("text") or "")
