"""Formula text → syntax tree, with a lark LALR grammar.

A reference (`A1`, `$B$2:C9`, `'Q3 Plan'!A:A`, `Data!2:5`) is one token; its parts are read
by `apps.sheets.a1`, so the formula language and the API's ranges agree on one notation. The
tree is plain tuples, cached by formula text, so a workbook with a thousand copies of one
formula parses it once:

    ("num", 1.0) ("str", "x") ("bool", True) ("err", "#N/A") ("name", "Revenue")
    ("ref", sheet | None, GridRange, text) ("call", "SUM", (args…)) ("op", "+", a, b)
    ("neg", a) ("pct", a) ("array", ((…), …)) ("blank",)

A value called with arguments (`LAMBDA(x, x*2)(5)`) is ("call", "_INVOKE", (called, args…)).

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
        | primary "(" [arg ("," arg)*] ")" -> invoke
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

    def invoke(self, called: Any, *args: Any) -> tuple:
        """LAMBDA(x, x*2)(5): a call of the value before the parentheses, kept as a call node
        (so every walk over calls sees its arguments) of a name no function has."""
        if len(args) == 1 and args[0] is None:
            args = ()
        return ("call", "_INVOKE", (called, *(("blank",) if a is None else a for a in args)))

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
    tree = _by_shape(body) or _parse_body(body)
    upper = body.upper()
    if "SUMIF(" in upper or "AVERAGEIF(" in upper:
        tree = _summed_as_tested(tree)
    return tree


SUMMED_LAST = frozenset({"SUMIF", "AVERAGEIF"})


def _summed_as_tested(node: Any) -> Any:
    """The tree with each SUMIF/AVERAGEIF's summed range made the shape of its tested range,
    from its top-left cell, as Google Sheets and Excel read it: SUMIF(A2:A9, "x", B2) sums
    B2:B9. (So the dependency graph and the conditional-aggregate shortcuts see what is read.)"""
    kind = node[0] if isinstance(node, tuple) and node and isinstance(node[0], str) else None
    if kind == "call":
        args = tuple(_summed_as_tested(a) for a in node[2])
        if node[1] in SUMMED_LAST and len(args) == 3 and args[0][0] == "ref" and args[2][0] == "ref":
            tested, summed = args[0][2], args[2][2]
            height = None if tested.r2 is None else tested.r2 - tested.r1
            width = None if tested.c2 is None else tested.c2 - tested.c1
            grid = type(summed)(summed.sheet, summed.r1, summed.c1, None if height is None else summed.r1 + height,
                                None if width is None else summed.c1 + width)
            if grid != summed:
                args = (args[0], args[1], ("ref", args[2][1], grid, args[2][3]))
        return ("call", node[1], args)
    if kind == "op":
        return ("op", node[1], _summed_as_tested(node[2]), _summed_as_tested(node[3]))
    if kind in ("neg", "pct"):
        return (kind, _summed_as_tested(node[1]))
    if kind == "array":
        return ("array", tuple(tuple(_summed_as_tested(item) for item in row) for row in node[1]))
    return node


# A column of formulas (=F2*H2, =F3*H3, …) differs only in its references: the formula with
# each reference token replaced by one placeholder (its shape) is parsed once, and each
# formula's tree is that tree with its own references put back in order (lexing is a fifth
# of what a parse costs). The placeholder starts with "$", which no token before a reference
# can run on into, and ends in a digit, as a reference can.
_PLACEHOLDER = "$A$1"
_PLACEHOLDER_NODE = ref_node(_PLACEHOLDER)


def _by_shape(body: str) -> tuple[Any, ...] | None:
    """The tree through the formula's shape; None when that does not apply (no references, or
    a shape that does not parse: the direct parse then gives the error)."""
    try:
        found = [t for t in LexerThread.from_text(_lexer, body).lex(None)]
    except LarkError:
        return None
    refs = [t for t in found if t.type == "REF"]
    if not refs:
        return None
    pieces, pos = [], 0
    for token in refs:
        pieces += (body[pos:token.start_pos], _PLACEHOLDER)
        pos = token.end_pos
    try:
        shape = _parse_shape("".join(pieces) + body[pos:])
    except FormulaSyntaxError:
        return None
    texts = iter(str(t) for t in refs)
    tree = _fill(shape, texts)
    return tree if next(texts, None) is None and _count(shape) == len(refs) else None


@lru_cache(maxsize=4096)
def _parse_shape(shape: str) -> tuple[Any, ...]:
    return _parse_body(shape)


def _fill(node: Any, texts: Any) -> Any:
    """`node` with its placeholder references replaced, in source order, by `texts`' references."""
    kind = node[0] if isinstance(node, tuple) and node and isinstance(node[0], str) else None
    if kind == "ref":
        return ref_node(next(texts)) if node == _PLACEHOLDER_NODE else node
    if kind == "call":
        return ("call", node[1], tuple(_fill(a, texts) for a in node[2]))
    if kind == "op":
        return ("op", node[1], _fill(node[2], texts), _fill(node[3], texts))
    if kind in ("neg", "pct"):
        return (kind, _fill(node[1], texts))
    if kind == "array":
        return ("array", tuple(tuple(_fill(item, texts) for item in row) for row in node[1]))
    return node


def _count(node: Any) -> int:
    kind = node[0] if isinstance(node, tuple) and node and isinstance(node[0], str) else None
    if kind == "ref":
        return 1 if node == _PLACEHOLDER_NODE else 0
    if kind == "call":
        return sum(_count(a) for a in node[2])
    if kind == "op":
        return _count(node[2]) + _count(node[3])
    if kind in ("neg", "pct"):
        return _count(node[1])
    if kind == "array":
        return sum(_count(item) for row in node[1] for item in row)
    return 0


def _parse_body(body: str) -> tuple[Any, ...]:
    try:
        tree = _parser.parse(body)
    except FormulaSyntaxError:
        raise
    except LarkError as bad:
        raise FormulaSyntaxError(_explain(body, bad)) from None
    if _depth(tree) > MAX_DEPTH:
        raise FormulaSyntaxError("The formula is nested too deeply.")
    return tree


# How deep a formula's tree may be: the LALR parse builds any depth without recursing, but
# what reads a tree (filling in references, evaluating, inferring formats, dependency shapes)
# recurses once or twice per level, and a chain of 5,000 additions overflowed Python's stack
# there: a write answered 500 and every later read of the spreadsheet too. 400 levels is a
# sum of 400 terms, or functions nested 400 deep, far beyond a workbook's formulas.
MAX_DEPTH = 400


def _depth(tree: Any) -> int:
    """The tree's depth, walked with a stack of its own (so it cannot overflow Python's)."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, level = stack.pop()
        if level > deepest:
            deepest = level
        if not (isinstance(node, tuple) and node and isinstance(node[0], str)):
            continue
        kind = node[0]
        if kind == "op":
            stack += ((node[2], level + 1), (node[3], level + 1))
        elif kind in ("neg", "pct"):
            stack.append((node[1], level + 1))
        elif kind == "call":
            stack += ((arg, level + 1) for arg in node[2])
        elif kind == "array":
            stack += ((item, level + 1) for row in node[1] for item in row)
    return deepest


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


def scoped(tree: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], frozenset[str]]]:
    """Every node of a tree with the names bound where it stands (upper case: LET's names and
    LAMBDA's parameters around it), the names a LET or LAMBDA defines left out. A checker of
    names and functions skips a ("name", n) or a call of n when n is bound there, and calls of
    "_INVOKE" (`LAMBDA(x, x*2)(5)`)."""
    found: list[tuple[tuple[Any, ...], frozenset[str]]] = []
    stack: list[tuple[Any, frozenset[str]]] = [(tree, frozenset())]
    while stack:
        node, bound = stack.pop()
        found.append((node, bound))
        kind = node[0]
        if kind == "call":
            args = node[2]
            if node[1] == "LET" and len(args) >= 3:
                inner = bound
                for i in range(0, len(args) - 1, 2):
                    stack.append((args[i + 1], inner))
                    if args[i][0] == "name":
                        inner = inner | {args[i][1].upper()}
                    else:
                        stack.append((args[i], inner))
                stack.append((args[-1], inner))
            elif node[1] == "LAMBDA" and args:
                params = frozenset(a[1].upper() for a in args[:-1] if a[0] == "name")
                stack.extend((a, bound) for a in args[:-1] if a[0] != "name")
                stack.append((args[-1], bound | params))
            else:
                stack.extend((a, bound) for a in args)
        elif kind == "op":
            stack.extend(((node[2], bound), (node[3], bound)))
        elif kind in ("neg", "pct"):
            stack.append((node[1], bound))
        elif kind == "array":
            stack.extend((item, bound) for row in node[1] for item in row)
    return found


DYNAMIC = frozenset({"OFFSET", "INDIRECT"})  # functions whose reference is worked out when they run


def static_target(node: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The ("ref", …) node an OFFSET or INDIRECT call reads when its arguments are literal
    (`INDIRECT("Data!A1:A9")`, `OFFSET(B2, 1, 0, 3)`), so the dependency graph can know it;
    None when it depends on values (the formula is then volatile: context.is_volatile)."""
    from apps.sheets.formulas.functions_ref import target_of  # it registers functions: imported when used

    name, args = node[1], node[2]
    if name == "INDIRECT" and args and args[0][0] == "str" and (len(args) == 1 or args[1] == ("bool", True)):
        found = target_of(args[0][1])
        return None if found is None else ("ref", found[0], found[1], args[0][1])
    if name == "OFFSET" and 3 <= len(args) <= 5 and all(a[0] in ("num", "blank") for a in args[1:]):
        base = args[0] if args[0][0] == "ref" else static_target(args[0]) if args[0][0] == "call" and args[0][1] in DYNAMIC else None
        if base is None:
            return None
        grid = base[2]
        down, across = (int(a[1]) if a[0] == "num" else 0 for a in args[1:3])
        height = int(args[3][1]) if len(args) > 3 and args[3][0] == "num" else (None if grid.r2 is None else grid.r2 - grid.r1)
        width = int(args[4][1]) if len(args) > 4 and args[4][0] == "num" else (None if grid.c2 is None else grid.c2 - grid.c1)
        r1, c1 = grid.r1 + down, grid.c1 + across
        if r1 < 0 or c1 < 0 or (height is not None and height < 1) or (width is not None and width < 1):
            return None
        return ("ref", base[1], type(grid)(base[1], r1, c1, None if height is None else r1 + height,
                                           None if width is None else c1 + width), base[3])
    return None


def references(tree: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Every ("ref", …) and ("name", …) node of a tree, and the range a literal OFFSET or
    INDIRECT reads (`static_target`)."""
    found: list[tuple[Any, ...]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        kind = node[0]
        if kind in ("ref", "name"):
            found.append(node)
        elif kind == "call":
            if node[1] in DYNAMIC:
                target = static_target(node)
                if target is not None:
                    found.append(target)
            stack.extend(node[2])
        elif kind == "op":
            stack.extend((node[2], node[3]))
        elif kind in ("neg", "pct"):
            stack.append(node[1])
        elif kind == "array":
            for row in node[1]:
                stack.extend(row)
    return found
