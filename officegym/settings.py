"""Where officegym keeps its files. Override with environment variables."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def cache_dir() -> Path:
    """Company templates, built once and reused across runs (OFFICEGYM_CACHE_DIR)."""
    if os.environ.get("OFFICEGYM_CACHE_DIR"):
        return Path(os.environ["OFFICEGYM_CACHE_DIR"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "officegym"


def envs_dir() -> Path:
    """Live env databases of this process (OFFICEGYM_ENVS_DIR); a fresh temp dir by default."""
    if os.environ.get("OFFICEGYM_ENVS_DIR"):
        return Path(os.environ["OFFICEGYM_ENVS_DIR"])
    return Path(tempfile.mkdtemp(prefix="officegym-envs-"))


def state_file() -> Path:
    """Where a running `serve` leaves its control URL and token for the CLI and Python API
    (OFFICEGYM_STATE_FILE); private to the user (mode 0600)."""
    if os.environ.get("OFFICEGYM_STATE_FILE"):
        return Path(os.environ["OFFICEGYM_STATE_FILE"])
    return cache_dir() / "serve.json"
