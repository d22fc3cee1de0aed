"""sheets/answer-from-xlsx-v1: the uploaded Excel file reaches the agent only through its tools
(import_xlsx with the file id from the link converts it, its formulas computed), the upload is
the same bytes on every build, and the answer in chat is judged as the set of amounts it names."""

from __future__ import annotations

import base64
import io
import zipfile

import pytest
from openpyxl import load_workbook

from officegym.gym import Gym
from seed_data.company import generate_company
from tasks.base import ToolError
from tasks.sheets._upload import upload
from tests.apps.sheets.task_helpers import act, solve

TASK = "sheets/answer-from-xlsx-v1"


def test_the_upload_is_deterministic_and_its_amounts_are_formulas_without_cached_values() -> None:
    company = generate_company(0, "small")
    customer = company.customers[3]
    first, again = upload(company, customer, 0), upload(company, customer, 0)
    assert first.content == again.content
    data = base64.b64decode(first.content)
    stamp = company.now.replace(tzinfo=None, microsecond=0).isoformat() + "Z"
    assert f">{stamp}</dcterms:modified>".encode() in zipfile.ZipFile(io.BytesIO(data)).read("docProps/core.xml")  # not the wall clock
    assert {i.date_time for i in zipfile.ZipFile(io.BytesIO(data)).infolist()} == {(2020, 1, 1, 0, 0, 0)}
    sheet = load_workbook(io.BytesIO(data), data_only=True)["Invoices"]
    assert sheet["F2"].value is None  # no cached value: only a reader that computes it sees the number
    assert load_workbook(io.BytesIO(base64.b64decode(first.content)))["Invoices"]["F2"].value == "=D2*E2"


def test_converting_the_upload_by_file_id_gives_a_sheet_with_computed_amounts(gym: Gym) -> None:
    env = gym.create(TASK, variant=0)
    try:
        file_id = env.task.facts["file_id"]
        made, = act(gym, env.id, ("import_xlsx", {"file_id": file_id}))
        assert made["title"] == env.task.facts["file"].removesuffix(".xlsx") and made["sheets"] == ["Invoices", "Notes"]
        rows, = act(gym, env.id, ("get_sheet_data", {"spreadsheet_id": made["spreadsheetId"], "sheet": "Invoices", "range": "A1:G3"}))
        header, first = rows["valueRanges"][0]["values"][:2]
        assert header[5] == "Amount" and first[5] == f"${int(first[3]) * int(first[4].strip('$').replace(',', '')):,}"
        with pytest.raises(ToolError, match="File not found"):
            act(gym, env.id, ("import_xlsx", {"file_id": "1NoSuchUploadAnywhere"}))
        with pytest.raises(ToolError, match="exactly one of content_base64"):
            act(gym, env.id, ("import_xlsx", {"file_id": file_id, "content_base64": "UEsDBA=="}))
        assert gym.grade(env.id)["reward"] == 0.0  # converting is a step on the way, not the answer
    finally:
        gym.delete(env.id)


def test_the_answer_is_the_asked_figure_alone_in_any_common_form(gym: Gym) -> None:
    env = gym.create(TASK, variant=1)
    try:
        f = env.task.facts
        value = f["answer"]
        opened, = act(gym, env.id, ("slack_open_dm", {"users": f["asker"]}))
        say = lambda text: act(gym, env.id, ("slack_post_message", {"channel_id": opened["channel"]["id"], "text": text}))  # noqa: E731
        say(f"Looking at it now, about ${value + 1000:,}?")
        assert gym.grade(env.id)["passed"] is False
        gym.delete(env.id)
        env = gym.create(TASK, variant=1)
        solve(gym, env.id, env.task.alternatives[0])  # "12.345k USD" in a thread under the question
        grade = gym.grade(env.id)
        assert grade["passed"] is True and grade["reward"] == 1.0, grade
    finally:
        gym.delete(env.id)
