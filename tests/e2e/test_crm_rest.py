"""The Salesforce REST face over real HTTP: sobjects CRUD, describe, query with
nextRecordsUrl batches, search, Salesforce's error arrays and status codes, urls built from
the mount path; and the yardstick, `simple_salesforce` unchanged against the HTTPS origin
with the env's API token as its session id."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from officegym.core.api_token import api_token

V = "services/data/v62.0"


@pytest.fixture
def api(live_server: Any, env_id: str) -> Any:
    with httpx.Client(base_url=f"{live_server.base_url}/envs/{env_id}/api/crm/", timeout=30) as client:
        yield client


def test_crud_round_trip_with_salesforce_statuses(api: Any, env_id: str) -> None:
    created = api.post(f"{V}/sobjects/Account", json={"Name": "Rest Co", "Industry": "Retail"})
    assert created.status_code == 201
    body = created.json()
    assert body["success"] is True and body["errors"] == [] and body["id"].startswith("001")
    record = api.get(f"{V}/sobjects/Account/{body['id']}").json()
    assert record["attributes"] == {"type": "Account", "url": f"/envs/{env_id}/api/crm/{V}/sobjects/Account/{body['id']}"}
    assert record["Name"] == "Rest Co" and record["Industry"] == "Retail"
    assert api.patch(f"{V}/sobjects/Account/{body['id']}", json={"Rating": "Hot"}).status_code == 204
    assert api.get(f"{V}/sobjects/Account/{body['id']}", params={"fields": "Rating"}).json()["Rating"] == "Hot"
    assert api.delete(f"{V}/sobjects/Account/{body['id']}").status_code == 204
    missing = api.get(f"{V}/sobjects/Account/{body['id']}")
    assert missing.status_code == 404 and missing.json()[0]["errorCode"] == "NOT_FOUND"


@pytest.mark.parametrize(("method", "path", "payload", "status", "code"), [
    ("post", "sobjects/Account", {"Industry": "Retail"}, 400, "REQUIRED_FIELD_MISSING"),
    ("post", "sobjects/Widget__c", {"Name": "x"}, 404, "NOT_FOUND"),
    ("post", "sobjects/Account", ["not", "an", "object"], 400, "JSON_PARSER_ERROR"),
    ("patch", "sobjects/Account/001000000000000", {"Name": "x"}, 404, "NOT_FOUND"),
    ("get", "query?q=SELECT+Nme+FROM+Account", None, 400, "INVALID_FIELD"),
    ("get", "query?q=SELECT+Id+FRM+Account", None, 400, "MALFORMED_QUERY"),
    ("get", "query", None, 400, "INVALID_INPUT"),
    ("get", "query/01gnotalocator-2000", None, 400, "INVALID_QUERY_LOCATOR"),
    ("get", "search?q=FIND+nothing", None, 400, "MALFORMED_SEARCH"),
])
def test_errors_are_salesforce_arrays(api: Any, live_server: Any, env_id: str, method: str, path: str, payload: Any, status: int, code: str) -> None:
    response = getattr(api, method)(f"{V}/{path}", **({"json": payload} if payload is not None else {}))
    assert response.status_code == status, response.text
    errors = response.json()
    assert isinstance(errors, list) and errors[0]["errorCode"] == code and errors[0]["message"]
    assert live_server.gym.changes(env_id) == []


def test_query_batches_follow_next_records_url(api: Any, env_id: str) -> None:
    from apps.crm.soql import run as soql_run

    total = api.get(f"{V}/query", params={"q": "SELECT COUNT() FROM Task"}).json()["totalSize"]
    batch, soql_run.BATCH = soql_run.BATCH, 100  # small batches, so the seeded history pages
    try:
        answer = api.get(f"{V}/query", params={"q": "SELECT Id, Subject FROM Task ORDER BY CreatedDate"}).json()
        seen = [r["Id"] for r in answer["records"]]
        assert len(seen) == 100 and answer["done"] is False
        pages = 1
        while not answer["done"]:
            pages += 1
            assert answer["nextRecordsUrl"].startswith(f"/envs/{env_id}/api/crm/{V}/query/01g")
            answer = httpx.get(str(api.base_url.join("/")).rstrip("/") + answer["nextRecordsUrl"]).json()
            seen += [r["Id"] for r in answer["records"]]
            assert answer["totalSize"] == total
    finally:
        soql_run.BATCH = batch
    assert len(seen) == len(set(seen)) == total > 100 and pages == -(-total // 100)


def test_links_follow_the_path_and_version_asked_and_data_is_left_alone(api: Any, env_id: str) -> None:
    # Characters past Latin-1 too (a dash, an accent, a clef): links are moved on the encoded text.
    lookalike = '{"url":"/services/data/v62.0/sobjects/Account/x", "describe": "/services/data/v62.0/"} — Zoë 𝄞'
    made = api.post(f"{V}/sobjects/Account", json={"Name": lookalike, "Description": lookalike}).json()["id"]
    try:
        for version in ("v62.0", "v58.0"):
            soql = f"SELECT Name, Description, Owner.Name FROM Account WHERE Id = '{made}'"
            record = api.get(f"services/data/{version}/query", params={"q": soql}).json()["records"][0]
            base = f"/envs/{env_id}/api/crm/services/data/{version}/sobjects"
            assert record["attributes"]["url"] == f"{base}/Account/{made}"
            assert record["Owner"]["attributes"]["url"].startswith(f"{base}/User/005")
            assert record["Name"] == record["Description"] == lookalike, "text that looks like a link is data"
            assert api.get(f"services/data/{version}/sobjects/Account").json()["objectDescribe"]["urls"]["describe"] == f"{base}/Account/describe"
    finally:
        api.delete(f"{V}/sobjects/Account/{made}")


def test_describe_and_search(api: Any) -> None:
    objects = api.get(f"{V}/sobjects").json()["sobjects"]
    assert {"name": "Opportunity", "keyPrefix": "006"}.items() <= next(o for o in objects if o["name"] == "Opportunity").items()
    described = api.get(f"{V}/sobjects/Opportunity/describe").json()
    fields = {f["name"]: f for f in described["fields"]}
    assert described["keyPrefix"] == "006" and fields["StageName"]["nillable"] is False
    assert [p["value"] for p in fields["StageName"]["picklistValues"]][-2:] == ["Closed Won", "Closed Lost"]
    assert fields["AccountId"]["referenceTo"] == ["Account"] and fields["AccountId"]["relationshipName"] == "Account"
    assert {"childSObject": "OpportunityLineItem", "field": "OpportunityId", "relationshipName": "OpportunityLineItems",
            "cascadeDelete": False} in described["childRelationships"]
    account = api.get(f"{V}/query", params={"q": "SELECT Name FROM Account ORDER BY Name LIMIT 1"}).json()["records"][0]["Name"]
    word = account.split()[0].strip(",")
    found = api.get(f"{V}/search", params={"q": f"FIND {{{word}}} IN NAME FIELDS RETURNING Account(Id, Name)"}).json()
    assert found["searchRecords"] and all(word.lower() in r["Name"].lower() for r in found["searchRecords"])


def test_simple_salesforce_works_unchanged(live_server: Any, env_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import requests
    from simple_salesforce import Salesforce
    from simple_salesforce.exceptions import SalesforceMalformedRequest, SalesforceResourceNotFound

    for variable in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):  # requests lets these override session.verify
        monkeypatch.delenv(variable, raising=False)
    session = requests.Session()
    session.verify = live_server.ca_file
    sf = Salesforce(instance_url=live_server.instance_url, session_id=api_token(env_id), session=session)
    result = sf.query("SELECT Id, Name, StageName FROM Opportunity WHERE IsClosed = false ORDER BY Amount DESC LIMIT 3")
    assert result["totalSize"] == 3 and result["done"] is True
    everything = sf.query_all("SELECT Id FROM Contact")
    assert everything["totalSize"] == len(everything["records"]) > 0
    created = sf.Contact.create({"LastName": "Yardstick", "Email": "yard@example.com"})
    assert created["success"] is True
    assert sf.Contact.get(created["id"])["LastName"] == "Yardstick"
    assert sf.Contact.update(created["id"], {"Title": "Measure"}) == 204
    assert sf.Contact.describe()["keyPrefix"] == "003"
    assert any(o["name"] == "Case" for o in sf.describe()["sobjects"])
    assert sf.search("FIND {Yardstick} RETURNING Contact(Id, Title)")["searchRecords"][0]["Title"] == "Measure"
    assert sf.Contact.delete(created["id"]) == 204
    with pytest.raises(SalesforceResourceNotFound):
        sf.Contact.get(created["id"])
    with pytest.raises(SalesforceMalformedRequest):
        sf.query("SELECT Nope FROM Contact")
    assert live_server.gym.changes(env_id) == [], "created then deleted: the env is as it started"


def test_unknown_resources_are_salesforce_not_found(api: Any) -> None:
    for method, path in (("get", "limits/nothing"), ("patch", "sobjects/Contact/Email/a@b.c"), ("put", "sobjects/Account")):
        response = getattr(api, method)(f"{V}/{path}", **({"json": {}} if method != "get" else {}))
        assert response.status_code == 404 and response.json()[0]["errorCode"] == "NOT_FOUND", (method, path, response.text)


def test_the_versions_list_answers_with_and_without_a_trailing_slash(api: Any, env_id: str) -> None:
    for path in ("services/data", "services/data/"):
        versions = api.get(path)
        assert versions.status_code == 200, (path, versions.text)
        assert versions.json()[-1]["url"] == f"/envs/{env_id}/api/crm/{V}"
