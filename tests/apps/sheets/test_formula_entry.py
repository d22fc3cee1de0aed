"""A formula is kept as Google Sheets keeps what was typed, in its editor and through the
API's USER_ENTERED (which reads input as typed): function names, cell references and
TRUE/FALSE in capitals, text in quotes as typed, and closing parentheses left off at the end
added. RAW keeps the text as it came."""

from __future__ import annotations

import httpx

from officegym.core.env_store import Env
from tests.apps.sheets.conftest import Run


def formulas(run: Run, sid: str, rng: str) -> list[list[object]]:
    return run(lambda s: s.values_get(sid, rng, valueRenderOption="FORMULA"))["values"]


def test_user_entered_formulas_are_written_in_capitals_and_closed_and_raw_is_text(run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:A3", [[2], [3], [4]], "USER_ENTERED"))
    typed = ["=sum(a1:a3)", "=SUM(A1:A3", "=round(average(a1:a3", '=if(a1>1,"yes (big)","no")', "=and(true,a$1>0)",
             "=Sheet1!a2*2"]
    run(lambda s: s.values_update(blank, "Sheet1!B1", [[t] for t in typed], "USER_ENTERED"))
    assert formulas(run, blank, "Sheet1!B1:B6") == [["=SUM(A1:A3)"], ["=SUM(A1:A3)"], ["=ROUND(AVERAGE(A1:A3))"],
                                                   ['=IF(A1>1,"yes (big)","no")'], ["=AND(TRUE,A$1>0)"], ["=Sheet1!A2*2"]]
    values = run(lambda s: s.values_get(blank, "Sheet1!B1:B6", valueRenderOption="UNFORMATTED_VALUE"))["values"]
    assert values == [[9], [9], [3], ["yes (big)"], [True], [6]]

    # RAW keeps the text; a formula that still does not parse once closed is kept as typed
    run(lambda s: s.values_update(blank, "Sheet1!C1", [["=sum(a2:a3"]], "RAW"))
    run(lambda s: s.values_update(blank, "Sheet1!C2", [["=sum(a1+*"]], "USER_ENTERED"))
    assert formulas(run, blank, "Sheet1!C1:C2") == [["=sum(a2:a3"], ["=sum(a1+*"]]
    assert run(lambda s: s.values_get(blank, "Sheet1!C2"))["values"] == [["#ERROR!"]]


def test_typing_in_the_browser_closes_and_capitalises_the_formula(agent_url: str, env: Env, run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:A2", [[2], [5]], "USER_ENTERED"))
    base = f"{agent_url}/envs/{env.id}/sheets"
    posted = httpx.post(f"{base}/d/{blank}/cells", data={"sheet": "0", "cell": "B1", "content": "=sum(a1:a2"},
                        headers={"Origin": agent_url}, timeout=10)
    assert posted.status_code in (200, 303)
    assert formulas(run, blank, "Sheet1!B1") == [["=SUM(A1:A2)"]]
    assert run(lambda s: s.values_get(blank, "Sheet1!B1"))["values"] == [["7"]]
