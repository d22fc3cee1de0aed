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

import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from itertools import combinations

from tasks.common.text import EMAIL, MENTION, URL, Lexicon, words

# -- retractions ---------------------------------------------------------------------------
# "It's ENG-1, not ENG-2" asserts ENG-1 only: a value named right after a negation is ruled
# out, not claimed. Only the one token after the negation goes (a key, an email, a mention,
# a day, a time), so a hedge cannot hide behind it: "not sure, ENG-2 or ENG-1" still asserts
# both, and "SUP-14? no, SUP-41" (a correction, not a negation of the value) still asserts
# both too. Ruling a value out can only shrink the set an answer asserts, never grow it. A
# negation in a conditional or uncertain clause rules nothing out: "ENG-1, if not ENG-2", "if it's
# not ENG-2, it's ENG-1", "probably not ENG-2", "not ENG-2 (TBC)" and "not ENG-2?" name both as
# possible, a hedge.
_NEGATED = re.compile(
    r"\b(?:not|isn't|isnt|wasn't|wasnt|never)\s+(?:(?:the|a|an|ticket|issue)\s+)*(?=[<@\w$€£])"
    r"(<[^<>\s]+>|[$€£]?\s?\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?(?:\s?(?:k|m|mm|bn|b)\b)?|[^\s,;]+)",  # an amount whole: "not $1,483,460"
    re.IGNORECASE,
)
_CLAUSE_ENDS = ".;:!?,\n"
UNCERTAIN = re.compile(  # a conditional or uncertain clause (also read by tasks/common/phrases.py)
    r"\b(?:if|unless|whether|maybe|perhaps|possibly|probably|likely|might|may|could|guess|unsure|not\s+sure|tbc|tbd|"
    r"or\s+was\s+it|or\s+is\s+it)\b",
    re.IGNORECASE,
)


def without_retracted(text: str) -> str:
    """`text` without the values it explicitly rules out ("not ENG-2")."""
    def rule_out(match: re.Match[str]) -> str:
        start = max(text.rfind(end, 0, match.start()) for end in _CLAUSE_ENDS) + 1  # the negation's clause
        ends = [i for i in (text.find(end, match.end()) for end in _CLAUSE_ENDS) if i >= 0]
        end = min(ends, default=len(text))
        if match.group(0)[-1:] == "?" or text[end:end + 1] == "?":  # asked, not ruled out
            return match.group(0)
        if UNCERTAIN.search(text, start, match.start()) or UNCERTAIN.search(text, match.end(), end):
            return match.group(0)
        return " "

    return _NEGATED.sub(rule_out, text)


# -- times ---------------------------------------------------------------------------------
_TIME = re.compile(
    r"(?<![\w:.])(?:"
    r"(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ap>[ap])\.?\s?m\b\.?"  # 4pm, 4:15 PM, 11.15 a.m.
    # 23:15, 9:30, and as much of Europe writes it: 14h30, and "at 14.30" (after "at": "14.30" alone may be an amount)
    r"|(?P<H>\d{1,2})(?::|(?<=\d)h(?=[0-5]\d\b)|(?<=\bat\s\d)\.|(?<=\bat\s\d\d)\.)(?P<M>\d{2})(?![\d:])"
    r")|\b(?P<word>noon|midday|midnight)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Time:
    """A clock time as written; `readings` are the 24-hour times it can mean ("4:00" → 04:00 or 16:00)."""

    written: str
    readings: frozenset[str]
    zone: str = ""  # the time zone written after it ("ET", "PT"), upper-cased
    start: frozenset[str] = frozenset()  # when it ends a range ("2:30–3:30 PM"), the readings of the range's start

    def __str__(self) -> str:
        return self.written


def canonical_time(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


_NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_HOUR = "(?P<h{}>\\d{{1,2}}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# Times in words: "half past five", "quarter to six", "five o'clock", "10 in the morning". Without a part of the day they
# read either half of it, as "5:30" does.
_WORD_TIME = re.compile(
    rf"\b(?:(?P<past>half|quarter|twenty|ten|five)\s+past\s+{_HOUR.format(1)}|(?P<to>quarter|twenty|ten|five)\s+to\s+{_HOUR.format(2)}"
    rf"|{_HOUR.format(3)}\s+o['’]?\s?clock)"
    r"(?:\s+(?:in\s+the\s+(?P<part>morning|afternoon|evening)|at\s+(?P<night>night)))?"
    rf"|\b{_HOUR.format(4)}\s+in\s+the\s+(?P<part2>morning|afternoon|evening)\b|\b{_HOUR.format(5)}\s+at\s+(?P<night2>night)\b",
    re.IGNORECASE,
)
_MINUTES = {"half": 30, "quarter": 15, "twenty": 20, "ten": 10, "five": 5}
# A time told relative to another ("an hour later", "30 minutes earlier"): it names a time, never the one asked
# ("two hours later than planned" compares the asked time with the old one: it names none).
_RELATIVE_TIME = re.compile(r"\b(?:an?|one|two|three|half\s+an|\d+)\s*(?:hours?|hrs?|minutes?|mins?)\s+(?:later|earlier|sooner)\b(?!\s+than)",
                            re.IGNORECASE)


def _hour(written: str) -> int:
    return int(written) if written.isdigit() else _NUMBER_WORDS[written.lower()]


def _word_times(text: str) -> set[Time]:
    found = set()
    for match in _WORD_TIME.finditer(text):
        hour, minute = _hour(next(match[f"h{n}"] for n in range(1, 6) if match[f"h{n}"])), 0
        if match["past"]:
            minute = _MINUTES[match["past"].lower()]
        elif match["to"]:
            hour, minute = hour - 1, 60 - _MINUTES[match["to"].lower()]
        if not 0 <= hour <= 12:
            continue
        part = (match["part"] or match["part2"] or match["night"] or match["night2"] or "").lower()
        if part == "morning":
            readings = {canonical_time(hour % 12, minute)}
        elif part:
            readings = {canonical_time(hour % 12 + 12, minute)}
        else:
            readings = {canonical_time(hour % 12, minute), canonical_time(hour % 12 + 12, minute)}
        found.add(Time(match[0], frozenset(readings)))
    found |= {Time(m[0], frozenset()) for m in _RELATIVE_TIME.finditer(text)}
    return found


def times(text: str) -> set[Time]:
    """Clock times written ("4pm", "16:00", "noon", "half past four"), and times told relative to
    another ("an hour later"), which have no reading of their own."""
    bare = _unaddressed(text)
    found = _word_times(bare)
    before: tuple[int, frozenset[str], Time] | None = None  # where the last time read ends, its readings, and it
    for match in _TIME.finditer(bare):
        if match["word"]:
            readings = {"00:00" if match["word"].lower() == "midnight" else "12:00"}
        elif match["ap"]:
            hour, minute = int(match["h"]), int(match["m"] or 0)
            if not (1 <= hour <= 12 and minute < 60):
                continue
            readings = {canonical_time(hour % 12 + (12 if match["ap"].lower() == "p" else 0), minute)}
        else:
            hour, minute = int(match["H"]), int(match["M"])
            if hour > 23 or minute > 59 or "h" in match[0].lower() and hour < 7:
                continue  # "1h30" is more often how long something lasts than a time of the night
            if match["H"].startswith("0") or hour == 0 or hour > 12:
                readings = {canonical_time(hour, minute)}
            else:  # "2:30" without am/pm: either half of the day
                readings = {canonical_time(hour % 12, minute), canonical_time(hour % 12 + 12, minute)}
        zone = _zone_at(bare, match.end())
        ranged = before is not None and _RANGE.fullmatch(bare, before[0], match.start()) is not None
        if ranged and zone and not before[2].zone:  # "2:30–3:30 PM ET": the zone is the whole range's
            found.discard(before[2])
            found.add(Time(before[2].written, before[2].readings, zone, before[2].start))
        found.add(Time(match[0], frozenset(readings), zone, before[1] if ranged else frozenset()))
        before = (match.end(), frozenset(readings), Time(match[0], frozenset(readings), zone, before[1] if ranged else frozenset()))
    return found


_RANGE = re.compile(r"\s*(?:-|to|until|till|through|thru)\s*", re.IGNORECASE)  # "2:30-3:30 PM", "2:30 PM to 3:30 PM" (dashes made plain)
_SLOT = 4 * 60  # a range that ends within this many minutes of its start is one meeting's slot


def _minutes(reading: str) -> int:
    hour, minute = map(int, reading.split(":"))
    return hour * 60 + minute


# UTC offsets (standard time, summer time) of the zones people write after a time.
_ZONES = {"ET": (-5, -4), "EST": (-5, -5), "EDT": (-4, -4), "CT": (-6, -5), "CST": (-6, -6), "CDT": (-5, -5), "MT": (-7, -6),
          "MST": (-7, -7), "MDT": (-6, -6), "PT": (-8, -7), "PST": (-8, -8), "PDT": (-7, -7), "UTC": (0, 0), "GMT": (0, 0),
          "BST": (1, 1), "CET": (1, 2), "CEST": (2, 2)}
# A zone written as a word ("2:30 PM Eastern", "11:30 AM Pacific time") is the region's zone.
_ZONE_WORDS = {"EASTERN": "ET", "CENTRAL": "CT", "MOUNTAIN": "MT", "PACIFIC": "PT"}
_ZONE = re.compile(rf"\s*\(?(?P<zone>{'|'.join(_ZONES)}|{'|'.join(_ZONE_WORDS)})\b", re.IGNORECASE)


def _zone_at(text: str, end: int) -> str:
    """The zone written right after a time ending at `end` ("ET", "Pacific"), as its abbreviation."""
    found = _ZONE.match(text, end)
    if not found:
        return ""
    zone = found["zone"].upper()
    return _ZONE_WORDS.get(zone, zone)


def restated(found: set[Time], asked: str) -> set[Time]:
    """`found` with each time that restates the asked one in another zone ("10:00 AM ET (7:00 AM
    PT)", "14:30 ET (11:30 PT)") read as the asked time: a conversion says the same time, it names
    no other. Only a time whose zone is written, next to the asked time written with its own zone
    (the anchor), is a conversion; one written without am/pm is, when one of its readings is. A
    time in another zone that is not the same moment reads as what it is in the anchor's zone
    ("10:00 AM ET, or 10:00 AM CT" names 10:00 and 11:00), and the asked clock time claimed in
    two zones that differ ("10:00 AM ET or PT") names neither.
    The end of a slot that starts at the asked time or at a conversion of it ("2:30–3:30 PM",
    "from 2:30 to 3:30", "11:30 AM–12:30 PM PT") is read so too: it says when that meeting ends,
    not that it starts at another time."""
    anchors = {t.zone for t in found if t.zone and asked in t.readings}
    if any(not _same_offset(a, b) for a in anchors for b in anchors):
        return {Time(t.written, frozenset({f"{asked} {t.zone}"}), t.zone) if t.zone in anchors else t for t in found}

    def in_anchor(reading: str, zone: str) -> set[str]:  # what `reading` in `zone` is in the anchor's zone
        h, m = map(int, reading.split(":"))
        return {canonical_time((h + _ZONES[anchor][k] - _ZONES[zone][k]) % 24, m) for anchor in anchors for k in (0, 1)}

    def same_moment(readings: frozenset[str], zone: str) -> bool:
        if zone and anchors:
            return any(asked in in_anchor(r, zone) for r in readings)
        return asked in readings

    def ends_slot(t: Time) -> bool:  # the end of a slot starting at the asked time ("2:30–3:30 PM") names no other time
        return same_moment(t.start, t.zone) and any(0 < _minutes(r) - _minutes(s) <= _SLOT for s in t.start for r in t.readings)

    def reread(t: Time) -> Time:
        if ends_slot(t) or t.zone and anchors and t.readings and same_moment(t.readings, t.zone):
            return Time(t.written, frozenset({asked}), t.zone)
        if t.zone and anchors and not any(_same_offset(t.zone, a) for a in anchors):
            return Time(t.written, frozenset(x for r in t.readings for x in in_anchor(r, t.zone)), t.zone)
        return t

    return {reread(t) for t in found}


def _same_offset(a: str, b: str) -> bool:
    """Whether two zones can be the same clock (ET and EDT in summer, ET and EST in winter)."""
    return any(_ZONES[a][k] == _ZONES[b][k] for k in (0, 1))


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


_RELATIVE_DAY = re.compile(r"\b(?:(?P<after>(?:the\s+)?day\s+after\s+tomorrow)|(?P<word>today|tonight|tomorrow|tmrw|tmr|yesterday))\b",
                           re.IGNORECASE)
_DAY_OFFSET = {"today": 0, "tonight": 0, "tomorrow": 1, "tmrw": 1, "tmr": 1, "yesterday": -1}


def days(text: str, today: date | None = None) -> set[str]:
    """The days a text names, as weekday names: weekdays written, and dates and relative days
    ("tomorrow", "6/12") read against `today`. Without `today`, a date or a relative day is kept
    as written: it names a day, and not a weekday asked."""
    found = weekdays(text)
    for match in _RELATIVE_DAY.finditer(text):
        offset = 2 if match["after"] else _DAY_OFFSET[match["word"].lower()]
        found.add(WEEKDAYS[(today + timedelta(days=offset)).weekday()] if today else match[0].lower())
    for month, day in dates(text):
        found.add(_weekday_of(month, day, today) if today else f"{month}/{day}")
    return found


def _weekday_of(month: int, day: int, today: date) -> str:
    """The weekday a date names, when it is in the coming week (what "moved to Friday" can
    mean as of `today`); another date is another day, kept as written."""
    for year in (today.year, today.year + 1):
        try:
            when = date(year, month, day)
        except ValueError:
            continue
        if 0 <= (when - today).days <= 7:
            return WEEKDAYS[when.weekday()]
    return f"{month}/{day}"


# -- amounts -------------------------------------------------------------------------------
_SCALE = {"k": 1_000, "thousand": 1_000, "grand": 1_000, "thou": 1_000, "m": 1_000_000, "mm": 1_000_000, "million": 1_000_000,
          "mil": 1_000_000, "b": 10**9, "bn": 10**9, "billion": 10**9}
_AMOUNT = re.compile(
    r"(?<![\w.,])(?P<cur>[$€£]\s?|usd\s?|eur\s?|gbp\s?)?"
    r"(?P<num>(?P<eu>\d{1,3}(?:\.\d{3})+,\d{1,2}(?![\d,])|\d{1,3}(?:\.\d{3}){2,}(?![\d.])|\d{1,3}(?:[ \u00a0\u202f]\d{3})+,\d{2}(?![\d,]))"
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?(?:e[+-]?\d{1,2}(?![\d.]))?)"
    r"(?:\s?(?P<scale>k|mm|mil|m|bn|b|thousand|grand|thou|million|billion)(?![a-z]))?"
    r"(?P<word>\s?(?:dollars|bucks|usd|eur|gbp|[$€£]))?(?![\w])",
    re.IGNORECASE,
)


def amounts(text: str) -> set[Decimal]:
    """Money amounts: "$1,200", "1200 USD", "1.2k", "$3M", "51 grand", "5.2e4", "48 800 $", and
    written the European way, "1.348.600 €", "1.348.600,00", "1 348 600,00 $". When
    the text marks any amount as money, bare numbers count only when they are money-sized (so
    "3 deals, $40k" is one amount, but "$40k, or maybe 45000" is two); otherwise every bare
    number does (outside times, dates, keys)."""
    return set(amount_list(text))


_DOT_THOUSANDS = re.compile(r"\d{1,3}\.\d{3}")


def amount_list(text: str) -> list[Decimal]:
    """The amounts `amounts` reads, each as often as it is written, in no particular order."""
    marked, plain = _amounts_written(text)
    if not marked:
        return plain
    return marked + [v for v in plain if _money_sized(v)]


def _amounts_written(text: str) -> tuple[list[Decimal], list[Decimal]]:
    """(amounts marked as money, bare numbers), each occurrence."""
    bare = _mask(text)
    marked: list[Decimal] = []
    plain: list[Decimal] = []
    for match in _AMOUNT.finditer(bare):
        is_marked = bool(match["cur"] or match["scale"] or match["word"])
        # European grouping: dots (or spaces) part the thousands, a comma the cents ("1.348.600,00", "1 348 600,00")
        digits = match["num"].replace(".", "").replace(",", ".") if match["eu"] else match["num"].replace(",", "")
        if is_marked and not match["scale"] and _DOT_THOUSANDS.fullmatch(match["num"]):
            digits = match["num"].replace(".", "")  # money has cents, not three decimals: "267.100 USD" is 267,100
        # Thousands parted by spaces ("48 800 $") are read so only when marked as money: "7 500" alone may be two numbers.
        whole = is_marked or bool(match["eu"])  # a decimal comma after spaced thousands ("7 500,00") is one number
        pieces = [digits.replace(" ", "").replace("\u00a0", "").replace("\u202f", "")] if whole else re.split(r"[ \u00a0\u202f]", digits)
        for piece in pieces:
            try:
                value = Decimal(piece)
            except InvalidOperation:
                continue
            if match["scale"]:
                value *= _SCALE[match["scale"].lower()]
            (marked if is_marked else plain).append(value.normalize())
    for value, is_marked in _worded(bare):
        (marked if is_marked else plain).append(value)
    return marked, plain


_SMALL = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
    "nineteen".split())}
_TENS = {w: 10 * n for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_WORD_SCALE = {"thousand": 1_000, "grand": 1_000, "thou": 1_000, "k": 1_000, "million": 1_000_000, "billion": 10**9}
_NUMBER_WORDS_ALL = frozenset({*_SMALL, *_TENS, *_WORD_SCALE, "hundred"})
_NUMBER_TOKEN = re.compile(r"[a-z]+", re.IGNORECASE)
_MONEY_AFTER = re.compile(r"\s*(?:dollars|bucks|usd|eur|gbp|[$€£])", re.IGNORECASE)


def _worded(text: str) -> Iterator[tuple[Decimal, bool]]:
    """Amounts written in words ("fifty-one grand", "forty eight thousand eight hundred dollars"),
    each with whether it is marked as money (a scale word, a currency, a "$" in front). Only
    money-sized or marked ones: "one of the deals" is no amount."""
    runs: list[list[re.Match[str]]] = []
    for match in _NUMBER_TOKEN.finditer(text):
        word = match[0].lower()
        if word not in _NUMBER_WORDS_ALL and word != "and":
            continue
        follows = runs and not text[runs[-1][-1].end():match.start()].strip(" -")
        if follows:
            runs[-1].append(match)
        elif word != "and":
            runs.append([match])
    for run in runs:
        while run[-1][0].lower() == "and":
            run.pop()
        found = _read_words([m[0].lower() for m in run])
        if found is None:
            continue
        value, scaled = found
        before, after = text[: run[0].start()].rstrip(), text[run[-1].end():]
        is_marked = scaled or before[-1:] in ("$", "€", "£") or bool(_MONEY_AFTER.match(after))
        if is_marked or _money_sized(value):
            yield value, is_marked


def _read_words(tokens: list[str]) -> tuple[Decimal, bool] | None:
    """The value of a run of number words, and whether a scale word (thousand, grand) is in it."""
    if not any(t in _SMALL or t in _TENS for t in tokens):
        return None
    total = current = 0
    scaled = False
    for token in tokens:
        if token in _SMALL or token in _TENS:
            current += _SMALL.get(token, 0) + _TENS.get(token, 0)
        elif token == "hundred":
            current = max(current, 1) * 100
        elif token in _WORD_SCALE:
            total += max(current, 1) * _WORD_SCALE[token]
            current, scaled = 0, True
    return Decimal(total + current).normalize(), scaled


def breakdown(text: str, total: Decimal, tolerated: Collection[Decimal] = (), known: Collection[Decimal] = ()) -> set[Decimal]:
    """The amounts `text` names as the parts of `total`, which it also names: "$1,234,500, from
    $400,000, $500,000 and $334,500" breaks the total down, it offers no other figure. The
    amounts besides the total (and the `tolerated` restatements of it) are parts when some of
    them, two or more, add up to the total (to within half a percent, for parts written
    rounded: "$400k + $500k + $334.5k") and every other one is a subtotal of those ("$900k of
    it from Acme"). With `known`, the amounts the total is the sum of (each deal's), every
    figure must be one of them or a sum of some, and one of them named alone is a part too
    when it comes after the total ("$1.23M; the largest is Acme at $400k"): said before it
    ("It's $400k." then the total) it was offered as the answer. A figure that is no part
    ("$1,234,500, or maybe $1.5M"), or one offered as a possibility ("could be $400k"), leaves
    none read as parts: the answer names two totals."""
    if total <= 0 or _OFFERED.search(_mask(text)):
        return set()
    others = [v for v in amount_list(text) if v != total and v not in tolerated]
    if not others or len(others) > 12 or any(v <= 0 or v >= total for v in others):
        return set()
    if any(_DOUBT.search(sentence) and set(amount_list(sentence)) - {total} for sentence in _SENTENCE.split(text)):
        return set()  # "…, not sure, 400,000 maybe": a figure in a doubting sentence is offered, not a part
    if all(any(v == k or v in roundings(k) for k in known) for v in others) and not _said_before(text, total, tolerated):
        return set(others)
    if known and not all(_sum_of_some(v, known) for v in others):
        return set()  # the total's parts are known: a figure some of them only come near is another figure
    if len(others) < 2:
        return set()

    def adds_up(values: Sequence[Decimal], to: Decimal) -> bool:
        return len(values) >= 2 and abs(sum(values) - to) <= to * Decimal("0.005")

    indices = range(len(others))
    for size in range(len(others), 1, -1):
        for chosen in combinations(indices, size):
            parts = [others[i] for i in chosen]
            if not adds_up(parts, total):
                continue
            rest = [others[i] for i in indices if i not in chosen]
            if all(any(adds_up(sub, value) for n in range(2, len(parts)) for sub in combinations(parts, n)) for value in rest):
                return set(others)
    return set()


def _said_before(text: str, total: Decimal, tolerated: Collection[Decimal]) -> bool:
    """Whether a figure is said in a sentence before the first that names the total (or a
    rounding of it)."""
    for sentence in _SENTENCE.split(text):
        found = set(amount_list(sentence))
        if total in found or found & set(tolerated):
            return False
        if found:
            return True
    return False


_MAX_SUMS = 1 << 16


@functools.lru_cache(maxsize=64)
def _sums(parts: tuple[Decimal, ...]) -> frozenset[int] | None:
    """Every sum of some of `parts`, in cents; None when there are too many to list."""
    reached = {0}
    for part in parts:
        reached |= {c + int(part * 100) for c in reached}
        if len(reached) > _MAX_SUMS:
            return None
    return frozenset(reached)


def _sum_of_some(value: Decimal, known: Collection[Decimal]) -> bool:
    """Whether `value` is exactly what some of the `known` parts add up to (a subtotal, "$900,000
    of it from Acme"); when the sums are too many to list, any value is."""
    sums = _sums(tuple(sorted(known)))
    cents = value * 100
    return sums is None or cents == cents.to_integral_value() and int(cents) in sums


_SENTENCE = re.compile(r"(?<=[;!?\n])|(?<=\.)(?!\d)")  # ends kept: a question mark doubts its sentence
_DOUBT = re.compile(r"\b(?:or|maybe|perhaps|possibly|probably|likely|might|could|guess|unsure|not\s+sure|tbc|tbd)\b|\?", re.IGNORECASE)
# A figure offered as another possibility ("or $1.1M", "maybe 134,500", "could be $400k"): no breakdown reads it as a part.
_OFFERED = re.compile(r"\b(?:or|maybe|perhaps|possibly|probably|likely|might|could|guess|unsure|not\s+sure|tbc|tbd|if|unless|whether)"
                      r"\s+(?:[a-z]+\s+){0,2}(?:[$€£]|usd|eur|gbp)?\s?\d", re.IGNORECASE)


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
    """The text without links, emails, mentions, ticket keys and codes of three or more parts
    ("INV-ACM-1004", an invoice's number), whose digits are not times, dates or amounts."""
    for pattern in (URL, EMAIL, MENTION):
        text = pattern.sub(" ", text)
    text = _CODE.sub(" ", text.translate(_DASHES))
    for start, end, _keys in reversed(list(_key_runs(text))):
        text = f"{text[:start]} {text[end:]}"
    return text


# -- addresses, keys, mentions -------------------------------------------------------------
# A record's code: a letter first, three or more hyphen-joined parts, a digit somewhere ("INV-ACM-1004", "PO-2026-118").
# Two-part ones ("SUP-64") are keys, read below; a date ("2026-03-04") starts with a digit.
_CODE = re.compile(r"(?<![\w-])(?=[A-Za-z0-9-]*\d)[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+){2,}(?![\w-])")
TICKET_KEY = re.compile(r"(?<![A-Za-z0-9-])([A-Za-z][A-Za-z0-9]*)-(\d+)(?![A-Za-z0-9])")
# Hyphens people type or their editors put in a key: "SUP‑64" with a non-breaking hyphen is SUP-64.
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"})
# A key, then more numbers of the same project written short: "SUP-64/76", "SUP-64 and -76", "SUP-64, -76, -80", and
# "SUP-64, 76 or 77?" when the bare number ends the list (a number followed by a word is a count: "SUP-76, 2 in total").
# The project and number may also be parted by a space or '#' ("SUP 64", "SUP #64"): read only for the task's own
# projects written in capitals, so "page 5" or "sup 2" stay words.
_LIST_ENDS = r"(?=\s*(?:[,;!?)&/]|\.(?!\d)|:(?!\d)|\band\b|\bor\b|$))"
_KEY_RUN = re.compile(
    r"(?<![A-Za-z0-9-])(?P<project>[A-Za-z][A-Za-z0-9]*)(?P<sep>-|[ \t]?#|[ \t])(?P<number>\d+)(?![A-Za-z0-9])"
    r"(?P<more>(?:\s*/\s*-?\d+(?![A-Za-z0-9])|\s*(?:,|&|\band\b|\bor\b|/)?\s*-\d+(?![A-Za-z0-9])"
    rf"|\s*(?:,|&|\band\b|\bor\b)\s*\d+(?![A-Za-z0-9]|[,.:]\d){_LIST_ENDS})*)"
)
_MORE = re.compile(r"\d+")
_CLOCK_BEFORE = re.compile(r"\d[\s.]*$")
_HANDLE = re.compile(r"(?<![\w<@.])@([a-z0-9][a-z0-9._-]*[a-z0-9])", re.IGNORECASE)


def _key_runs(text: str, projects: Collection[str] | None = None) -> Iterator[tuple[int, int, list[str]]]:
    """(start, end, keys) of each run of ticket keys in `text` (its dashes already plain hyphens)."""
    wanted = {p.upper() for p in projects} if projects is not None else None
    for match in _KEY_RUN.finditer(text):
        project = match["project"]
        if match["sep"] != "-" and (wanted is None or project != project.upper() or project not in wanted):
            continue
        if project.upper() in ("AM", "PM") and _CLOCK_BEFORE.search(text, 0, match.start()):
            continue  # "10:00 AM-11:00" is a time range, not the key AM-11
        numbers = [match["number"], *_MORE.findall(match["more"])]
        yield match.start(), match.end(), [f"{project.upper()}-{int(n)}" for n in numbers]


# A range of keys names every key in it: "SUP-44 to SUP-79", "SUP-44 through 79", "SUP-44–SUP-79", "SUP-44…79" (an en or
# em dash, an ellipsis, or "to/through/thru/till/until"; a plain hyphen between a key and a number stays the list shorthand
# "SUP-64, -76" read above). Read on the text before its dashes are made plain, so an en dash still says "through".
_KEY_RANGE = re.compile(
    r"(?<![A-Za-z0-9-])(?P<project>[A-Za-z][A-Za-z0-9]*)[-\u2010\u2011](?P<first>\d+)(?![A-Za-z0-9])"
    r"(?P<via>\s*(?:\.{2,3}|\u2026|[\u2013\u2014]|\s-\s)\s*|\s+(?:to|through|thru|till|until)\s+)"
    r"(?:(?P=project)[-\u2010\u2011\u2013\u2014](?P<last>\d+)(?![A-Za-z0-9])|(?P<bare>\d+)(?![A-Za-z0-9]|[,.:]\d)" + _LIST_ENDS + ")",
    re.IGNORECASE,
)
MAX_RANGE = 1000  # a range wider than this still names that many keys: far past any answer


def _ranges_spelt_out(text: str) -> str:
    """`text` with each range of keys written as the list of keys it spans ("SUP-3 to SUP-5" → "SUP-3, SUP-4, SUP-5")."""
    def spell(match: re.Match[str]) -> str:
        a, b = sorted((int(match["first"]), int(match["last"] or match["bare"])))
        return ", ".join(f"{match['project']}-{n}" for n in range(a, min(b, a + MAX_RANGE) + 1))

    return _KEY_RANGE.sub(spell, text)


def ticket_keys(text: str, projects: Collection[str] | None = None) -> set[str]:
    """Jira-style keys, upper-cased, in the forms people write them: "SUP-64", "sup‑64", "SUP 64",
    "SUP-64/76", "SUP-64 and -76". With `projects`, only keys of those projects count, so
    "ISO-9001" or "COVID-19" in an answer about SUP tickets is just words. A range ("SUP-44 to
    SUP-79") names every key in it, so it is no way to list the two ends and cover what lies
    between; a list left open ("SUP-44, SUP-79, etc.", "at least SUP-44") names one more (`MORE`)."""
    wanted = {p.upper() for p in projects} if projects is not None else None
    found = set()
    plain = _ranges_spelt_out(text).translate(_DASHES)
    for start, end, keys in _key_runs(plain, projects):
        keys = [k for k in keys if wanted is None or k.split("-")[0] in wanted]
        found |= set(keys)
        if keys and (_OPEN_TAIL.match(plain, end) or _OPEN_HEAD.search(plain, max(0, start - 24), start)):
            found.add(f"{keys[0].split('-')[0]}-{MORE}")
    return found


# A list left open names keys it does not spell out: "SUP-44, SUP-79, etc.", "SUP-44 and SUP-79 among others", "at least
# SUP-44": it is read as naming one key more (`MORE`), never the answer, so it is no way to hedge a list.
MORE = "… (a list left open)"
_OPEN_TAIL = re.compile(
    r"\s*[,;]?\s*(?:etc\b|et\s+cetera\b|(?:and|or|plus)\s+(?:(?:so\s+on|the\s+like)\b|(?:possibly\s+|maybe\s+|probably\s+)?"
    r"(?:a\s+few\s+|a\s+couple\s+|some\s+|several\s+|many\s+)?(?:others|more)\b)|among\s+others\b|(?:\.\.\.|…)(?!\s*\d))",
    re.IGNORECASE,
)
_OPEN_HEAD = re.compile(r"\b(?:at\s+least|e\.\s?g\.|for\s+(?:example|instance))[\s:,]*$", re.IGNORECASE)


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
