"""Seeding a company into a database: the generator, then each app's seeder."""

from __future__ import annotations

from sqlalchemy.orm import Session

from seed_data.company import GENERATOR_VERSION, Company

# Bump when any app's seeded rows change for the same company (templates are rebuilt).
SEEDERS_VERSION = 1


def seed_apps(db: Session, company: Company) -> None:
    from seed_data.chat import seed_chat

    seed_chat(db, company)


__all__ = ["GENERATOR_VERSION", "SEEDERS_VERSION", "seed_apps"]
