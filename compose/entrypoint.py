"""An officegym worker of the compose deployment (compose/docker-compose.yml).

    entrypoint.py           serve: every app, MCP, REST and the control plane, for the company
    entrypoint.py health    exit 0 when this worker's UI, MCP endpoint and control plane answer

Settings come from the environment (compose/.env sets them; the defaults are below), secrets
from files (compose secrets, mounted under /run/secrets), so no password or token is in the
image or in `docker inspect`.

The company is one env, shared by every worker: the first worker to start creates it from
SEED/SIZE and writes its id next to the template cache on the shared volume; the others, and
every later start, serve that env again (env records live in PostgreSQL). A file lock makes
workers that start together agree on one company.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import urllib.parse
import urllib.request
from pathlib import Path

STATE_ROOT = Path(os.environ.get("OFFICEGYM_HOME", "/var/lib/officegym"))


def setting(name: str, default: str) -> str:
    value = os.environ.get(name, "").strip()
    return value or default


def secret(name: str) -> str:
    path = Path(setting(f"{name.upper()}_FILE", f"/run/secrets/{name}"))
    try:
        value = path.read_text().strip()
    except FileNotFoundError:
        sys.exit(f"officegym: the secret {name} is missing ({path}); `make compose-secrets` makes it")
    if not value:
        sys.exit(f"officegym: the secret {name} ({path}) is empty")
    return value


def ports() -> tuple[int, int, int]:
    port = int(setting("PORT", "8000"))
    control = int(setting("CONTROL_PORT", str(port + 1)))
    tls = int(setting("TLS_PORT", str(port + 2)))
    return port, control, tls


def configure() -> None:
    """Point officegym at the database, the shared cache and this worker's own state dir."""
    worker = setting("WORKER", "worker1")
    password = urllib.parse.quote(secret("db_password"), safe="")
    db = (f"postgresql://{setting('DB_USER', 'officegym')}:{password}@{setting('DB_HOST', '127.0.0.1')}:"
          f"{setting('DB_PORT', '15432')}/{setting('DB_NAME', 'officegym')}")
    os.environ["OFFICEGYM_DB"] = db
    os.environ["OFFICEGYM_CONTROL_TOKEN"] = secret("control_token")
    os.environ.setdefault("OFFICEGYM_CACHE_DIR", str(STATE_ROOT / "cache"))
    # Each worker its own state (its TLS certificate, the state file the health check reads).
    os.environ["OFFICEGYM_STATE_DIR"] = str(STATE_ROOT / "workers" / worker)
    os.environ["OFFICEGYM_STATE_FILE"] = str(STATE_ROOT / "workers" / worker / "serve.json")
    # The company must outlive idle nights and weekends: by default no env expires.
    os.environ.setdefault("OFFICEGYM_ENV_TTL", "0")


def company_env(seed: int, size: str) -> str:
    """The id of the company env for (seed, size), created on the first start."""
    from officegym.core.errors import EnvNotFound
    from officegym.gym import Gym

    record = STATE_ROOT / f"company-{seed}-{size}.json"
    STATE_ROOT.mkdir(parents=True, exist_ok=True)
    with open(STATE_ROOT / "company.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        gym = Gym()
        try:
            if record.exists():
                try:
                    return gym.get(json.loads(record.read_text())["env_id"]).id
                except (EnvNotFound, KeyError, ValueError):
                    print(f"officegym: the company env in {record} is gone (a new database?); seeding a new one", flush=True)
            env = gym.create(None, seed=seed, size=size)
            tmp = record.with_suffix(".tmp")
            tmp.write_text(json.dumps({"env_id": env.id, "seed": seed, "size": size}))
            os.replace(tmp, record)
            print(f"officegym: seeded the company (seed {seed}, {size}) as env {env.id}", flush=True)
            return env.id
        finally:
            gym.close()


def serve() -> None:
    configure()
    from officegym.remote import write_state
    from officegym.serving import run_serve

    seed, size = int(setting("SEED", "0")), setting("SIZE", "small")
    port, control_port, tls_port = ports()
    env_id = company_env(seed, size)
    # `serve` keeps the default env named in its state file when it matches seed and size.
    write_state("", "", "", env_id)
    host = setting("HOST", "127.0.0.1")
    run_serve(host=host, port=port, control_host=setting("CONTROL_HOST", host), control_port=control_port,
              seed=seed, size=size, task=None, db=os.environ["OFFICEGYM_DB"], tls_port=tls_port or None,
              public_url=f"http://{setting('PUBLIC_HOST', '')}:{port}" if setting("PUBLIC_HOST", "") else None,
              echo=lambda line: print(line, flush=True))


def health() -> int:
    """Healthy when the company's chat UI, the MCP endpoint and the control plane answer."""
    worker = setting("WORKER", "worker1")
    try:
        state = json.loads((STATE_ROOT / "workers" / worker / "serve.json").read_text())
        agent, control, env_id = state["agent_url"], state["control_url"], state["default_env"]
        if not agent:
            return 1
        urllib.request.urlopen(f"{agent}/envs/{env_id}/chat/", timeout=5).read()
        listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        mcp = urllib.request.Request(f"{agent}/envs/{env_id}/mcp/all", data=json.dumps(listing).encode(),
                                     headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        urllib.request.urlopen(mcp, timeout=5).read()
        plane = urllib.request.Request(f"{control}/v1/apps", headers={"Authorization": f"Bearer {state['token']}"})
        urllib.request.urlopen(plane, timeout=5).read()
    except (OSError, KeyError, ValueError) as error:
        print(f"unhealthy: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["health"]:
        sys.exit(health())
    serve()
