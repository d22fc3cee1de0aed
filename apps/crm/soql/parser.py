"""SOQL text to its parsed form (ast.py), with lark's LALR parser over soql.lark.

A query that does not parse raises `SoqlError("MALFORMED_QUERY")` pointing at the row and
column where it went wrong, the way Salesforce reports it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, v_args
from lark.exceptions import VisitError

from apps.crm.soql import ast as A

MAX_QUERY_CHARS = 100_000  # Salesforce's limit on a SOQL statement's length
MAX_ROWS = 50_000_000  # LIMIT and OFFSET above this are refused
MAX_NESTING = 20  # parentheses deeper than this are refused (the tree walk and SQL parsers recurse)


class SoqlError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@cache
def _parser(start: str) -> Lark:
    """One parser per start rule (soql or sosl), each building its parsed form as it parses:
    lark's LALR parser runs the transformer on each rule as it reduces it, with no parse tree
    in between (half of a new query's parse time)."""
    grammar = (Path(__file__).parent / "soql.lark").read_text()
    transformer = _ToAst() if start == "start" else _ToSosl()
    return Lark(grammar, parser="lalr", start=start, maybe_placeholders=True, transformer=transformer)


def _unquote(token: str) -> str:
    body = token[1:-1]
    out, escaped = [], False
    for ch in body:
        if escaped:
            out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(ch, ch))
            escaped = False
        elif ch == "\\":
            escaped = True
        else:
            out.append(ch)
    return "".join(out)


@v_args(inline=True)
class _ToAst(Transformer):
    def start(self, query: A.Query) -> A.Query:  # noqa: D102 - the SOQL start rule
        return query

    def query(self, select, name, where, group_by, having, order_by, limit, offset, _for=None) -> A.Query:
        return A.Query(str(name), tuple(select), where, tuple(group_by or ()), having, tuple(order_by or ()), limit, offset)

    def subquery(self, select, name, where, order_by, limit) -> A.Query:
        return A.Query(str(name), tuple(select), where, (), None, tuple(order_by or ()), limit, None)

    def semijoin(self, fld, name, where) -> A.Query:
        return A.Query(str(name), (fld,), where)

    def select_list(self, *items) -> list[Any]:
        return list(items)

    def aliased(self, expr, alias) -> A.Aliased:
        return A.Aliased(expr, str(alias) if alias is not None else None)

    def aggregate(self, func, arg) -> A.Aggregate:
        return A.Aggregate(str(func).upper(), arg)

    def datefn(self, func, arg) -> A.DateFn:
        return A.DateFn(str(func).upper(), arg)

    def field(self, *names) -> A.FieldRef:
        return A.FieldRef(tuple(str(n) for n in names))

    def where(self, cond):
        return cond

    def having(self, cond):
        return cond

    def any_of(self, *items):
        return items[0] if len(items) == 1 else A.Logic("OR", items)

    def all_of(self, *items):
        return items[0] if len(items) == 1 else A.Logic("AND", items)

    def negated(self, item):
        return A.Logic("NOT", (item,))

    def compare(self, left, op, value):
        return A.Compare("!=" if str(op) == "<>" else str(op), left, (value,))

    def like(self, left, value):
        return A.Compare("LIKE", left, (value,))

    def in_values(self, left, values):
        return A.Compare("IN", left, tuple(values))

    def not_in_values(self, left, values):
        return A.Compare("NOT IN", left, tuple(values))

    def in_query(self, left, query):
        return A.SemiJoin(False, left, query)

    def not_in_query(self, left, query):
        return A.SemiJoin(True, left, query)

    def includes(self, left, values):
        return A.Compare("INCLUDES", left, tuple(values))

    def excludes(self, left, values):
        return A.Compare("EXCLUDES", left, tuple(values))

    def values(self, *items):
        return list(items)

    def string(self, token):
        return A.Literal("string", _unquote(str(token)))

    def number(self, token):
        text = str(token)
        value = float(text) if any(c in text for c in ".eE") else int(text)
        if isinstance(value, int) and abs(value) > 2**53:  # beyond exact integers: compare as a double, as Salesforce does
            value = float(value)
        return A.Literal("number", value)

    def date(self, token):
        return A.Literal("date", str(token))

    def datetime(self, token):
        return A.Literal("datetime", str(token))

    def null(self):
        return A.Literal("null", None)

    def true(self):
        return A.Literal("boolean", True)

    def false(self):
        return A.Literal("boolean", False)

    def relative(self, token):
        return A.Literal("relative", (str(token).upper(), None))

    def relative_n(self, token, n):
        return A.Literal("relative", (str(token).upper(), int(str(n))))

    def group_by(self, *items):
        return list(items)

    def order_by(self, *items):
        return list(items)

    def order_item(self, expr, direction, nulls):
        descending = direction is not None and str(direction).upper() == "DESC"
        nulls_last = descending if nulls is None else str(nulls).upper().split()[-1] == "LAST"
        return A.Order(expr, descending, nulls_last)

    def limit(self, n):
        return _bounded(n, "LIMIT")

    def offset(self, n):
        return _bounded(n, "OFFSET")


def _bounded(token: Token, clause: str) -> int:
    value = int(str(token))
    if value > MAX_ROWS:
        raise SoqlError("NUMBER_OUTSIDE_VALID_RANGE", f"{clause} {value} is too large: at most {MAX_ROWS:,}")
    return value


def parse(text: str) -> A.Query:
    if not isinstance(text, str) or not text.strip():
        raise SoqlError("MALFORMED_QUERY", "the query is empty; write SELECT fields FROM Object")
    if len(text) > MAX_QUERY_CHARS:
        raise SoqlError("MALFORMED_QUERY", f"the query is {len(text)} characters long; the limit is {MAX_QUERY_CHARS}")
    _check_nesting(text, "MALFORMED_QUERY")
    try:
        return _parser("start").parse(text)
    except UnexpectedInput as error:
        raise SoqlError("MALFORMED_QUERY", _malformed(text, error)) from None
    except VisitError as error:  # a transform step refused a value (an oversized LIMIT)
        if isinstance(error.orig_exc, SoqlError):
            raise error.orig_exc from None
        raise
    except RecursionError:
        raise SoqlError("MALFORMED_QUERY", f"the query nests too deeply (at most {MAX_NESTING} levels)") from None


def _check_nesting(text: str, code: str) -> None:
    """Refuse absurd nesting before parsing: parentheses (outside quoted strings) and NOT chains."""
    depth = deepest = 0
    closing = ""  # inside a 'string' or a {search term}: the character that ends it
    escaped = False
    for ch in text:
        if closing:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == closing:
                closing = ""
        elif ch in "'{":
            closing = "'" if ch == "'" else "}"
        elif ch == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == ")":
            depth -= 1
    nots = len(re.findall(r"(?i)\bNOT\b", text))
    if deepest > MAX_NESTING or nots > MAX_NESTING * 2:
        raise SoqlError(code, f"the query nests too deeply: at most {MAX_NESTING} levels of parentheses and {MAX_NESTING * 2} NOTs")


def _malformed(text: str, error: UnexpectedInput) -> str:
    """Salesforce's wording: the line, a caret under the spot, then "ERROR at Row:r:Column:c"."""
    line = getattr(error, "line", 1) or 1
    column = getattr(error, "column", 1) or 1
    if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        what = "unexpected end of query"
    elif isinstance(error, UnexpectedToken):
        what = f"unexpected token: '{error.token}'"
    elif isinstance(error, UnexpectedCharacters):
        what = f"unexpected character: '{text[error.pos_in_stream]}'" if error.pos_in_stream < len(text) else "unexpected character"
    else:
        what = "unexpected input"
    source = (text.splitlines() or [""])[max(0, line - 1)] if line > 0 else ""
    caret = " " * max(0, column - 1) + "^"
    return f"\n{source[:200]}\n{caret[:201]}\nERROR at Row:{line}:Column:{column}\n{what}"


__all__ = ["SoqlError", "parse", "Token"]


@v_args(inline=True)
class _ToSosl(_ToAst):
    def sosl(self, term, scope, returning, limit):
        return {"term": str(term)[1:-1], "scope": (str(scope) if scope else "ALL").upper(), "returning": returning or [], "limit": limit}

    def sosl_in(self, scope):
        return scope

    def returning(self, *items):
        return list(items)

    def returning_item(self, name, spec):
        return {"object": str(name), **(spec or {"fields": [], "where": None, "order_by": (), "limit": None})}

    def returning_fields(self, *items):
        *fields, where, order_by, limit = items
        return {"fields": list(fields), "where": where, "order_by": tuple(order_by or ()), "limit": limit}


def parse_sosl(text: str) -> dict:
    """A SOSL search as {"term", "scope", "returning": [{object, fields, where, order_by, limit}], "limit"}."""
    if not isinstance(text, str) or not text.strip():
        raise SoqlError("MALFORMED_SEARCH", "the search is empty; write FIND {words} RETURNING Object(fields)")
    if len(text) > MAX_QUERY_CHARS:
        raise SoqlError("MALFORMED_SEARCH", f"the search is {len(text)} characters long; the limit is {MAX_QUERY_CHARS}")
    _check_nesting(text, "MALFORMED_SEARCH")
    try:
        return _parser("sosl").parse(text)
    except UnexpectedInput as error:
        raise SoqlError("MALFORMED_SEARCH", _malformed(text, error)) from None
    except VisitError as error:
        if isinstance(error.orig_exc, SoqlError):
            raise error.orig_exc from None
        raise
    except RecursionError:
        raise SoqlError("MALFORMED_SEARCH", f"the search nests too deeply (at most {MAX_NESTING} levels)") from None
