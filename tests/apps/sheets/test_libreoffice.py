"""Our formula results against LibreOffice Calc's on generated workbooks.

Workbooks of random data and formulas over it are written with openpyxl (through our own
.xlsx formula spelling), recalculated by one headless `soffice --convert-to xlsx` run over
the whole batch (it is slow to start), and read back with the values LibreOffice computed.
The same files are imported through `sheets.importXlsx`, so the import path is under test too.
LibreOffice 7.x lacks XLOOKUP, FILTER, SORT and UNIQUE; those are checked against known values
in test_formulas.py. LibreOffice has no boolean type (TRUE is the number 1), so COUNT over
booleans differs there by design (Google Sheets and Excel do not count them); none is counted here.
"""

from __future__ import annotations

import base64
import math
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook

from apps.sheets.service import SheetsService
from apps.sheets.xlsx import to_file_formula
from officegym.core.env_store import Env
from officegym.gym import Gym

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
WORKBOOKS = 3
ROWS = 30
REGIONS = ("East", "West", "North", "South")

FORMULAS = [
    "=SUM(Data!C2:C{n})", "=AVERAGE(Data!C2:C{n})", "=COUNT(Data!A1:D{n})", "=COUNTA(Data!A1:A{n})", "=MIN(Data!C2:C{n})",
    "=MAX(Data!D2:D{n})", "=ROUND(Data!C2/7,2)", "=ROUND(-Data!C3/3,0)", "=IF(Data!C2>Data!C3,\"up\",\"down\")",
    "=IFS(Data!C4>500,\"high\",Data!C4>100,\"mid\",TRUE,\"low\")", "=IFERROR(Data!C2/(Data!C3-Data!C3),\"div\")",
    "=AND(Data!C2>0,Data!D2>0)", "=OR(Data!C2>900,Data!D2<0)", "=NOT(Data!E2)", "=SUMIF(Data!B2:B{n},\"East\",Data!C2:C{n})",
    "=SUMIFS(Data!C2:C{n},Data!B2:B{n},\"West\",Data!D2:D{n},\">50\")", "=COUNTIF(Data!C2:C{n},\">=500\")",
    "=COUNTIFS(Data!B2:B{n},\"<>North\",Data!E2:E{n},TRUE)", "=AVERAGEIF(Data!B2:B{n},\"South\",Data!D2:D{n})",
    "=AVERAGEIFS(Data!C2:C{n},Data!D2:D{n},\">20\")", "=VLOOKUP(Data!A5,Data!A2:D{n},3,FALSE)", "=HLOOKUP(\"Amount\",Data!A1:E{n},4,FALSE)",
    "=INDEX(Data!A2:E{n},3,4)", "=MATCH(Data!A7,Data!A2:A{n},0)", "=CONCAT(Data!A2,\"-\",Data!B2)", "=Data!A2&\" in \"&Data!B2",
    "=TEXTJOIN(\",\",TRUE,Data!B2:B5)", "=LEFT(Data!A3,3)", "=RIGHT(Data!A3,2)", "=MID(Data!A4,2,3)", "=LEN(Data!A5)", "=UPPER(Data!B2)",
    "=LOWER(Data!A2)", "=TRIM(\"  spaced   out  \")", "=TEXT(Data!C2,\"#,##0.00\")", "=TEXT(Data!F2,\"yyyy-mm-dd\")", "=VALUE(\"1,234.5\")",
    "=DATE(2026,14,3)", "=YEAR(Data!F3)", "=MONTH(Data!F3)", "=DAY(Data!F3)", "=EOMONTH(Data!F4,2)", "=NETWORKDAYS(Data!F2,Data!F5)",
    "=Data!C2*Data!D2-Data!C3/4+2^3", "=-Data!C2^2", "=Data!C2>=Data!C3", "=1/0", "=VLOOKUP(\"nobody\",Data!A2:C{n},2,FALSE)",
    "=SUMPRODUCT(Data!C2:C{n},Data!D2:D{n})", "=MINIFS(Data!C2:C{n},Data!B2:B{n},\"East\")", "=MAXIFS(Data!D2:D{n},Data!B2:B{n},\"West\")",
    "=MOD(Data!C2,7)", "=ABS(-Data!C3)", "=INT(Data!D2/3)", "=MEDIAN(Data!C2:C{n})", "=IFNA(MATCH(\"zz\",Data!A2:A{n},0),-1)",
    # scalar functions applied cell by cell over ranges (SUMPRODUCT evaluates its arguments as arrays in both products)
    "=SUMPRODUCT((LEFT(Data!B2:B{n},2)=\"Ea\")*Data!C2:C{n})", "=SUMPRODUCT(LEN(Data!A2:A{n}))",
    "=SUMPRODUCT((YEAR(Data!F2:F{n})=2026)*Data!D2:D{n})", "=SUMPRODUCT(ROUND(Data!D2:D{n},0)*(UPPER(Data!B2:B{n})=\"WEST\"))",
    "=SUMPRODUCT(IF(Data!C2:C{n}>500,1,0))", "=SUMPRODUCT(MOD(Data!C2:C{n},7)*(RIGHT(Data!A2:A{n},1)=\"3\"))",
    # a range of criteria or lookup keys, one answer per cell (SUMPRODUCT evaluates as arrays in both)
    "=SUMPRODUCT(COUNTIF(Data!B2:B{n},Data!B2:B{n}))", "=SUMPRODUCT(1/COUNTIF(Data!B2:B{n},Data!B2:B{n}))",
    "=SUMPRODUCT(SUMIF(Data!B2:B{n},{{\"East\",\"West\"}},Data!C2:C{n}))", "=SUMPRODUCT(COUNTIFS(Data!B2:B{n},Data!B2:B5,Data!E2:E{n},TRUE))",
    "=SUMPRODUCT(AVERAGEIF(Data!B2:B{n},Data!B2:B4,Data!D2:D{n}))", "=SUMPRODUCT(--ISNUMBER(MATCH(Data!B2:B{n},{{\"East\",\"North\"}},0)))",
    "=SUMPRODUCT(VLOOKUP(Data!A2:A4,Data!A2:C{n},3,FALSE))", "=LOOKUP(2,1/(Data!B2:B{n}=\"East\"),Data!A2:A{n})",
    # ranking, spread, text search, choosing, positions, weeks
    "=LARGE(Data!C2:C{n},3)", "=SMALL(Data!D2:D{n},2)", "=RANK(Data!C5,Data!C2:C{n})", "=RANK(Data!D7,Data!D2:D{n},1)",
    "=STDEV(Data!C2:C{n})", "=VAR(Data!D2:D{n})", "=STDEVP(Data!C2:C{n})", "=VARP(Data!D2:D{n})",
    "=IFERROR(FIND(\"b\",Data!A3),0)", "=IFERROR(SEARCH(\"A\",Data!B2),-1)", "=EXACT(Data!B2,\"East\")", "=CHOOSE(2,Data!A2,Data!B2,Data!C2)",
    "=ROW(Data!C7)", "=COLUMN(Data!D2)", "=SUMPRODUCT(ROW(Data!A2:A{n}))", "=WEEKNUM(Data!F2)", "=WEEKNUM(Data!F3,2)",
    "=CEILING(Data!D2,0.5)", "=FLOOR(Data!D3,0.25)", "=CEILING(-Data!D4,1)", "=FLOOR(-Data!D4,1)",
    "=COUNTIFS(Data!F2:F{n},\">=\"&DATE(2026,3,1),Data!F2:F{n},\"<\"&DATE(2026,6,1))", "=SUMIFS(Data!C2:C{n},Data!F2:F{n},\">=\"&DATE(2026,1,1))",
    "=DATEVALUE(TEXT(Data!F2,\"yyyy-mm-dd\"))",
    "=DATEDIF(Data!F2,Data!F3+400,\"Y\")", "=DATEDIF(Data!F2,Data!F3+400,\"M\")", "=DATEDIF(Data!F2,Data!F3+400,\"D\")",
    "=DATEDIF(Data!F4,Data!F5+400,\"MD\")", "=DATEDIF(Data!F4,Data!F5+400,\"YM\")", "=DATEDIF(Data!F4,Data!F5+400,\"YD\")",
    "=HOUR(Data!D2/24)", "=MINUTE(Data!D3/100)", "=SECOND(Data!D4/1000)", "=TIME(MOD(Data!C2,30),Data!C3,Data!C4)",
    "=TRUNC(Data!D2/7,2)", "=TRUNC(-Data!D3)", "=SUMSQ(Data!D2:D{n})", "=PERCENTILE(Data!C2:C{n},0.3)", "=QUARTILE(Data!D2:D{n},3)",
    "=SUMPRODUCT(MMULT(Data!C2:D{n},{{1;2}}))", "=ISERR(Data!C2/(Data!C3-Data!C3))", "=ISERR(NA())",
    # references worked out as the formula runs, and a sum range given by its first cell (read in the
    # tested range's shape)
    "=SUM(OFFSET(Data!C1,1,0,5,1))", "=OFFSET(Data!A1,3,2)", "=SUM(OFFSET(Data!C2,0,0,COUNTA(Data!C2:C{n}),2))",
    "=OFFSET(Data!D9,-2,-1)", "=SUMPRODUCT(ROW(OFFSET(Data!A2,2,0,3,1)))", "=INDIRECT(\"Data!C\"&5)",
    "=SUM(INDIRECT(\"Data!D2:D\"&{n}))", "=ROW(INDIRECT(\"Data!B\"&(3+4)))", "=INDIRECT(\"Data!R4C3\",FALSE)",
    "=SUMIF(Data!B2:B{n},\"East\",Data!C2)", "=AVERAGEIF(Data!B2:B{n},\"West\",Data!D2)", "=SUMIF(Data!B2:B{n},\"North\",Data!C2:C5)",
    # functions that answered #NAME? before (MODE with one most frequent value: on a tie Calc gives the
    # smallest, Google Sheets and Excel the first)
    "=N(Data!C2)+N(Data!A2)", "=T(Data!A3)&T(Data!C3)", "=REPT(Data!B2,2)", "=CHAR(65+MOD(Data!C2,26))", "=CODE(Data!A4)",
    "=SIGN(Data!C2-500)", "=ROUND(PI()*Data!D2,6)", "=EXP(Data!D3/50)", "=LN(Data!C4)", "=LOG(Data!C5,2)", "=LOG(Data!C6)", "=LOG10(Data!C7)",
    "=MROUND(Data!C2,7)", "=MROUND(Data!D3,0.25)", "=ISEVEN(Data!C2)", "=ISODD(Data!C3)", "=SUBTOTAL(9,Data!C2:C{n})",
    "=SUBTOTAL(1,Data!D2:D{n})", "=SUBTOTAL(104,Data!C2:C{n})", "=SUBTOTAL(3,Data!A1:A{n})", "=WORKDAY(Data!F2,10)",
    "=WORKDAY(Data!F3,-7)", "=WORKDAY(Data!F4,15,Data!F5:F8)", "=ADDRESS(Data!C2,3)", "=ADDRESS(7,Data!C3,4)", "=ADDRESS(2,3,2)",
    "=MODE(Data!C2,Data!C3,Data!C2,Data!C4)", "=MODE.SNGL(Data!C5,Data!C2:C4,Data!C5)", "=GEOMEAN(Data!C2:C{n})", "=CORREL(Data!C2:C{n},Data!D2:D{n})",
    "=PEARSON(Data!D2:D{n},Data!C2:C{n})", "=RSQ(Data!C2:C{n},Data!D2:D{n})", "=SLOPE(Data!C2:C{n},Data!D2:D{n})",
    "=INTERCEPT(Data!C2:C{n},Data!D2:D{n})", "=FORECAST(50,Data!C2:C{n},Data!D2:D{n})", "=FORECAST.LINEAR(Data!D9,Data!C2:C{n},Data!D2:D{n})",
    "=PMT(0.05/12,Data!C2,Data!C3*100)", "=PMT(0.04,10,-Data!C4,1000,1)", "=FV(0.03/12,Data!C5,-Data!D5)", "=FV(0.02,12,-100,-Data!C6,1)",
    "=PV(0.05,Data!C2/10,-Data!D3)", "=PV(0.06,20,-500,10000,1)", "=NPV(0.08,Data!C2:C8)", "=NPV(0.1,-Data!C2,Data!C3,Data!C4)",
    "=TIMEVALUE(\"14:30\")", "=TIMEVALUE(\"2:15:30 PM\")",
]


def make_workbook(seed: int, path: Path) -> list[str]:
    rng = random.Random(f"sheets-lo|{seed}")
    wb = Workbook()
    data = wb.active
    data.title = "Data"
    data.append(["Name", "Region", "Amount", "Units", "Active", "Date"])
    for i in range(ROWS):
        data.append([f"{rng.choice(['ann', 'bob', 'cy', 'di', 'ed'])}{i}", rng.choice(REGIONS), rng.randint(1, 1000),
                     round(rng.uniform(0, 100), 2), rng.random() < 0.5, 46000 + rng.randint(0, 400)])
    calc = wb.create_sheet("Calc")
    formulas = [f.format(n=ROWS + 1) for f in FORMULAS]
    for i, formula in enumerate(formulas, start=1):
        calc.cell(row=i, column=1, value=to_file_formula(formula))
    wb.save(path)
    return formulas


@pytest.fixture(scope="module")
def libreoffice_results(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[bytes, list[str], list[Any]]]:
    if SOFFICE is None:
        pytest.skip("LibreOffice Calc is not installed (make libreoffice)")
    folder = tmp_path_factory.mktemp("lo")
    out = folder / "out"
    files, formulas = [], []
    for seed in range(WORKBOOKS):
        path = folder / f"book{seed}.xlsx"
        formulas.append(make_workbook(seed, path))
        files.append(path)
    profile = folder / "profile"
    subprocess.run([SOFFICE, f"-env:UserInstallation=file://{profile}", "--headless", "--calc", "--convert-to", "xlsx",
                    "--outdir", str(out), *map(str, files)], check=True, capture_output=True, timeout=180)
    results = []
    for path, listed in zip(files, formulas):
        computed = load_workbook(out / path.name, data_only=True)["Calc"]
        results.append((path.read_bytes(), listed, [computed.cell(row=i, column=1).value for i in range(1, len(listed) + 1)]))
    return results


def same(ours: Any, theirs: Any) -> bool:
    if isinstance(theirs, bool) or isinstance(ours, bool):
        return ours == theirs
    if isinstance(theirs, (int, float)) and isinstance(ours, (int, float)):
        return math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9)
    return ours == theirs


def test_formula_results_agree_with_libreoffice(gym: Gym, env: Env, libreoffice_results: list[tuple[bytes, list[str], list[Any]]]) -> None:
    disagreements = []
    for content, formulas, expected in libreoffice_results:
        with gym.store.session(env) as db:
            service = SheetsService(db)
            imported = service.import_xlsx(base64.b64encode(content).decode(), "generated")
            values = service.values_get(imported["spreadsheetId"], f"Calc!A1:A{len(formulas)}", valueRenderOption="UNFORMATTED_VALUE")["values"]
        for formula, row, theirs in zip(formulas, values, expected):
            ours = row[0] if row else None
            if not same(ours, theirs):
                disagreements.append(f"{formula}: ours {ours!r}, LibreOffice {theirs!r}")
    assert not disagreements, "\n".join(disagreements)
