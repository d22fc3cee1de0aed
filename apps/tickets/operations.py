"""The tickets app's operations: every `@operation` of `TicketsService`, with Jira's shapes.
Every face binds to this set."""

from __future__ import annotations

from apps.tickets.errors import TicketsError, error_body, ok_body
from apps.tickets.service import TicketsService
from officegym.core.operations import collect

OPERATIONS = collect("tickets", TicketsService, error=TicketsError, ok_body=ok_body, error_body=error_body)
