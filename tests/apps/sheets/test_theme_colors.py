"""Theme colours: a ColorStyle's themeColor names a colour of the spreadsheet's theme (Google
Sheets' default), so {"themeColor": "ACCENT2"} is red. spreadsheets.get shows the theme, and
the browser grid draws theme fills and text colours as Google does (it drew none)."""

from __future__ import annotations

import httpx

from officegym.core.env_store import Env
from tests.apps.sheets.conftest import Run


def test_get_shows_the_spreadsheet_theme(run: Run, blank: str) -> None:
    theme = run(lambda s: s.spreadsheets_get(blank))["properties"]["spreadsheetTheme"]
    colours = {t["colorType"]: t["color"]["rgbColor"] for t in theme["themeColors"]}
    assert theme["primaryFontFamily"] == "Arial"
    assert colours["ACCENT2"] == {"red": 0xEA / 255, "green": 0x43 / 255, "blue": 0x35 / 255}
    assert colours["BACKGROUND"] == {"red": 1.0, "green": 1.0, "blue": 1.0}


def test_the_grid_draws_theme_fills_and_text_colours(agent_url: str, env: Env, run: Run, blank: str) -> None:
    run(lambda s: s.values_update(blank, "Sheet1!A1:B1", [["alert", "calm"]], "USER_ENTERED"))
    run(lambda s: s.spreadsheets_batch_update(blank, [
        {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 1},
                        "cell": {"userEnteredFormat": {"backgroundColorStyle": {"themeColor": "ACCENT2"}}},
                        "fields": "userEnteredFormat.backgroundColorStyle"}},
        {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 1, "endColumnIndex": 2},
                        "cell": {"userEnteredFormat": {"textFormat": {"foregroundColorStyle": {"themeColor": "ACCENT4"}}}},
                        "fields": "userEnteredFormat.textFormat.foregroundColorStyle"}}]))
    page = httpx.get(f"{agent_url}/envs/{env.id}/sheets/d/{blank}", params={"cell": "A1"}, timeout=10).text
    assert "background:#ea4335" in page.lower()
    assert "color:#34a853" in page.lower()
