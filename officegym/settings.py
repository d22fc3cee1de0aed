"""Where officegym keeps its files. Override with environment variables."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """Company templates, built once and reused across runs (OFFICEGYM_CACHE_DIR)."""
    if os.environ.get("OFFICEGYM_CACHE_DIR"):
        return Path(os.environ["OFFICEGYM_CACHE_DIR"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "officegym"


def state_dir() -> Path:
    """Live state that must outlive a process: env databases and their registry
    (OFFICEGYM_STATE_DIR, else $XDG_STATE_HOME/officegym, else ~/.local/state/officegym)."""
    if os.environ.get("OFFICEGYM_STATE_DIR"):
        return Path(os.environ["OFFICEGYM_STATE_DIR"])
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "officegym"


def envs_dir() -> Path:
    """Env databases and the registry of live envs (OFFICEGYM_ENVS_DIR). A stable directory,
    so a restarted `serve` finds its envs again; idle envs expire after `env_ttl()`."""
    if os.environ.get("OFFICEGYM_ENVS_DIR"):
        return Path(os.environ["OFFICEGYM_ENVS_DIR"])
    return state_dir() / "envs"


def db_url() -> str | None:
    """Where envs live (OFFICEGYM_DB): unset or `sqlite:` for SQLite files under `envs_dir()`,
    `postgresql://user@host/db` for PostgreSQL."""
    return os.environ.get("OFFICEGYM_DB") or None


def env_ttl() -> float | None:
    """Seconds an env may sit unused before it is deleted (OFFICEGYM_ENV_TTL; 0 = never)."""
    raw = os.environ.get("OFFICEGYM_ENV_TTL")
    if raw is None or raw.strip() == "":
        return 6 * 3600.0
    value = float(raw)
    if value < 0:
        raise ValueError(f"OFFICEGYM_ENV_TTL must be 0 (never) or a number of seconds; got {raw!r}")
    return value or None


def env_max_bytes() -> int | None:
    """How large one env's database may grow (OFFICEGYM_ENV_MAX_MB; 0 = no bound). A write
    that would take it further is refused in the product's shape, so an agent looping on big
    posts fills its own env, not the server's disk. Enforced on SQLite files; a PostgreSQL
    server's space is its operator's to bound."""
    raw = os.environ.get("OFFICEGYM_ENV_MAX_MB")
    if raw is None or raw.strip() == "":
        return 1024 * 1024 * 1024
    value = float(raw)
    if value < 0:
        raise ValueError(f"OFFICEGYM_ENV_MAX_MB must be 0 (no bound) or a number of megabytes; got {raw!r}")
    return int(value * 1024 * 1024) or None


def state_file() -> Path:
    """Where a running `serve` leaves its control URL and token for the CLI and Python API
    (OFFICEGYM_STATE_FILE); private to the user (mode 0600)."""
    if os.environ.get("OFFICEGYM_STATE_FILE"):
        return Path(os.environ["OFFICEGYM_STATE_FILE"])
    return cache_dir() / "serve.json"
