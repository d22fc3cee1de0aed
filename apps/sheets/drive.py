"""The Drive side of spreadsheets: listing, searching, folders, sharing with the company's
people, and finding cells. The operations are bound into `SheetsService` (service.py)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from sqlalchemy import Integer, bindparam, or_, select

from apps.sheets import search_text
from apps.sheets.a1 import cell_name
from apps.sheets.entry import decode, load_json
from apps.sheets.errors import invalid, not_found
from apps.sheets.formulas.formats import display
from apps.sheets.ids import permission_id
from apps.sheets.models import Cell, DriveFile, Folder, Permission, Spreadsheet
from apps.sheets.params import FolderId, MaxResults, Query, SpreadsheetId
from officegym.core.operations import operation
from officegym.core.sql import Prepared

ROLES = ("reader", "commenter", "writer")
MAX_SEARCH = 100
DriveFileId = Annotated[str, Field(max_length=128, description="The Drive file ID of an uploaded file (the id in its link: drive.google.com/file/d/<id>/view)")]


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


def _visible(self: Any) -> Any:
    return select(Spreadsheet).join(Permission, Permission.spreadsheet_id == Spreadsheet.id).where(Permission.email == self.actor_email)


def _search_in_sql() -> Prepared:
    """PostgreSQL: the visible spreadsheets whose title, or one of whose text cells, is ILIKE
    the pattern, newest first. Cells are read in one pass restricted to spreadsheets the person
    can open (an uncorrelated IN: a sequential scan beats an index probe per spreadsheet there)."""
    pattern = bindparam("pattern")
    visible = select(Permission.spreadsheet_id).where(Permission.email == bindparam("email"))
    in_content = Spreadsheet.id.in_(select(Cell.spreadsheet_id).where(
        Cell.spreadsheet_id.in_(visible), Cell.kind == "s", Cell.value.ilike(pattern)))
    return Prepared(select(Spreadsheet.id, Spreadsheet.title, Spreadsheet.created, Spreadsheet.modified)
                    .join(Permission, Permission.spreadsheet_id == Spreadsheet.id)
                    .where(Permission.email == bindparam("email"), or_(Spreadsheet.title.ilike(pattern), in_content))
                    .order_by(Spreadsheet.modified.desc(), Spreadsheet.id).limit(bindparam("limit", type_=Integer)))


SEARCH_IN_SQL = _search_in_sql()
# SQLite: every spreadsheet the person can open, newest first, with whether its title matches
# and its revision; the others' text cells are matched by `search_text` (kept per revision).
# SQLite's LIKE ignores ASCII case, so it answers what ILIKE would, at half the cost.
VISIBLE_FOR_SEARCH = Prepared(
    select(Spreadsheet.id, Spreadsheet.title, Spreadsheet.created, Spreadsheet.modified, Spreadsheet.revision,
           Spreadsheet.title.like(bindparam("pattern")).label("by_title"))
    .join(Permission, Permission.spreadsheet_id == Spreadsheet.id).where(Permission.email == bindparam("email"))
    .order_by(Spreadsheet.modified.desc(), Spreadsheet.id))
# The owners of every spreadsheet a person can open, in one read (a search lists several).
OWNERS_OF_VISIBLE = Prepared(select(Permission.spreadsheet_id, Permission.email).where(
    Permission.role == "owner", Permission.spreadsheet_id.in_(select(Permission.spreadsheet_id).where(Permission.email == bindparam("email"))))
    .order_by(Permission.spreadsheet_id, Permission.email))


@operation("sheets.files.list")
def files_list(self: Any, folder_id: FolderId | None = None) -> list[dict[str, str]]:
    """Spreadsheets you can open (in a folder, when given), most recently modified first: [{id, title}]."""
    query = _visible(self)
    if folder_id:
        query = query.where(Spreadsheet.folder_id == folder_id)
    found = self.db.scalars(query.order_by(Spreadsheet.modified.desc(), Spreadsheet.id)).all()
    return [{"id": s.id, "title": s.title} for s in found]


@operation("sheets.files.search")
def files_search(self: Any, query: Query, max_results: MaxResults = 20) -> list[dict[str, Any]]:
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
            if row.by_title or search_text.contains(self.db, row.id, row.revision, words.lower()):
                found.append(row)
                if len(found) == limit:
                    break
    else:
        found = SEARCH_IN_SQL.rows(self.db, email=self.actor_email, pattern=pattern, limit=limit)
    owners: dict[str, list[str]] = {}
    if found:
        for spreadsheet_id, email in OWNERS_OF_VISIBLE.rows(self.db, email=self.actor_email):
            owners.setdefault(spreadsheet_id, []).append(email)
    return [{"id": row.id, "name": row.title, "created_time": row.created, "modified_time": row.modified,
             "owners": owners.get(row.id, []), "web_link": f"https://docs.google.com/spreadsheets/d/{row.id}/edit"}
            for row in found]


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
    """Cells whose shown value contains the query: [{sheet, cell, value}], tab by tab, row by row."""
    self.opened(spreadsheet_id)
    tabs = self.tabs(spreadsheet_id)
    if sheet is not None:
        tabs = [t for t in tabs if t.title == sheet]
        if not tabs:
            raise invalid(f"Sheet '{sheet}' not found")
    needle = query if case_sensitive else query.lower()
    self.book(spreadsheet_id).save() if spreadsheet_id in self._books else None
    results: list[dict[str, Any]] = []
    for tab in tabs:
        rows = self.db.execute(select(Cell.row, Cell.col, Cell.kind, Cell.value, Cell.note, Cell.number_format).where(
            Cell.spreadsheet_id == spreadsheet_id, Cell.sheet_id == tab.sheet_id, Cell.kind != "").order_by(Cell.row, Cell.col)).all()
        for row, col, kind, value, note, fmt in rows:
            shown = display(decode(kind, value, note), load_json(fmt))
            text = str(shown) if case_sensitive else str(shown).lower()
            if needle in text:
                results.append({"sheet": tab.title, "cell": cell_name(row, col), "value": shown})
                if len(results) >= max_results:
                    return results
    return results
