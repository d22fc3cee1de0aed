"""Running one operation in one env: a transaction, and an entry in the env's event log.

Every face calls through `perform`, so REST, MCP and UI share one definition of "one
operation = one transaction" and one trajectory format. A failed operation rolls back fully
and is then logged on its own, so the trajectory shows the agent's mistakes too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from officegym.core import events
from officegym.core.env_store import Env, EnvStore
from officegym.core.errors import AppError

T = TypeVar("T")


def perform(
    store: EnvStore,
    env: Env,
    operation: Callable[[Session], T],
    *,
    source: str,
    app: str,
    action: str,
    args: dict[str, Any],
    log: bool = True,
) -> T:
    """Run `operation` in one transaction; log it (with its result or its error) if `log`."""
    try:
        with store.session(env) as db:
            result = operation(db)
            if log:
                events.record(db, source=source, app=app, action=action, args=args, result=result)
            return result
    except AppError as error:
        if log:
            with store.session(env) as db:
                events.record(
                    db, source=source, app=app, action=action, args=args,
                    result={"error": error.code, "message": error.message}, is_error=True,
                )
        raise
