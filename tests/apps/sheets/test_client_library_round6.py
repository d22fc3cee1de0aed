"""Drive's side of the sheets REST face as Google's clients call it, over real HTTP.

gspread opens a spreadsheet by title with Drive's files.list (`q='mimeType="…" and name = "…"'`,
`fields`, `pageSize`, `supportsAllDrives`) and reads `["files"]`; its copy() lists the source
file's comments first. google-api-python-client's drive v3 sends the same files.list with
single-quoted values. These answered a bare list and a 404, so `gspread.open("Sales Forecast
FY2026")` and `gspread.copy(upload_id)` failed before any work was done."""

from __future__ import annotations


import httpx
import pytest
from google.auth.credentials import AnonymousCredentials
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

from officegym.core.env_store import Env

SHEET = "application/vnd.google-apps.spreadsheet"
FORECAST = "Sales Forecast FY2026"


def drive(agent_url: str, env: Env) -> object:
    return build("drive", "v3", static_discovery=True, credentials=AnonymousCredentials(),
                 client_options={"api_endpoint": f"{agent_url}/envs/{env.id}/api/sheets/drive/v3/"}).files()


def test_gspread_open_by_title_finds_the_spreadsheet(agent_url: str, env: Env) -> None:
    """The exact request gspread 6's Client.open(title) sends, and what it reads of the answer."""
    got = httpx.get(f"{agent_url}/envs/{env.id}/api/sheets/drive/v3/files", params={
        "q": f'mimeType="{SHEET}" and name = "{FORECAST}"', "pageSize": 1000, "supportsAllDrives": True,
        "includeItemsFromAllDrives": True, "fields": "kind,nextPageToken,files(id,name,createdTime,modifiedTime)"})
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["kind"] == "drive#fileList" and "nextPageToken" not in body
    assert [f["name"] for f in body["files"]] == [FORECAST]
    sid = body["files"][0]["id"]
    opened = httpx.get(f"{agent_url}/envs/{env.id}/api/sheets/v4/spreadsheets/{sid}").json()
    assert opened["properties"]["title"] == FORECAST


def test_drive_files_list_reads_drives_query_language(agent_url: str, env: Env) -> None:
    files = drive(agent_url, env)
    named = files.list(q=f"name = '{FORECAST}' and mimeType = '{SHEET}' and trashed = false", fields="files(id, name)").execute()
    assert [f["name"] for f in named["files"]] == [FORECAST]
    assert files.list(q=f"name = '{FORECAST.lower()}'").execute()["files"] == [], "name = is exact"
    assert files.list(q=f"name = '{FORECAST}' and trashed = true").execute()["files"] == []
    either = files.list(q="name contains 'Budget' or name contains 'Support'").execute()["files"]
    assert sorted(f["name"] for f in either) == ["Budget FY2026", "Support Metrics"]
    everything = files.list(q=f"mimeType = '{SHEET}'").execute()["files"]
    assert FORECAST in {f["name"] for f in everything} and len(everything) >= 5
    assert all(f["mimeType"] == SHEET and f["kind"] == "drive#file" for f in everything)
    others = files.list(q=f"mimeType = '{SHEET}' and not name contains 'Forecast'").execute()["files"]
    assert {f["name"] for f in others} == {f["name"] for f in everything} - {FORECAST}
    # a word inside the sheets (a deal stage on the forecast's Pipeline tab), as Drive's full-text search finds it
    inside = files.list(q="fullText contains 'Negotiation/Review'").execute()["files"]
    assert FORECAST in {f["name"] for f in inside}


def test_drive_files_list_pages_and_refuses_what_it_cannot_read(agent_url: str, env: Env) -> None:
    files = drive(agent_url, env)
    first = files.list(q=f"mimeType = '{SHEET}'", pageSize=2).execute()
    assert len(first["files"]) == 2 and first["nextPageToken"]
    rest = files.list(q=f"mimeType = '{SHEET}'", pageSize=1000, pageToken=first["nextPageToken"]).execute()
    every = files.list(q=f"mimeType = '{SHEET}'").execute()["files"]
    assert [f["id"] for f in first["files"] + rest["files"]] == [f["id"] for f in every]
    with pytest.raises(HttpError) as bad:
        files.list(q="colour = 'red'").execute()
    assert bad.value.resp.status == 400 and "colour" in str(bad.value)
    with pytest.raises(HttpError) as content_or:
        files.list(q="fullText contains 'Renewal' or name contains 'Budget'").execute()
    assert content_or.value.resp.status == 400 and "fullText" in str(content_or.value)
    with pytest.raises(HttpError) as unclosed:
        files.list(q="(name = 'x'").execute()
    assert unclosed.value.resp.status == 400


def test_comments_list_answers_so_gspread_copy_can_run(agent_url: str, env: Env) -> None:
    """gspread's copy() (copy_comments=True by default) lists the source's comments first."""
    sid = drive(agent_url, env).list(q=f"name = '{FORECAST}'").execute()["files"][0]["id"]
    got = httpx.get(f"{agent_url}/envs/{env.id}/api/sheets/drive/v3/files/{sid}/comments",
                    params={"fields": "comments/content,comments/anchor,nextPageToken", "includeDeleted": False, "pageSize": 100, "pageToken": ""})
    assert got.status_code == 200 and got.json() == {"kind": "drive#commentList", "comments": []}


def test_a_bare_listing_is_drives_file_list(agent_url: str, env: Env) -> None:
    """GET /drive/v3/files with no parameters answers as Drive does (a client reading
    ["files"] of it failed on a plain list)."""
    listed = httpx.get(f"{agent_url}/envs/{env.id}/api/sheets/drive/v3/files").json()
    assert listed["kind"] == "drive#fileList" and FORECAST in [f["name"] for f in listed["files"]]
    assert all(f["mimeType"] == "application/vnd.google-apps.spreadsheet" for f in listed["files"])
