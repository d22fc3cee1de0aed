"""The typed arguments of crm operations: one definition of what each face accepts, with
the descriptions agents read in tool schemas and Salesforce's own limits."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Soql = Annotated[str, Field(max_length=100_000, description="A SOQL query, e.g. SELECT Id, Name FROM Account WHERE Industry = 'Retail' LIMIT 10")]
Sosl = Annotated[str, Field(max_length=100_000, description="A SOSL search, e.g. FIND {Acme*} IN NAME FIELDS RETURNING Account(Id, Name), Contact(Id, Name, Email)")]
Locator = Annotated[str, Field(max_length=200_000, description="The query locator at the end of a nextRecordsUrl ('01g…-2000')")]
ObjectName = Annotated[str, Field(max_length=80, description="API name of the object, e.g. Account, Contact, Opportunity, Case, Lead, Task")]
RecordId = Annotated[str, Field(max_length=40, description="A record Id (15 or 18 characters, e.g. '001Hs000TwFovyCIIR')")]
FieldList = Annotated[str, Field(max_length=10_000, description="Comma-separated field names to return (default: all)")]
Values = Annotated[dict[str, Any], Field(description="Field API names to values, e.g. {\"Name\": \"Acme\", \"Industry\": \"Retail\"}")]
Pattern = Annotated[str, Field(max_length=200, description="Search pattern for object names and labels (e.g. 'Account' or 'Price Book')")]
Fields = Annotated[list[Annotated[str, Field(max_length=10_000)]], Field(min_length=1, max_length=500, description="List of fields to retrieve, including relationship fields")]
Clause = Annotated[str, Field(max_length=50_000)]
Limit = Annotated[int, Field(ge=1, le=50_000, description="Maximum number of records to return")]
DmlOperation = Annotated[Literal["insert", "update", "delete", "upsert"], Field(description="Type of DML operation to perform")]
Records = Annotated[list[dict[str, Any]], Field(min_length=1, max_length=200, description="Array of records to process")]
SearchIn = Annotated[Literal["ALL FIELDS", "NAME FIELDS", "EMAIL FIELDS", "PHONE FIELDS", "SIDEBAR FIELDS"],
                     Field(description="Which fields to search in")]
SearchTerm = Annotated[str, Field(max_length=4_000, description="Text to search for (supports wildcards * and ?)")]
LeadStatus = Annotated[str, Field(max_length=80, description="The lead status meaning converted (default 'Closed - Converted')")]
OpportunityName = Annotated[str, Field(max_length=120, description="Name of the opportunity to create (default: the lead's company followed by '-')")]
Flag = Annotated[bool, Field(description="true or false")]
MasterRecord = Annotated[dict[str, Any], Field(description="The record to keep: its Id, and the field values it takes from the merged records, "
                                                           "e.g. {\"Id\": \"003…\", \"Phone\": \"+1 555 0100\"}")]
MergeIds = Annotated[list[RecordId], Field(min_length=1, max_length=2, description="Ids of the 1 or 2 records to merge into the master (deleted once merged)")]


class SearchObject(BaseModel):
    """One object to return from a search, as salesforce_search_all takes it."""

    model_config = ConfigDict(extra="ignore")
    name: Annotated[str, Field(max_length=80, description="API name of the object")]
    fields: Annotated[list[Annotated[str, Field(max_length=200)]], Field(min_length=1, max_length=200, description="Fields to return for this object")]
    where: Annotated[str | None, Field(max_length=10_000, description="WHERE clause for filtering results")] = None
    orderBy: Annotated[str | None, Field(max_length=1_000, description="ORDER BY clause for sorting results")] = None
    limit: Annotated[int | None, Field(ge=1, le=2_000, description="Maximum number of records to return for this object")] = None


SearchObjects = Annotated[list[SearchObject], Field(min_length=1, max_length=20, description="List of objects to search and their return fields")]
