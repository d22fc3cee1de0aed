"""The rule that decides which tests the PostgreSQL pass skips (tests/conftest.py): a test that asks
for no fixture on the pass's backend runs once, in the SQLite pass, and there it runs with that
backend out of reach, so a test that reaches it anyway (a Gym made without a db_url) fails instead
of silently losing its PostgreSQL run; marked `pass_backend`, it runs on both passes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SAMPLE = '''
import os
import pytest
from officegym.gym import Gym

def test_pure():
    assert sorted("cba") == ["a", "b", "c"]

def test_with_the_session_gym(gym):
    assert gym.store.backend_name in ("sqlite", "postgresql")

def test_reaches_the_backend_unmarked(tmp_path):
    Gym(envs_dir=tmp_path).close()

@pytest.mark.pass_backend
def test_reaches_the_backend_marked(tmp_path):
    if os.environ.get("OFFICEGYM_DB"):  # the PostgreSQL pass: it runs (opening the server is not the point)
        assert os.environ["OFFICEGYM_DB"].startswith("postgresql")
    else:
        Gym(envs_dir=tmp_path).close()
'''


def run_pass(tmp_path: Path, db: str | None) -> dict[str, str]:
    """Outcome of each sample test in one pass ('passed', 'failed', 'skipped', 'error'), and
    pytest's output under '_output'."""
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    environment = {k: v for k, v in os.environ.items() if k != "OFFICEGYM_DB"} | ({"OFFICEGYM_DB": db} if db else {})
    environment["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider", "-v",
         "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path / "test_sample.py")],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300,
    )
    outcomes = {}
    for line in done.stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0].startswith("test_sample.py::") and words[1] in ("PASSED", "FAILED", "SKIPPED", "ERROR"):
            outcomes.setdefault(words[0].split("::")[1], words[1].lower())
    return outcomes | {"_output": done.stdout + done.stderr}


def test_sqlite_pass_runs_every_test_and_fails_one_that_reaches_the_backend_unmarked(tmp_path: Path) -> None:
    outcomes = run_pass(tmp_path, None)
    output = outcomes.pop("_output")
    assert outcomes == {
        "test_pure": "passed",
        "test_with_the_session_gym": "passed",
        "test_reaches_the_backend_unmarked": "failed",
        "test_reaches_the_backend_marked": "passed",
    }, output
    assert "not-the-pass-backend" in output, "the failure says why"


def test_postgres_pass_skips_only_what_cannot_depend_on_the_backend(tmp_path: Path) -> None:
    outcomes = run_pass(tmp_path, "postgresql:///officegym_pass_rule_never_opened")
    output = outcomes.pop("_output")
    assert outcomes["test_pure"] == "skipped", output
    assert outcomes["test_reaches_the_backend_unmarked"] == "skipped", output
    assert outcomes["test_reaches_the_backend_marked"] == "passed", output
    assert outcomes["test_with_the_session_gym"] != "skipped", output  # (it errors: no such server database)
