"""sheets/filter-by-rule-v1 graded on the resulting rows: a FILTER() formula and copied values
both pass, the right rows out of order fail, deleting one row the rule keeps fails; the rules
the family offers never put a row on a threshold or a date."""

from __future__ import annotations

from datetime import date

from apps.sheets.formulas.values import to_serial
from officegym.gym import Gym
from tasks.sheets._rules import norm, rules_for
from tests.apps.sheets.task_helpers import act, create_where, solve

TASK = "sheets/filter-by-rule-v1"


def test_a_filter_formula_passes_and_the_same_rows_reordered_fail(gym: Gym) -> None:
    env = create_where(gym, TASK, lambda f: f["mode"] == "copy")
    try:
        f = env.task.facts
        solve(gym, env.id, env.task.alternatives[0])  # =FILTER(...) under a typed header
        formulas, = act(gym, env.id, ("get_sheet_formulas", {"spreadsheet_id": f["spreadsheet"], "sheet": f["title"], "range": "A2"}))
        assert formulas[0][0].startswith("=FILTER(")
        grade = gym.grade(env.id)
        assert grade["passed"] is True, grade
        shown, = act(gym, env.id, ("get_sheet_data", {"spreadsheet_id": f["spreadsheet"], "sheet": f["title"]}))
        rows = shown["valueRanges"][0]["values"]
        assert len(rows) == f["rows"] + 1
        last = chr(ord("A") + len(rows[0]) - 1)
        act(gym, env.id, ("update_cells", {"spreadsheet_id": f["spreadsheet"], "sheet": f["title"], "range": f"A2:{last}{len(rows)}",
                                           "data": list(reversed(rows[1:]))}))  # values now, bottom row first
        grade = gym.grade(env.id)
        assert grade["passed"] is False and "not in their original order" in grade["checks"][0]["detail"], grade
    finally:
        gym.delete(env.id)


def test_deleting_a_row_the_rule_keeps_fails(gym: Gym) -> None:
    env = create_where(gym, TASK, lambda f: f["mode"] == "delete")
    try:
        f = env.task.facts
        solve(gym, env.id, env.task.oracle)
        assert gym.grade(env.id)["passed"] is True
        sheet_id = next(s["properties"]["sheetId"] for s in act(gym, env.id, ("get_spreadsheet", {"spreadsheet_id": f["spreadsheet"]}))[0]["sheets"]
                        if s["properties"]["title"] == f["tab"])
        act(gym, env.id, ("batch_update", {"spreadsheet_id": f["spreadsheet"], "requests": [{"deleteDimension": {"range": {
            "sheetId": sheet_id, "dimension": "ROWS", "startIndex": 1, "endIndex": 2}}}]}))
        grade = gym.grade(env.id)
        assert grade["passed"] is False and "missing" in grade["checks"][0]["detail"], grade
    finally:
        gym.delete(env.id)


def test_thresholds_and_dates_sit_on_no_row_and_every_rule_keeps_some_rows_and_drops_some() -> None:
    stages = ("Prospecting", "Closed Won", "Negotiation/Review", "Closed Lost", "Qualification")
    rows = [[f"o{n:04d}", f"Acct {n % 7}", f"Deal {n}", ("Ann Lee", "Bo Diaz", "Cy Park")[n % 3], stages[n % 5],
             float(10_000 * (n % 9 + 1)), to_serial(date(2026, 1, 1)) + 3 * n] for n in range(60)]
    rules = rules_for("Sales Forecast", "Pipeline", 7, rows)
    ops = {t.op for rule in rules for t in rule.tests}
    assert {"gt", "lt", "eq", "not_prefix"} <= ops, ops
    for rule in rules:
        kept = [r for r in rows if rule.holds(r)]
        assert 3 <= len(kept) <= len(rows) * 2 // 3, rule.words
        for test in rule.tests:
            if test.op in ("gt", "lt"):
                assert all(norm(r[test.col]) != test.value for r in rows), test  # no row sits on the line
    assert norm("$12,000") == norm(12000) and norm("2026-03-04") == norm(to_serial(date(2026, 3, 4))) and norm(" Ann ") == "ann"


def test_a_rule_names_its_owner_as_the_table_spells_it(gym: Gym) -> None:
    env = create_where(gym, TASK, lambda f: f["rule"].startswith("Owner is"))
    try:
        f = env.task.facts
        owner = f["rule"].removeprefix("Owner is ").split(" and ")[0]
        shown, = act(gym, env.id, ("get_sheet_data", {"spreadsheet_id": f["spreadsheet"], "sheet": f["tab"]}))
        owners = {line[3] for line in shown["valueRanges"][0]["values"][1:] if len(line) > 3}
        assert owner in owners, (owner, sorted(owners)[:5])  # "Daniel Phillips", never "daniel phillips"
        assert f"where Owner is {owner} and" in env.task.prompt
    finally:
        gym.delete(env.id)
