"""A1 notation: cell and range references as Google Sheets reads them.

Every form the Sheets API accepts: `A1`, `A1:B2`, `'My Sheet'!A1:B2`, whole columns `A:B`, whole
rows `2:3`, open-ended `A2:B` (from row 2 down) and `A:B5`... and a bare sheet title for the
whole sheet. Grid coordinates are 0-based with an exclusive end, as the API's `GridRange`;
`None` for an end means "to the edge of the sheet". Bad input raises `A1Error` with Google's
own message, "Unable to parse range: …".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

MAX_COLUMNS = 18_278  # ZZZ: Google's and Excel's widest sheet
MAX_ROWS = 10_000_000  # Google's cell limit bounds rows well below this

_CELL = re.compile(r"^\$?([A-Za-z]{1,3})?\$?([0-9]+)?$")
_SHEETED = re.compile(r"^(?:'((?:[^']|'')+)'|([^'!:]+))!(.*)$", re.S)


class A1Error(ValueError):
    """A range that cannot be read; the message is Google's ("Unable to parse range: …")."""

    def __init__(self, text: str) -> None:
        super().__init__(f"Unable to parse range: {text}")
        self.text = text


def column_letter(index: int) -> str:
    """0 → 'A', 25 → 'Z', 26 → 'AA'."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def column_index(letters: str) -> int:
    """'A' → 0, 'AA' → 26."""
    index = 0
    for char in letters.upper():
        index = index * 26 + ord(char) - 64
    return index - 1


def cell_name(row: int, col: int) -> str:
    return f"{column_letter(col)}{row + 1}"


@lru_cache(maxsize=1024)
def quote_sheet(title: str) -> str:
    """A sheet title as a range prefix: quoted when it is not a plain word, as Google writes it."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", title) and not _looks_like_cell(title):
        return title
    return "'" + title.replace("'", "''") + "'"


def _looks_like_cell(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z]{1,3}[0-9]+", text))


@dataclass(frozen=True, slots=True)
class GridRange:
    """A rectangle of one sheet: rows [r1, r2), columns [c1, c2); an end of None is the edge."""

    sheet: str | None
    r1: int = 0
    c1: int = 0
    r2: int | None = None
    c2: int | None = None

    def bounded(self, rows: int, cols: int) -> GridRange:
        """This range with open ends closed at the sheet's size."""
        return GridRange(self.sheet, self.r1, self.c1, rows if self.r2 is None else self.r2, cols if self.c2 is None else self.c2)

    def contains(self, row: int, col: int) -> bool:
        return self.r1 <= row and (self.r2 is None or row < self.r2) and self.c1 <= col and (self.c2 is None or col < self.c2)

    @property
    def is_cell(self) -> bool:
        return self.r2 == self.r1 + 1 and self.c2 == self.c1 + 1

    def a1(self, with_sheet: bool = True) -> str:
        """The range in A1 notation, as the API echoes it ('Sheet1'!A1:B2 → Sheet1!A1:B2)."""
        prefix = quote_sheet(self.sheet) + "!" if with_sheet and self.sheet is not None else ""
        if self.r2 is None and self.c2 is None and self.r1 == 0 and self.c1 == 0:
            return quote_sheet(self.sheet) if prefix else "A:ZZZ"
        start = column_letter(self.c1) if self.r2 is None and self.r1 == 0 else cell_name(self.r1, self.c1)
        if self.c2 is None and self.c1 == 0 and self.r2 is not None:
            return f"{prefix}{self.r1 + 1}:{self.r2}"
        if self.is_cell:
            return prefix + start
        end = column_letter((self.c2 or MAX_COLUMNS) - 1) + ("" if self.r2 is None else str(self.r2))
        return f"{prefix}{start}:{end}"


def split_sheet(text: str) -> tuple[str | None, str]:
    """('My Sheet', 'A1:B2') from "'My Sheet'!A1:B2"; (None, text) when there is no sheet."""
    match = _SHEETED.match(text)
    if not match:
        return None, text
    title = match[1].replace("''", "'") if match[1] is not None else match[2]
    return title, match[3]


def _corner(text: str) -> tuple[int | None, int | None]:
    """(row, col) of one corner; either may be None (a whole row or column)."""
    match = _CELL.match(text)
    if not match or (match[1] is None and match[2] is None):
        raise ValueError(text)
    col = column_index(match[1]) if match[1] else None
    row = int(match[2]) - 1 if match[2] else None
    if (row is not None and not 0 <= row < MAX_ROWS) or (col is not None and col >= MAX_COLUMNS):
        raise ValueError(text)
    return row, col


def corner_span(a: int | None, b: int | None) -> tuple[int, int | None]:
    """[start, end) along one axis from two corners' positions; a side left out is open:
    `A2:B` runs from row 2 down, `A:B5` from row 1 to 5, `A:B` over every row."""
    if a is not None and b is not None:
        return min(a, b), max(a, b) + 1
    if a is not None:
        return a, None
    if b is not None:
        return 0, b + 1
    return 0, None


def parse_area(text: str, sheet: str | None = None) -> GridRange:
    """A range without its sheet part: `A1`, `A1:B2`, `A:B`, `2:3`, `A2:B`, `A:B5`."""
    first, colon, second = text.strip().partition(":")
    try:
        r1, c1 = _corner(first)
        if not colon:
            if r1 is None or c1 is None:
                raise ValueError(text)
            return GridRange(sheet, r1, c1, r1 + 1, c1 + 1)
        r2, c2 = _corner(second)
    except ValueError:
        raise A1Error(text) from None
    top, bottom = corner_span(r1, r2)
    left, right = corner_span(c1, c2)
    return GridRange(sheet, top, left, bottom, right)


def parse_range(text: str) -> tuple[str | None, GridRange | None]:
    """(sheet title or None, area or None for the whole sheet) from any A1 range string.

    A bare word with no `!` may be a sheet title or an area ("Sheet1" vs "A1"); an area wins
    when it parses, as in Google, so the caller resolves a bare title against its sheets."""
    return _parse_range(text if isinstance(text, str) else "")


@lru_cache(maxsize=4096)
def _parse_range(raw: str) -> tuple[str | None, GridRange | None]:
    """`parse_range`, once per text (every value write and read parses its range; the answer
    is immutable)."""
    stripped = raw.strip()
    if not stripped:
        raise A1Error(raw)
    sheet, area = split_sheet(stripped)
    if sheet is not None:
        if not area:
            return sheet, None
        return sheet, parse_area(area, sheet)
    if len(stripped) > 1 and stripped[0] == stripped[-1] == "'":
        return stripped[1:-1].replace("''", "'"), None
    try:
        return None, parse_area(stripped)
    except A1Error:
        return stripped, None
