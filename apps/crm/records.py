"""Creating, updating and deleting records, with the checks a real org makes on every save:
known and writable fields, values of the field's type and length, restricted picklists,
lookups that point at an existing record of the right object, active owners, required
fields; then each object's own rules (apps/crm/rules.py) derive fields and run its
validation rules. A record that fails any check is not written at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.orm import Session

from apps.crm import rules
from apps.crm.errors import CrmError
from apps.crm.ids import COUNTER_KEY, to18, upcoming_ids
from apps.crm.models import TABLES
from apps.crm.objects import BY_PREFIX, sobject
from apps.crm.schema import SObject
from apps.crm.values import BadValue, coerce, sf_stamp
from officegym.core import clock
from officegym.core.db import Meta, meta_cache, meta_value
from officegym.core.sql import Prepared

IGNORED_KEYS = frozenset({"attributes"})  # sent back by clients that echo a record they read
ACTOR_META_KEY = "crm.actor_user_id"

# The env's meta values a save reads: who saves, the id counter, the clock its stamp ticks
# ("clock_us", "clock_ticks": officegym/core/clock.py). Read in one statement when a save
# begins, into the transaction's meta cache (each was a statement of its own, a tenth of a
# create), with whether the saving user is active (a new record's default owner, whom the
# save checks); the clock and the counter then read and write them there as usual.
SAVE_META_KEYS = (ACTOR_META_KEY, COUNTER_KEY, "clock_us", "clock_ticks")
_USERS, _META = TABLES["User"], Meta.__table__


# One row: each value, then the acting user's IsActive (scalar subqueries: cheaper to run and
# to read than a row per key).
_SAVE_META = Prepared(select(
    *(meta_value(key) for key in SAVE_META_KEYS),
    select(_USERS.c.IsActive).where(_USERS.c.Id == meta_value(ACTOR_META_KEY)).scalar_subquery(),
))


def read_save_meta(db: Session) -> tuple[str, bool] | None:
    """Put the meta values a save reads into this transaction's meta cache, unless they are
    there already (values written earlier in the transaction are never read over). Answers
    (the saving user's Id, whether that user is active) when it read them, else None."""
    known = meta_cache(db)
    if all(key in known for key in SAVE_META_KEYS):
        return None
    *values, active = _SAVE_META.tuples(db)[0]
    for key, value in zip(SAVE_META_KEYS, values, strict=True):
        known.setdefault(key, value)
    actor = values[0]
    return (actor, bool(active)) if actor is not None and known[ACTOR_META_KEY] == actor else None


def object_named(name: Any) -> SObject:
    obj = sobject(name) if isinstance(name, str) else None
    if obj is None:
        raise CrmError("NOT_FOUND", f"The requested resource does not exist: sObject type {str(name)[:80]!r} is not supported; "
                                    f"use one of: {', '.join(o.name for o in _objects())}")
    return obj


def _objects() -> list[SObject]:
    from apps.crm.objects import OBJECTS

    return list(OBJECTS)


# Every save reads the record (and its owner) by Id and writes one row: statements prepared
# once per object and per set of columns (officegym/core/sql.py), not built per call.
_BY_ID = {name: Prepared(select(table).where(table.c.Id == bindparam("record_id"))) for name, table in TABLES.items()}
_EXISTS = {name: Prepared(select(table.c.Id).where(table.c.Id == bindparam("record_id"))) for name, table in TABLES.items()}
_USER_ACTIVE = Prepared(select(TABLES["User"].c.IsActive).where(TABLES["User"].c.Id == bindparam("record_id")))
_USER_PREFIX = sobject("User").prefix
_WRITES: dict[tuple[str, str, frozenset[str]], Prepared] = {}
# A delete removes the record and, first, every record that cannot exist without it (rules.py
# cascades): one read per dependent kind and link field, one delete per record.
_DELETE = {name: Prepared(delete(table).where(table.c.Id == bindparam("record_id"))) for name, table in TABLES.items()}
_WHERE: dict[tuple[str, str], Prepared] = {}


def _where(name: str, field: str) -> Prepared:
    """The records of object `name` whose `field` is :value, in one prepared read."""
    prepared = _WHERE.get((name, field))
    if prepared is None:
        table = TABLES[name]
        prepared = _WHERE[(name, field)] = Prepared(select(table).where(table.c[field] == bindparam("value")))
    return prepared


def _write(kind: str, name: str, columns: frozenset[str]) -> Prepared:
    key = (kind, name, columns)
    prepared = _WRITES.get(key)
    if prepared is None:
        table = TABLES[name]
        values = {c: bindparam(c) for c in columns}
        if kind == "insert":
            statement = insert(table).values(values)
        else:
            statement = update(table).where(table.c.Id == bindparam("record_id")).values(values)
        prepared = _WRITES[key] = Prepared(statement)
    return prepared


_BLANKS: dict[str, dict[str, Any]] = {}


def _blank(obj: SObject) -> dict[str, Any]:
    """A new record of `obj` before its given values: each field's default (false for flags).
    Kept per object (every create copies it; nobody changes it)."""
    blank = _BLANKS.get(obj.name)
    if blank is None:
        blank = _BLANKS[obj.name] = {f.name: f.default if f.default is not None else (False if f.type == "boolean" else None)
                                     for f in obj.fields}
    return blank


_REQUIRED: dict[str, tuple[str, ...]] = {}


def _required(obj: SObject) -> tuple[str, ...]:
    """The fields a saved record of `obj` must have a value in (kept per object)."""
    names = _REQUIRED.get(obj.name)
    if names is None:
        names = _REQUIRED[obj.name] = tuple(f.name for f in obj.fields if f.required and f.createable)
    return names


class Records:
    def __init__(self, db: Session, actor_id: str | None, find_actor: Callable[[], str] | None = None) -> None:
        """`actor_id` who saves; when None, `find_actor` says, asked the first time it matters."""
        self.db = db
        self._actor_id = actor_id
        self._find_actor = find_actor
        # (the env's acting user, whether active), read with the meta a save begins with;
        # forgotten when a save changes any User, so a check never reads a stale answer.
        self._acting_user: tuple[str, bool] | None = None

    @property
    def actor_id(self) -> str:
        if self._actor_id is None:
            self._actor_id = self._find_actor() if self._find_actor is not None else ""
        return self._actor_id

    # -- reading ----------------------------------------------------------------------
    def get(self, obj: SObject, record_id: Any) -> dict[str, Any] | None:
        full = to18(record_id) if isinstance(record_id, str) else None
        if full is None or full[:3] != obj.prefix:
            return None
        rows = _BY_ID[obj.name].mappings(self.db, record_id=full)
        return rows[0] if rows else None

    def require(self, obj: SObject, record_id: Any) -> dict[str, Any]:
        found = self.get(obj, record_id)
        if found is None:
            shown = str(record_id)[:40]
            if not isinstance(record_id, str) or to18(record_id) is None:
                raise CrmError("MALFORMED_ID", f"{obj.name} ID: id value of incorrect type: {shown!r} (ids are 15 or 18 characters, "
                                               f"{obj.name} ids start with {obj.prefix})", ["Id"])
            raise CrmError("NOT_FOUND", f"The requested resource does not exist: no {obj.name} with Id {shown}")
        return found

    def exists(self, record_id: str) -> SObject | None:
        obj = BY_PREFIX.get(record_id[:3])
        if obj is None:
            return None
        return obj if _EXISTS[obj.name].first(self.db, record_id=record_id) is not None else None

    # -- checks -----------------------------------------------------------------------
    def clean(self, obj: SObject, values: Any, creating: bool) -> dict[str, Any]:
        """The given values, by canonical field name, coerced and checked one by one."""
        if not isinstance(values, dict):
            raise CrmError("JSON_PARSER_ERROR", f"a {obj.name} record must be an object of field names to values")
        cleaned: dict[str, Any] = {}
        for key, raw in values.items():
            if key in IGNORED_KEYS or (key == "Id" and not creating):
                continue
            field = obj.field(str(key))
            if field is None:
                raise CrmError("INVALID_FIELD", f"No such column '{str(key)[:80]}' on sobject of type {obj.name}", [str(key)[:80]])
            if not (field.createable if creating else field.updateable):
                verb = "create" if creating else "update"
                raise CrmError("INVALID_FIELD_FOR_INSERT_UPDATE", f"Unable to {verb} fields: {field.name}. It is read-only "
                                                                  f"(set by the system or derived from other fields)", [field.name])
            try:
                value = coerce(field, raw)
            except BadValue as bad:
                code = "STRING_TOO_LONG" if "too large" in str(bad) else "INVALID_TYPE_ON_FIELD_IN_RECORD"
                raise CrmError(code, str(bad), [field.name]) from None
            if field.type == "picklist" and field.restricted and value is not None and value not in field.picklist:
                raise CrmError("INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST",
                               f"{field.name}: bad value for restricted picklist field: {str(value)[:80]}; accepted: "
                               f"{', '.join(field.picklist)}", [field.name])
            if field.type == "multipicklist" and value is not None:
                value = self._multi(field, value)
            if field.type == "reference" and value is not None:
                value = self._reference(obj, field.name, field.reference_to, value)
            cleaned[field.name] = value
        return cleaned

    @staticmethod
    def _multi(field: Any, value: str) -> str | None:
        """A multi-select value as Salesforce stores it: known values, ';'-separated, in picklist order."""
        chosen = [part.strip() for part in value.split(";") if part.strip()]
        unknown = [part for part in chosen if part not in field.picklist]
        if unknown:
            raise CrmError("INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", f"{field.name}: bad value for restricted picklist field: "
                                                                      f"{unknown[0][:80]}; accepted: {', '.join(field.picklist)}", [field.name])
        return ";".join(v for v in field.picklist if v in chosen) or None

    def _reference(self, obj: SObject, name: str, targets: tuple[str, ...], value: str) -> str:
        full = to18(value)
        allowed = {sobject(t).prefix: t for t in targets}
        if full is None or full[:3] not in allowed:
            raise CrmError("FIELD_INTEGRITY_EXCEPTION", f"{name}: id value of incorrect type: {value[:40]!r}; it takes the Id of "
                                                        f"a {' or '.join(targets)}", [name])
        if self.exists(full) is None:
            raise CrmError("INVALID_CROSS_REFERENCE_KEY", f"{name}: invalid cross reference id {value[:40]!r}: no such "
                                                          f"{allowed[full[:3]]}", [name])
        return full

    def check_owner(self, record: dict[str, Any], obj: SObject) -> None:
        owner = record.get("OwnerId")
        if owner is None or obj.field("OwnerId") is None:
            return
        acting = self._acting_user
        if acting is not None and owner == acting[0]:  # the default owner (an 18-character Id as stored)
            active = acting[1]
        else:
            full = to18(owner) if isinstance(owner, str) else None
            user = _USER_ACTIVE.first(self.db, record_id=full) if full is not None and full[:3] == _USER_PREFIX else None
            active = user is not None and bool(user[0])
        if not active:
            raise CrmError("INACTIVE_OWNER_OR_USER", f"operation performed with inactive user [{owner}] as owner of "
                                                     f"{obj.name.lower()}: owners must be active users", ["OwnerId"])

    @staticmethod
    def check_required(obj: SObject, record: dict[str, Any]) -> None:
        missing = [name for name in _required(obj) if record.get(name) in (None, "")]
        if missing:
            raise CrmError("REQUIRED_FIELD_MISSING", f"Required fields are missing: [{', '.join(missing)}]", missing)

    # -- writing ----------------------------------------------------------------------
    def _stamp(self) -> str:
        return sf_stamp(clock.tick(self.db))

    def _begin_save(self, obj: SObject) -> None:
        acting = read_save_meta(self.db)
        if acting is not None:
            self._acting_user = acting
        if obj.name == "User":  # this save may (de)activate the acting user: ask again after it
            self._acting_user = None

    def create(self, obj: SObject, values: Any) -> str:
        self._begin_save(obj)
        given = self.clean(obj, values, creating=True)
        record = {**_blank(obj), **given}
        if obj.field("OwnerId") is not None and record.get("OwnerId") is None:
            record["OwnerId"] = self.actor_id
        rules.before_save(self, obj, record, None, set(given))
        self.check_required(obj, record)
        self.check_owner(record, obj)
        ids, counter = upcoming_ids(self.db, obj.prefix)
        stamp = sf_stamp(clock.tick(self.db, also=counter))  # the counter written with the clock: one statement
        record.update(Id=ids[0], CreatedDate=stamp, LastModifiedDate=stamp, SystemModstamp=stamp,
                      CreatedById=self.actor_id, LastModifiedById=self.actor_id)
        _write("insert", obj.name, frozenset(record)).run(self.db, **record)
        rules.after_save(self, obj, record, None)
        return record["Id"]

    def update(self, obj: SObject, record_id: Any, values: Any) -> dict[str, Any]:
        self._begin_save(obj)
        before = self.require(obj, record_id)
        given = self.clean(obj, values, creating=False)
        record = {**before, **given}
        rules.before_save(self, obj, record, before, set(given))
        self.check_required(obj, record)
        if "OwnerId" in given:
            self.check_owner(record, obj)
        stamp = self._stamp()
        record.update(LastModifiedDate=stamp, SystemModstamp=stamp, LastModifiedById=self.actor_id)
        changes = {k: v for k, v in record.items() if before.get(k) != v}
        _write("update", obj.name, frozenset(changes)).run(self.db, record_id=before["Id"], **changes)
        rules.after_save(self, obj, record, before)
        return record

    def delete(self, obj: SObject, record_id: Any) -> str:
        self._begin_save(obj)
        record = self.require(obj, record_id)
        rules.before_delete(self, obj, record)
        _DELETE[obj.name].run(self.db, record_id=record["Id"])
        rules.after_delete(self, obj, record)
        self._stamp()
        return record["Id"]

    def delete_where(self, obj: SObject, field: str, value: str) -> None:
        """Delete the records of `obj` whose `field` is `value`, with their own dependents."""
        for row in _where(obj.name, field).mappings(self.db, value=value):
            rules.before_delete(self, obj, row)
            _DELETE[obj.name].run(self.db, record_id=row["Id"])
