"""The crm app's operations: every `@operation` of `CrmService` (REST resources, lead
conversion, and the reference MCP server's tools), with Salesforce's response shapes.
Every face binds to this set."""

from __future__ import annotations

from apps.crm.errors import CrmError, error_body, ok_body
from apps.crm.service import CrmService
from officegym.core.operations import collect

OPERATIONS = collect("crm", CrmService, error=CrmError, ok_body=ok_body, error_body=error_body)
