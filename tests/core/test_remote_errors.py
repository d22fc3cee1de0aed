"""A trainer's ControlPlane whose server is gone says so, naming where it read the server
from and whether the serve that wrote it still runs, instead of a bare connection error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from officegym.bench.calls import free_port
from officegym.remote import ControlPlane, write_state


def test_a_stale_state_file_is_named_with_its_dead_serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "serve.json"
    monkeypatch.setenv("OFFICEGYM_STATE_FILE", str(state))
    write_state(f"http://127.0.0.1:{free_port()}", "t0ken", "http://127.0.0.1:1", None)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    written = json.loads(state.read_text())
    state.write_text(json.dumps({**written, "pid": int(gone.stdout)}))  # a serve that has exited
    with pytest.raises(RuntimeError) as failure:
        ControlPlane().list()
    message = str(failure.value)
    assert "nothing answers at http://127.0.0.1:" in message and str(state) in message
    assert f"pid {gone.stdout.strip()}, which is no longer running" in message and "start `officegym serve`" in message
