"""The env store: isolated copies of a company template, one SQLite file each.

Creating an env is a file copy of a cached template (the generator never runs here). An env
id is an unguessable capability: whoever holds it may act in that env, nobody else can find
it. Idle envs cost a few hundred bytes of bookkeeping: engines (one open file and a small
page cache each) are kept only for the most recently used envs and closed on eviction.
"""

from __future__ import annotations

import re
import secrets
import shutil
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.core.db import open_engine, transaction
from officegym.core.errors import EnvNotFound

_ENV_ID = re.compile(r"^[0-9a-f]{32}$")


@dataclass(eq=False, slots=True)
class Env:
    id: str
    seed: int
    size: str
    path: Path  # this env's live database
    start_path: Path  # its state at the start of the rollout (the template, or a post-setup copy)
    task_id: str | None = None  # the task family, if the env was created for one
    variant: int = 0  # which of the family's instances on this company
    toolset: str | None = None  # the MCP toolset agents get (None: each app's default)
    task: Any = None  # the sampled task instance; lives only in server memory, never in the db


class EnvStore:
    def __init__(self, root: Path, max_open_engines: int = 64) -> None:
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.max_open_engines = max_open_engines
        self._envs: dict[str, Env] = {}
        self._engines: OrderedDict[str, Engine] = OrderedDict()
        self._lock = threading.Lock()

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, template: Path, seed: int, size: str) -> Env:
        env_id = secrets.token_hex(16)
        path = self.root / f"{env_id}.db"
        shutil.copyfile(template, path)
        env = Env(id=env_id, seed=seed, size=size, path=path, start_path=template)
        with self._lock:
            self._envs[env_id] = env
        return env

    def snapshot_start(self, env: Env) -> None:
        """Freeze the env's current state as its start state (after a task's setup)."""
        self._close_engine(env.id)
        start = self.root / f"{env.id}.start.db"
        shutil.copyfile(env.path, start)
        env.start_path = start

    def get(self, env_id: str) -> Env:
        env = self._envs.get(env_id) if _ENV_ID.match(env_id or "") else None
        if env is None:
            raise EnvNotFound(env_id)
        return env

    def delete(self, env_id: str) -> None:
        env = self.get(env_id)
        with self._lock:
            self._envs.pop(env_id, None)
        self._close_engine(env_id)
        env.path.unlink(missing_ok=True)
        if env.start_path.parent == self.root:
            env.start_path.unlink(missing_ok=True)

    def list(self) -> list[Env]:
        return list(self._envs.values())

    def close(self) -> None:
        for env_id in list(self._envs):
            self.delete(env_id)

    # -- database access ---------------------------------------------------------------
    def engine(self, env: Env) -> Engine:
        with self._lock:
            engine = self._engines.get(env.id)
            if engine is not None:
                self._engines.move_to_end(env.id)
                return engine
            engine = open_engine(env.path)
            self._engines[env.id] = engine
            evicted = []
            while len(self._engines) > self.max_open_engines:
                evicted.append(self._engines.popitem(last=False)[1])
        for old in evicted:
            old.dispose()
        return engine

    @contextmanager
    def session(self, env: Env) -> Iterator[Session]:
        """One transaction on the env's database (commit on success, rollback on error)."""
        with transaction(self.engine(env)) as session:
            yield session

    def open_engines(self) -> int:
        return len(self._engines)

    def _close_engine(self, env_id: str) -> None:
        with self._lock:
            engine = self._engines.pop(env_id, None)
        if engine is not None:
            engine.dispose()
