"""The explicit registry of apps: an app exists when it is listed here.

Each app declares its tables (the models module registers them), its seeder and the seeders
it needs first, its operations, its REST and UI routers, and its MCP toolsets (the first is
the default). Server assembly, the `all` MCP server, templates, the Python API, bench and
validate iterate this registry; no other platform module names an app.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from fastapi import APIRouter
from sqlalchemy.orm import Session

import apps.chat.models
import apps.crm.models
import apps.sheets.models
import apps.tickets.models
from apps.chat import api as chat_api
from apps.chat import ui as chat_ui
from apps.chat.operations import OPERATIONS as CHAT_OPERATIONS
from apps.crm import api as crm_api
from apps.crm import ui as crm_ui
from apps.crm.operations import OPERATIONS as CRM_OPERATIONS
from apps.sheets import api as sheets_api
from apps.sheets import ui as sheets_ui
from apps.sheets.operations import OPERATIONS as SHEETS_OPERATIONS
from apps.tickets import api as tickets_api
from apps.tickets import ui as tickets_ui
from apps.tickets.operations import OPERATIONS as TICKETS_OPERATIONS
from mcp_servers import chat as chat_tools
from mcp_servers import crm as crm_tools
from mcp_servers import sheets as sheets_tools
from mcp_servers import tickets as tickets_tools
from officegym.core.operations import OperationSet
from officegym.faces.mcp import Toolset
from officegym.faces.probe import Probe
from seed_data.chat import seed_chat
from seed_data.company import Company
from seed_data.crm import seed_crm
from seed_data.sheets import seed_sheets
from seed_data.tickets import seed_tickets

DEFAULT_TOOLSET = "reference"


@dataclass(frozen=True)
class App:
    name: str  # the path segment: /envs/{id}/{name}/, /mcp/{name}, /api/{name}/
    product: str  # what it clones, for people reading listings
    models: ModuleType  # importing it registers the app's tables on the shared metadata
    seed: Callable[[Session, Company], None]
    needs: tuple[str, ...]  # apps whose seeders must run first
    operations: OperationSet
    rest: APIRouter
    ui: APIRouter
    toolsets: tuple[Toolset, ...]  # the first is the default
    probe: Probe  # the typical read and write `officegym bench` times
    bookkeeping: frozenset[str] = frozenset()  # tables that are not company state (never collateral)
    # A path prefix (e.g. "/services") at which the REST face also answers at the root of the
    # agent origin, for clients that build URLs from the host alone; the env comes from the
    # API token (officegym.core.api_token). None: only under /envs/{id}/api/{name}/.
    rest_root: str | None = None
    # What a GET on the REST face's base URL answers (the URL `serve` prints): the product API
    # it speaks and a few calls to start from, relative to that base.
    rest_index: dict[str, Any] | None = None

    @property
    def source_dir(self) -> Path:
        return Path(self.models.__file__).parent

    def toolset(self, name: str | None) -> Toolset:
        """The named toolset, or the default when this app has none of that name."""
        return next((t for t in self.toolsets if t.name == (name or DEFAULT_TOOLSET)), self.toolsets[0])


APPS: tuple[App, ...] = (
    App(
        name="chat", product="Slack", models=apps.chat.models, seed=seed_chat, needs=(),
        operations=CHAT_OPERATIONS, rest=chat_api.router, ui=chat_ui.router,
        toolsets=chat_tools.TOOLSETS, probe=chat_tools.BENCH_PROBE, bookkeeping=apps.chat.models.BOOKKEEPING_TABLES,
        rest_index=chat_api.INDEX,
    ),
    App(
        name="crm", product="Salesforce", models=apps.crm.models, seed=seed_crm, needs=(),
        operations=CRM_OPERATIONS, rest=crm_api.router, ui=crm_ui.router,
        toolsets=crm_tools.TOOLSETS, probe=crm_tools.BENCH_PROBE, bookkeeping=apps.crm.models.BOOKKEEPING_TABLES,
        rest_root="/services", rest_index=crm_api.INDEX,
    ),
    App(
        name="tickets", product="Jira", models=apps.tickets.models, seed=seed_tickets, needs=(),
        operations=TICKETS_OPERATIONS, rest=tickets_api.router, ui=tickets_ui.router,
        toolsets=tickets_tools.TOOLSETS, probe=tickets_tools.BENCH_PROBE, rest_root="/rest", rest_index=tickets_api.INDEX,
    ),
    App(
        name="sheets", product="Google Sheets", models=apps.sheets.models, seed=seed_sheets, needs=(),
        operations=SHEETS_OPERATIONS, rest=sheets_api.router, ui=sheets_ui.router,
        toolsets=sheets_tools.TOOLSETS, probe=sheets_tools.BENCH_PROBE, rest_index=sheets_api.INDEX,
    ),
)


def names() -> tuple[str, ...]:
    return tuple(app.name for app in APPS)


def get(name: str) -> App:
    for app in APPS:
        if app.name == name:
            return app
    raise KeyError(f"unknown app {name!r}; apps: {', '.join(names())}")


def seeding_order() -> list[App]:
    """Apps in an order where each one's `needs` come first (a stable topological sort)."""
    done: list[App] = []
    pending = list(APPS)
    while pending:
        ready = [a for a in pending if all(n in {d.name for d in done} for n in a.needs)]
        if not ready:
            raise ValueError(f"apps with unmet or circular needs: {', '.join(a.name for a in pending)}")
        done.extend(ready)
        pending = [a for a in pending if a not in ready]
    return done


def seed_all(db: Session, company: Company) -> None:
    for app in seeding_order():
        app.seed(db, company)


def toolset_names() -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.name for app in APPS for t in app.toolsets))


def not_company_state() -> frozenset[str]:
    from officegym.core.db import CORE_TABLES

    return CORE_TABLES.union(*(app.bookkeeping for app in APPS))


def describe() -> list[dict[str, Any]]:
    return [{"name": a.name, "product": a.product, "toolsets": [t.name for t in a.toolsets]} for a in APPS]
