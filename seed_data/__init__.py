"""Seeding a company: the generator (`company.py`, the facts every app shares), the acting
person (`actor.py`) and one seeder package per app; `officegym.apps` runs them in order."""

from __future__ import annotations

from seed_data.company import GENERATOR_VERSION, Company

# Bump when any app's seeded rows change for the same company (templates are rebuilt).
SEEDERS_VERSION = 1


__all__ = ["GENERATOR_VERSION", "SEEDERS_VERSION"]
