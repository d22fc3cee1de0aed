"""The data tools of the most-used Salesforce MCP server (tsmztech/mcp-server-salesforce), as
operations: they build SOQL/SOSL from their arguments, run it through the same query engine
as the REST API, and answer in that server's formatted text ("Query returned 3 records: …"),
so an agent sees here what it sees there. DML keeps Salesforce's per-record semantics: each
record is checked and saved on its own, and the answer lists which ones failed and why.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from pydantic import Field
from sqlalchemy import select

from apps.crm.errors import CrmError
from apps.crm.models import TABLES
from apps.crm.objects import OBJECTS
from apps.crm.params import Clause, DmlOperation, Fields, Limit, ObjectName, Pattern, Records, SearchIn, SearchObjects, SearchTerm, Soql
from apps.crm.records import object_named
from apps.crm.soql.parser import SoqlError
from apps.crm.soql.run import run_query
from officegym.core.operations import operation

AGGREGATES = ("COUNT(", "COUNT_DISTINCT(", "SUM(", "AVG(", "MIN(", "MAX(")


def _shown(value: Any) -> str:
    if type(value) is str:  # most values: first, as the cheapest test
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_ABSENT = object()


def _path_line(record: dict[str, Any], name: str, parts: tuple[str, ...]) -> str:
    """`name: value` for a field path ("Account.Owner.Name"), null when a parent on the way is."""
    value: Any = record
    for part in parts:
        found = value.get(part, _ABSENT)
        value = _get(value, part) if found is _ABSENT else found
        if value is None:
            return f"    {name}: null"
    if isinstance(value, list):
        return f"    {name}: [{len(value)} records]"
    return f"    {name}: {_shown(value)}"


def _child_line(record: dict[str, Any], relationship: str) -> str:
    children = _get(record, relationship)
    return f"    {relationship}: [{len(children['records']) if children else 0} records]"


def _get(record: dict[str, Any], name: str) -> Any:
    """A record's value by field name, case-insensitively (SOQL names are case-insensitive)."""
    if name in record:
        return record[name]
    return next((v for k, v in record.items() if k.lower() == name.lower()), None)


@lru_cache(maxsize=None)
def _described(object_name: str) -> str:
    """An object's schema as the reference server prints it; kept per object (the schema is
    fixed, and agents describe the same few objects again and again)."""
    described = object_named(object_name).describe()
    lines = []
    for f in described["fields"]:
        refs = f"References: {', '.join(f['referenceTo'])}" if f["referenceTo"] else ""
        picks = f"Picklist Values: {', '.join(v['value'] for v in f['picklistValues'])}" if f["picklistValues"] else ""
        length = f", Length: {f['length']}" if f["length"] else ""
        lines.append(f"  - {f['name']} ({f['label']})\n    Type: {f['type']}{length}\n    Required: {str(not f['nillable']).lower()}\n    {refs}\n    {picks}")
    return f"\nObject: {described['name']} ({described['label']})\nFields:\n" + "\n".join(lines)


class ReferenceTools:
    @operation("crm.searchObjects")
    def search_objects(self, searchPattern: Pattern) -> str:
        """Search for Salesforce standard and custom objects by name pattern."""
        terms = [t for t in searchPattern.lower().split(" ") if t]
        found = [o for o in OBJECTS if all(t in o.name.lower() or t in o.label.lower() for t in terms)]
        if not found:
            return f'No Salesforce objects found matching "{searchPattern}".'
        listed = "\n\n".join(f"{o.name}\n  Label: {o.label}" for o in found)
        return f"Found {len(found)} matching objects:\n\n{listed}"

    @operation("crm.describeObject")
    def describe_object(self, objectName: ObjectName) -> str:
        """Get detailed schema metadata for an object: fields, types, lengths, required, references, picklist values."""
        return _described(object_named(objectName).name)

    @operation("crm.queryRecords")
    def query_records(self, objectName: ObjectName, fields: Fields, whereClause: Clause | None = None,
                      orderBy: Clause | None = None, limit: Limit | None = None) -> str:
        """Query records with SOQL built from an object, fields (dot paths and child subqueries), WHERE, ORDER BY and LIMIT."""
        for name in fields:
            if "." in name and not name.lstrip().startswith("(") and any(not part for part in name.split(".")):
                raise CrmError("INVALID_FIELD", f'Invalid relationship field format: "{name}". Relationship fields should use proper dot notation (e.g., "Account.Name")')
        soql = f"SELECT {', '.join(fields)} FROM {objectName}"
        if whereClause:
            soql += f" WHERE {whereClause}"
        if orderBy:
            soql += f" ORDER BY {orderBy}"
        if limit:
            soql += f" LIMIT {limit}"
        result = self._run(soql)
        # How each field is printed, worked out once (not per record): a child subquery as its
        # count of records, a path as its value, or null where a parent on the way is null.
        printers: list[tuple[str, tuple[str, ...] | None]] = []
        for name in fields:
            if name.lstrip().upper().startswith("(SELECT"):
                words = name.replace("(", " ").replace(")", " ").split()
                printers.append((next((words[i + 1] for i, w in enumerate(words[:-1]) if w.upper() == "FROM"), ""), None))
            else:
                printers.append((name.strip(), tuple(name.strip().split("."))))
        blocks = [
            f"Record {index}:\n" + "\n".join(_child_line(record, name) if parts is None else _path_line(record, name, parts)
                                               for name, parts in printers)
            for index, record in enumerate(result["records"], start=1)
        ]
        return f"Query returned {len(result['records'])} records:\n\n" + "\n\n".join(blocks)

    @operation("crm.aggregateQuery")
    def aggregate_query(self, objectName: ObjectName, selectFields: Fields, groupByFields: Fields, whereClause: Clause | None = None,
                        havingClause: Clause | None = None, orderBy: Clause | None = None, limit: Limit | None = None) -> str:
        """Run a GROUP BY query with aggregate functions (COUNT, SUM, AVG, MIN, MAX, COUNT_DISTINCT) and HAVING."""
        grouped = {g.strip().lower() for g in groupByFields}
        missing = [f for f in selectFields if not f.strip().upper().startswith(AGGREGATES) and f.strip().split()[0].lower() not in grouped]
        if missing:
            raise CrmError("MALFORMED_QUERY", f"The following non-aggregate fields must be included in GROUP BY clause: {', '.join(missing)}\n\n"
                                              "All fields in SELECT that are not aggregate functions (COUNT, SUM, AVG, etc.) must be included in GROUP BY.")
        soql = f"SELECT {', '.join(selectFields)} FROM {objectName}"
        if whereClause:
            soql += f" WHERE {whereClause}"
        soql += f" GROUP BY {', '.join(groupByFields)}"
        if havingClause:
            soql += f" HAVING {havingClause}"
        if orderBy:
            soql += f" ORDER BY {orderBy}"
        if limit:
            soql += f" LIMIT {limit}"
        result = self._run(soql)
        blocks = []
        for index, record in enumerate(result["records"], start=1):
            lines = []
            unnamed = 0
            for spec in selectFields:
                parts = spec.strip().split()
                base = parts[0]
                if len(parts) > 1:
                    name = parts[-1]
                elif base.upper().startswith(AGGREGATES) or base.upper().startswith(("CALENDAR_", "DAY_", "FISCAL_")):
                    name, unnamed = f"expr{unnamed}", unnamed + 1
                else:
                    name = base.split(".")[-1]
                lines.append(f"    {name}: {_shown(_get(record, name))}")
            blocks.append(f"Group {index}:\n" + "\n".join(lines))
        return f"Aggregate query returned {len(result['records'])} grouped results:\n\n" + "\n\n".join(blocks)

    @operation("crm.dmlRecords", writes=True)
    def dml_records(self, operation: DmlOperation, objectName: ObjectName, records: Records,
                    externalIdField: Annotated[str, Field(max_length=80, description="External ID field name for upsert operations")] | None = None) -> str:
        """Insert, update, delete or upsert records; each record succeeds or fails on its own."""
        obj = object_named(objectName)
        if operation == "upsert" and not externalIdField:
            raise CrmError("MISSING_ARGUMENT", "externalIdField is required for upsert operations")
        results = [self._save_one(obj, operation, record, externalIdField) for record in records]
        failed = [(i, r) for i, r in enumerate(results, start=1) if not r["success"]]
        text = f"{operation.upper()} operation completed.\nProcessed {len(results)} records:\n"
        text += f"- Successful: {len(results) - len(failed)}\n- Failed: {len(failed)}\n\n"
        if failed:
            text += "Errors:\n"
            for index, result in failed:
                text += f"Record {index}:\n"
                for error in result["errors"]:
                    text += f"  - {error['message']} [{error['statusCode']}]"
                    if error["fields"]:
                        text += f"\n    Fields: {', '.join(error['fields'])}"
                    text += "\n"
        ids = [r["id"] for r in results if r["success"] and r["id"]]
        if ids and operation in ("insert", "upsert"):
            text += "Ids: " + ", ".join(ids) + "\n"
        return text

    def _save_one(self, obj: Any, operation: str, record: dict[str, Any], external: str | None) -> dict[str, Any]:
        try:
            if operation == "insert":
                return {"id": self.records.create(obj, record), "success": True, "errors": []}
            record_id = _get(record, "Id")
            if operation == "upsert":
                record_id = self._upsert_target(obj, record, external or "Id")
                if record_id is None:
                    values = {k: v for k, v in record.items() if k.lower() != "id"}
                    return {"id": self.records.create(obj, values), "success": True, "errors": [], "created": True}
            if not record_id:
                raise CrmError("MISSING_ARGUMENT", f"Id not specified in an {operation} call", ["Id"])
            if operation == "delete":
                return {"id": self.records.delete(obj, record_id), "success": True, "errors": []}
            return {"id": self.records.update(obj, record_id, record)["Id"], "success": True, "errors": []}
        except CrmError as error:
            return {"id": None, "success": False, "errors": [{"statusCode": error.code, "message": error.message, "fields": error.fields}]}

    def _upsert_target(self, obj: Any, record: dict[str, Any], external: str) -> str | None:
        field = obj.field(external)
        if field is None:
            raise CrmError("INVALID_FIELD", f"No such column '{external[:80]}' on sobject of type {obj.name}", [external[:80]])
        value = _get(record, field.name)
        if value is None:
            raise CrmError("MISSING_ARGUMENT", f"{field.name} not specified: upsert matches records on it", [field.name])
        if field.name == "Id":
            return value
        table = TABLES[obj.name]
        matches = self.db.execute(select(table.c.Id).where(table.c[field.name] == value).limit(2)).scalars().all()
        if len(matches) > 1:
            raise CrmError("DUPLICATE_EXTERNAL_ID", f"{field.name} = {str(value)[:80]!r} matches more than one {obj.name}", [field.name])
        return matches[0] if matches else None

    @operation("crm.searchAll")
    def search_all(self, searchTerm: SearchTerm, objects: SearchObjects, searchIn: SearchIn = "ALL FIELDS") -> str:
        """Search across objects with SOSL: a term (wildcards * and ?) in a field scope, returning given fields per object."""
        if not searchTerm.strip():
            raise CrmError("MALFORMED_SEARCH", "Search term cannot be empty")
        returning = []
        for spec in objects:
            clause = f"{spec.name}({','.join(spec.fields)}"
            if spec.where:
                clause += f" WHERE {spec.where}"
            if spec.orderBy:
                clause += f" ORDER BY {spec.orderBy}"
            if spec.limit:
                clause += f" LIMIT {spec.limit}"
            returning.append(clause + ")")
        term = searchTerm.replace("\\", "\\\\").replace("}", "\\}")
        found = self.search(f"FIND {{{term}}} IN {searchIn} RETURNING {', '.join(returning)}")["searchRecords"]
        text = ""
        for index, spec in enumerate(objects):
            rows = [r for r in found if r["attributes"]["type"].lower() == spec.name.lower()]
            text += f"\n{spec.name} ({len(rows)} records found):\n"
            for number, record in enumerate(rows, start=1):
                text += f"  Record {number}:\n"
                for name in spec.fields:
                    text += f"    {name}: {_shown(_get(record, name))}\n"
            if index < len(objects) - 1:
                text += "\n"
        return f"Search Results:{text}"

    @operation("crm.runSoqlQuery")
    def run_soql_query(self, query: Soql, usernameOrAlias: Annotated[str, Field(max_length=255, description="The org's username or alias (this server has one org)")] | None = None,
                       useToolingApi: Annotated[bool, Field(description="Query the Tooling API instead (not available here)")] = False) -> dict[str, Any]:
        """Run a SOQL query against the org and return the raw REST result: totalSize, done, records."""
        if useToolingApi:
            raise CrmError("INVALID_TYPE", "the Tooling API is not available in this org; query standard objects with useToolingApi=false")
        return self.soql(query)

    def _run(self, soql: str) -> dict[str, Any]:
        try:
            return run_query(self.db, soql, self.today)
        except SoqlError as error:
            raise CrmError(error.code, error.message) from None


def bind(service_class: type) -> None:
    """Make every operation above a method of the service (collect reads the class's own names)."""
    for name, attribute in vars(ReferenceTools).items():
        if callable(attribute) and not name.startswith("__"):
            setattr(service_class, name, attribute)

