"""Every sheets task family done in the browser, variants 2 to 5 of the default company and a few
of other seeds, as a careful person does it with Google Sheets' UI, reading what to do from the
prompt and the page: Shift+Arrow and Ctrl+Shift+Arrow to select a table or a column past the
window's last row, Ctrl+Arrow to find where the data ends, the status bar's Sum and its other
figures (Max), editing a formula in the formula bar with the keys, Insert ▸ Pivot table, Data ▸
Sort range, row deletes from the row numbers' menu. Each grades 1.0 with no collateral, and its
writes are in the trajectory with face "ui"."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_sheets_ui_round6 import cell, dm_question, dm_reply, graded, new_tab, open_sheet, settled, shown_in_column, ui_writes
from tests.e2e.test_sheets_ui_round6 import closed_won, first_fitting, one_key
from tests.e2e.test_sheets_ui_round6 import column_texts as round6_column_texts

FORECAST, METRICS = "Sales Forecast FY2026", "Support Metrics"


@pytest.fixture
def task(live_server: Any, request: pytest.FixtureRequest) -> Any:
    family, variant, seed, *where = request.param
    env = first_fitting(live_server.gym, family, variant, seed, where[0] if where else None)
    yield env
    live_server.gym.delete(env.id)


def cases(family: str, *extra: tuple[int, int], where: Any = None) -> Any:
    """Variants 2 to 5 of the default company (seed 0), and `extra` (variant, seed) pairs (each, or
    the first variant after it whose instance fits `where`)."""
    runs = [(v, 0) for v in range(2, 6)] + list(extra)
    return pytest.mark.parametrize("task", [(family, v, s, where) for v, s in runs], indirect=True, ids=[f"v{v}-seed{s}" for v, s in runs])


def name_box(page: Page) -> Any:
    return page.get_by_label("Name box")


def selected(page: Page) -> Any:
    return page.get_by_role("grid").locator("td[aria-selected=true]")


def go(page: Page, where: str) -> None:
    """The name box: type a cell or range, Enter; the page goes there (and the cell has the keys)."""
    name_box(page).fill(where)
    name_box(page).press("Enter")
    settled(page)
    expect(page).to_have_url(re.compile(r"[?&]cell=" + re.escape(quote(where, safe="")) + r"(&|$)"))
    expect(selected(page)).to_be_focused()


def key(page: Page, keys: str, then: str) -> None:
    """Press `keys` on the selected cell; the name box then says `then`."""
    selected(page).press(keys)
    settled(page)
    expect(name_box(page)).to_have_value(then)
    expect(selected(page)).to_be_focused()


def enter(page: Page, where: str, content: str) -> None:
    """Select a cell, type into the formula bar, Enter (the cell below is selected)."""
    go(page, where)
    page.get_by_label("Formula bar").fill(content)
    page.get_by_label("Formula bar").press("Enter")
    settled(page)
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"[?&]cell="))


def last_row(page: Page, letter: str = "A") -> int:
    """Where the table's data ends: from its header, Ctrl+↓ (read from the name box)."""
    go(page, f"{letter}1")
    selected(page).press("Control+ArrowDown")
    expect(name_box(page)).not_to_have_value(f"{letter}1")
    return int(name_box(page).input_value()[len(letter):])


def headers(page: Page) -> dict[str, str]:
    """The header row: its text → column letter."""
    found = page.get_by_role("grid").locator("tr[aria-rowindex='2'] td").evaluate_all(
        "tds => tds.filter(td => td.textContent.trim()).map(td => [td.textContent.trim(), td.getAttribute('aria-label').replace(/\\d+$/, '')])")
    return dict(found)


def column_texts(page: Page, letter: str, first: int, last: int) -> list[str]:
    """A column's shown text, rows `first` to `last`, going down a window when they run past it."""
    return round6_column_texts(page, letter, first, last, go_to=go)


def select_table(page: Page) -> str:
    """A1, then Ctrl+Shift+↓ and Ctrl+Shift+→: the whole table, header row included."""
    go(page, "A1")
    selected(page).press("Control+Shift+ArrowDown")
    expect(name_box(page)).to_have_value(re.compile(r"^A1:A\d+$"))
    selected(page).press("Control+Shift+ArrowRight")
    expect(name_box(page)).to_have_value(re.compile(r"^A1:[B-Z]\d+$"))
    return name_box(page).input_value()


def menu(page: Page, name: str) -> None:
    page.locator("nav.menubar summary", has_text=name).click()


# --- fill-formula-column: the header, the first row's formula, then Shift+↓ to the last deal and Ctrl+D.

ROW_FORMULAS = {
    "Amount (k)": "=F2/1000",
    "Unweighted remainder": "=F2-I2",
    "Close month": "=MONTH(G2)",
    "Won?": '=IF(E2="Closed Won","Yes","No")',
    "Commission": '=IF(E2="Closed Won",F2*8%,0)',
    "Close quarter": '="Q"&ROUNDUP(MONTH(G2)/3,0)',
}


@cases("sheets/fill-formula-column-v1", (2, 1))
def test_fill_formula_column_selected_with_shift_arrows(live_server: Any, page: Page, task: Any) -> None:
    """The selection grows with Shift+↓ past the window's last row (61 is the last deal's)."""
    letter, header, last = re.search(r'fill column ([A-Z]) .*? put the header "([^"]+)" in \1\d.*?\(\1\d+:\1(\d+)\)', task.task.prompt).groups()
    open_sheet(page, live_server, task.id, FORECAST)
    enter(page, f"{letter}1", header)
    enter(page, f"{letter}2", ROW_FORMULAS[header])
    go(page, f"{letter}2")
    for _ in range(int(last) - 2):
        selected(page).press("Shift+ArrowDown")
    expect(name_box(page)).to_have_value(f"{letter}2:{letter}{last}")
    expect(cell(page, f"{letter}{last}")).to_have_class(re.compile(r"\bin-sel\b"))
    selected(page).press("Control+d")
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(cell(page, f"{letter}{last}")).not_to_have_text("")
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.values.update", "sheets.values.update", "sheets.spreadsheets.batchUpdate"]


@pytest.mark.parametrize("task", [("sheets/fill-formula-column-v1", 4, 0)], indirect=True, ids=["v4-seed0"])
def test_fill_formula_column_by_scrolling_down_and_shift_clicking(live_server: Any, page: Page, task: Any) -> None:
    """Click the first formula, scroll down a window (the scroll link keeps the selection, as
    scrolling does), Shift-click the last deal's cell, Ctrl+D."""
    letter, header, last = re.search(r'fill column ([A-Z]) .*? put the header "([^"]+)" in \1\d.*?\(\1\d+:\1(\d+)\)', task.task.prompt).groups()
    open_sheet(page, live_server, task.id, FORECAST)
    enter(page, f"{letter}1", header)
    enter(page, f"{letter}2", ROW_FORMULAS[header])
    cell(page, f"{letter}2").click()
    page.get_by_role("link", name=re.compile(r"^▼ Rows 61")).click()
    expect(cell(page, f"{letter}{last}")).to_be_visible()
    expect(name_box(page)).to_have_value(f"{letter}2")  # still selected, out of sight
    expect(page.get_by_label("Formula bar")).to_have_value(ROW_FORMULAS[header])
    cell(page, f"{letter}{last}").click(modifiers=["Shift"])
    expect(name_box(page)).to_have_value(f"{letter}2:{letter}{last}")
    selected(page).press("Control+d")
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(cell(page, f"{letter}{last}")).not_to_have_text("")
    graded(live_server, task.id)


# --- fix-broken-formula: read the cell's formula, compare it with its neighbours', fix it in the bar.

@cases("sheets/fix-broken-formula-v1", (3, 1), (4, 1))
def test_fix_broken_formula_from_its_neighbours(live_server: Any, page: Page, task: Any) -> None:
    where, label, symptom = re.search(r"cell ([A-Z]\d+) \(([^)]+)\) (shows an error|gives the wrong number)", task.task.prompt).groups()
    letter, row = where[0], int(where[1:])
    open_sheet(page, live_server, task.id, FORECAST, "Summary")
    go(page, where)
    bar = page.get_by_label("Formula bar")
    broken = bar.input_value()
    if symptom == "shows an error":  # a misspelt function: fix the name where it is, with the keys
        expect(cell(page, where)).to_have_text(re.compile(r"^#"))
        name = re.match(r"=([A-Z]+)\(", broken).group(1)
        right = next(n for n in ("COUNTIF", "SUMIF", "SUM") if n in name and n != name)
        selected(page).press("Enter")  # edit in the formula bar
        expect(bar).to_be_focused()
        page.keyboard.press("Home")
        for _ in range(1 + len(right)):
            page.keyboard.press("ArrowRight")
        for _ in range(len(name) - len(right)):
            page.keyboard.press("Delete")
        page.keyboard.press("Enter")
    elif label.startswith("the total"):  # a total that stops short: copy the next total along, paste
        other = f"{'C' if letter == 'B' else 'B'}{row}"
        go(page, other)
        assert bar.input_value().startswith("=SUM(")
        selected(page).press("Control+c")
        go(page, where)
        selected(page).press("Control+v")
    else:  # a stage row reading another row's stage: copy the formula of the row beside, paste
        other = f"{letter}{row - 1 if row > 2 else row + 1}"
        go(page, other)
        selected(page).press("Control+c")
        go(page, where)
        selected(page).press("Control+v")
    expect(page.get_by_role("alert")).to_have_count(0)
    go(page, where)
    expect(bar).not_to_have_value(broken)
    expect(cell(page, where)).not_to_have_text(re.compile(r"^#"))
    graded(live_server, task.id)
    assert len(ui_writes(live_server, task.id)) == 1


@pytest.mark.parametrize("task", [("sheets/fix-broken-formula-v1", 2, 0), ("sheets/fix-broken-formula-v1", 4, 0), ("sheets/fix-broken-formula-v1", 3, 1)],
                         indirect=True, ids=["v2-seed0", "v4-seed0", "v3-seed1"])
def test_fix_a_formula_in_place_with_f2(live_server: Any, page: Page, task: Any) -> None:
    """F2 edits the cell in the formula bar with the caret after the formula, as in the product:
    ← and Backspace from the end change only the wrong part (the caret was at the start, so the
    keys typed made the formula text)."""
    where = re.search(r"cell ([A-Z]\d+) \(", task.task.prompt).group(1)
    right = task.task.facts["seeded"]  # what its neighbours show it should be (the test above works it out)
    open_sheet(page, live_server, task.id, FORECAST, "Summary")
    go(page, where)
    bar = page.get_by_label("Formula bar")
    broken = bar.input_value()
    same_start = next(i for i, (a, b) in enumerate(zip(broken + "\0", right + "\1")) if a != b)
    same_end = next(i for i, (a, b) in enumerate(zip(reversed(broken), reversed(right))) if a != b)
    selected(page).press("F2")
    expect(bar).to_be_focused()
    for _ in range(same_end):
        page.keyboard.press("ArrowLeft")
    for _ in range(len(broken) - same_start - same_end):
        page.keyboard.press("Backspace")
    page.keyboard.type(right[same_start:len(right) - same_end])
    expect(bar).to_have_value(right)
    page.keyboard.press("Enter")
    settled(page)
    expect(page.get_by_role("alert")).to_have_count(0)
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.values.update"]


# --- summary-tab: a new tab, the field's distinct values by one formula, a count per value.

@cases("sheets/summary-tab-v1", (4, 1))
def test_summary_tab_counted_by_formulas(live_server: Any, page: Page, task: Any) -> None:
    prompt = task.task.prompt
    tab, field = re.search(r'add a tab named "([^"]+)" that counts the .*?tickets .*?by (\w+):', prompt).groups()
    only_open = "open tickets (Status is not Done)" in prompt
    open_sheet(page, live_server, task.id, METRICS, "Tickets")
    columns = headers(page)
    f, status = columns[field], columns["Status"]
    last = last_row(page)
    values, states = f"Tickets!{f}2:{f}{last}", f"Tickets!{status}2:{status}{last}"
    new_tab(page, tab)
    enter(page, "A1", field)
    enter(page, "B1", "Tickets")
    keep = f'{values}<>""' + (f',{states}<>"Done"' if only_open else "")
    enter(page, "A2", f"=SORT(UNIQUE(FILTER({values},{keep})))")
    groups = last_row(page)
    count = (f'=COUNTIFS(Tickets!${f}$2:${f}${last},A2,Tickets!${status}$2:${status}${last},"<>Done")' if only_open
             else f"=COUNTIF(Tickets!${f}$2:${f}${last},A2)")
    enter(page, "B2", count)
    go(page, "B2")
    selected(page).press("Shift+ArrowDown")
    for _ in range(groups - 3):
        selected(page).press("Shift+ArrowDown")
    expect(name_box(page)).to_have_value(f"B2:B{groups}")
    selected(page).press("Control+d")
    expect(cell(page, f"B{groups}")).not_to_have_text("")
    graded(live_server, task.id)


# --- reconcile-tabs: a lookup per invoice row, filled down to where the invoices end.

@cases("sheets/reconcile-tabs-v1")
def test_reconcile_invoices_with_a_lookup(live_server: Any, page: Page, task: Any) -> None:
    differs, matches = re.search(r'shows "([^"]+)" when the billed amount differs.*?and "([^"]+)" when they match', task.task.prompt).groups()
    open_sheet(page, live_server, task.id, FORECAST, "Pipeline")
    deals = last_row(page)
    page.get_by_role("navigation", name="Sheets").get_by_role("link", name="Invoices", exact=True).click()
    last = last_row(page)
    enter(page, "C1", "Status")
    enter(page, "C2", f'=IF(B2=VLOOKUP(A2,Pipeline!$A$2:$F${deals},6,FALSE),"{matches}","{differs}")')
    go(page, f"C2:C{last}")
    selected(page).press("Control+d")
    expect(cell(page, f"C{last}")).not_to_have_text("")
    names, status = shown_in_column(page, "A"), shown_in_column(page, "C")
    flagged = [names[f"A{r}"] for r in range(2, last + 1) if status[f"C{r}"] == differs]
    assert sorted(flagged) == sorted(task.task.facts["mis-billed"])
    graded(live_server, task.id)


# --- update-from-crm: the deal's field as the CRM shows it, typed over the stale cell.

@cases("sheets/update-from-crm-v1", (2, 1))
def test_update_a_deal_from_the_crm(live_server: Any, page: Page, task: Any) -> None:
    field, deal, name = re.search(r"tab's (Amount|Stage|Close Date) for deal (\w+) \(\"([^\"]+)\"\)", task.task.prompt).groups()
    page.goto(f"{live_server.env_url(task.id, 'crm')}/")
    page.get_by_label("Search Salesforce").fill(name)
    page.get_by_label("Search Salesforce").press("Enter")
    page.get_by_role("link", name=name, exact=True).first.click()
    value = page.locator("dl.details div", has=page.locator("dt", has_text=re.compile(f"^{field}$"))).locator("dd").inner_text().strip()
    assert value
    open_sheet(page, live_server, task.id, FORECAST)
    letter = headers(page)[field]
    page.keyboard.press("Control+f")
    page.keyboard.type(deal)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"[?&]find="))
    row = name_box(page).input_value()[1:]
    enter(page, f"{letter}{row}", value)
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.values.update"]


# --- answer-from-sheet: the rep's Won figure on the Summary tab, replied in the DM.

@cases("sheets/answer-from-sheet-v1", where=closed_won)
def test_answer_a_reps_closed_won_from_the_summary(live_server: Any, page: Page, task: Any) -> None:
    asked = dm_question(page, live_server, task.id, task.task.facts["dm"])
    rep = re.findall(r"how much has (.+?) closed-won", asked)[-1]
    open_sheet(page, live_server, task.id, FORECAST, "Summary")
    page.keyboard.press("Control+f")
    page.keyboard.type(rep)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"[?&]find="))
    row = name_box(page).input_value()[1:]
    won = page.get_by_role("grid").locator("td", has_text=re.compile("^Won$")).get_attribute("aria-label")[0]  # the block's "Won" column
    figure = cell(page, f"{won}{row}").inner_text()
    dm_reply(page, live_server, task.id, task.task.facts["dm"], f"{rep} has closed-won {figure} so far.")
    graded(live_server, task.id)


# --- sort-by-rule: the table selected with Ctrl+Shift+arrows, Data ▸ Sort range with its header row.

@cases("sheets/sort-by-rule-v1", (2, 1), where=one_key)
def test_sort_the_selected_table(live_server: Any, page: Page, task: Any) -> None:
    title, tab, by, order = re.search(r'Sheet "([^"]+)", sort the (\w+) tab\'s rows .*? by ([\w ]+), ([\w ]+)\.', task.task.prompt).groups()
    open_sheet(page, live_server, task.id, title, tab)
    letter = headers(page)[by]
    table = select_table(page)
    menu(page, "Data")
    sort = page.get_by_role("form", name="Sort range")
    expect(sort.get_by_label("Range to sort")).to_have_value(table)
    sort.get_by_label("Data has header row").check()
    sort.get_by_label("Sort by").select_option(letter)
    if order in ("largest first", "Z to A", "latest first"):
        sort.get_by_role("radio", name="Z → A").first.check()
    sort.get_by_role("button", name="Sort").click()
    settled(page)
    expect(page.get_by_role("alert")).to_have_count(0)
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.spreadsheets.batchUpdate"]


# --- pivot-summary: Insert ▸ Pivot table on the table selected with Ctrl+Shift+End.

@cases("sheets/pivot-summary-v1", (5, 1))
def test_pivot_table_of_the_selected_table(live_server: Any, page: Page, task: Any) -> None:
    prompt = task.task.prompt
    title, tab, data = re.search(r'Sheet "([^"]+)", add a tab named "([^"]+)" that summarises the (\w+) tab', prompt).groups()
    rows, across = re.search(r"like a pivot table by ([\w ]+?)(?: and ([\w ]+?))?:", prompt).groups()
    counted = "the number of" in prompt
    value = None if counted else re.search(r"the (total|largest|average) ([\w ]+?) for that", prompt).groups()
    open_sheet(page, live_server, task.id, title, data)
    columns = headers(page)
    go(page, "C5")  # the table: Ctrl+End finds its last cell, Ctrl+Home goes back to A1, Ctrl+Shift+End selects it all
    selected(page).press("Control+End")
    expect(name_box(page)).not_to_have_value("C5")
    end = name_box(page).input_value()
    key(page, "Control+Home", "A1")
    key(page, "Control+Shift+End", f"A1:{end}")
    table = f"A1:{end}"
    menu(page, "Insert")
    page.get_by_role("menuitem", name="Pivot table").click()
    dialog = page.get_by_role("form", name="Create pivot table")
    expect(dialog.get_by_label("Data range")).to_have_value(table)
    dialog.get_by_label("New sheet name").fill(tab)
    dialog.get_by_label("Rows").select_option(rows)
    if across:
        dialog.get_by_label("Columns").select_option(across)
    if counted:  # the number of rows: COUNTA of the first column (every row has its key)
        dialog.get_by_label("Values").select_option(next(iter(columns)))
        dialog.get_by_label("Summarize by").select_option("counta")
    else:
        dialog.get_by_label("Values").select_option(value[1])
        dialog.get_by_label("Summarize by").select_option({"total": "sum", "largest": "max", "average": "average"}[value[0]])
    dialog.get_by_role("button", name="Create").click()
    expect(page.get_by_role("grid", name=tab)).to_be_visible()
    expect(cell(page, "A1")).to_have_text(rows)
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id) == ["sheets.pivotTable"]


# --- answer-from-xlsx: the Drive link opened, converted, and the figure read from the status bar.

@cases("sheets/answer-from-xlsx-v1", (0, 1), (4, 1))
def test_answer_from_an_uploaded_xlsx(live_server: Any, page: Page, task: Any) -> None:
    asked = dm_question(page, live_server, task.id, task.task.facts["dm"])
    link = re.findall(r"https://drive\.google\.com/file/d/\S+", asked)[-1]
    page.goto(f"{live_server.env_url(task.id, 'sheets')}/")
    page.get_by_label("Drive link or file ID").fill(link)
    page.get_by_label("Drive link or file ID").press("Enter")
    page.get_by_role("button", name="Open with Google Sheets").click()
    expect(page.get_by_role("grid", name="Invoices")).to_be_visible()
    columns = headers(page)
    amount = columns["Amount"]
    last = last_row(page)
    if cell(page, f"A{last}").inner_text() == "Total":  # the export ends with its total row: the invoices stop above it
        last -= 1
    assert cell(page, f"A{last}").inner_text().startswith("INV-")
    total = page.get_by_role("status", name="Sum of the selection")
    if "largest invoice" in asked:  # the Amount column selected: Max, under the status bar's arrow
        cell(page, f"{amount}2").click()
        cell(page, f"{amount}{last}").click(modifiers=["Shift"])  # (Ctrl+Shift+↓ would take the Total row too)
        expect(name_box(page)).to_have_value(f"{amount}2:{amount}{last}")
        page.get_by_label("More figures of the selection").click()
        figure = page.get_by_role("list", name="Figures of the selection").get_by_text(re.compile(r"^Max: ")).inner_text().removeprefix("Max: ")
    elif month := re.search(r"invoiced in (\w+ \d{4})\?", asked):  # the export is in date order: the month's rows, summed
        wanted = datetime.strptime(month.group(1), "%B %Y").strftime("%Y-%m")
        dates = column_texts(page, columns["Date"], 2, last)
        rows = [r for r, d in enumerate(dates, start=2) if d.startswith(wanted)]
        go(page, f"{amount}{rows[0]}:{amount}{rows[-1]}")
        figure = total.inner_text().removeprefix("Sum: ")
    else:  # a product's, unpaid or overdue total: a SUMIF typed in a spare cell of the copy
        status, product = columns["Status"], columns["Product"]
        if product_name := re.search(r"billed for (.+?) in total\?", asked):
            formula = f'=SUMIF({product}2:{product}{last},"{product_name.group(1)}",{amount}2:{amount}{last})'
        elif "overdue" in asked:
            formula = f'=SUMIF({status}2:{status}{last},"Overdue",{amount}2:{amount}{last})'
        else:
            formula = f'=SUMIF({status}2:{status}{last},"<>Paid",{amount}2:{amount}{last})'
        spare = chr(ord(max(columns.values())) + 2)
        enter(page, f"{spare}1", formula)
        figure = cell(page, f"{spare}1").inner_text()  # shown in the Amount column's format, which Sheets infers for the SUMIF
        assert figure.startswith("$"), figure
        figure = f"${float(figure.removeprefix('$').replace(',', '')):,.0f}"
    assert re.fullmatch(r"\$[\d,]+", figure), figure
    dm_reply(page, live_server, task.id, task.task.facts["dm"], f"It's {figure}.")
    graded(live_server, task.id)
    assert ui_writes(live_server, task.id)[0] == "sheets.files.copy"


# --- filter-by-rule: the rule read from the prompt; the other rows deleted from the row numbers'
# menu (bottom up), or the matching rows copied to a new tab with one FILTER.

def _tests(rule: str) -> list[tuple[str, Any]]:
    """The rule's clauses as (column header, test on the shown text)."""
    def money(t: str) -> float:
        return float(t.replace("$", "").replace(",", ""))

    out: list[tuple[str, Any]] = []
    for clause in re.split(r" and (?=the deal|[A-Z])", rule):
        if clause.startswith("the deal is open"):
            out.append(("Stage", lambda t: not t.startswith("Closed")))
        elif m := re.fullmatch(r'(\w+) is "([^"]+)" or "([^"]+)"', clause):
            out.append((m.group(1), lambda t, a=m.group(2), b=m.group(3): t in (a, b)))
        elif m := re.fullmatch(r'(\w+) is not "([^"]+)"', clause):
            out.append((m.group(1), lambda t, v=m.group(2): t != v))
        elif m := re.fullmatch(r"(\w+) is over \$([\d,]+)", clause):
            out.append((m.group(1), lambda t, v=money(m.group(2)): money(t) > v))
        elif m := re.fullmatch(r"([\w ]+?) is before (\w+ \d+, \d{4})", clause):
            day = datetime.strptime(m.group(2), "%B %d, %Y").strftime("%Y-%m-%d")
            out.append((m.group(1), lambda t, d=day: t < d))
        elif m := re.fullmatch(r'(\w+) is "?([^"]+)"?', clause):
            out.append((m.group(1), lambda t, v=m.group(2): t == v))
        else:
            raise AssertionError(f"a rule I cannot read: {clause!r}")
    return out


@cases("sheets/filter-by-rule-v1", (2, 1), (4, 1), (5, 1), (0, 2))
def test_filter_rows_by_the_rule(live_server: Any, page: Page, task: Any) -> None:
    prompt = task.task.prompt
    title, tab = re.search(r'Sheet "([^"]+)", (?:delete every row of the|copy the) (\w+)', prompt).groups()
    rule = task.task.facts["rule"]
    assert rule in prompt
    tests = _tests(rule)
    open_sheet(page, live_server, task.id, title, tab)
    columns = headers(page)
    last = last_row(page)
    shown = {name: column_texts(page, columns[name], 2, last) for name, _ in tests}
    keep = [r for r in range(2, last + 1) if all(test(shown[name][r - 2]) for name, test in tests)]
    if "delete every row" in prompt:
        drop = [r for r in range(2, last + 1) if r not in keep]
        runs: list[list[int]] = []
        for r in drop:
            if runs and runs[-1][-1] == r - 1:
                runs[-1].append(r)
            else:
                runs.append([r])
        for run in reversed(runs):  # bottom up, so the row numbers above stay put
            go(page, f"{run[0]}:{run[-1]}")
            page.get_by_role("grid").get_by_role("rowheader", name=str(run[0]), exact=True).click(button="right")
            page.get_by_role("menuitem", name="Delete rows").click()
            settled(page)
            expect(page.get_by_role("alert")).to_have_count(0)
            expect(page).to_have_url(re.compile(r"[?&]cell=A" + str(run[0])))
        assert last_row(page) == len(keep) + 1
    else:
        new = re.search(r'into a new tab named "([^"]+)"', prompt).group(1)
        right = re.search(r"their columns A to ([A-Z])", prompt).group(1)
        go(page, f"A1:{right}1")
        selected(page).press("Control+c")
        new_tab(page, new)
        cell(page, "A1").click()
        page.keyboard.press("Control+v")
        expect(cell(page, f"{right}1")).not_to_have_text("")
        criteria = []
        for name, test in tests:
            col = f"{tab}!{columns[name]}2:{columns[name]}{last}"
            clause = next(c for c in re.split(r" and (?=the deal|[A-Z])", rule) if c.startswith(name) or (name == "Stage" and c.startswith("the deal")))
            if clause.startswith("the deal is open"):
                criteria.append(f'LEFT({col},6)<>"Closed"')
            elif m := re.fullmatch(r'\w+ is not "([^"]+)"', clause):
                criteria.append(f'{col}<>"{m.group(1)}"')
            elif m := re.fullmatch(r'\w+ is "([^"]+)" or "([^"]+)"', clause):
                criteria.append(f'({col}="{m.group(1)}")+({col}="{m.group(2)}")')
            elif m := re.fullmatch(r"[\w ]+? is before (\w+ \d+, \d{4})", clause):
                day = datetime.strptime(m.group(1), "%B %d, %Y")
                criteria.append(f"{col}<DATE({day.year},{day.month},{day.day})")
            elif m := re.fullmatch(r"\w+ is over \$([\d,]+)", clause):
                criteria.append(f"{col}>{m.group(1).replace(',', '')}")
            elif m := re.fullmatch(r'\w+ is "?([^"]+)"?', clause):
                criteria.append(f'{col}="{m.group(1)}"')
            else:
                raise AssertionError(f"no FILTER for {clause!r}")
        enter(page, "A2", f"=FILTER({tab}!A2:{right}{last},{','.join(criteria)})")
        expect(cell(page, f"A{len(keep) + 1}")).not_to_have_text("")
        expect(cell(page, f"A{len(keep) + 2}")).to_have_text("")
    graded(live_server, task.id)


# --- the page itself

def test_frozen_columns_stay_at_the_left_when_paging_sideways(live_server: Any, env_id: str, page: Page) -> None:
    """View ▸ Freeze ▸ 1 column: paging to the columns past O keeps column A at the left of the
    window, as the frozen header row stays on top; "No columns" unfreezes it."""
    open_sheet(page, live_server, env_id, FORECAST)
    sid = page.url.split("/d/")[1].split("?")[0]
    menu(page, "View")
    page.get_by_role("menuitem", name="Freeze ▸ 1 column").click()
    expect(page.get_by_role("alert")).to_have_count(0)
    page.get_by_role("link", name=re.compile(r"^▶ Columns P")).click()
    expect(cell(page, "P2")).to_be_visible()
    expect(cell(page, "A2")).to_have_text("o0001")  # the frozen column, still at the left
    expect(cell(page, "B2")).to_have_count(0)
    expect(page.get_by_role("grid").get_by_role("columnheader")).to_have_text(["", "A", *[chr(c) for c in range(ord("P"), ord("Z") + 1)]])
    cell(page, "A3").click()
    cell(page, "P3").click(modifiers=["Shift"])  # a selection from the frozen column into the window
    expect(name_box(page)).to_have_value("A3:P3")
    expect(cell(page, "P3")).to_have_class(re.compile(r"\bin-sel\b"))
    got = httpx.get(f"{live_server.base_url}/envs/{env_id}/api/sheets/v4/spreadsheets/{sid}", timeout=10).json()
    assert got["sheets"][0]["properties"]["gridProperties"]["frozenColumnCount"] == 1
    menu(page, "View")
    page.get_by_role("menuitem", name="Freeze ▸ No columns").click()
    expect(cell(page, "A2")).to_have_count(0)
    assert ui_writes(live_server, env_id) == ["sheets.spreadsheets.batchUpdate"] * 2
