"""The event log of an env: the rollout's trajectory, stored in the env's own database.

Every MCP tool call and every write through REST or the UI is one row naming the face it
came through, the domain operation it ran and the tool, method or handler the face called,
stamped with the env clock, so the trajectory is as deterministic and as isolated as the
state it describes.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.orm import Session

from officegym.core import clock, jsontext
from officegym.core.db import Event
from officegym.core.sql import Prepared

# Bigger results and arguments are cut in the log (the agent still got all of it): a history
# page can be large, a hostile call can send megabytes, and the log is for reading
# trajectories, not for replaying them.
MAX_LOGGED_RESULT_CHARS = 20_000
MAX_LOGGED_ARGS_CHARS = 4_000
MAX_LOGGED_NAME_CHARS = 200  # a tool or route name an agent made up can be any length


def _storable(text: str) -> str:
    """`text` with lone surrogates replaced: a rejected call is logged with the arguments
    the caller sent, and JSON may carry "\\ud800", which has no UTF-8 form (the database
    would refuse the row and turn a clean error into a 500)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def _dump(value: Any, limit: int) -> str:
    text = jsontext.dumps(value, sort_keys=True)
    if len(text) > limit:
        text = jsontext.dumps({"truncated": True, "chars": len(text), "head": text[:limit]})
    return _storable(text)


def _name(value: str) -> str:
    return _storable(value[:MAX_LOGGED_NAME_CHARS].replace("\x00", "\ufffd"))


# Every tool call writes one row: prepared once (core/sql.py), not built per call.
_INSERT = Prepared(insert(Event).values({c: bindparam(c) for c in ("at", "source", "app", "operation", "action", "args", "result", "is_error")}))


def entry(
    session: Session,
    *,
    face: str,
    app: str,
    operation: str,
    tool: str,
    args: dict[str, Any],
    result: Any,
    is_error: bool = False,
) -> dict[str, Any]:
    """One row of the log, stamped with the env clock of `session`'s transaction."""
    return {
        "at": clock.now(session).isoformat(), "source": face, "app": app, "operation": _name(operation), "action": _name(tool),
        "args": _dump(args, MAX_LOGGED_ARGS_CHARS), "result": _dump(result, MAX_LOGGED_RESULT_CHARS), "is_error": is_error,
    }


def record(session: Session, **fields: Any) -> None:
    """Write one row (`entry`'s fields) in `session`'s transaction."""
    write(session, entry(session, **fields))


def write(session: Session, row: dict[str, Any]) -> None:
    """Write a row `entry` made, in `session`'s transaction."""
    _INSERT.run(session, **row)


def write_entries(session: Session, entries: list[dict[str, Any]]) -> None:
    """Write rows made earlier by `entry`, in order (the env store's rows of reads: see
    `EnvStore.log_later`)."""
    _INSERT.run_many(session, entries)


def list_events(session: Session, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
    rows = session.scalars(select(Event).where(Event.seq > after).order_by(Event.seq).limit(limit))
    return [row.to_json() for row in rows]
