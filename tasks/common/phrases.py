"""Which of a task's known phrases a free-text field asserts (a task subject, a case
resolution, a next step), in the writer's own words.

A family that asks for one phrase out of a few candidates ("log a call about the rollout
timeline", "close it with: rebuilt the search index") judges the field as the set of
candidates it claims, with `tasks.common.answers.judge`: the asked one must be claimed and no
other. So a subject stuffed with every candidate fails, and "Call re rollout timeline" or
"Rollout timeline call" passes for "the rollout timeline".

A candidate is read as its content words (no articles, prepositions or pronouns; a light stem
so "confirmed logins" is "confirm login"). The asked candidate is claimed when nearly all of its
content words are there (all of up to three, all but one of four to seven ...), written
whole, cut short ("cert" for "certificate", "config") or split in two ("log in" for "login",
"roll out" for "rollout"). Another
candidate is read by its own words, those the asked one lacks and that the task does not put
in front of the writer itself (`given`: the customer's, contact's and record's names, the
case's subject), so a customer called "Security Corp" never makes a subject claim "confirm the
security review". It is claimed when at least half, and at least two, of those are there (one,
when only one is left). A field that names two or more other candidates by a word each (a
word only that candidate has: "Call about the rollout timeline, pricing, security, pilot") is a
list of them, and claims every one it names; one stray word (a natural "discussed the rollout
timeline ahead of the renewal") is not. Words any work note uses whatever was done ("fix",
"confirm", "works", "sent", "release", "back") name a candidate that way only when written as
an item of a list ("...; work, back, release"): "Customer confirmed the fix works" in a closing
comment names no other fix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.common.answers import UNCERTAIN, Verdict, echoes, judge
from tasks.common.text import words

_FILLER = frozenset(
    "a an the of for to and or with about re on in at by from into onto our their your his her its my we they them "
    "it is was be been are were has have had this that these those as per via also again now just".split()
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


def _in_any_form(wanted: set[str], text: str) -> set[str]:
    """The wanted words `text` has, whole, cut short (a word of 4 letters or more that begins
    a wanted one 3 letters longer at least: "cert", "config", "info") or split in two ("log
    in", "roll out", "set up")."""
    written = list(words(text))
    said = {stem(w) for w in written if w not in _FILLER}
    joined = {stem(a + b) for a, b in zip(written, written[1:], strict=False)}
    found = wanted & (said | joined)
    for want in wanted - found:
        if any(len(w) >= 4 and len(want) >= len(w) + 3 and want.startswith(w) for w in said):
            found.add(want)
    return found


# Words that say work was done or how it went, not what it was about: in a sentence they name no candidate.
_GENERIC = frozenset(stem(w) for w in (
    "fix fixed confirm confirmed work works working sent send resend re release released back result results done "
    "resolve resolved call called update updated check checked follow share schedule plan review correct corrected "
    "number customer issue team thanks now all again".split()))
_ITEM = re.compile(r"[^,;/|\n•]+")  # a text's list items: what lies between separators


def _listed(text: str) -> set[str]:
    """Content words written as list items of their own (an item of one word: "..., work, back")."""
    found: set[str] = set()
    for item in _ITEM.findall(text.replace(" and ", ",").replace(" or ", ",")):
        own = content_words(item)
        if len(own) == 1:
            found |= own
    return found


def _enough_of(own: set[str]) -> int:
    """How many of its content words the asked phrase needs: all of up to 3, then one in four may go."""
    return len(own) - len(own) // 4


def claims(text: str | None, candidates: Iterable[str], asked: str, given: str = "") -> set[str]:
    """The candidates `text` asserts, the asked one read generously and the others strictly;
    words of `given` (the task's own names) never count for the others."""
    said = content_words(text or "")
    wanted = content_words(asked)
    others = [c for c in dict.fromkeys(candidates) if c != asked]
    words_of = {c: content_words(c) - wanted - content_words(given) for c in others}
    found = set()
    if wanted and len(_in_any_form(wanted, text or "")) >= _enough_of(wanted):
        found.add(asked)
    named = set()  # other candidates named by a word no other candidate has
    telling = said - _GENERIC | _listed(text or "")  # a generic word names something only as a list item
    sole: dict[str, set[str]] = {}
    for candidate in others:
        distinct = words_of[candidate]
        # Words any work note uses ("confirmed it works") say nothing of which fix it was: another
        # candidate with telling words of its own is claimed only when one of those is there too (with
        # the case's subject given, "reset the SSO certificate and confirmed logins work" keeps only
        # "reset certificate confirm work", and "the customer confirmed it works" names no certificate).
        hits = len(distinct & said)
        telling_hit = not (distinct - _GENERIC) or bool((distinct - _GENERIC) & said)
        if distinct and telling_hit and hits >= min(2, len(distinct)) and 2 * hits >= len(distinct):  # one word left is enough
            found.add(candidate)
        sole[candidate] = distinct - {w for c in others if c != candidate for w in words_of[c]}
        if sole[candidate] & telling:
            named.add(candidate)
    if len(named) >= 2:  # one word each of several others: a list of them
        found |= named
    # One other named by a single word of its own counts where the sentence offers it as a
    # possibility ("or it was the SSO certificate, not sure", "either … or re-sent the invoice"):
    # that is a hedge, where the same word in a plain sentence may be incidental.
    for sentence in _SENTENCES.split(text or ""):
        if UNCERTAIN.search(sentence) or _EITHER_OR.search(sentence):
            offered = content_words(sentence) - _GENERIC
            found |= {candidate for candidate in others if sole[candidate] & offered}
    return found


_SENTENCES = re.compile(r"[.;!?\n]+")
_EITHER_OR = re.compile(r"\beither\b.*\bor\b", re.IGNORECASE)


def judge_phrase(what: str, text: str | None, candidates: Iterable[str], asked: str, given: str = "") -> Verdict:
    """`judge` over the candidates a field claims: the asked one, and no other."""
    return judge(what, claims(text, candidates, asked, given), {asked}, show=repr)


def judge_field(what: str, field: str | None, beside: Iterable[str | None], candidates: Iterable[str], asked: str,
                given: str = "", prompt: str = "") -> Verdict:
    """A field that must say the asked candidate, read together with what was written beside it
    (a task's description, comments on a case): the field claims the asked one, and the field
    and its notes together claim no other, so a hedge moved into the notes is still a hedge.
    The task's own text pasted there (`prompt`) says the asked one only because the task does:
    it is pasted, not written."""
    candidates = tuple(candidates)
    text = "\n".join([field or "", *(note or "" for note in beside)])
    if prompt and echoes(text, prompt):
        return Verdict(False, "pastes the task's own text instead of saying what was done")
    whole = judge_phrase(what, text, candidates, asked, given)
    return judge_phrase(what, field, candidates, asked, given) if whole.ok else whole
