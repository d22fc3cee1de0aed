"""Atlassian Document Format: Jira REST v3 carries rich text (descriptions, comments) as ADF
documents; v2 and the MCP tools carry plain text/Markdown. Text is stored; ADF is made on the
way out and read on the way in."""

from __future__ import annotations

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
    children = value.get("content") or []
    inner = "".join(to_text(child) for child in children if isinstance(child, dict))
    if kind == "doc":
        return "\n\n".join(to_text(child) for child in children if isinstance(child, dict))
    if kind == "listItem":
        return "- " + inner
    if kind in ("bulletList", "orderedList"):
        return "\n".join(to_text(child) for child in children if isinstance(child, dict))
    return inner
