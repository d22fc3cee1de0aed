"""Company templates: the fully seeded database of one `(generator version, seed, size)`.

Built once, cached on disk under a name that also carries a fingerprint of the schema, so a
change to any table rebuilds it instead of serving a stale file. Builds are atomic (write to
a temp file, then rename) and serialised with a file lock, so parallel processes (pytest
workers, compose services) never see half a template. A template is always a SQLite file;
the PostgreSQL backend loads its rows into a template database once (core/backend/).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sqlalchemy.orm import Session

from officegym import apps  # importing the registry registers every app's tables on Base.metadata
from officegym.core import clock
from officegym.core.backend import sqlite_files
from officegym.core.db import set_meta
from seed_data import GENERATOR_VERSION, SEEDERS_VERSION
from seed_data.actor import acting_person
from seed_data.company import SIZES, Company, generate_company


@dataclass(frozen=True, slots=True)
class Template:
    path: Path
    company: Company
    seed: int
    size: str


@cache
def schema_ddl() -> tuple[str, ...]:
    """The template file's schema, in a fixed order (see core/backend/sqlite_files.py)."""
    return sqlite_files.schema_ddl()


@cache
def build_fingerprint() -> str:
    """A hash of everything a template is made from: the schema and the seeders' code.

    Version numbers say when output changes on purpose; the fingerprint makes sure an edit
    that forgot to bump one still never serves a stale template.
    """
    import seed_data

    # Seeders use their app's ids, models and service code too: all of it counts.
    roots = [Path(seed_data.__file__).parent, *(app.source_dir for app in apps.APPS)]
    parts = list(schema_ddl())
    for root in roots:
        for source in sorted(root.rglob("*.py")):
            parts.append(f"{source.relative_to(root.parent)}\n{source.read_text()}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:10]


def template_path(cache_dir: Path, seed: int, size: str) -> Path:
    name = f"company-g{GENERATOR_VERSION}.{SEEDERS_VERSION}-{build_fingerprint()}-s{seed}-{size}.db"
    return cache_dir / "templates" / name


def check_size(size: str) -> None:
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}; accepted sizes: {', '.join(SIZES)}")


def build_template(path: Path, company: Company) -> None:
    """Seed a new template file, atomically (a temp file, then a rename)."""
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.unlink(missing_ok=True)
    try:
        sqlite_files.build_file(tmp, lambda db: _seed(db, company))
        path.with_suffix(".json").write_text(company.to_json())
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            leftover.unlink(missing_ok=True)


def _seed(db: Session, company: Company) -> None:
    set_meta(db, "seed", str(company.seed))
    set_meta(db, "size", company.size)
    set_meta(db, "company", company.name)
    set_meta(db, "actor_person_id", acting_person(company).id)
    clock.start_clock(db, company.now)
    apps.seed_all(db, company)


def ensure_template(cache_dir: Path, seed: int, size: str) -> Template:
    """The template for `(seed, size)`, building it on first use."""
    check_size(size)
    path = template_path(cache_dir, seed, size)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not path.exists():
                build_template(path, generate_company(seed, size))
    return Template(path=path, company=_load_company(path), seed=seed, size=size)


@cache
def _load_company(path: Path) -> Company:
    return Company.from_json(path.with_suffix(".json").read_text())
