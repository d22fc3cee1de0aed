"""Number formats: how a cell's value is shown (FORMATTED_VALUE, the grid, TEXT()).

Patterns are the spreadsheets' own: `0`, `0.00`, `#,##0`, `$#,##0.00`, `0%`, `0.0E+00`,
`yyyy-mm-dd`, `d mmm yyyy`, `mmmm yyyy`, `h:mm AM/PM`, sections `pos;neg;zero`, literal text
in quotes. Dates are serial numbers (days since 1899-12-30) shown through a date pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any

from apps.sheets.formulas.values import CellError, from_serial, number_text

DEFAULT_PATTERNS = {
    "NUMBER": "#,##0.00", "CURRENCY": "$#,##0.00", "PERCENT": "0.00%", "DATE": "yyyy-mm-dd",
    "TIME": "h:mm:ss AM/PM", "DATE_TIME": "yyyy-mm-dd h:mm:ss", "SCIENTIFIC": "0.00E+00", "TEXT": "@",
}
FORMAT_TYPES = tuple(DEFAULT_PATTERNS)
_DATE_TOKENS = re.compile(r"yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|AM/PM|am/pm|A/P", re.I)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def display(value: Any, fmt: dict[str, str] | None) -> Any:
    """A value as FORMATTED_VALUE shows it: text for numbers, booleans, errors; as is for text."""
    if value is None:
        return ""
    if isinstance(value, CellError):
        return value.code
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        if not fmt:
            return number_text(float(value))
        pattern = fmt.get("pattern") or DEFAULT_PATTERNS.get(fmt.get("type", ""), "")
        if not pattern or fmt.get("type") == "TEXT":
            return number_text(float(value))
        return format_number(float(value), pattern)
    return value


def _sections(pattern: str) -> list[str]:
    parts, current, quoted = [], "", False
    for ch in pattern:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


@lru_cache(maxsize=1024)
def _plan(pattern: str) -> tuple[tuple[str, bool], ...]:
    """A pattern's sections, each with whether it shows a date (read once per pattern: a
    range read formats every cell of a column through the same few patterns)."""
    return tuple((section, _is_date_pattern(section)) for section in _sections(pattern))


def format_number(number: float, pattern: str) -> str:
    sections = _plan(pattern)
    section, is_date = sections[0]
    negative_section = False
    if number < 0 and len(sections) > 1:
        (section, is_date), number, negative_section = sections[1], -number, True
    elif number == 0 and len(sections) > 2:
        section, is_date = sections[2]
    if is_date:
        try:
            return _format_date(number, section)
        except Exception:  # noqa: BLE001 - out-of-range serials show as the number
            return number_text(number)
    text = _format_plain(abs(number) if negative_section else number, section)
    return text


def _is_date_pattern(section: str) -> bool:
    stripped = re.sub(r'"[^"]*"|\\.', "", section)
    return bool(re.search(r"[yYdD]|[hH]|[sS]", stripped)) or bool(re.fullmatch(r"[mM]+[^0#]*", stripped.strip()))


@lru_cache(maxsize=1024)
def _date_plan(section: str) -> tuple[bool, tuple[tuple[str, str, str], ...], str]:
    """A date section as (has AM/PM, its tokens as (literal before, token lowercased, next
    token lowercased), literal after the last)."""
    has_ampm = bool(re.search(r"AM/PM|A/P", section, re.I))
    tokens = list(_DATE_TOKENS.finditer(section))
    steps, pos = [], 0
    for i, match in enumerate(tokens):
        following = tokens[i + 1].group(0).lower() if i + 1 < len(tokens) else ""
        steps.append((section[pos:match.start()].replace('"', "").replace("\\", ""), match.group(0).lower(), following))
        pos = match.end()
    return has_ampm, tuple(steps), section[pos:].replace('"', "").replace("\\", "")


def _format_date(serial: float, section: str) -> str:
    moment = from_serial(serial)
    has_ampm, steps, tail = _date_plan(section)
    out, after_hour = [], False
    for before, low, following in steps:
        out.append(before)
        if low in ("m", "mm") and (after_hour or following in ("s", "ss")):
            out.append(f"{moment.minute:02d}" if low == "mm" else str(moment.minute))
        elif low == "yyyy":
            out.append(f"{moment.year:04d}")
        elif low == "yy":
            out.append(f"{moment.year % 100:02d}")
        elif low == "mmmm":
            out.append(_MONTHS[moment.month - 1])
        elif low == "mmm":
            out.append(_MONTHS[moment.month - 1][:3])
        elif low == "mm":
            out.append(f"{moment.month:02d}")
        elif low == "m":
            out.append(str(moment.month))
        elif low == "dddd":
            out.append(_DAYS[moment.weekday()])
        elif low == "ddd":
            out.append(_DAYS[moment.weekday()][:3])
        elif low == "dd":
            out.append(f"{moment.day:02d}")
        elif low == "d":
            out.append(str(moment.day))
        elif low in ("hh", "h"):
            hour = moment.hour % 12 or 12 if has_ampm else moment.hour
            out.append(f"{hour:02d}" if low == "hh" else str(hour))
        elif low in ("ss", "s"):
            out.append(f"{moment.second:02d}" if low == "ss" else str(moment.second))
        elif low in ("am/pm", "a/p"):
            out.append(("AM" if moment.hour < 12 else "PM") if low == "am/pm" else ("A" if moment.hour < 12 else "P"))
        after_hour = low in ("h", "hh")
    out.append(tail)
    return "".join(out)


def _round(number: float, places: int) -> Decimal:
    return Decimal(repr(number)).quantize(_quantum(places), rounding=ROUND_HALF_UP)


@lru_cache(maxsize=64)
def _quantum(places: int) -> Decimal:
    return Decimal(1).scaleb(-places)


@dataclass(frozen=True, slots=True)
class _Plain:
    """A number section read once: its literal text around the number's digits and what
    those digits ask for."""

    literal: str  # quoted text and escapes resolved (0 and # inside them hidden as \x00 \x01)
    start: int  # where the number goes in `literal` (-1: the section has no digits)
    end: int
    percent: bool
    percent_sign: bool  # the digits end in %
    exponent_digits: int  # 0: not scientific
    places: int
    min_digits: int
    grouped: bool


@lru_cache(maxsize=1024)
def _plain_plan(section: str) -> _Plain:
    # Literal text: quoted strings and backslash escapes are copied; the rest is the number.
    literal = re.sub(r'"([^"]*)"', lambda m: m.group(1).replace("0", "\x00").replace("#", "\x01"), section)
    literal = re.sub(r"\\(.)", lambda m: m.group(1), literal)
    match = re.search(r"[0#?][0#?,]*(\.[0#?]*)?(E[+-]0+)?%?", literal, re.I)
    if not match:
        return _Plain(literal, -1, -1, False, False, 0, 0, 0, False)
    core = match.group(0)
    scientific = re.search(r"E[+-](0+)", core, re.I)
    decimals_part = match.group(1) or ""
    integer_part = core.split(".")[0]
    return _Plain(literal, match.start(), match.end(), core.endswith("%") or "%" in literal, core.endswith("%"),
                  len(scientific.group(1)) if scientific else 0, len(decimals_part) - 1 if decimals_part else 0,
                  integer_part.replace(",", "").rstrip("%").count("0"), "," in integer_part)


def _format_plain(number: float, section: str) -> str:
    plan = _plain_plan(section)
    literal = plan.literal
    if plan.start < 0:
        return (literal.replace("\x00", "0").replace("\x01", "#")) or number_text(number)
    value = number * 100 if plan.percent else number
    places = plan.places
    rounded = None
    if plan.exponent_digits:
        mantissa_text = f"{abs(value):.{places}E}"
        mantissa, exponent = mantissa_text.split("E")
        body = f"{mantissa}E{'+' if int(exponent) >= 0 else '-'}{abs(int(exponent)):0{plan.exponent_digits}d}"
    else:
        rounded = _round(abs(value), places)
        whole, _, frac = f"{rounded:f}".partition(".")
        whole = whole.lstrip("0") or ""
        whole = whole.rjust(plan.min_digits, "0")
        if plan.grouped and whole:
            whole = f"{int(whole):,}"
        body = whole + ("." + frac.ljust(places, "0")[:places] if places else "")
        if not body:
            body = "0" if plan.min_digits else ""
    sign = "-" if value < 0 and not ((rounded if rounded is not None else _round(abs(value), places)) == 0) else ""
    result = literal[:plan.start] + sign + body + ("%" if plan.percent_sign else "") + literal[plan.end:]
    return result.replace("\x00", "0").replace("\x01", "#")
