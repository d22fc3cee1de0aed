"""The chat app's error: Slack's `{"ok": false, "error": code}` with a readable message."""

from officegym.core.errors import AppError


class ChatError(AppError):
    """A Slack API error: `code` is Slack's error string (channel_not_found, ...)."""


def error_body(error: AppError) -> dict:
    """Slack's failure shape: `error` is the code; the readable detail rides in
    `response_metadata.messages`, where Slack itself puts argument errors."""
    return {"ok": False, "error": error.code, "response_metadata": {"messages": [f"[ERROR] {error.message}"]}}


def ok_body(body: dict) -> dict:
    return {"ok": True, **body}
