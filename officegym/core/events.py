"""The event log of an env: the rollout's trajectory, stored in the env's own database.

Every MCP tool call and every write through REST or the UI is one row, stamped with the
env clock, so the trajectory is as deterministic and as isolated as the state it describes.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.core import clock
from officegym.core.db import Event

# A result bigger than this is cut in the log (the agent still got all of it): a history
# page can be large, and the log is for reading trajectories, not for replaying them.
MAX_LOGGED_RESULT_CHARS = 20_000


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def record(
    session: Session,
    *,
    source: str,
    app: str,
    action: str,
    args: dict[str, Any],
    result: Any,
    is_error: bool = False,
) -> None:
    result_text = _dump(result)
    if len(result_text) > MAX_LOGGED_RESULT_CHARS:
        result_text = _dump({"truncated": True, "head": result_text[:MAX_LOGGED_RESULT_CHARS]})
    # Plain SQL: an ORM add + flush would cost more than the operation being logged.
    session.connection().exec_driver_sql(
        "INSERT INTO og_events (at, source, app, action, args, result, is_error) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (clock.now(session).isoformat(), source, app, action, _dump(args), result_text, is_error),
    )


def list_events(session: Session, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
    rows = session.scalars(select(Event).where(Event.seq > after).order_by(Event.seq).limit(limit))
    return [row.to_json() for row in rows]
