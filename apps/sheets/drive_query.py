"""Drive's search query (`files.list(q=…)`), read the way Drive reads it, for the REST face.

    name = 'Sales Forecast FY2026' and mimeType = 'application/vnd.google-apps.spreadsheet' and trashed = false
    fullText contains 'pipeline' or name contains "Budget"
    '<folder id>' in parents and not name contains 'draft'

Strings are quoted with ' or " (gspread sends "), a backslash escapes the quote; `and`, `or`,
`not` and parentheses combine terms. The fields a spreadsheet here has are understood: name,
fullText, mimeType, trashed, starred, parents. Any other field is an error that says which are
understood, rather than a silent wrong answer. A `fullText contains` term is searched in the
files' content (`Query.search_word`, one such term, joined by `and`); every other term is judged
on the file's own record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from apps.sheets.errors import SheetsError, invalid

SHEET_MIME = "application/vnd.google-apps.spreadsheet"
FOLDER_MIME = "application/vnd.google-apps.folder"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# What a Google Sheet exports to here (files.export): its MIME type → the format's extension.
# CSV and TSV hold the first tab, as Drive's do. Others (PDF, ODS, zipped HTML) are refused
# with Drive's 400 for a conversion it does not offer.
EXPORTS = {XLSX_MIME: "xlsx", "text/csv": "csv", "text/tab-separated-values": "tsv"}


class DriveError(SheetsError):
    """A Drive API error with Drive's own `reason` (notFound, fileNotExportable, …) and, for a
    bad parameter, its name: the Drive face answers {error: {code, message, errors: [{domain,
    reason, message, locationType, location}]}}."""

    def __init__(self, code: str, message: str, reason: str, location: str | None = None) -> None:
        super().__init__(code, message)
        self.reason = reason
        self.location = location
FIELDS = ("name", "fullText", "mimeType", "trashed", "starred", "parents")
_TOKEN = re.compile(r"""\s*(?:(?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?P<op><=|>=|!=|=|<|>|\(|\))|(?P<word>[A-Za-z_][\w.]*))""")


@dataclass(frozen=True)
class Term:
    field: str
    op: str  # contains, =, !=, in
    value: str


@dataclass(frozen=True)
class Query:
    tree: Any  # ("and"|"or", left, right) | ("not", node) | Term

    def terms(self) -> list[Term]:
        found: list[Term] = []

        def walk(node: Any) -> None:
            if isinstance(node, Term):
                found.append(node)
            else:
                for child in node[1:]:
                    walk(child)

        walk(self.tree)
        return found

    def search_word(self) -> str | None:
        """The word of the `fullText contains` term every match must meet (one joined by `and`
        at the top), searched in the files' content; None when the query asks no content."""
        required: list[Term] = []

        def conjuncts(node: Any) -> None:
            if isinstance(node, Term):
                required.append(node)
            elif node[0] == "and":
                conjuncts(node[1])
                conjuncts(node[2])

        conjuncts(self.tree)
        word = next((t.value for t in required if t.field == "fullText" and t.op == "contains"), None)
        others = [t for t in self.terms() if t.field == "fullText" and not (t.op == "contains" and t.value == word)]
        if others:
            raise invalid("Invalid Value: here fullText is searched as one `fullText contains '…'` joined to the rest by `and`")
        return word

    def folder(self) -> str | None:
        return next((t.value for t in self.terms() if t.field == "parents"), None)

    def matches(self, file: dict[str, Any], searched: str | None) -> bool:
        return _judge(self.tree, file, searched)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    at = 0
    text = text.rstrip()
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None or m.end() == at:
            raise invalid(f"Invalid Value: the query could not be read at character {at + 1}: {text[at:at + 20]!r}")
        at = m.end()
        if m.group("str") is not None:
            raw = m.group("str")
            out.append(("str", re.sub(r"\\(.)", r"\1", raw[1:-1])))
        elif m.group("op") is not None:
            out.append(("op", m.group("op")))
        else:
            out.append(("word", m.group("word")))
    return out


def parse(text: str) -> Query:
    tokens = _tokens(text)
    pos = 0

    def peek() -> tuple[str, str] | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> tuple[str, str]:
        nonlocal pos
        if pos >= len(tokens):
            raise invalid(f"Invalid Value: the query ends too soon: {text!r}")
        pos += 1
        return tokens[pos - 1]

    def keyword(token: tuple[str, str] | None, word: str) -> bool:
        return token is not None and token[0] == "word" and token[1].lower() == word

    def either() -> Any:
        node = both()
        while keyword(peek(), "or"):
            take()
            node = ("or", node, both())
        return node

    def both() -> Any:
        node = one()
        while keyword(peek(), "and"):
            take()
            node = ("and", node, one())
        return node

    def one() -> Any:
        token = take()
        if keyword(token, "not"):
            return ("not", one())
        if token == ("op", "("):
            node = either()
            if take() != ("op", ")"):
                raise invalid(f"Invalid Value: a parenthesis is not closed in {text!r}")
            return node
        if token[0] == "str":  # 'value' in field
            if not keyword(take(), "in"):
                raise invalid(f"Invalid Value: expected `in` after {token[1]!r} in {text!r}")
            field = take()
            return _term(field[1], "in", token[1])
        if token[0] != "word":
            raise invalid(f"Invalid Value: unexpected {token[1]!r} in {text!r}")
        field, op = token[1], take()
        if op[0] == "word" and op[1].lower() in ("contains", "in", "has"):
            value = take()
            if value[0] != "str" and op[1].lower() != "in":
                raise invalid(f"Invalid Value: {field} {op[1]} needs a quoted value, e.g. {field} {op[1]} 'Budget'")
            return _term(field, op[1].lower(), value[1])
        if op[0] != "op" or op[1] in ("(", ")"):
            raise invalid(f"Invalid Value: expected an operator after {field!r} in {text!r}")
        value = take()
        if value[0] == "op":
            raise invalid(f"Invalid Value: expected a value after {field} {op[1]} in {text!r}")
        return _term(field, op[1], value[1])

    tree = either()
    if pos != len(tokens):
        raise invalid(f"Invalid Value: unexpected {tokens[pos][1]!r} in {text!r}")
    return Query(tree)


def _term(field: str, op: str, value: str) -> Term:
    if field not in FIELDS:
        raise invalid(f"Invalid Value: the query field {field!r} is not supported here; use {', '.join(FIELDS)}")
    if field == "parents" and op != "in":
        raise invalid("Invalid Value: parents is asked as '<folder id>' in parents")
    if op in ("<", "<=", ">", ">="):
        raise invalid(f"Invalid Value: {field} cannot be compared with {op}")
    return Term(field, op, value)


def _judge(node: Any, file: dict[str, Any], searched: str | None) -> bool:
    if isinstance(node, Term):
        return _term_holds(node, file, searched)
    if node[0] == "not":
        return not _judge(node[1], file, searched)
    if node[0] == "and":
        return _judge(node[1], file, searched) and _judge(node[2], file, searched)
    return _judge(node[1], file, searched) or _judge(node[2], file, searched)


def _term_holds(term: Term, file: dict[str, Any], searched: str | None) -> bool:
    name = str(file.get("name") or "")
    if term.field == "fullText":  # every file the content search found for this word
        return term.value == searched
    if term.field == "name":
        if term.op == "contains":
            return term.value.lower() in name.lower()
        return (name == term.value) == (term.op == "=")
    if term.field == "mimeType":
        return (file.get("mimeType") == term.value) == (term.op != "!=")
    if term.field in ("trashed", "starred"):
        wanted = term.value.lower() == "true"
        return (bool(file.get(term.field)) == wanted) == (term.op != "!=")  # nothing here is starred
    if term.field == "parents":
        return term.value in (file.get("parents") or ())
    return False


# -- partial responses: the `fields` parameter ----------------------------------------------
# Drive answers only the fields asked: `id,name`, `files(id,name),nextPageToken`,
# `owners/emailAddress`, `*`. A name the resource does not have is Drive's 400 "Invalid field
# selection"; a field it has but that is unset here is simply left out, as Drive leaves it out.
FILE_FIELDS = frozenset((
    "appProperties", "capabilities", "clientEncryptionDetails", "contentHints", "contentRestrictions", "copyRequiresWriterPermission",
    "createdTime", "description", "downloadRestrictions", "driveId", "explicitlyTrashed", "exportLinks", "fileExtension",
    "folderColorRgb", "fullFileExtension", "hasAugmentedPermissions", "hasThumbnail", "headRevisionId", "iconLink", "id",
    "imageMediaMetadata", "inheritedPermissionsDisabled", "isAppAuthorized", "kind", "labelInfo", "lastModifyingUser",
    "linkShareMetadata", "md5Checksum", "mimeType", "modifiedByMe", "modifiedByMeTime", "modifiedTime", "name", "originalFilename",
    "ownedByMe", "owners", "parents", "permissionIds", "permissions", "properties", "quotaBytesUsed", "resourceKey", "sha1Checksum",
    "sha256Checksum", "shared", "sharedWithMeTime", "sharingUser", "shortcutDetails", "size", "spaces", "starred", "teamDriveId",
    "thumbnailLink", "thumbnailVersion", "trashed", "trashedTime", "trashingUser", "version", "videoMediaMetadata", "viewedByMe",
    "viewedByMeTime", "viewersCanCopyContent", "webContentLink", "webViewLink", "writersCanShare"))
USER_FIELDS = frozenset(("kind", "displayName", "emailAddress", "me", "permissionId", "photoLink"))
PERMISSION_FIELDS = frozenset((
    "allowFileDiscovery", "deleted", "displayName", "domain", "emailAddress", "expirationTime", "id", "inheritedPermissionsDisabled",
    "kind", "pendingOwner", "permissionDetails", "photoLink", "role", "teamDrivePermissionDetails", "type", "view"))
# What each resource's fields are, for checking a selection (a name maps to its own schema, or None: not checked below it).
FILE_SCHEMA: dict[str, Any] = {name: None for name in FILE_FIELDS} | {
    "owners": USER_FIELDS, "lastModifyingUser": USER_FIELDS, "sharingUser": USER_FIELDS, "trashingUser": USER_FIELDS,
    "permissions": PERMISSION_FIELDS}
FILE_LIST_SCHEMA: dict[str, Any] = {"kind": None, "nextPageToken": None, "incompleteSearch": None, "files": FILE_SCHEMA}
PERMISSION_LIST_SCHEMA: dict[str, Any] = {"kind": None, "nextPageToken": None, "permissions": PERMISSION_FIELDS}
ALL = True  # a selected field with everything under it
MAX_FIELDS = 2000  # characters of a `fields` parameter read


def parse_fields(text: str, schema: dict[str, Any] | frozenset[str] | None) -> dict[str, Any]:
    """A `fields` selection as a tree {name: ALL | {…}}, checked against the resource's schema."""
    if len(text) > MAX_FIELDS:
        raise DriveError("INVALID_ARGUMENT", f"Invalid field selection: longer than {MAX_FIELDS} characters", "invalidParameter", "fields")
    tokens = re.findall(r"[A-Za-z_$][\w$]*|\*|[(),/]|\S", text)
    pos = 0

    def bad(what: str) -> Exception:
        return DriveError("INVALID_ARGUMENT", f"Invalid field selection {what}", "invalidParameter", "fields")

    def selection(depth: int) -> dict[str, Any]:
        nonlocal pos
        tree: dict[str, Any] = {}
        while True:
            path = [name()]
            while pos < len(tokens) and tokens[pos] == "/":
                pos += 1
                path.append(name())
            below: Any = ALL
            if pos < len(tokens) and tokens[pos] == "(":
                if depth > 8:
                    raise bad(text)
                pos += 1
                below = selection(depth + 1)
                if pos >= len(tokens) or tokens[pos] != ")":
                    raise bad(text)
                pos += 1
            for part in reversed(path[1:]):
                below = {part: below}
            _merge(tree, path[0], below)
            if pos < len(tokens) and tokens[pos] == ",":
                pos += 1
                continue
            return tree

    def name() -> str:
        nonlocal pos
        if pos >= len(tokens) or not (tokens[pos] == "*" or re.fullmatch(r"[A-Za-z_$][\w$]*", tokens[pos])):
            raise bad(tokens[pos] if pos < len(tokens) else text)
        pos += 1
        return tokens[pos - 1]

    tree = selection(0)
    if pos != len(tokens):
        raise bad(tokens[pos])
    _check(tree, schema)
    return tree


def _merge(tree: dict[str, Any], key: str, below: Any) -> None:
    if key not in tree or below is ALL or tree[key] is ALL:
        tree[key] = ALL if below is ALL or tree.get(key) is ALL else below
        return
    for k, v in below.items():
        _merge(tree[key], k, v)


def _check(tree: dict[str, Any], schema: dict[str, Any] | frozenset[str] | None) -> None:
    if schema is None:
        return
    for key, below in tree.items():
        if key == "*":
            continue
        if key not in schema:
            raise DriveError("INVALID_ARGUMENT", f"Invalid field selection {key}", "invalidParameter", "fields")
        if below is not ALL:
            _check(below, schema.get(key) if isinstance(schema, dict) else None)


def select_fields(value: Any, tree: Any) -> Any:
    """`value` cut down to the selection (lists are selected item by item)."""
    if tree is ALL:
        return value
    if isinstance(value, list):
        return [select_fields(item, tree) for item in value]
    if not isinstance(value, dict):
        return value
    if "*" in tree:
        return {k: select_fields(v, tree[k]) if k in tree and tree[k] is not ALL else v for k, v in value.items()}
    return {k: select_fields(value[k], below) for k, below in tree.items() if k in value}
