"""The chat graders read a customer named by its first word ("Brown" for Brown Group), as the
tickets graders do: a hedge offering another customer that way fails, and the asked customer
written that way is the asked customer."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache

from rollouts import Rollout

from officegym import settings
from officegym.templates import ensure_template
from tasks.common.text import short_names

POST = "chat/post-in-channel-v1"


@cache
def first_words() -> dict[str, str]:
    """{customer name: its one-word short form} on the seed-1 company, for the customers whose
    short form is theirs alone and no person's or contact's name."""
    company = ensure_template(settings.cache_dir(), 1, "small").company
    people = [p.name for p in company.people] + [k.name for c in company.customers for k in c.contacts]
    found = short_names([c.name for c in company.customers], taken=people)
    owners: dict[str, int] = {}
    for forms in found.values():
        owners[forms[0]] = owners.get(forms[0], 0) + 1
    return {name: forms[0].capitalize() for name, forms in found.items() if owners[forms[0]] == 1}  # as written: capitalised


def test_a_hedge_naming_another_customer_by_its_first_word_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    other = next(word for name, word in first_words().items() if name != f["customer"] and word.lower() not in f["customer"].lower())
    r.call("slack_post_message", channel_id=f["channel"], text=f"{f['customer']} moved to {f['day']} at {f['time']}, or maybe it was {other}.")
    assert r.fails(), json.dumps(r.grade())


def test_the_asked_customer_by_its_first_word_is_named(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST, where=lambda facts: facts["customer"] in first_words())
    f = r.facts
    r.call("slack_post_message", channel_id=f["channel"], text=f"{first_words()[f['customer']]} moved to {f['day']} at {f['time']}.")
    assert r.passes(), json.dumps(r.grade())
