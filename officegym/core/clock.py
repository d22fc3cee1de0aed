"""The simulated clock of an env.

Each env starts at its company's "now" and moves only when something happens in it: every
write advances it by a small, deterministic step. So the same sequence of calls gives the
same timestamps (and the same Slack `ts`, Jira `created`, ...), whatever the wall clock says.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from officegym.core.db import get_meta, set_meta

_CLOCK_KEY = "clock_us"
_TICKS_KEY = "clock_ticks"


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


def tick(session: Session) -> int:
    """Advance the clock for one write and return the new time in microseconds.

    The step looks like a person's pace (a few seconds, odd microseconds, so Slack-style
    `ts` values are distinct and ordered) but depends only on how many ticks came before.
    """
    ticks = int(get_meta(session, _TICKS_KEY, "0") or 0) + 1
    step = 2_000_000 + (ticks * 7_919_011) % 9_000_000  # 2–11 s
    micros = now_micros(session) + step
    set_meta(session, _CLOCK_KEY, str(micros))
    set_meta(session, _TICKS_KEY, str(ticks))
    return micros
