"""Every sheets task family done in the browser, variants 0 and 1, as a careful person does it
with Google Sheets' UI: the formula bar, fill down, copy and paste, tabs, Data ▸ Sort range,
row deletes; reading a figure from the status bar's "Sum:"; a Drive link opened from
"Open a file" and converted with "Open with Google Sheets"; the CRM and the chat read and
answered in their own pages. Each grades 1.0 with no collateral, and its writes are in the
trajectory with face "ui"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui import api_values

SELECTED = re.compile(r"\bin-sel\b")


def graded(live_server: Any, env_id: str) -> dict[str, Any]:
    """The env grades 1.0 with no collateral, and every write in its trajectory came from the UI."""
    grade = live_server.gym.grade(env_id)
    failing = [(c["name"], c["detail"]) for c in grade["checks"] if not c["passed"]]  # (in full: pytest shortens a long repr)
    assert grade["reward"] == 1.0 and grade["passed"] and grade["collateral"] == [], (grade["reward"], failing, grade["collateral"])
    only_ui_writes(live_server, env_id)
    return grade


def ui_writes(live_server: Any, env_id: str) -> list[str]:
    return [e["operation"] for e in live_server.gym.events(env_id) if e["face"] == "ui" and not e["is_error"]]


def only_ui_writes(live_server: Any, env_id: str) -> None:
    writes = [e for e in live_server.gym.events(env_id) if not e["is_error"]]
    assert writes and all(e["face"] == "ui" for e in writes), [(e["face"], e["operation"]) for e in writes]


def settled(page: Page) -> None:
    """The last action is in: the page swaps in the view it asked for (saying aria-busy while
    the request is out), so what a test reads next is the new view, not the one before it.
    Checked every frame: the swap takes tens of milliseconds, less than an assertion's back-off."""
    page.wait_for_function("() => !document.querySelector('#sheet-view[aria-busy=true]')", polling="raf")


def cell(page: Page, name: str) -> Any:
    return page.get_by_role("grid").get_by_role("gridcell", name=name, exact=True)


def open_sheet(page: Page, live_server: Any, env_id: str, title: str, tab: str | None = None) -> None:
    page.goto(f"{live_server.env_url(env_id, 'sheets')}/")
    page.get_by_role("link", name=title, exact=True).click()
    expect(page.get_by_role("heading", name=title)).to_be_visible()
    page.wait_for_load_state()
    if tab:
        page.get_by_role("navigation", name="Sheets").get_by_role("link", name=tab, exact=True).click()
        expect(page.get_by_role("grid", name=tab)).to_be_visible()
        settled(page)


def blank_spreadsheet(page: Page, live_server: Any, env_id: str, title: str) -> None:
    """A new blank spreadsheet from the Sheets home, renamed `title`. The sheet page is loaded
    whole (its script in) before the title is typed: Enter in the title box before then posts
    the form natively, and whatever the test typed next went to the page being left."""
    page.goto(f"{live_server.env_url(env_id, 'sheets')}/")
    page.get_by_role("button", name="Blank spreadsheet").click()
    page.wait_for_load_state()
    name = page.get_by_label("Rename spreadsheet")
    name.fill(title)
    name.press("Enter")
    settled(page)
    expect(page.get_by_role("heading").get_by_label("Rename spreadsheet")).to_have_value(title)
    expect(page).to_have_title(re.compile(re.escape(title)))


def go(page: Page, where: str) -> None:
    """Type a cell or range into the name box and press Enter (the page goes there)."""
    page.get_by_label("Name box").fill(where)
    page.get_by_label("Name box").press("Enter")
    settled(page)
    expect(page.get_by_label("Name box")).to_have_value(where)


def enter(page: Page, where: str, content: str) -> None:
    """Select a cell and type into it, as in the formula bar, then Enter."""
    go(page, where)
    page.get_by_label("Formula bar").fill(content)
    page.get_by_label("Formula bar").press("Enter")
    settled(page)
    expect(page.get_by_role("alert")).to_have_count(0)


def fill_down(page: Page, area: str) -> None:
    go(page, area)
    page.get_by_role("grid").locator("td[aria-selected=true]").press("Control+d")
    settled(page)
    expect(page.get_by_role("alert")).to_have_count(0)


def new_tab(page: Page, title: str) -> None:
    """The "+" by the tabs, then the new tab's menu ▸ Rename."""
    page.get_by_role("button", name="Add sheet").click()
    settled(page)
    made = page.get_by_role("navigation", name="Sheets").locator("a[aria-current=page]").inner_text()
    page.get_by_label(f"{made} options").click()
    page.get_by_label(f"New name for {made}").fill(title)
    page.get_by_role("group", name=f"{made} tab menu").get_by_role("button", name="Rename").click()
    expect(page.get_by_role("grid", name=title)).to_be_visible()


def shown_in_column(page: Page, letter: str) -> dict[str, str]:
    """The shown text of each of a column's cells in the grid's window, by name ("E7" → "$1,200"),
    read in one go (a lookup per cell costs a round trip and a scan of the grid)."""
    found = page.get_by_role("grid").locator("td[aria-label]").evaluate_all(
        "(tds, letter) => tds.map(td => [td.getAttribute('aria-label'), td.innerText])"
        ".filter(([name]) => name.startsWith(letter) && /^\\d+$/.test(name.slice(letter.length)))", letter)
    return dict(found)


def column_texts(page: Page, letter: str, first: int, last: int, go_to: Any = None) -> list[str]:
    """A column's shown text, rows `first` to `last`, scrolling down a window (with `go_to`, by
    default the name box) when they run past it."""
    out: list[str] = []
    shown = shown_in_column(page, letter)
    for r in range(first, last + 1):
        if f"{letter}{r}" not in shown:
            (go_to or go)(page, f"{letter}{r}")
            shown = shown_in_column(page, letter)
            assert f"{letter}{r}" in shown, f"{letter}{r} is not in the grid after going to it"
        out.append(shown[f"{letter}{r}"])
    return out


def last_filled(page: Page, letter: str) -> int:
    """The last row of the visible window with something in column `letter`."""
    rows = page.get_by_role("grid").locator(f"td[aria-label^='{letter}']").evaluate_all(
        "(tds, letter) => tds.map(td => [td.getAttribute('aria-label'), td.textContent.trim()])"
        ".filter(([name, text]) => text && new RegExp('^' + letter + '\\\\d+$').test(name)).map(([name]) => +name.slice(letter.length))", letter)
    return max(rows)


def dm_reply(page: Page, live_server: Any, env_id: str, dm: str, text: str) -> None:
    page.goto(f"{live_server.env_url(env_id, 'chat')}/c/{dm}")
    box = page.get_by_role("textbox", name=re.compile(r"^Message "))
    box.fill(text)
    box.press("Enter")
    expect(page.get_by_text(text)).to_be_visible()


def dm_question(page: Page, live_server: Any, env_id: str, dm: str) -> str:
    page.goto(f"{live_server.env_url(env_id, 'chat')}/c/{dm}")
    return page.get_by_role("main").inner_text()


@pytest.fixture
def task(live_server: Any, request: pytest.FixtureRequest) -> Any:
    family, variant, *where = request.param
    env = first_fitting(live_server.gym, family, variant, 0, where[0] if where else None)
    yield env
    live_server.gym.delete(env.id)


def first_fitting(gym: Any, family: str, variant: int, seed: int, where: Any) -> Any:
    """The env of `variant`, or of the first variant after it whose instance fits `where` (its facts)."""
    for v in range(variant, variant + 200):
        env = gym.create(family, variant=v, seed=seed)
        if where is None or where(env.task.facts):
            return env
        gym.delete(env.id)
    raise LookupError(f"no variant of {family} fits")


def closed_won(facts: dict) -> bool:  # a question about a rep's closed-won total
    return facts["kind"] == "won"


def one_key(facts: dict) -> bool:  # a sort of the Pipeline or the Tickets by one column
    return not facts["then"] and facts["tab"] in ("Pipeline", "Tickets")


def cases(family: str, where: Any = None) -> Any:
    return pytest.mark.parametrize("task", [(family, 0, where), (family, 1, where)], indirect=True, ids=["v0", "v1"])


@cases("sheets/fill-formula-column-v1")
def test_fill_formula_column(live_server: Any, page: Page, task: Any) -> None:
    facts = task.task.facts
    formula = {"Commission": '=IF(E2="Closed Won",F2*0.08,0)', "Close quarter": '="Q"&ROUNDUP(MONTH(G2)/3,0)'}[facts["computation"]]
    letter = facts["column"]
    open_sheet(page, live_server, task.id, "Sales Forecast FY2026")
    enter(page, f"{letter}1", facts["computation"])
    enter(page, f"{letter}2", formula)
    fill_down(page, f"{letter}2:{letter}61")
    expect(cell(page, f"{letter}60")).not_to_have_text("")
    assert api_values(live_server, task.id, facts["spreadsheet"], f"Pipeline!{letter}61", render="FORMULA")[0][0].startswith("=")
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.values.update", "sheets.values.update", "sheets.spreadsheets.batchUpdate"]


def test_fill_a_column_with_one_arrayformula(live_server: Any, page: Page) -> None:
    """The other way to fill a column: one =ARRAYFORMULA typed in the formula bar, spilling down."""
    env = live_server.gym.create("sheets/fill-formula-column-v1", variant=0)
    try:
        open_sheet(page, live_server, env.id, "Sales Forecast FY2026")
        enter(page, "J1", env.task.facts["computation"])
        enter(page, "J2", '=ARRAYFORMULA(IF(E2:E61="Closed Won",F2:F61*0.08,0))')
        expect(cell(page, "J60")).not_to_have_text("")
        graded(live_server, env.id)
        assert ui_writes(live_server, env.id) == ["sheets.values.update", "sheets.values.update"]
    finally:
        live_server.gym.delete(env.id)


@cases("sheets/fix-broken-formula-v1")
def test_fix_broken_formula_by_copying_its_neighbour(live_server: Any, page: Page, task: Any) -> None:
    """The Summary's stage rows share one formula: copy the row above's and paste it on the broken cell."""
    facts = task.task.facts
    open_sheet(page, live_server, task.id, "Sales Forecast FY2026", "Summary")
    row = int(facts["cell"][1:])
    cell(page, f"C{row - 1}").click()
    page.keyboard.press("Control+c")
    cell(page, facts["cell"]).click()
    expect(page.get_by_label("Formula bar")).to_have_value(facts["broken"])
    page.keyboard.press("Control+v")
    cell(page, facts["cell"]).click()
    expect(page.get_by_label("Formula bar")).to_have_value(facts["seeded"])
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.spreadsheets.batchUpdate"]


@cases("sheets/summary-tab-v1")
def test_summary_tab_of_live_counts(live_server: Any, page: Page, task: Any) -> None:
    facts = task.task.facts
    column = {"Status": "E", "Type": "C", "Priority": "D", "Customer": "F", "Assignee": "G"}[facts["field"]]
    open_sheet(page, live_server, task.id, "Support Metrics")
    last = 81
    go(page, f"A{last}")  # the Tickets tab runs past the first window: its last row
    expect(cell(page, f"A{last}")).not_to_have_text("")
    expect(cell(page, f"A{last + 1}")).to_have_text("")
    new_tab(page, facts["tab"])
    enter(page, "A1", facts["field"])
    enter(page, "B1", "Tickets")
    enter(page, "A2", f'=SORT(UNIQUE(FILTER(Tickets!{column}2:{column}{last},Tickets!{column}2:{column}{last}<>"")))')
    groups = last_filled(page, "A")
    enter(page, "B2", f"=COUNTIF(Tickets!${column}$2:${column}${last},A2)")
    fill_down(page, f"B2:B{groups}")
    expect(cell(page, f"B{groups}")).not_to_have_text("")
    graded(live_server, task.id)


@cases("sheets/reconcile-tabs-v1")
def test_reconcile_invoices_against_the_pipeline(live_server: Any, page: Page, task: Any) -> None:
    prompt = task.task.prompt
    differs, matches = re.search(r'shows "([^"]+)" when the billed amount differs.*?and "([^"]+)" when they match', prompt).groups()
    open_sheet(page, live_server, task.id, "Sales Forecast FY2026", "Invoices")
    last = last_filled(page, "A")
    enter(page, "C1", "Status")
    enter(page, "C2", f'=IF(B2<>VLOOKUP(A2,Pipeline!$A$2:$F$61,6,FALSE),"{differs}","{matches}")')
    fill_down(page, f"C2:C{last}")
    names, status = shown_in_column(page, "A"), shown_in_column(page, "C")
    flagged = [names[f"A{r}"] for r in range(2, last + 1) if status[f"C{r}"] == differs]
    assert sorted(flagged) == sorted(task.task.facts["mis-billed"])
    graded(live_server, task.id)


@cases("sheets/update-from-crm-v1")
def test_update_a_deal_row_from_the_crm(live_server: Any, page: Page, task: Any) -> None:
    facts = task.task.facts
    name = re.search(r'deal \w+ \("([^"]+)"\)', task.task.prompt).group(1)
    page.goto(f"{live_server.env_url(task.id, 'crm')}/")
    page.get_by_label("Search Salesforce").fill(name.split(" — ")[-1])  # (the search refuses the name's lone dash as a word)
    page.get_by_label("Search Salesforce").press("Enter")
    page.get_by_role("link", name=name, exact=True).first.click()
    label = {"Amount": "Amount", "Stage": "Stage", "Close Date": "Close Date"}[facts["field"]]
    value = page.locator("dl.details div", has=page.locator("dt", has_text=re.compile(f"^{label}$"))).locator("dd").inner_text().strip()
    assert value
    open_sheet(page, live_server, task.id, "Sales Forecast FY2026")
    page.keyboard.press("Control+f")  # Find in sheet: the deal's row
    expect(page.get_by_role("textbox", name="Find in sheet")).to_be_focused()
    page.keyboard.type(facts["deal"])
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"[?&]find="))
    row = page.get_by_label("Name box").input_value()[1:]
    assert cell(page, f"A{row}").inner_text() == facts["deal"]
    letter = {"Amount": "F", "Stage": "E", "Close Date": "G"}[facts["field"]]
    enter(page, f"{letter}{row}", value)
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.values.update"]


@cases("sheets/answer-from-sheet-v1", closed_won)
def test_answer_from_the_summary_tab_in_the_dm(live_server: Any, page: Page, task: Any) -> None:
    facts = task.task.facts
    asked = dm_question(page, live_server, task.id, facts["dm"])
    rep = re.findall(r"how much has (.+?) closed-won", asked)[-1]
    open_sheet(page, live_server, task.id, "Sales Forecast FY2026", "Summary")
    row = page.get_by_role("grid").locator("td[aria-label^='A']", has_text=re.compile(f"^{re.escape(rep)}$")).get_attribute("aria-label")[1:]  # (column A: the window is A to O)
    header = page.get_by_role("grid").locator("td", has_text=re.compile("^Won$")).get_attribute("aria-label")[0]
    won = cell(page, f"{header}{row}").inner_text()
    dm_reply(page, live_server, task.id, facts["dm"], f"{rep} has closed-won {won} so far.")
    graded(live_server, task.id)


@cases("sheets/sort-by-rule-v1", one_key)
def test_sort_a_table_with_its_header_row(live_server: Any, page: Page, task: Any) -> None:
    facts = task.task.facts
    title = "Support Metrics" if facts["tab"] == "Tickets" else "Sales Forecast FY2026"
    open_sheet(page, live_server, task.id, title, facts["tab"])
    headers = [cell(page, f"{chr(65 + c)}1").inner_text() for c in range(9)]
    by = chr(65 + headers.index(facts["by"]))
    last = last_filled(page, "A")
    if last == 60:  # the table goes on below the window: the next rows
        page.get_by_role("link", name=re.compile(r"▼ Rows 61–")).click()
        settled(page)
        last = last_filled(page, "A")
    page.locator("nav.menubar summary", has_text="Data").click()
    page.get_by_label("Range to sort").fill(f"A1:I{last}")
    page.get_by_label("Data has header row").check()
    page.get_by_label("Sort by").select_option(by)
    if facts["descending"]:
        page.get_by_role("radio", name="Z → A").first.check()
    page.get_by_role("form", name="Sort range").get_by_role("button", name="Sort").click()
    settled(page)
    expect(page.get_by_role("alert")).to_have_count(0)
    graded(live_server, task.id)


@cases("sheets/pivot-summary-v1")
def test_pivot_style_tab_from_formulas(live_server: Any, page: Page, task: Any) -> None:
    facts = task.task.facts
    columns = {"Deal ID": "A", "Account": "B", "Owner": "D", "Stage": "E", "Amount": "F"}
    rows, value, last = columns[facts["rows"]], columns[facts["value"]], facts["last_row"]
    data = facts["data"]
    open_sheet(page, live_server, task.id, "Sales Forecast FY2026")
    new_tab(page, facts["tab"])
    enter(page, "A1", facts["rows"])
    enter(page, "A2", f"=SORT(UNIQUE({data}!{rows}2:{rows}{last}))")
    groups = last_filled(page, "A")
    agg = {"sum": "SUMIFS", "count": "COUNTIFS", "max": "MAXIFS", "average": "AVERAGEIFS"}[facts["agg"]]
    first = "" if facts["agg"] == "count" else f"{data}!${value}$2:${value}${last},"
    if facts["across"]:
        across = columns[facts["across"]]
        enter(page, "B1", f"=TRANSPOSE(SORT(UNIQUE({data}!{across}2:{across}{last})))")
        width = len([t for t in page.get_by_role("grid").locator("tr[aria-rowindex='2'] td").all_inner_texts() if t.strip()])
        right = chr(65 + width - 1)
        enter(page, "B2", f"={agg}({first}{data}!${rows}$2:${rows}${last},$A2,{data}!${across}$2:${across}${last},B$1)")
        fill_down(page, f"B2:B{groups}")
        go(page, f"B2:{right}{groups}")
        page.get_by_role("grid").locator("td[aria-selected=true]").press("Control+r")
        expect(cell(page, f"{right}{groups}")).not_to_have_text("")
    else:
        enter(page, "B1", "Deals" if facts["agg"] == "count" else facts["value"])
        enter(page, "B2", f"={agg}({first}{data}!${rows}$2:${rows}${last},A2)")
        fill_down(page, f"B2:B{groups}")
    graded(live_server, task.id)


@cases("sheets/answer-from-xlsx-v1")
def test_open_an_uploaded_xlsx_from_its_link_and_answer(live_server: Any, page: Page, task: Any) -> None:
    facts = task.task.facts
    asked = dm_question(page, live_server, task.id, facts["dm"])
    link = re.findall(r"https://drive\.google\.com/file/d/\S+", asked)[-1]
    month = re.findall(r"invoiced in (\w+ \d{4})\?", asked)[-1]
    page.goto(f"{live_server.env_url(task.id, 'sheets')}/")
    page.get_by_label("Drive link or file ID").fill(link)
    page.get_by_label("Drive link or file ID").press("Enter")
    expect(page.get_by_role("heading", name=facts["file"])).to_be_visible()
    page.get_by_role("button", name="Open with Google Sheets").click()
    expect(page.get_by_role("grid", name="Invoices")).to_be_visible()
    last = last_filled(page, "A")
    from datetime import datetime
    wanted = datetime.strptime(month, "%B %Y").strftime("%Y-%m")
    in_month = [r for r in range(2, last + 1) if cell(page, f"B{r}").inner_text().startswith(wanted)]
    assert in_month == list(range(in_month[0], in_month[-1] + 1))  # the export is in date order
    go(page, f"F{in_month[0]}:F{in_month[-1]}")
    total = page.get_by_role("status", name="Sum of the selection")
    expect(total).to_have_text(re.compile(r"^Sum: \$[\d,]+$"))
    figure = total.inner_text().removeprefix("Sum: ")
    # The same sum as the mouse selects it (the status bar follows the selection).
    cell(page, f"F{in_month[-1]}").click()
    cell(page, f"F{in_month[0]}").click(modifiers=["Shift"])
    expect(total).to_have_text(f"Sum: {figure}")
    dm_reply(page, live_server, task.id, facts["dm"], f"{figure} in {month}.")
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id)[0] == "sheets.files.copy"


@cases("sheets/filter-by-rule-v1")
def test_filter_rows_by_a_rule(live_server: Any, page: Page, task: Any) -> None:
    facts = task.task.facts
    m = re.fullmatch(r'Stage is "([^"]+)" and Amount is over \$([\d,]+)', facts["rule"])
    assert m, facts["rule"]
    stage, over = m.group(1), int(m.group(2).replace(",", ""))
    open_sheet(page, live_server, task.id, "Sales Forecast FY2026")
    if facts["mode"] == "copy":
        go(page, "A1:G1")
        page.get_by_role("grid").locator("td[aria-selected=true]").press("Control+c")
        new_tab(page, facts["title"])
        cell(page, "A1").click()
        page.keyboard.press("Control+v")
        expect(cell(page, "G1")).to_have_text("Close Date")
        enter(page, "A2", f'=FILTER(Pipeline!A2:G61,Pipeline!E2:E61="{stage}",Pipeline!F2:F61>{over})')
        expect(cell(page, f"A{facts['rows'] + 1}")).not_to_have_text("")
    else:
        stages = column_texts(page, "E", 2, 61)
        amounts = [int(t.replace("$", "").replace(",", "")) for t in column_texts(page, "F", 2, 61)]
        drop = [r for r, (s, a) in enumerate(zip(stages, amounts), start=2) if not (s == stage and a > over)]
        runs: list[list[int]] = []
        for r in drop:
            if runs and runs[-1][-1] == r - 1:
                runs[-1].append(r)
            else:
                runs.append([r])
        for run in reversed(runs):  # bottom up, so the row numbers above stay put
            go(page, f"{run[0]}:{run[-1]}")
            page.locator("nav.menubar summary", has_text="Edit").click()
            page.get_by_role("menuitem", name="Delete selected rows").click()
            settled(page)
            expect(page.get_by_role("alert")).to_have_count(0)
        assert last_filled(page, "A") == facts["rows"] + 1
    graded(live_server, task.id)


def test_columns_past_o_rows_past_the_window_and_a_frozen_header(live_server: Any, env_id: str, page: Page) -> None:
    """15 columns and 60 rows show at a time: the paging links and the name box reach the rest,
    Arrow keys scroll past the window's edge, and the frozen header row stays on top."""
    open_sheet(page, live_server, env_id, "Sales Forecast FY2026")
    sid = page.url.split("/d/")[1].split("?")[0]
    expect(cell(page, "P1")).to_have_count(0)
    page.get_by_role("link", name="▶ Columns P–Z").click()
    expect(cell(page, "Z1")).to_be_visible()
    expect(page.get_by_role("grid").get_by_role("columnheader", name="A", exact=True)).to_have_count(0)
    enter(page, "T5", "far right")
    expect(cell(page, "T5")).to_have_text("far right")
    assert api_values(live_server, env_id, sid, "Pipeline!T5") == [["far right"]]
    page.get_by_role("link", name="◀ Columns A–O").click()
    expect(cell(page, "A1")).to_have_text("Deal ID")
    cell(page, "O2").click()
    page.keyboard.press("ArrowRight")  # past the last column shown: the page scrolls to it
    expect(page.get_by_label("Name box")).to_have_value("P2")
    expect(cell(page, "P2")).to_have_attribute("aria-selected", "true")
    # Rows below the window: the header row (frozen) still heads the columns.
    go(page, "A2")
    page.get_by_role("link", name=re.compile("▼ Rows 61–")).click()
    expect(cell(page, "A61")).to_have_text(re.compile(r"^o00\d\d$"))
    expect(cell(page, "A1")).to_have_text("Deal ID")
    expect(cell(page, "A2")).to_have_count(0)
    cell(page, "B61").click()
    page.keyboard.press("PageUp")  # the keys page too: rows with PageUp/PageDown, columns with Alt
    expect(cell(page, "A2")).to_be_visible()
    expect(page.get_by_label("Name box")).to_have_value("A1")
    page.get_by_role("grid").locator("td[aria-selected=true]").press("Alt+PageDown")
    expect(cell(page, "P1")).to_be_visible()


def test_find_in_sheet_and_the_sum_of_a_selection(live_server: Any, env_id: str, page: Page) -> None:
    open_sheet(page, live_server, env_id, "Sales Forecast FY2026")
    sid = page.url.split("/d/")[1].split("?")[0]
    expect(page.get_by_role("grid").locator("td[aria-selected=true]")).to_be_focused()
    page.keyboard.press("Control+f")
    expect(page.get_by_role("textbox", name="Find in sheet")).to_be_focused()
    page.keyboard.type("o0042")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Name box")).to_have_value("A43")
    page.get_by_label("Find in sheet").fill("no such words anywhere")
    page.get_by_label("Find in sheet").press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("No results")
    amounts = [row[0] for row in api_values(live_server, env_id, sid, "Pipeline!F2:F4")]
    cell(page, "F2").click()
    status = page.get_by_role("status", name="Sum of the selection")
    expect(status).to_have_text("")
    cell(page, "F4").click(modifiers=["Shift"])
    expect(status).to_have_text(f"Sum: ${sum(amounts):,.0f}")
    go(page, "F2:F4")  # typed in the name box, the server sums it
    expect(status).to_have_text(f"Sum: ${sum(amounts):,.0f}")
    # Percentages sum as percentages, the same whether selected by mouse or typed.
    go(page, "H2:H6")
    typed = status.inner_text()
    assert re.fullmatch(r"Sum: \d+%", typed), typed
    cell(page, "H2").click()
    cell(page, "H6").click(modifiers=["Shift"])
    expect(status).to_have_text(typed)


def test_a_spreadsheet_link_opens_its_tab_and_a_link_to_no_file_says_so(live_server: Any, env_id: str, page: Page) -> None:
    open_sheet(page, live_server, env_id, "Sales Forecast FY2026", "Summary")
    sid, gid = page.url.split("/d/")[1].split("?")[0], page.url.split("sheet=")[1].split("&")[0]
    page.goto(f"{live_server.env_url(env_id, 'sheets')}/")
    page.get_by_label("Drive link or file ID").fill(f"https://docs.google.com/spreadsheets/d/{sid}/edit#gid={gid}")
    page.get_by_label("Drive link or file ID").press("Enter")
    expect(page.get_by_role("grid", name="Summary")).to_be_visible()
    page.goto(f"{live_server.env_url(env_id, 'sheets')}/")
    page.get_by_label("Drive link or file ID").fill("https://drive.google.com/file/d/1NoSuchFileAnywhere000/view")
    page.get_by_label("Drive link or file ID").press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("No file")
    assert ui_writes(live_server, env_id) == []


@cases("sheets/pivot-summary-v1")
def test_pivot_table_from_the_insert_menu(live_server: Any, page: Page, task: Any) -> None:
    """Insert ▸ Pivot table on the selected table: Rows, Columns, Values and Summarize by, on a new
    tab named as asked (its column headers name the Columns value, as "SUM of Amount (Closed Won)")."""
    facts = task.task.facts
    open_sheet(page, live_server, task.id, "Sales Forecast FY2026", facts["data"])
    go(page, f"A1:I{facts['last_row']}")
    page.locator("nav.menubar summary", has_text="Insert").click()
    page.get_by_role("menuitem", name="Pivot table").click()
    dialog = page.get_by_role("form", name="Create pivot table")
    expect(dialog.get_by_label("Data range")).to_have_value(f"A1:I{facts['last_row']}")
    dialog.get_by_label("New sheet name").fill(facts["tab"])
    dialog.get_by_label("Rows").select_option(facts["rows"])
    if facts["across"]:
        dialog.get_by_label("Columns").select_option(facts["across"])
    dialog.get_by_label("Values").select_option(facts["value"])
    dialog.get_by_label("Summarize by").select_option(facts["agg"])
    dialog.get_by_role("button", name="Create").click()
    expect(page.get_by_role("grid", name=facts["tab"])).to_be_visible()
    expect(cell(page, "A1")).to_have_text(facts["rows"])
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.pivotTable"]


def test_format_number_shows_the_cells_in_the_chosen_format(live_server: Any, env_id: str, page: Page) -> None:
    open_sheet(page, live_server, env_id, "Sales Forecast FY2026")
    sid = page.url.split("/d/")[1].split("?")[0]
    amount = api_values(live_server, env_id, sid, "Pipeline!F2")[0][0]
    go(page, "F2:F3")
    page.locator("nav.menubar summary", has_text="Format").click()
    page.get_by_role("menuitem", name="Number ▸ Currency $1,000.12").click()
    expect(cell(page, "F2")).to_have_text(f"${amount:,.2f}")
    go(page, "H2")
    page.locator("nav.menubar summary", has_text="Format").click()
    page.get_by_role("menuitem", name="Number ▸ Percent 10.12%").click()
    probability = api_values(live_server, env_id, sid, "Pipeline!H2")[0][0]
    expect(cell(page, "H2")).to_have_text(f"{probability * 100:.2f}%")
    assert api_values(live_server, env_id, sid, "Pipeline!F2", render="FORMATTED_VALUE") == [[f"${amount:,.2f}"]]
    assert ui_writes(live_server, env_id) == ["sheets.spreadsheets.batchUpdate"] * 2


@cases("sheets/sort-by-rule-v1", one_key)
def test_sort_sheet_by_the_selected_column_keeps_the_frozen_header(live_server: Any, page: Page, task: Any) -> None:
    """Data ▸ Sort sheet: a cell of the column selected; the frozen header row stays on top."""
    facts = task.task.facts
    title = "Support Metrics" if facts["tab"] == "Tickets" else "Sales Forecast FY2026"
    open_sheet(page, live_server, task.id, title, facts["tab"])
    header = page.get_by_role("grid").locator("tr[aria-rowindex='2'] td", has_text=re.compile(f"^{facts['by']}$"))
    letter = header.get_attribute("aria-label")[:-1]
    first = cell(page, "A1").inner_text()
    cell(page, f"{letter}5").click()
    page.locator("nav.menubar summary", has_text="Data").click()
    page.get_by_role("menuitem", name=f"Sort sheet by the selected column, {'Z → A' if facts['descending'] else 'A → Z'}").click()
    expect(page).to_have_url(re.compile(r"cell=" + letter + "5"))
    expect(cell(page, "A1")).to_have_text(first)
    expect(page.get_by_role("alert")).to_have_count(0)
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.spreadsheets.batchUpdate"]


def test_unknown_files_and_spreadsheets_on_the_new_pages_are_404s(live_server: Any, env_id: str) -> None:
    import httpx

    base = live_server.env_url(env_id, "sheets")
    for path in ("/file/d/1NoSuchUpload0000/view", "/d/1NoSuchSpreadsheet000/find?q=x", "/open?link=" + "x" * 5000):
        response = httpx.get(base + path, timeout=10)
        assert response.status_code == 404 and "text/html" in response.headers["content-type"], (path, response.status_code)
    response = httpx.post(base + "/file/d/1NoSuchUpload0000/convert", headers={"Origin": live_server.base_url}, timeout=10)
    assert response.status_code == 404 and "File not found" in response.text
    assert ui_writes(live_server, env_id) == []
