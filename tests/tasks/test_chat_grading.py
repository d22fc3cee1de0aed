"""Honest grading of the chat families, through the official MCP client: each class of gaming
fails (hedging, listing everything, substrings, pasting the prompt, changes wider than the
task, the wrong record) and correct work in another form passes (other formats, aliases,
labelled mentions, thread replies in a DM, key-like words, a welcome post, joining to read)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from rollouts import Rollout

from graders.rubric import PASS_LINE
from tasks import registry
from tasks.common.adversaries import ADVERSARIES
from tasks.common.answers import parse_time

FAMILIES = [f.id for f in registry.all_families()]


# -- every family --------------------------------------------------------------------------
@pytest.mark.parametrize("task", FAMILIES)
@pytest.mark.parametrize("name", list(ADVERSARIES))
def test_every_adversary_stays_below_the_pass_line(rollout: Callable[..., Rollout], task: str, name: str) -> None:
    r = rollout(task, seed=1, variant=1)
    r.run(lambda tools: ADVERSARIES[name](r.task, tools))
    grade = r.grade()
    assert grade["reward"] < PASS_LINE and not grade["passed"], json.dumps(grade)


@pytest.mark.parametrize("task", FAMILIES)
def test_every_correct_solution_passes(rollout: Callable[..., Rollout], task: str) -> None:
    solutions = [rollout(task).task.oracle, *rollout(task).task.alternatives]
    assert len(solutions) >= 2, "a family ships at least two different correct solutions"
    for index in range(len(solutions)):
        r = rollout(task)
        r.run([r.task.oracle, *r.task.alternatives][index])
        assert r.passes(), json.dumps(r.grade())


@pytest.mark.parametrize("task", FAMILIES)
def test_joining_a_public_channel_and_opening_a_dm_are_never_collateral(rollout: Callable[..., Rollout], task: str) -> None:
    r = rollout(task)
    users = r.call("slack_get_users", limit=50)["members"]
    someone = next(u["id"] for u in users if not u["is_bot"] and u["id"] != r.facts.get("asker"))
    r.call("slack_join_channel", channel_id="#random")
    r.call("slack_open_dm", users=someone)
    r.run(r.task.oracle)
    assert r.passes(), json.dumps(r.grade())


# -- post-in-channel -----------------------------------------------------------------------
POST = "chat/post-in-channel-v1"


def test_post_in_24_hour_time_weekday_abbreviation_and_ampersand_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST, where=lambda f: " and " in f["customer"] and f["time"].endswith("PM"))
    f = r.facts
    text = f"{f['customer'].replace(' and ', ' & ')}: now {f['day'][:3].lower()}... {f['day'][:3]} {parse_time(f['time'])}"
    r.call("slack_post_message", channel_id=f["channel"], text=text)
    assert r.passes(), json.dumps(r.grade())


def test_post_with_a_hedged_time_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    wrong = "9:30 AM" if f["time"] != "9:30 AM" else "10:00 AM"
    r.call("slack_post_message", channel_id=f["channel"], text=f"{f['customer']} moved to {f['day']} at {wrong}")
    r.call("slack_post_message", channel_id=f["channel"], text=f"Correction: {f['day']} at {f['time']}")
    assert r.fails() and "not the answer" in r.grade()["checks"][0]["detail"]


def test_post_hedged_in_another_channel_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    wrong = "9:30 AM" if f["time"] != "9:30 AM" else "10:00 AM"
    r.call("slack_post_message", channel_id="#random", text=f"{f['customer']} moved to {f['day']} at {wrong}")
    r.call("slack_post_message", channel_id=f["channel"], text=f"{f['customer']} moved to {f['day']} at {f['time']}")
    assert r.fails()


def test_post_made_of_blocks_alone_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST, toolset="official")
    f = r.facts
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "Schedule change"}},
        {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
            {"type": "text", "text": f"{f['customer']}: now "},
            {"type": "text", "text": f"{f['day']}, {f['time']}", "style": {"bold": True}},
        ]}]},
    ]
    r.call("slack_send_message", channel_id=f["channel"], blocks=blocks)
    assert r.passes(), json.dumps(r.grade())


def test_post_only_in_a_thread_is_not_a_post(rollout: Callable[..., Rollout]) -> None:
    r = rollout(POST)
    f = r.facts
    parent = r.call("slack_get_channel_history", channel_id=f["channel"], limit=1)["messages"][0]["ts"]
    r.call("slack_reply_to_thread", channel_id=f["channel"], thread_ts=parent, text=f"{f['customer']} {f['day']} {f['time']}")
    assert r.fails()


# -- react-to-message ----------------------------------------------------------------------
REACT = "chat/react-to-message-v1"


@pytest.mark.parametrize("reaction", ["+1", "thumbsup::skin-tone-3", ":thumbsup:"])
def test_reacting_with_another_name_of_the_emoji_passes(rollout: Callable[..., Rollout], reaction: str) -> None:
    r = rollout(REACT, where=lambda f: f["emoji"] == "thumbsup")
    r.call("slack_add_reaction", channel_id=r.facts["channel"], timestamp=r.facts["ts"], reaction=reaction)
    assert r.passes(), json.dumps(r.grade())


def test_a_mistaken_reaction_taken_back_is_no_hedge(rollout: Callable[..., Rollout]) -> None:
    r = rollout(REACT)
    f, other = r.facts, "rocket"
    r.call("slack_add_reaction", channel_id=f["channel"], timestamp=f["ts"], reaction=other)
    r.call("slack_remove_reaction", channel_id=f["channel"], timestamp=f["ts"], reaction=other)
    r.call("slack_add_reaction", channel_id=f["channel"], timestamp=f["ts"], reaction=f["emoji"])
    assert r.passes(), json.dumps(r.grade())


def test_the_right_emoji_among_others_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(REACT)
    f = r.facts
    for reaction in (f["emoji"], "rocket"):
        r.call("slack_add_reaction", channel_id=f["channel"], timestamp=f["ts"], reaction=reaction)
    assert r.fails() and "only" in r.grade()["checks"][0]["detail"]


# -- find-and-answer -----------------------------------------------------------------------
ANSWER = "chat/find-and-answer-v1"


def test_a_longer_key_that_contains_the_right_one_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(ANSWER)
    r.call("slack_post_message", channel_id=r.facts["dm"], text=f"It's {r.facts['ticket']}0")
    assert r.fails()


def _neighbour(key: str) -> str:
    project, number = key.rsplit("-", 1)
    return f"{project}-{int(number) + 1}"


def test_ruling_out_a_wrong_key_while_giving_the_right_one_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(ANSWER)
    key = r.facts["ticket"]
    r.call("slack_post_message", channel_id=r.facts["dm"], text=f"Not {_neighbour(key)} — it's {key}.")
    assert r.passes()


@pytest.mark.parametrize("text", ["It's {wrong}, not {key}.", "Not sure: {wrong} or {key}?", "{wrong}? no, {key}"])
def test_a_negation_never_rescues_a_hedge_or_the_wrong_key(rollout: Callable[..., Rollout], text: str) -> None:
    r = rollout(ANSWER)
    key = r.facts["ticket"]
    r.call("slack_post_message", channel_id=r.facts["dm"], text=text.format(key=key, wrong=_neighbour(key)))
    assert r.fails()


@pytest.mark.parametrize("form", ["{key}", "{lower}", "<@{asker}|them> {key}, per ISO-9001 (COVID-19 backlog)", "*{key}* :+1:"])
def test_answers_in_other_forms_pass_even_in_a_thread_under_the_question(rollout: Callable[..., Rollout], form: str) -> None:
    r = rollout(ANSWER)
    f = r.facts
    asked = r.call("slack_get_channel_history", channel_id=f["dm"], limit=1)["messages"][0]["ts"]
    text = form.format(key=f["ticket"], lower=f["ticket"].lower(), asker=f["asker"])
    r.call("slack_reply_to_thread", channel_id=f["dm"], thread_ts=asked, text=text)
    assert r.passes(), json.dumps(r.grade())


def test_an_answer_in_blocks_sent_to_the_person_passes(rollout: Callable[..., Rollout]) -> None:
    """Slack's own MCP server: a user id as channel means the DM with them; blocks carry the key."""
    r = rollout(ANSWER, toolset="official")
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": f"That's *{r.facts['ticket']}*"}}]
    r.call("slack_send_message", channel_id=r.facts["asker"], text="the ticket key", blocks=blocks)
    assert r.passes(), json.dumps(r.grade())


def test_the_right_answer_in_another_dm_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(ANSWER)
    users = r.call("slack_get_users", limit=50)["members"]
    other = next(u["id"] for u in users if not u["is_bot"] and u["id"] != r.facts["asker"])
    dm = r.call("slack_open_dm", users=other)["channel"]["id"]
    r.call("slack_post_message", channel_id=dm, text=r.facts["ticket"])
    assert r.fails()


# -- reply-in-thread -----------------------------------------------------------------------
THREAD = "chat/reply-in-thread-v1"


def test_an_email_that_contains_the_right_one_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(THREAD)
    f = r.facts
    r.call("slack_reply_to_thread", channel_id=f["channel"], thread_ts=f["thread_ts"], text=f"x{f['contact']}.au")
    assert r.fails()


def test_a_mailto_link_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(THREAD)
    f = r.facts
    r.call("slack_reply_to_thread", channel_id=f["channel"], thread_ts=f["thread_ts"], text=f"<mailto:{f['contact']}|{f['contact']}>")
    assert r.passes(), json.dumps(r.grade())


def test_the_prompt_pasted_into_the_right_thread_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(THREAD)
    r.call("slack_reply_to_thread", channel_id=r.facts["channel"], thread_ts=r.facts["thread_ts"], text=r.task.prompt)
    assert r.fails() and "pastes the task" in r.grade()["checks"][0]["detail"]


# -- create-channel-and-invite -------------------------------------------------------------
CHANNEL = "chat/create-channel-and-invite-v1"


def test_archiving_the_new_channel_right_after_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(CHANNEL)
    r.run(r.task.oracle)
    r.call("slack_archive_channel", channel_id=f"#{r.facts['name']}")
    assert r.fails(), json.dumps(r.grade())


def test_a_welcome_post_and_a_topic_in_the_new_channel_are_fine(rollout: Callable[..., Rollout]) -> None:
    r = rollout(CHANNEL)
    r.run(r.task.oracle)
    r.call("slack_post_message", channel_id=f"#{r.facts['name']}", text="Welcome, team! :wave:")
    r.call("slack_set_channel_topic", channel_id=f"#{r.facts['name']}", topic="Account team")
    assert r.passes(), json.dumps(r.grade())


def test_a_wrong_channel_made_on_the_way_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(CHANNEL)
    r.call("slack_create_channel", name=f"{r.facts['name']}-tmp", is_private=True)
    r.run(r.task.oracle)
    assert r.fails() and "also created" in r.grade()["checks"][0]["detail"]


# -- summarise-thread ----------------------------------------------------------------------
SUMMARY = "chat/summarise-thread-v1"


def summary_text(r: Rollout, people: str) -> str:
    instance_customer = next(
        c.name for c in r.gym.template(1, "small").company.customers
        for t in r.gym.template(1, "small").company.tickets if t.key == r.facts["ticket"] and t.customer_id == c.id
    )
    return f"{r.facts['ticket']} for {instance_customer}: {people}"


def test_a_summary_naming_someone_outside_the_thread_fails(rollout: Callable[..., Rollout]) -> None:
    r = rollout(SUMMARY)
    users = r.call("slack_get_users", limit=200)["members"]
    stranger = next(u["id"] for u in users if not u["is_bot"] and u["id"] not in r.facts["people"])
    people = ", ".join(f"<@{u}>" for u in [*r.facts["people"], stranger])
    r.call("slack_post_message", channel_id=r.facts["target"], text=summary_text(r, people))
    grade = r.grade()
    assert r.fails() and "people" in grade["checks"][0]["detail"], json.dumps(grade)


def test_a_summary_with_labelled_mentions_passes(rollout: Callable[..., Rollout]) -> None:
    r = rollout(SUMMARY)
    people = " and ".join(f"<@{u}|someone>" for u in r.facts["people"])
    r.call("slack_post_message", channel_id=r.facts["target"], text=summary_text(r, people))
    assert r.passes(), json.dumps(r.grade())
