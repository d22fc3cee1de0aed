"""Merging duplicate Accounts or Contacts (crm.merge, Salesforce's merge call): the master keeps
its Id and takes the values chosen for it, everything that pointed at the merged records
points at the master, the merged records are deleted; a refused merge writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from apps.crm.errors import CrmError


def rows(run: Any, soql: str) -> list[dict[str, Any]]:
    return run("crm.query", q=soql)["records"]


def refused(run: Any, code: str, **raw: Any) -> CrmError:
    with pytest.raises(CrmError) as caught:
        run("crm.merge", **raw)
    assert caught.value.code == code, caught.value.message
    return caught.value


def related(run: Any, account: str) -> dict[str, set[str]]:
    return {kind: {r["Id"] for r in rows(run, f"SELECT Id FROM {kind} WHERE {field} = '{account}'")}
            for kind, field in (("Contact", "AccountId"), ("Opportunity", "AccountId"), ("Case", "AccountId"), ("Task", "WhatId"))}


def test_merging_three_accounts_moves_their_records_to_the_master(write: Any) -> None:
    accounts = rows(write, "SELECT Id, Name, Phone, Industry FROM Account WHERE Id IN (SELECT AccountId FROM Contact) ORDER BY Name LIMIT 3")
    master, *others = accounts
    before = {a["Id"]: related(write, a["Id"]) for a in accounts}
    assert all(before[o["Id"]]["Contact"] for o in others)
    done = write("crm.merge", sobject="Account", masterRecord={"Id": master["Id"][:15], "Phone": "+1 555 0199", "Industry": others[0]["Industry"]},
                 recordToMergeIds=[o["Id"] for o in others])
    assert done["success"] is True and done["id"] == master["Id"] and done["mergedRecordIds"] == [o["Id"] for o in others]
    after = related(write, master["Id"])
    for kind in after:
        assert after[kind] == set().union(*(before[a["Id"]][kind] for a in accounts)), kind
    assert set(done["updatedRelatedIds"]) >= set().union(*(before[o["Id"]]["Contact"] for o in others))
    assert rows(write, f"SELECT Id FROM Account WHERE Id IN ('{others[0]['Id']}', '{others[1]['Id']}')") == []
    kept = write("crm.retrieve", sobject="Account", id=master["Id"], fields="Name,Phone,Industry")
    assert (kept["Name"], kept["Phone"], kept["Industry"]) == (master["Name"], "+1 555 0199", others[0]["Industry"])


def test_merging_contacts_moves_cases_and_activities(write: Any) -> None:
    account = rows(write, "SELECT Id FROM Account ORDER BY Name LIMIT 1")[0]["Id"]
    keep = write("crm.create", sobject="Contact", record={"LastName": "Okafor", "FirstName": "Ngozi", "AccountId": account})["id"]
    dup = write("crm.create", sobject="Contact", record={"LastName": "Okafor", "FirstName": "Ngozi", "Email": "ngozi@example.com"})["id"]
    case = write("crm.create", sobject="Case", record={"Subject": "Login fails", "ContactId": dup})["id"]
    task = write("crm.create", sobject="Task", record={"Subject": "Call back", "WhoId": dup})["id"]
    note = write("crm.create", sobject="Note", record={"Title": "Prefers email", "ParentId": dup})["id"]
    done = write("crm.merge", sobject="Contact", masterRecord={"Id": keep, "Email": "ngozi@example.com"}, recordToMergeIds=[dup])
    assert set(done["updatedRelatedIds"]) == {case, task, note}
    assert rows(write, f"SELECT ContactId FROM Case WHERE Id = '{case}'")[0]["ContactId"] == keep
    assert rows(write, f"SELECT WhoId FROM Task WHERE Id = '{task}'")[0]["WhoId"] == keep
    assert rows(write, f"SELECT ParentId FROM Note WHERE Id = '{note}'")[0]["ParentId"] == keep
    kept = write("crm.retrieve", sobject="Contact", id=keep, fields="Email,AccountId")
    assert (kept["Email"], kept["AccountId"]) == ("ngozi@example.com", account)
    assert rows(write, f"SELECT Id FROM Contact WHERE Id = '{dup}'") == []


def test_a_refused_merge_writes_nothing(write: Any) -> None:
    a, b, c, d = (r["Id"] for r in rows(write, "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Contact) ORDER BY Name LIMIT 4"))
    contact = rows(write, "SELECT Id FROM Contact ORDER BY Name LIMIT 1")[0]["Id"]
    lead = rows(write, "SELECT Id FROM Lead LIMIT 1")[0]["Id"]
    before = related(write, b)
    refused(write, "REQUIRED_FIELD_MISSING", sobject="Account", masterRecord={"Id": a, "Name": None}, recordToMergeIds=[b])
    refused(write, "NOT_FOUND", sobject="Account", masterRecord={"Id": a}, recordToMergeIds=[b, "001Hs000000zzzzAAA"[:15]])
    refused(write, "INVALID_TYPE", sobject="Account", masterRecord={"Id": a}, recordToMergeIds=[contact])
    refused(write, "INVALID_TYPE", sobject="Lead", masterRecord={"Id": lead}, recordToMergeIds=[lead])
    refused(write, "INVALID_ID_FIELD", sobject="Account", masterRecord={"Id": a}, recordToMergeIds=[a[:15]])
    assert "at most 2" in refused(write, "invalid_arguments", sobject="Account", masterRecord={"Id": a}, recordToMergeIds=[b, c, d]).message
    assert related(write, b) == before and rows(write, f"SELECT Id FROM Account WHERE Id = '{b}'")
