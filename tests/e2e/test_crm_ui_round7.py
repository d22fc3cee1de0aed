"""Salesforce's Merge Contacts / Merge Accounts in the crm UI, in Chromium against the live
server: records chosen on the object's list (up to three), the master and the value of each
differing field picked side by side, and one merge that moves the others' related records to
the master and deletes them (crm.merge, one write in the trajectory with face "ui"). The
duplicate-contact task done this way grades 1.0 with no collateral."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.test_crm_ui_round6 import soql, ui_writes


def test_merge_a_duplicate_contact_from_the_contacts_list(page: Page, live_server: Any) -> None:
    gym = live_server.gym
    env = gym.create("crm/merge-duplicate-contact-v1", variant=5)
    try:
        original = env.task.facts["original"]
        name = soql(live_server, env.id, f"SELECT Name FROM Contact WHERE Id = '{original}'")[0]["Name"]
        (duplicate,) = [r["Id"] for r in soql(live_server, env.id, f"SELECT Id FROM Contact WHERE Name = '{name}' AND Id != '{original}'")]
        page.goto(f"{live_server.base_url}/envs/{env.id}/crm/o/Contact")
        page.get_by_label("Filter by Full Name").fill(name)
        page.get_by_role("button", name="Apply").click()
        boxes = page.get_by_role("checkbox", name=f"Select {name}", exact=True)
        expect(boxes).to_have_count(2)
        for box in boxes.all():
            box.check()
        page.get_by_role("button", name="Merge Contacts").click()
        expect(page.get_by_role("heading", name="Merge Contacts")).to_be_visible()
        form = page.get_by_role("form", name="Merge Contacts")
        expect(form.get_by_role("row", name="Created Date")).to_be_visible()
        form.locator(f"input[name=master][value='{original}']").check()  # the older record, as its Created Date shows
        # Field by field, the master's values are kept unless another is picked.
        expect(form.locator(f"input[name='f.Email'][value='{original}']")).to_be_checked()
        form.get_by_role("button", name="Merge").click()
        expect(page.get_by_role("status")).to_have_text("1 contact merged into this one.")
        assert page.url.split("?")[0].endswith(f"/crm/r/{original}")
        assert soql(live_server, env.id, f"SELECT Id FROM Contact WHERE Id = '{duplicate}'") == []
        assert len(soql(live_server, env.id, f"SELECT Id FROM Task WHERE WhoId = '{original}'")) >= 2
        assert soql(live_server, env.id, f"SELECT Id FROM Case WHERE ContactId = '{original}'")
        grade = gym.grade(env.id)
        assert grade["reward"] == 1.0 and grade["passed"] is True and grade["collateral"] == [], grade
        assert ui_writes(live_server, env.id) == ["crm.merge"]
    finally:
        gym.delete(env.id)


def test_merge_contacts_from_the_accounts_contacts_list(page: Page, live_server: Any) -> None:
    """Where the duplicates show side by side, the account's Contacts related list, Merge Contacts
    starts the same merge, the first one selected the master unless another is picked."""
    gym = live_server.gym
    env = gym.create("crm/merge-duplicate-contact-v1", variant=2)
    try:
        original, account = env.task.facts["original"], env.task.facts["account"]
        name = soql(live_server, env.id, f"SELECT Name FROM Contact WHERE Id = '{original}'")[0]["Name"]
        page.goto(f"{live_server.base_url}/envs/{env.id}/crm/r/{account}")
        contacts = page.get_by_role("region", name="Contacts", exact=False)
        boxes = contacts.get_by_role("checkbox", name=f"Select {name}", exact=True)
        expect(boxes).to_have_count(2)
        for box in boxes.all():
            box.check()
        contacts.get_by_role("button", name="Merge Contacts").click()
        form = page.get_by_role("form", name="Merge Contacts")
        expect(form.locator(f"input[name=master][value='{original}']")).not_to_be_checked()  # the newer record is listed first
        form.locator(f"input[name=master][value='{original}']").check()
        # Choosing the master selects its values: merging keeps the original as it was.
        for field in ("Email", "Phone"):
            expect(form.locator(f"input[name='f.{field}'][value='{original}']")).to_be_checked()
        form.get_by_role("button", name="Merge").click()
        expect(page.get_by_role("status")).to_have_text("1 contact merged into this one.")
        grade = gym.grade(env.id)
        assert grade["reward"] == 1.0 and grade["collateral"] == [], grade
        assert ui_writes(live_server, env.id) == ["crm.merge"]
    finally:
        gym.delete(env.id)


def test_merge_three_accounts_keeping_a_value_of_another(page: Page, live_server: Any, env_id: str) -> None:
    accounts = soql(live_server, env_id, "SELECT Id, Name, Industry FROM Account ORDER BY Name LIMIT 3")
    master, second, third = accounts
    moving = {r["Id"] for a in (second, third) for r in soql(live_server, env_id, f"SELECT Id FROM Contact WHERE AccountId = '{a['Id']}'")}
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/o/Account")
    for a in accounts:
        page.get_by_role("checkbox", name=f"Select {a['Name']}", exact=True).check()
    page.get_by_role("button", name="Merge Accounts").click()
    form = page.get_by_role("form", name="Merge Accounts")
    form.get_by_role("radio", name=f"Use as master: {master['Name']}").check()
    assert second["Industry"] != master["Industry"], "the seeded accounts differ in industry"
    industry = form.get_by_role("row", name="Industry")
    industry.locator(f"input[value='{second['Id']}']").check()
    form.get_by_role("button", name="Merge").click()
    expect(page.get_by_role("status")).to_have_text("2 accounts merged into this one.")
    kept = soql(live_server, env_id, f"SELECT Industry, (SELECT Id FROM Contacts) FROM Account WHERE Id = '{master['Id']}'")[0]
    assert kept["Industry"] == second["Industry"]
    assert moving <= {c["Id"] for c in (kept["Contacts"] or {"records": []})["records"]}
    assert soql(live_server, env_id, f"SELECT Id FROM Account WHERE Id IN ('{second['Id']}', '{third['Id']}')") == []
    (merge,) = [e for e in live_server.gym.events(env_id) if e["operation"] == "crm.merge"]
    assert merge["face"] == "ui" and merge["args"]["masterRecord"] == {"Id": master["Id"], "Industry": second["Industry"]}, merge["args"]


def test_merging_needs_two_or_three_records(page: Page, live_server: Any, env_id: str) -> None:
    names = [a["Name"] for a in soql(live_server, env_id, "SELECT Name FROM Contact ORDER BY Name LIMIT 4")]
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/o/Contact")
    page.get_by_role("checkbox", name=f"Select {names[0]}", exact=True).first.check()
    page.get_by_role("button", name="Merge Contacts").click()
    expect(page.get_by_role("alert")).to_contain_text("Select 2 or 3 contacts to merge (you selected 1)")
    page.go_back()
    for name in names:
        for box in page.get_by_role("checkbox", name=f"Select {name}", exact=True).all():
            box.check()
    page.get_by_role("button", name="Merge Contacts").click()
    expect(page.get_by_role("alert")).to_contain_text("Select 2 or 3 contacts to merge")
    assert live_server.gym.changes(env_id) == []


# -- lookups: a related record is searched by name and picked, as in Lightning ---------------------------
def test_a_new_contacts_account_is_searched_by_name_and_picked(page: Page, live_server: Any, env_id: str) -> None:
    account = soql(live_server, env_id, "SELECT Id, Name FROM Account ORDER BY Name LIMIT 1")[0]
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/o/Contact/new")
    page.get_by_label("Last Name").fill("Mbeki")
    box = page.get_by_role("combobox", name="Account")
    box.press_sequentially(account["Name"][:5].lower())
    option = page.get_by_role("option", name=account["Name"], exact=False).first
    expect(option).to_contain_text("Account")
    option.click()
    expect(box).to_have_value(account["Name"])
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mbeki")
    expect(page.get_by_role("link", name=account["Name"], exact=True)).to_be_visible()
    (made,) = soql(live_server, env_id, "SELECT Id, AccountId FROM Contact WHERE LastName = 'Mbeki'")
    assert made["AccountId"] == account["Id"]
    (create,) = [e for e in live_server.gym.events(env_id) if e["operation"] == "crm.create"]
    assert create["face"] == "ui" and create["args"]["record"]["AccountId"] == account["Id"], create["args"]


def test_a_cases_contact_is_picked_with_the_keyboard(page: Page, live_server: Any, env_id: str) -> None:
    case = soql(live_server, env_id, "SELECT Id, ContactId FROM Case WHERE ContactId != null ORDER BY CaseNumber LIMIT 1")[0]
    other = soql(live_server, env_id, f"SELECT Id, Name, Account.Name FROM Contact WHERE Id != '{case['ContactId']}' ORDER BY Name LIMIT 1")[0]
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/r/{case['Id']}/edit")
    box = page.get_by_role("combobox", name="Contact")
    box.fill("")
    box.press_sequentially(other["Name"])
    listbox = page.get_by_role("listbox", name="Contact suggestions")
    expect(listbox.get_by_role("option").first).to_contain_text(other["Name"])
    box.press("ArrowDown")
    box.press("Enter")
    expect(listbox).to_be_hidden()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("link", name=other["Name"], exact=True).first).to_be_visible()
    assert soql(live_server, env_id, f"SELECT ContactId FROM Case WHERE Id = '{case['Id']}'")[0]["ContactId"] == other["Id"]
    (edit,) = [e for e in live_server.gym.events(env_id) if e["operation"] == "crm.update"]
    assert edit["args"]["record"] == {"ContactId": other["Id"]}, "only the contact changed"


def test_a_lookup_left_with_a_name_of_no_record_is_refused(page: Page, live_server: Any, env_id: str) -> None:
    opportunity = soql(live_server, env_id, "SELECT Id, Account.Name FROM Opportunity WHERE AccountId != null ORDER BY Name LIMIT 1")[0]
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/r/{opportunity['Id']}/edit")
    box = page.get_by_role("combobox", name="Account")
    expect(box).to_have_value(opportunity["Account"]["Name"])
    page.get_by_role("button", name="Save").click()  # unchanged: nothing is written
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert live_server.gym.changes(env_id) == []

    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/r/{opportunity['Id']}/edit")
    box.fill("Nonexistent Holdings")
    box.press("Escape")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("alert")).to_contain_text("Account: no account is named 'Nonexistent Holdings'")
    expect(page.get_by_role("combobox", name="Account")).to_have_value("Nonexistent Holdings")
    expect(page.get_by_role("combobox", name="Account")).to_have_attribute("aria-invalid", "true")
    assert live_server.gym.changes(env_id) == []

    # A whole name typed and not picked names its one record; an Id typed is taken as it is.
    other = soql(live_server, env_id, f"SELECT Id, Name FROM Account WHERE Name != '{opportunity['Account']['Name']}' ORDER BY Name DESC LIMIT 1")[0]
    page.get_by_role("combobox", name="Account").fill(other["Name"])
    page.get_by_role("combobox", name="Account").press("Escape")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("link", name=other["Name"], exact=True).first).to_be_visible()
    assert soql(live_server, env_id, f"SELECT AccountId FROM Opportunity WHERE Id = '{opportunity['Id']}'")[0]["AccountId"] == other["Id"]


def test_lookup_suggestions_answer_records_by_name(live_server: Any, env_id: str) -> None:
    account = soql(live_server, env_id, "SELECT Id, Name FROM Account ORDER BY Name LIMIT 1")[0]
    base = f"{live_server.base_url}/envs/{env_id}/crm/lookup"
    found = httpx.get(base, params={"field": "Task.WhatId", "q": account["Name"]}).json()["results"]
    assert {"id": account["Id"], "name": account["Name"], "type": "Account"}.items() <= next(r for r in found if r["id"] == account["Id"]).items()
    assert httpx.get(base, params={"field": "Account.Name", "q": "a"}).status_code == 400
    assert httpx.get(base, params={"field": "Contact.AccountId", "q": "' OR Name != '"}).json()["results"] == []


def test_saving_a_multi_line_description_unchanged_writes_nothing(page: Page, live_server: Any, env_id: str) -> None:
    """A browser posts a text area's line breaks as CR LF: saving an edit form unchanged rewrote
    every description with line breaks (collateral in a task that edits another field)."""
    case = next(r for r in soql(live_server, env_id, "SELECT Id, Description FROM Case ORDER BY CaseNumber LIMIT 50") if "\n" in (r["Description"] or ""))
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/r/{case['Id']}/edit")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert live_server.gym.changes(env_id) == []


def test_convert_a_lead_into_an_account_found_by_name(page: Page, live_server: Any, env_id: str) -> None:
    lead = soql(live_server, env_id, "SELECT Id, Name FROM Lead WHERE IsConverted = false ORDER BY Name LIMIT 1")[0]
    account = soql(live_server, env_id, "SELECT Id, Name FROM Account ORDER BY Name DESC LIMIT 1")[0]
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/r/{lead['Id']}/convert")
    box = page.get_by_role("combobox", name="Existing Account")
    box.press_sequentially(account["Name"][:6])
    page.get_by_role("listbox", name="Existing Account suggestions").get_by_role("option", name=account["Name"]).first.click()
    page.get_by_label("Don't create an opportunity upon conversion").check()
    page.get_by_role("button", name="Convert").click()
    expect(page.get_by_role("status")).to_have_text("Your lead has been converted.")
    done = soql(live_server, env_id, f"SELECT ConvertedAccountId, IsConverted FROM Lead WHERE Id = '{lead['Id']}'")[0]
    assert done == {**done, "IsConverted": True, "ConvertedAccountId": account["Id"]}

    other = soql(live_server, env_id, "SELECT Id FROM Lead WHERE IsConverted = false ORDER BY Name LIMIT 1")[0]
    page.goto(f"{live_server.base_url}/envs/{env_id}/crm/r/{other['Id']}/convert")
    page.get_by_role("combobox", name="Existing Contact").fill("Nobody Atall")
    page.get_by_role("combobox", name="Existing Contact").press("Escape")
    page.get_by_role("button", name="Convert").click()
    expect(page.get_by_role("alert")).to_contain_text("Existing Contact: no contact is named 'Nobody Atall'")
    expect(page.get_by_role("combobox", name="Existing Contact")).to_have_value("Nobody Atall")
    assert soql(live_server, env_id, f"SELECT IsConverted FROM Lead WHERE Id = '{other['Id']}'")[0]["IsConverted"] is False
