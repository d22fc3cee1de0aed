"""Which of a task's known phrases a free-text field asserts (a task subject, a case
resolution, a next step), in the writer's own words.

A family that asks for one phrase out of a few candidates ("log a call about the rollout
timeline", "close it with: rebuilt the search index") judges the field as the set of
candidates it claims, with `tasks.common.answers.judge`: the asked one must be claimed and no
other. So a subject stuffed with every candidate fails, and "Call re rollout timeline" or
"Rollout timeline call" passes for "the rollout timeline".

A candidate is read as its content words (no articles, prepositions or pronouns; a light stem
so "confirmed logins" is "confirm login"). The asked candidate is claimed when nearly all of its
content words are there (all of up to three, all but one of four to seven ...). Another
candidate is claimed when at least half, and at least two, of its own words (those the asked
one lacks) are there: a single shared word such as a customer called "Security Corp" never
makes a subject claim "confirm the security review".
"""

from __future__ import annotations

from collections.abc import Iterable

from tasks.common.answers import Verdict, judge
from tasks.common.text import words

_FILLER = frozenset(
    "a an the of for to and or with about re on in at by from into onto our their your his her its my we they them "
    "it is was be been has have had this that these those as per via".split()
)
_SUFFIXES = ("ing", "ed", "es", "s")


def stem(word: str) -> str:
    """A light stem, enough to read "confirmed"/"confirm", "logins"/"login", "pricing"/"price" as one word."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word  # "price", "pricing" -> "pric"


def content_words(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in _FILLER}


def _enough_of(own: set[str]) -> int:
    """How many of its content words the asked phrase needs: all of up to 3, then one in four may go."""
    return len(own) - len(own) // 4


def claims(text: str | None, candidates: Iterable[str], asked: str) -> set[str]:
    """The candidates `text` asserts, the asked one read generously and the others strictly."""
    said = content_words(text or "")
    wanted = content_words(asked)
    found = set()
    for candidate in dict.fromkeys(candidates):
        own = content_words(candidate)
        if candidate == asked:
            if own and len(own & said) >= _enough_of(own):
                found.add(candidate)
            continue
        distinct = own - wanted
        hits = len(distinct & said)
        if hits >= 2 and 2 * hits >= len(distinct):
            found.add(candidate)
    return found


def judge_phrase(what: str, text: str | None, candidates: Iterable[str], asked: str) -> Verdict:
    """`judge` over the candidates a field claims: the asked one, and no other."""
    return judge(what, claims(text, candidates, asked), {asked}, show=repr)
