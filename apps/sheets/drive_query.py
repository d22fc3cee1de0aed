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

from apps.sheets.errors import invalid

SHEET_MIME = "application/vnd.google-apps.spreadsheet"
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
        return (wanted is False) == (term.op != "!=")  # nothing here is trashed or starred
    if term.field == "parents":
        return term.value in (file.get("parents") or ())
    return False
