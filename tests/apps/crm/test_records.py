"""Writes and the validation rules a real org has: required fields, restricted picklists,
typed values, lookups, active owners, stage-driven probability and closed/won flags, the
Closed Won amount rule, the case resolution rule, line items rolling up to the amount,
lead conversion, per-record DML results, and nothing written when a save fails."""

from __future__ import annotations

from typing import Any

import pytest

from apps.crm.errors import CrmError


def one(run: Any, soql: str) -> dict[str, Any]:
    records = run("crm.query", q=soql)["records"]
    assert records, soql
    return records[0]


def refused(run: Any, name: str, code: str, **raw: Any) -> CrmError:
    with pytest.raises(CrmError) as caught:
        run(name, **raw)
    assert caught.value.code == code, caught.value.message
    return caught.value


def test_create_update_delete_round_trip(write: Any) -> None:
    account = one(write, "SELECT Id, OwnerId FROM Account LIMIT 1")
    made = write("crm.create", sobject="Contact", record={"FirstName": "Ada", "LastName": "Lovelace", "AccountId": account["Id"][:15],
                                                          "Email": "ada@example.com"})
    assert made["success"] is True and made["id"].startswith("003") and len(made["id"]) == 18
    got = write("crm.retrieve", sobject="Contact", id=made["id"], fields="Name,AccountId,OwnerId,CreatedDate")
    assert got["Name"] == "Ada Lovelace" and got["AccountId"] == account["Id"]
    assert got["CreatedDate"].endswith("+0000") and len(got["CreatedDate"]) == 28
    write("crm.update", sobject="Contact", id=made["id"], record={"Title": "Analyst", "LastName": "King"})
    assert write("crm.retrieve", sobject="Contact", id=made["id"], fields="Name,Title") | {"attributes": None} == {
        "attributes": None, "Name": "Ada King", "Title": "Analyst"}
    write("crm.delete", sobject="Contact", id=made["id"])
    refused(write, "crm.retrieve", "NOT_FOUND", sobject="Contact", id=made["id"])


@pytest.mark.parametrize(("sobject", "record", "code", "field"), [
    ("Contact", {"FirstName": "No"}, "REQUIRED_FIELD_MISSING", "LastName"),
    ("Opportunity", {"Name": "X", "CloseDate": "2026-09-30"}, "REQUIRED_FIELD_MISSING", "StageName"),
    ("Opportunity", {"Name": "X", "StageName": "Won-ish", "CloseDate": "2026-09-30"}, "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", "StageName"),
    ("Opportunity", {"Name": "X", "StageName": "Prospecting", "CloseDate": "next week"}, "INVALID_TYPE_ON_FIELD_IN_RECORD", "CloseDate"),
    ("Opportunity", {"Name": "X", "StageName": "Prospecting", "CloseDate": "2026-09-30", "Amount": "lots"}, "INVALID_TYPE_ON_FIELD_IN_RECORD", "Amount"),
    ("Opportunity", {"Name": "X", "StageName": "Closed Won", "CloseDate": "2026-09-30"}, "FIELD_CUSTOM_VALIDATION_EXCEPTION", "Amount"),
    ("Opportunity", {"Name": "X", "StageName": "Prospecting", "CloseDate": "2026-09-30", "IsWon": True}, "INVALID_FIELD_FOR_INSERT_UPDATE", "IsWon"),
    ("Account", {"Name": "X", "Colour": "red"}, "INVALID_FIELD", "Colour"),
    ("Account", {"Name": "X" * 256}, "STRING_TOO_LONG", "Name"),
    ("Contact", {"LastName": "X", "AccountId": "001Hs000TwFovyCIIZ"}, "FIELD_INTEGRITY_EXCEPTION", "AccountId"),
    ("Contact", {"LastName": "X", "AccountId": "0035000000VALDtAAP"}, "FIELD_INTEGRITY_EXCEPTION", "AccountId"),
    ("Contact", {"LastName": "X", "AccountId": "0015000000VALDtAAP"}, "INVALID_CROSS_REFERENCE_KEY", "AccountId"),
    ("Case", {"Subject": "x", "Status": "Closed"}, "FIELD_CUSTOM_VALIDATION_EXCEPTION", "Resolution__c"),
    ("Task", {"Subject": "x", "Status": "Done"}, "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", "Status"),
    ("Event", {"Subject": "x", "StartDateTime": "2026-09-01T10:00:00Z"}, "REQUIRED_FIELD_MISSING", "DurationInMinutes"),
])
def test_invalid_records_are_refused_naming_the_field(write: Any, gym: Any, env: Any, sobject: str, record: dict[str, Any], code: str, field: str) -> None:
    before = gym.changes(env.id)
    error = refused(write, "crm.create", code, sobject=sobject, record=record)
    assert field in error.fields, error.message
    assert gym.changes(env.id) == before, "a refused save writes nothing"


def test_owners_must_be_active(write: Any) -> None:
    inactive = one(write, "SELECT Id FROM User WHERE IsActive = false")
    account = one(write, "SELECT Id FROM Account LIMIT 1")
    refused(write, "crm.update", "INACTIVE_OWNER_OR_USER", sobject="Account", id=account["Id"], record={"OwnerId": inactive["Id"]})
    active = one(write, "SELECT Id FROM User WHERE IsActive = true AND Department = 'Sales' LIMIT 1")
    write("crm.update", sobject="Account", id=account["Id"], record={"OwnerId": active["Id"]})
    assert one(write, f"SELECT OwnerId FROM Account WHERE Id = '{account['Id']}'")["OwnerId"] == active["Id"]


def test_stage_drives_probability_forecast_and_closed_flags(write: Any) -> None:
    opp = one(write, "SELECT Id, Amount FROM Opportunity WHERE IsClosed = false AND Amount > 0 LIMIT 1")
    expected = {"Negotiation/Review": (90.0, "Commit", False, False), "Closed Lost": (0.0, "Omitted", True, False),
                "Closed Won": (100.0, "Closed", True, True), "Qualification": (10.0, "Pipeline", False, False)}
    for stage, (probability, forecast, closed, won) in expected.items():
        write("crm.update", sobject="Opportunity", id=opp["Id"], record={"StageName": stage})
        got = write("crm.retrieve", sobject="Opportunity", id=opp["Id"], fields="Probability,ForecastCategoryName,IsClosed,IsWon")
        assert (got["Probability"], got["ForecastCategoryName"], got["IsClosed"], got["IsWon"]) == (probability, forecast, closed, won)
    write("crm.update", sobject="Opportunity", id=opp["Id"], record={"StageName": "Value Proposition", "Probability": 35})
    assert write("crm.retrieve", sobject="Opportunity", id=opp["Id"], fields="Probability")["Probability"] == 35.0


def test_closing_a_case_needs_a_resolution_and_stamps_closed_date(write: Any) -> None:
    case = one(write, "SELECT Id FROM Case WHERE IsClosed = false LIMIT 1")
    refused(write, "crm.update", "FIELD_CUSTOM_VALIDATION_EXCEPTION", sobject="Case", id=case["Id"], record={"Status": "Closed"})
    write("crm.update", sobject="Case", id=case["Id"], record={"Status": "Closed", "Resolution__c": "Rotated the API key"})
    got = write("crm.retrieve", sobject="Case", id=case["Id"], fields="IsClosed,ClosedDate,Resolution__c")
    assert got["IsClosed"] is True and got["ClosedDate"] is not None
    made = write("crm.create", sobject="Case", record={"Subject": "New one"})
    numbers = [r["CaseNumber"] for r in write("crm.query", q="SELECT CaseNumber FROM Case ORDER BY CaseNumber DESC LIMIT 2")["records"]]
    assert write("crm.retrieve", sobject="Case", id=made["id"], fields="CaseNumber")["CaseNumber"] == numbers[0]
    assert int(numbers[0]) == int(numbers[1]) + 1


def test_line_items_roll_up_to_the_amount(write: Any) -> None:
    opp = one(write, "SELECT Id, Amount FROM Opportunity WHERE IsClosed = false LIMIT 1")
    entry = one(write, "SELECT Id, UnitPrice, Product2Id FROM PricebookEntry ORDER BY UnitPrice LIMIT 1")
    item = write("crm.create", sobject="OpportunityLineItem", record={"OpportunityId": opp["Id"], "PricebookEntryId": entry["Id"], "Quantity": 3})
    got = write("crm.retrieve", sobject="OpportunityLineItem", id=item["id"], fields="UnitPrice,TotalPrice,ListPrice,Product2Id")
    assert (got["UnitPrice"], got["TotalPrice"], got["ListPrice"], got["Product2Id"]) == (entry["UnitPrice"], 3 * entry["UnitPrice"], entry["UnitPrice"], entry["Product2Id"])
    assert one(write, f"SELECT Amount FROM Opportunity WHERE Id = '{opp['Id']}'")["Amount"] == pytest.approx(opp["Amount"] + 3 * entry["UnitPrice"])
    write("crm.delete", sobject="OpportunityLineItem", id=item["id"])
    assert one(write, f"SELECT Amount FROM Opportunity WHERE Id = '{opp['Id']}'")["Amount"] == pytest.approx(opp["Amount"])


def test_lead_conversion_creates_or_reuses_and_marks_the_lead(write: Any) -> None:
    lead = one(write, "SELECT Id, Company, Email, LastName FROM Lead WHERE IsConverted = false LIMIT 1")
    result = write("crm.convertLead", leadId=lead["Id"], opportunityName="First deal")
    assert result["success"] is True
    converted = one(write, f"SELECT IsConverted, Status, ConvertedAccount.Name, ConvertedContact.Email, ConvertedOpportunity.Name, "
                           f"ConvertedOpportunity.StageName FROM Lead WHERE Id = '{lead['Id']}'")
    assert converted["IsConverted"] is True and converted["Status"] == "Closed - Converted"
    assert converted["ConvertedAccount"]["Name"] == lead["Company"]
    assert converted["ConvertedContact"]["Email"] == lead["Email"]
    assert converted["ConvertedOpportunity"]["Name"] == "First deal"
    refused(write, "crm.convertLead", "CANNOT_UPDATE_CONVERTED_LEAD", leadId=lead["Id"])
    refused(write, "crm.update", "CANNOT_UPDATE_CONVERTED_LEAD", sobject="Lead", id=lead["Id"], record={"Title": "x"})
    other = one(write, "SELECT Id FROM Lead WHERE IsConverted = false LIMIT 1")
    account = one(write, "SELECT Id, (SELECT Id FROM Contacts) FROM Account WHERE Id IN (SELECT AccountId FROM Contact) LIMIT 1")
    contact = account["Contacts"]["records"][0]["Id"]
    before = write("crm.query", q="SELECT COUNT() FROM Contact")["totalSize"]
    reused = write("crm.convertLead", leadId=other["Id"], accountId=account["Id"], contactId=contact, doNotCreateOpportunity=True)
    assert (reused["accountId"], reused["contactId"], reused["opportunityId"]) == (account["Id"], contact, None)
    assert write("crm.query", q="SELECT COUNT() FROM Contact")["totalSize"] == before
    third = one(write, "SELECT Id FROM Lead WHERE IsConverted = false LIMIT 1")
    refused(write, "crm.convertLead", "INVALID_STATUS", leadId=third["Id"], convertedStatus="Working - Contacted")


def test_dml_saves_each_record_on_its_own(write: Any) -> None:
    text = write("crm.dmlRecords", operation="insert", objectName="Account", records=[{"Name": "Good Co"}, {"Industry": "Retail"}, {"Name": "Fine Co"}])
    assert "Processed 3 records:\n- Successful: 2\n- Failed: 1" in text
    assert "Record 2:\n  - Required fields are missing: [Name] [REQUIRED_FIELD_MISSING]\n    Fields: Name" in text
    names = {r["Name"] for r in write("crm.query", q="SELECT Name FROM Account WHERE Name LIKE '% Co'")["records"]}
    assert {"Good Co", "Fine Co"} <= names
    good = one(write, "SELECT Id FROM Account WHERE Name = 'Good Co'")
    updated = write("crm.dmlRecords", operation="update", objectName="Account", records=[{"Id": good["Id"], "Rating": "Hot"}, {"Rating": "Cold"}])
    assert "- Successful: 1\n- Failed: 1" in updated and "MISSING_ARGUMENT" in updated
    upserted = write("crm.dmlRecords", operation="upsert", objectName="Account", externalIdField="Name", records=[{"Name": "Good Co", "Rating": "Warm"}, {"Name": "New Co"}])
    assert "- Successful: 2" in upserted
    assert one(write, "SELECT Rating FROM Account WHERE Name = 'Good Co'")["Rating"] == "Warm"
    deleted = write("crm.dmlRecords", operation="delete", objectName="Account", records=[{"Id": good["Id"]}])
    assert "- Successful: 1" in deleted
    assert write("crm.query", q="SELECT COUNT() FROM Account WHERE Name = 'Good Co'")["totalSize"] == 0


def test_deleting_an_account_removes_what_depends_on_it(write: Any) -> None:
    account = one(write, "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Opportunity) AND Id IN (SELECT AccountId FROM Case) LIMIT 1")
    write("crm.delete", sobject="Account", id=account["Id"])
    for soql in (f"SELECT COUNT() FROM Contact WHERE AccountId = '{account['Id']}'", f"SELECT COUNT() FROM Opportunity WHERE AccountId = '{account['Id']}'",
                 f"SELECT COUNT() FROM Case WHERE AccountId = '{account['Id']}'", f"SELECT COUNT() FROM Task WHERE WhatId = '{account['Id']}'"):
        assert write("crm.query", q=soql)["totalSize"] == 0, soql
    orphans = write("crm.query", q="SELECT COUNT() FROM OpportunityLineItem WHERE OpportunityId NOT IN (SELECT Id FROM Opportunity)")
    assert orphans["totalSize"] == 0


def test_multi_select_values_are_checked_and_kept_in_picklist_order(write: Any) -> None:
    account = one(write, "SELECT Id FROM Account LIMIT 1")
    write("crm.update", sobject="Account", id=account["Id"], record={"Product_Families__c": "Services; Platform"})
    assert write("crm.retrieve", sobject="Account", id=account["Id"], fields="Product_Families__c")["Product_Families__c"] == "Platform;Services"
    refused(write, "crm.update", "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", sobject="Account", id=account["Id"], record={"Product_Families__c": "Hardware"})
