"""Regular expressions a person or an agent writes — REGEXMATCH, REGEXEXTRACT, REGEXREPLACE,
QUERY's `matches`, findReplace with searchByRegex — run on RE2, as Google Sheets runs them:
its syntax (no lookaround, no backreferences: Google refuses those too) and its time, linear
in the text. Python's `re` backtracks, and holds the interpreter while it does:
=REGEXMATCH(REPT("a",30)&"!", "(a+)+$") ran for minutes and every env on the server waited.
"""

from __future__ import annotations

import functools
from typing import Any

import re2

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # a bad pattern is the caller's error, answered; not a server log line


class BadPattern(ValueError):
    """A pattern RE2 does not take; the message says why, in RE2's words."""


@functools.lru_cache(maxsize=256)
def compiled(pattern: str, ignore_case: bool = False) -> Any:
    """The pattern compiled (search, fullmatch, sub and subn as `re`'s); BadPattern if RE2
    refuses it."""
    try:
        return re2.compile(f"(?i){pattern}" if ignore_case else pattern, _OPTIONS)
    except re2.error as bad:
        reason = bad.args[0] if bad.args else "invalid pattern"
        raise BadPattern(reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) from None


def escaped(text: str) -> str:
    """`text` as a pattern matching itself."""
    return re2.escape(text)
