"""The bench server's reference routes do what the table says they do: the no-op answers
without touching the env, and the logged write writes exactly its own event row (a floor
that skipped the write would understate what every REST write must pay)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from officegym.bench.calls import LOGGED_WRITE
from officegym.bench.server import add_noop_rest
from officegym.gym import Gym


def test_the_noop_writes_nothing_and_the_logged_write_writes_its_event_row(gym: Gym) -> None:
    app = FastAPI()
    app.state.store = gym.store
    add_noop_rest(app)
    env = gym.create()
    try:
        with TestClient(app) as client:
            before = len(gym.events(env.id))
            assert client.post(f"/envs/{env.id}/api/noop/noop", json={"text": "x"}).json() == {"ok": True}
            assert len(gym.events(env.id)) == before
            assert client.post(f"/envs/{env.id}/api/noop/{LOGGED_WRITE}", json={"text": "hello"}).json() == {"ok": True}
            logged = gym.events(env.id)[before:]
            assert [(e["operation"], e["args"]) for e in logged] == [(LOGGED_WRITE, {"text": "hello"})], logged
    finally:
        gym.delete(env.id)
