"""Bad SOQL and SOSL get Salesforce's errors: MALFORMED_QUERY pointing at the row and
column, INVALID_FIELD naming the field, INVALID_TYPE naming the object, and the rules of
aggregate queries, date literals and typed filters."""

from __future__ import annotations

from typing import Any

import pytest

from apps.crm.errors import CrmError

MALFORMED = [
    ("SELECT Id FRM Account", 1, 11),
    ("SELECT Id FROM Account WHERE", 1, 29),
    ("SELECT FROM Account", 1, 13),
    ("SELECT Id, FROM Account", 1, 17),
    ("SELECT Id FROM Account WHERE Name = 'x", 1, 37),
    ("SELECT Id FROM Account LIMIT -1", 1, 30),
    ("SELECT Id FROM Account ORDER Name", 1, 30),
    ("SELECT Id\nFROM Account\nWHERE Name == 'x'", 3, 13),
    ("DELETE FROM Account", 1, 1),
    ("SELECT Id FROM Account WHERE (Name = 'x'", 1, 41),
    ("SELECT Id FROM Account LIMIT 5 LIMIT 6", 1, 32),
    ("SELECT Id FROM Account GROUP BY", 1, 32),
    ("SELECT Id FROM Account WHERE Name IN ()", 1, 39),
    ("SELECT COUNT( FROM Account", 1, 20),
]


def error_of(read: Any, **raw: Any) -> CrmError:
    with pytest.raises(CrmError) as caught:
        read("crm.query", **raw)
    return caught.value


@pytest.mark.parametrize(("soql", "row", "column"), MALFORMED)
def test_malformed_queries_point_at_the_spot(read: Any, soql: str, row: int, column: int) -> None:
    error = error_of(read, q=soql)
    assert error.code == "MALFORMED_QUERY"
    assert f"ERROR at Row:{row}:Column:{column}" in error.message, error.message


@pytest.mark.parametrize(("soql", "code", "named"), [
    ("SELECT Nme FROM Account", "INVALID_FIELD", "Nme"),
    ("SELECT Id FROM Account WHERE Industri = 'x'", "INVALID_FIELD", "Industri"),
    ("SELECT Account.Nam FROM Contact", "INVALID_FIELD", "Nam"),
    ("SELECT Acount.Name FROM Contact", "INVALID_FIELD", "Acount"),
    ("SELECT Id FROM Acount", "INVALID_TYPE", "Acount"),
    ("SELECT Id, (SELECT Id FROM Contactz) FROM Account", "INVALID_TYPE", "Contactz"),
    ("SELECT What.Subject FROM Task", "INVALID_FIELD", "What.Subject"),
    ("SELECT Id FROM Opportunity WHERE CloseDate > '2026-01-01'", "INVALID_FIELD", "CloseDate"),
    ("SELECT Id FROM Opportunity WHERE Amount > '5'", "INVALID_FIELD", "Amount"),
    ("SELECT Id FROM Opportunity WHERE IsWon = 'true'", "INVALID_FIELD", "IsWon"),
    ("SELECT Id FROM Opportunity WHERE Name = 5", "INVALID_FIELD", "Name"),
    ("SELECT Id FROM Opportunity WHERE CreatedDate = 2026-01-01", "INVALID_FIELD", "CreatedDate"),
    ("SELECT Id FROM Opportunity WHERE CloseDate = LAST_N_DAYS", "MALFORMED_QUERY", "LAST_N_DAYS"),
    ("SELECT Id FROM Opportunity WHERE CloseDate = TODAY:3", "MALFORMED_QUERY", "TODAY"),
    ("SELECT Name, COUNT(Id) FROM Account", "MALFORMED_QUERY", "Name"),
    ("SELECT Name FROM Account GROUP BY Industry", "MALFORMED_QUERY", "Name"),
    ("SELECT SUM(Name) FROM Account", "MALFORMED_QUERY", "SUM"),
    ("SELECT Id FROM Account WHERE COUNT(Id) > 1", "MALFORMED_QUERY", "HAVING"),
    ("SELECT Id FROM Account HAVING COUNT(Id) > 1", "MALFORMED_QUERY", "GROUP BY"),
    ("SELECT COUNT(), Name FROM Account", "MALFORMED_QUERY", "COUNT()"),
    ("SELECT Id FROM Account ORDER BY Description", "MALFORMED_QUERY", "Description"),
    ("SELECT Id FROM Account WHERE Name < null", "MALFORMED_QUERY", "null"),
    ("SELECT Id FROM Account WHERE Industry INCLUDES ('Retail')", "INVALID_FIELD", "Industry"),
    ("SELECT Id FROM Account OFFSET 2001", "NUMBER_OUTSIDE_VALID_RANGE", "2000"),
    ("SELECT Id, Id FROM Account", "MALFORMED_QUERY", "Id"),
    ("SELECT Id FROM Account LIMIT 99999999999999999999", "NUMBER_OUTSIDE_VALID_RANGE", "LIMIT"),
    ("SELECT Id FROM Task WHERE CreatedDate = LAST_N_DAYS:99999999", "MALFORMED_QUERY", "calendar"),
    ("SELECT Id FROM Account WHERE " + "(" * 30 + "Name = 'x'" + ")" * 30, "MALFORMED_QUERY", "nests too deeply"),
    ("SELECT Id FROM Account WHERE " + "NOT " * 60 + "Name = 'x'", "MALFORMED_QUERY", "nests too deeply"),
])
def test_semantic_errors_name_what_is_wrong(read: Any, soql: str, code: str, named: str) -> None:
    error = error_of(read, q=soql)
    assert (error.code, named in error.message) == (code, True), error.message


def test_hostile_numbers_are_read_not_crashed_on(read: Any) -> None:
    assert read("crm.query", q="SELECT COUNT() FROM Account WHERE AnnualRevenue > 99999999999999999999999")["totalSize"] == 0
    assert read("crm.query", q="SELECT COUNT() FROM Account WHERE NumberOfEmployees < 9223372036854775808")["totalSize"] > 0
    quoted_parens = "SELECT COUNT() FROM Account WHERE Name = '" + "(" * 40 + "'"
    assert read("crm.query", q=quoted_parens)["totalSize"] == 0, "parentheses inside a string are text"


def test_errors_come_in_salesforce_shape() -> None:
    from apps.crm.errors import error_body

    assert error_body(CrmError("INVALID_FIELD", "No such column 'X'", ["X"])) == [
        {"message": "No such column 'X'", "errorCode": "INVALID_FIELD", "fields": ["X"]}]


@pytest.mark.parametrize(("sosl", "code"), [
    ("FIND Acme", "MALFORMED_SEARCH"),
    ("FIND {a} RETURNING Account(Name)", "MALFORMED_SEARCH"),
    ("FIND {acme} RETURNING Acount(Name)", "INVALID_TYPE"),
    ("FIND {acme} RETURNING Account(Nme)", "INVALID_FIELD"),
    ("FIND {acme} IN BODY FIELDS", "MALFORMED_SEARCH"),
])
def test_bad_searches(read: Any, sosl: str, code: str) -> None:
    with pytest.raises(CrmError) as caught:
        read("crm.search", q=sosl)
    assert caught.value.code == code, caught.value.message


def test_a_bad_locator_is_refused(read: Any) -> None:
    for locator in ("nope", "01g!!!-2000", "01gU0VMRUNUIElk-x"):
        with pytest.raises(CrmError) as caught:
            read("crm.queryMore", locator=locator)
        assert caught.value.code == "INVALID_QUERY_LOCATOR"


def test_punctuation_alone_separates_search_words(read: Any) -> None:
    """A deal's name as it shows ("Carlson LLC — Platform …") is searchable: the lone dash
    is a separator, not a one-character word (it was MALFORMED_SEARCH). A lone letter still is."""
    name = read("crm.query", q="SELECT Name FROM Opportunity ORDER BY Name LIMIT 1")["records"][0]["Name"]
    assert " — " in name, name
    found = read("crm.search", q=f"FIND {{{name}}} IN NAME FIELDS RETURNING Opportunity(Name)")
    assert name in [r["Name"] for r in found["searchRecords"]]
    with pytest.raises(CrmError) as caught:
        read("crm.search", q="FIND {Carlson — a} RETURNING Opportunity(Name)")
    assert caught.value.code == "MALFORMED_SEARCH"
