"""Drive v3 as its clients read a file, over real HTTP with google-api-python-client: files.get
(metadata with `fields`), files.get_media (an uploaded .xlsx's bytes), files.export (a Google
Sheet as .xlsx or CSV bytes; Drive's 400 for a conversion not offered, its 403
fileNotExportable for an uploaded file) and permissions.list, in Drive's shapes and errors.

These were a 404, a 404, a JSON body with base64 whatever was asked, and a 405, so the natural
way to read the .xlsx in sheets/answer-from-xlsx-v1 (download it, open it with openpyxl)
failed before any work was done."""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections import defaultdict
from datetime import datetime
from typing import Any

import httpx
import pytest
from google.auth.credentials import AnonymousCredentials
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseDownload
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook
from slack_sdk import WebClient

from officegym.core.env_store import Env
from officegym.gym import Gym

TASK = "sheets/answer-from-xlsx-v1"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SHEET = "application/vnd.google-apps.spreadsheet"
FORECAST = "Sales Forecast FY2026"


def drive(agent_url: str, env: Env) -> Any:
    return build("drive", "v3", static_discovery=True, credentials=AnonymousCredentials(),
                 client_options={"api_endpoint": f"{agent_url}/envs/{env.id}/api/sheets/drive/v3/"})


def reason(error: HttpError) -> str:
    """Drive's error reason ({error: {code, message, errors: [{domain, reason, message}]}})."""
    return error.error_details[0]["reason"]


@pytest.fixture
def task_env(gym: Gym) -> Any:
    env = gym.create(TASK, variant=0)
    yield env
    gym.delete(env.id)


def forecast_id(files: Any) -> str:
    return files.list(q=f"name = '{FORECAST}'").execute()["files"][0]["id"]


def test_files_get_answers_metadata_with_fields(agent_url: str, task_env: Env) -> None:
    files = drive(agent_url, task_env).files()
    upload_id = task_env.task.facts["file_id"]
    plain = files.get(fileId=upload_id).execute()
    assert plain == {"kind": "drive#file", "id": upload_id, "name": task_env.task.facts["file"], "mimeType": XLSX}
    picked = files.get(fileId=upload_id, fields="id,name,size,md5Checksum,owners(emailAddress),parents,webViewLink",
                       supportsAllDrives=True).execute()
    assert set(picked) == {"id", "name", "size", "md5Checksum", "owners", "parents", "webViewLink"}
    data = files.get_media(fileId=upload_id).execute()
    assert picked["size"] == str(len(data)) and picked["md5Checksum"] == hashlib.md5(data).hexdigest()
    assert picked["owners"] == [{"emailAddress": picked["owners"][0]["emailAddress"]}] and "@" in picked["owners"][0]["emailAddress"]
    assert picked["parents"] == ["root"] and upload_id in picked["webViewLink"]

    sid = forecast_id(files)
    sheet = files.get(fileId=sid, fields="*").execute()
    assert sheet["mimeType"] == SHEET and sheet["name"] == FORECAST and sheet["capabilities"]["canDownload"] is True
    assert XLSX in sheet["exportLinks"] and "size" not in sheet
    assert files.get(fileId=sid, fields="capabilities/canEdit").execute() == {"capabilities": {"canEdit": True}}

    with pytest.raises(HttpError) as missing:
        files.get(fileId="1NoSuchFileAnywhere").execute()
    assert missing.value.resp.status == 404 and reason(missing.value) == "notFound" and "1NoSuchFileAnywhere" in str(missing.value)
    with pytest.raises(HttpError) as bad_fields:
        files.get(fileId=upload_id, fields="id,colour").execute()
    assert bad_fields.value.resp.status == 400 and reason(bad_fields.value) == "invalidParameter" and "colour" in str(bad_fields.value)


def test_get_media_downloads_the_uploaded_bytes(agent_url: str, task_env: Env) -> None:
    files = drive(agent_url, task_env).files()
    upload_id = task_env.task.facts["file_id"]
    whole = httpx.get(f"{agent_url}/envs/{task_env.id}/api/sheets/drive/v3/files/{upload_id}", params={"alt": "media"})
    assert whole.status_code == 200 and whole.headers["content-type"] == XLSX
    assert load_workbook(io.BytesIO(whole.content)).sheetnames == ["Invoices", "Notes"]
    # in chunks, as MediaIoBaseDownload asks with Range headers
    out = io.BytesIO()
    download = MediaIoBaseDownload(out, files.get_media(fileId=upload_id), chunksize=1000)
    done, rounds = False, 0
    while not done:
        _, done = download.next_chunk()
        rounds += 1
    assert out.getvalue() == whole.content and rounds == -(-len(whole.content) // 1000)
    # a Google Sheet has no bytes to download: Drive says to export it
    with pytest.raises(HttpError) as sheet:
        files.get_media(fileId=forecast_id(files)).execute()
    assert sheet.value.resp.status == 403 and reason(sheet.value) == "fileNotDownloadable"


def test_export_answers_the_asked_format(agent_url: str, task_env: Env) -> None:
    files = drive(agent_url, task_env).files()
    sid = forecast_id(files)
    xlsx = files.export(fileId=sid, mimeType=XLSX).execute()
    assert load_workbook(io.BytesIO(xlsx)).sheetnames[0] == "Pipeline"
    text = files.export(fileId=sid, mimeType="text/csv").execute().decode()
    rows = list(csv.reader(io.StringIO(text)))
    shown = httpx.get(f"{agent_url}/envs/{task_env.id}/api/sheets/v4/spreadsheets/{sid}/values/Pipeline").json()["values"]
    assert rows[0] == shown[0] and rows[1][:len(shown[1])] == shown[1]  # the first tab, as displayed
    raw = httpx.get(f"{agent_url}/envs/{task_env.id}/api/sheets/drive/v3/files/{sid}/export", params={"mimeType": "text/csv"})
    assert raw.headers["content-type"].startswith("text/csv")
    with pytest.raises(HttpError) as pdf:
        files.export(fileId=sid, mimeType="application/pdf").execute()
    assert pdf.value.resp.status == 400 and reason(pdf.value) == "badRequest" and "conversion is not supported" in str(pdf.value)
    with pytest.raises(HttpError) as upload:
        files.export(fileId=task_env.task.facts["file_id"], mimeType="text/csv").execute()
    assert upload.value.resp.status == 403 and reason(upload.value) == "fileNotExportable" and "alt=media" in str(upload.value)
    with pytest.raises(HttpError) as missing:
        files.export(fileId="1NoSuchFileAnywhere", mimeType=XLSX).execute()
    assert missing.value.resp.status == 404 and reason(missing.value) == "notFound"


def test_permissions_list_in_drives_shape(agent_url: str, task_env: Env) -> None:
    service = drive(agent_url, task_env)
    sid = forecast_id(service.files())
    listed = service.permissions().list(fileId=sid).execute()
    assert listed["kind"] == "drive#permissionList" and listed["permissions"]
    assert all(set(p) == {"kind", "id", "type", "role"} and p["kind"] == "drive#permission" for p in listed["permissions"])
    detailed = service.permissions().list(fileId=sid, fields="permissions(emailAddress,role,type)").execute()["permissions"]
    assert "owner" in {p["role"] for p in detailed} and all(p["type"] == "user" and "@" in p["emailAddress"] for p in detailed)
    upload = service.permissions().list(fileId=task_env.task.facts["file_id"], fields="permissions(type,role,emailAddress,domain)").execute()
    assert {(p["type"], p["role"]) for p in upload["permissions"]} == {("user", "owner"), ("domain", "reader")}
    with pytest.raises(HttpError) as missing:
        service.permissions().list(fileId="1NoSuchFileAnywhere").execute()
    assert missing.value.resp.status == 404 and reason(missing.value) == "notFound"


def test_answer_from_xlsx_solved_by_downloading_the_file(agent_url: str, gym: Gym) -> None:
    """The whole task with the products' own clients: the file id from the link in the DM,
    the .xlsx downloaded with get_media and read with openpyxl, the answer posted in the DM.
    One variant of each question: a month's, the largest, a product's, overdue and unpaid totals."""
    solved: set[str] = set()
    for variant in range(40):
        env = gym.create(TASK, variant=variant)
        try:
            if env.task.facts["question"] in solved:
                continue
            slack = WebClient(token="xoxb-test", base_url=f"{agent_url}/envs/{env.id}/api/chat/", timeout=10)
            asker = env.task.facts["asker"]
            dm = slack.conversations_open(users=asker)["channel"]["id"]
            asked = next(m for m in slack.conversations_history(channel=dm)["messages"] if m["user"] == asker)
            file_id = re.search(r"/file/d/([\w-]+)", asked["text"]).group(1)
            data = drive(agent_url, env).files().get_media(fileId=file_id).execute()
            sheet = load_workbook(io.BytesIO(data))["Invoices"]
            rows = [[c.value for c in line] for line in sheet.iter_rows(min_row=2) if str(line[0].value or "").startswith("INV-")]
            amounts = [seats * price for _, _, _, seats, price, _, _ in rows]  # Amount is =D*E, with no value stored
            facts = env.task.facts
            by_kind: dict[str, float] = defaultdict(float)
            for (_, day, product, _, _, _, status), amount in zip(rows, amounts):
                by_kind["unpaid"] += amount if status != "Paid" else 0
                by_kind["overdue"] += amount if status == "Overdue" else 0
                by_kind["product"] += amount if product == facts["subject"] else 0
                by_kind["month"] += amount if isinstance(day, datetime) and day.strftime("%B %Y") == facts["subject"] else 0
            by_kind["largest"] = max(amounts)
            slack.chat_postMessage(channel=dm, text=f"It comes to ${int(by_kind[facts['question']]):,}.")
            graded = gym.grade(env.id)
            assert graded["reward"] == 1.0, graded
            solved.add(facts["question"])
        finally:
            gym.delete(env.id)
        if len(solved) == 5:
            break
    assert solved == {"unpaid", "overdue", "product", "month", "largest"}


@pytest.fixture(scope="module")
def shared_env(gym: Gym) -> Any:
    env = gym.create(TASK, variant=0)
    yield env
    gym.delete(env.id)


ODD = ["", " ", "*", "id,", "id,,name", "(", ")", "files(id", "owners(", "a" * 3000, "permissions(emailAddress)", "capabilities/canEdit",
       "\u00e9", "id/name/kind", "*,owners(emailAddress)", "' OR 1=1 --", "%00", "\U0001f642", "1e400", "NaN"]


@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_drive_file_routes_answer_hostile_input_with_drives_errors(agent_url: str, gym: Gym, shared_env: Env, data: st.DataObject) -> None:
    """Odd ids, `fields`, MIME types and Range headers: never a 5xx, every error in Drive's shape, nothing written."""
    base = f"{agent_url}/envs/{shared_env.id}/api/sheets/drive/v3/files"
    ids = [shared_env.task.facts["file_id"], "root", "nope", "1" * 44, "%20", "..", "a" * 200, "\u00e9"]
    file_id = data.draw(st.sampled_from(ids), label="file")
    route = data.draw(st.sampled_from(["", "/export", "/permissions"]), label="route")
    params = data.draw(st.dictionaries(st.sampled_from(["fields", "mimeType", "alt", "supportsAllDrives", "pageSize"]),
                                       st.sampled_from([*ODD, "media", "json", XLSX, "text/csv", "application/pdf", "true"]), max_size=3), label="params")
    headers = data.draw(st.sampled_from([{}, {"range": "bytes=0-9"}, {"range": "bytes=-5"}, {"range": "bytes=9-0"}, {"range": "bytes=99999999-"},
                                         {"range": "bytes=0-1,5-6"}, {"range": "items=0-1"}, {"range": "bytes=" + "9" * 400 + "-"}]), label="headers")
    before = len(gym.events(shared_env.id))
    got = httpx.get(f"{base}/{file_id}{route}", params=params, headers=headers)
    assert got.status_code in (200, 206, 400, 403, 404, 416), (got.status_code, got.text[:300])
    if got.status_code >= 400 and got.status_code != 416 and got.headers.get("content-type", "").startswith("application/json"):
        error = got.json()["error"]
        assert set(error) == {"code", "message", "errors"} and error["code"] == got.status_code and error["errors"][0]["reason"], error
    assert len(gym.events(shared_env.id)) == before


def test_files_list_answers_the_fields_asked(agent_url: str, task_env: Env) -> None:
    files = drive(agent_url, task_env).files()
    plain = files.list(q=f"name = '{FORECAST}'").execute()
    assert set(plain) == {"kind", "incompleteSearch", "files"} and set(plain["files"][0]) == {"kind", "id", "name", "mimeType"}
    picked = files.list(q=f"name = '{FORECAST}'", fields="files(id)").execute()
    assert picked == {"files": [{"id": plain["files"][0]["id"]}]}
    with pytest.raises(HttpError) as bad:
        files.list(fields="files(id,colour)").execute()
    assert bad.value.resp.status == 400 and reason(bad.value) == "invalidParameter" and "colour" in str(bad.value)
