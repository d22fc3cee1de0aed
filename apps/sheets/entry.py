"""What a typed value becomes: USER_ENTERED reads it as a person typing into a cell does
(formulas, numbers, percentages, currency, dates, TRUE/FALSE, each with the number format
Google gives it); RAW stores it as typed. And how values are kept as text in the database."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from apps.sheets.formulas.parser import FormulaSyntaxError, parse
from apps.sheets.formulas.values import CellError, parse_date_text, parse_number_text

INPUT_OPTIONS = ("RAW", "USER_ENTERED")
RENDER_OPTIONS = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")
MAX_CELL_CHARS = 50_000  # Google's limit on a cell's content


@dataclass(frozen=True, slots=True)
class Entered:
    formula: str | None
    value: Any  # the literal (None for a formula or a cleared cell)
    number_format: dict[str, str] | None = None  # the format typing it implies, if any


def enter(raw: Any, option: str) -> Entered:
    """One cell's new content from an API value (string, number, boolean or null)."""
    if raw is None:
        return Entered(None, None)
    if isinstance(raw, bool):
        return Entered(None, raw)
    if isinstance(raw, (int, float)):
        return Entered(None, float(raw))
    text = str(raw)
    if option == "RAW":
        return Entered(None, text if text != "" else None)
    if text.startswith("=") and len(text) > 1:
        return Entered(typed_formula(text), None)
    if text.startswith("'"):
        return Entered(None, text[1:])
    if text == "":
        return Entered(None, None)
    if text.upper() in ("TRUE", "FALSE"):
        return Entered(None, text.upper() == "TRUE")
    number = parse_number_text(text)
    if number is not None:
        return Entered(None, number, _implied_format(text))
    dated = parse_date_text(text)
    if dated is not None:
        serial, kind = dated
        pattern = "yyyy-mm-dd" if re.match(r"\d{4}-", text.strip()) else ("M/d/yyyy" if "/" in text else "d mmm yyyy")
        if kind == "DATE_TIME":
            pattern += " h:mm:ss"
        return Entered(None, serial, {"type": kind, "pattern": pattern})
    return Entered(None, text)


_STRING = re.compile(r'"(?:[^"]|"")*"')
_SHEET_PREFIX = re.compile(r"(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!")
_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!"
_AREA = r"(?:\$?[A-Za-z]{1,3}\$?[0-9]+(?::\$?[A-Za-z]{1,3}(?:\$?[0-9]+)?)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?:\$?[0-9]+)?|\$?[0-9]+:\$?[0-9]+)"
# What Google Sheets writes in capitals, whatever was typed: a string literal (left as it is),
# a reference (its cell part; the tab's name as typed), a function name, TRUE and FALSE.
_WORDS = re.compile(rf'"(?:[^"]|"")*"|(?<![A-Za-z0-9_.$#])({_SHEET})?({_AREA})(?![A-Za-z0-9_.(!])'
                    r"|(?<![A-Za-z0-9_.$#])([A-Za-z_][A-Za-z0-9_.]*(?=\s*\()|(?:true|false)(?![A-Za-z0-9_.(!]))", re.I)


def typed_formula(text: str) -> str:
    """A formula as Google Sheets keeps what was typed (in its editor or through the API's
    USER_ENTERED, which reads input as typed): function names, cell references and TRUE/FALSE
    in capitals (`=sum(b2:b8)` is `=SUM(B2:B8)`), and the closing parentheses left off at the
    end added (`=SUM(B2:B8` is `=SUM(B2:B8)`). A formula that still does not parse is kept as
    typed (it shows #ERROR!)."""
    bare = _STRING.sub("", text) if '"' in text else text  # text and tab names are kept as typed
    if "!" in bare:
        bare = _SHEET_PREFIX.sub("", bare)
    missing = bare.count("(") - bare.count(")")
    if missing == 0 and bare == bare.upper():
        return text  # the usual case, read without a regular expression's pass over it
    fixed = _WORDS.sub(_capitals, text)
    if missing > 0:
        fixed += ")" * missing
    if fixed == text:
        return text
    try:
        parse(fixed)
    except FormulaSyntaxError:
        return text
    return fixed


def _capitals(match: re.Match[str]) -> str:
    if match[2] is not None:
        return (match[1] or "") + match[2].upper()
    if match[3] is not None:
        return match[3].upper()
    return match[0]


def _implied_format(text: str) -> dict[str, str] | None:
    t = text.strip()
    decimals = len(t.split(".")[1].rstrip("%)")) if "." in t else 0
    places = "." + "0" * decimals if decimals else ""
    if t.endswith("%"):
        return {"type": "PERCENT", "pattern": f"0{places}%"}
    if "$" in t:
        return {"type": "CURRENCY", "pattern": f"$#,##0{places}"}
    if "," in t:
        return {"type": "NUMBER", "pattern": f"#,##0{places}"}
    return None


def encode(value: Any) -> tuple[str, str | None, str | None]:
    """(kind, text, note) for storage."""
    if value is None:
        return "", None, None
    if isinstance(value, bool):
        return "b", "1" if value else "0", None
    if isinstance(value, (int, float)):
        return "n", repr(float(value)), None
    if isinstance(value, CellError):
        return "e", value.code, value.message or None
    return "s", str(value), None


def decode(kind: str, text: str | None, note: str | None = None) -> Any:
    if kind == "n":
        return float(text)  # type: ignore[arg-type]
    if kind == "s":
        return text
    if kind == "b":
        return text == "1"
    if kind == "e":
        return CellError(text or "#ERROR!", note or "")
    return None


def plain(value: Any) -> Any:
    """A value as UNFORMATTED_VALUE gives it: integral numbers as ints, errors as their code."""
    if isinstance(value, CellError):
        return value.code
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def load_json(text: str | None) -> Any:
    return json.loads(text) if text else None


def dump_json(value: Any) -> str | None:
    return json.dumps(value, separators=(",", ":"), sort_keys=True) if value else None
