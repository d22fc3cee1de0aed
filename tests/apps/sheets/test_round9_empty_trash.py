"""Drive v3's files.emptyTrash over real HTTP (DELETE files/trash): the caller's trashed files
are deleted for good, 204 with an empty body; what is not theirs, or not in the trash, stays.
The route answered files.delete's 404 "File not found: trash." before.

Folders here have no owner (My Drive's root and the company's folders): files.delete and
files.update(trashed) on one are Drive's 403 insufficientFilePermissions and write nothing."""

from __future__ import annotations

import httpx
import pytest
from googleapiclient.errors import HttpError
from sqlalchemy import select

from apps.sheets.models import Cell, DriveFile, Folder, Permission, Spreadsheet
from apps.sheets.service import SheetsService
from officegym.core.env_store import Env
from officegym.gym import Gym
from tests.apps.sheets.test_drive_round7 import OTHER, base, drive, full_spreadsheet, reason, rows_of, shared_with_actor, state


def _upload(gym: Gym, env: Env, file_id: str, owner: str, trashed: bool) -> None:
    with gym.store.session(env) as db:
        db.add(DriveFile(id=file_id, name=f"{file_id}.csv", mime_type="text/csv", owner_email=owner, folder_id="root",
                         created="2024-01-01T00:00:00.000Z", size=3, content="YSxi", trashed=trashed))


def test_empty_trash_deletes_the_callers_trashed_files_for_good(agent_url: str, gym: Gym, env: Env) -> None:
    files = drive(agent_url, env)
    trashed = full_spreadsheet(agent_url, env, "Old draft")
    kept = full_spreadsheet(agent_url, env, "Current plan")
    files.update(fileId=trashed, body={"trashed": True}).execute()
    theirs = shared_with_actor(gym, env, "Their old plan", "writer")  # in its owner's trash, not the caller's
    with gym.store.session(env) as db:
        actor = SheetsService(db).actor_email
        db.get(Spreadsheet, theirs).trashed = True
    _upload(gym, env, "upmine", actor, trashed=True)
    _upload(gym, env, "upkept", actor, trashed=False)
    _upload(gym, env, "uptheirs", OTHER, trashed=True)

    assert files.emptyTrash().execute() == ""
    assert not any(rows_of(gym, env, trashed).values()), rows_of(gym, env, trashed)
    assert all(rows_of(gym, env, kept).values()) and all(rows_of(gym, env, theirs)[k] for k in ("sheets_spreadsheets", "sheets_permissions"))
    with gym.store.session(env) as db:
        assert sorted(db.scalars(select(DriveFile.id).where(DriveFile.id.like("up%")))) == ["upkept", "uptheirs"]
        assert db.get(Spreadsheet, theirs).trashed
    with pytest.raises(HttpError) as gone:
        files.get(fileId=trashed).execute()
    assert gone.value.resp.status == 404 and reason(gone.value) == "notFound"
    # an empty trash empties again, as Drive does: 204, nothing changed
    before = state(gym, env)
    answer = httpx.delete(f"{base(agent_url, env)}/drive/v3/files/trash")
    assert answer.status_code == 204 and answer.content == b""
    assert state(gym, env) == before


def test_empty_trash_is_seen_by_the_envs_change_tracking(agent_url: str, gym: Gym, env: Env) -> None:
    """A seeded spreadsheet the caller owns, trashed and emptied: every row it held shows as deleted."""
    with gym.store.session(env) as db:
        actor = SheetsService(db).actor_email
        sid = db.scalars(select(Permission.spreadsheet_id).where(Permission.email == actor, Permission.role == "owner")
                         .order_by(Permission.spreadsheet_id)).first()
        if sid is None:
            pytest.skip("the acting person owns no seeded spreadsheet")
        cells = len(db.scalars(select(Cell.row).where(Cell.spreadsheet_id == sid)).all())
    files = drive(agent_url, env)
    files.update(fileId=sid, body={"trashed": True}).execute()
    files.emptyTrash().execute()
    deleted = [c for c in gym.store.diff(env) if c.change == "delete" and c.row.get("spreadsheet_id", c.row.get("id")) == sid]
    tables = {c.table for c in deleted}
    assert {"sheets_spreadsheets", "sheets_tabs", "sheets_permissions"} <= tables
    assert sum(c.table == "sheets_cells" for c in deleted) == cells


def test_refused_trash_and_folder_calls_are_drives_errors_and_write_nothing(agent_url: str, gym: Gym, env: Env) -> None:
    """A shared drive's trash (none here) is Drive's 404 on driveId; a folder, owned by no one
    here, is Drive's 403 to delete or trash, even with the caller's own trashed file in it."""
    with gym.store.session(env) as db:
        db.add(Folder(id="fold1", name="Reports", parent="root"))
    files = drive(agent_url, env)
    sid = full_spreadsheet(agent_url, env, "Filed report")
    files.update(fileId=sid, addParents="fold1", removeParents="root", body={"trashed": True}).execute()
    before = state(gym, env)
    with pytest.raises(HttpError) as refused:
        files.emptyTrash(driveId="0AExampleDrive").execute()
    assert refused.value.resp.status == 404 and reason(refused.value) == "notFound"
    assert refused.value.error_details[0]["location"] == "driveId"
    for folder in ("fold1", "root"):
        for call in (files.delete(fileId=folder), files.update(fileId=folder, body={"trashed": True})):
            with pytest.raises(HttpError) as refused:
                call.execute()
            assert refused.value.resp.status == 403 and reason(refused.value) == "insufficientFilePermissions"
    assert state(gym, env) == before
    assert files.get(fileId="fold1", fields="capabilities(canDelete,canTrash)").execute() == {"capabilities": {"canDelete": False, "canTrash": False}}
    files.emptyTrash().execute()  # the file in the folder goes with the caller's trash; the folder stays
    assert not any(rows_of(gym, env, sid).values())
    assert files.get(fileId="fold1", fields="id").execute() == {"id": "fold1"}
