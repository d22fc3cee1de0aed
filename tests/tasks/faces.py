"""`Face`: one env with a task reached only over HTTP, as an agent outside the process reaches
it: the products' REST faces (Slack Web API, Salesforce REST, Jira REST v3 and agile, Sheets v4
and Drive v3) with the env's API token, and the UI's HTML forms as a browser posts them. The
`face` fixture makes them on the module's agent-facing server and deletes them after the test."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from officegym.core.api_token import api_token
from officegym.gym import Gym
from rollouts import facts_of

SF = "services/data/v62.0"
JIRA = "rest/api/3"
AGILE = "rest/agile/1.0"


class Face:
    """One env with a task, reached only over HTTP: its REST faces and its UI forms."""

    def __init__(self, gym: Gym, base: str, task: str, variant: int) -> None:
        self.gym, self.base = gym, base
        self.env = gym.create(task, seed=0, variant=variant)
        self.facts: dict[str, Any] = self.env.task.facts
        self.prompt: str = self.env.task.prompt
        token = api_token(self.env.id)
        self.http = httpx.Client(base_url=f"{base}/envs/{self.env.id}/", timeout=30,
                                 headers={"Authorization": f"Bearer {token}"})
        self.browser = httpx.Client(base_url=f"{base}/envs/{self.env.id}/", timeout=30, headers={"origin": base})

    # -- Slack Web API ------------------------------------------------------------------------
    def slack(self, method: str, **args: Any) -> dict[str, Any]:
        answer = self.http.post(f"api/chat/{method}", json=args).json()
        assert answer["ok"], (method, args, answer)
        return answer

    def dm(self, user: str) -> str:
        return self.slack("conversations.open", users=user)["channel"]["id"]

    def say_dm(self, user: str, text: str) -> dict[str, Any]:
        return self.slack("chat.postMessage", channel=self.dm(user), text=text)

    def channel(self, name: str) -> str:
        cursor = ""
        while True:
            page = self.slack("conversations.list", types="public_channel,private_channel", limit=200, cursor=cursor)
            for c in page["channels"]:
                if c["name"] == name.lstrip("#"):
                    return c["id"]
            cursor = page.get("response_metadata", {}).get("next_cursor") or ""
            if not cursor:
                raise LookupError(name)

    def user_by_name(self, name: str) -> str:
        for u in self.slack("users.list", limit=1000)["members"]:
            if u.get("real_name") == name or u.get("profile", {}).get("real_name") == name:
                return u["id"]
        raise LookupError(name)

    # -- Salesforce REST ----------------------------------------------------------------------
    def sf(self, verb: str, path: str, body: Any = None, ok: tuple[int, ...] = (200, 201, 204)) -> Any:
        answer = self.http.request(verb, f"api/crm/{SF}/{path}", json=body)
        assert answer.status_code in ok, (verb, path, body, answer.status_code, answer.text[:600])
        return answer.json() if answer.content else None

    def soql(self, q: str) -> list[dict[str, Any]]:
        return self.sf("GET", "query?" + httpx.QueryParams({"q": q}).__str__())["records"]

    # -- Jira REST v3 --------------------------------------------------------------------------
    def jira(self, verb: str, path: str, body: Any = None, ok: tuple[int, ...] = (200, 201, 204), api: str = JIRA) -> Any:
        answer = self.http.request(verb, f"api/tickets/{api}/{path}", json=body)
        assert answer.status_code in ok, (verb, path, body, answer.status_code, answer.text[:600])
        return answer.json() if answer.content else None

    def jql(self, q: str, fields: str = "summary,status,assignee,priority") -> list[dict[str, Any]]:
        return self.jira("POST", "search/jql", {"jql": q, "fields": fields.split(","), "maxResults": 100})["issues"]

    def account_id(self, name: str) -> str:
        (found,) = [u for u in self.jira("GET", "user/search?" + str(httpx.QueryParams({"query": name}))) if u["displayName"] == name]
        return found["accountId"]

    def transition(self, key: str, to: str, **extra: Any) -> None:
        ways = self.jira("GET", f"issue/{key}/transitions")["transitions"]
        (way,) = [t for t in ways if t["to"]["name"].lower() == to.lower() or t["name"].lower() == to.lower()][:1]
        self.jira("POST", f"issue/{key}/transitions", {"transition": {"id": way["id"]}, **extra})

    # -- Sheets v4 and Drive v3 ----------------------------------------------------------------
    def sheets(self, verb: str, path: str, body: Any = None, ok: tuple[int, ...] = (200,)) -> Any:
        answer = self.http.request(verb, f"api/sheets/{path}", json=body)
        assert answer.status_code in ok, (verb, path, body, answer.status_code, answer.text[:600])
        return answer.json() if answer.content else None

    def values(self, sid: str, a1: str, render: str = "FORMATTED_VALUE") -> list[list[Any]]:
        return self.sheets("GET", f"v4/spreadsheets/{sid}/values/{a1}?valueRenderOption={render}").get("values", [])

    def put(self, sid: str, a1: str, rows: list[list[Any]], how: str = "USER_ENTERED") -> Any:
        return self.sheets("PUT", f"v4/spreadsheets/{sid}/values/{a1}?valueInputOption={how}", {"range": a1, "majorDimension": "ROWS", "values": rows})

    def batch(self, sid: str, *requests: dict[str, Any]) -> Any:
        return self.sheets("POST", f"v4/spreadsheets/{sid}:batchUpdate", {"requests": list(requests)})

    def find_file(self, title: str) -> str:
        q = f"name = '{title}' and trashed = false"
        (found,) = self.sheets("GET", "drive/v3/files?" + str(httpx.QueryParams({"q": q})))["files"]
        return found["id"]

    # -- grading ---------------------------------------------------------------------------------
    def grade(self) -> dict[str, Any]:
        return self.gym.grade(self.env.id)

    def full_marks(self) -> None:
        grade = self.grade()
        assert grade["passed"] and grade["reward"] == 1.0, json.dumps(grade, indent=1)

    def close(self) -> None:
        self.http.close()
        self.browser.close()
        self.gym.delete(self.env.id)


@pytest.fixture(name="face")
def face_fixture(gym: Gym, agent_url: str, sampler: Gym) -> Iterator[Callable[..., Face]]:
    made: list[Face] = []

    def make(task: str, variant: int = 0, where: Callable[[dict[str, Any]], bool] | None = None) -> Face:
        if where is not None:  # found on the sampler's cheap envs (tests/tasks/conftest.py), made once here
            variant = next((v for v in range(variant, variant + 60) if where(facts_of(sampler, task, 0, v))), -1)
            if variant < 0:
                raise LookupError(f"no variant of {task} fits")
        one = Face(gym, agent_url, task, variant)
        made.append(one)
        return one

    yield make
    for one in made:
        one.close()


def adf(text: str) -> dict[str, Any]:
    """Jira's rich text (v3) for one paragraph."""
    return {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]}


def quoted(name: str) -> str:
    return name.replace("\\", "\\\\").replace("'", "\\'")


class _Forms(HTMLParser):
    """The forms of a page with the values a browser would submit as the page stands: inputs'
    values (checked boxes only), each select's selected options, textareas' text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self._select: str | None = None
        self._multiple = False
        self._options: list[tuple[str, bool]] = []
        self._option: list[Any] | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append((a.get("action", ""), []))
        elif not self.forms:
            return
        elif tag == "input" and a.get("name") and a.get("type", "text") not in ("submit", "button", "image", "file"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.forms[-1][1].append((a["name"], a.get("value", "on" if a.get("type") == "checkbox" else "")))
        elif tag == "select" and a.get("name"):
            self._select, self._multiple, self._options = a["name"], "multiple" in a, []
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), "selected" in a, ""]
        elif tag == "textarea" and a.get("name"):
            self._textarea, self._text = a["name"], ""

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option[2] += data
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self._option is not None:
            value, chosen, label = self._option
            self._options.append((label.strip() if value is None else value, chosen))
            self._option = None
        elif tag == "select" and self._select is not None:
            chosen = [v for v, c in self._options if c] or ([] if self._multiple else [v for v, _ in self._options[:1]])
            self.forms[-1][1].extend((self._select, v) for v in chosen)
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.forms[-1][1].append((self._textarea, self._text.removeprefix("\n")))
            self._textarea = None


def form_of(page: str, action_ends: str, having: tuple[str, str] | None = None) -> tuple[str, list[tuple[str, str]]]:
    """The first form of `page` (HTML) whose action ends with `action_ends` (and that holds the
    field `having`, a (name, value) pair, when given): (action, fields)."""
    parser = _Forms()
    parser.feed(page)
    return next((action, fields) for action, fields in parser.forms if action.endswith(action_ends) and (having is None or having in fields))


def submit(client: httpx.Client, page_path: str, action_ends: str, change: dict[str, str | list[str]],
           having: tuple[str, str] | None = None) -> httpx.Response:
    """Open `page_path`, fill the form whose action ends with `action_ends` (each field of `change`
    replaced, a list for a multiple select) and post it as the browser would."""
    page = client.get(page_path)
    assert page.status_code == 200, page.text[:300]
    action, fields = form_of(page.text, action_ends, having)
    kept = [(k, v) for k, v in fields if k not in change]
    for k, v in change.items():
        kept.extend((k, x) for x in (v if isinstance(v, list) else [v]))
    return client.post(client.base_url.copy_with(path=action, query=None), content=httpx.QueryParams(kept).__str__().encode(),
                       headers={"content-type": "application/x-www-form-urlencoded"})
