"""Task instances pair facts that belong together, as a careful employee reading the prompt
would expect: a case closes with a fix written for its problem, a bug blocks a support ticket
about the same thing and sits under the epic of its area, a request is never resolved "Fixed",
a triage rule names the component the ticket is about, a quote line fits its deal, and a call's
topic fits the deal it is logged on. Checked over many variants of each family and seed."""

from __future__ import annotations

import re
from collections.abc import Iterator

from sqlalchemy import select

from apps.crm.models import TABLES
from apps.tickets.models import Issue
from officegym.gym import Gym
from seed_data._words import PRODUCTS
from seed_data.tickets.lines import COMPONENTS, EPIC_OF_COMPONENT, SUP_FIXES, internal_work, sup_template, topic_of

SEEDS = (0, 1, 2)
VARIANTS = range(24)


def prompts(gym: Gym, task: str, every: bool = False) -> Iterator[tuple[str, dict, dict[str, Issue]]]:
    """(prompt, facts, the env's issues by key) for many variants of `task` (all of them with `every`)."""
    for seed in SEEDS:
        count = gym.count_instances(task, seed) or 0
        assert count > 0, f"{task} has no instance on seed {seed}"
        for variant in range(count) if every else VARIANTS[: min(len(VARIANTS), count)]:
            env = gym.create(task, seed=seed, variant=variant)
            try:
                with gym.store.session(env) as db:
                    issues = {i.key: i for i in db.scalars(select(Issue))}
                    db.expunge_all()
                yield env.task.prompt, env.task.facts, issues
            finally:
                gym.delete(env.id)


def test_a_case_is_closed_with_a_fix_written_for_its_problem(gym: Gym) -> None:
    for prompt, _facts, _issues in prompts(gym, "crm/close-case-v1"):
        subject, fix = re.search(r'\("(.+?)"\) from .+ is resolved: (.+)\. Close the case', prompt).groups()
        assert fix in SUP_FIXES.get(sup_template(subject) or "", ()), prompt


def test_a_bug_blocks_a_ticket_about_the_same_thing_under_its_areas_epic(gym: Gym) -> None:
    for prompt, facts, issues in prompts(gym, "tickets/link-bug-to-epic-v1"):
        bug, ticket, epic = issues[facts["issue"]], issues[facts["blocks"]], issues[facts["epic"]]
        assert topic_of(bug.summary) is not None and topic_of(bug.summary) == topic_of(ticket.summary), prompt
        assert ticket.issue_type != "Task", prompt  # a bug comes from a problem report, not a request
        areas = [name for name, words in COMPONENTS["ENG"] if any(w in bug.summary.lower() for w in words)]
        assert epic.summary in {EPIC_OF_COMPONENT.get(a) for a in areas}, prompt


def test_a_request_is_never_resolved_as_fixed_and_a_problem_never_as_withdrawn(gym: Gym) -> None:
    for prompt, _facts, issues in prompts(gym, "tickets/resolve-with-resolution-v1"):
        key, resolution = re.search(r'resolve (SUP-\d+) \(.+\) with the resolution "(.+?)"', prompt).groups()
        fits = ("Won't Do", "Duplicate") if issues[key].issue_type == "Task" else ("Fixed", "Duplicate", "Cannot Reproduce")
        assert resolution in fits, prompt


def test_triage_rules_fit_the_ticket(gym: Gym) -> None:
    for prompt, facts, issues in prompts(gym, "tickets/triage-support-ticket-v1"):
        ticket = issues[facts["issue"]]
        text = ticket.summary.lower()
        assert facts["component"] == next(n for n, words in COMPONENTS["SUP"] if any(w in text for w in words)), prompt
        if ticket.issue_type == "Task":
            assert facts["priority"] == "Low" and facts["label"] != "escalated-to-eng", prompt
        if ticket.issue_type == "Incident":
            assert facts["priority"] in ("Highest", "High"), prompt
        assert facts["label"] != "billing-review" or facts["component"] == "Billing", prompt


def test_a_quote_line_fits_its_deal(gym: Gym) -> None:
    family = {short: kind for _sku, short, kind, _price in PRODUCTS}
    for prompt, _facts, _issues in prompts(gym, "crm/build-quote-v1"):
        deal, product = re.search(r'opportunity "(.+?)": add \d+ seats of (.+?) from', prompt).groups()
        deal_short = next(s for s in family if f"— {s} " in f"{deal} ")
        short = next(s for s in family if product.endswith(s))
        assert short != deal_short and family[short] != "Platform", prompt
        assert family[short] == "Services" or family[deal_short] == "Platform", prompt


def test_a_calls_topic_fits_its_deal(gym: Gym) -> None:
    for prompt, _facts, _issues in prompts(gym, "crm/log-call-v1"):
        topic, deal = re.search(r'\) about (.+?)\. Log it .+ on the opportunity "(.+?)"', prompt).groups()
        if topic == "pricing for the renewal":
            assert " Renewal " in deal, prompt
        if topic == "the pilot results":
            assert " Renewal " not in deal and " Expansion " not in deal, prompt
        if topic == "seat expansion":
            assert " Renewal " in deal or " Expansion " in deal, prompt
        title = re.search(r"a call with .+? \((.+?)\) about", prompt).group(1)
        assert (topic, title) not in {("pricing for the renewal", "Office Manager"), ("the security questionnaire", "Office Manager"),
                                      ("the security questionnaire", "Head of Analytics"), ("the rollout timeline", "CFO"),
                                      ("the pilot results", "Head of Procurement")}, prompt


MEETING_TEAMS = {"renewal call": {"Sales", "Customer Success"}, "quarterly business review": {"Sales", "Customer Success"},
                 "onboarding kickoff": {"Customer Success", "Support"}, "escalation review": {"Support", "Engineering", "Customer Success"},
                 "roadmap briefing": {"Product", "Engineering", "Sales"}}


def test_a_team_hears_only_of_meetings_it_takes_part_in(gym: Gym) -> None:
    for prompt, _facts, _issues in prompts(gym, "chat/post-in-channel-v1"):
        event, team = re.search(r"The .+ (" + "|".join(MEETING_TEAMS) + r") has moved .+ Let the (.+?) team know", prompt).groups()
        assert team in MEETING_TEAMS[event], prompt


def test_the_contact_is_asked_for_in_a_working_thread_not_a_celebration(gym: Gym) -> None:
    for prompt, _facts, _issues in prompts(gym, "chat/reply-in-thread-v1"):
        assert not re.search(r"thread in #(kudos|announcements|sales-wins) ", prompt), prompt


def test_subtasks_fit_the_work_they_split(gym: Gym) -> None:
    for prompt, facts, issues in prompts(gym, "tickets/split-story-into-subtasks-v1"):
        story = issues[facts["issue"]]
        if "Write the migration" in prompt:
            assert re.search(r"migrate|remove|deprecated", story.summary, re.IGNORECASE), prompt
        if "Add feature flag" in prompt or "Design the data model" in prompt:
            assert story.issue_type == "Story", prompt


def test_time_is_logged_on_work_the_issue_has(gym: Gym) -> None:
    for prompt, _facts, issues in prompts(gym, "tickets/log-work-v1"):
        key, what = re.search(r"work on (ENG-\d+) \(.+\) for (.+)\.$", prompt).groups()
        if what in ("pairing on the fix", "writing the regression test", "investigating the logs"):
            assert issues[key].issue_type == "Bug", prompt


def test_a_reopened_request_is_not_said_to_have_had_a_failed_fix(gym: Gym) -> None:
    for prompt, _facts, issues in prompts(gym, "tickets/reopen-with-comment-v1"):
        key = re.search(r"(SUP-\d+) \(", prompt).group(1)
        if issues[key].issue_type == "Task":
            assert "fix did not work" not in prompt and "still sees the problem" not in prompt, prompt


def test_only_problem_reports_are_escalated_as_bugs(gym: Gym) -> None:
    for prompt, facts, issues in prompts(gym, "tickets/escalate-to-engineering-v1"):
        assert issues[facts["issue"]].issue_type != "Task", prompt


def test_a_follow_up_goes_to_the_one_on_the_account_whose_job_it_is(gym: Gym) -> None:
    for seed in SEEDS:
        for variant in VARIANTS:
            env = gym.create("crm/assign-follow-up-v1", seed=seed, variant=variant)
            try:
                facts = env.task.facts
                with gym.store.session(env) as db:
                    account = db.execute(select(TABLES["Account"]).where(TABLES["Account"].c.Id == facts["account"])).mappings().one()
                job = account["OwnerId"] if facts["todo"] in ("send the renewal quote", "confirm the security review") \
                    else account["Customer_Success_Manager__c"]
                assert facts["owner"] == job, env.task.prompt
            finally:
                gym.delete(env.id)


def test_a_deal_advances_from_a_stage_it_could_and_to_a_step_its_customer_has(gym: Gym) -> None:
    for seed in SEEDS:
        for variant in VARIANTS:
            env = gym.create("crm/advance-opportunity-v1", seed=seed, variant=variant)
            try:
                facts, prompt = env.task.facts, env.task.prompt
                with gym.store.session(env) as db:
                    O, A = TABLES["Opportunity"], TABLES["Account"]
                    stage, tier = db.execute(select(O.c.StageName, A.c.Tier__c).join(A, A.c.Id == O.c.AccountId)
                                             .where(O.c.Id == facts["opportunity"])).one()
                early = ("Prospecting", "Qualification", "Needs Analysis")
                assert stage not in early, prompt  # nobody signs, or negotiates, a deal still being qualified
                if facts["target"] == "Closed Won":
                    assert stage != "Value Proposition", prompt
                assert "CISO" not in prompt or tier != "SMB", prompt
            finally:
                gym.delete(env.id)


def test_a_customer_asks_only_about_work_a_customer_could_have_raised(gym: Gym) -> None:
    for prompt, facts, issues in prompts(gym, "chat/find-and-answer-v1", every=True):
        summary = issues[facts["ticket"]].summary.lower()
        assert "flaky" not in summary and "integration tests" not in summary, (prompt, summary)


def test_a_summarised_thread_is_about_a_customers_ticket_not_internal_work(gym: Gym) -> None:
    for prompt, facts, issues in prompts(gym, "chat/summarise-thread-v1", every=True):
        assert not internal_work(issues[facts["ticket"]].summary), prompt


BAD_NEWS = re.compile(r"outage|incident|error|fail|broken|down\b|escalat|urgent|slipping|risk|crash|late\b", re.IGNORECASE)
GOOD_NEWS = re.compile(r"congrat|kudos|shout-?out|welcom|thank|closed|landed|\bwon\b|shipped|launched|\bsigned\b|:tada:", re.IGNORECASE)


def test_nobody_cheers_bad_news(gym: Gym) -> None:
    from apps.chat.models import Message

    for seed in SEEDS:
        for variant in range(60):
            env = gym.create("chat/react-to-message-v1", seed=seed, variant=variant)
            try:
                facts = env.task.facts
                if facts["emoji"] not in ("tada", "raised_hands"):
                    continue
                with gym.store.session(env) as db:
                    text = db.scalar(select(Message.text).where(Message.channel_id == facts["channel"], Message.ts == facts["ts"]))
                assert GOOD_NEWS.search(text) or not BAD_NEWS.search(text), (facts["emoji"], text)
            finally:
                gym.delete(env.id)
