"""QUERY: Google's query language over a range, the way a summary is written in one formula.

    =QUERY(A1:D, "select A, sum(D) where B = 'West' group by A label sum(D) 'Total'", 1)

The language is the Google Visualization API query language as Google Sheets runs it: clauses
select (columns, `*`, arithmetic, aggregates sum/count/avg/min/max, scalar functions), where
(comparisons, and/or/not, is [not] null, contains, starts with, ends with, matches, like), group
by, pivot, order by (asc/desc), limit, offset, label and format (parsed; formats are not
applied). Columns are the range's letters (`select B` of `Data!A1:D` is column B) or `Col1`,
`Col2`… (the only names an array such as `{A2:A, C2:C}` has). `headers` says how many rows on
top are headers (omitted: guessed, as Google does, from a first row of text over data).

As Google does: each column has one type, the one most of its cells have (numbers, text or
booleans), and cells of another type are null; an empty cell of a text column is '' (so
`where B <> ''` drops blanks there, `is not null` does not) and null in a number column; text
comparisons are case-sensitive; groups come out sorted by their keys; an aggregate's header is
`sum Amount` (its function and its column's header); a query with no rows left gives only its
header row, or #N/A when there is none.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError

from apps.sheets import regex
from apps.sheets.a1 import column_index, column_letter
from apps.sheets.formulas.evaluator import evaluate, function
from apps.sheets.formulas.values import (
    CellError, Matrix, check, fail, from_serial, matrix_of, scalar, to_number, to_serial, to_text,
)

GRAMMAR = r"""
?start: query
query: select? where? group? pivot? order? limit? offset? label? format? options?

select: SELECT (STAR | expr ("," expr)*)
where: WHERE expr
group: GROUP BY expr ("," expr)*
pivot: PIVOT expr ("," expr)*
order: ORDER BY order_item ("," order_item)*
order_item: expr [ASC | DESC]
limit: LIMIT NUMBER
offset: OFFSET NUMBER
label: LABEL label_item ("," label_item)*
format: FORMAT label_item ("," label_item)*
label_item: expr STRING
options: OPTIONS WORD+

?expr: or_expr
?or_expr: and_expr (OR and_expr)*
?and_expr: not_expr (AND not_expr)*
?not_expr: NOT not_expr -> negation
         | comparison
?comparison: sum_expr
           | sum_expr COMP sum_expr -> compare
           | sum_expr IS NULL -> is_null
           | sum_expr IS NOT NULL -> is_not_null
           | sum_expr CONTAINS sum_expr -> contains
           | sum_expr STARTS WITH sum_expr -> starts_with
           | sum_expr ENDS WITH sum_expr -> ends_with
           | sum_expr MATCHES sum_expr -> matches
           | sum_expr LIKE sum_expr -> like
?sum_expr: product (ADDOP product)*
?product: unary (MULOP unary)*
?unary: "-" unary -> minus
      | atom
?atom: NUMBER -> number
     | STRING -> string
     | TRUE -> true
     | FALSE -> false
     | DATE STRING -> date
     | (DATETIME | TIMESTAMP) STRING -> datetime
     | TIMEOFDAY STRING -> timeofday
     | AGG "(" expr ")" -> aggregate
     | AGG "(" STAR ")" -> aggregate
     | FUNC "(" [expr ("," expr)*] ")" -> func
     | ID -> column
     | QUOTED_ID -> quoted_column
     | "(" expr ")"

SELECT.3: /select\b/i
WHERE.3: /where\b/i
GROUP.3: /group\b/i
PIVOT.3: /pivot\b/i
ORDER.3: /order\b/i
BY.3: /by\b/i
LIMIT.3: /limit\b/i
OFFSET.3: /offset\b/i
LABEL.3: /label\b/i
FORMAT.3: /format\b/i
OPTIONS.3: /options\b/i
AND.3: /and\b/i
OR.3: /or\b/i
NOT.3: /not\b/i
IS.3: /is\b/i
NULL.3: /null\b/i
ASC.3: /asc\b/i
DESC.3: /desc\b/i
CONTAINS.3: /contains\b/i
STARTS.3: /starts\b/i
ENDS.3: /ends\b/i
WITH.3: /with\b/i
MATCHES.3: /matches\b/i
LIKE.3: /like\b/i
TRUE.3: /true\b/i
FALSE.3: /false\b/i
DATETIME.4: /datetime\b/i
TIMESTAMP.3: /timestamp\b/i
TIMEOFDAY.4: /timeofday\b/i
DATE.3: /date\b/i
AGG.3: /(sum|count|avg|min|max)(?=\s*\()/i
FUNC.3: /(year|month|day|hour|minute|second|millisecond|quarter|dayofweek|upper|lower|todate|now|datediff)(?=\s*\()/i
STAR: "*"
COMP: "<=" | ">=" | "!=" | "<>" | "=" | "<" | ">"
ADDOP: "+" | "-"
MULOP: "/" | "*"
NUMBER: /(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/
STRING: /'[^']*'|"[^"]*"/
QUOTED_ID: /`[^`]+`/
ID.1: /[A-Za-z_][A-Za-z0-9_]*/
WORD: /[A-Za-z_]+/
%ignore /\s+/
"""


class QueryError(ValueError):
    """A query that does not parse or names what the data does not have."""


@v_args(inline=True)
class _Tree(Transformer):
    """Expressions become tuples: ("col", name) ("lit", value) ("agg", fn, expr | None)
    ("fn", name, args) ("op", symbol, a, b) ("cmp", symbol, a, b) ("and"|"or", a, b) ("not", a)
    ("null", a, wanted) ("text", kind, a, b) ("neg", a)."""

    def number(self, token: Token) -> tuple:
        return ("lit", float(token))

    def string(self, token: Token) -> tuple:
        return ("lit", str(token)[1:-1])

    def true(self, _: Token) -> tuple:
        return ("lit", True)

    def false(self, _: Token) -> tuple:
        return ("lit", False)

    def date(self, _: Token, text: Token) -> tuple:
        try:
            return ("lit", to_serial(datetime.strptime(str(text)[1:-1].strip(), "%Y-%m-%d")))
        except ValueError:
            raise QueryError(f"Invalid date literal [{str(text)[1:-1]}]. Date literals should be of form yyyy-MM-dd.") from None

    def datetime(self, _: Token, text: Token) -> tuple:
        raw = str(text)[1:-1].strip()
        for form in ("%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
            try:
                return ("lit", to_serial(datetime.strptime(raw, form)))
            except ValueError:
                pass
        raise QueryError(f"Invalid datetime literal [{raw}]. Datetime literals should be of form yyyy-MM-dd HH:mm:ss.")

    def timeofday(self, _: Token, text: Token) -> tuple:
        raw = str(text)[1:-1].strip()
        for form in ("%H:%M:%S.%f", "%H:%M:%S", "%H:%M"):
            try:
                moment = datetime.strptime(raw, form)
                return ("lit", (moment.hour * 3600 + moment.minute * 60 + moment.second + moment.microsecond / 1e6) / 86400)
            except ValueError:
                pass
        raise QueryError(f"Invalid timeofday literal [{raw}].")

    def aggregate(self, fn: Token, arg: Any) -> tuple:
        name = str(fn).lower()
        if isinstance(arg, Token):  # count(*)
            if name != "count":
                raise QueryError(f"{name}(*) is not supported; only count(*).")
            return ("agg", name, None)
        return ("agg", name, arg)

    def func(self, fn: Token, *args: Any) -> tuple:
        return ("fn", str(fn).lower(), tuple(a for a in args if a is not None))

    def column(self, token: Token) -> tuple:
        return ("col", str(token))

    def quoted_column(self, token: Token) -> tuple:
        return ("col", str(token)[1:-1])

    def minus(self, value: Any) -> tuple:
        if value[0] == "lit" and isinstance(value[1], float):
            return ("lit", -value[1])
        return ("neg", value)

    def _chain(self, *parts: Any) -> Any:
        node = parts[0]
        for i in range(1, len(parts), 2):
            node = ("op", str(parts[i]), node, parts[i + 1])
        return node

    sum_expr = product = _chain

    def or_expr(self, *parts: Any) -> tuple:
        node = parts[0]
        for part in parts[2::2]:
            node = ("or", node, part)
        return node

    def and_expr(self, *parts: Any) -> tuple:
        node = parts[0]
        for part in parts[2::2]:
            node = ("and", node, part)
        return node

    def negation(self, _: Token, value: Any) -> tuple:
        return ("not", value)

    def compare(self, a: Any, symbol: Token, b: Any) -> tuple:
        return ("cmp", "!=" if str(symbol) == "<>" else str(symbol), a, b)

    def is_null(self, a: Any, *_: Any) -> tuple:
        return ("null", a, True)

    def is_not_null(self, a: Any, *_: Any) -> tuple:
        return ("null", a, False)

    def contains(self, a: Any, _: Token, b: Any) -> tuple:
        return ("text", "contains", a, b)

    def starts_with(self, a: Any, _: Token, __: Token, b: Any) -> tuple:
        return ("text", "starts", a, b)

    def ends_with(self, a: Any, _: Token, __: Token, b: Any) -> tuple:
        return ("text", "ends", a, b)

    def matches(self, a: Any, _: Token, b: Any) -> tuple:
        return ("text", "matches", a, b)

    def like(self, a: Any, _: Token, b: Any) -> tuple:
        return ("text", "like", a, b)

    # clauses: (name, content)
    def select(self, _: Token, *items: Any) -> tuple:
        if len(items) == 1 and isinstance(items[0], Token):
            return ("select", None)  # select *
        return ("select", items)

    def where(self, _: Token, cond: Any) -> tuple:
        return ("where", cond)

    def group(self, _: Token, __: Token, *items: Any) -> tuple:
        return ("group", items)

    def pivot(self, _: Token, *items: Any) -> tuple:
        return ("pivot", items)

    def order_item(self, expr: Any, direction: Token | None = None) -> tuple:
        return (expr, direction is not None and str(direction).lower() == "desc")

    def order(self, _: Token, __: Token, *items: Any) -> tuple:
        return ("order", items)

    def limit(self, _: Token, n: Token) -> tuple:
        return ("limit", int(float(n)))

    def offset(self, _: Token, n: Token) -> tuple:
        return ("offset", int(float(n)))

    def label_item(self, expr: Any, text: Token) -> tuple:
        return (expr, str(text)[1:-1])

    def label(self, _: Token, *items: Any) -> tuple:
        return ("label", items)

    def format(self, _: Token, *items: Any) -> tuple:
        return ("format", items)

    def options(self, _: Token, *words: Any) -> tuple:
        return ("options", tuple(str(w) for w in words))

    def query(self, *clauses: Any) -> dict[str, Any]:
        return {c[0]: c[1] for c in clauses if c is not None}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """Built on first use: building the LALR tables is ~0.3 s, which every process importing
    the formula engine (a server, a CLI call, a test worker) paid at start for a function
    few spreadsheets use."""
    return Lark(GRAMMAR, parser="lalr", maybe_placeholders=True, transformer=_Tree())


@lru_cache(maxsize=1024)
def parse_query(text: str) -> dict[str, Any]:
    """The clauses of a query; QueryError (with Google's wording) when it does not parse."""
    try:
        return _parser().parse(text)
    except QueryError:
        raise
    except LarkError as bad:
        token = getattr(bad, "token", None)
        where = f' Encountered "{token}" at column {getattr(bad, "column", "?")}.' if token is not None else ""
        raise QueryError(f"PARSE_ERROR:{where}") from None


# -- the data ---------------------------------------------------------------------------------

NUMBER, TEXT, BOOLEAN = "number", "string", "boolean"


def _kind(value: Any) -> str | None:
    if value is None or isinstance(value, CellError):
        return None
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, (int, float)):
        return NUMBER
    if isinstance(value, str):
        return TEXT if value != "" else None
    return None


def _column_types(rows: list[list[Any]], width: int) -> list[str]:
    """Each column's type: the one most of its cells have (text when none has any)."""
    kinds = []
    for c in range(width):
        counts = {NUMBER: 0, TEXT: 0, BOOLEAN: 0}
        for row in rows:
            kind = _kind(row[c])
            if kind is not None:
                counts[kind] += 1
        best = max(counts.values())
        kinds.append(TEXT if best == 0 else next(k for k in (NUMBER, TEXT, BOOLEAN) if counts[k] == best))
    return kinds


def _typed(value: Any, kind: str) -> Any:
    """A cell as its column's type reads it: of another type, null; empty text '' in a text column."""
    if isinstance(value, CellError):
        return None
    if kind == TEXT:
        if value is None:
            return ""
        return value if isinstance(value, str) else None
    if kind == NUMBER:
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    return value if isinstance(value, bool) else None


def _guess_headers(rows: list[list[Any]]) -> int:
    """Google's guess when `headers` is left out: the first row is a header when all its cells
    are text and some column below it holds numbers or booleans."""
    if len(rows) < 2 or not all(isinstance(v, str) and v != "" for v in rows[0]):
        return 0
    body = _column_types(rows[1:], len(rows[0]))
    return 1 if any(kind != TEXT for kind in body) else 0


class _Columns:
    """Column names to positions: the range's letters (from its first column), and Col1, Col2…"""

    def __init__(self, first: int | None, width: int) -> None:
        self.first, self.width = first, width

    def index(self, name: str) -> int:
        match = re.fullmatch(r"col(\d+)", name, re.I)
        if match:
            at = int(match[1]) - 1
        elif re.fullmatch(r"[A-Za-z]{1,3}", name):
            at = column_index(name) - (self.first or 0)
        else:
            at = -1
        if not 0 <= at < self.width:
            raise QueryError(f"NO_COLUMN: {name}")
        return at

    def name(self, at: int) -> str:
        return column_letter(at + self.first) if self.first is not None else f"Col{at + 1}"


# -- evaluation ---------------------------------------------------------------------------------

def _has_aggregate(node: Any) -> bool:
    if not isinstance(node, tuple):
        return False
    if node[0] == "agg":
        return True
    return any(_has_aggregate(part) for part in node[1:] if isinstance(part, tuple))


def _text_of(node: Any, columns: _Columns) -> str:
    """An expression as Google writes it back (for matching labels and default headers)."""
    kind = node[0]
    if kind == "col":
        return columns.name(columns.index(node[1]))
    if kind == "lit":
        value = node[1]
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return to_text(value)
        return f"'{value}'"
    if kind == "agg":
        return f"{node[1]}({'*' if node[2] is None else _text_of(node[2], columns)})"
    if kind == "fn":
        return f"{node[1]}({', '.join(_text_of(a, columns) for a in node[2])})"
    if kind == "op":
        return f"{_text_of(node[2], columns)}{node[1]}{_text_of(node[3], columns)}"
    if kind == "neg":
        return f"-{_text_of(node[1], columns)}"
    return kind


def _numeric(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _arith(symbol: str, a: Any, b: Any) -> Any:
    x, y = _numeric(a), _numeric(b)
    if x is None or y is None:
        return None
    if symbol == "+":
        return x + y
    if symbol == "-":
        return x - y
    if symbol == "*":
        return x * y
    return None if y == 0 else x / y


def _compare(symbol: str, a: Any, b: Any) -> bool:
    if a is None or b is None:
        return False
    if isinstance(a, bool) != isinstance(b, bool) or isinstance(a, str) != isinstance(b, str):
        return False
    if symbol == "=":
        return a == b
    if symbol == "!=":
        return a != b
    if symbol == "<":
        return a < b
    if symbol == ">":
        return a > b
    if symbol == "<=":
        return a <= b
    return a >= b


def _like(pattern: str) -> Any:
    """LIKE's pattern (% any run, _ any one character), on RE2 (regex.py): "%a%a%a%…b" backtracks."""
    return regex.compiled("(?s)" + "".join(".*" if ch == "%" else "." if ch == "_" else regex.escaped(ch) for ch in pattern))


def _text_test(kind: str, a: Any, b: Any) -> bool:
    if not isinstance(a, str) or not isinstance(b, str):
        return False
    if kind == "contains":
        return b in a
    if kind == "starts":
        return a.startswith(b)
    if kind == "ends":
        return a.endswith(b)
    if kind == "like":
        return _like(b).fullmatch(a) is not None
    try:
        return regex.compiled(b).fullmatch(a) is not None
    except regex.BadPattern:
        raise QueryError(f"Invalid regular expression in matches: {b}") from None


def _scalar_fn(name: str, args: list[Any], now: datetime) -> Any:
    if name == "now":
        return to_serial(now)
    if not args:
        raise QueryError(f"Function {name} needs an argument.")
    value = args[0]
    if name in ("upper", "lower"):
        return None if not isinstance(value, str) else (value.upper() if name == "upper" else value.lower())
    if name == "todate":
        number = _numeric(value)
        return None if number is None else float(math.floor(number))
    if name == "datediff":
        a, b = _numeric(value), _numeric(args[1]) if len(args) > 1 else None
        return None if a is None or b is None else float(math.floor(a) - math.floor(b))
    number = _numeric(value)
    if number is None:
        return None
    moment = from_serial(number)
    found = {"year": moment.year, "month": moment.month - 1, "day": moment.day, "hour": moment.hour,
             "minute": moment.minute, "second": moment.second, "millisecond": moment.microsecond // 1000,
             "quarter": (moment.month - 1) // 3 + 1, "dayofweek": (moment.weekday() + 1) % 7 + 1}.get(name)
    return None if found is None else float(found)


def _aggregate(name: str, values: list[Any]) -> Any:
    present = [v for v in values if v is not None and not (isinstance(v, str) and v == "" and name != "count")]
    if name == "count":
        return float(sum(1 for v in values if v is not None and v != ""))
    if name in ("sum", "avg"):
        numbers = [v for v in present if _numeric(v) is not None]
        if not numbers:
            return None
        total = math.fsum(numbers)
        return total if name == "sum" else total / len(numbers)
    if not present:
        return None
    if all(isinstance(v, str) for v in present) or all(_numeric(v) is not None for v in present) or all(isinstance(v, bool) for v in present):
        return min(present) if name == "min" else max(present)
    return None


class _Runner:
    def __init__(self, columns: _Columns, now: datetime) -> None:
        self.columns, self.now = columns, now

    def value(self, node: Any, row: list[Any], group: list[list[Any]] | None = None) -> Any:
        kind = node[0]
        if kind == "col":
            return row[self.columns.index(node[1])]
        if kind == "lit":
            return node[1]
        if kind == "agg":
            if group is None:
                raise QueryError("Aggregate functions are allowed only in select, order by, label and format.")
            if node[2] is None:
                return float(len(group))
            return _aggregate(node[1], [self.value(node[2], r) for r in group])
        if kind == "fn":
            return _scalar_fn(node[1], [self.value(a, row, group) for a in node[2]], self.now)
        if kind == "op":
            return _arith(node[1], self.value(node[2], row, group), self.value(node[3], row, group))
        if kind == "neg":
            number = _numeric(self.value(node[1], row, group))
            return None if number is None else -number
        if kind == "cmp":
            return _compare(node[1], self.value(node[2], row, group), self.value(node[3], row, group))
        if kind == "and":
            return bool(self.value(node[1], row, group)) and bool(self.value(node[2], row, group))
        if kind == "or":
            return bool(self.value(node[1], row, group)) or bool(self.value(node[2], row, group))
        if kind == "not":
            return not self.value(node[1], row, group)
        if kind == "null":
            return (self.value(node[1], row, group) is None) == node[2]
        if kind == "text":
            return _text_test(node[1], self.value(node[2], row, group), self.value(node[3], row, group))
        raise QueryError(f"cannot evaluate {kind}")


def _sort_key(value: Any) -> tuple[int, Any]:
    """Ascending order: nulls first, then numbers, booleans (false before true), text."""
    if value is None:
        return (0, 0)
    if isinstance(value, bool):
        return (2, value)
    if isinstance(value, (int, float)):
        return (1, value)
    return (3, str(value))


def _sort(items: list[Any], keys: list[tuple[Callable[[Any], Any], bool]]) -> list[Any]:
    for key, descending in reversed(keys):  # stable sorts, last key first
        items = sorted(items, key=lambda item, k=key: _sort_key(k(item)), reverse=descending)
    return items


def run_query(rows: list[list[Any]], text: str, headers: int | None, first_column: int | None,
              now: datetime) -> list[list[Any]]:
    """The query's result table (its header row first, when it has one)."""
    width = len(rows[0]) if rows else 0
    clauses = parse_query(text.strip())
    if headers is None:
        headers = _guess_headers(rows)
    headers = max(0, min(headers, len(rows)))
    head, body = rows[:headers], rows[headers:]
    columns = _Columns(first_column, width)
    kinds = _column_types(body, width)
    body = [[_typed(row[c], kinds[c]) for c in range(width)] for row in body]
    names = [" ".join(to_text(h[c]) for h in head if h[c] not in (None, "")) for c in range(width)]
    runner = _Runner(columns, now)

    selected = clauses.get("select")
    items = list(selected) if selected else [("col", columns.name(c)) for c in range(width)]
    labels = {_text_of(expr, columns): label for expr, label in clauses.get("label", ())}
    group_by = list(clauses.get("group", ()))
    pivot = list(clauses.get("pivot", ()))
    grouped = bool(group_by or pivot) or any(_has_aggregate(item) for item in items)
    where = clauses.get("where")
    if where is not None:
        if _has_aggregate(where):
            raise QueryError("Aggregate functions are not allowed in the where clause.")
        body = [row for row in body if runner.value(where, row)]

    def header_of(expr: Any) -> str:
        found = labels.get(_text_of(expr, columns))
        if found is not None:
            return found
        if expr[0] == "col":
            return names[columns.index(expr[1])]
        if expr[0] == "agg" and expr[2] is not None and expr[2][0] == "col":
            return f"{expr[1]} {names[columns.index(expr[2][1])]}".strip()
        return _text_of(expr, columns)

    order = list(clauses.get("order", ()))
    if not grouped:
        out_rows = body
        if order:
            out_rows = _sort(out_rows, [(lambda row, e=e: runner.value(e, row), desc) for e, desc in order])
        out_rows = _window(out_rows, clauses)
        table = [[runner.value(item, row) for item in items] for row in out_rows]
        header = [header_of(item) for item in items]
    else:
        for item in items:
            if not _has_aggregate(item) and item not in group_by and item not in pivot:
                raise QueryError(f"ADD_COL_TO_GROUP_BY_OR_AGG: {_text_of(item, columns)}")
        groups: dict[tuple[Any, ...], list[list[Any]]] = {}
        for row in body:
            groups.setdefault(tuple(runner.value(e, row) for e in group_by), []).append(row)
        if not group_by and not groups:
            groups[()] = []
        keys = sorted(groups, key=lambda k: tuple(_sort_key(v) for v in k))
        if pivot:
            header, table = _pivoted(runner, items, group_by, pivot, groups, keys, body, header_of)
            order_keys = [(lambda line, e=e: line[items.index(e)] if e in items else None, desc) for e, desc in order]
            table = _window(_sort(table, order_keys) if order else table, clauses)
        else:
            lines = [(key, groups[key]) for key in keys]
            if order:
                lines = _sort(lines, [(lambda kv, e=e: runner.value(e, kv[1][0] if kv[1] else [None] * width, kv[1]), desc)
                                      for e, desc in order])
            lines = _window(lines, clauses)
            table = [[runner.value(item, members[0] if members else [None] * width, members) for item in items]
                     for _, members in lines]
            header = [header_of(item) for item in items]
    if headers or any(h != "" for h in header):
        return [header, *table]
    return table


def _window(items: list[Any], clauses: dict[str, Any]) -> list[Any]:
    skip = clauses.get("offset", 0)
    items = items[skip:] if skip else items
    limit = clauses.get("limit")
    return items[:limit] if limit is not None else items


def _pivoted(runner: _Runner, items: list[Any], group_by: list[Any], pivot: list[Any], groups: dict[tuple[Any, ...], list[list[Any]]],
             keys: list[tuple[Any, ...]], body: list[list[Any]], header_of: Callable[[Any], str]) -> tuple[list[Any], list[list[Any]]]:
    """`pivot`: a column per value of the pivot columns and aggregate of the select clause."""
    plain = [item for item in items if not _has_aggregate(item)]
    aggregates = [item for item in items if _has_aggregate(item)]
    if any(item not in group_by for item in plain):
        raise QueryError("Columns in the select clause of a pivot query must be grouped or aggregated.")
    pivots = sorted({tuple(runner.value(p, row) for p in pivot) for row in body}, key=lambda k: tuple(_sort_key(v) for v in k))
    header = [header_of(item) for item in plain]
    for value in pivots:
        text = ", ".join(to_text(v) if v is not None else "" for v in value)
        for agg in aggregates:
            header.append(text if len(aggregates) == 1 else f"{text} {header_of(agg)}")
    table = []
    for key in keys:
        members = groups[key]
        line = [runner.value(item, members[0], members) for item in plain]
        for value in pivots:
            part = [row for row in members if tuple(runner.value(p, row) for p in pivot) == value]
            for agg in aggregates:
                line.append(runner.value(agg, part[0], part) if part else None)
        table.append(line)
    return header, table


@function("QUERY", 2, 3, lazy=True)
def _query(ctx: Any, data: Any, query: Any, headers: Any = None) -> Any:
    """QUERY(data, query, [headers]): the table the query gives over the data."""
    first = None
    if data[0] == "ref":
        first = data[2].c1
    elif data[0] == "name" and not (getattr(ctx, "bound", None) or {}).get(data[1].upper()):
        found = ctx.resolve_name(data[1])
        first = found[1].c1 if found is not None else None
    grid = matrix_of(evaluate(data, ctx))
    if isinstance(scalar(grid), CellError) and grid.height == 1 and grid.width == 1:
        return scalar(grid)
    text = to_text(check(scalar(evaluate(query, ctx))))
    count = None
    if headers is not None and headers[0] != "blank":
        value = check(scalar(evaluate(headers, ctx)))
        count = None if value is None else int(to_number(value))
        if count is not None and count < 0:
            count = None  # -1: guess, as Google does
    try:
        table = run_query([list(row) for row in grid.rows], text, count, first, getattr(ctx, "now", datetime(2026, 1, 1)))
    except QueryError as bad:
        raise fail("#VALUE!", f"Unable to parse query string for Function QUERY parameter 2: {bad}") from None
    if not table:
        raise fail("#N/A", "Query completed with an empty output.")
    return Matrix(table)
