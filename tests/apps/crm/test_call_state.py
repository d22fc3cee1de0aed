"""What a call reads from the env is never kept from another call: query plans are kept per
query text (and those without a relative date literal for any day), the actor is read only
when a save needs it; the answers must still follow the env's clock, its writes and its
users, in each env on its own."""

from __future__ import annotations

from typing import Any

import pytest

from apps.crm.errors import CrmError
from apps.crm.service import ACTOR_META_KEY
from officegym.core.db import get_meta
from tests.apps.crm.conftest import runner


def ids(run: Any, soql: str) -> set[str]:
    return {r["Id"] for r in run("crm.query", q=soql)["records"]}


def test_date_literals_follow_the_env_clock(write: Any, gym: Any, env: Any) -> None:
    made = write("crm.create", sobject="Task", record={"Subject": "clock check"})["id"]
    today = "SELECT Id FROM Task WHERE CreatedDate = TODAY"
    plain = "SELECT Id FROM Task WHERE Subject = 'clock check'"
    assert made in ids(write, today) and ids(write, plain) == {made}
    gym.advance_clock(env.id, seconds=3 * 86_400)
    assert made not in ids(write, today), "TODAY is the env clock's day, not the day the query was first run"
    assert made in ids(write, "SELECT Id FROM Task WHERE CreatedDate = LAST_N_DAYS:3")
    assert ids(write, plain) == {made}, "a query without date literals answers the same on any day"


def test_kept_plans_keep_no_rows_across_writes_or_envs(write: Any, gym: Any, env: Any) -> None:
    soql = "SELECT Id, Subject FROM Task WHERE Subject = 'kept plan check' ORDER BY Id"
    assert ids(write, soql) == set()
    made = write("crm.create", sobject="Task", record={"Subject": "kept plan check"})["id"]
    assert ids(write, soql) == {made}, "a write is seen by the next query"
    other = gym.create()
    try:
        assert ids(runner(gym, other), soql) == set(), "nothing crosses envs"
    finally:
        gym.delete(other.id)
    with pytest.raises(CrmError):
        write("crm.create", sobject="Task", record={"Subject": "kept plan check", "Status": "Done"})
    answer = write("crm.dmlRecords", operation="insert", objectName="Task", records=[{"Subject": "kept plan check", "Status": "Done"}])
    assert "Failed: 1" in answer and ids(write, soql) == {made}, "a refused save leaves nothing behind"


def test_saves_are_stamped_by_the_acting_user_and_need_them_active(write: Any, gym: Any, env: Any) -> None:
    with gym.store.session(env) as db:
        actor = get_meta(db, ACTOR_META_KEY)
    made = write("crm.create", sobject="Task", record={"Subject": "who made this"})["id"]
    got = write("crm.retrieve", sobject="Task", id=made, fields="OwnerId,CreatedById,LastModifiedById")
    assert (got["OwnerId"], got["CreatedById"], got["LastModifiedById"]) == (actor, actor, actor)
    write("crm.update", sobject="User", id=actor, record={"IsActive": False})
    with pytest.raises(CrmError) as caught:
        write("crm.create", sobject="Task", record={"Subject": "owned by an inactive user"})
    assert caught.value.code == "INACTIVE_OWNER_OR_USER" and actor in caught.value.message


def test_kept_statements_see_each_call_s_rows(write: Any) -> None:
    """Child subqueries, counts and searches run statements kept from earlier calls; each run
    reads the env as it is now, for however many parents the batch has."""
    soql = "SELECT Id, (SELECT LastName FROM Contacts ORDER BY LastName) FROM Account ORDER BY Name LIMIT {n}"
    first = write("crm.query", q=soql.format(n=3))["records"]
    account = first[1]["Id"]
    before = [c["LastName"] for c in (first[1]["Contacts"] or {"records": []})["records"]]
    contacts = write("crm.query", q="SELECT COUNT() FROM Contact")["totalSize"]
    search = "FIND {Zzyzx} IN NAME FIELDS RETURNING Contact(Id, LastName)"
    assert write("crm.search", q=search)["searchRecords"] == []
    write("crm.create", sobject="Contact", record={"LastName": "Zzyzx Kept", "AccountId": account})
    for n in (3, 5, 3):
        again = write("crm.query", q=soql.format(n=n))["records"]
        assert [c["LastName"] for c in again[1]["Contacts"]["records"]] == sorted([*before, "Zzyzx Kept"], key=str.lower)
    assert write("crm.query", q="SELECT COUNT() FROM Contact")["totalSize"] == contacts + 1
    found = write("crm.search", q=search)["searchRecords"]
    assert [r["LastName"] for r in found] == ["Zzyzx Kept"]


def test_saves_in_one_transaction_each_take_the_next_id_and_tick(gym: Any, env: Any) -> None:
    """A save reads the meta it needs (actor, id counter, clock) in one statement when it
    begins; later saves of the same transaction see what earlier ones wrote, not the start."""
    from apps.crm.ids import COUNTER_KEY, make_id
    from apps.crm.objects import sobject
    from apps.crm.service import CrmService
    from officegym.core import clock

    with gym.store.session(env) as db:
        serial, started = int(get_meta(db, COUNTER_KEY)), clock.now_micros(db)
    with gym.store.session(env) as db:
        service = CrmService(db)
        made = [service.create("Task", {"Subject": f"one transaction {n}"})["id"] for n in range(3)]
        rows = [service.records.require(sobject("Task"), made_id) for made_id in made]
    assert made == [make_id("00T", serial + n) for n in (1, 2, 3)]
    stamps = [r["CreatedDate"] for r in rows]
    assert stamps == sorted(stamps) and len(set(stamps)) == 3
    with gym.store.session(env) as db:
        assert int(get_meta(db, COUNTER_KEY)) == serial + 3, "the counter is written with each save's clock tick"
        assert clock.now_micros(db) > started


def test_deactivating_the_acting_user_is_seen_by_the_next_save_of_the_same_transaction(gym: Any, env: Any) -> None:
    """Whether the acting user is active is read with the save's meta and kept for the
    transaction: a save of any User forgets it, so a later save asks again."""
    from apps.crm.objects import sobject
    from apps.crm.records import Records

    with gym.store.session(env) as db:
        actor = get_meta(db, ACTOR_META_KEY)
    with pytest.raises(CrmError) as caught, gym.store.session(env) as db:
        records = Records(db, actor)
        records.create(sobject("Task"), {"Subject": "while active"})
        records.update(sobject("User"), actor, {"IsActive": False})
        records.create(sobject("Task"), {"Subject": "after deactivating"})
    assert caught.value.code == "INACTIVE_OWNER_OR_USER"
    with gym.store.session(env) as db:
        records = Records(db, actor)
        records.update(sobject("User"), actor, {"IsActive": False})
        with pytest.raises(CrmError):
            records.create(sobject("Task"), {"Subject": "deactivated first"})
        records.update(sobject("User"), actor, {"IsActive": True})
        assert records.create(sobject("Task"), {"Subject": "active again"}).startswith("00T")
