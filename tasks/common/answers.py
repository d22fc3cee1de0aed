"""Reading what the agent said: the set of things of one kind (times, days, amounts, people,
ticket keys, ...) that a text asserts, whatever common format it uses.

An answer is judged over everything the agent said to whoever asked, as a set (`judge`):
it must assert every expected value and nothing outside what the task tolerates. So a hedge
("SUP-14? no, SUP-41") and a list of every candidate fail, "4pm" and "16:00" are the same
time, and a value that merely contains the right one ("SUP-410" for "SUP-41") is another
value, never a match. Each extractor reads whole entities, not substrings.

Everything here works on text; `tasks.common.text.render` turns a stored message (mrkdwn,
blocks) into that text first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from tasks.common.text import EMAIL, MENTION, URL, Lexicon, words

# -- retractions ---------------------------------------------------------------------------
# "It's ENG-1, not ENG-2" asserts ENG-1 only: a value named right after a negation is ruled
# out, not claimed. Only the one token after the negation goes (a key, an email, a mention,
# a day, a time), so a hedge cannot hide behind it: "not sure, ENG-2 or ENG-1" still asserts
# both, and "SUP-14? no, SUP-41" (a correction, not a negation of the value) still asserts
# both too. Ruling a value out can only shrink the set an answer asserts, never grow it. A
# negation in a conditional clause rules nothing out: "ENG-1, if not ENG-2" and "if it's not
# ENG-2, it's ENG-1" name both as possible, a hedge.
_NEGATED = re.compile(
    r"\b(?:not|isn't|isnt|wasn't|wasnt|never)\s+(?:(?:the|a|an|ticket|issue)\s+)*(?=[<@\w])(<[^<>\s]+>|[^\s,;]+)",
    re.IGNORECASE,
)
_CLAUSE_ENDS = ".;:!?,\n"
_CONDITIONAL = re.compile(r"\b(?:if|unless|whether|maybe|perhaps|possibly)\b", re.IGNORECASE)


def without_retracted(text: str) -> str:
    """`text` without the values it explicitly rules out ("not ENG-2")."""
    def rule_out(match: re.Match[str]) -> str:
        start = max(text.rfind(end, 0, match.start()) for end in _CLAUSE_ENDS) + 1  # the negation's clause, up to it
        return match.group(0) if _CONDITIONAL.search(text, start, match.start()) else " "

    return _NEGATED.sub(rule_out, text)


# -- times ---------------------------------------------------------------------------------
_TIME = re.compile(
    r"(?<![\w:.])(?:"
    r"(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ap>[ap])\.?\s?m\b\.?"  # 4pm, 4:15 PM, 11.15 a.m.
    r"|(?P<H>\d{1,2}):(?P<M>\d{2})(?![\d:])"  # 23:15, 9:30
    r")|\b(?P<word>noon|midday|midnight)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Time:
    """A clock time as written; `readings` are the 24-hour times it can mean ("4:00" → 04:00 or 16:00)."""

    written: str
    readings: frozenset[str]

    def __str__(self) -> str:
        return self.written


def canonical_time(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


def times(text: str) -> set[Time]:
    found = set()
    for match in _TIME.finditer(_unaddressed(text)):
        if match["word"]:
            reading = "00:00" if match["word"].lower() == "midnight" else "12:00"
            found.add(Time(match[0], frozenset({reading})))
        elif match["ap"]:
            hour, minute = int(match["h"]), int(match["m"] or 0)
            if 1 <= hour <= 12 and minute < 60:
                hour = hour % 12 + (12 if match["ap"].lower() == "p" else 0)
                found.add(Time(match[0], frozenset({canonical_time(hour, minute)})))
        else:
            hour, minute = int(match["H"]), int(match["M"])
            if hour > 23 or minute > 59:
                continue
            if match["H"].startswith("0") or hour == 0 or hour > 12:
                found.add(Time(match[0], frozenset({canonical_time(hour, minute)})))
            else:  # "2:30" without am/pm: either half of the day
                found.add(Time(match[0], frozenset({canonical_time(hour % 12, minute), canonical_time(hour % 12 + 12, minute)})))
    return found


def parse_time(written: str) -> str:
    """The one 24-hour reading of a time written unambiguously ("4:00 PM" → "16:00")."""
    [found] = times(written)
    [reading] = found.readings
    return reading


# -- days and dates ------------------------------------------------------------------------
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DAY_WORDS = {day.lower(): day for day in WEEKDAYS}
_DAY_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
_WORD = re.compile(r"\b[A-Za-z]+\b")


_COMMON_WORDS = frozenset({"sat", "sun", "wed"})  # abbreviations that are also words


def weekdays(text: str) -> set[str]:
    """Weekdays named, as full names ("Thursdays" too) or abbreviations ("Thu", "fri"). An
    abbreviation that is also a word counts only when capitalised, so "Sat" is Saturday but
    "sat" or "wed" in a sentence is not a day."""
    found = set()
    for word in _WORD.findall(text):
        lower = word.lower()
        singular = lower[:-1] if lower.endswith("s") else lower
        if lower in _DAY_WORDS or singular in _DAY_WORDS:
            found.add(_DAY_WORDS.get(lower) or _DAY_WORDS[singular])
        elif lower in _DAY_ABBR and (word[0].isupper() or lower not in _COMMON_WORDS):
            found.add(WEEKDAYS[_DAY_ABBR[lower]])
    return found


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december")
_MONTH = "|".join([*_MONTHS, "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"])
_DATE = re.compile(
    rf"\b(?P<y1>\d{{4}})-(?P<m1>\d{{1,2}})-(?P<d1>\d{{1,2}})\b"  # 2026-06-04
    rf"|\b(?P<mon2>{_MONTH})\.?\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b(?!:)"  # June 4th
    rf"|\b(?P<d3>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon3>{_MONTH})\b"  # 4 June, 4th of June
    rf"|(?<![\d/])(?P<m4>\d{{1,2}})/(?P<d4>\d{{1,2}})(?:/(?:\d{{2}}|\d{{4}}))?(?![\d/])",  # 6/4, 6/4/2026 (US order)
    re.IGNORECASE,
)


def _month(name: str) -> int:
    name = name.lower()
    return next(i + 1 for i, full in enumerate(_MONTHS) if full.startswith(name[:3]))


def dates(text: str) -> set[tuple[int, int]]:
    """Calendar dates named, as (month, day); the year, when written, is not compared."""
    found = set()
    for match in _DATE.finditer(_unaddressed(text)):
        if match["y1"]:
            month, day = int(match["m1"]), int(match["d1"])
        elif match["mon2"]:
            if match["mon2"] == "may" or match["mon2"].islower() and len(match["mon2"]) <= 4:
                continue  # "may 4 people" is not a date; abbreviations count capitalised
            month, day = _month(match["mon2"]), int(match["d2"])
        elif match["mon3"]:
            if match["mon3"] == "may":
                continue
            month, day = _month(match["mon3"]), int(match["d3"])
        else:
            month, day = int(match["m4"]), int(match["d4"])
        if 1 <= month <= 12 and 1 <= day <= 31:
            found.add((month, day))
    return found


# -- amounts -------------------------------------------------------------------------------
_SCALE = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "mm": 1_000_000, "million": 1_000_000, "b": 10**9, "bn": 10**9, "billion": 10**9}
_AMOUNT = re.compile(
    r"(?<![\w.,])(?P<cur>[$€£]|usd\s?|eur\s?|gbp\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s?(?P<scale>k|mm|m|bn|b|thousand|million|billion)(?![a-z]))?(?P<word>\s?(?:dollars|usd|eur|gbp))?(?![\w])",
    re.IGNORECASE,
)


def amounts(text: str) -> set[Decimal]:
    """Money amounts: "$1,200", "1200 USD", "1.2k", "$3M". When the text marks any amount as
    money, bare numbers count only when they are money-sized (so "3 deals, $40k" is one
    amount, but "$40k, or maybe 45000" is two); otherwise every bare number does (outside
    times, dates, keys)."""
    bare = _mask(text)
    marked, plain = set(), set()
    for match in _AMOUNT.finditer(bare):
        try:
            value = Decimal(match["num"].replace(",", ""))
        except InvalidOperation:
            continue
        if match["scale"]:
            value *= _SCALE[match["scale"].lower()]
        value = value.normalize()
        (marked if match["cur"] or match["scale"] or match["word"] else plain).add(value)
    if not marked:
        return plain
    return marked | {v for v in plain if _money_sized(v)}


def money(value: object) -> str:
    """An amount as people write it: "$1,348,600", "$1,200.50"."""
    return f"${value:,.2f}".removesuffix(".00") if isinstance(value, Decimal | int | float) else str(value)


def _money_sized(value: Decimal) -> bool:
    """A bare number big enough to be a sum of money, and not a year ("Q3 2026")."""
    return value >= 1000 and not (value == value.to_integral_value() and 1900 <= value <= 2100)


def roundings(value: Decimal, digits: range = range(2, 7)) -> set[Decimal]:
    """`value` rounded to each number of significant digits in `digits` ("$1.35M" for
    1,348,600): said next to the exact value, a rounding restates it, it asserts nothing else."""
    found = set()
    for n in digits:
        found.add(Decimal(f"{value:.{n}g}").normalize() if value else value)
    return found


def _mask(text: str) -> str:
    """The text with every other kind of entity blanked, so its digits are not read as numbers."""
    text = _unaddressed(text)
    for pattern in (_TIME, _DATE):
        text = pattern.sub(" ", text)
    return text


def _unaddressed(text: str) -> str:
    """The text without links, emails, mentions and ticket keys, whose digits are not times or dates."""
    for pattern in (URL, EMAIL, MENTION, TICKET_KEY):
        text = pattern.sub(" ", text)
    return text


# -- addresses, keys, mentions -------------------------------------------------------------
TICKET_KEY = re.compile(r"(?<![A-Za-z0-9-])([A-Za-z][A-Za-z0-9]*)-(\d+)(?![A-Za-z0-9])")
_HANDLE = re.compile(r"(?<![\w<@.])@([a-z0-9][a-z0-9._-]*[a-z0-9])", re.IGNORECASE)


def ticket_keys(text: str, projects: Collection[str] | None = None) -> set[str]:
    """Jira-style keys, upper-cased. With `projects`, only keys of those projects count, so
    "ISO-9001" or "COVID-19" in an answer about SUP tickets is just words."""
    wanted = {p.upper() for p in projects} if projects is not None else None
    found = set()
    for project, number in TICKET_KEY.findall(text):
        project = project.upper()
        if wanted is None or project in wanted:
            found.add(f"{project}-{int(number)}" if number.isdigit() else f"{project}-{number}")
    return found


def emails(text: str) -> set[str]:
    return {e.lower() for e in EMAIL.findall(text)}


def mentions(text: str) -> set[str]:
    """User ids of `<@U…>` mentions (render labelled ones `<@U…|name>` first)."""
    return set(MENTION.findall(text))


def handles(text: str) -> set[str]:
    """@handles written out (not emails), lowercased, without the @."""
    return {h.lower() for h in _HANDLE.findall(EMAIL.sub(" ", text))}


# -- emoji ---------------------------------------------------------------------------------
# Slack's own aliases (emoji-data short names): each group is one emoji.
_EMOJI_GROUPS = (
    ("thumbsup", "+1"), ("thumbsdown", "-1"), ("facepunch", "punch"), ("raised_hand", "hand"), ("laughing", "satisfied"),
    ("hankey", "poop", "shit"), ("red_car", "car"), ("boat", "sailboat"), ("shirt", "tshirt"), ("memo", "pencil"),
    ("bee", "honeybee"), ("phone", "telephone"), ("heavy_exclamation_mark", "exclamation"), ("knife", "hocho"),
    ("open_book", "book"),
)
_EMOJI_CANON = {alias: group[0] for group in _EMOJI_GROUPS for alias in group}
_UNICODE_EMOJI = {"👍": "thumbsup", "👎": "thumbsdown", "🎉": "tada", "🙏": "pray", "👀": "eyes", "🙌": "raised_hands",
                  "✅": "white_check_mark", "✔": "heavy_check_mark", "❤": "heart", "🔥": "fire", "👏": "clap"}
_EMOJI_CODE = re.compile(r":([a-z0-9_+\-']+)(?:::skin-tone-[2-6])?:", re.IGNORECASE)


def emoji_name(name: str) -> str:
    """One name per emoji: `:+1:`, `thumbsup`, `thumbsup::skin-tone-3` → "thumbsup"."""
    clean = name.strip().strip(":").lower()
    clean = re.sub(r"::skin-tone-[2-6]$", "", clean)
    return _EMOJI_CANON.get(clean, clean)


def emoji(text: str) -> set[str]:
    found = {emoji_name(code) for code in _EMOJI_CODE.findall(text)}
    return found | {name for char, name in _UNICODE_EMOJI.items() if char in text}


# -- names ---------------------------------------------------------------------------------
class Directory:
    """People (or any named things) a text names: by `<@U…>` mention, @handle, or full name."""

    def __init__(self, names: Mapping[str, Iterable[str]], handles: Mapping[str, str] | None = None) -> None:
        self.lexicon = Lexicon(names)
        self.handles = {h.lower(): entity for h, entity in (handles or {}).items()}
        self.ids = frozenset(names)

    @property
    def ambiguous(self) -> frozenset[str]:
        return self.lexicon.ambiguous

    def find(self, text: str) -> set[str]:
        found = self.lexicon.find(text)
        found |= {u for u in mentions(text) if u in self.ids}
        found |= {self.handles[h] for h in handles(text) if h in self.handles}
        return found


def same_words(a: str, b: str) -> bool:
    return words(a) == words(b)


# -- judging -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    detail: str


def judge(
    what: str,
    asserted: Iterable[object],
    expected: Collection[object],
    tolerated: Collection[object] = (),
    readings: Callable[[object], Collection[object]] = lambda value: (value,),
    show: Callable[[object], str] = str,
) -> Verdict:
    """Right when the asserted set covers `expected` and says nothing outside it (or `tolerated`).

    `readings` gives the values an asserted item can mean (a "4:00" is 04:00 or 16:00): it is
    right if one reading is expected, and wrong if no reading is expected or tolerated.
    """
    asserted = list(asserted)
    allowed = set(expected) | set(tolerated)
    covered = {r for a in asserted for r in readings(a)}
    missing = [e for e in expected if e not in covered]
    wrong = sorted({show(a) for a in asserted if not any(r in allowed for r in readings(a))})
    if wrong:
        return Verdict(False, f"names {what} that are not the answer: {', '.join(wrong[:8])}{' …' if len(wrong) > 8 else ''}")
    if missing:
        return Verdict(False, f"does not name the {what}: {', '.join(show(m) for m in missing)}")
    if not expected:
        return Verdict(True, f"names no other {what}")
    return Verdict(True, f"names the {what}: {', '.join(sorted(show(e) for e in expected))}")


def time_readings(value: object) -> Collection[object]:
    return value.readings if isinstance(value, Time) else (value,)


# -- pasting the task back -----------------------------------------------------------------
def echoes(text: str, prompt: str, share: float = 0.5, n: int = 5) -> bool:
    """Whether `text` pastes the task's prompt: it holds at least `share` of the prompt's
    runs of `n` words. Quoting a phrase or two of the prompt, as a real answer may, is not."""
    prompt_words, text_words = words(prompt), words(text)
    wanted = {tuple(prompt_words[i : i + n]) for i in range(len(prompt_words) - n + 1)}
    if not wanted:
        return False
    have = {tuple(text_words[i : i + n]) for i in range(len(text_words) - n + 1)}
    return len(wanted & have) >= share * len(wanted)
