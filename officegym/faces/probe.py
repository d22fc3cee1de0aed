"""An app's typical agent calls, declared by the app for `officegym bench` to time: a read over
seeded history and a write, through MCP and through REST. A string argument may hold `{i}`,
replaced by the call's number so repeated writes differ, and `{<ref>}` for an id the company
gives (a seeded spreadsheet's id depends on the seed): the probe's `refs` reads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable, Mapping
from typing import Any


@dataclass(frozen=True)
class Call:
    name: str  # a tool name (MCP) or a REST path under /envs/{id}/api/{app}/
    args: dict[str, Any] = field(default_factory=dict)
    method: str = "POST"  # REST only
    operation: str | None = None  # REST only: the operation behind the path, when the path is not its name

    def numbered(self, i: int, refs: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The arguments of call number `i`, with `{i}` and every `{<ref>}` filled in (in
        nested lists and objects too)."""
        return {k: _filled(v, {"i": str(i), **(refs or {})}) for k, v in self.args.items()}

    def path(self, refs: Mapping[str, str] | None = None) -> str:
        """The REST path with `{<ref>}`s filled in."""
        return _filled(self.name, dict(refs or {}))


def _filled(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        for name, text in names.items():
            value = value.replace("{" + name + "}", text)
        return value
    if isinstance(value, list):
        return [_filled(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _filled(v, names) for k, v in value.items()}
    return value


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
    # Ids the calls name as `{<ref>}` that the seed decides, read from the company template
    # (a read-only session on it): e.g. {"forecast": <the "Sales Forecast" spreadsheet's id>}.
    refs: Callable[[Any], dict[str, str]] | None = None
