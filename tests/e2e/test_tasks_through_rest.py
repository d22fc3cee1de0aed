"""Tasks done through the products' REST faces instead of the MCP tools, over real HTTP: the
grader reads the same state whichever face wrote it, so a correct solution passes (Slack's own
client answering in a DM, Salesforce REST logging a call, the CRM's UI form closing a case) and
a hedge or a stuffed field written through REST fails as it would through MCP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from slack_sdk import WebClient

from graders.rubric import PASS_LINE
from officegym.core.env_store import Env
from tasks.crm.log_call import TOPICS

V = "services/data/v62.0"


@pytest.fixture
def task_env(live_server: Any) -> Iterator[Any]:
    made: list[Env] = []

    def make(task: str, where: Any = None) -> Env:
        for variant in range(50):
            env = live_server.gym.create(task, seed=0, variant=variant)
            made.append(env)
            if where is None or where(env.task.facts):
                return env
        raise LookupError(f"no variant of {task} fits")

    yield make
    for env in made:
        live_server.gym.delete(env.id)


def salesforce(live_server: Any, env: Env) -> httpx.Client:
    return httpx.Client(base_url=f"{live_server.base_url}/envs/{env.id}/api/crm/", timeout=30)


def graded_as(live_server: Any, env: Env, passes: bool) -> None:
    """Full marks when the work is right; below the pass line, and not passed, when it is not."""
    grade = live_server.gym.grade(env.id)
    right = grade["passed"] and grade["reward"] == 1.0
    wrong = not grade["passed"] and grade["reward"] < PASS_LINE
    assert right if passes else wrong, json.dumps(grade)


@pytest.mark.parametrize(("subject", "passes"), [("Call re {topic}", True), ("Call about " + ", ".join(TOPICS), False)])
def test_log_call_through_salesforce_rest(live_server: Any, task_env: Any, subject: str, passes: bool) -> None:
    env = task_env("crm/log-call-v1")
    f = env.task.facts
    with salesforce(live_server, env) as api:
        made = api.post(f"{V}/sobjects/Task", json={"Subject": subject.format(topic=f["topic"]), "Status": "Completed",
                                                    "WhatId": f["opportunity"], "WhoId": f["contact"]})
        assert made.status_code == 201, made.text
    graded_as(live_server, env, passes)


def test_close_case_through_the_crm_ui_form(live_server: Any, task_env: Any) -> None:
    env = task_env("crm/close-case-v1")
    f = env.task.facts
    base = f"{live_server.base_url}/envs/{env.id}/crm"
    with httpx.Client(timeout=30, follow_redirects=False) as client:
        form = client.get(f"{base}/r/{f['case']}/edit")
        assert form.status_code == 200
        saved = client.post(f"{base}/r/{f['case']}/edit", data={"Status": "Closed", "Resolution__c": f"{f['resolution']} (customer confirmed)"},
                            headers={"origin": live_server.base_url})
        assert saved.status_code in (200, 303), saved.text[:400]
    graded_as(live_server, env, True)


@pytest.mark.parametrize(("text", "passes"), [("{key}", True), ("{key}, or maybe {wrong}", False)])
def test_find_and_answer_through_slacks_own_client(live_server: Any, task_env: Any, text: str, passes: bool) -> None:
    env = task_env("chat/find-and-answer-v1")
    f = env.task.facts
    slack = WebClient(token="xoxb-test", base_url=f"{live_server.base_url}/envs/{env.id}/api/chat/", timeout=10)
    dm = slack.conversations_open(users=f["asker"])["channel"]["id"]
    project, number = f["ticket"].rsplit("-", 1)
    slack.chat_postMessage(channel=dm, text=text.format(key=f["ticket"], wrong=f"{project}-{int(number) + 1}"))
    graded_as(live_server, env, passes)
