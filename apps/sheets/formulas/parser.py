"""Formula text → syntax tree, with a lark LALR grammar.

A reference (`A1`, `$B$2:C9`, `'Q3 Plan'!A:A`, `Data!2:5`) is one token; its parts are read
by `apps.sheets.a1`, so the formula language and the API's ranges agree on one notation. The
tree is plain tuples, cached by formula text, so a workbook with a thousand copies of one
formula parses it once:

    ("num", 1.0) ("str", "x") ("bool", True) ("err", "#N/A") ("name", "Revenue")
    ("ref", sheet | None, GridRange, text) ("call", "SUM", (args…)) ("op", "+", a, b)
    ("neg", a) ("pct", a) ("array", ((…), …)) ("blank",)

Precedence is the spreadsheets': comparison < & < + - < * / < ^ < unary minus < %, so
`-2^2` is 4 as in Google Sheets, Excel and LibreOffice.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError
from lark.lexer import LexerThread

from apps.sheets.a1 import A1Error, parse_area, split_sheet

_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!"
_COL = r"\$?[A-Za-z]{1,3}"
_ROW = r"\$?[0-9]+"
_AREA = rf"(?:{_COL}{_ROW}(?::{_COL}(?:{_ROW})?)?|{_COL}:{_COL}(?:{_ROW})?|{_ROW}:{_ROW})"

GRAMMAR = rf"""
?start: expr
?expr: comparison
?comparison: concat (COMP concat)*
?concat: additive ("&" additive)*
?additive: product (ADD product)*
?product: power (MUL power)*
?power: unary ("^" unary)*
?unary: "-" unary -> neg
      | "+" unary
      | postfix
?postfix: primary "%" -> pct
        | primary
?primary: NUMBER -> number
        | STRING -> string
        | ERROR -> error
        | REF -> ref
        | FUNC "(" [arg ("," arg)*] ")" -> call
        | NAME -> name
        | "(" expr ")"
        | "{{" row (";" row)* "}}" -> array
row: expr ("," expr)*
arg: expr?

COMP: "<>" | "<=" | ">=" | "=" | "<" | ">"
ADD: "+" | "-"
MUL: "*" | "/"
NUMBER: /(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/
STRING: /"(?:[^"]|"")*"/
ERROR.4: /#(DIV\/0!|N\/A|NAME\?|NULL!|NUM!|REF!|VALUE!|ERROR!)/
FUNC.3: /[A-Za-z_][A-Za-z0-9_.]*(?=\s*\()/
REF.2: /(?:{_SHEET})?{_AREA}(?![A-Za-z0-9_.(!])/
NAME.1: /[A-Za-z_][A-Za-z0-9_.]*/
%ignore /[ \t\r\n]+/
"""



class FormulaSyntaxError(ValueError):
    """Formula text that does not parse; the message says where."""


def ref_node(text: str) -> tuple[Any, ...]:
    sheet, area = split_sheet(text)
    try:
        grid = parse_area(area.replace("$", ""), sheet)
    except A1Error:
        raise FormulaSyntaxError(f"invalid reference {text!r}") from None
    return ("ref", sheet, grid, text)


@v_args(inline=True)
class _Tree(Transformer):
    def number(self, token: Token) -> tuple:
        return ("num", float(token))

    def string(self, token: Token) -> tuple:
        return ("str", token[1:-1].replace('""', '"'))

    def error(self, token: Token) -> tuple:
        return ("err", token.upper())

    def ref(self, token: Token) -> tuple:
        return ref_node(str(token))

    def name(self, token: Token) -> tuple:
        upper = token.upper()
        if upper in ("TRUE", "FALSE"):
            return ("bool", upper == "TRUE")
        return ("name", str(token))

    def call(self, func: Token, *args: Any) -> tuple:
        name = func.upper()
        if len(args) == 1 and args[0] is None:  # FUNC() with no arguments
            args = ()
        return ("call", name, tuple(("blank",) if a is None else a for a in args))

    def arg(self, expr: Any = None) -> Any:
        return expr

    def neg(self, value: Any) -> tuple:
        if value[0] == "num":
            return ("num", -value[1])
        return ("neg", value)

    def pct(self, value: Any) -> tuple:
        return ("pct", value)

    def row(self, *items: Any) -> tuple:
        return items

    def array(self, *rows: Any) -> tuple:
        return ("array", rows)

    def _chain(self, *parts: Any) -> Any:
        node = parts[0]
        for i in range(1, len(parts), 2):
            node = ("op", str(parts[i]), node, parts[i + 1])
        return node

    comparison = additive = product = _chain

    def concat(self, *parts: Any) -> tuple:
        node = parts[0]
        for part in parts[1:]:
            node = ("op", "&", node, part)
        return node

    def power(self, *parts: Any) -> tuple:
        node = parts[0]
        for part in parts[1:]:
            node = ("op", "^", node, part)
        return node


# The transformer runs inside the LALR parser (no intermediate parse tree): ~3× faster.
_parser = Lark(GRAMMAR, parser="lalr", maybe_placeholders=True, transformer=_Tree())


@lru_cache(maxsize=8192)
def parse(text: str) -> tuple[Any, ...]:
    """The tree of a formula (with or without its leading '='); FormulaSyntaxError if bad."""
    body = text[1:] if text.startswith("=") else text
    if not body.strip():
        raise FormulaSyntaxError("the formula is empty")
    try:
        return _parser.parse(body)
    except FormulaSyntaxError:
        raise
    except LarkError as bad:
        raise FormulaSyntaxError(_explain(body, bad)) from None


def _explain(body: str, bad: LarkError) -> str:
    column = getattr(bad, "column", None)
    if isinstance(column, int) and column > 0:
        return f"Formula parse error at position {column}: {body[max(0, column - 1):column + 9]!r}"
    return "Formula parse error: unexpected end of formula" if "$END" in str(bad) else "Formula parse error"


# `Lark.lex` builds this lexer anew on every call (~0.5 ms); a structural edit rewrites every
# formula of the book, so it is built once here.
_lexer = _parser._build_lexer()


def tokens(text: str) -> list[Token]:
    """The formula's tokens with their positions (for rewriting references in place)."""
    body = text[1:] if text.startswith("=") else text
    return list(LexerThread.from_text(_lexer, body).lex(None))


def references(tree: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Every ("ref", …) and ("name", …) node of a tree."""
    found: list[tuple[Any, ...]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        kind = node[0]
        if kind in ("ref", "name"):
            found.append(node)
        elif kind == "call":
            stack.extend(node[2])
        elif kind == "op":
            stack.extend((node[2], node[3]))
        elif kind in ("neg", "pct"):
            stack.append(node[1])
        elif kind == "array":
            for row in node[1]:
                stack.extend(row)
    return found
