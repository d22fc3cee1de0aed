"""The Sheets API v4 face: `/envs/{env_id}/api/sheets/v4/spreadsheets/…`, Google's routes,
query parameters, bodies and error shape (`{"error": {"code", "message", "status"}}` with the
HTTP status), so `googleapiclient.discovery.build("sheets", "v4", client_options={"api_endpoint":
".../api/sheets/"})` works unchanged. Drive v3's routes (files.list, files.get with alt=media,
files.export, files.copy, files.delete, files.emptyTrash, files.update, permissions) sit under `/drive/v3/…` in Drive's shapes, with Drive's
errors."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request, Response

from apps.sheets import drive_query
from apps.sheets.drive import MAX_SEARCH
from apps.sheets.errors import CODE_HTTP, SheetsError, error_body
from apps.sheets.operations import OPERATIONS
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.web import EnvRoute, current_env
from officegym.faces.rest import BadBody, JSONResponse, call, json_body, url_path

router = APIRouter(route_class=EnvRoute)


def _query(request: Request) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for key, value in request.query_params.multi_items():
        if key == "ranges":
            args.setdefault("ranges", []).append(value)
        elif key not in ("alt", "prettyPrint", "key", "fields", "$.xgafv"):
            args[key] = value
    return args


async def _run(request: Request, env: Env, name: str, args: dict[str, Any], *, body_into: str | None = None,
               body_fields: bool = False, shape: Callable[[Any], Any] | None = None, drive: bool = False) -> Response:
    op = OPERATIONS[name]
    try:
        if request.method in ("POST", "PUT", "PATCH"):
            body = await json_body(request)
            if body is not None and not isinstance(body, dict):
                raise BadBody("the JSON body must be an object")
            body = body or {}
            if body_fields:
                args = {**body, **args}
            if body_into == "resource":
                args["resource"] = body
            elif body_into == "values":
                args.setdefault("values", body.get("values", []))
                if "majorDimension" in body:
                    args.setdefault("majorDimension", body["majorDimension"])
        result = call(request, env, OPERATIONS, op, args, route=f"{request.method} {url_path(request).split('/api/sheets', 1)[-1]}")
        if shape is not None:
            result = shape(result)
    except BadBody as bad:
        error = SheetsError("INVALID_ARGUMENT", f"Invalid JSON payload received. {bad}")
        return JSONResponse((drive_error_body if drive else error_body)(error), status_code=400)
    except AppError as error:
        return JSONResponse((drive_error_body if drive else error_body)(error), status_code=CODE_HTTP.get(error.code, 400))
    return result if isinstance(result, Response) else JSONResponse(result)


@router.post("/v4/spreadsheets")
async def create(request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.spreadsheets.create", _query(request), body_fields=True)


@router.post("/v4/spreadsheets/{spreadsheet_id}:batchUpdate")
async def batch_update(spreadsheet_id: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.spreadsheets.batchUpdate", {**_query(request), "spreadsheetId": spreadsheet_id}, body_fields=True)


@router.get("/v4/spreadsheets/{spreadsheet_id}/values:batchGet")
async def values_batch_get(spreadsheet_id: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.values.batchGet", {**_query(request), "spreadsheetId": spreadsheet_id})


@router.post("/v4/spreadsheets/{spreadsheet_id}/values:batchUpdate")
async def values_batch_update(spreadsheet_id: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.values.batchUpdate", {**_query(request), "spreadsheetId": spreadsheet_id}, body_fields=True)


@router.post("/v4/spreadsheets/{spreadsheet_id}/values:batchClear")
async def values_batch_clear(spreadsheet_id: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.values.batchClear", {**_query(request), "spreadsheetId": spreadsheet_id}, body_fields=True)


@router.post("/v4/spreadsheets/{spreadsheet_id}/values/{range}:append")
async def values_append(spreadsheet_id: str, range: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.values.append", {**_query(request), "spreadsheetId": spreadsheet_id, "range": range}, body_into="values")


@router.post("/v4/spreadsheets/{spreadsheet_id}/values/{range}:clear")
async def values_clear(spreadsheet_id: str, range: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.values.clear", {**_query(request), "spreadsheetId": spreadsheet_id, "range": range})


@router.get("/v4/spreadsheets/{spreadsheet_id}/values/{range}")
async def values_get(spreadsheet_id: str, range: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.values.get", {**_query(request), "spreadsheetId": spreadsheet_id, "range": range})


@router.put("/v4/spreadsheets/{spreadsheet_id}/values/{range}")
async def values_update(spreadsheet_id: str, range: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.values.update", {**_query(request), "spreadsheetId": spreadsheet_id, "range": range}, body_into="values")


@router.post("/v4/spreadsheets/{spreadsheet_id}/sheets/{sheet_id}:copyTo")
async def copy_to(spreadsheet_id: str, sheet_id: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.sheets.copyTo", {"spreadsheetId": spreadsheet_id, "sheetId": sheet_id}, body_fields=True)


@router.get("/v4/spreadsheets/{spreadsheet_id}")
async def get(spreadsheet_id: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    return await _run(request, env, "sheets.spreadsheets.get", {**_query(request), "spreadsheetId": spreadsheet_id})


# -- Drive v3 ------------------------------------------------------------------------------
# Drive's routes answer in Drive's shapes and with Drive's errors ({error: {code, message,
# errors: [{domain, reason, message, locationType, location}]}}, which google-api-python-client
# reads as HttpError.error_details). files.list is answered in Drive's shape ({kind, files: [{id,
# name, mimeType, …}]}), bare or with what its clients send (gspread, google-api-python-client).
# Only the `query` word of our own search (no Drive client sends it) answers the search tool's
# [{id, title}] list.
_DRIVE_PARAMS = frozenset(("q", "alt", "fields", "pageSize", "pageToken", "orderBy", "spaces", "corpora", "driveId",
                           "supportsAllDrives", "includeItemsFromAllDrives", "supportsTeamDrives", "includeTeamDriveItems"))
_MAX_PAGE = 1000
LIST_DEFAULT = "kind,incompleteSearch,nextPageToken,files(kind,id,name,mimeType)"  # Drive's answer when `fields` is not given
_DRIVE_REASONS = {400: "badRequest", 403: "insufficientFilePermissions", 404: "notFound", 500: "internalError"}
_RANGE = re.compile(r"bytes=(\d*)-(\d*)")


def drive_error_body(error: AppError) -> dict[str, Any]:
    """Drive v3's error shape; the reason is the error's own (DriveError) or the status's."""
    http = CODE_HTTP.get(error.code, 400)
    item = {"domain": "global", "reason": getattr(error, "reason", None) or _DRIVE_REASONS.get(http, "badRequest"), "message": error.message}
    if getattr(error, "location", None):
        item.update(locationType="parameter", location=error.location)
    return {"error": {"code": http, "message": error.message, "errors": [item]}}


def _drive_args(request: Request, **path: str) -> dict[str, Any]:
    """A Drive route's arguments: the query string (`fields` included) and the path's."""
    return {**{k: v for k, v in request.query_params.items() if k not in ("alt", "prettyPrint", "key", "$.xgafv")}, **path}


@router.get("/drive/v3/files")
async def files(request: Request, env: Env = Depends(current_env)) -> Response:
    params = request.query_params
    if not _DRIVE_PARAMS.intersection(params.keys()):
        args = _query(request)
        if args.get("query"):
            return await _run(request, env, "sheets.files.search", {"query": args["query"], "max_results": args.get("pageSize", 20)}, drive=True)
    return await _drive_list(request, env)


async def _drive_list(request: Request, env: Env) -> Response:
    """Drive's files.list: `q` in Drive's query language, `pageSize`/`pageToken`, answered as
    {kind: "drive#fileList", incompleteSearch, files: [{kind, id, name, mimeType, …}], nextPageToken?},
    only the fields asked (`fields`, as Drive's partial response; a name a file does not have is a 400)."""
    params = request.query_params
    try:
        query = drive_query.parse(params["q"]) if params.get("q", "").strip() else None
        size = min(max(int(params.get("pageSize") or 100), 1), _MAX_PAGE)
        start = max(int(params.get("pageToken") or 0), 0)
        folder = (query.folder() if query else None) or params.get("folderId")
        word = None if folder or query is None else query.search_word()
        picked = drive_query.parse_fields(params.get("fields") or LIST_DEFAULT, drive_query.FILE_LIST_SCHEMA)
    except SheetsError as error:
        return JSONResponse(drive_error_body(error), status_code=400)
    except ValueError:
        return JSONResponse(drive_error_body(SheetsError("INVALID_ARGUMENT", "Invalid Value: pageSize and pageToken are numbers here")), status_code=400)

    def shape(found: list[dict[str, Any]]) -> dict[str, Any]:
        files = []
        for f in found:
            file = {"kind": "drive#file", "id": f["id"], "name": f.get("name", f.get("title")), "mimeType": drive_query.SHEET_MIME,
                    "trashed": f.get("trashed", False)}
            if f.get("created_time"):
                file["createdTime"], file["modifiedTime"] = f["created_time"], f["modified_time"]
            if folder:
                file["parents"] = [folder]
            if query is None or query.matches(file, word):
                files.append(file)
        page = {"kind": "drive#fileList", "incompleteSearch": False, "files": files[start:start + size]}
        if start + size < len(files):
            page["nextPageToken"] = str(start + size)
        return drive_query.select_fields(page, picked)

    if word:
        return await _run(request, env, "sheets.files.search", {"query": word, "max_results": MAX_SEARCH, "include_trashed": True},
                          shape=shape, drive=True)
    return await _run(request, env, "sheets.files.list", {"folder_id": folder, "include_trashed": True}, shape=shape, drive=True)


@router.get("/drive/v3/files/{file_id}")
async def file_get(file_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """Drive's files.get: the file's metadata (`fields` picks them), or with alt=media an
    uploaded file's bytes, with its Content-Type; a Range header is answered as Drive does (206)."""
    if request.query_params.get("alt") != "media":
        return await _run(request, env, "sheets.files.get", _drive_args(request, fileId=file_id), drive=True)
    return await _run(request, env, "sheets.files.download", {"fileId": file_id}, drive=True,
                      shape=lambda found: _media(request, base64.b64decode(found["content_base64"]), found["mimeType"]))


def _media(request: Request, data: bytes, mime: str) -> Response:
    """The bytes, whole or the one range asked (`bytes=a-b`, `bytes=a-`, `bytes=-n`)."""
    asked = _RANGE.fullmatch(request.headers.get("range", "").strip())
    total = len(data)
    if asked is None or asked.groups() == ("", ""):
        return Response(data, media_type=mime)
    first, last = asked.groups()
    start, end = (max(total - int(last), 0), total - 1) if first == "" else (int(first), min(int(last or total - 1), total - 1))
    if start >= total or start > end:
        return Response(status_code=416, headers={"content-range": f"bytes */{total}"})
    return Response(data[start:end + 1], status_code=206, media_type=mime, headers={"content-range": f"bytes {start}-{end}/{total}"})


@router.delete("/drive/v3/files/trash")
async def empty_trash(request: Request, env: Env = Depends(current_env)) -> Response:
    """Drive's files.emptyTrash: the caller's trashed files deleted for good; 204 with an empty
    body (declared before files.delete, whose `{file_id}` would take the word "trash")."""
    args = {"driveId": request.query_params["driveId"]} if "driveId" in request.query_params else {}
    return await _run(request, env, "sheets.files.emptyTrash", args, drive=True, shape=lambda _: Response(status_code=204))


@router.delete("/drive/v3/files/{file_id}")
async def file_delete(file_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """Drive's files.delete: 204 with an empty body; only the owner may (Drive's 403
    insufficientFilePermissions), an id the caller cannot open is Drive's 404."""
    return await _run(request, env, "sheets.files.delete", {"fileId": file_id}, drive=True, shape=lambda _: Response(status_code=204))


@router.patch("/drive/v3/files/{file_id}")
async def file_update(file_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """Drive's files.update: the File resource's `name` and `trashed` from the body, addParents/
    removeParents from the query; the file back (`fields`)."""
    return await _run(request, env, "sheets.files.update", _drive_args(request, fileId=file_id), body_into="resource", drive=True)


@router.get("/drive/v3/files/{file_id}/export")
async def export(file_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """Drive's files.export of a Google Sheet into `mimeType`: the file's bytes, with that type."""
    return await _run(request, env, "sheets.files.export", _drive_args(request, fileId=file_id), drive=True,
                      shape=lambda made: Response(base64.b64decode(made["content_base64"]), media_type=made["mimeType"]))


@router.get("/drive/v3/files/{file_id}/permissions")
async def permissions(file_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """Drive's permissions.list ({kind: "drive#permissionList", permissions: [{kind, id, type, role}]})."""
    return await _run(request, env, "sheets.permissions.list", _drive_args(request, fileId=file_id), drive=True)


@router.get("/drive/v3/files/{file_id}/comments")
async def comments(file_id: str, request: Request, env: Env = Depends(current_env)) -> JSONResponse:
    """Drive's comments.list: files here carry no comments (gspread's copy() reads them to copy them)."""
    return JSONResponse({"kind": "drive#commentList", "comments": []})


@router.post("/drive/v3/files/{spreadsheet_id}/permissions")
async def share(spreadsheet_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    body = await json_body(request) if request.headers.get("content-type", "").startswith("application/json") else None
    body = body if isinstance(body, dict) else {}
    recipients = [{"email_address": body.get("emailAddress"), "role": body.get("role", "reader")}]
    return await _run(request, env, "sheets.permissions.share", {"spreadsheet_id": spreadsheet_id, "recipients": recipients}, drive=True)


@router.post("/drive/v3/files/{file_id}/copy")
async def copy_file(file_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """Drive's files.copy: an uploaded .xlsx copied as a Google Sheet is converted ("Open with Google Sheets")."""
    return await _run(request, env, "sheets.files.copy", {"fileId": file_id}, body_fields=True, drive=True)


@router.post("/drive/v3/files:importXlsx")
async def import_file(request: Request, env: Env = Depends(current_env)) -> Response:
    return await _run(request, env, "sheets.importXlsx", {}, body_fields=True, drive=True)


# What a GET on this API's base URL answers (officegym.apps.App.rest_index).
INDEX = {"api": "Google Sheets API v4 and Google Drive API v3", "call": "<base>/v4/… as https://sheets.googleapis.com/v4/…, <base>/drive/v3/… as https://www.googleapis.com/drive/v3/…",
         "examples": ["drive/v3/files", "v4/spreadsheets/{spreadsheetId}", "v4/spreadsheets/{spreadsheetId}/values/Sheet1!A1:D10"]}
