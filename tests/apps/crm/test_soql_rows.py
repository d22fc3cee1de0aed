"""SOQL answers checked against rows computed in Python from the seeded org: hundreds of
queries over filters (picklists, numbers, dates and date literals, LIKE, IN, null,
booleans, parent paths, AND/OR/NOT), ordering and windows, aggregates, child subqueries
and semi-joins. Each family runs many queries and reports the first that disagrees."""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict
from datetime import date
from typing import Any

import pytest

from apps.crm.objects import sobject
from apps.crm.soql.dates import date_range
from apps.crm.values import sf_date, sf_datetime

Rows = list[dict[str, Any]]


def ids(rows: Rows) -> list[str]:
    return [r["Id"] for r in rows]


def query_ids(read: Any, soql: str) -> list[str]:
    return [r["Id"] for r in read("crm.query", q=soql)["records"]]


def check_all(read: Any, cases: list[tuple[str, Rows]]) -> None:
    assert len(cases) >= 10, "a family checks many queries"
    for soql, expected in cases:
        got = query_ids(read, soql + " ORDER BY Id")
        assert got == sorted(ids(expected)), f"{soql}: got {len(got)} rows, expected {len(expected)}"


def low(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def test_picklist_equality_is_case_insensitive(read: Any, org: dict[str, Rows]) -> None:
    cases = []
    for obj, field in (("Opportunity", "StageName"), ("Opportunity", "Type"), ("Opportunity", "ForecastCategoryName"),
                       ("Case", "Status"), ("Case", "Priority"), ("Case", "Origin"), ("Lead", "Status"), ("Lead", "LeadSource"),
                       ("Account", "Industry"), ("Account", "Tier__c"), ("Account", "Rating"), ("Task", "Status"), ("Task", "TaskSubtype")):
        rows = org[obj]
        for value in sobject(obj).field(field).picklist:
            cases.append((f"SELECT Id FROM {obj} WHERE {field} = '{value}'", [r for r in rows if r[field] == value]))
            cases.append((f"SELECT Id FROM {obj} WHERE {field} != '{value}'", [r for r in rows if r[field] != value]))
            cases.append((f"SELECT Id FROM {obj} WHERE {field} = '{value.upper()}'", [r for r in rows if low(r[field]) == value.lower()]))
    assert len(cases) > 150
    check_all(read, cases)


def test_number_comparisons(read: Any, org: dict[str, Rows]) -> None:
    ops = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
           "=": lambda a, b: a == b, "!=": lambda a, b: a != b}
    cases = []
    for obj, field in (("Opportunity", "Amount"), ("Account", "AnnualRevenue"), ("Account", "NumberOfEmployees"),
                       ("OpportunityLineItem", "Quantity"), ("Opportunity", "Probability")):
        values = sorted(r[field] for r in org[obj] if r[field] is not None)
        for cut in {values[0], statistics.median_low(values), values[len(values) // 4], values[-1]}:
            literal = int(cut) if float(cut).is_integer() else cut
            for op, test in ops.items():
                expected = [r for r in org[obj] if (r[field] is None and op == "!=") or (r[field] is not None and test(r[field], cut))]
                cases.append((f"SELECT Id FROM {obj} WHERE {field} {op} {literal}", expected))
    check_all(read, cases)


RELATIVE = ("TODAY", "YESTERDAY", "TOMORROW", "LAST_WEEK", "THIS_WEEK", "NEXT_WEEK", "LAST_MONTH", "THIS_MONTH", "NEXT_MONTH",
            "LAST_90_DAYS", "NEXT_90_DAYS", "LAST_QUARTER", "THIS_QUARTER", "NEXT_QUARTER", "LAST_YEAR", "THIS_YEAR", "NEXT_YEAR",
            "THIS_FISCAL_QUARTER", "LAST_FISCAL_QUARTER", "THIS_FISCAL_YEAR")
WITH_N = ("LAST_N_DAYS", "NEXT_N_DAYS", "N_DAYS_AGO", "LAST_N_WEEKS", "NEXT_N_WEEKS", "LAST_N_MONTHS", "NEXT_N_MONTHS",
          "LAST_N_QUARTERS", "NEXT_N_QUARTERS", "LAST_N_YEARS")


def _in_range(op: str, value: str | None, start: str, end: str) -> bool:
    if value is None:
        return op == "!="
    return {"=": start <= value < end, "!=": not start <= value < end, "<": value < start, "<=": value < end,
            ">": value >= end, ">=": value >= start}[op]


def test_date_literals_on_dates_and_datetimes(read: Any, org: dict[str, Rows], today: date) -> None:
    literals = [(name, None) for name in RELATIVE] + [(name, n) for name in WITH_N for n in (1, 3, 30)]
    cases = []
    for name, n in literals:
        start, end = date_range(name, n, today)
        text = f"{name}:{n}" if n is not None else name
        for op in ("=", "<", ">", "!=", ">=", "<="):
            rows = org["Opportunity"]
            cases.append((f"SELECT Id FROM Opportunity WHERE CloseDate {op} {text}",
                          [r for r in rows if _in_range(op, r["CloseDate"], sf_date(start), sf_date(end))]))
        stamps = (sf_datetime(_midnight(start)), sf_datetime(_midnight(end)))
        cases.append((f"SELECT Id FROM Task WHERE CreatedDate = {text}", [r for r in org["Task"] if _in_range("=", r["CreatedDate"], *stamps)]))
    assert len(cases) > 250
    check_all(read, cases)


def _midnight(day: date) -> Any:
    from datetime import UTC, datetime

    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def test_date_and_datetime_literals(read: Any, org: dict[str, Rows]) -> None:
    closes = sorted({r["CloseDate"] for r in org["Opportunity"]})
    cases = []
    for cut in closes[::6]:
        cases.append((f"SELECT Id FROM Opportunity WHERE CloseDate >= {cut}", [r for r in org["Opportunity"] if r["CloseDate"] >= cut]))
        cases.append((f"SELECT Id FROM Opportunity WHERE CloseDate = {cut}", [r for r in org["Opportunity"] if r["CloseDate"] == cut]))
        stamp = f"{cut}T12:00:00Z"
        cases.append((f"SELECT Id FROM Case WHERE CreatedDate < {stamp}", [r for r in org["Case"] if r["CreatedDate"] < f"{cut}T12:00:00.000+0000"]))
    check_all(read, cases)


def test_like_in_null_and_booleans(read: Any, org: dict[str, Rows]) -> None:
    cases = []
    accounts, contacts = org["Account"], org["Contact"]
    for letter in sorted({r["Name"][0] for r in accounts}):
        cases.append((f"SELECT Id FROM Account WHERE Name LIKE '{letter.lower()}%'", [r for r in accounts if r["Name"].lower().startswith(letter.lower())]))
    for part in ("son", "and", "Ltd", "inc", "-"):
        cases.append((f"SELECT Id FROM Account WHERE Name LIKE '%{part}%'", [r for r in accounts if part.lower() in r["Name"].lower()]))
        cases.append((f"SELECT Id FROM Account WHERE NOT Name LIKE '%{part}%'", [r for r in accounts if part.lower() not in r["Name"].lower()]))
    for domain in sorted({r["Email"].split("@")[1] for r in contacts})[:10]:
        cases.append((f"SELECT Id FROM Contact WHERE Email LIKE '%@{domain}'", [r for r in contacts if r["Email"].endswith("@" + domain)]))
    stages = sobject("Opportunity").field("StageName").picklist
    for a, b in zip(stages, stages[1:]):
        cases.append((f"SELECT Id FROM Opportunity WHERE StageName IN ('{a}', '{b}')", [r for r in org["Opportunity"] if r["StageName"] in (a, b)]))
        cases.append((f"SELECT Id FROM Opportunity WHERE StageName NOT IN ('{a}', '{b}')", [r for r in org["Opportunity"] if r["StageName"] not in (a, b)]))
    for obj, field in (("Account", "Customer_Success_Manager__c"), ("Opportunity", "NextStep"), ("Case", "ContactId"),
                       ("Lead", "ConvertedOpportunityId"), ("Task", "WhoId"), ("Case", "ClosedDate"), ("Lead", "Rating")):
        cases.append((f"SELECT Id FROM {obj} WHERE {field} = null", [r for r in org[obj] if r[field] is None]))
        cases.append((f"SELECT Id FROM {obj} WHERE {field} != null", [r for r in org[obj] if r[field] is not None]))
    for obj, field in (("Opportunity", "IsClosed"), ("Opportunity", "IsWon"), ("Case", "IsClosed"), ("User", "IsActive"),
                       ("Lead", "IsConverted"), ("Task", "IsClosed")):
        for flag in (True, False):
            cases.append((f"SELECT Id FROM {obj} WHERE {field} = {str(flag).lower()}", [r for r in org[obj] if bool(r[field]) is flag]))
    industries = sorted({r["Industry"] for r in accounts})[:3]
    quoted = ", ".join(f"'{i}'" for i in industries)
    cases.append((f"SELECT Id FROM Account WHERE Industry IN ({quoted})", [r for r in accounts if r["Industry"] in industries]))
    check_all(read, cases)


def test_parent_paths_filter_and_select(read: Any, org: dict[str, Rows]) -> None:
    accounts = {r["Id"]: r for r in org["Account"]}
    users = {r["Id"]: r for r in org["User"]}
    cases = []
    for industry in sorted({r["Industry"] for r in accounts.values()}):
        cases.append((f"SELECT Id FROM Contact WHERE Account.Industry = '{industry}'",
                      [r for r in org["Contact"] if accounts[r["AccountId"]]["Industry"] == industry]))
    for tier in ("Enterprise", "Mid-Market", "SMB"):
        cases.append((f"SELECT Id FROM Opportunity WHERE Account.Tier__c = '{tier}'",
                      [r for r in org["Opportunity"] if accounts[r["AccountId"]]["Tier__c"] == tier]))
    for owner in sorted({r["OwnerId"] for r in org["Opportunity"]}):
        name = users[owner]["Name"].replace("'", "\\'")
        cases.append((f"SELECT Id FROM Opportunity WHERE Owner.Name = '{name}'", [r for r in org["Opportunity"] if r["OwnerId"] == owner]))
        cases.append((f"SELECT Id FROM Case WHERE Account.Owner.Name = '{name}'",
                      [r for r in org["Case"] if accounts[r["AccountId"]]["OwnerId"] == owner]))
    check_all(read, cases)
    answer = read("crm.query", q="SELECT Id, Name, Account.Name, Account.Owner.Name, Account.Owner.Manager.Email FROM Opportunity")
    assert answer["totalSize"] == len(org["Opportunity"])
    for record in answer["records"]:
        account = accounts[record["Account"]["attributes"]["url"].rsplit("/", 1)[1]]
        owner = users[account["OwnerId"]]
        assert record["Account"]["Name"] == account["Name"]
        assert record["Account"]["Owner"]["Name"] == owner["Name"]
        manager = users.get(owner["ManagerId"] or "")
        assert record["Account"]["Owner"]["Manager"] == (None if manager is None else {
            "attributes": {"type": "User", "url": f"/services/data/v62.0/sobjects/User/{manager['Id']}"}, "Email": manager["Email"]})


def test_and_or_not_combinations(read: Any, org: dict[str, Rows]) -> None:
    rows = org["Opportunity"]
    amounts = sorted(r["Amount"] for r in rows)
    atoms = [
        ("IsClosed = false", lambda r: not r["IsClosed"]),
        ("StageName = 'Closed Won'", lambda r: r["StageName"] == "Closed Won"),
        (f"Amount > {int(statistics.median(amounts))}", lambda r: r["Amount"] > int(statistics.median(amounts))),
        ("Type = 'New Business'", lambda r: r["Type"] == "New Business"),
        ("NextStep = null", lambda r: r["NextStep"] is None),
        ("Name LIKE '%Renewal%'", lambda r: "renewal" in r["Name"].lower()),
        ("Probability >= 50", lambda r: r["Probability"] >= 50),
    ]
    rng = random.Random(7)
    cases = []
    for _ in range(120):
        (ta, fa), (tb, fb), (tc, fc) = rng.sample(atoms, 3)
        shape = rng.randrange(4)
        if shape == 0:
            text, test = f"({ta} AND {tb}) OR {tc}", lambda r, fa=fa, fb=fb, fc=fc: (fa(r) and fb(r)) or fc(r)
        elif shape == 1:
            text, test = f"{ta} AND ({tb} OR {tc})", lambda r, fa=fa, fb=fb, fc=fc: fa(r) and (fb(r) or fc(r))
        elif shape == 2:
            text, test = f"NOT ({ta} OR {tb}) AND {tc}", lambda r, fa=fa, fb=fb, fc=fc: not (fa(r) or fb(r)) and fc(r)
        else:
            text, test = f"NOT {ta} AND NOT {tb}", lambda r, fa=fa, fb=fb: not fa(r) and not fb(r)
        cases.append((f"SELECT Id FROM Opportunity WHERE {text}", [r for r in rows if test(r)]))
    check_all(read, cases)


def test_order_by_with_nulls_limit_and_offset(read: Any, org: dict[str, Rows]) -> None:
    accounts = org["Account"]
    by_name = sorted(accounts, key=lambda r: (r["Name"].lower(), r["Id"]))
    for limit, offset in ((5, 0), (10, 3), (7, 20), (50, 0)):
        got = query_ids(read, f"SELECT Id FROM Account ORDER BY Name LIMIT {limit} OFFSET {offset}")
        assert got == ids(by_name[offset:offset + limit])
    desc = sorted(accounts, key=lambda r: (-r["AnnualRevenue"], r["Id"]))
    assert query_ids(read, "SELECT Id FROM Account ORDER BY AnnualRevenue DESC LIMIT 12") == ids(desc[:12])
    opps = org["Opportunity"]
    nulls_first = sorted(opps, key=lambda r: (r["NextStep"] is not None, (r["NextStep"] or "").lower(), r["Id"]))
    assert query_ids(read, "SELECT Id FROM Opportunity ORDER BY NextStep NULLS FIRST") == ids(nulls_first)
    nulls_last = sorted(opps, key=lambda r: (r["NextStep"] is None, [-ord(c) for c in (r["NextStep"] or "").lower()], r["Id"]))
    assert query_ids(read, "SELECT Id FROM Opportunity ORDER BY NextStep DESC NULLS LAST") == ids(nulls_last)
    assert query_ids(read, "SELECT Id FROM Opportunity ORDER BY NextStep DESC") == ids(nulls_last), "DESC puts nulls last"
    # The other way round from where each backend keeps nulls on its own (SQLite: smallest; PostgreSQL: largest).
    up_nulls_last = sorted(opps, key=lambda r: (r["NextStep"] is None, (r["NextStep"] or "").lower(), r["Id"]))
    assert query_ids(read, "SELECT Id FROM Opportunity ORDER BY NextStep ASC NULLS LAST") == ids(up_nulls_last)
    down_nulls_first = sorted(opps, key=lambda r: (r["NextStep"] is not None, [-ord(c) for c in (r["NextStep"] or "").lower()], r["Id"]))
    assert query_ids(read, "SELECT Id FROM Opportunity ORDER BY NextStep DESC NULLS FIRST") == ids(down_nulls_first)
    assert any(r["NextStep"] is None for r in opps) and any(r["NextStep"] for r in opps)
    two_keys = sorted(opps, key=lambda r: (r["StageName"].lower(), -r["Amount"], r["Id"]))
    assert query_ids(read, "SELECT Id FROM Opportunity ORDER BY StageName ASC, Amount DESC") == ids(two_keys)


def test_the_open_pipeline_by_amount_keeps_ties_in_id_order_and_nulls_last(write: Any) -> None:
    """The open pipeline by amount reads an index in its order: ties and empty amounts land as
    a sort would put them, with a LIMIT or without, and a closed deal drops out."""
    soql = "SELECT Id, Amount FROM Opportunity WHERE IsClosed = false ORDER BY Amount DESC"
    top = write("crm.query", q=f"{soql} LIMIT 1")["records"][0]["Amount"]
    made = [write("crm.create", sobject="Opportunity", record={"Name": f"Pipeline {n}", "StageName": "Prospecting",
                                                              "CloseDate": "2026-12-01", "Amount": amount})["id"]
            for n, amount in enumerate((top, None, top, 1.0, None))]
    write("crm.update", sobject="Opportunity", id=made[3], record={"StageName": "Closed Lost"})
    every = write("crm.query", q=soql)["records"]
    assert {made[0], made[1], made[2], made[4]} <= set(ids(every)) and made[3] not in ids(every), "closed deals drop out"
    assert ids(every) == ids(sorted(every, key=lambda r: (r["Amount"] is None, -(r["Amount"] or 0), r["Id"])))
    tied = [r for r in every if r["Amount"] == top]
    assert ids(every[:len(tied)]) == sorted(ids(tied)) and {made[0], made[2]} <= set(ids(tied)), "ties: in Id order"
    assert ids(every)[-2:] == sorted([made[1], made[4]]), "no amount: last, in Id order"
    for limit in (1, 3, 7):
        assert query_ids(write, f"{soql} LIMIT {limit}") == ids(every[:limit])


def test_aggregates_group_by_and_having(read: Any, org: dict[str, Rows]) -> None:
    opps = org["Opportunity"]
    answer = read("crm.query", q="SELECT StageName, COUNT(Id) n, SUM(Amount) total, AVG(Amount), MAX(CloseDate) FROM Opportunity GROUP BY StageName")
    groups: dict[str, Rows] = defaultdict(list)
    for r in opps:
        groups[r["StageName"]].append(r)
    assert {g["StageName"] for g in answer["records"]} == set(groups)
    # No ORDER BY: the groups still come in one order on every backend (their keys', as SQLite
    # gives them), so the same call answers the same whatever the database's plan.
    assert [g["StageName"] for g in answer["records"]] == sorted(groups)
    for g in answer["records"]:
        rows = groups[g["StageName"]]
        assert g["attributes"] == {"type": "AggregateResult"}
        assert g["n"] == len(rows)
        assert g["total"] == pytest.approx(sum(r["Amount"] for r in rows))
        assert g["expr0"] == pytest.approx(sum(r["Amount"] for r in rows) / len(rows))
        assert g["expr1"] == max(r["CloseDate"] for r in rows)
    owners = Counter(r["OwnerId"] for r in opps)
    having = read("crm.query", q="SELECT OwnerId, COUNT(Id) FROM Opportunity GROUP BY OwnerId HAVING COUNT(Id) > 3 ORDER BY COUNT(Id) DESC, OwnerId")
    assert [(g["OwnerId"], g["expr0"]) for g in having["records"]] == sorted(((o, n) for o, n in owners.items() if n > 3), key=lambda p: (-p[1], p[0]))
    by_year_quarter = Counter((int(r["CloseDate"][:4]), (int(r["CloseDate"][5:7]) + 2) // 3) for r in opps if r["IsWon"])
    calendar = read("crm.query", q="SELECT CALENDAR_YEAR(CloseDate) y, CALENDAR_QUARTER(CloseDate) q, COUNT(Id) n FROM Opportunity "
                                   "WHERE IsWon = true GROUP BY CALENDAR_YEAR(CloseDate), CALENDAR_QUARTER(CloseDate)")
    assert {(g["y"], g["q"]): g["n"] for g in calendar["records"]} == dict(by_year_quarter)
    assert [(g["y"], g["q"]) for g in calendar["records"]] == sorted(by_year_quarter)
    months = Counter(int(r["CloseDate"][5:7]) for r in opps)
    by_month = read("crm.query", q="SELECT CALENDAR_MONTH(CloseDate), COUNT(Id) FROM Opportunity GROUP BY CALENDAR_MONTH(CloseDate)")
    assert {g["expr0"]: g["expr1"] for g in by_month["records"]} == dict(months)
    assert read("crm.query", q="SELECT COUNT() FROM Opportunity WHERE IsClosed = false") == {
        "totalSize": sum(1 for r in opps if not r["IsClosed"]), "done": True, "records": []}
    distinct = read("crm.query", q="SELECT COUNT_DISTINCT(AccountId) FROM Opportunity")["records"][0]["expr0"]
    assert distinct == len({r["AccountId"] for r in opps})
    industry = read("crm.query", q="SELECT Account.Industry, SUM(Amount) FROM Opportunity WHERE IsWon = true GROUP BY Account.Industry")
    accounts = {r["Id"]: r for r in org["Account"]}
    expected: dict[str, float] = defaultdict(float)
    for r in opps:
        if r["IsWon"]:
            expected[accounts[r["AccountId"]]["Industry"]] += r["Amount"]
    assert {g["Industry"]: pytest.approx(g["expr0"]) for g in industry["records"]} == dict(expected)


def test_child_subqueries_and_semi_joins(read: Any, org: dict[str, Rows]) -> None:
    contacts: dict[str, Rows] = defaultdict(list)
    for c in org["Contact"]:
        contacts[c["AccountId"]].append(c)
    answer = read("crm.query", q="SELECT Id, (SELECT Id, LastName FROM Contacts ORDER BY LastName) FROM Account")
    for record in answer["records"]:
        expected = sorted(contacts.get(record["Id"], []), key=lambda c: (c["LastName"].lower(), c["Id"]))
        if not expected:
            assert record["Contacts"] is None
            continue
        assert record["Contacts"]["totalSize"] == len(expected) and record["Contacts"]["done"] is True
        assert [c["Id"] for c in record["Contacts"]["records"]] == ids(expected)
    items: dict[str, Rows] = defaultdict(list)
    for item in org["OpportunityLineItem"]:
        items[item["OpportunityId"]].append(item)
    lines = read("crm.query", q="SELECT Id, Amount, (SELECT Quantity, TotalPrice, PricebookEntry.Product2.Name FROM OpportunityLineItems) FROM Opportunity")
    for record in lines["records"]:
        rows = record["OpportunityLineItems"]["records"]
        assert sum(r["TotalPrice"] for r in rows) == pytest.approx(record["Amount"]), "pipeline amounts are their line items"
        assert [r["Quantity"] for r in rows] == [i["Quantity"] for i in items[record["Id"]]]
    won = {r["AccountId"] for r in org["Opportunity"] if r["StageName"] == "Closed Won"}
    cases = [
        ("SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Opportunity WHERE StageName = 'Closed Won')",
         [a for a in org["Account"] if a["Id"] in won]),
        ("SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM Opportunity WHERE StageName = 'Closed Won')",
         [a for a in org["Account"] if a["Id"] not in won]),
    ]
    for status in ("New", "Working", "Escalated", "Closed"):
        with_status = {c["AccountId"] for c in org["Case"] if c["Status"] == status}
        cases.append((f"SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Case WHERE Status = '{status}')",
                      [a for a in org["Account"] if a["Id"] in with_status]))
    for stage in sobject("Opportunity").field("StageName").picklist:
        having = {o["AccountId"] for o in org["Opportunity"] if o["StageName"] == stage}
        cases.append((f"SELECT Id FROM Contact WHERE AccountId IN (SELECT AccountId FROM Opportunity WHERE StageName = '{stage}')",
                      [c for c in org["Contact"] if c["AccountId"] in having]))
    check_all(read, cases)


def test_polymorphic_what_and_who(read: Any, org: dict[str, Rows]) -> None:
    names = {r["Id"]: r["Name"] for obj in ("Account", "Opportunity", "Contact", "Lead") for r in org[obj]}
    names.update({r["Id"]: r["CaseNumber"] for r in org["Case"]})
    answer = read("crm.query", q="SELECT Id, What.Type, What.Name, Who.Name FROM Task")
    assert answer["totalSize"] == len(org["Task"])
    tasks = {t["Id"]: t for t in org["Task"]}
    for record in answer["records"]:
        task = tasks[record["Id"]]
        if task["WhatId"] is None:
            assert record["What"] is None
        else:
            assert record["What"]["Name"] == names[task["WhatId"]]
            assert record["What"]["Type"] == record["What"]["attributes"]["type"]
        assert (record["Who"] or {}).get("Name") == names.get(task["WhoId"])
    cases = [(f"SELECT Id FROM Task WHERE What.Type = '{kind}'", [t for t in org["Task"] if t["WhatId"] and t["WhatId"].startswith(sobject(kind).prefix)])
             for kind in ("Account", "Opportunity", "Case")]
    cases += [(f"SELECT Id FROM Task WHERE WhatId = '{t['WhatId'][:15]}'", [x for x in org["Task"] if x["WhatId"] == t["WhatId"]])
              for t in org["Task"][:10] if t["WhatId"]]
    check_all(read, cases)


def test_includes_and_excludes_on_a_multi_select_picklist(read: Any, org: dict[str, Rows]) -> None:
    def chosen(r: dict[str, Any]) -> set[str]:
        return {v.lower() for v in (r["Product_Families__c"] or "").split(";") if v}

    families = ("Platform", "Add-on", "Services")
    groups = [(f,) for f in families] + [("Platform;Add-on",), ("Platform", "Services"), ("Add-on;Services", "Platform")]
    cases = []
    for group in groups:
        listed = ", ".join(f"'{g}'" for g in group)
        match = [r for r in org["Account"] if any({p.lower() for p in g.split(";")} <= chosen(r) for g in group)]
        cases.append((f"SELECT Id FROM Account WHERE Product_Families__c INCLUDES ({listed})", match))
        cases.append((f"SELECT Id FROM Account WHERE Product_Families__c EXCLUDES ({listed})", [r for r in org["Account"] if r not in match]))
    assert any(expected for _, expected in cases[::2]), "some accounts have bought something"
    check_all(read, cases)


def test_sosl_finds_words_in_the_scope_and_keeps_limits(read: Any, org: dict[str, Rows]) -> None:
    word = sorted(org["Account"], key=lambda r: r["Name"])[0]["Name"].split()[0].strip(",")
    found = read("crm.search", q=f"FIND {{{word}}} IN NAME FIELDS RETURNING Account(Id, Name), Contact(Id, Name)")["searchRecords"]
    expected = {r["Id"] for r in org["Account"] if word.lower() in r["Name"].lower()} | {r["Id"] for r in org["Contact"] if word.lower() in r["Name"].lower()}
    assert {r["Id"] for r in found} == expected
    emails = read("crm.search", q="FIND {example*} IN EMAIL FIELDS RETURNING Lead(Email)")["searchRecords"]
    assert emails == [] or all("example" in r["Email"].lower() for r in emails)
    capped = read("crm.search", q="FIND {Platform} RETURNING Opportunity(Name LIMIT 5), Account(Name) LIMIT 3")["searchRecords"]
    assert len(capped) == 3 and all("platform" in r["Name"].lower() for r in capped)
