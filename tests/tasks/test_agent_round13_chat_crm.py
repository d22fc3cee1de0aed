"""Round 13: the chat, CRM and cross-app tasks solved from the prompt alone, as an agent would,
each finding a reasonable solution the grader refused (or an unreasonable one it took)."""

from __future__ import annotations

from collections.abc import Callable

from rollouts import Rollout, facts_of

from officegym.gym import Gym
from tasks.crm._common import rows

Make = Callable[..., Rollout]
PIPELINE_REPORT = "cross/pipeline-report-v1"


# -- cross/pipeline-report: a report by owner where two owners share a name -------------------
def test_a_report_by_owner_is_never_asked_where_two_owners_share_a_name(sampler: Gym) -> None:
    """The large seed-1 company has two reps named Matthew Rogers, both with deals won this year.
    "One row per opportunity owner" is then two rows (one per person, as GROUP BY OwnerId gives)
    or one (as GROUP BY Owner.Name gives): the grader can take only one, so no such report is
    asked for. Every owner-grouped instance names each of its owners once."""
    instances = sampler.count_instances(PIPELINE_REPORT, seed=1, size="large")
    assert instances
    for variant in range(instances):
        env = sampler.create(PIPELINE_REPORT, seed=1, size="large", variant=variant)
        try:
            facts = env.task.facts
            if facts["grouping"] != "Owner.Name":
                continue
            with sampler.store.session(env) as db:
                users = {u["Id"]: u["Name"] for u in rows(db, "User")}
                deals = rows(db, "Opportunity")
            year = str(sampler.template(1, "large").company.now.year)
            counted = [d for d in deals if (not d["IsClosed"] if facts["kind"] == "open" else d["IsWon"] and str(d["CloseDate"]).startswith(year))]
            owners: dict[str, set[str]] = {}
            for d in counted:
                owners.setdefault(users[d["OwnerId"]], set()).add(d["OwnerId"])
            shared = {name: ids for name, ids in owners.items() if len(ids) > 1}
            assert not shared, (variant, facts["kind"], shared)
        finally:
            sampler.delete(env.id)
    # Where names are unique (the small company), the report by owner is still asked.
    small = {facts_of(sampler, PIPELINE_REPORT, 0, v)["grouping"] for v in range(sampler.count_instances(PIPELINE_REPORT, seed=0) or 0)}
    assert "Owner.Name" in small


# -- crm/close-case: the Case Reason picked while closing -------------------------------------
def test_a_case_closed_with_a_case_reason_picked_passes(rollout: Make) -> None:
    """Salesforce's close-case page asks for the Case Reason beside Status; support staff pick one
    as they close. Closing the case with the resolution and a reason scored 0.4 (collateral)."""
    r = rollout("crm/close-case-v1", seed=3)
    f = r.facts
    r.call("salesforce_dml_records", operation="update", objectName="Case",
           records=[{"Id": f["case"], "Status": "Closed", "Reason": "Other", "Resolution__c": f["resolution"]}])
    assert r.passes(), r.grade()



# -- crm/advance-opportunity: a won deal's stale next step cleared ----------------------------
def test_a_deal_closed_won_with_its_old_next_step_cleared_passes(rollout: Make) -> None:
    """A deal signed and marked Closed Won still shows its old next step ("Security review
    call"); a careful rep clears it as they close it. That scored 0.4 (collateral)."""
    r = rollout("crm/advance-opportunity-v1", seed=0, where=lambda f: f["target"] == "Closed Won")
    f = r.facts
    for step in ("", None):
        r.call("salesforce_dml_records", operation="update", objectName="Opportunity",
               records=[{"Id": f["opportunity"], **f["fields"], "NextStep": step}])
        assert r.passes(), (step, r.grade())


def test_a_deal_closed_won_with_a_next_step_saying_it_was_lost_fails(rollout: Make) -> None:
    r = rollout("crm/advance-opportunity-v1", seed=0, where=lambda f: f["target"] == "Closed Won")
    f = r.facts
    r.call("salesforce_dml_records", operation="update", objectName="Opportunity",
           records=[{"Id": f["opportunity"], **f["fields"], "NextStep": "Lost to a competitor"}])
    assert r.fails()


# -- crm/push-stale-deals: the window's last day stated ---------------------------------------
def test_the_stale_deals_window_names_its_last_day(sampler: Gym) -> None:
    """"Between today and 30 days from now (inclusive)" reads as ending on today + 30 or, counting
    today as the first of the 30 days, on today + 29; a deal closing on that last day is pushed
    under one reading and left under the other. The prompt names the last day."""
    from datetime import date, timedelta
    for seed, variant in ((0, 0), (1, 3), (2, 5)):
        f = facts_of(sampler, "crm/push-stale-deals-v1", seed, variant)
        env = sampler.create("crm/push-stale-deals-v1", seed=seed, variant=variant)
        try:
            today = sampler.template(seed).company.now.date()
            assert isinstance(today, date)
            assert (today + timedelta(days=f["days"])).isoformat() in env.task.prompt, env.task.prompt
        finally:
            sampler.delete(env.id)
