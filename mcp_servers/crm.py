"""The crm toolsets, as tables of tool → operation bindings.

`REFERENCE` (the default) is tsmztech/mcp-server-salesforce, the most-used Salesforce MCP
server: its six data tools with their exact names, arguments, descriptions and formatted
text answers, plus lead conversion and a raw SOQL tool in the same style. `OFFICIAL` is the
Salesforce CLI's MCP server (salesforcecli/mcp): `run_soql_query`, answering the raw REST
query result, paired with the same DML tool, for agents that work in raw SOQL.
"""

from __future__ import annotations

from officegym.faces.mcp import Toolset, tool
from officegym.faces.probe import Call, Probe

QUERY_RECORDS_DOC = """Query records from any Salesforce object using SOQL, including relationship queries.

NOTE: For queries with GROUP BY, aggregate functions (COUNT, SUM, AVG, etc.), or HAVING clauses, use salesforce_aggregate_query instead.

Examples:
1. Parent-to-child query (e.g., Account with Contacts):
   - objectName: "Account"
   - fields: ["Name", "(SELECT Id, FirstName, LastName FROM Contacts)"]

2. Child-to-parent query (e.g., Contact with Account details):
   - objectName: "Contact"
   - fields: ["FirstName", "LastName", "Account.Name", "Account.Industry"]

3. Multiple level query (e.g., Contact -> Account -> Owner):
   - objectName: "Contact"
   - fields: ["Name", "Account.Name", "Account.Owner.Name"]

4. Related object filtering:
   - objectName: "Contact"
   - fields: ["Name", "Account.Name"]
   - whereClause: "Account.Industry = 'Technology'"

Note: When using relationship fields:
- Use dot notation for parent relationships (e.g., "Account.Name")
- Use subqueries in parentheses for child relationships (e.g., "(SELECT Id FROM Contacts)")
- Custom relationship fields end in "__r" (e.g., "CustomObject__r.Name")"""

AGGREGATE_DOC = """Execute SOQL queries with GROUP BY, aggregate functions, and statistical analysis. Use this tool for queries that summarize and group data rather than returning individual records.

NOTE: For regular queries without GROUP BY or aggregates, use salesforce_query_records instead.

This tool handles:
1. GROUP BY queries (single/multiple fields, related objects, date functions)
2. Aggregate functions: COUNT(), COUNT_DISTINCT(), SUM(), AVG(), MIN(), MAX()
3. HAVING clauses for filtering grouped results
4. Date/time grouping: CALENDAR_YEAR(), CALENDAR_MONTH(), CALENDAR_QUARTER(), FISCAL_YEAR(), FISCAL_QUARTER()

Examples:
1. Count opportunities by stage:
   - objectName: "Opportunity"
   - selectFields: ["StageName", "COUNT(Id) OpportunityCount"]
   - groupByFields: ["StageName"]

2. Count contacts by account industry:
   - objectName: "Contact"
   - selectFields: ["Account.Industry", "COUNT(Id) ContactCount"]
   - groupByFields: ["Account.Industry"]

3. Quarterly opportunity analysis:
   - objectName: "Opportunity"
   - selectFields: ["CALENDAR_YEAR(CloseDate) Year", "CALENDAR_QUARTER(CloseDate) Quarter", "SUM(Amount) Revenue"]
   - groupByFields: ["CALENDAR_YEAR(CloseDate)", "CALENDAR_QUARTER(CloseDate)"]

Important Rules:
- All non-aggregate fields in selectFields MUST be included in groupByFields
- Use whereClause to filter rows BEFORE grouping
- Use havingClause to filter AFTER grouping (for aggregate conditions)
- ORDER BY can only use fields from groupByFields or aggregate functions
- OFFSET is not supported with GROUP BY in Salesforce"""

DML_DOC = """Perform data manipulation operations on Salesforce records:
  - insert: Create new records
  - update: Modify existing records (requires Id)
  - delete: Remove records (requires Id)
  - upsert: Insert or update based on external ID field
  Examples: Insert new Accounts, Update Case status, Delete old records, Upsert based on custom external ID"""

SEARCH_ALL_DOC = """Search across multiple Salesforce objects using SOSL (Salesforce Object Search Language).

Examples:
1. Basic search across all objects:
   {"searchTerm": "John", "objects": [{"name": "Account", "fields": ["Name"], "limit": 10},
                                      {"name": "Contact", "fields": ["FirstName", "LastName", "Email"]}]}

2. Advanced search with filters:
   {"searchTerm": "Cloud*", "searchIn": "NAME FIELDS",
    "objects": [{"name": "Account", "fields": ["Name", "Industry"], "orderBy": "Name DESC", "where": "Industry = 'Technology'"}]}

Notes:
- Use * and ? for wildcards in search terms
- Each object can have its own WHERE, ORDER BY, and LIMIT clauses"""

QUERY_DOCS = {
    "objectName": "API name of the object to query", "fields": "List of fields to retrieve, including relationship fields",
    "whereClause": "WHERE clause, can include conditions on related objects",
    "orderBy": "ORDER BY clause, can include fields from related objects", "limit": "Maximum number of records to return",
}
AGGREGATE_DOCS = {
    "objectName": "API name of the object to query",
    "selectFields": "Fields to select - mix of group fields and aggregates. Format: 'FieldName' or 'COUNT(Id) AliasName'",
    "groupByFields": "Fields to group by - must include all non-aggregate fields from selectFields",
    "whereClause": "WHERE clause to filter rows BEFORE grouping (cannot contain aggregate functions)",
    "havingClause": "HAVING clause to filter results AFTER grouping (use for aggregate conditions)",
    "orderBy": "ORDER BY clause - can only use grouped fields or aggregate functions",
    "limit": "Maximum number of grouped results to return",
}
DML_DOCS = {
    "operation": "Type of DML operation to perform", "objectName": "API name of the object",
    "records": "Array of records to process", "externalIdField": "External ID field name for upsert operations",
}
SEARCH_DOCS = {
    "searchTerm": "Text to search for (supports wildcards * and ?)", "searchIn": "Which fields to search in",
    "objects": "List of objects to search and their return fields",
}
DML = tool("salesforce_dml_records", "crm.dmlRecords", DML_DOC, hint="destructive", docs=DML_DOCS)

REFERENCE = Toolset("reference", "crm", (
    # -- the reference server's data tools ----------------------------------------------
    tool("salesforce_search_objects", "crm.searchObjects",
         "Search for Salesforce standard and custom objects by name pattern. Examples: 'Account' will find Account, "
         "AccountHistory; 'Order' will find WorkOrder, ServiceOrder__c etc.",
         docs={"searchPattern": "Search pattern to find objects (e.g., 'Account Coverage' will find objects like 'AccountCoverage__c')"}),
    tool("salesforce_describe_object", "crm.describeObject",
         "Get detailed schema metadata including all fields, relationships, and field properties of any Salesforce object. "
         "Examples: 'Account' shows all Account fields including custom fields; 'Case' shows all Case fields including "
         "relationships to Account, Contact etc.",
         docs={"objectName": "API name of the object (e.g., 'Account', 'Contact', 'Custom_Object__c')"}),
    tool("salesforce_query_records", "crm.queryRecords", QUERY_RECORDS_DOC, docs=QUERY_DOCS),
    tool("salesforce_aggregate_query", "crm.aggregateQuery", AGGREGATE_DOC, docs=AGGREGATE_DOCS),
    DML,
    tool("salesforce_search_all", "crm.searchAll", SEARCH_ALL_DOC, docs=SEARCH_DOCS),
    # -- beyond the reference server, in its style --------------------------------------
    tool("salesforce_run_soql", "crm.query",
         "Run a raw SOQL query and return the REST API result as JSON: totalSize, done, nextRecordsUrl (when more remain), "
         "records with their attributes. Use for anything salesforce_query_records cannot express (semi-joins, OFFSET, COUNT()).",
         args={"query": "q"}, docs={"query": "The SOQL query, e.g. SELECT Id, Name FROM Account WHERE Industry = 'Retail'"}),
    tool("salesforce_query_more", "crm.queryMore",
         "Read the next batch of a query result: pass the nextRecordsUrl of the previous answer (or its locator '01g…-2000')",
         args={"nextRecordsUrl": "locator"},
         docs={"nextRecordsUrl": "The nextRecordsUrl of the previous result, e.g. '/services/data/v62.0/query/01g…-2000'"}),
    tool("salesforce_convert_lead", "crm.convertLead",
         "Convert a lead: creates an Account (or uses accountId) and a Contact (or merges into contactId), optionally an "
         "Opportunity, and marks the lead converted. Returns the ids of the account, contact and opportunity.",
         docs={"leadId": "Id of the lead to convert (00Q…)", "convertedStatus": "Converted lead status (default 'Closed - Converted')",
               "accountId": "Existing account to attach the contact to (default: create one from the lead's Company)",
               "contactId": "Existing contact of that account to merge the lead into (default: create one)",
               "opportunityName": "Name of the opportunity to create (default: the Company followed by '-')",
               "doNotCreateOpportunity": "true to convert without creating an opportunity",
               "ownerId": "User who owns the new records (default: the lead's owner); must be active"}),
), instructions="Salesforce: query (SOQL), aggregate, search (SOSL), describe objects, insert/update/delete records, convert leads (salesforce_* tools).")

OFFICIAL = Toolset("official", "crm", (
    tool("run_soql_query", "crm.runSoqlQuery",
         "Run a SOQL query against a Salesforce org. Returns the raw query result: totalSize, done, records (each with "
         "attributes.type and attributes.url).",
         docs={"query": "SOQL query to run", "usernameOrAlias": "The username or alias of the org to run the query against",
               "useToolingApi": "Use the Tooling API (for metadata objects like ApexClass); default false"}),
    DML,
), instructions="Salesforce, as the Salesforce CLI's MCP server offers it: run raw SOQL with run_soql_query; write with salesforce_dml_records.")

TOOLSETS = (REFERENCE, OFFICIAL)

# What `officegym bench` times for crm: a query over seeded pipeline data, and a Task insert.
BENCH_PROBE = Probe(
    mcp_read=Call("salesforce_query_records", {"objectName": "Opportunity", "fields": ["Name", "StageName", "Amount", "Account.Name"],
                                               "whereClause": "IsClosed = false", "orderBy": "Amount DESC", "limit": 10}),
    mcp_write=Call("salesforce_dml_records", {"operation": "insert", "objectName": "Task", "records": [{"Subject": "bench task {i}"}]}),
    rest_read=Call("services/data/v62.0/query", {"q": "SELECT Name, StageName, Amount, Account.Name FROM Opportunity WHERE IsClosed = false ORDER BY Amount DESC LIMIT 10"},
                   method="GET", operation="crm.query"),
    rest_write=Call("services/data/v62.0/sobjects/Task", {"Subject": "bench task {i}"}),
    queries=(
        ("SOQL simple", Call("crm.query", {"q": "SELECT Id, Name, StageName, Amount FROM Opportunity WHERE IsClosed = false LIMIT 10"})),
        ("SOQL parent path", Call("crm.query", {"q": "SELECT Name, Account.Name, Account.Owner.Name FROM Opportunity WHERE Account.Industry != null ORDER BY Amount DESC LIMIT 10"})),
        ("SOQL aggregate", Call("crm.query", {"q": "SELECT StageName, COUNT(Id) n, SUM(Amount) total FROM Opportunity GROUP BY StageName ORDER BY StageName"})),
    ),
)
