"""Drive v3's writes on one file, over real HTTP: files.delete (gspread's del_spreadsheet) and
files.update (rename, trash, untrash, move), in Drive's shapes and errors.

Both answered 405, so an agent that made a duplicate spreadsheet could neither remove it nor
move it to the trash, and could not rename a file through Drive.

A trashed file behaves as Drive documents it: files.get and the Sheets API still open it by id,
and files.list returns it unless `q` says `trashed = false` ("This method returns all files by
default, including trashed files"); the spreadsheet lists of the MCP tools and of the Sheets
home page leave it out."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from google.auth.credentials import AnonymousCredentials
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from apps.sheets.models import (
    Cell,
    Chart,
    DriveFile,
    Folder,
    Merge,
    NamedRange,
    Permission,
    Sheet,
    Spreadsheet,
)
from apps.sheets.operations import OPERATIONS
from apps.sheets.service import SheetsService
from mcp_servers.sheets import REFERENCE
from officegym.core.env_store import Env
from officegym.gym import Gym

SHEET = "application/vnd.google-apps.spreadsheet"
GSPREAD_LIST = {"pageSize": 1000, "supportsAllDrives": True, "includeItemsFromAllDrives": True,
                "fields": "kind,nextPageToken,files(id,name,createdTime,modifiedTime)"}
TABLES = (Spreadsheet, Sheet, Cell, Merge, NamedRange, Permission, Chart, DriveFile, Folder)
OTHER = "someone.else@example.com"


def base(agent_url: str, env: Env) -> str:
    return f"{agent_url}/envs/{env.id}/api/sheets"


def drive(agent_url: str, env: Env) -> Any:
    return build("drive", "v3", static_discovery=True, credentials=AnonymousCredentials(),
                 client_options={"api_endpoint": f"{base(agent_url, env)}/drive/v3/"}).files()


def reason(error: HttpError) -> str:
    return error.error_details[0]["reason"]


def state(gym: Gym, env: Env) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the sheets app's tables, for 'nothing was written'."""
    with gym.store.session(env) as db:
        return {model.__tablename__: sorted(tuple(row) for row in db.execute(select(*model.__table__.c)).all()) for model in TABLES}


def rows_of(gym: Gym, env: Env, spreadsheet_id: str) -> dict[str, int]:
    with gym.store.session(env) as db:
        counts = {model.__tablename__: len(db.execute(select(model.__table__.c.spreadsheet_id).where(
            model.__table__.c.spreadsheet_id == spreadsheet_id)).all()) for model in (Sheet, Cell, Merge, NamedRange, Permission, Chart)}
        counts["sheets_spreadsheets"] = len(db.execute(select(Spreadsheet.id).where(Spreadsheet.id == spreadsheet_id)).all())
    return counts


def full_spreadsheet(agent_url: str, env: Env, title: str) -> str:
    """A new spreadsheet of the acting person with cells, a merge, a named range and a chart."""
    api = f"{base(agent_url, env)}/v4/spreadsheets"
    sid = httpx.post(api, json={"properties": {"title": title}}).json()["spreadsheetId"]
    wrote = httpx.put(f"{api}/{sid}/values/Sheet1!A1:B3", params={"valueInputOption": "USER_ENTERED"},
                      json={"values": [["Region", "Total"], ["East", 5], ["West", "=B2*2"]]})
    assert wrote.status_code == 200, wrote.text
    grid = {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 3, "startColumnIndex": 0, "endColumnIndex": 2}
    done = httpx.post(f"{api}/{sid}:batchUpdate", json={"requests": [
        {"mergeCells": {"range": {**grid, "startRowIndex": 4, "endRowIndex": 5}, "mergeType": "MERGE_ALL"}},
        {"addNamedRange": {"namedRange": {"name": "Totals", "range": grid}}},
        {"addChart": {"chart": {"spec": {"title": "Totals", "basicChart": {"chartType": "COLUMN"}},
                                "position": {"overlayPosition": {"anchorCell": {"sheetId": 0, "rowIndex": 6, "columnIndex": 0}}}}}}]})
    assert done.status_code == 200, done.text
    return sid


def shared_with_actor(gym: Gym, env: Env, title: str, role: str) -> str:
    """A spreadsheet someone else owns, shared with the acting person as `role`."""
    with gym.store.session(env) as db:
        actor = SheetsService(db).actor_email
        other = SheetsService(db, actor_email=OTHER)
        sid = other.spreadsheets_create({"properties": {"title": title}})["spreadsheetId"]
        db.add(Permission(spreadsheet_id=sid, email=actor, role=role, permission_id=f"p{role}"))
    return sid


def test_files_delete_removes_the_spreadsheet_and_all_it_holds(agent_url: str, gym: Gym, env: Env) -> None:
    """gspread's del_spreadsheet: DELETE files/{id}?supportsAllDrives=True; 204, empty body."""
    sid = full_spreadsheet(agent_url, env, "Q3 Forecast (copy)")
    assert all(rows_of(gym, env, sid).values()), rows_of(gym, env, sid)
    files = f"{base(agent_url, env)}/drive/v3/files"
    gone = httpx.delete(f"{files}/{sid}", params={"supportsAllDrives": True})
    assert gone.status_code == 204 and gone.content == b""
    assert not any(rows_of(gym, env, sid).values()), rows_of(gym, env, sid)
    listed = httpx.get(files, params={**GSPREAD_LIST, "q": f'mimeType="{SHEET}"'}).json()["files"]
    assert sid not in {f["id"] for f in listed} and listed
    for answer in (httpx.get(f"{files}/{sid}"), httpx.delete(f"{files}/{sid}")):
        assert answer.status_code == 404
        assert answer.json()["error"]["errors"][0]["reason"] == "notFound" and sid in answer.json()["error"]["message"]
    opened = httpx.get(f"{base(agent_url, env)}/v4/spreadsheets/{sid}")
    assert opened.status_code == 404 and opened.json()["error"]["status"] == "NOT_FOUND"
    with gym.store.session(env) as db:
        assert sid not in {f["id"] for f in SheetsService(db).files_list()}


def test_only_the_owner_deletes_or_trashes_and_a_refusal_writes_nothing(agent_url: str, gym: Gym, env: Env) -> None:
    files = f"{base(agent_url, env)}/drive/v3/files"
    writer = shared_with_actor(gym, env, "Shared plan", "writer")
    reader = shared_with_actor(gym, env, "Shared report", "reader")
    with gym.store.session(env) as db:
        hidden = SheetsService(db, actor_email=OTHER).spreadsheets_create({"properties": {"title": "Private"}})["spreadsheetId"]
    before = state(gym, env)
    refused = [
        (httpx.delete(f"{files}/{writer}"), 403, "insufficientFilePermissions"),
        (httpx.delete(f"{files}/{reader}"), 403, "insufficientFilePermissions"),
        (httpx.patch(f"{files}/{writer}", json={"trashed": True}), 403, "insufficientFilePermissions"),
        (httpx.patch(f"{files}/{reader}", json={"name": "Mine now"}), 403, "insufficientFilePermissions"),
        # all or nothing: the rename a writer may make is not made when the trash it may not is refused
        (httpx.patch(f"{files}/{writer}", json={"name": "Renamed", "trashed": True}), 403, "insufficientFilePermissions"),
        (httpx.delete(f"{files}/{hidden}"), 404, "notFound"),
        (httpx.patch(f"{files}/{hidden}", json={"name": "x"}), 404, "notFound"),
        (httpx.delete(f"{files}/no-such-file"), 404, "notFound"),
    ]
    for answer, status, why in refused:
        assert answer.status_code == status, (answer.request.method, answer.request.url, answer.text)
        error = answer.json()["error"]
        assert set(error) == {"code", "message", "errors"} and error["code"] == status and error["errors"][0]["reason"] == why
    assert refused[0][0].json()["error"]["message"] == "The user does not have sufficient permissions for this file."
    assert state(gym, env) == before
    renamed = httpx.patch(f"{files}/{writer}", params={"fields": "name,capabilities(canRename,canTrash,canDelete)"}, json={"name": "Shared plan v2"})
    assert renamed.json() == {"name": "Shared plan v2", "capabilities": {"canRename": True, "canTrash": False, "canDelete": False}}


def test_files_update_renames_trashes_and_untrashes(agent_url: str, gym: Gym, env: Env) -> None:
    files = drive(agent_url, env)
    sid = full_spreadsheet(agent_url, env, "Budget draft")
    renamed = files.update(fileId=sid, body={"name": "Budget draft (old)"}, fields="id,name,trashed").execute()
    assert renamed == {"id": sid, "name": "Budget draft (old)", "trashed": False}
    sheets_api = f"{base(agent_url, env)}/v4/spreadsheets/{sid}"
    assert httpx.get(sheets_api).json()["properties"]["title"] == "Budget draft (old)"
    assert files.update(fileId=sid, body={"trashed": True}).execute() == {"kind": "drive#file", "id": sid, "name": "Budget draft (old)", "mimeType": SHEET}
    got = files.get(fileId=sid, fields="trashed,explicitlyTrashed,capabilities/canUntrash").execute()
    assert got == {"trashed": True, "explicitlyTrashed": True, "capabilities": {"canUntrash": True}}
    # Google's Sheets API still opens a trashed spreadsheet by id
    assert httpx.get(sheets_api).status_code == 200

    def ids(q: str | None) -> set[str]:
        return {f["id"] for f in files.list(q=q, fields="files(id,trashed)").execute()["files"]} if q else \
            {f["id"] for f in files.list(fields="files(id,trashed)").execute()["files"]}

    assert sid not in ids("trashed = false") and sid not in ids(f"mimeType = '{SHEET}' and trashed = false")
    assert ids("trashed = true") == {sid} and sid in ids("trashed != false")
    assert sid in ids(None), "Drive's files.list returns trashed files unless q leaves them out"
    assert sid not in ids("fullText contains 'Region' and trashed = false") and sid in ids("fullText contains 'Region'")
    listed = httpx.get(f"{base(agent_url, env)}/drive/v3/files", params={**GSPREAD_LIST, "q": f'mimeType="{SHEET}" and trashed = false'})
    assert sid not in {f["id"] for f in listed.json()["files"]}
    with gym.store.session(env) as db:
        service = SheetsService(db)
        assert sid not in {f["id"] for f in service.files_list()}
        assert sid not in {f["id"] for f in service.files_search("Budget draft")}
    assert files.update(fileId=sid, body={"trashed": False}, fields="trashed").execute() == {"trashed": False}
    assert sid in ids("trashed = false")
    with gym.store.session(env) as db:
        assert sid in {f["id"] for f in SheetsService(db).files_list()}
    # the reference server has no delete or trash tool, and its list and search keep their own arguments
    tools = {t.name: t for t in REFERENCE.tools}
    assert not [name for name in tools if "trash" in name or "delete_spreadsheet" in name]
    assert set(tools["list_spreadsheets"].arg_names(OPERATIONS["sheets.files.list"])) == {"folder_id"}
    assert set(tools["search_spreadsheets"].arg_names(OPERATIONS["sheets.files.search"])) == {"query", "max_results"}


def test_files_update_refuses_what_it_cannot_write_and_writes_nothing(agent_url: str, gym: Gym, env: Env) -> None:
    files = drive(agent_url, env)
    sid = full_spreadsheet(agent_url, env, "Headcount")
    before = state(gym, env)
    cases = [({"id": "another"}, 403, "fieldNotWritable"), ({"name": "x", "size": "12"}, 403, "fieldNotWritable"),
             ({"name": "x", "parents": ["elsewhere"]}, 403, "fieldNotWritable"), ({"name": "x", "colour": "red"}, 400, "badRequest"),
             ({"name": ""}, 400, "invalid"), ({"name": "x" * 300}, 400, "invalid"), ({"trashed": "yes"}, 400, "invalid"),
             ({"name": "x", "description": "kept nowhere"}, 400, "invalid")]
    for body, status, why in cases:
        with pytest.raises(HttpError) as bad:
            files.update(fileId=sid, body=body).execute()
        assert bad.value.resp.status == status and reason(bad.value) == why, (body, bad.value)
    with pytest.raises(HttpError) as nowhere:
        files.update(fileId=sid, addParents="no-such-folder", removeParents="root", body={"name": "x"}).execute()
    assert nowhere.value.resp.status == 404 and reason(nowhere.value) == "notFound"
    with pytest.raises(HttpError) as two:
        files.update(fileId=sid, addParents="root,root").execute()
    assert two.value.resp.status == 403 and reason(two.value) == "cannotAddParent"
    not_object = httpx.patch(f"{base(agent_url, env)}/drive/v3/files/{sid}", json=["name"])
    assert not_object.status_code == 400 and not_object.json()["error"]["errors"][0]["reason"] == "badRequest"
    assert state(gym, env) == before
    # a File resource read back and sent again changes nothing it cannot write
    same = files.get(fileId=sid, fields="kind,id,name,mimeType,trashed").execute()
    assert files.update(fileId=sid, body={**same, "name": "Headcount 2026"}, fields="id,name").execute() == {"id": sid, "name": "Headcount 2026"}


def test_files_update_moves_a_file_between_folders(agent_url: str, gym: Gym, env: Env) -> None:
    files = drive(agent_url, env)
    sid = full_spreadsheet(agent_url, env, "To file away")
    with gym.store.session(env) as db:
        folder = db.scalars(select(Folder.id).order_by(Folder.id)).first()
    if folder is None:
        pytest.skip("no folder in this company")
    moved = files.update(fileId=sid, addParents=folder, removeParents="root", fields="parents").execute()
    assert moved == {"parents": [folder]}
    assert sid in {f["id"] for f in files.list(q=f"'{folder}' in parents").execute()["files"]}


def test_an_uploaded_file_is_renamed_trashed_and_deleted_by_its_owner(agent_url: str, gym: Gym) -> None:
    env = gym.create("sheets/answer-from-xlsx-v1", variant=0)
    try:
        files = drive(agent_url, env)
        upload = env.task.facts["file_id"]
        with gym.store.session(env) as db:
            row = db.get(DriveFile, upload)
            owner, actor = row.owner_email.lower(), SheetsService(db).actor_email
            if owner != actor:  # the acting person's own upload, for this test
                row.owner_email = actor
        renamed = files.update(fileId=upload, body={"name": "invoices.xlsx", "trashed": True}, fields="name,trashed,originalFilename").execute()
        assert renamed == {"name": "invoices.xlsx", "trashed": True, "originalFilename": "invoices.xlsx"}
        assert files.get(fileId=upload, fields="name,trashed").execute() == {"name": "invoices.xlsx", "trashed": True}
        assert files.delete(fileId=upload).execute() == ""
        with pytest.raises(HttpError) as gone:
            files.get(fileId=upload).execute()
        assert gone.value.resp.status == 404 and reason(gone.value) == "notFound"
    finally:
        gym.delete(env.id)


def test_a_company_upload_someone_else_owns_cannot_be_deleted(agent_url: str, gym: Gym) -> None:
    env = gym.create("sheets/answer-from-xlsx-v1", variant=0)
    try:
        upload = env.task.facts["file_id"]
        with gym.store.session(env) as db:
            db.get(DriveFile, upload).owner_email = OTHER
        before = state(gym, env)
        with pytest.raises(HttpError) as refused:
            drive(agent_url, env).delete(fileId=upload).execute()
        assert refused.value.resp.status == 403 and reason(refused.value) == "insufficientFilePermissions"
        assert state(gym, env) == before
    finally:
        gym.delete(env.id)



ODD_BODIES = [{}, {"name": None}, {"name": 5}, {"name": ["a"]}, {"trashed": None}, {"trashed": 1}, {"trashed": "true"},
              {"name": "\u00e9\U0001f642"}, {"name": " "}, {"kind": "drive#folder"}, {"mimeType": "text/csv"}, {"owners": []},
              {"capabilities": {"canDelete": True}}, {"parents": []}, {"": 1}, {"name": "' OR 1=1 --"}, [], "x", 7, None]


@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_drive_writes_answer_hostile_input_with_drives_errors(agent_url: str, gym: Gym, env: Env, data: st.DataObject) -> None:
    """Odd ids, bodies, `fields` and parents: never a 5xx, every error in Drive's shape and nothing written by it."""
    files = f"{base(agent_url, env)}/drive/v3/files"
    with gym.store.session(env) as db:
        mine = SheetsService(db).files_list()[0]["id"]
    file_id = data.draw(st.sampled_from([mine, "root", "nope", "1" * 44, "%20", "a" * 200, "\u00e9"]), label="file")
    params = data.draw(st.dictionaries(st.sampled_from(["fields", "addParents", "removeParents", "supportsAllDrives"]),
                                       st.sampled_from(["", "*", "id,", "(", "name", "root", "root,root", "nope", "a" * 3000, "true"]),
                                       max_size=2), label="params")
    method = data.draw(st.sampled_from(["PATCH", "DELETE"]), label="method")
    body = data.draw(st.sampled_from(ODD_BODIES), label="body") if method == "PATCH" else None
    before = state(gym, env)
    got = httpx.request(method, f"{files}/{file_id}", params=params, **({"json": body} if method == "PATCH" else {}))
    assert got.status_code in (200, 204, 400, 403, 404), (got.status_code, got.text[:300])
    if got.status_code >= 400:
        error = got.json()["error"]
        assert set(error) == {"code", "message", "errors"} and error["code"] == got.status_code and error["errors"][0]["reason"], error
        assert state(gym, env) == before
