"""An app's typical agent calls, declared by the app for `officegym bench` to time: a read over
seeded history and a write, through MCP and through REST. A string argument may hold `{i}`,
replaced by the call's number so repeated writes differ."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any


@dataclass(frozen=True)
class Call:
    name: str  # a tool name (MCP) or a REST path under /envs/{id}/api/{app}/
    args: dict[str, Any] = field(default_factory=dict)
    method: str = "POST"  # REST only
    operation: str | None = None  # REST only: the operation behind the path, when the path is not its name

    def numbered(self, i: int) -> dict[str, Any]:
        return {k: v.replace("{i}", str(i)) if isinstance(v, str) else v for k, v in self.args.items()}


@dataclass(frozen=True)
class Probe:
    mcp_read: Call
    mcp_write: Call
    rest_read: Call
    rest_write: Call
    # The app's query language, timed in process by kind: (label, Call of an operation by name),
    # e.g. ("SOQL aggregate", Call("crm.query", {"q": "SELECT … GROUP BY …"})).
    queries: tuple[tuple[str, Call], ...] = ()
    # Engine work timed in process, outside any env: (label, setup) where `setup()` builds what
    # the step needs (e.g. a 10,000-cell workbook) and returns the step to time (one edit and
    # its recalculation). The setup is not timed.
    kernels: tuple[tuple[str, Callable[[], Callable[[], Any]]], ...] = ()
