"""The Python API: create envs, grade them, read their trajectories.

`Gym` is what the server, the CLI and the benchmark use, and what a researcher can use
directly in-process:

    gym = Gym()
    env = gym.create("chat/reply-in-thread-v1", seed=0)
    async with gym.mcp_client(env.id) as client:
        await client.call_tool("slack_get_channel_history", {"channel_id": "#support"})
    print(gym.grade(env.id)["reward"])
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from apps.chat.models import BOOKKEEPING_TABLES as CHAT_BOOKKEEPING
from graders.diff import diff_databases
from graders.rubric import grade as grade_state
from officegym import settings
from officegym.core import events
from officegym.core.db import CORE_TABLES
from officegym.core.env_store import Env, EnvStore
from officegym.templates import Template, ensure_template
from seed_data.actor import acting_person
from tasks import registry
from tasks.base import SampleContext, TaskFamily, TaskInstance

APPS = ("chat",)
NOT_COMPANY_STATE = CORE_TABLES | CHAT_BOOKKEEPING


class Gym:
    def __init__(self, envs_dir: Path | None = None, cache_dir: Path | None = None, max_open_engines: int = 64) -> None:
        self.cache_dir = cache_dir or settings.cache_dir()
        self.store = EnvStore(envs_dir or settings.envs_dir(), max_open_engines=max_open_engines)
        self._templates: dict[tuple[int, str], Template] = {}

    # -- templates ---------------------------------------------------------------------
    def template(self, seed: int = 0, size: str = "small") -> Template:
        key = (seed, size)
        if key not in self._templates:
            self._templates[key] = ensure_template(self.cache_dir, seed, size)
        return self._templates[key]

    # -- envs --------------------------------------------------------------------------
    def create(self, task: str | None = None, seed: int = 0, size: str = "small") -> Env:
        """A new env: a copy of the company template, plus the task's setup if a task is given."""
        family = registry.get(task) if task else None  # unknown task fails before any copy
        template = self.template(seed, size)
        env = self.store.create(template.path, seed, size)
        if family is None:
            return env
        try:
            instance = self._sample(env, template, family)
        except BaseException:
            self.store.delete(env.id)
            raise
        env.task, env.task_id = instance, family.id
        return env

    def _sample(self, env: Env, template: Template, family: TaskFamily) -> TaskInstance:
        company = template.company
        # The instance depends on (task, seed, size) only: the same triple is the same task.
        rng = random.Random(f"{family.id}|{template.seed}|{template.size}")
        with self.store.session(env) as db:
            instance = family.sample(SampleContext(company=company, actor=acting_person(company), db=db), rng)
            if instance.setup is not None:
                instance.setup(db)
        if instance.setup is not None:
            self.store.snapshot_start(env)
        return instance

    def get(self, env_id: str) -> Env:
        return self.store.get(env_id)

    def delete(self, env_id: str) -> None:
        self.store.delete(env_id)

    def close(self) -> None:
        self.store.close()

    # -- grading and trajectories ------------------------------------------------------
    def grade(self, env_id: str) -> dict[str, Any]:
        env = self.store.get(env_id)
        instance: TaskInstance | None = env.task
        if instance is None:
            raise ValueError(f"env {env_id} was created without a task; there is nothing to grade")
        changes = diff_databases(env.path, env.start_path, exclude=NOT_COMPANY_STATE)
        with self.store.session(env) as db:
            return grade_state(db, instance.checks, changes, instance.expected)

    def events(self, env_id: str, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        env = self.store.get(env_id)
        with self.store.session(env) as db:
            return events.list_events(db, after=after, limit=limit)

    # -- in-process MCP ----------------------------------------------------------------
    @asynccontextmanager
    async def mcp_client(self, env_id: str, app: str = "all") -> AsyncIterator[Any]:
        """An official MCP SDK client connected in-process to one env's tool server."""
        from mcp import Client

        from mcp_servers import build_server
        from mcp_servers._base import IN_PROCESS_ENV

        env = self.store.get(env_id)
        token = IN_PROCESS_ENV.set((self.store, env))
        try:
            async with Client(build_server(app)) as client:
                yield client
        finally:
            IN_PROCESS_ENV.reset(token)
