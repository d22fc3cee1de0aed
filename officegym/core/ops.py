"""Running one operation in one env: parse, one transaction, one entry in the event log.

Every face calls `invoke`, so MCP, REST and UI share one parser (the operation's declared
arguments), one definition of "one operation = one transaction" and one trajectory format.
A failed operation rolls back fully and is then logged on its own, so the trajectory shows
the agent's mistakes too, bad arguments included.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from officegym import settings
from officegym.core import events
from officegym.core.env_store import Env, EnvStore
from officegym.core.errors import STORAGE_LIMIT, AppError, storage_full
from officegym.core.operations import Operation, OperationSet

FACES = ("mcp", "rest", "ui")


def invoke(
    store: EnvStore,
    env: Env,
    ops: OperationSet,
    op: Operation,
    raw: Mapping[str, Any],
    *,
    face: str,
    tool: str,
    log_reads: bool = False,
    sent: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Run `op` with raw arguments; returns its body or raises the app's `AppError`.

    Writes are always logged; reads only when `log_reads` (every MCP call is part of the
    trajectory, while a UI page view is not an action). The log shows `sent`, the arguments
    as the caller spelled them (a tool's own names), when the face passes them.
    """
    log = op.writes or log_reads
    if face == "ui":
        raw = _typed_line_breaks(raw)
    shown = dict(sent) if sent is not None else None
    try:
        args = op.parse(raw)
        # A read's row is written with the env's next write (or next look at its log), not
        # in its own transaction: see `EnvStore.log_later`.
        with store.session(env, reading=not op.writes) as db:
            body = getattr(ops.service(db), op.method)(**args)
            if log:
                row = events.entry(db, face=face, app=ops.app, operation=op.name, tool=tool, args=shown if shown is not None else _given(args, raw), result=body)
                if op.writes:
                    events.write(db, row)
                else:
                    store.log_later(env, row)
            return body
    except AppError as error:
        if log:
            log_failure(store, env, face=face, app=ops.app, operation=op.name, tool=tool, args=shown if shown is not None else dict(raw), error=error)
        raise
    except Exception as error:
        # The env is full: the product's error, the change rolled back (and not logged: the
        # log is in the same full database).
        if storage_full(error):
            bound = settings.env_max_bytes()
            limit = f" ({bound // (1024 * 1024)} MB)" if bound else ""
            raise ops.error(STORAGE_LIMIT, f"this env holds as much data as it may{limit}: nothing was changed, and it "
                                           "takes no more writes (reads and grading go on); start a new env") from None
        raise


def log_failure(store: EnvStore, env: Env, *, face: str, app: str, operation: str, tool: str, args: dict[str, Any], error: AppError) -> None:
    with store.session(env) as db:
        events.record(
            db, face=face, app=app, operation=operation, tool=tool, args=args,
            result={"error": error.code, "message": error.message}, is_error=True,
        )


def _typed_line_breaks(value: Any) -> Any:
    """A form's text with its line breaks as typed: browsers send a textarea's line breaks as
    CR LF (HTML form submission), and every app keeps LF, so an unchanged multi-line field
    posted back by an edit form would otherwise read as changed (and a grader would count it)."""
    if isinstance(value, str):
        return value.replace("\r\n", "\n") if "\r" in value else value
    if isinstance(value, Mapping):
        return {k: _typed_line_breaks(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed_line_breaks(v) for v in value]
    return value


def _given(args: dict[str, Any], raw: Mapping[str, Any]) -> dict[str, Any]:
    """The parsed arguments the caller actually gave (defaults left out keep the log short)."""
    return {name: value for name, value in args.items() if name in raw and raw[name] not in (None, "")}
