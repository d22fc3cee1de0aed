"""Turning what someone posted into plain words a grader can compare.

Slack stores a message as mrkdwn (`<@U123|priya>`, `<#C1|deals>`, `<mailto:a@b.com|a@b.com>`,
`&amp;`) and, when it was posted with blocks, as a block tree as well, and with legacy
attachments, as those (their pretext, title, text and fields say things too). `render`
flattens what the message shows into one plain string (mentions kept as `<@U…>` so they can be read as people), and `words`
splits it into lowercase tokens with `&` read as "and", so "Cruz, Hunter & Bell" and
"cruz hunter and bell" are the same words. `Lexicon` finds whole multi-word names in those
words, longest first, so "Cole Group" is never found inside "Cole Grouping" or inside a longer
name that is itself a known entity.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

_LINK = re.compile(r"<([^<>|]+)(?:\|([^<>]*))?>")
_WORD = re.compile(r"[a-z0-9]+")
URL = re.compile(r"\bhttps?://[^\s<>]+", re.IGNORECASE)
EMAIL = re.compile(r"(?<![\w.+-])([a-z0-9][a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})(?![\w-])", re.IGNORECASE)
MENTION = re.compile(r"<@([UW][A-Z0-9]+)>")
CHANNEL_REF = re.compile(r"(?<![\w&])#[a-z0-9][a-z0-9_-]*|<#[A-Z0-9]+>", re.IGNORECASE)


def _link(match: re.Match[str]) -> str:
    target, label = match.group(1), match.group(2)
    if target.startswith("@"):  # a user: keep the id, drop the label (it is only how it looks)
        return f"<{target}>"
    if target.startswith("#"):  # a channel: read as its name
        return f"#{label}" if label else target
    if target.startswith("!"):  # <!here>, <!channel>, <!subteam^S1|@team>
        return label or f"@{target[1:]}"
    if target.startswith("mailto:"):
        return target[len("mailto:"):]
    return f"{label} {target}" if label and label != target else target


def render(text: str | None, blocks: Any = None, attachments: Any = None, everything: bool = False) -> str:
    """Plain text of a message as Slack shows it: mrkdwn links resolved, entities decoded, its
    blocks (or its text, when it has no blocks with words: with blocks, the text is only their
    notification fallback) and then its attachments (an answer given in an attachment is said as
    surely as one in the text). With `everything`, what notifications show too: the text beside
    blocks and every attachment's fallback (what the recipient may read somewhere)."""
    tree = _blocks(blocks)
    drawn = " ".join(_block_text(tree)).strip() if tree else ""
    parts = [text or "", drawn] if everything else [drawn or text or ""]
    parts += _attachment_text(_blocks(attachments), everything)
    joined = "\n".join(p for p in parts if p)
    return html.unescape(_LINK.sub(_link, joined))


def _blocks(blocks: Any) -> Any:
    if isinstance(blocks, str | bytes):
        try:
            return json.loads(blocks)
        except ValueError:
            return None
    return blocks


_ATTACHMENT_PARTS = ("pretext", "author_name", "title", "text", "footer")


def _attachment_text(attachments: Any, everything: bool = False) -> list[str]:
    """The text legacy attachments show under a message: pretext, author, title, text, footer,
    each field's title and value, and the blocks inside them. The fallback is what notifications
    show instead: the message shows it only for an attachment with nothing else to show."""
    found: list[str] = []
    for attachment in attachments if isinstance(attachments, list) else ():
        if not isinstance(attachment, dict):
            continue
        shown = [attachment[k] for k in _ATTACHMENT_PARTS if isinstance(attachment.get(k), str) and attachment[k].strip()]
        for field in attachment.get("fields") if isinstance(attachment.get("fields"), list) else ():
            if isinstance(field, dict):
                shown += [field[k] for k in ("title", "value") if isinstance(field.get(k), str) and field[k].strip()]
        if attachment.get("blocks"):
            shown += [w for w in (" ".join(_block_text(_blocks(attachment["blocks"]))).strip(),) if w]
        fallback = attachment.get("fallback")
        fallback = [fallback] if isinstance(fallback, str) and fallback.strip() else []
        found += shown + fallback if everything else shown or fallback
    return found


def _block_text(node: Any) -> Iterable[str]:
    """Every piece of text in a Block Kit tree, rich-text elements included."""
    if isinstance(node, list):
        for item in node:
            yield from _block_text(item)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if kind == "user" and node.get("user_id"):
        yield f"<@{node['user_id']}>"
    elif kind == "channel" and node.get("channel_id"):
        yield f"<#{node['channel_id']}>"
    elif kind == "emoji" and node.get("name"):
        yield f":{node['name']}:"
    elif kind == "link":
        yield " ".join(x for x in (node.get("text"), node.get("url")) if x)
    elif isinstance(node.get("text"), str):
        yield node["text"]
    for key, value in node.items():
        if key != "text" and isinstance(value, list | dict):
            yield from _block_text(value)
        elif key == "text" and isinstance(value, dict):
            yield from _block_text(value)


def strip_addresses(text: str) -> str:
    """The text without URLs, emails, mentions and #channels: words inside those are not names."""
    return CHANNEL_REF.sub(" ", MENTION.sub(" ", EMAIL.sub(" ", URL.sub(" ", text))))


def words(text: str) -> list[str]:
    """Lowercase word tokens; `&` reads as "and", a possessive 's is dropped."""
    lowered = text.lower().replace("&", " and ")
    lowered = re.sub(r"(\w)['’]s\b", r"\1", lowered)
    return _WORD.findall(lowered)


_CASED_WORD = re.compile(r"[A-Za-z0-9]+")
_NAME_TAILS = frozenset({"llc", "inc", "group", "plc", "ltd", "co", "corp", "and", "sons", "gmbh"})


def short_names(names: Iterable[str], taken: Iterable[str] = ()) -> dict[str, list[str]]:
    """{name: [its short form]}: how people shorten a company's name to its first word ("Brown"
    for "Brown Group", "Hughes" for "Hughes-Moreno", "Spence" for "Spence, Donovan and Rivera").
    A first word that is also a word of `taken` (the people's names) is not a short form: "Morris"
    in a comment may be a colleague."""
    people = {w for name in taken for w in words(name)}
    found = {}
    for name in names:
        tokens = words(name)
        if len(tokens) > 1 and tokens[0] not in _NAME_TAILS and tokens[0] not in people and not tokens[0].isdigit():
            found[name] = [tokens[0]]
    return found


class Lexicon:
    """Whole-word lookup of multi-word names: {entity id: [its names]} → which entities a text names.

    Matching is leftmost-longest over tokens, so of two names where one extends the other,
    a text naming the longer one names only it. A name shared by two entities names both:
    such entities must never be the one a task asks about (see `ambiguous`). `short` gives
    one-word short forms ({entity: [word]}, see `short_names`): one names its entities when
    written capitalised ("Brown", not "brown") and not as part of a longer name; a short form
    several entities share names them all.
    """

    def __init__(self, names: Mapping[str, Iterable[str]], short: Mapping[str, Iterable[str]] | None = None) -> None:
        self._by_first: dict[str, list[tuple[tuple[str, ...], set[str]]]] = {}
        phrases: dict[tuple[str, ...], set[str]] = {}
        for entity, spellings in names.items():
            for spelling in spellings:
                key = tuple(words(spelling))
                if key:
                    phrases.setdefault(key, set()).add(entity)
        for phrase, owners in phrases.items():
            self._by_first.setdefault(phrase[0], []).append((phrase, owners))
        for options in self._by_first.values():
            options.sort(key=lambda item: -len(item[0]))
        self.ambiguous = frozenset(e for owners in phrases.values() if len(owners) > 1 for e in owners)
        self._short: dict[str, set[str]] = {}
        self._next: dict[str, set[str]] = {}  # a short form → the words that follow it in its full names
        for entity, forms in (short or {}).items():
            for form in forms:
                self._short.setdefault(form.lower(), set()).add(entity)
                self._next.setdefault(form.lower(), set()).update(
                    p[1] for p, owners in phrases.items() if entity in owners and len(p) > 1 and p[0] == form.lower())

    def find(self, text: str) -> set[str]:
        plain = strip_addresses(text).replace("&", " and ")
        cased = _CASED_WORD.findall(re.sub(r"(\w)['’]s\b", r"\1", plain))
        tokens = [t.lower() for t in cased]
        found: set[str] = set()
        i = 0
        while i < len(tokens):
            for phrase, owners in self._by_first.get(tokens[i], ()):
                if tuple(tokens[i : i + len(phrase)]) == phrase:
                    found |= owners
                    i += len(phrase)
                    break
            else:
                if tokens[i] in self._short and cased[i][:1].isupper() and not self._runs_on(tokens, i):
                    found |= self._short[tokens[i]]
                i += 1
        return found

    def _runs_on(self, tokens: list[str], i: int) -> bool:
        """Whether the short form at `i` begins its full name run into a longer word ("Figueroa Incish"): a longer word."""
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        return any(after.startswith(word) for word in self._next.get(tokens[i], ()))
