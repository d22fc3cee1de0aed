"""Fixtures for the sheets service tests: `run(lambda sheets: …)` runs one operation in one
transaction in a fresh env, as the acting person or another; `forecast` is the seeded Sales
Forecast's id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from apps.sheets.service import SheetsService
from officegym.core.env_store import Env
from officegym.gym import Gym

Run = Callable[..., Any]


@pytest.fixture
def run(gym: Gym, env: Env) -> Run:
    def run(operation: Callable[[SheetsService], Any], as_email: str | None = None) -> Any:
        with gym.store.session(env) as db:
            return operation(SheetsService(db, actor_email=as_email))

    return run


@pytest.fixture
def titles(run: Run) -> dict[str, str]:
    """Seeded spreadsheets the acting person can open: title prefix → id."""
    files = run(lambda s: s.files_list())
    return {f["title"].split(" FY")[0].split(" 20")[0]: f["id"] for f in files}


@pytest.fixture
def forecast(titles: dict[str, str]) -> str:
    return titles["Sales Forecast"]


@pytest.fixture
def blank(run: Run) -> str:
    """A new spreadsheet the acting person owns, with one tab 'Sheet1' (sheetId 0)."""
    return run(lambda s: s.spreadsheets_create({"title": "Scratch"}))["spreadsheetId"]
