"""Formatting for the chat UI: Slack mrkdwn to safe HTML, emoji glyphs, times.

Message text is written by agents: it is always HTML-escaped, and only Slack's own markup
(`<@U…>`, `<#C…|name>`, `<https://…|label>`, *bold*, _italic_, ~strike~, `code`,
```blocks```, > quotes, :emoji:) becomes markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from html import escape
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from markupsafe import Markup

from apps.chat.blocks import render_text

# -- emoji ------------------------------------------------------------------------------
EMOJI: dict[str, str] = {
    "thumbsup": "👍", "+1": "👍", "thumbsdown": "👎", "-1": "👎", "white_check_mark": "✅",
    "heavy_check_mark": "✔️", "eyes": "👀", "tada": "🎉", "raised_hands": "🙌", "pray": "🙏",
    "heart": "❤️", "joy": "😂", "rocket": "🚀", "fire": "🔥", "smile": "😄", "grin": "😁",
    "slightly_smiling_face": "🙂", "wave": "👋", "clap": "👏", "100": "💯", "ok_hand": "👌",
    "thinking_face": "🤔", "warning": "⚠️", "x": "❌", "question": "❓", "exclamation": "❗",
    "muscle": "💪", "star": "⭐", "sparkles": "✨", "bulb": "💡", "memo": "📝", "calendar": "📅",
    "chart_with_upwards_trend": "📈", "moneybag": "💰", "sob": "😭", "sweat_smile": "😅",
    "rotating_light": "🚨", "hourglass": "⌛", "hourglass_flowing_sand": "⏳", "point_up": "☝️",
    "red_circle": "🔴", "large_green_circle": "🟢", "coffee": "☕", "handshake": "🤝",
    "partying_face": "🥳", "slightly_frowning_face": "🙁", "laughing": "😆", "heart_eyes": "😍",
    "sunglasses": "😎", "thank_you": "🙏", "point_right": "👉", "raised_hand": "✋",
    "bug": "🐛", "lock": "🔒", "zap": "⚡", "boom": "💥", "trophy": "🏆", "pushpin": "📌",
    "speech_balloon": "💬", "mag": "🔍", "email": "📧", "phone": "📞", "money_with_wings": "💸",
}
PICKER = ("thumbsup", "white_check_mark", "eyes", "tada", "raised_hands", "pray", "heart", "joy", "rocket", "fire")


def emoji_glyph(name: str) -> str:
    base = name.split("::", 1)[0]
    return EMOJI.get(base, f":{name}:")


# -- mrkdwn ------------------------------------------------------------------------------
_SAFE_SCHEMES = ("http://", "https://", "mailto:")
_TOKEN = re.compile(
    r"```(?P<block>.+?)```"  # code block
    r"|`(?P<code>[^`\n]+)`"  # inline code
    r"|<(?P<ctrl>[^<>\n]*)>"  # Slack control sequence: <@U…>, <#C…|name>, <url|label>, ...
    r"|(?P<url>https?://[^\s<>]*[^\s<>.,;:!?)\]'\"*_~])",  # a bare link
    re.S,
)
_HOLE = re.compile("\ue000(\\d+)\ue001")
_BOLD = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])")
_ITALIC = re.compile(r"(?<![\w_])_(?=\S)([^_\n]*?\S)_(?![\w_])")
_STRIKE = re.compile(r"(?<![\w~])~(?=\S)([^~\n]*?\S)~(?![\w~])")
_SHORTCODE = re.compile(r":([a-z0-9_+\-]+(?:::skin-tone-[2-6])?):")


def _unescape(text: str) -> str:
    """Slack escapes &, < and > in message text as entities; show them as characters."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


@dataclass
class Resolver:
    """How mrkdwn names users and channels, and where channel links go; `link_url` says where
    a link opens (a link to a product this company runs in the env opens there)."""

    user_name: Callable[[str], str]
    channel_name: Callable[[str], str | None]
    channel_url: Callable[[str], str]
    link_url: Callable[[str], str] = lambda href: href


# Google Drive and Sheets links, which the env's sheets app serves (a file's Drive view, a
# spreadsheet and its tab): `local_link` maps them to it.
_DRIVE_FILE = re.compile(r"https://drive\.google\.com/file/d/([A-Za-z0-9_-]+)(?:[/?#].*)?")
_SHEET = re.compile(r"https://docs\.google\.com/spreadsheets/d/([A-Za-z0-9_-]+)(?:/[^?#]*)?(?:\?[^#]*)?(?:#gid=(\d+).*|#.*)?")


def local_link(href: str, sheets_base: str) -> str:
    """`href`, or where the env serves it when it is a Drive file or a Google Sheet."""
    found = _DRIVE_FILE.fullmatch(href)
    if found:
        return f"{sheets_base}/file/d/{found.group(1)}/view"
    found = _SHEET.fullmatch(href)
    if found:
        return f"{sheets_base}/d/{found.group(1)}" + (f"?sheet={found.group(2)}" if found.group(2) else "")
    return href


def render_mrkdwn(text: str, names: Resolver) -> tuple[Markup, str]:
    """(safe HTML, plain text) of a message's mrkdwn. Anything not Slack markup is escaped."""
    text = (text or "").replace("\ue000", "\ufffd").replace("\ue001", "\ufffd")
    holes_html: list[str] = []
    holes_plain: list[str] = []

    def hole(html_part: str, plain: str) -> str:
        holes_html.append(html_part)
        holes_plain.append(plain)
        return f"\ue000{len(holes_html) - 1}\ue001"

    def token(match: re.Match[str]) -> str:
        if match.group("block") is not None:
            body = _unescape(match.group("block")).strip("\n")
            return hole(f'<pre class="code-block">{escape(body)}</pre>', body)
        if match.group("code") is not None:
            body = _unescape(match.group("code"))
            return hole(f"<code>{escape(body)}</code>", body)
        if match.group("url") is not None:
            url = _unescape(match.group("url"))
            return hole(_link(names.link_url(url), url), url)
        return _control(match.group("ctrl"), names, hole)

    skeleton = _TOKEN.sub(token, text)
    plain = _HOLE.sub(lambda m: holes_plain[int(m.group(1))], _unescape(skeleton))

    body = escape(_unescape(skeleton), quote=True)
    body = _SHORTCODE.sub(lambda m: EMOJI.get(m.group(1).split("::")[0], m.group(0)), body)
    body = _BOLD.sub(r"<strong>\1</strong>", body)
    body = _ITALIC.sub(r"<em>\1</em>", body)
    body = _STRIKE.sub(r"<del>\1</del>", body)
    lines, out = body.split("\n"), []
    for i, line in enumerate(lines):
        if line.startswith("&gt; ") or line == "&gt;":
            out.append(f"<blockquote>{line[5:]}</blockquote>")
        else:
            out.append(line + ("<br>" if i < len(lines) - 1 else ""))
    html_text = _HOLE.sub(lambda m: holes_html[int(m.group(1))], "".join(out))
    return Markup(html_text), plain


def _link(href: str, label: str) -> str:
    return f'<a href="{escape(href, quote=True)}" rel="noopener noreferrer nofollow" target="_blank">{escape(label)}</a>'


def _control(inner: str, names: Resolver, hole: Callable[[str, str], str]) -> str:
    target, _, label = inner.partition("|")
    label = _unescape(label)
    if re.fullmatch(r"@[UW][A-Z0-9]+", target):
        name = names.user_name(target[1:])
        return hole(f'<span class="mention">@{escape(name)}</span>', f"@{name}")
    if re.fullmatch(r"#[CGD][A-Z0-9]+", target):
        name = label or names.channel_name(target[1:])
        if name is None:
            return hole('<span class="mention">#private-channel</span>', "#private-channel")
        return hole(f'<a class="mention" href="{escape(names.channel_url(target[1:]), quote=True)}">#{escape(name)}</a>', f"#{name}")
    if target in ("!here", "!channel", "!everyone"):
        word = "@" + target[1:]
        return hole(f'<span class="mention">{word}</span>', word)
    if target.startswith(("!subteam^", "!date^")) and label:
        return hole(f'<span class="mention">{escape(label)}</span>', label)
    href = _unescape(target)
    if href.lower().startswith(_SAFE_SCHEMES) and not any(c.isspace() for c in href):
        shown = label or (href[len("mailto:"):] if href.lower().startswith("mailto:") else href)
        return hole(_link(names.link_url(href), shown), shown)
    literal = "<" + _unescape(inner) + ">"  # not Slack markup: shown as the text it is
    return hole(escape(literal), literal)


def shown_text(message: dict) -> str:
    """What a message shows: Slack draws a message's blocks, its text being only their fallback
    for notifications, so a message with blocks shows their words (as mrkdwn), else its text."""
    return render_text(message.get("blocks")) or message.get("text", "")


# -- times -------------------------------------------------------------------------------
def zone(name: str | None) -> tzinfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def clock_time(moment: datetime) -> str:
    return f"{moment.hour % 12 or 12}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


def day_label(moment: datetime, today: datetime) -> str:
    if moment.date() == today.date():
        return "Today"
    if moment.date() == (today - timedelta(days=1)).date():
        return "Yesterday"
    label = f"{moment:%A}, {moment:%B} {_ordinal(moment.day)}"
    return label if moment.year == today.year else f"{label}, {moment.year}"
