"""Row-level diff of an env's state against its start state, for grading.

The diff itself lives behind the backend seam (officegym/core/backend/): each backend reads
only the tables written since the start (it tracks them) and compares them in the database.
This module is what graders and tasks import: `RowChange` (`.table`, `.key`, `.change`,
`.before`, `.after`, `.row`, `.changed_columns`) and the two ways to get changes.
"""

from __future__ import annotations

from pathlib import Path

from officegym.core.backend.base import RowChange
from officegym.core.backend.sqlite_files import diff_files
from officegym.core.env_store import Env, EnvStore


def diff_env(store: EnvStore, env: Env, exclude: frozenset[str] = frozenset()) -> list[RowChange]:
    """The env's changes since its start, on whichever backend it lives."""
    return store.diff(env, exclude)


def diff_databases(live: Path, start: Path, exclude: frozenset[str] = frozenset()) -> list[RowChange]:
    """The changes between two SQLite files (tools and tests; envs go through `diff_env`)."""
    return diff_files(Path(live), Path(start), exclude)


__all__ = ["RowChange", "diff_databases", "diff_env"]
