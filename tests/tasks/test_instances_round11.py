"""The six thinnest families offer enough distinct instances to train on (at least 20 on every
company seed 0-4), and every new kind of instance is graded right: its oracle (and the family's
other correct solution) passes, a wrong answer or wrong action fails."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from rollouts import Rollout

from officegym.gym import Gym

FAMILIES = ["tickets/link-bug-to-epic-v1", "tickets/answer-with-jql-v1", "sheets/answer-from-sheet-v1", "sheets/sort-by-rule-v1",
            "crm/pipeline-question-v1", "crm/push-stale-deals-v1"]
Make = Callable[..., Rollout]


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_offers_at_least_20_instances_on_every_seed(gym: Gym, family: str) -> None:
    counts = [gym.count_instances(family, seed=seed) for seed in range(5)]
    assert min(counts) >= 20, counts


@pytest.mark.parametrize("family", FAMILIES)
def test_the_instances_counted_are_different_tasks(gym: Gym, family: str) -> None:
    """Variants below the count are as many different prompts (and setups): none is asked twice."""
    n = gym.count_instances(family, seed=2)
    seen = set()
    for variant in range(n):
        env = gym.create(family, seed=2, variant=variant)
        seen.add((env.task.prompt, json.dumps(env.task.facts, sort_keys=True, default=str)))
        gym.delete(env.id)
    assert len(seen) == n


def _right_and_wrong(rollout: Make, family: str, where: Callable[[dict], bool], seed: int = 0) -> None:
    """The oracle and every alternative pass; the family's wrong answer (or action) fails."""
    first = rollout(family, seed=seed, where=where)
    first.run(first.task.oracle)
    assert first.passes(), json.dumps(first.grade())
    for n, alternative in enumerate(first.task.alternatives):
        other = rollout(family, seed=seed, where=lambda f: f == first.facts)
        other.run(alternative)
        assert other.passes(), (n, json.dumps(other.grade()))
    wrong = rollout(family, seed=seed, where=lambda f: f == first.facts)
    wrong.run(wrong.task.moves.wrong)
    assert wrong.fails(), json.dumps(wrong.grade())


# -- sheets/answer-from-sheet: each kind of question ---------------------------------------------
@pytest.mark.parametrize(("kind", "seed"), [("won", 0), ("open", 0), ("stage", 0), ("weighted", 0), ("deal", 0), ("biggest", 0),
                                            ("average", 1), ("planned", 0), ("cost", 0)])
def test_answer_from_sheet_each_kind_of_question(rollout: Make, kind: str, seed: int) -> None:
    _right_and_wrong(rollout, "sheets/answer-from-sheet-v1", lambda f: f["kind"] == kind, seed)


def test_answer_from_sheet_another_subjects_figure_fails(rollout: Make) -> None:
    r = rollout("sheets/answer-from-sheet-v1", seed=0, where=lambda f: f["kind"] == "planned")
    r.run(r.task.moves.wrong_record)
    assert r.fails(), json.dumps(r.grade())


# -- tickets/answer-with-jql: each shape of question ---------------------------------------------
@pytest.mark.parametrize(("shape", "seed"), [("priority", 0), ("status", 0), ("type", 0), ("bugs", 0), ("component", 0),
                                             ("component-urgent", 0), ("unassigned", 0), ("label", 0)])
def test_answer_with_jql_each_shape_of_question(rollout: Make, shape: str, seed: int) -> None:
    _right_and_wrong(rollout, "tickets/answer-with-jql-v1", lambda f: f["shape"] == shape, seed)


def test_answer_with_jql_one_key_short_fails(rollout: Make) -> None:
    r = rollout("tickets/answer-with-jql-v1", seed=0, where=lambda f: f["shape"] == "component" and len(f["keys"]) >= 2)
    r.call("slack_post_message", channel_id=r.facts["dm"], text=", ".join(r.facts["keys"][:-1]))
    assert r.fails(), json.dumps(r.grade())


# -- crm/pipeline-question: each kind of question ------------------------------------------------
@pytest.mark.parametrize("kind", ["open", "won", "closing", "next", "won-year", "lost-year", "account", "stage"])
def test_pipeline_question_each_kind_of_question(rollout: Make, kind: str) -> None:
    _right_and_wrong(rollout, "crm/pipeline-question-v1", lambda f: f["kind"] == kind)


def test_pipeline_question_the_open_total_asked_for_a_stage_total_fails(rollout: Make) -> None:
    """Across the team in one stage is not the whole open pipeline."""
    r = rollout("crm/pipeline-question-v1", where=lambda f: f["kind"] == "stage")
    (everything,) = r.call("salesforce_run_soql", query="SELECT SUM(Amount) total FROM Opportunity WHERE IsClosed = false")["records"]
    r.call("slack_post_message", channel_id=r.facts["asker"], text=f"${everything['total']:,.0f}")
    assert r.fails(), json.dumps(r.grade())


# -- sheets/sort-by-rule: two keys, a formula column as the key ----------------------------------
def test_sort_by_two_keys_passes_and_by_the_first_alone_fails(rollout: Make) -> None:
    def two_keys(f: dict) -> bool:
        return f["tab"] == "Pipeline" and f["by"] == "Stage" and bool(f["then"])

    _right_and_wrong(rollout, "sheets/sort-by-rule-v1", two_keys)
    r = rollout("sheets/sort-by-rule-v1", where=two_keys)
    r.call("batch_update", spreadsheet_id=r.facts["spreadsheet"], requests=[{"sortRange": {
        "range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 61, "startColumnIndex": 0, "endColumnIndex": 9},
        "sortSpecs": [{"dimensionIndex": 4, "sortOrder": "ASCENDING"}]}}])
    grade = r.grade()
    assert r.fails() and "out of order" in grade["checks"][0]["detail"], json.dumps(grade)


@pytest.mark.parametrize("by", ["Weighted", "Probability", "Customer"])
def test_sort_by_a_formula_column_or_a_column_with_blanks(rollout: Make, by: str) -> None:
    _right_and_wrong(rollout, "sheets/sort-by-rule-v1", lambda f: f["by"] == by)


def test_sort_the_customer_health_accounts(rollout: Make) -> None:
    """The acting CSM's own sheet, one tab: its Health column must still be worked out from each row."""
    _right_and_wrong(rollout, "sheets/sort-by-rule-v1", lambda f: f["tab"] == "Accounts")


def test_sort_the_customer_health_accounts_with_health_pasted_as_values_fails(rollout: Make) -> None:
    r = rollout("sheets/sort-by-rule-v1", where=lambda f: f["tab"] == "Accounts")
    r.run(r.task.moves.everything)  # the sorted values pasted over the table, Health included
    grade = r.grade()
    assert r.fails() and "Health" in json.dumps(grade), json.dumps(grade)


def test_a_rule_the_table_already_follows_is_never_asked(gym: Gym) -> None:
    """The Tickets come in the order they were created: "by Created, earliest first" asks nothing."""
    for variant in range(gym.count_instances("sheets/sort-by-rule-v1", seed=0)):
        env = gym.create("sheets/sort-by-rule-v1", seed=0, variant=variant)
        facts = env.task.facts
        gym.delete(env.id)
        assert not (facts["by"] == "Created" and not facts["descending"]), facts


# -- crm/push-stale-deals: one rep's book ----------------------------------------------------------
def test_push_stale_deals_of_one_rep(rollout: Make) -> None:
    _right_and_wrong(rollout, "crm/push-stale-deals-v1", lambda f: f["owner"] is not None)


def test_push_stale_deals_of_one_rep_pushing_everyones_fails(rollout: Make) -> None:
    """The rule applied to the whole team's deals, when one rep's book was asked: other reps' deals moved."""
    def wider(f: dict) -> bool:
        return f["owner"] is not None and f["deals"] < count_all(f)

    def count_all(f: dict) -> int:
        return len(everyones(f))

    probe = rollout("crm/push-stale-deals-v1", where=lambda f: f["owner"] is not None)

    def everyones(f: dict) -> list[dict]:
        stages = ", ".join(f"'{s}'" for s in f["stages"])
        return probe.call("salesforce_run_soql", query=f"SELECT Id FROM Opportunity WHERE IsClosed = false AND StageName IN ({stages}) "
                                                        f"AND CloseDate >= TODAY AND CloseDate <= NEXT_N_DAYS:{f['days']}")["records"]

    r = rollout("crm/push-stale-deals-v1", where=wider)
    deals = everyones(r.facts)
    r.call("salesforce_dml_records", operation="update", objectName="Opportunity",
           records=[{"Id": d["Id"], "CloseDate": r.facts["target"]} for d in deals])
    assert r.fails(), json.dumps(r.grade())


# -- tickets/link-bug-to-epic: a bug just filed from the ticket -------------------------------------
@pytest.mark.parametrize("state", ["fresh", "misfiled"])
def test_link_a_bug_just_filed(rollout: Make, state: str) -> None:
    _right_and_wrong(rollout, "tickets/link-bug-to-epic-v1", lambda f: f["filed"] == state, seed=2)


def test_a_misfiled_bug_only_linked_fails(rollout: Make) -> None:
    """The link made, but the bug left under the wrong epic it was filed under."""
    r = rollout("tickets/link-bug-to-epic-v1", seed=2, where=lambda f: f["filed"] == "misfiled")
    r.call("jira_create_issue_link", link_type="Blocks", inward_issue_key=r.facts["issue"], outward_issue_key=r.facts["blocks"])
    grade = r.grade()
    assert r.fails() and not grade["checks"][0]["passed"], json.dumps(grade)


def test_a_filed_bug_is_about_its_ticket_and_under_its_areas_epic(gym: Gym) -> None:
    from seed_data.tickets.lines import topic_of

    for variant in range(gym.count_instances("tickets/link-bug-to-epic-v1", seed=2)):
        env = gym.create("tickets/link-bug-to-epic-v1", seed=2, variant=variant)
        try:
            if env.task.facts["filed"] is None:
                continue
            got = {k: env_issue(gym, env.id, k) for k in (env.task.facts["issue"], env.task.facts["blocks"])}
            bug, ticket = got[env.task.facts["issue"]], got[env.task.facts["blocks"]]
            assert bug["type"] == "Bug" and bug["summary"].endswith(ticket["summary"]), env.task.prompt
            assert topic_of(bug["summary"]) == topic_of(ticket["summary"]) is not None, env.task.prompt
        finally:
            gym.delete(env.id)


def env_issue(gym: Gym, env_id: str, key: str) -> dict:
    from sqlalchemy import select

    from apps.tickets.models import Issue

    with gym.store.session(gym.get(env_id)) as db:
        issue = db.scalars(select(Issue).where(Issue.key == key)).one()
        return {"type": issue.issue_type, "summary": issue.summary}
