"""One engine for many databases: a pool that keeps one connection per env database and
hands out the one of the env being served.

Sharing one engine across every env shares SQLAlchemy's dialect and compiled-statement
cache (keyed by dialect instance), so the first operation in a new env costs ~1.9 ms
instead of ~10 ms with an engine per env. The pool keeps at most `max_open` connections and
only ever closes one nobody holds (closing a connection another thread was using was the
crash under load). `serving(handle)` says which env the next checkout is for.
"""

from __future__ import annotations

import contextvars
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.pool import Pool
from sqlalchemy.pool.base import _ConnectionRecord  # the pool API's connection entry

SERVING: contextvars.ContextVar[str] = contextvars.ContextVar("officegym_serving_env")


@contextmanager
def serving(handle: str) -> Iterator[None]:
    token = SERVING.set(handle)
    try:
        yield
    finally:
        SERVING.reset(token)


class RoutingPool(Pool):
    """One connection per env database; `SERVING` says which env a checkout is for.

    Checkouts of one env never overlap: the env store runs one session per env at a time
    (its per-env lock), so a record is never shared by two threads at once.
    """

    def __init__(self, creator: Callable[[], Any], max_open: int = 64, **kw: Any) -> None:
        super().__init__(creator, **kw)
        self.max_open = max_open
        self._records: OrderedDict[str, _ConnectionRecord] = OrderedDict()
        self._owners: dict[int, str] = {}  # id(record) → its env, to know what a return frees
        self._users: dict[str, int] = {}
        self._closing: list[_ConnectionRecord] = []  # evicted while in use: closed on return
        self._lock = threading.Lock()

    def _do_get(self) -> _ConnectionRecord:
        handle = SERVING.get()
        with self._lock:
            record = self._records.get(handle)
            if record is not None and record._is_hard_or_soft_invalidated():
                self._owners.pop(id(self._records.pop(handle)), None)
                record = None
            if record is not None:
                self._records.move_to_end(handle)
            self._users[handle] = self._users.get(handle, 0) + 1
        if record is None:
            try:
                record = _ConnectionRecord(self)  # connects: calls the creator for `handle`
            except BaseException:
                self._release(handle)
                raise
            with self._lock:
                self._records[handle] = record
                self._owners[id(record)] = handle
                victims = self._victims()
            for victim in victims:
                victim.close()
        return record

    def _do_return_conn(self, record: Any) -> None:
        with self._lock:
            handle = self._owners.get(id(record))
        if handle is not None:
            self._release(handle)
            with self._lock:
                close = record in self._closing and handle not in self._users
                if close:
                    self._closing.remove(record)
                    self._owners.pop(id(record), None)
            if close:
                record.close()

    def _release(self, handle: str) -> None:
        with self._lock:
            left = self._users.get(handle, 1) - 1
            if left > 0:
                self._users[handle] = left
            else:
                self._users.pop(handle, None)

    def _victims(self) -> list[_ConnectionRecord]:
        """Least recently used connections nobody holds, beyond `max_open` (lock held)."""
        victims = []
        for handle in list(self._records):
            if len(self._records) <= self.max_open:
                break
            if handle not in self._users:
                victim = self._records.pop(handle)
                self._owners.pop(id(victim), None)
                victims.append(victim)
        return victims

    def evict(self, handle: str) -> None:
        """Close an env's connection now, or when its user gives it back: never under it."""
        with self._lock:
            record = self._records.pop(handle, None)
            if record is not None and handle in self._users:
                self._closing.append(record)
                record = None
            elif record is not None:
                self._owners.pop(id(record), None)
        if record is not None:
            record.close()

    def take(self, handle: str) -> _ConnectionRecord | None:
        """Remove an env's open connection from the pool and hand it to the caller, who closes
        it (`record.close()`); None when it has none, or someone holds it."""
        with self._lock:
            record = self._records.get(handle)
            if record is None or handle in self._users:
                return None
            del self._records[handle]
            self._owners.pop(id(record), None)
        return record

    def put(self, handle: str, record: _ConnectionRecord) -> None:
        """Give the pool an open connection (one `take` handed out) under a handle, idle."""
        with self._lock:
            self._records[handle] = record
            self._owners[id(record)] = handle
            victims = self._victims()
        for victim in victims:
            victim.close()

    def open_count(self) -> int:
        return len(self._records)

    def dispose(self) -> None:
        with self._lock:
            records, self._records = list(self._records.values()), OrderedDict()
            self._owners.clear()
        for record in records:
            record.close()

    def recreate(self) -> RoutingPool:
        return RoutingPool(self._creator, max_open=self.max_open, dialect=self._dialect, _dispatch=self.dispatch)

    def status(self) -> str:
        return f"RoutingPool({len(self._records)} open)"
