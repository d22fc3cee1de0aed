"""The simulated clock of an env.

Each env starts at its company's "now" and moves only when something happens in it: every
write advances it by a small, deterministic step. So the same sequence of calls gives the
same timestamps (and the same Slack `ts`, Jira `created`, ...), whatever the wall clock says.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from officegym.core.db import get_meta, get_metas, set_meta, set_metas, set_two_metas

_CLOCK_KEY = "clock_us"
_TICKS_KEY = "clock_ticks"
_TICK_KEYS = (_CLOCK_KEY, _TICKS_KEY)
_LATEST = 253_370_764_800_000_000  # 9999-01-01T00:00:00Z: datetime's range, with room for ticks


def to_micros(moment: datetime) -> int:
    delta = moment.astimezone(UTC) - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(micros: int) -> datetime:
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=micros)


def start_clock(session: Session, moment: datetime) -> None:
    set_meta(session, _CLOCK_KEY, str(to_micros(moment)))
    set_meta(session, _TICKS_KEY, "0")


def now_micros(session: Session) -> int:
    value = get_meta(session, _CLOCK_KEY)
    if value is None:
        raise RuntimeError("env clock was never started (template built without start_clock)")
    return int(value)


def now(session: Session) -> datetime:
    return from_micros(now_micros(session))


def tick(session: Session, also: dict[str, str] | None = None) -> int:
    """Advance the clock for one write and return the new time in microseconds; `also`: more
    meta values to set in the same statement (an app's id counter that moves with each save).

    The step looks like a person's pace (a few seconds, odd microseconds, so Slack-style
    `ts` values are distinct and ordered) but depends only on how many ticks came before.
    """
    values = get_metas(session, _TICK_KEYS)
    if values[_CLOCK_KEY] is None:
        raise RuntimeError("env clock was never started (template built without start_clock)")
    ticks = int(values[_TICKS_KEY] or 0) + 1
    step = 2_000_000 + (ticks * 7_919_011) % 9_000_000  # 2–11 s
    micros = int(values[_CLOCK_KEY]) + step
    if also:
        set_metas(session, {_CLOCK_KEY: str(micros), _TICKS_KEY: str(ticks), **also})
    else:
        set_two_metas(session, _CLOCK_KEY, str(micros), _TICKS_KEY, str(ticks))
    return micros


def advance(session: Session, *, seconds: float | None = None, to: datetime | None = None) -> tuple[int, int]:
    """Move the clock forward by `seconds`, or to the moment `to`, as time passing in the
    company does (the control plane's clock call); returns (before, after) in microseconds.

    It never moves back: timestamps already handed out (Slack `ts`, event times) stay in the
    past, as they would in the real products. What waits for a time (scheduled messages,
    due dates) sees the new time on the next operation that looks.
    """
    if (seconds is None) == (to is None):
        raise ValueError("give exactly one of seconds and to")
    before = now_micros(session)
    if to is not None:
        after = to_micros(to if to.tzinfo else to.replace(tzinfo=UTC))
    else:
        if seconds < 0:  # type: ignore[operator]
            raise ValueError(f"the env clock only moves forward; advance_seconds must be 0 or more, got {seconds}")
        after = before + round(seconds * 1_000_000)  # type: ignore[operator]
    if after >= _LATEST:
        raise ValueError(f"the env clock cannot go past {from_micros(_LATEST).isoformat()}")
    if after < before:
        raise ValueError(f"the env clock only moves forward: it is at {from_micros(before).isoformat()}, "
                         f"which is after {from_micros(after).isoformat()}")
    set_meta(session, _CLOCK_KEY, str(after))
    return before, after
