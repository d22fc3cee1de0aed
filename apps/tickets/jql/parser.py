"""JQL's syntax, on lark (LALR): clauses, AND/OR/NOT, parentheses, lists, functions, ORDER BY,
and the history operators (WAS, WAS NOT, WAS IN, WAS NOT IN, CHANGED) with their predicates.

A malformed query raises `JqlError` with Jira's wording and where it failed:
"Error in the JQL Query: Expecting operator but got 'foo'. ... (line 1, character 17)".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, VisitError

# Word characters of an unquoted value: letters (any script), digits and . @ - + * / : _
_W = r"[\w.@\-+*\/:]"

GRAMMAR = rf"""
start: [or_expr] [order_by]

?or_expr: and_expr (_OR and_expr)*
?and_expr: not_expr (_AND not_expr)*
?not_expr: _NOT not_expr   -> negation
         | "!" not_expr     -> negation
         | "(" or_expr ")"
         | clause

clause: field OPERATOR operand                 -> compare
      | field _IS EMPTY                        -> is_empty
      | field _IS _NOT EMPTY                   -> is_not_empty
      | field _IN list                         -> in_list
      | field _NOT _IN list                    -> not_in_list
      | field _WAS operand predicate*          -> was
      | field _WAS _NOT operand predicate*     -> was_not
      | field _WAS _IN list predicate*         -> was_in
      | field _WAS _NOT _IN list predicate*    -> was_not_in
      | field _CHANGED predicate*              -> changed

predicate: PREDICATE operand
         | PREDICATE "(" operand ("," operand)* ")" -> predicate_list
         | DURING "(" operand "," operand ")"         -> during

field: WORD | STRING | CF
?operand: value | function | EMPTY -> empty_value
list: "(" [operand ("," operand)*] ")" | function -> function_list
?value: WORD -> word
      | STRING -> string
function: WORD "(" [argument ("," argument)*] ")"
?argument: WORD -> word
         | STRING -> string

order_by: _ORDER _BY sort_key ("," sort_key)*
sort_key: field [DIRECTION]

OPERATOR: "!=" | "!~" | ">=" | "<=" | "=" | "~" | ">" | "<"
_AND.3: /(AND(?!{_W})|&&)/i
_OR.3: /(OR(?!{_W})|\|\|)/i
_NOT.3: /NOT(?!{_W})/i
_IN.3: /IN(?!{_W})/i
_IS.3: /IS(?!{_W})/i
EMPTY.3: /(EMPTY|NULL)(?!{_W})/i
_WAS.3: /WAS(?!{_W})/i
_CHANGED.3: /CHANGED(?!{_W})/i
PREDICATE.3: /(AFTER|BEFORE|ON|BY|FROM|TO)(?!{_W})/i
DURING.3: /DURING(?!{_W})/i
_ORDER.3: /ORDER(?!{_W})/i
_BY.3: /BY(?!{_W})/i
DIRECTION.3: /(ASC|DESC)(?!{_W})/i
CF.2: /cf\[\d+\]/i
WORD: /{_W}+/
STRING: /"(?:[^"\\]|\\.)*"/ | /'(?:[^'\\]|\\.)*'/
%ignore /\s+/
"""

OPERATORS_TEXT = "'=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'"


class JqlError(Exception):
    """A query Jira would refuse; `message` is Jira's error message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- the tree the compiler reads -------------------------------------------------------
@dataclass(frozen=True)
class Func:
    name: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Empty:
    pass


@dataclass(frozen=True)
class Clause:
    field: str
    op: str  # = != ~ !~ > >= < <= in "not in" "is" "is not"; was "was not" "was in" "was not in" changed
    values: tuple[Any, ...]  # str | Func | Empty
    position: int
    # The history operators' predicates, in order: ("after"|"before"|"on"|"by"|"from"|"to"|"during", values)
    predicates: tuple[tuple[str, tuple[Any, ...]], ...] = ()


@dataclass(frozen=True)
class Bool:
    op: str  # and | or | not
    parts: tuple[Any, ...]


@dataclass(frozen=True)
class Query:
    where: Any  # Clause | Bool | None
    order: tuple[tuple[str, str], ...]  # (field, asc|desc)


def _unquote(text: str) -> str:
    body = text[1:-1]
    out, escaped = [], False
    for ch in body:
        if escaped:
            out.append({"n": "\n", "t": "\t"}.get(ch, ch))
            escaped = False
        elif ch == "\\":
            escaped = True
        else:
            out.append(ch)
    return "".join(out)


@v_args(inline=True)
class _Build(Transformer):
    def start(self, where: Any = None, order: Any = None) -> Query:
        return Query(where, order or ())

    def or_expr(self, *parts: Any) -> Bool:
        return Bool("or", parts)

    def and_expr(self, *parts: Any) -> Bool:
        return Bool("and", parts)

    def negation(self, part: Any) -> Any:
        # NOT NOT x is x (the complement of the complement): a chain of NOTs is one or none,
        # not a query nested as deep as the chain is long.
        if isinstance(part, Bool) and part.op == "not":
            return part.parts[0]
        return Bool("not", (part,))

    def field(self, token: Token) -> tuple[str, int]:
        text = _unquote(str(token)) if token.type == "STRING" else str(token)
        return text, token.start_pos or 0

    def word(self, token: Token) -> str:
        return str(token)

    def string(self, token: Token) -> str:
        return _unquote(str(token))

    def empty_value(self, _token: Token) -> Empty:
        return Empty()

    def function(self, name: Token, *args: Any) -> Func:
        return Func(str(name), tuple(a for a in args if a is not None))

    def list(self, *items: Any) -> tuple[Any, ...]:
        return tuple(i for i in items if i is not None)

    def function_list(self, func: Func) -> tuple[Any, ...]:
        return (func,)

    def compare(self, field: tuple[str, int], op: Token, operand: Any) -> Clause:
        return Clause(field[0], str(op), (operand,), field[1])

    def is_empty(self, field: tuple[str, int], _e: Token) -> Clause:
        return Clause(field[0], "is", (Empty(),), field[1])

    def is_not_empty(self, field: tuple[str, int], _e: Token) -> Clause:
        return Clause(field[0], "is not", (Empty(),), field[1])

    def in_list(self, field: tuple[str, int], items: tuple[Any, ...]) -> Clause:
        return Clause(field[0], "in", items, field[1])

    def not_in_list(self, field: tuple[str, int], items: tuple[Any, ...]) -> Clause:
        return Clause(field[0], "not in", items, field[1])

    def was(self, field: tuple[str, int], operand: Any, *predicates: Any) -> Clause:
        return Clause(field[0], "was", (operand,), field[1], predicates)

    def was_not(self, field: tuple[str, int], operand: Any, *predicates: Any) -> Clause:
        return Clause(field[0], "was not", (operand,), field[1], predicates)

    def was_in(self, field: tuple[str, int], items: tuple[Any, ...], *predicates: Any) -> Clause:
        return Clause(field[0], "was in", items, field[1], predicates)

    def was_not_in(self, field: tuple[str, int], items: tuple[Any, ...], *predicates: Any) -> Clause:
        return Clause(field[0], "was not in", items, field[1], predicates)

    def changed(self, field: tuple[str, int], *predicates: Any) -> Clause:
        return Clause(field[0], "changed", (), field[1], predicates)

    def predicate(self, name: Token, values: Any) -> tuple[str, tuple[Any, ...]]:
        return str(name).lower(), values if isinstance(values, tuple) else (values,)

    def predicate_list(self, name: Token, *values: Any) -> tuple[str, tuple[Any, ...]]:
        return str(name).lower(), values

    def during(self, _name: Token, start: Any, end: Any) -> tuple[str, tuple[Any, ...]]:
        return "during", (start, end)

    def order_by(self, *keys: tuple[str, str]) -> tuple[tuple[str, str], ...]:
        return keys

    def sort_key(self, field: tuple[str, int], direction: Token | None = None) -> tuple[str, str]:
        return field[0], (str(direction).lower() if direction else "asc")


@cache
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", maybe_placeholders=True)


def _where(error: UnexpectedInput) -> str:
    return f"(line {error.line}, character {error.column})"


def _explain(error: UnexpectedInput, text: str) -> str:
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        if char in "\"'":
            rest = text[error.pos_in_stream + 1:]
            return f"Error in the JQL Query: The quoted string '{rest}' has not been completed. {_where(error)}"
        return (f"Error in the JQL Query: The character '{char}' is a reserved JQL character. You must enclose it in a string "
                f"or use the escape '\\u{ord(char):04x}' instead. {_where(error)}")
    token = getattr(error, "token", None)
    got = "EOF" if token is None or token.type == "$END" else str(token)
    expected = set(getattr(error, "expected", ()) or ())
    if isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END"):
        where = f"(line 1, character {len(text) + 1})" if "\n" not in text else _where(error)
    else:
        where = _where(error)
    if "EMPTY" in expected and ("WORD" in expected or "STRING" in expected):
        hint = "" if got == "EOF" else f" You must surround '{got}' in quotation marks to use it as a value."
        return f"Error in the JQL Query: Expecting either a value, list or function but got '{got}'.{hint} {where}"
    if "OPERATOR" in expected or "_IN" in expected or "_IS" in expected:
        return f"Error in the JQL Query: Expecting operator but got '{got}'. The valid operators are {OPERATORS_TEXT}. {where}"
    if expected & {"WORD", "STRING", "CF"} and not expected & {"_AND", "_OR"}:
        return f"Error in the JQL Query: Expecting a field name but got '{got}'. {where}"
    if expected & {"_AND", "_OR"}:
        return f"Error in the JQL Query: Expecting either 'OR' or 'AND' but got '{got}'. {where}"
    if "COMMA" in expected and "RPAR" not in expected:  # DURING takes exactly two dates
        return f"Error in the JQL Query: Expecting ',' but got '{got}'. {where}"
    if "LPAR" in expected:
        return f"Error in the JQL Query: Expecting '(' but got '{got}'. {where}"
    return f"Error in the JQL Query: Unexpected '{got}'. {where}"


@lru_cache(maxsize=1024)
def parse(text: str) -> Query:
    """The query's tree; kept per text (agents repeat queries, and the tree is immutable).
    A malformed query raises every time (errors are not cached)."""
    try:
        tree = _parser().parse(text)
        query = _Build().transform(tree)
    except UnexpectedInput as error:
        raise JqlError(_explain(error, text)) from None
    except VisitError as error:  # pragma: no cover - the transformer has no failing paths
        raise JqlError(f"Error in the JQL Query: {error.orig_exc}") from None
    if _depth(query.where) > MAX_NESTING:
        raise JqlError(f"Error in the JQL Query: the query nests too deeply (at most {MAX_NESTING} levels of parentheses and NOT).")
    return query


# How deep AND, OR and NOT may nest: each level is a level of the SQL the query runs as, and
# SQLite's parser refuses a statement nested around 40 deep (a 500 before); no query a person
# writes comes near.
MAX_NESTING = 25


def _depth(node: Any) -> int:
    deepest, stack = 0, [(node, 0)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, Bool):
            deepest = max(deepest, level + 1)
            stack += ((part, level + 1) for part in node.parts)
    return deepest


__all__ = ["Bool", "Clause", "Empty", "Func", "JqlError", "Query", "parse"]
