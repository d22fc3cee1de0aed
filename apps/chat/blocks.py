"""Block Kit in messages: reading `blocks` as Slack accepts them, checking them, and the text
Slack shows where blocks cannot be drawn.

`blocks` comes as a JSON array, or as a JSON string of one (Slack's form-encoded API sends it
so). A message keeps both its blocks and its `text`: when the caller gives no text, the text
is rendered from the blocks that carry words (section, header, context, rich_text, markdown),
one block per line, as Slack fills the fallback that notifications, search and screen readers
use. Errors use Slack's codes and name the place with Slack's `[json-pointer:/blocks/…]`.
"""

from __future__ import annotations

import json
from typing import Any

from apps.chat.errors import ChatError
from apps.chat.ids import slack_id
from officegym.core import jsontext

MAX_BLOCKS = 50  # Slack's limit per message
MAX_BLOCKS_CHARS = 100_000  # the whole array as JSON: bounds storage and the work of checking
MAX_DEPTH = 16  # Block Kit's deepest legitimate tree (rich_text > list > section > element) is ~6
MAX_BLOCK_ID_CHARS = 255
# Slack's per-field limits, in characters.
LIMITS = {"section": 3000, "field": 2000, "header": 150, "markdown": 12_000, "context_text": 3000, "alt_text": 2000}
MAX_FIELDS = 10
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTION_ELEMENTS = 25

BLOCK_TYPES = frozenset({
    "actions", "context", "divider", "file", "header", "image", "input", "markdown", "rich_text", "section", "table", "video",
})
TEXT_TYPES = ("plain_text", "mrkdwn")
RICH_TEXT_TYPES = frozenset({"rich_text_section", "rich_text_list", "rich_text_quote", "rich_text_preformatted"})


def _invalid(problem: str, pointer: str) -> ChatError:
    return ChatError("invalid_blocks", f"{problem} [json-pointer:{pointer}]")


# -- reading ----------------------------------------------------------------------------------
def parse(raw: Any) -> list[dict[str, Any]] | None:
    """Checked blocks from an argument: None when not given; [] when given empty (chat.update
    reads that as "remove the blocks"). Raises ChatError with Slack's code naming the problem."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, str):
        raw = _loads(raw)
    if not isinstance(raw, list):
        raise ChatError("invalid_blocks_format", f"blocks must be a JSON array of block objects; got {type(raw).__name__}")
    if len(raw) > MAX_BLOCKS:
        raise _invalid(f"must provide no more than {MAX_BLOCKS} items (got {len(raw)})", "/blocks")
    if _depth(raw) > MAX_DEPTH:
        raise ChatError("invalid_blocks_format", f"blocks are nested deeper than {MAX_DEPTH} levels")
    size = len(dump(raw) or "")
    if size > MAX_BLOCKS_CHARS:
        raise ChatError("msg_blocks_too_long", f"blocks are {size} characters as JSON; at most {MAX_BLOCKS_CHARS} are accepted")
    seen_ids: set[str] = set()
    for index, block in enumerate(raw):
        _check_block(block, f"/blocks/{index}", seen_ids)
    return raw


def _loads(text: str) -> Any:
    if len(text) > MAX_BLOCKS_CHARS:
        raise ChatError("msg_blocks_too_long", f"blocks are {len(text)} characters; at most {MAX_BLOCKS_CHARS} are accepted")
    try:
        return jsontext.loads(text, MAX_DEPTH)
    except jsontext.JsonTextError as error:
        raise ChatError("invalid_blocks_format", f"blocks are {error}; send a JSON array like [{{\"type\": \"section\", ...}}]") from None


def _depth(value: Any) -> int:
    """Nesting of a parsed tree, without recursion (a hostile tree may be deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (list, dict)):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


# -- checking ---------------------------------------------------------------------------------
def _check_block(block: Any, at: str, seen_ids: set[str]) -> None:
    if not isinstance(block, dict):
        raise _invalid("must provide an object", at)
    kind = block.get("type")
    if kind is None:
        raise _invalid("missing required field: type", at)
    if not isinstance(kind, str) or kind not in BLOCK_TYPES:
        raise _invalid(f"unsupported type: {str(kind)[:40]} (accepted: {', '.join(sorted(BLOCK_TYPES))})", f"{at}/type")
    block_id = block.get("block_id")
    if block_id is not None:
        if not isinstance(block_id, str) or not block_id or len(block_id) > MAX_BLOCK_ID_CHARS:
            raise _invalid(f"block_id must be a string of 1 to {MAX_BLOCK_ID_CHARS} characters", f"{at}/block_id")
        if block_id in seen_ids:
            raise _invalid(f"duplicate block_id {block_id[:40]!r}: each block_id must be unique", f"{at}/block_id")
        seen_ids.add(block_id)
    if kind == "section":
        if "text" not in block and "fields" not in block:
            raise _invalid("a section needs text or fields", at)
        if "text" in block:
            _check_text(block["text"], f"{at}/text", LIMITS["section"])
        if "fields" in block:
            fields = _list(block["fields"], f"{at}/fields", MAX_FIELDS)
            for i, item in enumerate(fields):
                _check_text(item, f"{at}/fields/{i}", LIMITS["field"])
        if "accessory" in block:
            _element(block["accessory"], f"{at}/accessory")
    elif kind == "header":
        _check_text(_required(block, "text", at), f"{at}/text", LIMITS["header"], plain_only=True)
    elif kind == "context":
        elements = _list(_required(block, "elements", at), f"{at}/elements", MAX_CONTEXT_ELEMENTS)
        for i, item in enumerate(elements):
            where = f"{at}/elements/{i}"
            if _element(item, where) in TEXT_TYPES:
                _check_text(item, where, LIMITS["context_text"])
    elif kind == "markdown":
        _string(_required(block, "text", at), f"{at}/text", LIMITS["markdown"])
    elif kind == "rich_text":
        for i, item in enumerate(_list(_required(block, "elements", at), f"{at}/elements", None)):
            if _element(item, f"{at}/elements/{i}") not in RICH_TEXT_TYPES:
                raise _invalid(f"unsupported type: {str(item.get('type'))[:40]} (accepted: {', '.join(sorted(RICH_TEXT_TYPES))})", f"{at}/elements/{i}/type")
    elif kind == "image":
        if "image_url" not in block and "slack_file" not in block:
            raise _invalid("an image needs image_url or slack_file", at)
        _string(_required(block, "alt_text", at), f"{at}/alt_text", LIMITS["alt_text"])
    elif kind == "actions":
        for i, item in enumerate(_list(_required(block, "elements", at), f"{at}/elements", MAX_ACTION_ELEMENTS)):
            _element(item, f"{at}/elements/{i}")
    elif kind == "input":
        _check_text(_required(block, "label", at), f"{at}/label", 2000, plain_only=True)
        _element(_required(block, "element", at), f"{at}/element")


def _required(block: dict[str, Any], name: str, at: str) -> Any:
    if name not in block:
        raise _invalid(f"missing required field: {name}", at)
    return block[name]


def _list(value: Any, at: str, most: int | None) -> list[Any]:
    if not isinstance(value, list) or not value:
        raise _invalid("must provide a non-empty array", at)
    if most is not None and len(value) > most:
        raise _invalid(f"must provide no more than {most} items (got {len(value)})", at)
    return value


def _element(value: Any, at: str) -> str:
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise _invalid("must provide an object with a type", at)
    return value["type"]


def _string(value: Any, at: str, most: int) -> str:
    if not isinstance(value, str) or not value:
        raise _invalid("must be a string of more than 0 characters", at)
    if len(value) > most:
        raise _invalid(f"must be less than {most + 1} characters (got {len(value)})", at)
    return value


def _check_text(value: Any, at: str, most: int, plain_only: bool = False) -> None:
    """A text object: {"type": "mrkdwn" | "plain_text", "text": "…"}."""
    accepted = ("plain_text",) if plain_only else TEXT_TYPES
    if not isinstance(value, dict):
        raise _invalid(f"must provide a text object like {{\"type\": \"{accepted[-1]}\", \"text\": \"…\"}}", at)
    if value.get("type") not in accepted:
        raise _invalid(f"text type must be {' or '.join(accepted)}", f"{at}/type")
    _string(value.get("text"), f"{at}/text", most)


# -- storing ----------------------------------------------------------------------------------
def dump(blocks: list[dict[str, Any]] | None) -> str | None:
    """The JSON text stored for blocks (None for none)."""
    if not blocks:
        return None
    return json.dumps(blocks, ensure_ascii=False, separators=(",", ":"))


def load(stored: str | None) -> list[dict[str, Any]] | None:
    return json.loads(stored) if stored else None


def with_block_ids(blocks: list[dict[str, Any]], *seed: object) -> list[dict[str, Any]]:
    """Slack gives every block a block_id; ours are derived from the message, not random."""
    taken = {b["block_id"] for b in blocks if "block_id" in b}
    out = []
    for index, block in enumerate(blocks):
        if "block_id" not in block:
            made = slack_id("", *seed, index, length=5)
            while made in taken:
                made = slack_id("", made, length=5)
            taken.add(made)
            block = {**block, "block_id": made}
        out.append(block)
    return out


# -- the fallback text -----------------------------------------------------------------------
def render_text(blocks: list[dict[str, Any]] | None) -> str:
    """The words of blocks as mrkdwn, one block per line (empty when no block carries words)."""
    lines = (_block_text(block) for block in blocks or ())
    return "\n".join(line for line in lines if line.strip())


def _block_text(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if kind == "section":
        parts = [_text_of(block.get("text"))] + [_text_of(f) for f in block.get("fields") or ()]
        return "\n".join(p for p in parts if p)
    if kind == "header":
        return _text_of(block.get("text"))
    if kind == "context":
        return " ".join(t for t in (_text_of(e) for e in block.get("elements") or ()) if t)
    if kind == "markdown":
        return block.get("text") or ""
    if kind == "rich_text":
        return _rich_elements(block.get("elements") or ())
    return ""  # divider, image, actions, input, file, video, table: nothing to read


def _text_of(value: Any) -> str:
    if isinstance(value, dict) and value.get("type") in TEXT_TYPES and isinstance(value.get("text"), str):
        return value["text"]
    return ""


def _rich_elements(elements: Any) -> str:
    out = ""
    for element in elements:
        if not isinstance(element, dict):
            continue
        piece = _rich_block(element)
        if out and not out.endswith("\n") and element.get("type") != "rich_text_section":
            out += "\n"
        out += piece
    return out.rstrip("\n")


def _rich_block(element: dict[str, Any]) -> str:
    kind = element.get("type")
    if kind == "rich_text_section":
        return _inline(element.get("elements") or ())
    if kind == "rich_text_list":
        indent = "    " * _int(element.get("indent"))
        start = _int(element.get("offset"))
        lines = []
        for i, item in enumerate(element.get("elements") or ()):
            if isinstance(item, dict):
                mark = f"{start + i + 1}." if element.get("style") == "ordered" else "•"
                lines.append(f"{indent}{mark} {_inline(item.get('elements') or ()).rstrip(chr(10))}")
        return "\n".join(lines) + "\n"
    if kind == "rich_text_quote":
        body = _inline(element.get("elements") or ()).rstrip("\n")
        return "\n".join(f"> {line}" for line in body.split("\n")) + "\n"
    if kind == "rich_text_preformatted":
        return "```" + _inline(element.get("elements") or ()) + "```\n"
    return ""


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100 else 0


def _escape(text: str) -> str:
    """Slack keeps &, < and > as entities in message text (they delimit its markup)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_STYLES = (("code", "`"), ("strike", "~"), ("italic", "_"), ("bold", "*"))


def _inline(elements: Any) -> str:
    out = []
    for item in elements:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "text":
            out.append(_styled(_escape(str(item.get("text") or "")), item.get("style")))
        elif kind == "link":
            url, label = str(item.get("url") or ""), item.get("text")
            out.append(_styled(f"<{url}|{_escape(str(label))}>" if label else f"<{url}>", item.get("style")))
        elif kind == "user":
            out.append(f"<@{item.get('user_id', '')}>")
        elif kind == "channel":
            out.append(f"<#{item.get('channel_id', '')}>")
        elif kind == "usergroup":
            out.append(f"<!subteam^{item.get('usergroup_id', '')}>")
        elif kind == "broadcast":
            out.append(f"<!{item.get('range', 'here')}>")
        elif kind == "emoji":
            out.append(f":{item.get('name', '')}:")
        elif kind == "date":
            out.append(_escape(str(item.get("fallback") or item.get("timestamp") or "")))
        elif kind == "color":
            out.append(str(item.get("value") or ""))
    return "".join(out)


def _styled(text: str, style: Any) -> str:
    """mrkdwn marks around the words, leaving surrounding spaces outside (as Slack writes them)."""
    if not isinstance(style, dict) or not text.strip():
        return text
    core = text.strip()
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    for name, mark in _STYLES:
        if style.get(name):
            core = f"{mark}{core}{mark}"
    return f"{lead}{core}{trail}"
