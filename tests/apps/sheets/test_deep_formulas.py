"""A formula nested deeper than the engine reads (a chain of thousands of additions) shows
#ERROR! "The formula is nested too deeply" in its cell, and the spreadsheet stays readable;
a long sum of a few hundred terms still works. Through Google's own client.

Before, =1+1+…+1 with 5,000 terms was written (200) and then every read of the spreadsheet
answered 500 (a recursion through the tree overflowed Python's stack), and =A1-A1-…-A1 with
3,000 terms failed its own write with a 500."""

from __future__ import annotations

from typing import Any

from officegym.core.env_store import Env
from tests.apps.sheets.test_basic_filter import sheets


def test_a_formula_too_deep_shows_an_error_and_the_spreadsheet_stays_readable(agent_url: str, env: Env) -> None:
    api = sheets(agent_url, env)
    sid = api.create(body={"properties": {"title": "Deep"}}).execute()["spreadsheetId"]
    rows: list[list[Any]] = [[1], ["=" + "+".join(["1"] * 5_000)], ["=" + "-".join(["A1"] * 3_000)], ["=" + "+".join(["A1"] * 300)]]
    api.values().update(spreadsheetId=sid, range="Sheet1!A1:A4", valueInputOption="USER_ENTERED", body={"values": rows}).execute()

    shown = api.values().get(spreadsheetId=sid, range="Sheet1!A1:A4").execute()["values"]
    assert shown == [["1"], ["#ERROR!"], ["#ERROR!"], ["300"]]
    grid = api.get(spreadsheetId=sid, ranges=["Sheet1!A2"], includeGridData=True).execute()
    error = grid["sheets"][0]["data"][0]["rowData"][0]["values"][0]["effectiveValue"]["errorValue"]
    assert "nested too deeply" in error["message"]
    formulas = api.values().get(spreadsheetId=sid, range="Sheet1!A2", valueRenderOption="FORMULA").execute()["values"]
    assert formulas[0][0] == rows[1][0], "the formula is kept as typed, for the person to fix"
