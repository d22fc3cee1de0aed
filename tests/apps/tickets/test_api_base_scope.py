"""The tickets API answers an ASGI server that passes the request's server address as a list
(the ASGI spec allows any two-item iterable; Starlette's TestClient sends a list): links are
built from it, and it was used as a cache key as it came (a list cannot be one: a 500)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from officegym.gym import Gym
from officegym.server import create_agent_app


def test_transitions_answer_through_an_in_process_client(gym: Gym) -> None:
    env = gym.create()
    try:
        with TestClient(create_agent_app(gym)) as client:
            answer = client.get(f"/envs/{env.id}/api/tickets/rest/api/3/issue/SUP-1/transitions")
        assert answer.status_code == 200, answer.text
        assert answer.json()["transitions"], answer.json()
    finally:
        gym.delete(env.id)
