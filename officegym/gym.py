"""The Python API: create envs, grade them, read their trajectories.

`Gym` is what the server, the CLI and the benchmark use, and what a researcher can use
directly in-process:

    gym = Gym()
    env = gym.create("chat/reply-in-thread-v1", seed=0, variant=3)
    async with gym.mcp_client(env.id) as client:
        await client.call_tool("slack_get_channel_history", {"channel_id": "#support"})
    print(gym.grade(env.id)["reward"])
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from graders.rubric import grade as grade_state
from officegym import apps, settings
from officegym.core import clock, events
from officegym.core.env_store import Env, EnvStore
from officegym.templates import Template, ensure_template
from seed_data.actor import acting_person
from tasks import registry
from tasks.base import SampleContext, TaskFamily, TaskInstance


class TaskUnavailableError(LookupError):
    """A task family has no instance for this (seed, size, variant); the message says why."""


class Gym:
    def __init__(
        self, envs_dir: Path | None = None, cache_dir: Path | None = None, max_open_engines: int = 64, db_url: str | None = None
    ) -> None:
        self.cache_dir = cache_dir or settings.cache_dir()
        # db_url: None / sqlite → SQLite files under envs_dir; postgresql://… → PostgreSQL.
        self.store = EnvStore(
            envs_dir or settings.envs_dir(), max_open_engines=max_open_engines,
            db_url=db_url or settings.db_url(), ttl=settings.env_ttl(),
        )
        self._templates: dict[tuple[int, str], Template] = {}
        self._sample_caches: dict[tuple[int, str], dict[str, Any]] = {}
        self._mcp_servers: dict[tuple[str, str], Any] = {}
        self._not_company_state = apps.not_company_state()

    # -- templates ---------------------------------------------------------------------
    def template(self, seed: int = 0, size: str = "small") -> Template:
        key = (seed, size)
        if key not in self._templates:
            self._templates[key] = ensure_template(self.cache_dir, seed, size)
        return self._templates[key]

    # -- envs --------------------------------------------------------------------------
    def create(
        self, task: str | None = None, seed: int = 0, size: str = "small", variant: int = 0, toolset: str | None = None
    ) -> Env:
        """A new env: a copy of the company template, plus the task's setup if a task is given."""
        family = registry.get(task) if task else None  # unknown task fails before any copy
        if toolset is not None and toolset not in apps.toolset_names():
            raise ValueError(f"unknown toolset {toolset!r}; toolsets: {', '.join(apps.toolset_names())}")
        if variant < 0:
            raise ValueError(f"variant must be 0 or more; got {variant}")
        template = self.template(seed, size)
        env = self.store.create(template.path, seed, size, task_id=family.id if family else None, variant=variant, toolset=toolset)
        if family is None:
            return env
        try:
            instance = self._sample(env, template, family, variant, run_setup=True)
        except BaseException:
            self.store.delete(env.id)
            raise
        env.task = instance
        return env

    def _sample(self, env: Env, template: Template, family: TaskFamily, variant: int, *, run_setup: bool) -> TaskInstance:
        company = template.company
        # The instance depends on (task, seed, size, variant) only: the same four are the same task.
        rng = random.Random(f"{family.id}|{template.seed}|{template.size}|{variant}")
        cache = self._sample_caches.setdefault((template.seed, template.size), {})
        # Re-sampling (after a restart) reads the template: the env has moved on since.
        with self.store.session(env) if run_setup else self.store.template_session(env) as db:
            ctx = SampleContext(company=company, actor=acting_person(company), db=db, variant=variant, cache=cache)
            try:
                instance = family.sample(ctx, rng)
            except (LookupError, IndexError, StopIteration) as error:
                raise TaskUnavailableError(
                    f"task {family.id} has no instance for seed {template.seed}, size {template.size}, variant {variant}: {error}"
                ) from None
            if run_setup and instance.setup is not None:
                instance.setup(db)
        # A setup whose writes the grader already allows needs no start snapshot of its own:
        # the template is the start, and creating the env stays one copy.
        if run_setup and instance.setup is not None and not instance.setup_in_expected:
            self.store.snapshot_start(env)
        return instance

    def count_instances(self, task: str, seed: int = 0, size: str = "small") -> int | None:
        """How many distinct instances `task` has on the (seed, size) company (None when the
        family does not say)."""
        family = registry.get(task)
        counter = getattr(family, "count_instances", None)
        if counter is None:
            return None
        template = self.template(seed, size)
        env = self.store.create(template.path, seed, size)
        try:
            cache = self._sample_caches.setdefault((seed, size), {})
            with self.store.session(env) as db:
                return counter(SampleContext(company=template.company, actor=acting_person(template.company), db=db, cache=cache))
        finally:
            self.store.delete(env.id)

    def instance(self, env: Env) -> TaskInstance | None:
        """The env's task instance (None for a bare env)."""
        return env.task

    def get(self, env_id: str) -> Env:
        env = self.store.get(env_id)
        if env.task is None and env.task_id is not None:
            # Loaded from the registry after a restart: the instance is re-sampled from what
            # fixes it, (task, seed, size, variant), never stored where an agent could read it.
            family, template = registry.get(env.task_id), self.template(env.seed, env.size)
            env.task = self._sample(env, template, family, env.variant, run_setup=False)
        return env

    def delete(self, env_id: str) -> None:
        self.store.delete(env_id)

    def close(self) -> None:
        self.store.close()

    # -- grading and trajectories ------------------------------------------------------
    def grade(self, env_id: str) -> dict[str, Any]:
        env = self.get(env_id)
        instance = self.instance(env)
        if instance is None:
            raise ValueError(f"env {env_id} was created without a task; there is nothing to grade")
        with self.store.session(env) as db:  # the diff and the checks read one consistent state
            changes = self.store.diff(env, self._not_company_state, db=db)
            return grade_state(db, instance.checks, changes, instance.expected)

    def advance_clock(self, env_id: str, *, seconds: float | None = None, to: datetime | None = None) -> dict[str, Any]:
        """Let time pass in an env: its clock moves forward by `seconds` or to `to` (never back;
        ValueError says why). Scheduled messages and due dates follow on the next operation."""
        env = self.store.get(env_id)
        with self.store.session(env) as db:
            before, after = clock.advance(db, seconds=seconds, to=to)
        return {"env_id": env.id, "before": clock.from_micros(before).isoformat(), "now": clock.from_micros(after).isoformat(),
                "advanced_seconds": (after - before) / 1_000_000}

    def clock(self, env_id: str) -> str:
        """The env's current time (ISO 8601, UTC)."""
        env = self.store.get(env_id)
        with self.store.session(env) as db:
            return clock.now(db).isoformat()

    def changes(self, env_id: str) -> list[Any]:
        """What the rollout changed in company state: row-level inserts, updates and deletes
        against the env's start (bookkeeping tables and the event log left out)."""
        env = self.store.get(env_id)
        return self.store.diff(env, self._not_company_state)

    def events(self, env_id: str, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        env = self.store.get(env_id)
        with self.store.session(env) as db:
            return events.list_events(db, after=after, limit=limit)

    # -- in-process MCP ----------------------------------------------------------------
    @asynccontextmanager
    async def mcp_client(self, env_id: str, app: str = "all") -> AsyncIterator[Any]:
        """An official MCP SDK client connected in-process to one env's tool server (the
        same server, toolset included, that agents reach over HTTP)."""
        from mcp import Client

        from officegym.faces.mcp import IN_PROCESS_ENV

        env = self.store.get(env_id)
        server = self._mcp_server(app, env.toolset)
        token = IN_PROCESS_ENV.set((self.store, env))
        try:
            async with Client(server) as client:
                yield client
        finally:
            IN_PROCESS_ENV.reset(token)

    def _mcp_server(self, app: str, toolset: str | None) -> Any:
        # Built on first use, one (app, toolset) at a time: a rollout process that only runs
        # crm families never pays for the other servers' tool schemas.
        from officegym.server import ALL, build_mcp_server, mcp_server_keys

        if app != ALL and "+" not in app:
            toolset = apps.get(app).toolset(toolset).name
        key = (app, toolset or apps.DEFAULT_TOOLSET)
        server = self._mcp_servers.get(key)
        if server is None:
            keys = mcp_server_keys()
            combined = "+" in app and all(name in apps.names() for name in app.split("+")) and (ALL, key[1]) in keys
            if key not in keys and not combined:
                raise KeyError(f"no MCP server {app!r} (toolset {key[1]!r}); servers: {', '.join(sorted({a for a, _ in keys}))}, "
                               f"or apps joined by '+'")
            server = self._mcp_servers[key] = build_mcp_server(*key)
        return server
