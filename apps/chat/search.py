"""search.messages: Slack's search syntax over the messages the actor can see.

Supported, as in Slack: plain words (all must match, case-insensitive), "quoted phrases",
-excluded words, `in:#channel` / `in:<#C…>` / `in:@user` (your DM with them), `from:@handle` /
`from:<@U…>` / `from:me`, `before:`/`after:`/`on:` a YYYY-MM-DD date (UTC), `during:` a
YYYY-MM or YYYY-MM-DD, `has:reaction`, `has:pin`, `is:thread`.
"""

from __future__ import annotations

import calendar
import json
import math
import re
import shlex
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, or_, select

from apps.chat import attachments as legacy_attachments
from apps.chat.errors import ChatError
from apps.chat.ids import permalink, ts_from_micros
from apps.chat.models import Channel, Message, Pin, Reaction, User

if TYPE_CHECKING:
    from apps.chat.service import ChatService

_MENTION = re.compile(r"^<[@#]([A-Z0-9]+)(\|[^>]*)?>$")


_EPOCH_DAY = date(1970, 1, 1).toordinal()
_DAY_MICROS = 86_400 * 1_000_000
_LAST_TS_MICROS = 10**16 - 1  # "9999999999.999999": a ts has 10 digits of seconds
# Each word is one LIKE over every visible message, and the SQL expression nests once per
# word (SQLite refuses depth 1000): no real search needs more.
MAX_TERMS = 64


def _day_ts(day: date, plus_days: int = 0) -> str:
    """The ts at midnight UTC starting `day` (+ `plus_days`), clamped to the range a ts can
    express. Day arithmetic on ordinals, not dates: `after:9999-12-31` asks for the day
    after date.max, which is a fine question with an empty answer, not an overflow."""
    micros = (day.toordinal() + plus_days - _EPOCH_DAY) * _DAY_MICROS
    return ts_from_micros(min(max(micros, 0), _LAST_TS_MICROS))


def _parse_day(value: str, modifier: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ChatError("invalid_query", f"{modifier}: takes a date like 2026-03-31; got {value!r}") from None


def _tokens(query: str) -> list[str]:
    try:
        return shlex.split(query)
    except ValueError:  # an unbalanced quote: fall back to plain words, as Slack does
        return query.replace('"', " ").split()


def run_search(
    service: ChatService, query: str, visible: list[str], per_page: int, page: int, sort: str, sort_dir: str
) -> dict[str, Any]:
    db = service.db
    # Plain rows, not ORM objects: a common word matches hundreds of messages, all of them
    # scored and sorted here before one page is shaped (objects cost ~5x more to load).
    stmt = select(*Message.__table__.c).where(Message.channel_id.in_(visible), Message.subtype.is_distinct_from("tombstone"))
    terms: list[str] = []
    excluded: list[str] = []
    if "\x00" in query:  # the UI's search box reaches here without the operation's parser
        raise ChatError("invalid_query", "query contains a NUL character")
    tokens = [t for t in _tokens(query) if t.strip()]
    if not tokens:
        raise ChatError("no_query", "query has no words or modifiers to search for")
    if len(tokens) > MAX_TERMS:
        raise ChatError("invalid_query", f"query has {len(tokens)} words and modifiers; at most {MAX_TERMS} are accepted")
    for token in tokens:
        key, sep, value = token.partition(":")
        key = key.lower()
        if sep and key == "in" and value:
            ref = _MENTION.match(value)
            target = ref.group(1) if ref else value
            stmt = stmt.where(Message.channel_id == service.channel(target).id)
        elif sep and key == "from" and value:
            ref = _MENTION.match(value)
            who = service.actor_id if value == "me" else service.user(ref.group(1) if ref else value).id
            stmt = stmt.where(Message.user_id == who)
        elif sep and key in ("before", "after", "on"):
            day = _parse_day(value, key)
            if key == "before":
                stmt = stmt.where(Message.ts < _day_ts(day))
            elif key == "after":
                stmt = stmt.where(Message.ts >= _day_ts(day, 1))
            else:
                stmt = stmt.where(Message.ts >= _day_ts(day), Message.ts < _day_ts(day, 1))
        elif sep and key == "during":
            if re.fullmatch(r"\d{4}-\d{2}", value):
                start = _parse_day(value + "-01", key)
                length = calendar.monthrange(start.year, start.month)[1]
            else:
                start, length = _parse_day(value, key), 1
            stmt = stmt.where(Message.ts >= _day_ts(start), Message.ts < _day_ts(start, length))
        elif sep and key == "has" and value in ("reaction", "pin"):
            table = Reaction if value == "reaction" else Pin
            stmt = stmt.where(
                select(table.ts).where(table.channel_id == Message.channel_id, table.ts == Message.ts).exists()
            )
        elif sep and key == "is" and value == "thread":
            stmt = stmt.where(Message.thread_ts.is_not(None))
        elif token.startswith("-") and len(token) > 1:
            excluded.append(token[1:].lower())
            stmt = stmt.where(func.lower(Message.text).not_like(f"%{_escape(token[1:].lower())}%", escape="\\"))
        else:
            terms.append(token.lower())
            # A message's legacy attachments are searched too, as Slack's index holds them
            # (their text, pretext, title, fields, footer and fallback): such a message is
            # kept here and its words matched below.
            stmt = stmt.where(or_(func.lower(Message.text).like(f"%{_escape(token.lower())}%", escape="\\"),
                                  Message.attachments.is_not(None)))
    found = list(db.connection().execute(stmt))
    words = {(m.channel_id, m.ts): (m.text + "\n" + legacy_attachments.search_text(m.attachments)).lower() for m in found if m.attachments}
    if words:
        found = [m for m in found if (m.channel_id, m.ts) not in words
                 or (all(t in words[m.channel_id, m.ts] for t in terms) and not any(x in words[m.channel_id, m.ts] for x in excluded))]
    if sort == "score":
        found.sort(key=lambda m: (sum(words.get((m.channel_id, m.ts), m.text.lower()).count(t) for t in terms), m.ts), reverse=sort_dir == "desc")
    else:
        found.sort(key=lambda m: m.ts, reverse=sort_dir == "desc")
    total = len(found)
    pages = max(1, math.ceil(total / per_page))
    window = found[(page - 1) * per_page : page * per_page]
    channels = {c.id: c for c in db.scalars(select(Channel).where(Channel.id.in_({m.channel_id for m in window})))}
    users = {u.id: u for u in db.scalars(select(User).where(User.id.in_({m.user_id for m in window})))}
    domain = service.workspace.domain
    matches = [
        {
            "type": "message",
            "ts": m.ts,
            "text": m.text,
            "user": m.user_id,
            "username": users[m.user_id].name if m.user_id in users else m.user_id,
            "channel": {
                "id": m.channel_id,
                "name": channels[m.channel_id].name,
                "is_private": channels[m.channel_id].is_private,
                "is_im": channels[m.channel_id].is_im,
            },
            "thread_ts": m.thread_ts,
            "permalink": permalink(domain, m.channel_id, m.ts, m.thread_ts),
            **({"blocks": json.loads(m.blocks)} if m.blocks else {}),  # as Slack's matches carry them
            **({"attachments": json.loads(m.attachments)} if m.attachments else {}),
        }
        for m in window
    ]
    return {
        "query": query,
        "messages": {
            "total": total,
            "matches": matches,
            "paging": {"count": per_page, "total": total, "page": page, "pages": pages},
            "pagination": {
                "total_count": total, "page": page, "per_page": per_page, "page_count": pages,
                "first": (page - 1) * per_page + 1 if window else 0, "last": (page - 1) * per_page + len(window),
            },
        },
    }


def _escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
