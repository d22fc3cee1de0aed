"""The Drive side of spreadsheets: listing, searching, folders, sharing with the company's
people, and finding cells; Drive's reads of one file (files.get with `fields`, an uploaded
file's bytes for alt=media, permissions.list), in Drive's resource shapes; and Drive's writes on
one file (files.delete, files.update: rename, trash, move). The operations are bound into
`SheetsService` (service.py; the file reads in operations.py).

A trashed file is still a file: opened by id (files.get, the Sheets API), listed by Drive's
files.list unless its `q` says `trashed = false`, as Drive documents ("This method returns all
files by default, including trashed files"). The spreadsheet lists and searches of the MCP
tools and of the Sheets home page leave trashed files out, as Google Sheets' home does."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field
from sqlalchemy import Boolean, Integer, bindparam, delete, false, or_, select

from apps.sheets import search_text
from apps.sheets.a1 import GridRange, cell_name
from apps.sheets.drive_query import (
    EXPORTS,
    FILE_FIELDS,
    FILE_SCHEMA,
    FOLDER_MIME,
    PERMISSION_LIST_SCHEMA,
    SHEET_MIME,
    DriveError,
    parse_fields,
    select_fields,
)
from apps.sheets.errors import invalid, not_found
from apps.sheets.ids import permission_id
from apps.sheets.models import Cell, Chart, DriveFile, Folder, Merge, NamedRange, Permission, Sheet, Spreadsheet
from apps.sheets.params import FolderId, MaxResults, Query, SpreadsheetId
from officegym.core.operations import operation
from officegym.core.sql import Prepared

ROLES = ("reader", "commenter", "writer")
MAX_SEARCH = 100
DriveFileId = Annotated[str, Field(max_length=128, description="The Drive file ID of an uploaded file (the id in its link: drive.google.com/file/d/<id>/view)")]
FileId = Annotated[str, Field(max_length=128, description="The ID of a Drive file: a Google Sheet's, an uploaded file's or a folder's")]
Fields = Annotated[str, Field(max_length=2000, description="The fields to answer (Drive's partial response): 'id,name,size', 'owners(emailAddress)', 'permissions/role', or '*' for all")]
FILE_DEFAULT = "kind,id,name,mimeType"  # what Drive answers when `fields` is not given
PERMISSIONS_DEFAULT = "kind,nextPageToken,permissions(kind,id,type,role)"
NOT_DOWNLOADABLE = "Only files with binary content can be downloaded. Use Export with Docs Editors files."
IncludeTrashed = Annotated[bool, Field(description="Also the files in the trash (each then says whether it is trashed)")]


def uploaded_file(self: Any, file_id: str) -> DriveFile:
    """An uploaded (not yet converted) file. Company uploads are shared as "anyone in the
    organisation with the link", the way teams pass files around in chat: the link is the key."""
    key = (file_id or "").strip()
    found = self.db.get(DriveFile, key) if key else None
    if found is None:
        converted = key and self.db.get(Spreadsheet, key) is not None
        hint = " (that id is already a Google Sheet: open it with get_sheet_data)" if converted else ""
        raise not_found(f"File not found: {file_id}.{hint}")
    return found


def _visible(self: Any, include_trashed: bool = False) -> Any:
    query = select(Spreadsheet).join(Permission, Permission.spreadsheet_id == Spreadsheet.id).where(Permission.email == self.actor_email)
    return query if include_trashed else query.where(Spreadsheet.trashed == false())


def _search_in_sql() -> Prepared:
    """PostgreSQL: the visible spreadsheets whose title, or one of whose text cells, is ILIKE
    the pattern, newest first. Cells are read in one pass restricted to spreadsheets the person
    can open (an uncorrelated IN: a sequential scan beats an index probe per spreadsheet there)."""
    pattern = bindparam("pattern")
    visible = select(Permission.spreadsheet_id).where(Permission.email == bindparam("email"))
    in_content = Spreadsheet.id.in_(select(Cell.spreadsheet_id).where(
        Cell.spreadsheet_id.in_(visible), Cell.kind == "s", Cell.value.ilike(pattern)))
    return Prepared(select(Spreadsheet.id, Spreadsheet.title, Spreadsheet.created, Spreadsheet.modified, Spreadsheet.trashed)
                    .join(Permission, Permission.spreadsheet_id == Spreadsheet.id)
                    .where(Permission.email == bindparam("email"), or_(Spreadsheet.title.ilike(pattern), in_content),
                           or_(bindparam("with_trashed", type_=Boolean), Spreadsheet.trashed == false()))
                    .order_by(Spreadsheet.modified.desc(), Spreadsheet.id).limit(bindparam("limit", type_=Integer)))


SEARCH_IN_SQL = _search_in_sql()
# SQLite: every spreadsheet the person can open, newest first, with whether its title matches
# and its revision; the others' text cells are matched by `search_text` (kept per revision).
# SQLite's LIKE ignores ASCII case, so it answers what ILIKE would, at half the cost.
VISIBLE_FOR_SEARCH = Prepared(
    select(Spreadsheet.id, Spreadsheet.title, Spreadsheet.created, Spreadsheet.modified, Spreadsheet.revision, Spreadsheet.trashed,
           Spreadsheet.title.like(bindparam("pattern")).label("by_title"))
    .join(Permission, Permission.spreadsheet_id == Spreadsheet.id).where(Permission.email == bindparam("email"))
    .order_by(Spreadsheet.modified.desc(), Spreadsheet.id))
# The owners of every spreadsheet a person can open, in one read (a search lists several).
OWNERS_OF_VISIBLE = Prepared(select(Permission.spreadsheet_id, Permission.email).where(
    Permission.role == "owner", Permission.spreadsheet_id.in_(select(Permission.spreadsheet_id).where(Permission.email == bindparam("email"))))
    .order_by(Permission.spreadsheet_id, Permission.email))


@operation("sheets.files.list")
def files_list(self: Any, folder_id: FolderId | None = None, include_trashed: IncludeTrashed = False) -> list[dict[str, Any]]:
    """Spreadsheets you can open (in a folder, when given), most recently modified first: [{id, title}]."""
    query = _visible(self, include_trashed)
    if folder_id:
        query = query.where(Spreadsheet.folder_id == folder_id)
    found = self.db.scalars(query.order_by(Spreadsheet.modified.desc(), Spreadsheet.id)).all()
    if include_trashed:
        return [{"id": s.id, "title": s.title, "trashed": s.trashed} for s in found]
    return [{"id": s.id, "title": s.title} for s in found]


@operation("sheets.files.search")
def files_search(self: Any, query: Query, max_results: MaxResults = 20, include_trashed: IncludeTrashed = False) -> list[dict[str, Any]]:
    """Spreadsheets whose title (or content) contains the query, case-insensitive."""
    words = query.strip()
    if not words:
        raise invalid("query must not be empty")
    limit = min(max(1, max_results), MAX_SEARCH)
    pattern = f"%{words.lower()}%"
    self.db.flush()  # the prepared read runs on the driver: pending ORM changes first
    dialect = self.db.get_bind().dialect.name
    if dialect == "sqlite":
        found = []
        for row in VISIBLE_FOR_SEARCH.rows(self.db, email=self.actor_email, pattern=pattern):
            if row.trashed and not include_trashed:
                continue
            if row.by_title or search_text.contains(self.db, row.id, row.revision, words.lower()):
                found.append(row)
                if len(found) == limit:
                    break
    else:
        found = SEARCH_IN_SQL.rows(self.db, email=self.actor_email, pattern=pattern, limit=limit, with_trashed=include_trashed)
    owners: dict[str, list[str]] = {}
    if found:
        for spreadsheet_id, email in OWNERS_OF_VISIBLE.rows(self.db, email=self.actor_email):
            owners.setdefault(spreadsheet_id, []).append(email)
    listed = [{"id": row.id, "name": row.title, "created_time": row.created, "modified_time": row.modified,
               "owners": owners.get(row.id, []), "web_link": f"https://docs.google.com/spreadsheets/d/{row.id}/edit"}
              for row in found]
    if include_trashed:
        for item, row in zip(listed, found):
            item["trashed"] = bool(row.trashed)
    return listed


@operation("sheets.folders.list")
def folders_list(self: Any, parent_folder_id: FolderId | None = None) -> list[dict[str, str]]:
    """Folders in a parent folder (default: My Drive's root): [{id, name, parent}]."""
    parent = parent_folder_id or "root"
    found = self.db.scalars(select(Folder).where(Folder.parent == parent).order_by(Folder.name)).all()
    return [{"id": f.id, "name": f.name, "parent": f.parent} for f in found]


@operation("sheets.permissions.share", writes=True)
def permissions_share(self: Any, spreadsheet_id: SpreadsheetId, recipients: list[dict[str, Any]],
                      send_notification: bool = True) -> dict[str, list[dict[str, Any]]]:
    """Share with people by email as reader, commenter or writer: {successes, failures}."""
    spreadsheet = self.spreadsheet(spreadsheet_id)
    if self.role(spreadsheet.id) != "owner" and self.role(spreadsheet.id) != "writer":
        raise invalid("only the owner or an editor may share this spreadsheet")
    if not recipients:
        raise invalid("recipients must list at least one {email_address, role}")
    people = _people_emails(self)
    successes, failures = [], []
    for item in recipients:
        if not isinstance(item, dict):
            failures.append({"email_address": None, "error": "Each recipient must be an object {email_address, role}."})
            continue
        email = str(item.get("email_address") or "").strip().lower()
        role = item.get("role", "writer")
        if not email:
            failures.append({"email_address": None, "error": "Missing email_address in recipient entry."})
            continue
        if role not in ROLES:
            failures.append({"email_address": email, "error": f"Invalid role '{role}'. Must be 'reader', 'commenter', or 'writer'."})
            continue
        if people is not None and email not in people:
            failures.append({"email_address": email, "error": f"Failed to share: no Google account for {email} in this organisation"})
            continue
        existing = self.db.get(Permission, (spreadsheet.id, email))
        if existing is not None and existing.role == "owner":
            failures.append({"email_address": email, "error": "Failed to share: that person owns the spreadsheet"})
            continue
        pid = permission_id(spreadsheet.id, email)
        if existing is None:
            self.db.add(Permission(spreadsheet_id=spreadsheet.id, email=email, role=role, permission_id=pid))
        else:
            existing.role = role
        successes.append({"email_address": email, "role": role, "permissionId": pid})
    self.db.flush()
    if successes:
        self.touch(spreadsheet)
    return {"successes": successes, "failures": failures}


def _people_emails(self: Any) -> set[str] | None:
    """Everyone a spreadsheet may be shared with: the company's people (from the chat
    directory when it is seeded alongside), else anyone."""
    from officegym.core.db import get_meta

    listed = get_meta(self.db, "sheets.people")
    return set(listed.split(",")) if listed else None


@operation("sheets.find")
def find_cells(self: Any, spreadsheet_id: SpreadsheetId, query: Query, sheet: str | None = None, case_sensitive: bool = False,
               max_results: MaxResults = 50) -> list[dict[str, Any]]:
    """Cells whose shown value contains the query: [{sheet, cell, value}], tab by tab, row by row.
    What a cell shows is what it is searched by: a formula's number in the format Google Sheets
    infers for it when the cell has none of its own ($2,300.50 from =SUM of currency cells), as
    values.get gives it."""
    head = self.opened(spreadsheet_id)
    tabs = self.tab_rows(spreadsheet_id)
    if sheet is not None:
        tabs = [t for t in tabs if t.title == sheet]
        if not tabs:
            raise invalid(f"Sheet '{sheet}' not found")
    needle = query if case_sensitive else query.lower()
    results: list[dict[str, Any]] = []
    for tab in tabs:
        shown_rows = self.grid_values(spreadsheet_id, tab, GridRange(tab.title, 0, 0, None, None), "FORMATTED_VALUE", head.revision)
        for row, line in enumerate(shown_rows):
            for col, shown in enumerate(line):
                if shown == "":
                    continue
                text = str(shown) if case_sensitive else str(shown).lower()
                if needle in text:
                    results.append({"sheet": tab.title, "cell": cell_name(row, col), "value": shown})
                    if len(results) >= max_results:
                        return results
    return results


# -- Drive's file reads: files.get, alt=media, permissions.list --------------------------------
@dataclass(frozen=True, slots=True)
class Found:
    """A Drive file the actor can open: a Google Sheet, an uploaded file or a folder."""

    kind: str  # sheet, upload, folder
    row: Any  # its Spreadsheet, DriveFile or Folder
    role: str  # the actor's: owner, writer, commenter, reader


def file_not_found(file_id: str) -> DriveError:
    return DriveError("NOT_FOUND", f"File not found: {file_id}.", "notFound", "fileId")


def drive_file(self: Any, file_id: str) -> Found:
    """The file with this id, as the actor sees it; Drive's 404 when there is none they can open
    (a spreadsheet not shared with them included: Drive does not tell it exists)."""
    key = (file_id or "").strip()
    if key:
        role = self.role(key)
        if role is not None:
            return Found("sheet", self.db.get(Spreadsheet, key), role)
        upload = self.db.get(DriveFile, key)
        if upload is not None:  # shared with the organisation by link (uploaded_file)
            return Found("upload", upload, "owner" if upload.owner_email.lower() == self.actor_email else "reader")
        folder = self.db.get(Folder, key)
        if folder is not None:
            return Found("folder", folder, "reader")
    raise file_not_found(file_id)


def _user(self: Any, email: str, spreadsheet_id: str) -> dict[str, Any]:
    return {"kind": "drive#user", "emailAddress": email, "me": email.lower() == self.actor_email,
            "permissionId": permission_id(spreadsheet_id, email.lower())}


def _permissions(self: Any, found: Found) -> list[dict[str, Any]]:
    """The file's permissions as Drive's Permission resources, owner first."""
    if found.kind == "sheet":
        rows = self.db.scalars(select(Permission).where(Permission.spreadsheet_id == found.row.id)).all()
        rows = sorted(rows, key=lambda p: (p.role != "owner", p.email))
        return [{"kind": "drive#permission", "id": p.permission_id, "type": "user", "emailAddress": p.email, "role": p.role,
                 "deleted": False, "pendingOwner": False} for p in rows]
    if found.kind == "upload":
        owner = found.row.owner_email.lower()
        domain = owner.rsplit("@", 1)[-1]
        return [{"kind": "drive#permission", "id": permission_id(found.row.id, owner), "type": "user", "emailAddress": owner,
                 "role": "owner", "deleted": False, "pendingOwner": False},
                {"kind": "drive#permission", "id": permission_id(found.row.id, "domain", domain), "type": "domain", "domain": domain,
                 "displayName": domain, "role": "reader", "allowFileDiscovery": False}]
    return []


def _capabilities(found: Found) -> dict[str, bool]:
    edit = found.role in ("owner", "writer")
    owner = found.role == "owner"
    return {"canEdit": edit, "canComment": found.role != "reader", "canShare": edit, "canCopy": found.kind != "folder",
            "canDownload": found.kind != "folder", "canRename": edit, "canDelete": owner, "canTrash": owner, "canUntrash": owner,
            "canReadRevisions": edit, "canAddChildren": found.kind == "folder" and edit, "canListChildren": found.kind == "folder",
            "canModifyContent": edit, "canChangeCopyRequiresWriterPermission": edit, "canRemoveChildren": False}


def file_resource(self: Any, found: Found) -> dict[str, Any]:
    """Everything Drive's File resource says of the file that is known here."""
    row = found.row
    trashed = bool(getattr(row, "trashed", False))
    base = {"kind": "drive#file", "id": row.id, "starred": False, "trashed": trashed, "explicitlyTrashed": trashed, "spaces": ["drive"]}
    if found.kind == "folder":
        return {**base, "name": row.name, "mimeType": FOLDER_MIME, "parents": [row.parent], "capabilities": _capabilities(found)}
    permissions = _permissions(self, found)
    if found.kind == "sheet":
        owner = next((p["emailAddress"] for p in permissions if p["role"] == "owner"), row.owner_email)
        resource = {**base, "name": row.title, "mimeType": SHEET_MIME, "parents": [row.folder_id],
                    "webViewLink": f"https://docs.google.com/spreadsheets/d/{row.id}/edit?usp=drivesdk",
                    "createdTime": row.created, "modifiedTime": row.modified, "owners": [_user(self, owner, row.id)],
                    "exportLinks": {mime: f"https://docs.google.com/spreadsheets/export?id={row.id}&exportFormat={ext}"
                                    for mime, ext in EXPORTS.items()}}
    else:
        data = base64.b64decode(row.content)
        extension = row.name.rsplit(".", 1)[-1] if "." in row.name else None
        resource = {**base, "name": row.name, "mimeType": row.mime_type, "parents": [row.folder_id],
                    "webViewLink": f"https://drive.google.com/file/d/{row.id}/view?usp=drivesdk",
                    "webContentLink": f"https://drive.google.com/uc?id={row.id}&export=download",
                    "createdTime": row.created, "modifiedTime": row.created, "owners": [_user(self, row.owner_email, row.id)],
                    "originalFilename": row.name, "size": str(len(data)), "quotaBytesUsed": str(len(data)),
                    "md5Checksum": hashlib.md5(data).hexdigest(), "sha1Checksum": hashlib.sha1(data).hexdigest(),
                    "sha256Checksum": hashlib.sha256(data).hexdigest()}
        if extension:
            resource["fileExtension"] = resource["fullFileExtension"] = extension
    resource.update({"ownedByMe": found.role == "owner", "shared": len(permissions) > 1, "viewedByMe": True,
                     "capabilities": _capabilities(found), "permissionIds": [p["id"] for p in permissions],
                     "viewersCanCopyContent": True, "copyRequiresWriterPermission": False, "writersCanShare": True,
                     "isAppAuthorized": False, "hasThumbnail": False})
    if found.role in ("owner", "writer"):
        resource["permissions"] = permissions
    return resource


@operation("sheets.files.get")
def files_get(self: Any, fileId: FileId, fields: Fields | None = None) -> dict[str, Any]:
    """Drive's files.get: a file's metadata, only the fields asked (by default kind, id, name, mimeType)."""
    tree = parse_fields(fields or FILE_DEFAULT, FILE_SCHEMA)
    return select_fields(file_resource(self, drive_file(self, fileId)), tree)


@operation("sheets.files.download")
def files_download(self: Any, fileId: FileId) -> dict[str, Any]:
    """Drive's files.get with alt=media: an uploaded file's bytes (base64) and type. A Google
    Sheet has no bytes of its own: it is exported (files.export), as Drive says."""
    found = drive_file(self, fileId)
    if found.kind != "upload":
        raise DriveError("PERMISSION_DENIED", NOT_DOWNLOADABLE, "fileNotDownloadable", "alt")
    return {"id": found.row.id, "name": found.row.name, "mimeType": found.row.mime_type, "content_base64": found.row.content}


@operation("sheets.permissions.list")
def permissions_list(self: Any, fileId: FileId, fields: Fields | None = None) -> dict[str, Any]:
    """Drive's permissions.list: who the file is shared with, only the fields asked (by default
    each permission's kind, id, type and role)."""
    tree = parse_fields(fields or PERMISSIONS_DEFAULT, PERMISSION_LIST_SCHEMA)
    listed = {"kind": "drive#permissionList", "permissions": _permissions(self, drive_file(self, fileId))}
    return select_fields(listed, tree)


# -- Drive's writes on one file: files.delete, files.update ----------------------------------
NO_PERMISSION = "The user does not have sufficient permissions for this file."
NOT_WRITABLE = "The resource body includes fields which are not directly writable."
# What files.update writes in Drive. Here `name` and `trashed` are kept; the others, which a
# file here does not keep, are refused unless they say what the file already says.
DRIVE_WRITABLE = frozenset((
    "name", "trashed", "mimeType", "description", "starred", "properties", "appProperties", "viewedByMeTime", "modifiedTime",
    "originalFilename", "contentHints", "copyRequiresWriterPermission", "writersCanShare", "folderColorRgb", "contentRestrictions",
    "downloadRestrictions", "inheritedPermissionsDisabled"))
MAX_NAME = 256
FileBody = Annotated[dict[str, Any], Field(description="The File resource's fields to change: {\"name\": \"…\"} renames, {\"trashed\": true} moves it to the trash (false: out of it)")]
ParentIds = Annotated[str, Field(max_length=1000, description="Folder IDs, comma-separated (files.update's addParents/removeParents): the file is moved there")]


def _may(found: Found, allowed: bool) -> None:
    if not allowed:
        raise DriveError("PERMISSION_DENIED", NO_PERMISSION, "insufficientFilePermissions")


@operation("sheets.files.delete", writes=True)
def files_delete(self: Any, fileId: FileId) -> dict[str, Any]:
    """Drive's files.delete: the file is deleted for good, skipping the trash (a spreadsheet with
    its tabs, cells, merges, named ranges, charts and sharing); only its owner may. {} (Drive: 204)."""
    found = drive_file(self, fileId)
    _may(found, _capabilities(found)["canDelete"])
    self.db.flush()  # the deletes below run as statements: pending ORM changes first
    if found.kind == "sheet":
        _delete_spreadsheets(self, [found.row.id])
    else:
        self.db.execute(delete(DriveFile).where(DriveFile.id == found.row.id))
    return {}


def _delete_spreadsheets(self: Any, keys: list[str]) -> None:
    """The spreadsheets deleted for good, with their tabs, cells, merges, named ranges, charts and sharing."""
    if not keys:
        return
    for model in (Cell, Merge, NamedRange, Chart, Permission, Sheet):
        self.db.execute(delete(model).where(model.spreadsheet_id.in_(keys)))
    self.db.execute(delete(Spreadsheet).where(Spreadsheet.id.in_(keys)))
    for key in keys:
        self._books.pop(key, None)
        self.forget_tabs(key)


DriveId = Annotated[str, Field(max_length=128, description="A shared drive's ID: empties that drive's trash (there are no shared drives here)")]


@operation("sheets.files.emptyTrash", writes=True)
def files_empty_trash(self: Any, driveId: DriveId | None = None) -> dict[str, Any]:
    """Drive's files.emptyTrash: every file in the caller's trash is deleted for good (the
    spreadsheets and uploaded files they own that are trashed; a file someone else trashed is in
    that person's trash, not theirs). {} (Drive: 204)."""
    if driveId is not None and driveId.strip():
        raise DriveError("NOT_FOUND", f"Shared drive not found: {driveId}", "notFound", "driveId")
    self.db.flush()  # the reads and deletes below run as statements: pending ORM changes first
    mine = self.db.scalars(select(Spreadsheet.id).join(Permission, Permission.spreadsheet_id == Spreadsheet.id).where(
        Permission.email == self.actor_email, Permission.role == "owner", Spreadsheet.trashed.is_(True)).order_by(Spreadsheet.id)).all()
    _delete_spreadsheets(self, list(mine))
    uploads = [f.id for f in self.db.scalars(select(DriveFile).where(DriveFile.trashed.is_(True)).order_by(DriveFile.id))
               if f.owner_email.lower() == self.actor_email]
    if uploads:
        self.db.execute(delete(DriveFile).where(DriveFile.id.in_(uploads)))
    return {}


@operation("sheets.files.update", writes=True)
def files_update(self: Any, fileId: FileId, resource: FileBody | None = None, fields: Fields | None = None,
                 addParents: ParentIds | None = None, removeParents: ParentIds | None = None) -> dict[str, Any]:
    """Drive's files.update (PATCH): rename (`name`: a spreadsheet's title, an upload's name), move
    to or out of the trash (`trashed`), move to a folder (addParents/removeParents); the file
    resource back, only the fields asked. Nothing is changed unless all of it can be."""
    tree = parse_fields(fields or FILE_DEFAULT, FILE_SCHEMA)
    found = drive_file(self, fileId)
    body = resource or {}
    caps = _capabilities(found)
    current = file_resource(self, found)
    name = body.get("name")
    trashed = body.get("trashed")
    for key, value in body.items():
        if key in ("name", "trashed"):
            continue
        if key not in FILE_FIELDS:
            raise DriveError("INVALID_ARGUMENT", f'Invalid JSON payload received. Unknown name "{key}": Cannot find field.', "badRequest")
        if key in current and current[key] == value:
            continue  # what the file already says (a resource read back and sent again)
        if key == "parents":
            raise DriveError("PERMISSION_DENIED", "The parents field is not directly writable in update requests. "
                             "Use the addParents and removeParents parameters instead.", "fieldNotWritable")
        if key not in DRIVE_WRITABLE:
            raise DriveError("PERMISSION_DENIED", NOT_WRITABLE, "fieldNotWritable")
        raise DriveError("INVALID_ARGUMENT", f"Invalid Value: {key} is not kept for files here; files.update changes name and trashed "
                         "(and the folder, with addParents/removeParents)", "invalid")
    if name is not None:
        if not isinstance(name, str) or not name.strip():
            raise DriveError("INVALID_ARGUMENT", "Invalid Value: name must be a non-empty string", "invalid")
        if len(name) > MAX_NAME:
            raise DriveError("INVALID_ARGUMENT", f"Invalid Value: name is longer than {MAX_NAME} characters", "invalid")
        if name != current["name"]:
            _may(found, caps["canRename"])
    if trashed is not None:
        if not isinstance(trashed, bool):
            raise DriveError("INVALID_ARGUMENT", "Invalid value for trashed: it is true or false", "invalid")
        if trashed != current["trashed"]:
            _may(found, caps["canTrash"])
    parent = _new_parent(self, found, caps, addParents, removeParents)
    row = found.row
    changed = False
    if name is not None and name != current["name"]:
        if found.kind == "sheet":
            row.title = name
        else:
            row.name = name
        changed = True
    if trashed is not None and trashed != current["trashed"]:
        row.trashed = trashed
        changed = True
    if parent is not None and parent != current["parents"][0]:
        row.folder_id = parent
        changed = True
    if changed:
        self.db.flush()
        if found.kind == "sheet":
            self.touch(row)
    return select_fields(file_resource(self, found), tree)


def _new_parent(self: Any, found: Found, caps: dict[str, bool], add: str | None, remove: str | None) -> str | None:
    """The folder addParents/removeParents move the file into (None: not moved). A file here has
    one parent, as in Drive today: adding one means removing the one it has."""
    adding = [p.strip() for p in (add or "").split(",") if p.strip()]
    removing = [p.strip() for p in (remove or "").split(",") if p.strip()]
    if not adding and not removing:
        return None
    if found.kind == "folder":
        _may(found, False)
    _may(found, caps["canEdit"])
    parent = found.row.folder_id
    if any(p != parent for p in removing):
        raise DriveError("NOT_FOUND", f"File not found: {next(p for p in removing if p != parent)}.", "notFound", "removeParents")
    if len(adding) != 1 or not removing:
        raise DriveError("PERMISSION_DENIED", "Increasing the number of parents is not allowed.", "cannotAddParent")
    target = adding[0]
    if target != "root" and self.db.get(Folder, target) is None:
        raise DriveError("NOT_FOUND", f"File not found: {target}.", "notFound", "addParents")
    return target
