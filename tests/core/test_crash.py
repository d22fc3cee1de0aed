"""SIGKILL in the middle of writing, on both backends: a new store over the same envs dir or
database lists every env the dead process created and holds every write it acknowledged."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from officegym.core.db import get_meta
from officegym.core.env_store import EnvStore

WRITER = """
import sys
from pathlib import Path
import officegym.apps  # registers every app's tables (PostgreSQL builds its schemas from them)
from officegym.core.db import set_meta
from officegym.core.env_store import EnvStore

root, url, template = Path(sys.argv[1]), sys.argv[2] or None, Path(sys.argv[3])
store = EnvStore(root, db_url=url)
envs = [store.create(template, seed=0, size="small") for _ in range(6)]
for env in envs:
    print("ENV", env.id, flush=True)
i = 0
while True:  # until killed
    env = envs[i % len(envs)]
    with store.session(env) as db:
        set_meta(db, f"k{i}", f"v{i}")
        set_meta(db, "last", str(i))
    print("ACK", env.id, i, flush=True)  # printed only after the commit returned
    i += 1
"""


def test_acknowledged_writes_survive_sigkill(tmp_path: Path, backend_url: str | None, tiny_template: Path) -> None:
    root = tmp_path / "envs"
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(root), backend_url or "", str(tiny_template)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    envs: list[str] = []
    acked: list[tuple[str, int]] = []
    deadline = time.monotonic() + 60
    try:
        assert child.stdout is not None
        for line in child.stdout:
            kind, env_id, *rest = line.split()
            if kind == "ENV":
                envs.append(env_id)
            else:
                acked.append((env_id, int(rest[0])))
            if len(acked) >= 300 or time.monotonic() > deadline:
                break
        child.send_signal(signal.SIGKILL)  # mid-stream: the next write is in flight
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    assert len(envs) == 6 and len(acked) >= 300, child.stderr.read() if child.stderr else ""

    store = EnvStore(root, db_url=backend_url)
    try:
        assert {e.id for e in store.list()} == set(envs)
        for env_id, i in acked:
            with store.session(store.get(env_id)) as db:
                assert get_meta(db, f"k{i}") == f"v{i}", f"acknowledged write {i} to {env_id} was lost"
        if backend_url is None:  # and no file was damaged by the kill
            for env_id in envs:
                with store.session(store.get(env_id)) as db:
                    assert db.connection().exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    finally:
        store.close()
