"""Errors shared by every app.

Each app raises `AppError` subclasses from its service layer; the faces (REST, MCP, UI)
translate them into the product's own error shape. `code` is the product's machine-readable
error code (Slack's `channel_not_found`, Jira's field errors, ...); `message` says, for a
human or an agent, what was wrong and what is accepted.
"""

from __future__ import annotations


class AppError(Exception):
    """A domain error: bad input or a state conflict. Never half-writes (the caller rolls back)."""

    status_code = 400

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def no_env(env_id: object) -> str:
    """What every face answers for an env id it does not know (404): the id (cut short) and
    the ways an env goes, so a user holding an old URL knows what happened."""
    return f"no env {str(env_id)[:64]!r} on this server: it was deleted, expired (idle past OFFICEGYM_ENV_TTL), or never created"


class EnvNotFound(LookupError):
    """Unknown, deleted or malformed env id. Faces answer 404 and reveal nothing else."""

    def __init__(self, env_id: str) -> None:
        super().__init__(f"no env with id {env_id!r}")
        self.env_id = env_id


STORAGE_LIMIT = "storage_limit_exceeded"


def storage_full(error: BaseException) -> bool:
    """Whether a database error is the env's storage being full: SQLite's SQLITE_FULL (the
    env's bound, OFFICEGYM_ENV_MAX_MB, or the disk) or PostgreSQL's disk_full (53100)."""
    orig = getattr(error, "orig", error)
    return "database or disk is full" in str(orig) or getattr(orig, "sqlstate", None) == "53100"
