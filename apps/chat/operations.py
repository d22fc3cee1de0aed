"""The chat app's operations: every `@operation` of `ChatService`, one per Slack Web API
method, with Slack's response shapes. Every face binds to this set."""

from __future__ import annotations

from apps.chat.errors import ChatError, error_body, ok_body
from apps.chat.service import ChatService
from officegym.core.operations import collect

OPERATIONS = collect("chat", ChatService, error=ChatError, ok_body=ok_body, error_body=error_body)
