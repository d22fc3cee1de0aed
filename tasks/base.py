"""Task families: parametrised tasks that sample a concrete instance from an env's company.

A family has a versioned id (`chat/reply-in-thread-v1`) and a `sample(ctx, rng)` that returns
a `TaskInstance`: the prompt the agent sees, an optional setup (run once, before the start
snapshot), the checks and expected changes the grader uses (computed here, kept in server
memory, never written where the agent can read them), an oracle solution and at least one
other correct solution that use only the agent-facing MCP tools, and the moves the adversary
suite needs to attack the instance.

`ctx.variant` picks one of the family's instances on a template (`count_instances` says how
many there are); what depends only on the template (the candidate pool) is built once and kept
in `ctx.cache`, so sampling an instance never rescans the company's history.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.orm import Session

from graders.checks import Check
from graders.rubric import Expect
from seed_data.company import Company, Person


class TaskUnavailable(LookupError):
    """This family has no instance for this company (or variant); the message says why."""


class ToolError(RuntimeError):
    """A tool call the oracle made came back with `is_error`."""


class Tools(Protocol):
    """The agent-facing MCP tools of an env, as an oracle calls them."""

    async def call(self, tool: str, /, **arguments: Any) -> Any:
        """Call a tool; returns its result parsed from JSON, raises ToolError on is_error."""
        ...


@dataclass(frozen=True, slots=True)
class SampleContext:
    company: Company
    actor: Person  # the employee the agent acts as
    db: Session  # the env's database at sampling time (read it; write only in setup)
    variant: int = 0  # which of the family's instances on this company
    cache: dict[str, Any] = field(default_factory=dict)  # per template: what sampling may reuse across creates


Solution = Callable[[Tools], Awaitable[None]]


@dataclass(slots=True)
class Moves:
    """How the adversary suite attacks one instance (tasks.common.adversaries). Kept in server
    memory with the instance, like the checks: never shown to the agent."""

    say: Callable[[Tools, str], Awaitable[None]]  # post free text where the answer goes
    wrong: Solution  # the task's action with a plausible wrong value
    everything: Solution  # the task's action naming every candidate of the asked kind
    wrong_record: Solution  # the right kind of action on the wrong record
    shotgun: Solution  # the right answer everywhere plausible
    wreck: Solution  # destructive extras in this app: archive, delete, overwrite other things
    # The task done right, then its result put away (tasks.common.adversaries.put_away). None:
    # the oracle, then whatever it made put away by its kind (an issue resolved, a case closed, a
    # task completed, a tab hidden, a channel archived, a message deleted). A family whose task
    # makes nothing to put away (it is itself a close or an edit) says so with `nothing`.
    put_away: Solution | None = None
    # A wrong answer where a reader looks first (a tab before the right one, rows above the
    # right ones, a message before the right one), then the right one. None: `wrong`, then the oracle.
    decoy: Solution | None = None


async def nothing(tools: Tools) -> None:
    """A move that does nothing (the put-away of a task that makes nothing to put away)."""
    return None


@dataclass(slots=True)
class TaskInstance:
    prompt: str
    checks: Sequence[Check]
    expected: Sequence[Expect]
    oracle: Solution
    setup: Callable[[Session], None] | None = None
    facts: dict[str, Any] = field(default_factory=dict)  # what the instance is about, for debugging
    alternatives: Sequence[Solution] = ()  # other correct solutions: each must pass too
    moves: Moves | None = None  # for the adversary suite
    # True when `expected` allows every row `setup` writes, so the setup may be left in the
    # diff instead of taking a new start snapshot after it (one file copy less per create).
    setup_in_expected: bool = False


class TaskFamily(Protocol):
    id: str  # "<app>/<name>-v<version>"
    apps: tuple[str, ...]
    difficulty: str  # "easy" | "medium" | "hard"
    summary: str

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        """The instance `ctx.variant` picks; raises TaskUnavailable when there is none."""
        ...

    def count_instances(self, ctx: SampleContext) -> int:
        """How many distinct instances this template offers (variants wrap around after that)."""
        ...


def describe(family: TaskFamily) -> dict[str, Any]:
    return {"id": family.id, "apps": list(family.apps), "difficulty": family.difficulty, "summary": family.summary}
