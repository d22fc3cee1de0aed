"""Scripted adversaries: agents that try to score without doing the task.

Each acts through the same `Tools` an oracle uses (the agent-facing MCP tools), using the
moves its instance exposes (`TaskInstance.moves`: kept in server memory, never shown to the
agent). `officegym tasks validate` runs every one of them on every family and variant; each
must stay below the pass line and must not pass.

- do-nothing: nothing at all.
- prompt-paste: posts the task's own text where the answer goes.
- list-everything: names every candidate of the asked kind (every ticket, person, emoji ...).
- hedger: a plausible wrong answer first, then the right one.
- shotgun: the right answer everywhere plausible (and with every emoji).
- vandal: does the task, then destroys other things (archives, deletes, overwrites).
- wrong-record: the right kind of action on the wrong record.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tasks.base import Moves, TaskInstance, Tools

Adversary = Callable[[TaskInstance, Tools], Awaitable[None]]


def _moves(instance: TaskInstance) -> Moves:
    if instance.moves is None:
        raise ValueError("this instance exposes no moves for the adversary suite (TaskInstance.moves)")
    return instance.moves


async def do_nothing(instance: TaskInstance, tools: Tools) -> None:
    return None


async def prompt_paste(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).say(tools, instance.prompt)


async def list_everything(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).everything(tools)


async def hedger(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).wrong(tools)
    await instance.oracle(tools)


async def shotgun(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).shotgun(tools)


async def vandal(instance: TaskInstance, tools: Tools) -> None:
    await instance.oracle(tools)
    await _moves(instance).wreck(tools)


async def wrong_record(instance: TaskInstance, tools: Tools) -> None:
    await _moves(instance).wrong_record(tools)


ADVERSARIES: dict[str, Adversary] = {
    "do-nothing": do_nothing,
    "prompt-paste": prompt_paste,
    "list-everything": list_everything,
    "hedger": hedger,
    "shotgun": shotgun,
    "vandal": vandal,
    "wrong-record": wrong_record,
}
