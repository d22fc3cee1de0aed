"""The browser face of the chat app: a server-rendered, Slack-like UI.

Pages are Jinja2 templates over `ChatService`; writes are HTML form posts answered with a
303 redirect (Post/Redirect/Get), so the UI works with JavaScript off and a small inline
script only adds Enter-to-send and the reaction picker. Every write goes through `invoke`
with `source="ui"` and the Slack method name as the action, so UI writes land in the env's
trajectory exactly as REST and MCP calls do. A service error re-renders the page with an
accessible alert (status 400) and writes nothing.

Message text is rendered by `ui_format` (always escaped; only Slack's own markup becomes HTML).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import jinja2
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from apps.chat.errors import ChatError
from apps.chat.operations import OPERATIONS
from apps.chat.service import ChatService
from apps.chat import attachments as legacy
from apps.chat.ui_format import EMOJI, PICKER, Resolver, clock_time, day_label, emoji_glyph, local_link, render_mrkdwn, shown_text, zone
from officegym.core import clock
from officegym.core.env_store import Env
from officegym.core.ops import invoke
from officegym.core.web import EnvRoute, current_env, env_store

T = TypeVar("T")

router = APIRouter(route_class=EnvRoute)
_jinja = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,  # every {{ value }} is escaped unless it is a Markup we built
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)
templates = Jinja2Templates(env=_jinja)

HISTORY_PAGE = 50
LABEL_CHARS = 160

# -- page building -------------------------------------------------------------------------
def ts_anchor(ts: str, in_thread: bool = False) -> str:
    """A message's element id: Slack's permalink form, `p` + the ts digits (`t` + digits in
    the thread pane, where a thread's parent is shown a second time)."""
    return ("t" if in_thread else "p") + ts.replace(".", "")


def _avatar_hue(user_id: str) -> int:
    return int(hashlib.sha256(user_id.encode()).hexdigest()[:4], 16) % 360


_BAR_COLORS = {"good": "#2eb886", "warning": "#daa038", "danger": "#a30200"}
_HEX_COLOR = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})")


def _bar_color(color: Any) -> str:
    """An attachment's left bar: Slack's named colours, or a hex colour; grey otherwise."""
    if isinstance(color, str) and color in _BAR_COLORS:
        return _BAR_COLORS[color]
    found = _HEX_COLOR.fullmatch(color) if isinstance(color, str) else None
    return f"#{found.group(1)}" if found else "#dddddd"


def _initials(name: str) -> str:
    parts = [p for p in re.split(r"[\s._-]+", name) if p]
    return "".join(p[0] for p in parts[:2]).upper() or "?"


def _shorten(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


class Page:
    """Builds the view models of one page inside one read transaction."""

    def __init__(self, svc: ChatService, base: str) -> None:
        self.svc, self.base = svc, base
        self.me = svc.actor()
        self.tz = zone(self.me.tz)
        self.now = clock.now(svc.db).astimezone(self.tz)
        self._users: dict[str, Any] = {}
        self._channels: dict[str, str | None] = {}
        self.names = Resolver(self.user_name, self.channel_name, self.channel_url, self.link_url)

    # urls
    def channel_url(self, channel_id: str, **query: str) -> str:
        clean = {k: v for k, v in query.items() if v}
        return f"{self.base}/c/{channel_id}" + (f"?{urlencode(clean)}" if clean else "")

    def link_url(self, href: str) -> str:
        """A Drive or Sheets link opens in this env's sheets app, not on the real Google."""
        return local_link(href, self.base.removesuffix("/chat") + "/sheets")

    def thread_url(self, channel_id: str, ts: str) -> str:
        return f"{self.base}/c/{channel_id}/t/{ts}"

    # names
    def user(self, user_id: str) -> Any:
        if user_id not in self._users:
            try:
                self._users[user_id] = self.svc.user(user_id)
            except ChatError:
                self._users[user_id] = None
        return self._users[user_id]

    def user_name(self, user_id: str) -> str:
        if user_id == "USLACKBOT":
            return "Slackbot"
        found = self.user(user_id)
        return (found.real_name or found.name) if found is not None else user_id

    def channel_name(self, channel_id: str) -> str | None:
        if channel_id not in self._channels:
            try:
                self._channels[channel_id] = self.label(self.svc.conversations_info(channel_id)["channel"])
            except ChatError:
                self._channels[channel_id] = None
        return self._channels[channel_id]

    # times
    def moment(self, ts: str) -> datetime:
        return datetime.fromtimestamp(int(ts.split(".")[0]), tz=self.tz)

    def when(self, ts: str) -> dict[str, str]:
        at = self.moment(ts)
        day = day_label(at, self.now)
        time = clock_time(at)
        short = time if day == "Today" else (f"Yesterday {time}" if day == "Yesterday" else f"{at:%b} {at.day}, {time}")
        if at.year != self.now.year and day not in ("Today", "Yesterday"):
            short = f"{at:%b} {at.day}, {at.year}, {time}"
        return {
            "time": time, "day": day, "short": short, "iso": at.isoformat(),
            "full": f"{at:%A}, {at:%B} {at.day}, {at.year} at {time}",
        }

    # conversations
    def label(self, shaped: dict[str, Any]) -> str:
        if shaped.get("is_im"):
            other = shaped.get("user") or self.me.id
            return self.user_name(other) + (" (you)" if other == self.me.id else "")
        if shaped.get("is_mpim"):
            others = [u for u in self.svc.members_of(shaped["id"]) if u != self.me.id]
            return ", ".join(self.user_name(u) for u in others)
        return shaped["name"]

    def sidebar(self, current: str | None = None) -> dict[str, Any]:
        chans = self.svc.users_conversations(types="public_channel,private_channel", exclude_archived=True, limit=1000)["channels"]
        dms = self.svc.users_conversations(types="im,mpim", limit=1000)["channels"]
        channels = sorted(
            ({"id": c["id"], "name": c["name"], "private": c["is_private"], "url": self.channel_url(c["id"]), "current": c["id"] == current} for c in chans),
            key=lambda c: c["name"],
        )
        people = sorted(
            ({"id": c["id"], "name": self.label(c), "url": self.channel_url(c["id"]), "current": c["id"] == current,
              "hue": _avatar_hue(c.get("user") or c["id"])} for c in dms),
            key=lambda c: c["name"].lower(),
        )
        return {
            "workspace": self.svc.workspace.name,
            "me": self.me.real_name or self.me.name,
            "me_handle": self.me.name,
            "channels": channels,
            "dms": people,
        }

    def conversation(self, channel_id: str) -> dict[str, Any]:
        shaped = self.svc.conversations_info(channel_id)["channel"]
        is_dm = shaped["is_im"] or shaped["is_mpim"]
        name = self.label(shaped)
        return {
            "id": shaped["id"],
            "name": name,
            "title": name if is_dm else f"#{name}",
            "is_dm": is_dm,
            "is_im": shaped["is_im"],
            "private": shaped["is_private"] and not is_dm,
            "archived": shaped["is_archived"],
            "member": shaped["is_member"],
            "num_members": shaped["num_members"],
            "topic": (shaped.get("topic") or {}).get("value", ""),
            "purpose": (shaped.get("purpose") or {}).get("value", ""),
            "url": self.channel_url(shaped["id"]),
            "members_url": f"{self.base}/c/{shaped['id']}/members",
            "composer_label": f"Message {name}" if is_dm else f"Message #{name}",
        }

    def message(self, m: dict[str, Any], channel_id: str, highlight: str | None = None) -> dict[str, Any]:
        author_id = m.get("user", "")
        author = self.user(author_id)
        author_name = self.user_name(author_id)
        html_text, plain = render_mrkdwn(shown_text(m), self.names)
        when = self.when(m["ts"])
        reactions = []
        for r in m.get("reactions", []):
            mine = self.me.id in r["users"]
            who = [self.user_name(u) for u in r["users"]]
            who_text = who[0] if len(who) == 1 else (", ".join(who[:-1]) + " and " + who[-1] if len(who) <= 4 else f"{', '.join(who[:3])} and {len(who) - 3} others")
            verb = "Remove your reaction" if mine else "Add reaction"
            reactions.append({
                "name": r["name"], "glyph": emoji_glyph(r["name"]), "count": r["count"], "mine": mine,
                "aria": f"{verb} :{r['name']}: ({r['count']})",
                "title": f"{who_text} reacted with :{r['name']}:",
            })
        thread_ts = m.get("thread_ts")
        is_parent = thread_ts == m["ts"]
        reply_count = m.get("reply_count", 0) if is_parent else 0
        latest = m.get("latest_reply")
        tombstone = m.get("subtype") == "tombstone"
        return {
            "ts": m["ts"],
            "anchor": ts_anchor(m["ts"]),
            "id": m["ts"].replace(".", ""),
            "link": self.channel_url(channel_id, at=m["ts"]) + "#" + ts_anchor(m["ts"]),
            "thread_link": self.thread_url(channel_id, thread_ts or m["ts"]) + "#" + ts_anchor(m["ts"], in_thread=True),
            "author": author_name,
            "author_id": author_id,
            "initials": _initials(author_name),
            "hue": _avatar_hue(author_id),
            "is_bot": bool(author is not None and author.is_bot),
            "is_me": author_id == self.me.id,
            "html": html_text,
            "plain": plain,
            "raw": shown_text(m),
            "attachments": [{"html": render_mrkdwn(legacy.render_text([a]), self.names)[0], "color": _bar_color(a.get("color"))}
                            for a in m.get("attachments") or () if not tombstone],
            "label": f"{author_name}, {when['short']}: {_shorten(plain, LABEL_CHARS)}",
            "when": when,
            "edited": "edited" in m,
            "tombstone": tombstone,
            "broadcast": m.get("subtype") == "thread_broadcast",
            "is_reply": bool(thread_ts and thread_ts != m["ts"]),
            "thread_ts": thread_ts or m["ts"],
            "reply_count": reply_count,
            "reply_label": f"{reply_count} {'reply' if reply_count == 1 else 'replies'}",
            "last_reply": self.when(latest)["short"] if reply_count and latest else "",
            "reply_avatars": [{"initials": _initials(self.user_name(u)), "hue": _avatar_hue(u), "name": self.user_name(u)} for u in m.get("reply_users", [])[:3]] if reply_count else [],
            "thread_url": self.thread_url(channel_id, thread_ts or m["ts"]),
            "reactions": reactions,
            "highlight": highlight == m["ts"],
            "pinned": bool(m.get("pinned_to")),
        }

    def messages(self, items: list[dict[str, Any]], channel_id: str, highlight: str | None = None) -> list[dict[str, Any]]:
        views = [self.message(m, channel_id, highlight) for m in items]
        previous = None
        for view in views:
            view["new_day"] = view["when"]["day"] != previous
            previous = view["when"]["day"]
        return views


# -- plumbing ------------------------------------------------------------------------------
def _base(request: Request, env: Env) -> str:
    return f"{request.scope.get('root_path', '')}/envs/{env.id}/chat"


def _read(request: Request, env: Env, build: Callable[[Page], T]) -> T:
    """Build a page in one read transaction (page views are not actions: never logged)."""
    base = _base(request, env)
    with env_store(request).session(env) as db:
        return build(Page(ChatService(db), base))


def _write(request: Request, env: Env, operation: str, raw: dict[str, Any]) -> dict[str, Any]:
    """Run one chat operation with the form's raw values: the operation parses them, as it
    parses REST and MCP arguments, and the trajectory names the UI route it came through."""
    route = getattr(request.scope.get("route"), "path", request.url.path)
    return invoke(env_store(request), env, OPERATIONS, OPERATIONS[operation], raw, face="ui", tool=f"POST {route}")


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    return templates.TemplateResponse(request, name, {"picker": PICKER, "emoji": EMOJI, **context}, status_code=status)


def _see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _form_text(text: str) -> str:
    """Browsers submit a textarea's newlines as CRLF; Slack text uses LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _error_text(error: ChatError) -> str:
    return f"{error.message} ({error.code})"


_NOT_FOUND_CODES = frozenset({"channel_not_found", "thread_not_found", "message_not_found", "user_not_found"})


def _failed_page(request: Request, env: Env, failure: ChatError, status: int = 200) -> HTMLResponse:
    """The page for a view that cannot be shown: 404 for what does not exist, else 400."""
    if status == 200:
        status = 404 if failure.code in _NOT_FOUND_CODES else 400
    return _not_found(request, env, _error_text(failure), status)


def _not_found(request: Request, env: Env, message: str, status: int = 404) -> HTMLResponse:
    def build(page: Page) -> dict[str, Any]:
        title = "Not found" if status == 404 else "Something went wrong"
        return {"base": page.base, "sidebar": page.sidebar(), "title": title, "message": message}

    return _render(request, "not_found.html", _read(request, env, build), status)


# -- pages -------------------------------------------------------------------------------
@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def home(request: Request, env: Env = Depends(current_env)) -> Response:
    def first(page: Page) -> str | None:
        mine = page.svc.users_conversations(types="public_channel,private_channel", exclude_archived=True, limit=1000)["channels"]
        pick = next((c for c in mine if c["is_general"]), None) or min(mine, key=lambda c: c["name"], default=None)
        if pick is None:
            public = page.svc.conversations_list(exclude_archived=True, limit=1000)["channels"]
            pick = next((c for c in public if c["is_general"]), None) or min(public, key=lambda c: c["name"], default=None)
        return page.channel_url(pick["id"]) if pick else None

    target = _read(request, env, first)
    if target is None:
        return _render(request, "not_found.html", _read(request, env, lambda p: {
            "base": p.base, "sidebar": p.sidebar(), "title": "No channels", "message": "This workspace has no channels yet."}))
    return _see_other(target)


def _channel_page(
    request: Request,
    env: Env,
    channel_id: str,
    *,
    thread_ts: str | None = None,
    cursor: str | None = None,
    at: str | None = None,
    react: str | None = None,
    edit: str | None = None,
    delete: str | None = None,
    error: str | None = None,
    error_in: str = "channel",
    draft: str = "",
    reply_draft: str = "",
    broadcast: bool = False,
    edit_draft: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    def build(page: Page) -> dict[str, Any]:
        conv = page.conversation(channel_id)
        history = page.svc.conversations_history(
            conv["id"], limit=HISTORY_PAGE, cursor=cursor or None, latest=at or None, inclusive=bool(at)
        )
        items = list(reversed(history["messages"]))
        messages = page.messages(items, conv["id"], highlight=at)
        thread = None
        if thread_ts:
            replies = page.svc.conversations_replies(conv["id"], thread_ts, limit=1000)["messages"]
            views = page.messages(replies, conv["id"], highlight=thread_ts if thread_ts != replies[0]["ts"] else None)
            thread = {
                "ts": replies[0]["ts"],
                "parent": views[0],
                "replies": views[1:],
                "url": page.thread_url(conv["id"], replies[0]["ts"]),
                "reply_action": f"{page.base}/c/{conv['id']}/t/{replies[0]['ts']}/replies",
            }
        latest_page = not cursor and not at
        return {
            "base": page.base,
            "sidebar": page.sidebar(conv["id"]),
            "title": conv["title"],
            "conv": conv,
            "messages": messages,
            "older_url": page.channel_url(conv["id"], cursor=history["response_metadata"]["next_cursor"]) if history["has_more"] else None,
            "newest_url": None if latest_page else conv["url"],
            "return_at": "" if latest_page or not items else items[-1]["ts"],
            "view_url": thread["url"] if thread else conv["url"],
            "thread": thread,
            "react": react,
            "edit": edit,
            "delete": delete,
            "edit_draft": edit_draft,
            "message_action": f"{page.base}/c/{conv['id']}/messages",
            "error": error,
            "error_in": error_in,
            "draft": draft,
            "reply_draft": reply_draft,
            "broadcast": broadcast,
            "post_action": f"{page.base}/c/{conv['id']}/messages",
            "react_action": f"{page.base}/c/{conv['id']}/reactions",
            "join_action": f"{page.base}/c/{conv['id']}/join",
        }

    try:
        context = _read(request, env, build)
    except ChatError as failure:
        return _failed_page(request, env, failure, status)
    return _render(request, "channel.html", context, status)


@router.get("/c/{channel_id}", response_class=HTMLResponse)
def channel_view(
    request: Request, channel_id: str, cursor: str = "", at: str = "", react: str = "", edit: str = "", delete: str = "",
    env: Env = Depends(current_env),
) -> HTMLResponse:
    return _channel_page(request, env, channel_id, cursor=cursor, at=at, react=react, edit=edit, delete=delete)


@router.get("/c/{channel_id}/t/{ts}", response_class=HTMLResponse)
def thread_view(
    request: Request, channel_id: str, ts: str, react: str = "", edit: str = "", delete: str = "", env: Env = Depends(current_env)
) -> HTMLResponse:
    return _channel_page(request, env, channel_id, thread_ts=ts, react=react, edit=edit, delete=delete)


# -- message writes ------------------------------------------------------------------------
@router.post("/c/{channel_id}/messages")
def post_message(request: Request, channel_id: str, text: str = Form(""), env: Env = Depends(current_env)) -> Response:
    text = _form_text(text)
    try:
        posted = _write(request, env, "chat.postMessage", {"channel": channel_id, "text": text})
    except ChatError as failure:
        return _channel_page(request, env, channel_id, error=f"Your message was not sent: {_error_text(failure)}", draft=text, status=400)
    return _see_other(f"{_base(request, env)}/c/{posted['channel']}#{ts_anchor(posted['ts'])}")


@router.post("/c/{channel_id}/t/{ts}/replies")
def post_reply(
    request: Request, channel_id: str, ts: str, text: str = Form(""), reply_broadcast: str = Form(""),
    env: Env = Depends(current_env),
) -> Response:
    text = _form_text(text)
    try:
        posted = _write(request, env, "chat.postMessage", {"channel": channel_id, "text": text, "thread_ts": ts, "reply_broadcast": reply_broadcast})
    except ChatError as failure:
        return _channel_page(
            request, env, channel_id, thread_ts=ts, error=f"Your reply was not sent: {_error_text(failure)}",
            error_in="thread", reply_draft=text, broadcast=bool(reply_broadcast), status=400,
        )
    root = posted["message"].get("thread_ts") or ts
    return _see_other(f"{_base(request, env)}/c/{posted['channel']}/t/{root}#{ts_anchor(posted['ts'], in_thread=True)}")


def _back(request: Request, env: Env, channel_id: str, ts: str, thread: str, at: str) -> RedirectResponse:
    base = _base(request, env)
    if thread:
        return _see_other(f"{base}/c/{channel_id}/t/{thread}#{ts_anchor(ts, in_thread=True)}")
    query = f"?{urlencode({'at': at})}" if at else ""
    return _see_other(f"{base}/c/{channel_id}{query}#{ts_anchor(ts)}")


@router.post("/c/{channel_id}/messages/{ts}/edit")
def edit_message(
    request: Request, channel_id: str, ts: str, text: str = Form(""), thread: str = Form(""), at: str = Form(""),
    env: Env = Depends(current_env),
) -> Response:
    text = _form_text(text)
    try:
        # The edit box holds the whole message: what is typed replaces any blocks, as Slack's composer does.
        _write(request, env, "chat.update", {"channel": channel_id, "ts": ts, "text": text, "blocks": "[]"})
    except ChatError as failure:
        return _channel_page(
            request, env, channel_id, thread_ts=thread or None, at=at or None, edit=ts, edit_draft=text,
            error=f"The message was not changed: {_error_text(failure)}", error_in="thread" if thread else "channel", status=400,
        )
    return _back(request, env, channel_id, ts, thread, at)


@router.post("/c/{channel_id}/messages/{ts}/delete")
def delete_message(
    request: Request, channel_id: str, ts: str, thread: str = Form(""), at: str = Form(""), env: Env = Depends(current_env)
) -> Response:
    try:
        _write(request, env, "chat.delete", {"channel": channel_id, "ts": ts})
    except ChatError as failure:
        return _channel_page(
            request, env, channel_id, thread_ts=thread or None, at=at or None,
            error=f"The message was not deleted: {_error_text(failure)}", error_in="thread" if thread else "channel", status=400,
        )
    base = _base(request, env)
    if thread and thread != ts:
        return _see_other(f"{base}/c/{channel_id}/t/{thread}")
    query = f"?{urlencode({'at': at})}" if at else ""
    return _see_other(f"{base}/c/{channel_id}{query}")


@router.post("/c/{channel_id}/reactions")
def react(
    request: Request, channel_id: str, ts: str = Form(""), name: str = Form(""), op: str = Form("add"),
    thread: str = Form(""), at: str = Form(""), env: Env = Depends(current_env),
) -> Response:
    removing = op == "remove"
    action = "reactions.remove" if removing else "reactions.add"
    try:
        _write(request, env, action, {"channel": channel_id, "timestamp": ts, "name": name})
    except ChatError as failure:
        verb = "removed" if removing else "added"
        return _channel_page(
            request, env, channel_id, thread_ts=thread or None, at=at or None, react=None if removing else ts,
            error=f"The reaction was not {verb}: {_error_text(failure)}", error_in="thread" if thread else "channel", status=400,
        )
    if thread:
        return _see_other(f"{_base(request, env)}/c/{channel_id}/t/{thread}")
    return _back(request, env, channel_id, ts, thread, at)


# -- channels: join, leave, members, browse, create ----------------------------------------
@router.post("/c/{channel_id}/join")
def join(request: Request, channel_id: str, env: Env = Depends(current_env)) -> Response:
    try:
        _write(request, env, "conversations.join", {"channel": channel_id})
    except ChatError as failure:
        return _channel_page(request, env, channel_id, error=f"Could not join: {_error_text(failure)}", status=400)
    return _see_other(f"{_base(request, env)}/c/{channel_id}")


@router.post("/c/{channel_id}/leave")
def leave(request: Request, channel_id: str, env: Env = Depends(current_env)) -> Response:
    try:
        _write(request, env, "conversations.leave", {"channel": channel_id})
    except ChatError as failure:
        return _members_page(request, env, channel_id, error=f"Could not leave: {_error_text(failure)}", status=400)
    return _see_other(f"{_base(request, env)}/browse")


def _people(page: Page) -> list[dict[str, Any]]:
    users = page.svc.users_list(limit=1000)["members"]
    return sorted(
        (
            {
                "id": u["id"], "name": u["real_name"] or u["name"], "handle": u["name"], "title": u["profile"].get("title", ""),
                "is_bot": u["is_bot"], "is_me": u["id"] == page.me.id, "initials": _initials(u["real_name"] or u["name"]),
                "hue": _avatar_hue(u["id"]), "status": u["profile"].get("status_text", ""),
                "status_emoji": emoji_glyph(u["profile"]["status_emoji"].strip(":")) if u["profile"].get("status_emoji") else "",
            }
            for u in users if not u["deleted"]
        ),
        key=lambda u: u["name"].lower(),
    )


def _members_page(request: Request, env: Env, channel_id: str, error: str | None = None, status: int = 200) -> HTMLResponse:
    def build(page: Page) -> dict[str, Any]:
        conv = page.conversation(channel_id)
        member_ids = set(page.svc.conversations_members(conv["id"], limit=1000)["members"])
        everyone = _people(page)
        return {
            "base": page.base,
            "sidebar": page.sidebar(conv["id"]),
            "title": f"Members of {conv['title']}",
            "conv": conv,
            "members": [p for p in everyone if p["id"] in member_ids],
            "others": [p for p in everyone if p["id"] not in member_ids and not p["is_bot"]],
            "error": error,
        }

    try:
        context = _read(request, env, build)
    except ChatError as failure:
        return _failed_page(request, env, failure, status)
    return _render(request, "members.html", context, status)


@router.get("/c/{channel_id}/members", response_class=HTMLResponse)
def members(request: Request, channel_id: str, env: Env = Depends(current_env)) -> HTMLResponse:
    return _members_page(request, env, channel_id)


@router.post("/c/{channel_id}/members")
def invite(request: Request, channel_id: str, users: list[str] = Form(default=[]), env: Env = Depends(current_env)) -> Response:
    joined = ",".join(u.strip() for u in users if u.strip())
    try:
        _write(request, env, "conversations.invite", {"channel": channel_id, "users": joined})
    except ChatError as failure:
        return _members_page(request, env, channel_id, error=f"Nobody was added: {_error_text(failure)}", status=400)
    return _see_other(f"{_base(request, env)}/c/{channel_id}/members")


@router.post("/c/{channel_id}/members/remove")
def kick(request: Request, channel_id: str, user: str = Form(""), env: Env = Depends(current_env)) -> Response:
    try:
        _write(request, env, "conversations.kick", {"channel": channel_id, "user": user})
    except ChatError as failure:
        return _members_page(request, env, channel_id, error=f"Could not remove: {_error_text(failure)}", status=400)
    return _see_other(f"{_base(request, env)}/c/{channel_id}/members")


def _browse_page(request: Request, env: Env, error: str | None = None, name: str = "", private: bool = False, status: int = 200) -> HTMLResponse:
    def build(page: Page) -> dict[str, Any]:
        public = page.svc.conversations_list(types="public_channel", exclude_archived=True, limit=1000)["channels"]
        rows = sorted(
            (
                {
                    "id": c["id"], "name": c["name"], "url": page.channel_url(c["id"]), "member": c["is_member"],
                    "num_members": c["num_members"], "topic": c["topic"]["value"], "purpose": c["purpose"]["value"],
                    "join_action": f"{page.base}/c/{c['id']}/join",
                }
                for c in public
            ),
            key=lambda c: c["name"],
        )
        return {
            "base": page.base, "sidebar": page.sidebar(), "title": "Browse channels", "channels": rows,
            "error": error, "name": name, "private": private,
        }

    return _render(request, "browse.html", _read(request, env, build), status)


@router.get("/browse", response_class=HTMLResponse)
def browse(request: Request, env: Env = Depends(current_env)) -> HTMLResponse:
    return _browse_page(request, env)


@router.post("/channels")
def create_channel(request: Request, name: str = Form(""), is_private: str = Form(""), env: Env = Depends(current_env)) -> Response:
    try:
        made = _write(request, env, "conversations.create", {"name": name, "is_private": is_private})
    except ChatError as failure:
        return _browse_page(request, env, error=f"The channel was not created: {_error_text(failure)}", name=name, private=bool(is_private), status=400)
    return _see_other(f"{_base(request, env)}/c/{made['channel']['id']}/members")


# -- people and direct messages --------------------------------------------------------------
def _people_page(request: Request, env: Env, error: str | None = None, status: int = 200) -> HTMLResponse:
    def build(page: Page) -> dict[str, Any]:
        return {"base": page.base, "sidebar": page.sidebar(), "title": "People", "people": _people(page), "error": error}

    return _render(request, "people.html", _read(request, env, build), status)


@router.get("/people", response_class=HTMLResponse)
def people(request: Request, env: Env = Depends(current_env)) -> HTMLResponse:
    return _people_page(request, env)


@router.post("/dm")
def open_dm(request: Request, user: str = Form(""), env: Env = Depends(current_env)) -> Response:
    try:
        opened = _write(request, env, "conversations.open", {"users": user})
    except ChatError as failure:
        return _people_page(request, env, error=f"Could not open a conversation: {_error_text(failure)}", status=400)
    return _see_other(f"{_base(request, env)}/c/{opened['channel']['id']}")


# -- search --------------------------------------------------------------------------------
@router.get("/search", response_class=HTMLResponse)
def search(request: Request, q: str = "", page_no: int = 1, env: Env = Depends(current_env)) -> HTMLResponse:
    def build(page: Page) -> dict[str, Any]:
        context: dict[str, Any] = {"base": page.base, "sidebar": page.sidebar(), "title": f"Search: {q}" if q else "Search",
                                   "query": q, "results": [], "total": 0, "error": None, "pages": 1, "page_no": 1}
        if not q.strip():
            return context
        try:
            found = page.svc.search_messages(q, count=20, page=max(1, min(page_no, 100)), sort="timestamp")
        except ChatError as failure:
            context["error"] = _error_text(failure)
            return context
        results = []
        for m in found["messages"]["matches"]:
            cid = m["channel"]["id"]
            view = page.message({"user": m["user"], "text": m["text"], "ts": m["ts"]}, cid)
            is_reply = bool(m.get("thread_ts") and m["thread_ts"] != m["ts"])
            where = page.channel_name(cid) or m["channel"]["name"]
            is_dm = m["channel"].get("is_im") or m["channel"]["name"].startswith("mpdm-")
            view.update({
                "channel_label": where if is_dm else f"#{where}",
                "channel_url": page.channel_url(cid),
                "is_reply": is_reply,
                "open_url": view["thread_link"] if is_reply else view["link"],
                "open_label": "View reply in thread" if is_reply else "View in channel",
            })
            results.append(view)
        paging = found["messages"]["paging"]
        context.update({"results": results, "total": found["messages"]["total"], "pages": paging["pages"], "page_no": paging["page"]})
        return context

    context = _read(request, env, build)
    return _render(request, "search.html", context, 400 if context["error"] else 200)
