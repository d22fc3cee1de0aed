"""Reading JSON that a caller sent: strict (NaN and Infinity are not JSON numbers) and
bounded in nesting before the parser, which recurses, ever sees it."""

from __future__ import annotations

import json
from typing import Any


class JsonTextError(ValueError):
    """Why a text is not JSON we accept; the message says what was wrong."""


def loads(text: str, max_depth: int) -> Any:
    if nesting_depth(text) > max_depth:
        raise JsonTextError(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except ValueError as error:
        raise JsonTextError(f"not valid JSON: {error}") from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def nesting_depth(text: str) -> int:
    """Bracket nesting outside strings: a cheap pre-check that never recurses."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
