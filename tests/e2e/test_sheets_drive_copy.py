"""Converting an uploaded .xlsx through the REST face the way Drive does it: Google's own client,
`drive.files().copy(fileId=…, body={"mimeType": "application/vnd.google-apps.spreadsheet"})`,
makes a Google Sheet the Sheets client then reads, with the file's formulas computed."""

from __future__ import annotations

from typing import Any

import pytest
from google.auth.credentials import AnonymousCredentials
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet"


def client(live_server: Any, env_id: str, api: str, version: str) -> Any:
    """Google's client for one API, pointed at the env (Drive's routes sit under drive/v3/)."""
    under = "drive/v3/" if api == "drive" else ""
    return build(api, version, static_discovery=True, credentials=AnonymousCredentials(),
                 client_options={"api_endpoint": f"{live_server.base_url}/envs/{env_id}/api/sheets/{under}"})


def test_drive_copy_converts_the_upload_and_the_sheets_client_reads_it(live_server: Any) -> None:
    env = live_server.gym.create("sheets/answer-from-xlsx-v1", variant=0)
    try:
        drive = client(live_server, env.id, "drive", "v3").files()
        made = drive.copy(fileId=env.task.facts["file_id"], body={"mimeType": GOOGLE_SHEET, "name": "Converted invoices"}).execute()
        assert made["mimeType"] == GOOGLE_SHEET and made["name"] == "Converted invoices" and made["id"] != env.task.facts["file_id"]
        values = client(live_server, env.id, "sheets", "v4").spreadsheets().values()
        rows = values.get(spreadsheetId=made["id"], range="Invoices!A1:G2", valueRenderOption="UNFORMATTED_VALUE").execute()["values"]
        assert rows[0][5] == "Amount" and rows[1][5] == rows[1][3] * rows[1][4]  # Seats × Unit price, computed on conversion
        with pytest.raises(HttpError) as unsupported:
            drive.copy(fileId=env.task.facts["file_id"], body={"name": "plain copy"}).execute()
        assert unsupported.value.resp.status == 400 and GOOGLE_SHEET in str(unsupported.value)
        with pytest.raises(HttpError) as missing:
            drive.copy(fileId="1NoSuchUploadAnywhere", body={"mimeType": GOOGLE_SHEET}).execute()
        assert missing.value.resp.status == 404
    finally:
        live_server.gym.delete(env.id)
